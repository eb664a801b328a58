"""Generate ``vllm_serve_options.json`` (every option of ``vllm serve``) and
``tests/data/vllm_parser_verdicts.json`` (argument lists and what vLLM's own parser says of them) from the vLLM wheel.

Run from the repository root (nothing here is imported by the project; the project reads only the two JSON files)::

    .venv/bin/python -m pip download --no-deps vllm==0.33.0 -d /tmp/vllm
    .venv/bin/python -m pip install --no-deps --target /tmp/vdeps msgspec cachetools psutil numpy email-validator \\
        dnspython idna
    .venv/bin/python deployment_config/vllm_args/generate.py /tmp/vllm/vllm-0.33.0-cp38-abi3-manylinux_2_28_x86_64.whl \\
        /tmp/vdeps

The wheel's Python sources are imported with stand-ins for the modules that are not installed (torch, transformers,
... : :class:`_Stub`), and the serve parser is built the way ``vllm serve`` builds it
(vllm/entrypoints/cli/main.py: a vllm/utils/argparse_utils.py ``FlexibleArgumentParser`` with the ``serve`` sub-parser
that vllm/entrypoints/common/cli_args.py ``make_arg_parser`` fills).
Option strings, ``nargs``, actions and ``choices`` come from vLLM's own code; a stand-in only ever supplies defaults
(which are not recorded). argparse is this interpreter's (CPython 3.11; the image runs 3.12), so the verdicts avoid
the two versions' differences (abbreviated short options).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import io
import json
import os
import re
import sys
import tempfile
import types
import typing
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPTIONS_FILE = Path(__file__).with_name("vllm_serve_options.json")
VERDICTS_FILE = ROOT / "tests" / "data" / "vllm_parser_verdicts.json"
#: What the project passes before model.extra_args (charts/serving_spec.py), so that the verdicts are for the same line.
PREFIX = ["--model", "m", "--served-model-name", "n", "--tensor-parallel-size", "8"]


class _Any(type):
    """A stand-in class: every attribute, call and operation gives another stand-in (or a neutral answer)."""

    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _new(name)

    def __call__(cls, *args, **kwargs):
        return args[0] if len(args) == 1 and callable(args[0]) and not kwargs else _new("call")

    def __get_pydantic_core_schema__(cls, source, handler):
        from pydantic_core import core_schema

        return core_schema.any_schema()

    def __radd__(cls, other):
        return other if isinstance(other, str) else cls

    def __eq__(cls, other):
        return isinstance(other, _Any)

    def __hash__(cls):
        return id(cls)

    def __str__(cls):
        return cls.__name__


_ANSWERS = {
    ("__getitem__", "__or__", "__ror__", "__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__",
     "__pow__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__enter__"): lambda cls, *a: cls,
    ("__iter__",): lambda cls: iter(()),
    ("__len__", "__int__", "__index__"): lambda cls: 0,
    ("__float__",): lambda cls: 0.0,
    ("__bool__", "__le__", "__ge__"): lambda cls, *a: True,
    ("__lt__", "__gt__", "__contains__", "__exit__"): lambda cls, *a: False,
}  # fmt: skip
for _names, _answer in _ANSWERS.items():
    for _name in _names:
        setattr(_Any, _name, _answer)


def _new(name: str) -> type:
    return _Any(name, (), {"__module__": "stub"})


class _Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        value = _new(name)
        setattr(self, name, value)
        return value


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Last on sys.meta_path: a stand-in for a third-party module (or a compiled vllm._C*) no real finder found."""

    stubbed: set[str] = set()

    def find_spec(self, fullname, path, target=None):
        root = fullname.split(".")[0]
        if root in sys.stdlib_module_names or root.startswith("_"):
            return None
        if root != "vllm" and root in sys.modules and not isinstance(sys.modules[root], _Stub):
            return None
        if root != fullname and root != "vllm" and root not in self.stubbed:
            return None
        self.stubbed.add(root)
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        module = _Stub(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


def _import_vllm(wheel: Path, deps: Path, into: Path):
    """vLLM's top-level CLI parser and its serve sub-parser, from the wheel's sources."""
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(into, [n for n in archive.namelist() if n.endswith(".py")])
    sys.path[:0] = [str(into), str(deps)]
    real_version = importlib.metadata.version

    def version(name):
        try:
            return real_version(name)
        except importlib.metadata.PackageNotFoundError:
            return "99.0.0"

    importlib.metadata.version = version
    sys.meta_path.append(_Finder())
    import vllm.platforms as platforms

    platforms.resolve_current_platform_cls_qualname = lambda: "vllm.platforms.cuda.CudaPlatform"
    import vllm.engine.arg_utils as arg_utils

    @contextlib.contextmanager
    def default_may_fail():
        # A default built from a stand-in may fail (ParallelConfig probes devices): defaults are not recorded.
        with contextlib.suppress(Exception):
            yield

    arg_utils.suppress_logging = default_may_fail
    from vllm.entrypoints.common.cli_args import make_arg_parser
    from vllm.utils.argparse_utils import FlexibleArgumentParser

    # vllm/entrypoints/cli/main.py main(): the top-level parser, whose parse_args moves "--model M" of a "serve"
    # command line to the model_tag position, and the serve sub-parser as vllm/entrypoints/cli/serve.py
    # ServeSubcommand.subparser_init adds it (importing serve.py itself needs the engine's compiled parts).
    cli = FlexibleArgumentParser(prog="vllm", description="vLLM CLI")
    subparsers = cli.add_subparsers(required=False, dest="subparser")
    serve = make_arg_parser(
        subparsers.add_parser("serve", usage="vllm serve [model_tag] [options]")
    )
    return cli, serve


def _literal_choices(annotation) -> list[str] | None:
    """The names a field accepts when its type is only ``Literal`` names (or None, or ``Annotated`` around them)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        names = typing.get_args(annotation)
        return list(names) if all(isinstance(n, str) for n in names) else None
    if origin is typing.Annotated:
        return _literal_choices(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        parts = [_literal_choices(a) for a in members]
        return [n for p in parts for n in p] if parts and all(parts) else None
    return None


def _json_fields(cls) -> dict[str, dict]:
    """The keys a JSON config option's dataclass takes (vllm/config/utils.py ``config``: extra="forbid"), with the
    names a ``Literal`` field accepts."""
    fields = {}
    for name, info in cls.__pydantic_fields__.items():
        choices = _literal_choices(info.annotation)
        fields[name] = {"choices": choices} if choices else {}
        if info.is_required():
            fields[name]["required"] = True
    return fields


def _type_of(function) -> dict:
    """What an argparse ``type`` callable of vLLM is, as data the project's judge reads."""
    if function is None:
        return {"type": "str"}
    name = function.__qualname__
    if name.startswith("optional_type."):
        return {**_type_of(function.__closure__[0].cell_contents), "optional": True}
    if name.startswith("parse_type."):
        return _type_of(function.__closure__[0].cell_contents)
    if name.endswith("parse_dataclass"):
        cls = function.__defaults__[0]
        where = f"{cls.__module__.replace('.', '/')}.py {cls.__qualname__}"
        return {"type": "json_object", "dataclass": where, "fields": _json_fields(cls)}
    if "<lambda>" in name:
        if function("A-b") == "a_b":
            return {"type": "lower_dash_to_underscore"}
        return {"type": "comma_separated_ids"}
    known = {
        "int": "int",
        "float": "float",
        "str": "str",
        "loads": "json",
        "union_dict_and_str": "json_if_braced",
        "human_readable_int": "human_readable_int",
        "human_readable_int_or_auto": "human_readable_int_or_auto",
        "parse_reasoning_parser": "str",
    }
    return {"type": known[name]}


def _option(action, registered: list[str]) -> dict:
    """One option: every option string the parser registers for it (EnableDisableAction keeps --no-enable-X
    registered but out of the help), its kind of value."""
    kind = type(action).__name__
    strings = list(dict.fromkeys([*action.option_strings, *registered]))
    entry = {"option_strings": strings, "dest": action.dest, "action": kind}
    if action.nargs == 0 or kind in ("_StoreTrueAction", "EnableDisableAction", "_HelpAction"):
        entry["flag"] = True
        return entry
    entry["flag"] = False
    entry["nargs"] = action.nargs
    entry.update(_type_of(action.type))
    if (
        kind == "LoRAParserAction"
    ):  # vllm/entrypoints/common/cli_args.py: name=path, or a JSON LoRAModulePath
        entry["type"] = "lora_module"
    if action.choices is not None:
        entry["choices"] = list(
            action.choices
        )  # None (null) where optional_type's unset value is a choice
    if action.const is not None:
        entry["const"] = action.const
    return entry


def _parse(parser, args: list[str]) -> str | None:
    """None when vLLM's parser accepts ``vllm serve PREFIX args``, else its message."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            parser.parse_args(["serve", *PREFIX, *args])
    except SystemExit:
        lines = [
            line
            for line in err.getvalue().splitlines()
            if "error:" in line or "validation error" in line
        ] or ["exit"]
        # without the addresses argparse prints for a type callable, so that the file is the same on every run
        return re.sub(r" at 0x[0-9a-f]+", "", lines[-1].strip())[:300]
    except (
        Exception
    ) as error:  # a type's own exception: argparse turns only some of them into errors
        return f"{type(error).__name__}: {error}"
    return None


def _samples(option: dict) -> list[list[str]]:
    """Argument lists for one option: well-formed and not, from its type and choices."""
    name = option["option_strings"][0]
    if option["flag"]:
        negations = [s for s in option["option_strings"] if s.startswith("--no-")][:1]
        return [[name], [name + "=1"], *([s] for s in negations)]
    samples: list[list[str]] = [[name]]
    kind = option["type"]
    values = {
        "int": ["4", "-1", "x", "4.5", " 7 ", "1_000"],
        "float": ["0.5", "x", "1e3", "nan"],
        "str": ["abc"],
        "json": ['{"a": 1}', "[1]", "not-json", "{"],
        "json_if_braced": ['{"a": "b"}', "plain", "{bad}"],
        "human_readable_int": ["16k", "16K", "1.5M", "x", "2048"],
        "human_readable_int_or_auto": ["16k", "auto", "-1", "x", "1.5M"],
        "lower_dash_to_underscore": [],
        "comma_separated_ids": ["0,1"],
        "lora_module": [
            "a=b",
            '{"name": "a", "path": "b"}',
            '{"name": "a"}',
            '{"x": 1}',
            "[1]",
            "abc",
        ],
        "json_object": ["{}", '{"no_such_field_here": 1}', "not-json", "[1]"],
    }[kind]
    if option.get("optional"):
        values += ["", "None"]
    for field, spec in option.get("fields", {}).items():
        for choice in spec.get("choices", [])[:2]:
            values.append(json.dumps({field: choice}))
        if spec.get("choices"):
            values.append(json.dumps({field: "no-such-choice"}))
    choices = option.get("choices", [])
    values += [str(c) for c in choices] + (
        ["no-such-choice", str(choices[0]).upper()] if choices else []
    )
    samples += [[name, value] for value in values]
    samples += [[name + "=" + value] for value in values[:2]]
    if option["nargs"] == "+" and values:
        samples.append([name, values[0], values[0]])
    return samples


#: Cases the issue names, and vLLM's own rewriting (-O, --long_name, dotted JSON keys).
_EXTRA_CASES = [
    ["--dtype", "fp8"],
    ["--all2all-backend", "deepep"],
    ["--scheduling-policy", "lifo"],
    ["-O", "5"],
    ["-O5"],
    ["-O3"],
    ["-O=2"],
    ["-O", "0"],
    ["--optimization-level", "7"],
    ["--max_num_seqs", "8"],
    ["--compilation-config.mode", "3"],
    ["--compilation-config.no_such_key", "3"],
    ["--attention-config.backend", "FLASHMLA"],
    ["--enforce-eager", "--enforce-eager"],
    ["--max-num-seqs", "8", "--max-num-seqs", "x"],
    ["--no-such-option", "1"],
    ["--cc.splitting_ops+", "a"],
    ["-cc.splitting_ops+", "a", "-cc.splitting_ops+", "b"],
    ["--video-pruning-rate", "-0.5"],
    ["--video-pruning-rate=-0.5"],
    ["stray"],
]


def main(wheel: str, deps: str) -> None:
    wheel_path = Path(wheel)
    digest = hashlib.sha256(wheel_path.read_bytes()).hexdigest()
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
    with tempfile.TemporaryDirectory() as into:
        cli, parser = _import_vllm(wheel_path, Path(deps), Path(into))
        registered = parser._option_string_actions
        options = [
            _option(a, [s for s, b in registered.items() if b is a])
            for a in parser._actions
            if a.option_strings
        ]
        cases = [
            args
            for option in options
            if option["action"] != "_HelpAction"
            for args in _samples(option)
        ]
        cases += _EXTRA_CASES
        verdicts = []
        for args in cases:
            message = _parse(cli, args)
            verdicts.append(
                {
                    "args": args,
                    "accepted": message is None,
                    **({"message": message} if message else {}),
                }
            )
    from vllm._version import __commit_id__, __version__

    source = {
        "wheel": wheel_path.name,
        "sha256": digest,
        "vllm_version": __version__,
        "commit_id": __commit_id__,
        "generator": "deployment_config/vllm_args/generate.py (its docstring has the commands)",
        "parser": "vllm/entrypoints/cli/main.py main(): FlexibleArgumentParser, serve sub-parser (ServeSubcommand)",
        "python": sys.version.split()[0],
        "stubbed_modules": sorted(_Finder.stubbed),
    }
    OPTIONS_FILE.write_text(json.dumps({"source": source, "options": options}, indent=1) + "\n")
    VERDICTS_FILE.write_text(
        json.dumps({"source": source, "prefix": PREFIX, "verdicts": verdicts}, indent=1) + "\n"
    )


if __name__ == "__main__":
    main(*sys.argv[1:3])
