"""Which vLLM arguments ``model.extra_args`` may add, read the way vLLM reads them (:mod:`.parsing`), and the vendored
recipe's arguments judged by the same rules."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from deployment_config.errors import Problem, quoted
from deployment_config.vllm_args.options import (
    _BY_SPELLING,
    _RULES,
    SERVING_PORT,
    VLLM_SOURCE,
    Arity,
    VllmOption,
)
from deployment_config.vllm_args.parsing import (
    _first_word,
    _holds_option_and_value,
    _is_option,
    _resolve,
    _Resolved,
    _rewrite,
    _split_dotted,
)

_SECRET_RULES = ("api_key", "hf_token")
#: Judged options that are fine with a suitable value, so that giving them twice is a problem of its own.
_CHECKED_RULES = ("gpu_memory", "api_servers", "hf_token")

_Report = Callable[[int, str, str], None]


def extra_args_problems(
    extra_args: Sequence[str], *, gpu_memory_utilization_min: float
) -> list[tuple[int, Problem]]:
    """What is wrong with ``model.extra_args``, as (index of the offending item, problem), in item order.

    Refused: options the project derives (``--model``, ``--served-model-name``, ``--tensor-parallel-size``) or that
    change the GPUs of one replica or where vLLM listens, in any spelling vLLM accepts; a positional argument (vLLM's
    model slot); an option and its value in one item; an empty item or a bare ``--``; ``--gpu-memory-utilization`` that
    is not a number in (0, 1] or is below ``gpu_memory_utilization_min`` (reported at the item holding the value);
    ``--kv-cache-memory-bytes`` (it overrides that share); ``--download-dir``; secrets (``--api-key``, ``--hf-token``
    with a value, never quoted back); ``--config`` and ``--help``; an option given twice, unless vLLM appends repeated
    values. Control characters are another module's check.
    """
    problems: list[tuple[int, Problem]] = []

    def report(index: int, problem: str, fix: str) -> None:
        problems.append((index, Problem(problem, fix)))

    # (index, option, dotted path, item as shown): every setting of an option, for the duplicate check at the end.
    settings: list[tuple[int, str, tuple[str, ...], str]] = []

    def judge(
        resolved: _Resolved,
        index: int,
        values: list[tuple[str, int]] | None,
        *,
        dotted: bool = False,
    ) -> None:
        _judge(
            resolved,
            extra_args[index],
            index,
            values,
            report,
            gpu_memory_utilization_min,
            dotted=dotted,
        )
        assert resolved.option is not None
        if _RULES[resolved.option.name] in _CHECKED_RULES and len(resolved.candidates) <= 1:
            shown = (
                extra_args[index]
                if _RULES[resolved.option.name] not in _SECRET_RULES
                else resolved.name
            )
            settings.append((index, resolved.option.name, (), shown))

    # Items holding an option and its value ("--port 9000"): reported here, wherever they stand; the option in their
    # first word is judged where argparse reads the item as a positional (or as a dotted option, if it holds a '.').
    split_items: dict[int, tuple[str, str, _Resolved]] = {}
    judged_split_items: set[int] = set()

    def judge_split_item(index: int) -> None:
        word, rest, resolved = split_items[index]
        if (
            resolved.option is not None
            and resolved.option.name in _RULES
            and index not in judged_split_items
        ):
            judged_split_items.add(index)
            _judge(resolved, word, index, [(rest, index)], report, gpu_memory_utilization_min)

    for index, item in enumerate(extra_args):
        if item == "":
            report(
                index,
                "an empty item: vLLM reads it as a positional argument, the model to serve",
                "remove it",
            )
        elif _holds_option_and_value(item):
            split_items[index] = word, rest, resolved = _first_word(item)
            if resolved.option is not None and _RULES.get(resolved.option.name) in _SECRET_RULES:
                judge_split_item(index)  # and no advice to split it: it would quote the secret
                continue
            report(
                index,
                f"{quoted(item)} holds an option and its value in one item, so vLLM reads it as one word "
                "(a positional argument) instead of as the option",
                f"write it as two items: - {word} / - {rest}",
            )

    tokens, dotted = _split_dotted(_rewrite(extra_args))
    for d in dotted:
        index = d.token.index
        if index in split_items:
            judge_split_item(index)
            continue
        if re.fullmatch(r"-\d*", d.key):
            report(
                index,
                f"{quoted(d.token.text)} starts with '-' and holds a '.', so vLLM's argument pre-processing "
                "takes it for a dotted option (--option.key value) and swallows the next item",
                "join the option and its negative value with '=' in one item, for example --option=-0.5",
            )
            continue
        if d.value is None:
            report(
                index,
                f"{quoted(d.token.text)} has no value: vLLM reads the item after a dotted option as its value",
                f"add the value as the next item, or write {d.token.text}=VALUE",
            )
        elif d.separate and _is_option(d.value):
            report(
                index,
                f"{quoted(d.token.text)} takes the next item, {quoted(d.value)}, as its value: vLLM reads the "
                "item after a dotted option as its value, whatever it is",
                f"put its value right after it, or write {d.token.text}=VALUE",
            )
        resolved = _resolve(d.key, None)
        if resolved.option is not None and resolved.option.name in _RULES:
            judge(resolved, index, None, dotted=True)
        else:
            path = d.path + ("+",) if d.appends else d.path
            settings.append(
                (index, resolved.option.name if resolved.option else d.key, path, d.token.text)
            )

    i = 0
    previous_flag: VllmOption | None = None
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token.text == "--":
            report(
                token.index,
                "'--' ends vLLM's options: vLLM reads every item after it as a positional argument",
                "remove it",
            )
            break
        if not _is_option(token.text):
            if token.index in split_items:
                judge_split_item(token.index)
            elif token.text != "":
                flag = (
                    f"; {previous_flag.name} is a flag and takes no value"
                    if previous_flag is not None
                    else ""
                )
                report(
                    token.index,
                    f"{quoted(token.text)} is a positional argument: no option before it takes a value"
                    f"{flag}. vLLM reads a positional argument as the model to serve, which the project "
                    "already passes, so vLLM would stop with 'unrecognized arguments'",
                    "remove it, or put it right after the option it is the value of",
                )
            previous_flag = None
            continue
        name, sep, explicit = token.text.partition("=")
        resolved = _resolve(name, explicit if sep else None)
        arity: Arity = resolved.option.arity if resolved.option is not None else "one"
        values: list[tuple[str, int]] = []
        if resolved.explicit is None and arity != "flag":
            while i < len(tokens) and not _is_option(tokens[i].text):
                values.append((tokens[i].text, tokens[i].index))
                i += 1
                if arity != "many":
                    break
        previous_flag = resolved.option if arity == "flag" else None
        if resolved.option is not None and resolved.option.name in _RULES:
            judge(resolved, token.index, values)
        else:
            settings.append(
                (
                    token.index,
                    resolved.option.name if resolved.option else resolved.name,
                    (),
                    extra_args[token.index],
                )
            )

    _report_repeats(settings, report)
    return sorted(problems, key=lambda entry: entry[0])


def _report_repeats(settings: list[tuple[int, str, tuple[str, ...], str]], report: _Report) -> None:
    """Report each later setting of an option already set. Dotted keys of one option merge into one JSON value unless
    a key repeats (lists given as ``key+`` add up); a plain value and dotted keys of the same option do not merge
    (FlexibleArgumentParser appends the merged dotted value after the plain one, which it replaces)."""
    seen: dict[tuple[str, tuple[str, ...]], int] = {}
    for index, name, path, shown in sorted(settings, key=lambda setting: setting[0]):
        option = _BY_SPELLING.get(name)
        if option is not None and option.arity == "append":
            continue
        key = option.name if option is not None else name
        for (other, other_path), first in seen.items():
            if other == key and (
                not other_path or not path or (other_path == path and path[-1] != "+")
            ):
                report(
                    index,
                    f"{quoted(shown)} sets {key} again (item {first} already sets it), and vLLM keeps only one "
                    "of the values",
                    f"give {key} once",
                )
                break
        seen.setdefault((key, path), index)


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


# ---------------------------------------------------------------------------------------------------------------------
# The vendored recipe's arguments (deployment_config/recipe.py), judged by the same table

#: Config options whose value is a JSON object: FlexibleArgumentParser builds exactly that from their dotted form
#: (``--compilation-config.mode 3`` becomes ``--compilation-config '{"mode": 3}'``, parsing.py's docstring, step 1), and
#: the three are in the one-value table above (_ALIASED).
_JSON_OPTIONS = frozenset({"--attention-config", "--speculative-config", "--compilation-config"})


def recipe_args_problems(args: Sequence[str]) -> tuple[list[str], list[str]]:
    """What the vendored vLLM 0.33.0 rules say about arguments the recipe gives: (disagreements, options the table
    does not know). A disagreement is a rule of this module the recipe breaks (an option the project derives, a memory
    share below the sizing's, a flag given a value, a config option whose value is not a JSON object). An option this
    table does not list is taken by vLLM as one-value (parsing.py's docstring): reported separately, so that a test
    names each one the recipe starts to use."""
    from deployment_config.sizing import GPU_MEMORY_UTILIZATION

    problems = [
        f"{args[i]!r}, read by the rules of {VLLM_SOURCE}: {p.problem}"
        for i, p in extra_args_problems(args, gpu_memory_utilization_min=GPU_MEMORY_UTILIZATION)
    ]
    unknown: list[str] = []
    for i, item in enumerate(args):
        if not item.startswith("--"):
            continue
        option = _BY_SPELLING.get(item)
        following = args[i + 1] if i + 1 < len(args) else None
        has_value = following is not None and not _is_option(following)
        if option is None:
            unknown.append(item)
        elif option.arity == "flag" and has_value and not problems:
            problems.append(
                f"{item!r} is a flag in {VLLM_SOURCE} ({option.source}), but the recipe gives it the value "
                f"{following!r}"
            )
        elif option.arity in ("one", "append") and not has_value:
            problems.append(
                f"{item!r} takes a value in {VLLM_SOURCE} ({option.source}); the recipe gives none"
            )
        if option is not None and option.name in _JSON_OPTIONS and has_value:
            import json

            try:
                parsed = json.loads(following)
            except ValueError:
                parsed = None
            if not isinstance(parsed, dict):
                problems.append(
                    f"{item!r} takes a JSON object in {VLLM_SOURCE}; the recipe gives {following!r}"
                )
    return problems, unknown
