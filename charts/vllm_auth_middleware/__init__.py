"""The API key on every path: charts/vllm_auth_middleware/runtime/llm_serving_auth.py on the vLLM container's PYTHONPATH, and
vLLM's
``--middleware`` argument that loads it (see that module for why vLLM's own check is not enough).

HyperPod only: on the EKS path the key is checked in front of vLLM (charts/key_proxy.py). The HyperPod
Inference Operator's CRD lets the worker container mount no volume (v1 ``spec.worker`` has ``modelVolumeMount`` only),
but it has ``command`` and ``environmentVariables``: the module's text travels in :data:`MODULE_VARIABLE`, and
:data:`BOOTSTRAP` writes it to a fresh directory, puts that on PYTHONPATH and replaces itself with ``vllm serve`` and
the worker's arguments (:func:`inline_middleware_worker`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

MODULE_FILE = Path(__file__).resolve().parent / "runtime" / "llm_serving_auth.py"
MODULE = MODULE_FILE.stem
#: vLLM's --middleware takes an import path; a class is added with app.add_middleware (vLLM 0.33.0
#: vllm/entrypoints/serve/middleware/register.py).
MIDDLEWARE_ARGS = ("--middleware", f"{MODULE}.RequireApiKeyEverywhere")
#: What vLLM must run for ``--middleware`` to apply: its Python API server. The recipe turns on vLLM's Rust frontend
#: (``VLLM_USE_RUST_FRONTEND=1``, deployment_config/data/recipes/moonshotai/Kimi-K3.yaml), which replaces that server
#: and does not support ``--middleware`` (kserve/kserve's vLLM controller, which skips its own ``--middleware`` for that
#: reason: "Rust frontend does not support --middleware"). With the key required, the chart turns it off; a file that
#: turns it on with the key required is refused (deployment_config/cross_section_rules/endpoint.py).
MIDDLEWARE_ENVIRONMENT = MappingProxyType({"VLLM_USE_RUST_FRONTEND": "0"})


def middleware_environment(environment: Mapping[str, str]) -> dict[str, str]:
    """What to add to the vLLM container's ``environment`` for the middleware to load: the Rust frontend off where
    ``environment`` turns it on (the recipe's profile does), nothing otherwise (the announced profile's manifests stay
    as they were)."""
    if environment.get("VLLM_USE_RUST_FRONTEND", "0") == "0":
        return {}
    return dict(MIDDLEWARE_ENVIRONMENT)


#: The environment variable that carries the module's text into the HyperPod worker.
MODULE_VARIABLE = "LLM_SERVING_AUTH_MODULE"
#: With S3 weights, the weights verifier's text (charts/vllm_weights_check/runtime/verify_weights.py) and its arguments (a JSON
#: list).
VERIFIER_FILE = (
    Path(__file__).resolve().parents[1] / "vllm_weights_check" / "runtime" / "verify_weights.py"
)
VERIFIER_VARIABLE = "LLM_SERVING_VERIFY_WEIGHTS"
VERIFIER_ARGS_VARIABLE = "LLM_SERVING_VERIFY_WEIGHTS_ARGS"
#: The HyperPod worker's command: ``python3 -c BOOTSTRAP ARGS...`` (sys.argv[1:] are the worker's arguments). It writes
#: the module (when :data:`MODULE_VARIABLE` carries one) to a new private directory (mkdtemp: mode 0700, a name no one
#: can guess), adds that to PYTHONPATH and execs ``vllm serve ARGS`` (vLLM's CLI, which the image's own entrypoint is in
#: current images; naming it here makes the worker independent of that entrypoint). With :data:`VERIFIER_VARIABLE` set
#: it first writes the weights verifier there and runs it on the operator's model mount: a copy that does not match its
#: manifest ends the container (the verifier's log lines say which file) before vLLM starts. Any failure ends the
#: container before vLLM starts: the endpoint stays closed rather than serving without the middleware or a mixed copy.
BOOTSTRAP = (
    "import json, os, subprocess, sys, tempfile; "
    "d = tempfile.mkdtemp(prefix='llm-serving-auth-'); "
    f"m = os.environ.get('{MODULE_VARIABLE}'); "
    f"'{MIDDLEWARE_ARGS[1]}' in sys.argv and not m and sys.exit('{MODULE_VARIABLE} is not set: vLLM would fail to load "
    "the auth middleware; not starting'); "
    f"m and open(os.path.join(d, '{MODULE_FILE.name}'), 'w').write(m); "
    f"v = os.environ.get('{VERIFIER_VARIABLE}'); c = os.path.join(d, '{VERIFIER_FILE.name}'); "
    "v and open(c, 'w').write(v); "
    f"v and subprocess.run([sys.executable, c, *json.loads(os.environ['{VERIFIER_ARGS_VARIABLE}'])]).returncode "
    "and sys.exit(1); "
    "os.environ['PYTHONPATH'] = os.pathsep.join(filter(None, [d, os.environ.get('PYTHONPATH')])); "
    "os.execvp('vllm', ['vllm', 'serve', *sys.argv[1:]])"
)


def inline_middleware_worker(
    args: tuple[str, ...], weights_check: tuple[str, ...] | None = None, *, middleware: bool = True
) -> dict:
    """The HyperPod worker's ``command``, ``args`` and the environment variables that carry, with ``middleware``, the
    auth module (and :data:`MIDDLEWARE_ARGS` after ``args``) and, with ``weights_check`` (the verifier's arguments:
    :func:`charts.vllm_weights_check.hyperpod_weights_check`), the weights verifier, for an InferenceEndpointConfig.
    Either may be off: an endpoint without an API key still has its weights checked before vLLM starts."""
    environment = {MODULE_VARIABLE: MODULE_FILE.read_text(encoding="utf-8")} if middleware else {}
    if weights_check:
        environment[VERIFIER_VARIABLE] = VERIFIER_FILE.read_text(encoding="utf-8")
        environment[VERIFIER_ARGS_VARIABLE] = json.dumps(list(weights_check))
    return {
        "command": ["python3", "-c", BOOTSTRAP],
        "args": [*args, *(MIDDLEWARE_ARGS if middleware else ())],
        "environment": environment,
    }
