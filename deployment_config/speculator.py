"""The speculator of the recipe's ``spec_decoding`` feature: where vLLM finds it, at which revision, and its size.

The recipe gives vLLM ``--speculative-config`` with the speculator's Hub id as ``model`` (deployment_config/data/recipes/,
``features.spec_decoding.args``). vLLM's ``SpeculativeConfig`` takes, besides ``model`` ("The name of the draft model,
eagle head, or additional weights"), a ``revision`` ("The specific model version to use for the draft model. It can be
a branch name, a tag name, or a commit id") and a ``code_revision`` for its code on the Hub; the draft's
``ModelConfig`` is built with ``model=self.model``, ``revision=self.revision``, ``code_revision=self.code_revision`` and
the target's ``trust_remote_code`` (vllm-project/vllm@002e77c1 vllm/config/speculative.py, ``draft_model_config =
ModelConfig(...)``), so ``model`` is a Hub id or a local directory as the target's ``--model`` is, and with the preset's
``--trust-remote-code`` the speculator's own code may run. So the project pins the speculator like the main weights:

- weights from the Hub: ``revision`` and ``code_revision`` are ``model.speculator_revision`` (without it the serving
  stack refuses to deploy, as for unpinned weights that run remote code);
- weights from S3 (EKS): ``llmops weights mirror`` copies the speculator to ``model.s3_uri/speculator/COMMIT/`` with its
  ``MANIFEST.json``; the pod's ``fetch-weights`` copies it into the node's NVMe cache beside the main weights and
  ``verify-speculator`` checks it, and ``model`` is that local directory (no revision: a directory has none).

HyperPod: the operator mounts one S3 prefix (``modelLocation``, the main weights' revision), so the speculator, under
its own prefix, is not on the worker; putting it inside the main revision's prefix would break the one-repository,
one-revision-per-prefix invariant the manifest check relies on (charts/vllm_weights_check/runtime/verify_weights.py refuses
a file its manifest does not list). ``spec_decoding`` is refused there (deployment_config/cross_section_rules/serving.py).

Size: no source gives the speculator's size (its model card, RedHatAI/Kimi-K3-speculator.dspark, states none that was
found), so ``model.speculator_size_gb`` is required with ``spec_decoding``; the sizing and the startup budget count it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

FEATURE = "spec_decoding"
OPTION = "--speculative-config"
#: The speculator's directory under ``model.s3_uri`` and under the node cache's S3 weights directory; a main revision is a
#: 40-hex commit, so it never collides with this name.
SPECULATOR_DIR = "speculator"


def speculative_config(args: Sequence[str]) -> dict | None:
    """The JSON object of the last ``--speculative-config`` in ``args`` (vLLM takes the last), or None."""
    found = None
    for i, item in enumerate(args):
        if item == OPTION and i + 1 < len(args):
            found = args[i + 1]
        elif item.startswith(OPTION + "="):
            found = item.partition("=")[2]
    if found is None:
        return None
    try:
        value = json.loads(found)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def speculator_id(args: Sequence[str]) -> str | None:
    config = speculative_config(args)
    model = config.get("model") if config else None
    return model if isinstance(model, str) else None


def pinned(
    args: Sequence[str], *, model: str | None = None, revision: str | None = None
) -> tuple[str, ...]:
    """``args`` with every ``--speculative-config``'s ``model`` replaced by ``model`` (a local directory) and/or its
    ``revision`` and ``code_revision`` set to ``revision``; other arguments unchanged, in place."""
    out = list(args)
    for i, item in enumerate(out):
        joined = item.startswith(OPTION + "=")
        if (item == OPTION and i + 1 < len(out)) or joined:
            index, raw = (i, item.partition("=")[2]) if joined else (i + 1, out[i + 1])
            try:
                config = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(config, dict):
                continue
            if model is not None:
                config["model"] = model
            if revision is not None:
                config["revision"] = config["code_revision"] = revision
            text = json.dumps(config, separators=(",", ":"))
            out[index] = f"{OPTION}={text}" if joined else text
    return tuple(out)
