"""What each rule of :mod:`.options`' table says about one occurrence of an option it judges: the problem, in the
user's spelling (never quoting a secret back), and the fix, which names the setting the project derives it from."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from deployment_config.errors import quoted
from deployment_config.vllm_args.options import _RULES, SERVING_PORT, VLLM_SOURCE
from deployment_config.vllm_args.parsing import _ABBREVIATION, _GLUED, _Resolved
from deployment_config.vllm_args.serve_options import (
    SERVE_OPTIONS,
    SERVE_SOURCE,
    parser_value_problem,
)
from deployment_config.vllm_args.values import VALUE_RULES

_SECRET_RULES = ("api_key", "hf_token")

_Report = Callable[[int, str, str], None]


_DERIVED = {
    "model": (
        "model.hugging_face_id (or the S3 copy in the node cache)",
        "vLLM would serve other weights than those the sizing and the download were made for",
        "remove it; set model.hugging_face_id (or model.s3_uri) instead",
    ),
    "served_name": (
        "model.served_name",
        "clients would have to send another model name",
        "remove it; set model.served_name instead",
    ),
    "drain": (
        "endpoint.drain_seconds",
        "the pod's termination grace period is sized from that setting",
        "remove it; set endpoint.drain_seconds instead",
    ),
    "tensor_parallel": (
        "model.tensor_parallel_size",
        "vLLM would shard the model over another number of GPUs than the pod requests",
        "remove it; set model.tensor_parallel_size instead",
    ),
}
_LISTEN_DETAIL = {
    "--uds": "listens on a Unix socket instead",
    "--headless": "starts no API server at all",
    "--grpc": "serves gRPC instead of HTTP",
    "--ssl-keyfile": "serves HTTPS",
    "--ssl-certfile": "serves HTTPS",
    "--grpc-port": "opens another port",
    "--data-parallel-supervisor-port": "opens another port",
}
_SECRETS_FIX = (
    "do not put secrets in the configuration file; remove it: the project mounts {what} from AWS Secrets "
    "Manager into the pod with the Secrets Store CSI driver"
)


def _judge(
    resolved: _Resolved,
    original: str,
    index: int,
    values: list[tuple[str, int]] | None,
    report: _Report,
    minimum: float,
    *,
    dotted: bool = False,
) -> None:
    """Report what is wrong with one occurrence of a judged option.

    :param original: the item as the user wrote it, quoted in the message (only its option name for secrets).
    :param values: (item, index) of the values argparse gives it; None for a dotted option, whose value is JSON.
    """
    option = resolved.option
    assert option is not None
    rule = _RULES[option.name]
    shown = (
        original.partition("=")[0].split()[0]
        if rule in _SECRET_RULES and original.strip()
        else original
    )
    if len(resolved.candidates) > 1:
        report(
            index,
            f"{quoted(shown)} is an abbreviation vLLM's parser could expand to {', '.join(resolved.candidates)}"
            ", options the project sets or checks itself",
            "write the option name in full",
        )
        return
    spelled = (
        quoted(shown)
        if shown.partition("=")[0] == option.name
        else f"{quoted(shown)} sets {option.name}"
    )
    if resolved.note:
        spelled += f" ({resolved.note})"
    value, value_index = (
        (resolved.explicit, index)
        if resolved.explicit is not None
        else (values[0] if values else (None, index))
    )

    if rule in ("api_servers", "value") and resolved.note.endswith(_GLUED):
        # An option vLLM accepts with a suitable value, spelled in a way vLLM refuses (--max-num-seqs5).
        report(index, spelled, f"write {option.name} and its value as two items")
        return
    if rule == "revision":
        report(
            index,
            f"{spelled}, which the project derives from model.hugging_face_revision: it gives vLLM both "
            "--revision and --code-revision at that one commit (charts/serving_spec.py revision_args), so "
            "that the weights and the model's remote code come from the same commit",
            _revision_fix(None if dotted else value),
        )
    elif rule in _DERIVED:
        field, effect, fix = _DERIVED[rule]
        report(index, f"{spelled}, which the project derives from {field}: {effect}", fix)
    elif rule == "gpus":
        report(
            index,
            f"{spelled}, which changes how many GPUs or nodes one vLLM replica uses; the project gives a "
            "replica exactly the model.tensor_parallel_size GPUs of one node",
            "remove it; set model.tensor_parallel_size (and capacity.instance_type) to change the GPUs of a replica",
        )
    elif rule == "listen":
        detail = _LISTEN_DETAIL.get(option.name, "changes the address or port vLLM listens on")
        report(
            index,
            f"{spelled}, which {detail}; the Service and the health probes expect plain HTTP on port "
            f"{SERVING_PORT}",
            f"remove it; the project sets the host and the port ({SERVING_PORT}) itself",
        )
    elif rule == "download_dir":
        report(
            index,
            f"{spelled}: vLLM would download and load the weights in that directory instead of the model "
            "cache on the node's NVMe (HF_HOME), which the project sizes and keeps across restarts",
            "remove it; the project keeps the weights in the node's NVMe model cache",
        )
    elif rule == "api_key":
        report(
            index,
            f"{spelled}: an API key in plain text in the configuration file and the pod spec",
            _SECRETS_FIX.format(what="the API key"),
        )
    elif rule == "hf_token":
        if (
            dotted or value is not None
        ):  # bare, it means "use the token of the environment or the stored login"
            report(
                index,
                f"{spelled} with a value: a Hugging Face token in plain text in the configuration file and "
                "the pod spec",
                _SECRETS_FIX.format(what="the Hugging Face token"),
            )
    elif rule == "config_file":
        report(
            index,
            f"{spelled}: vLLM would read more options from a YAML file, past these checks (and the file "
            "is not in the container)",
            "write the options themselves as items of model.extra_args",
        )
    elif rule == "help":
        report(
            index, f"{spelled}: vLLM would print its help and exit instead of serving", "remove it"
        )
    elif rule == "kv_cache_bytes":
        report(
            index,
            f"{spelled}: a fixed KV cache size makes vLLM ignore --gpu-memory-utilization, the share of GPU "
            "memory the sizing check counted on",
            f"remove it; raise --gpu-memory-utilization (from {minimum} to 1.0) to give vLLM more memory",
        )
    elif rule == "gpu_memory":
        problem = (
            "it takes one number, not JSON keys" if dotted else _gpu_memory_problem(value, minimum)
        )
        if problem is not None:
            report(
                value_index,
                f"{spelled}: {problem}",
                f"use a number from {minimum} to 1.0, or remove it (the project's sizing assumes {minimum})",
            )
    elif rule == "value":
        _judge_value(spelled, option.name, resolved, (index, value_index), value, dotted, report)
    elif rule == "api_servers":
        count = None if dotted or value is None else _as_int(value)
        if count is None:
            what = "JSON keys" if dotted else "no value" if value is None else quoted(value)
            report(
                value_index,
                f"{spelled} needs a whole number, not {what}",
                "use a whole number of 1 or more, or remove it",
            )
        elif count < 1:
            report(
                value_index,
                f"{spelled} with {quoted(value)}: with fewer than one API server vLLM runs headless, and "
                f"nothing answers on port {SERVING_PORT}",
                "use a whole number of 1 or more, or remove it",
            )


def _judge_value(
    spelled: str,
    name: str,
    resolved: _Resolved,
    indexes: tuple[int, int],
    value: str | None,
    dotted: bool,
    report: _Report,
) -> None:
    """An option whose value vLLM restricts (values.py): the value against vLLM's rule, naming the rule's source.
    An abbreviation is refused: vLLM accepts one only when no other of its options starts the same way, which the
    table, knowing only some of them, cannot tell (--kv-cache-dt could also be --kv-cache-dtype-skip-layers)."""
    index, value_index = indexes  # of the option, of its value
    rule = VALUE_RULES[name]
    where = f"{VLLM_SOURCE}, {rule.source}"
    if resolved.note == _ABBREVIATION:
        report(
            index,
            f"{spelled}; the project checks the value of {name} and cannot tell whether another vLLM option starts "
            "the same way, which would make vLLM stop at start-up",
            f"write {name} in full",
        )
    elif dotted or value is None:
        what = "takes one value, not JSON keys" if dotted else "needs a value"
        report(
            value_index,
            f"{spelled}, which {what}: vLLM accepts {rule.expected} ({where})",
            "give it one value",
        )
    elif not rule.accepts(value):
        close = rule.suggestion(value)
        if close is not None:
            fix = f"use {close}, the closest name vLLM accepts"
        else:
            fix = (
                "use one of those names, or remove it"
                if rule.names
                else "use such a number, or remove it"
            )
        report(
            value_index,
            f"{spelled} with {quoted(value)}: vLLM accepts {rule.expected} ({where})",
            fix,
        )
    elif (parsed := parser_value_problem(SERVE_OPTIONS[name], value)) is not None:
        # What the start-up rule lets through and the parser still refuses (its type and choices).
        report(
            value_index,
            f"{spelled} with {quoted(value)}: vLLM's parser accepts {parsed} ({SERVE_SOURCE})",
            "use such a value, or remove it",
        )


def _revision_fix(value: str | None) -> str:
    """Where the revision goes instead: the commit itself when the item gave one, else how to find it."""
    if value is not None and re.fullmatch(r"[0-9a-f]{40}", value):
        return f"remove it (and its value); set model.hugging_face_revision: {value}"
    named = f" of {quoted(value)}" if value else ""
    return (
        f"remove it (and its value); set model.hugging_face_revision to the 40-hex commit{named} "
        "(`git ls-remote https://huggingface.co/OWNER/NAME REF` prints it; `llmops weights mirror --env NAME "
        "--revision REF` resolves and writes it for S3 weights)"
    )


def _as_int(text: str) -> int | None:
    try:
        return int(text)  # argparse type=int
    except ValueError:
        return None


def _gpu_memory_problem(value: str | None, minimum: float) -> str | None:
    """Why ``value`` (argparse ``type=float``) cannot be vLLM's share of GPU memory here, or None if it can."""
    if value is None:
        return "it needs a value"
    try:
        share = float(value)
    except ValueError:
        return f"{quoted(value)} is not a number"
    if math.isnan(share) or not 0 < share <= 1:
        return f"{quoted(value)} is not a share of GPU memory: vLLM takes more than 0 and at most 1"
    if share < minimum:
        return (
            f"{quoted(value)} is below {minimum}: the sizing check assumed vLLM may use {minimum:.0%} of each GPU's "
            "memory for the weights and the KV cache, with less they may not fit"
        )
    return None
