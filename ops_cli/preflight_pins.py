"""Preflight rows for what an environment runs, pinned: the images by digest and the model at a Hub commit.

An example environment (one still holding the examples' placeholder ids, deployment_config/placeholders.py) is not
checked: it never deploys. For any other, a tag or a branch is refused before ``cdk deploy``: a tag can be moved to
another image and a branch to other weights and, with ``--trust-remote-code``, other Python code that then runs in the
pod (the preset's arguments include it). The rows print the commands that give the digest and the commit. They call no
AWS API, so they are shown even when the credentials row fails.
"""

from __future__ import annotations

import re

from deployment_config.model import EnvironmentConfig, WeightSource
from deployment_config.support_images import support_images
from ops_cli.preflight_check import Check, Status

#: A digest as the configuration loader accepts one after the image name (deployment_config/aws_rules/images.py, after
#: opencontainers/go-digest): sha256, sha384 or sha512.
_DIGEST = re.compile(r"@sha(256|384|512):[a-f0-9]+$")
#: The Hub API answers a model's info at a revision, whose ``sha`` is the commit (huggingface/huggingface_hub@ee0a4510
#: src/huggingface_hub/hf_api.py ``HfApi.model_info``: GET /api/models/{repo_id}/revision/{revision}).
HUB_REVISION_API = "https://huggingface.co/api/models/{model}/revision/main"


def pin_checks(env: EnvironmentConfig) -> list[Check]:
    """The image digest row, the support images' row (when the environment runs any: S3 weights or a router on EKS)
    and the model revision row; none for an example environment."""
    if env.placeholders:
        return []
    support = [_support_images(env)] if support_images(env) else []
    return [_image_digest(env), *support, _model_revision(env)]


def _support_images(env: EnvironmentConfig) -> Check:
    """The AWS CLI and router images the project's charts run (deployment_config/support_images.py): a tag there can
    be moved as well as model.image's, and the weights copy and the router see every request and the weights."""
    name, images = "support images pinned by digest", support_images(env)
    tags = {container: image for container, image in images.items() if not _DIGEST.search(image)}
    if not tags:
        return Check(name, Status.PASS, ", ".join(f"{c} {i}" for c, i in images.items()))
    listed = ", ".join(f"{container} runs {image}" for container, image in tags.items())
    return Check(
        name,
        Status.FAIL,
        f"{listed}: a tag, which the registry can point at another image",
        "look up each digest: "
        + "; ".join(f"crane digest {image}" for image in tags.values())
        + " (or docker buildx imagetools inspect IMAGE); then write IMAGE@sha256:DIGEST in "
        "deployment_config/support_images.py",
    )


def _image_digest(env: EnvironmentConfig) -> Check:
    name, image = "image pinned by digest", env.model.image
    if _DIGEST.search(image):
        return Check(name, Status.PASS, image)
    return Check(
        name,
        Status.FAIL,
        f"model.image {image} names a tag, which the registry can point at another image; "
        "a node that pulls again would run that one",
        f"look up its digest: docker buildx imagetools inspect {image} --format '{{{{json .Manifest}}}}' "
        f'(the "digest" field), or crane digest {image}; then set model.image: {image}@sha256:DIGEST',
    )


def _model_revision(env: EnvironmentConfig) -> Check:
    name, model = "model revision pinned", env.model
    if model.hugging_face_revision:
        return Check(name, Status.PASS, f"{model.hugging_face_id}@{model.hugging_face_revision}")
    code = (
        "; with --trust-remote-code the repository's Python code of that moment runs in the pod"
        if "--trust-remote-code" in model.serving_args
        else ""
    )
    if model.weight_source is WeightSource.S3:
        return Check(
            name,
            Status.FAIL,
            f"model.hugging_face_revision is not set: no revision of {model.s3_uri} has been "
            "mirrored and verified, and the serving stack refuses to deploy",
            f"bin/llmops weights mirror --env {env.name} [--revision BRANCH_OR_TAG] copies one commit, checks it "
            "and writes model.hugging_face_revision",
        )
    return Check(
        name,
        Status.FAIL,
        f"model.hugging_face_revision is not set: vLLM would download "
        f"{model.hugging_face_id} at whatever its default branch holds when the pod starts{code}",
        f"get the commit: curl -s {HUB_REVISION_API.format(model=model.hugging_face_id)} | python3 -c "
        '\'import json, sys; print(json.load(sys.stdin)["sha"])\' (a gated model: add -H "Authorization: '
        "Bearer $HF_TOKEN\"); read that commit's code, then set model.hugging_face_revision: COMMIT",
    )
