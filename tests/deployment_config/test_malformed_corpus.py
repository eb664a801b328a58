"""The corpus of malformed configuration files (tests/malformed/*.yaml, one file per class of mistake).

Each case is built from one of the example files (or written out whole), selected with ``-c env=`` / ``-c pipeline=``
exactly as the CDK CLI would, and run through the app's ``main``. For every case:

- the app exits with code 2 and prints no traceback;
- every expected field is named, each exactly once, and nothing else is: one message per mistake;
- every message has a ``fix:``; no message is longer than a screen;
- nothing is written: no cloud assembly, and the configuration file is unchanged.

Case format (YAML list items):

``case`` (name), ``base`` (``example`` | ``hyperpod`` | ``pipeline``; default example), then one of:
``set`` (dotted path → value; a ``[i]`` suffix addresses a list item), ``delete`` (dotted paths), ``append`` (text
added at the end of the base file), ``text`` (the whole file),
``bytes_hex`` (the whole file, as hex bytes), ``pad_bytes`` (a comment of that many bytes appended),
``text_nested`` (a list nested that many levels deep), ``long_key`` (an unknown key that long),
``text_huge_int`` (a count with that many zeros), and
``expect``: the fields the message must name (the file's mistakes), in any order.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import re
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
import yaml

import app
from deployment_config import ConfigError
from tests.conftest import CONFIG_DIR, PROJECT_DIR

CORPUS_DIR = PROJECT_DIR / "tests" / "malformed"
BASES = {
    "example": CONFIG_DIR / "example.yaml",
    "hyperpod": CONFIG_DIR / "example-hyperpod.yaml",
    "pipeline": CONFIG_DIR / "pipeline" / "example.yaml",
}
#: A message longer than this is not "one clear message" (the alias bomb once printed 722 MB).
MAX_MESSAGE_CHARS = 4000


def _cases() -> list[tuple[str, dict]]:
    cases = []
    for path in sorted(CORPUS_DIR.glob("*.yaml")):
        # libyaml: the corpus is the test's own data, and collection reads it in every worker
        for case in yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader):  # noqa: S506 (a safe loader)
            cases.append((f"{path.stem}/{case['case']}", case))
    return cases


CASES = _cases()


def _set(document: dict, dotted: str, value) -> None:
    *parents, last = dotted.split(".")
    node = document
    for key in parents:
        node = node.setdefault(key, {})
    match = re.fullmatch(r"(.+)\[(\d+)\]", last)
    if match:
        node[match.group(1)][int(match.group(2))] = value
    else:
        node[last] = value


def _delete(document: dict, dotted: str) -> None:
    *parents, last = dotted.split(".")
    node = document
    for key in parents:
        node = node[key]
    del node[last]


@functools.cache
def _parsed(path: Path) -> dict:
    """A base file's data, parsed once (callers copy it before changing it)."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _file_bytes(case: dict) -> bytes:
    base = BASES[case.get("base", "example")]
    if "bytes_hex" in case:
        return bytes.fromhex(case["bytes_hex"])
    if "text" in case:
        return case["text"].encode("utf-8")
    if "append" in case:
        return base.read_bytes() + case["append"].encode("utf-8")
    if "text_huge_int" in case:  # cluster.system_node_count with that many digits
        return base.read_bytes().replace(
            b"system_node_count: 2", b"system_node_count: 1" + b"0" * case["text_huge_int"]
        )
    if "text_nested" in case:
        return ("account: " + "[" * case["text_nested"] + "]" * case["text_nested"] + "\n").encode()
    if "pad_bytes" in case:
        return base.read_bytes() + b"#" * case["pad_bytes"] + b"\n"
    document = copy.deepcopy(_parsed(base))
    for dotted, value in (case.get("set") or {}).items():
        _set(document, dotted, value)
    for dotted in case.get("delete") or []:
        _delete(document, dotted)
    if "long_key" in case:  # an unknown key of that many characters
        document["k" * case["long_key"]] = "x"
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True).encode("utf-8")


def _run(case: dict, tmp_path: Path, monkeypatch) -> tuple[int, str, Path, bytes, list]:
    """The app's exit code and standard error for the case's file, the file, its bytes, and the mistakes the loader
    found in it, as the structured error that ``main`` printed holds them (recorded, not loaded a second time)."""
    config_dir = tmp_path / "config"
    (config_dir / "pipeline").mkdir(parents=True)
    for name in ("example.yaml", "example-prod.yaml", "example-hyperpod.yaml"):
        shutil.copy(CONFIG_DIR / name, config_dir / name)
    content = _file_bytes(case)
    is_pipeline = case.get("base") == "pipeline"
    path = config_dir / ("pipeline/bad.yaml" if is_pipeline else "bad.yaml")
    path.write_bytes(content)
    raised: list[ConfigError] = []
    for name in ("load_environment", "load_pipeline"):
        monkeypatch.setattr(app, name, _recording(getattr(app, name), raised))
    context = {"config_dir": str(config_dir), ("pipeline" if is_pipeline else "env"): "bad"}
    stderr, stdout = io.StringIO(), io.StringIO()
    with redirect_stderr(stderr), redirect_stdout(stdout):
        code = app.main(
            {"CDK_CONTEXT_JSON": json.dumps(context), "CDK_OUTDIR": str(tmp_path / "cdk.out")}
        )
    assert stdout.getvalue() == ""
    assert len(raised) == 1, stderr.getvalue()  # the loader refused the file, nothing before it
    return code, stderr.getvalue(), path, content, list(raised[0].issues)


def _recording(load, raised: list[ConfigError]):  # noqa: ANN001, ANN202 (a loader of deployment_config)
    """``load``, keeping the :class:`ConfigError` it raises in ``raised`` before passing it on."""

    def recorded(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        try:
            return load(*args, **kwargs)
        except ConfigError as error:
            raised.append(error)
            raise

    return recorded


def test_the_corpus_is_large_and_grouped_by_class():
    classes = {name.split("/")[0] for name, _ in CASES}
    assert len(CASES) >= 150
    assert len(classes) >= 10


@pytest.mark.parametrize("name, case", CASES, ids=[name for name, _ in CASES])
def test_malformed_file_is_refused_with_one_message_per_mistake(name, case, tmp_path, monkeypatch):
    # given a malformed file, when the app loads it as `cdk synth -c env=bad` would
    code, message, path, content, issues = _run(case, tmp_path, monkeypatch)
    # then it exits with 2, names each mistake once with a fix, and writes nothing
    assert code == app.EXIT_BAD_CONFIG, message
    assert "Traceback" not in message
    assert [line for line in message.splitlines() if line.startswith("error:")] == [
        message.splitlines()[0]
    ]
    assert all(
        line.startswith(("error:", "  ")) for line in message.splitlines()
    )  # no key forges a line
    assert len(message) <= MAX_MESSAGE_CHARS
    assert sorted(issue.field for issue in issues) == sorted(case["expect"]), message
    assert message.count("fix:") == len(issues)
    for issue in issues:
        assert f"{issue.field}: {issue.problem}" in message
    assert not (tmp_path / "cdk.out").exists()
    assert path.read_bytes() == content
