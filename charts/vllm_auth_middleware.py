"""The API key on every path: a ConfigMap with charts/vllm_auth/llm_serving_auth.py, mounted on the vLLM container's
PYTHONPATH, and vLLM's ``--middleware`` argument that loads it (see that module for why vLLM's own check is not enough).
"""

from __future__ import annotations

from pathlib import Path

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

MODULE_FILE = Path(__file__).resolve().parent / "vllm_auth" / "llm_serving_auth.py"
MODULE = MODULE_FILE.stem
#: vLLM's --middleware takes an import path; a class is added with app.add_middleware (vLLM 0.33.0
#: vllm/entrypoints/serve/middleware/register.py).
MIDDLEWARE_ARGS = ("--middleware", f"{MODULE}.RequireApiKeyEverywhere")
#: Where the ConfigMap is mounted, and put on PYTHONPATH. The vLLM image sets no PYTHONPATH of its own and installs vLLM
#: into the system site-packages, which PYTHONPATH only adds to (vllm-project/vllm docker/Dockerfile, stages vllm-base
#: and vllm-openai, read at stored commit 0000977e, older than 0.33.0: `preflight` cannot check an image).
MOUNT_PATH = "/opt/llm-serving/python"
CONFIG_MAP = "vllm-auth-middleware"


def add_auth_middleware(scope: Construct, *, deployment: kplus.Deployment, container: kplus.Container,
                        namespace: str) -> kplus.ConfigMap:
    """Add the ConfigMap holding the middleware, mount it on ``container`` and put it on its PYTHONPATH. The caller adds
    :data:`MIDDLEWARE_ARGS` to vLLM's arguments."""
    config_map = kplus.ConfigMap(scope, "auth-middleware",
                                 metadata=cdk8s.ApiObjectMetadata(name=CONFIG_MAP, namespace=namespace),
                                 data={MODULE_FILE.name: MODULE_FILE.read_text(encoding="utf-8")})
    volume = kplus.Volume.from_config_map(scope, "auth-middleware-volume", config_map, name="auth-middleware")
    deployment.add_volume(volume)
    container.mount(MOUNT_PATH, volume, read_only=True)
    container.env.add_variable("PYTHONPATH", kplus.EnvValue.from_value(MOUNT_PATH))
    return config_map
