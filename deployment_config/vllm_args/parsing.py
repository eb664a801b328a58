"""How vLLM 0.33.0 reads the items of ``model.extra_args``, so that :mod:`deployment_config.vllm_args.extra_args` sees
the options vLLM sees, in whatever spelling:

1. ``FlexibleArgumentParser.parse_args`` (vllm/utils/argparse_utils.py) first rewrites every item: ``--long_name``
   becomes ``--long-name`` (only up to the first ``.`` and before ``=``), ``--help=...`` becomes ``--help``, ``-O3``
   and ``-O=3`` become ``--optimization-level 3`` (and ``-O 3`` with 0-3), and every item that starts with ``-`` and
   has a ``.`` before any ``=`` is a dotted JSON option (``--compilation-config.mode 3``): it and, without ``=``, the
   next item (whatever it is) are taken out and re-appended at the end as ``--compilation-config '{"mode": 3}'``.
2. Python's argparse (3.12 in the vLLM image: vllm-project/vllm docker/Dockerfile at commit dead20baf70d has ``ARG
   PYTHON_VERSION=3.12``, and its ``vllm-openai`` stage ``ENTRYPOINT ["vllm", "serve"]``) then parses the rest:
   ``--opt=value``, prefix abbreviations of long and short options (``allow_abbrev`` is left at its default ``True``:
   vllm/entrypoints/cli/main.py creates ``FlexibleArgumentParser(description=..., epilog=...)`` and serve.py adds the
   ``serve`` sub-parser without it), a one-letter option glued to its value (``-n4``), negative numbers and items
   with a space read as values or positionals, and a positional argument filling ``model_tag``
   (vllm/entrypoints/cli/serve.py: ``usage="vllm serve [model_tag] [options]"``).

To know whether an item is the value of the option before it, options.py has the arity of every option of vLLM
0.33.0's serve parser (generated from the wheel). An option it does not have is refused (vLLM stops with
"unrecognized arguments"); for the walk it is taken to take one value unless the next item looks like an option
(starts with ``-`` and is not a negative number), which is what argparse does for an option with one value. A long
abbreviation resolves to the one option it starts (and a judged option is refused in any abbreviation, whatever else
it could also stand for); one that starts several is refused, as argparse stops with "ambiguous option".

Sources, read from the vLLM 0.33.0 wheel on PyPI (vllm/_version.py: ``__commit_id__ = 'g4ba787ec9'``, so
vllm-project/vllm commit 4ba787ec9) unless a line says otherwise; paths are inside that repository. argparse
behaviour: CPython 3.12 Lib/argparse.py (``_parse_optional``, ``_get_option_tuples``, ``_negative_number_matcher``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from deployment_config.vllm_args.options import (
    _BY_SPELLING,
    _JUDGED_LONGEST_FIRST,
    _JUDGED_SPELLINGS,
    _ONE_LETTER,
    _SHORT_SPELLINGS,
    VllmOption,
)

#: argparse (CPython 3.12 Lib/argparse.py ``_negative_number_matcher``): such an item is a value, not an option.
_NEGATIVE_NUMBER = re.compile(r"-\d+|-\d*\.\d+")
#: An item that starts like an option and then holds whitespace: an option and its value written as one item.
_OPTION_AND_VALUE = re.compile(r"-{1,2}[A-Za-z][\w.+-]*\s")


@dataclass(frozen=True)
class _Token:
    """One item after FlexibleArgumentParser's rewriting, with the index of the item it came from."""

    text: str
    index: int


@dataclass(frozen=True)
class _Resolved:
    """What an option-like item stands for: a known option, or None for an option this table does not know."""

    option: VllmOption | None
    name: str
    explicit: str | None  # the value after "=" or glued to a one-letter option
    note: str = ""  # how the spelling reached the option, for messages
    candidates: tuple[str, ...] = ()  # judged options an abbreviation could stand for


def _normalise_long(item: str) -> str:
    """FlexibleArgumentParser.parse_args: ``pattern = re.compile(r"(?<=--)[^\\.]*")``, underscores to dashes in the
    first match, i.e. from after the leading ``--`` up to the first ``.``, in the part before ``=``."""
    key, sep, value = item.partition("=")
    head, dot, tail = key[2:].partition(".")
    return "--" + head.replace("_", "-") + dot + tail + sep + value


def _rewrite(items: Sequence[str]) -> list[_Token]:
    """The first loop of FlexibleArgumentParser.parse_args: --help=, --long_name, -O."""
    tokens: list[_Token] = []
    for i, item in enumerate(items):
        if item.startswith("--help="):
            tokens.append(_Token("--help", i))
        elif item.startswith("--"):
            tokens.append(_Token(_normalise_long(item), i))
        elif item.startswith("-O") and item != "-O":
            level = item[3:] if item[2] == "=" else item[2:]
            tokens += [_Token("--optimization-level", i), _Token(level, i)]
        elif item == "-O" and i + 1 < len(items) and items[i + 1] in {"0", "1", "2", "3"}:
            tokens.append(_Token("--optimization-level", i))
        else:
            tokens.append(_Token(item, i))
    return tokens


@dataclass(frozen=True)
class _Dotted:
    """A dotted JSON option (``--key.a.b value``, ``--key.a+ value``) that FlexibleArgumentParser merges into
    ``--key '{"a": {"b": value}}'`` appended at the end."""

    token: _Token
    key: str
    path: tuple[str, ...]
    appends: bool
    value: str | None
    separate: bool  # the value is the next item (no "=")


def _split_dotted(tokens: list[_Token]) -> tuple[list[_Token], list[_Dotted]]:
    """The second loop of FlexibleArgumentParser.parse_args: an item starting with ``-`` with a ``.`` before any ``=``
    is a dotted option; without ``=`` the next item, whatever it is, is its value (``processed_args[i + 1]``)."""
    rest: list[_Token] = []
    dotted: list[_Dotted] = []
    skip = False
    for j, token in enumerate(tokens):
        if skip:
            skip = False
            continue
        text = token.text
        name, sep, value = text.partition("=")
        if not text.startswith("-") or "." not in name:
            rest.append(token)
            continue
        if not sep:
            value = tokens[j + 1].text if j + 1 < len(tokens) else None
            skip = True
        appends = name.endswith("+")
        key, *path = name.removesuffix("+").split(".")
        dotted.append(_Dotted(token, key, tuple(path), appends, value, separate=not sep))
    return rest, dotted


_ABBREVIATION = "vLLM's parser accepts any unambiguous prefix of an option name"
_GLUED = "with its value glued on, which vLLM rejects as an unknown option"


def _resolve(name: str, explicit: str | None) -> _Resolved:
    """The option an option-like item's name stands for, as argparse's ``_parse_optional`` finds it: exact, a
    one-letter option glued to its value, or a prefix abbreviation (``_get_option_tuples``)."""
    option = _BY_SPELLING.get(name)
    if option is not None:
        return _Resolved(option, name, explicit)
    if not name.startswith("--") and name[:2] in _ONE_LETTER and explicit is None:
        return _Resolved(
            _BY_SPELLING[name[:2]],
            name[:2],
            name[2:],
            note=f"{name[:2]} with the value {name[2:]!r}",
        )
    # Abbreviations: argparse accepts any unambiguous prefix of an option string (allow_abbrev=True). Every option
    # string of vLLM 0.33.0's serve parser that is a prefix of a judged spelling is itself judged (--data-parallel-size
    # of --data-parallel-size-local, --grpc of --grpc-port, -dp of -dpl...), so such a prefix here is never an exact
    # option of an unknown kind.
    pool = _SHORT_SPELLINGS if not name.startswith("--") else tuple(_BY_SPELLING)
    candidates = tuple(s for s in pool if s.startswith(name) and s != name)
    judged = tuple(
        dict.fromkeys(_BY_SPELLING[s].name for s in candidates if s in _JUDGED_SPELLINGS)
    )
    if judged:
        return _Resolved(
            _BY_SPELLING[judged[0]], name, explicit, note=_ABBREVIATION, candidates=judged
        )
    # Any other abbreviation: the table holds every option string of vLLM 0.33.0's serve parser (serve_options.py),
    # so one option starting so is the one argparse picks, and several make argparse stop ("ambiguous option").
    others = tuple(dict.fromkeys(_BY_SPELLING[s].name for s in candidates))
    if len(others) == 1:
        return _Resolved(_BY_SPELLING[candidates[0]], name, explicit, note=_ABBREVIATION)
    if others:
        return _Resolved(None, name, explicit, candidates=others)
    # A judged option with its value glued on (-tp4, --port9000): argparse rejects it as unknown, but it is meant as one.
    for spelling in _JUDGED_LONGEST_FIRST:
        if name.startswith(spelling) and name[len(spelling)] in "0123456789.":
            return _Resolved(
                _BY_SPELLING[spelling],
                name,
                name[len(spelling) :],
                note=f"{spelling} {_GLUED}",
            )
    return _Resolved(None, name, explicit)


def _is_option(text: str) -> bool:
    """Whether argparse reads the item as an option ('O') rather than as a value or a positional ('A'), in the order
    of CPython 3.12 ``ArgumentParser._parse_optional``: a known option string (also before ``=``), an abbreviation or a
    one-letter option with its value glued on; otherwise a negative number or an item with a space is a value, and
    anything else starting with ``-`` is an option. argparse's space test covers the whole item, but it comes after
    the look-up of the name before ``=``: ``--chat-template={{ x }}`` is an option for vLLM, which has
    --chat-template, so an option this table does not know keeps a value with spaces after ``=`` too."""
    if len(text) < 2 or not text.startswith("-"):
        return False
    name, sep, explicit = text.partition("=")
    if text in _BY_SPELLING or (sep and name in _BY_SPELLING):
        return True
    if _resolve(name, explicit if sep else None).option is not None:
        return True
    return not (_NEGATIVE_NUMBER.fullmatch(text) or any(c.isspace() for c in name))


def _holds_option_and_value(item: str) -> bool:
    """``"--port 9000"``: an option-like word, whitespace, more -- before any ``=``, so not ``--opt={"a": 1}``."""
    return bool(_OPTION_AND_VALUE.match(item)) and any(c.isspace() for c in item.partition("=")[0])


def _first_word(item: str) -> tuple[str, str, _Resolved]:
    word, rest = item.split(None, 1)
    return (
        word,
        rest.strip(),
        _resolve(_normalise_long(word) if word.startswith("--") else word, None),
    )


def last_value(items: Sequence[str], name: str) -> str | None:
    """The value vLLM ends up with for the one-value option ``name`` (its long name, in :mod:`.options`' table): that
    of its last occurrence in ``items``, in any spelling vLLM reads as it (an alias such as
    ``--device-memory-utilization``, ``_`` for ``-``, ``=value``, an abbreviation only it starts: the module's
    docstring), argparse keeping the last value of a one-value option. None when no item sets it."""
    return _last_values(tuple(items)).get(name)


@functools.lru_cache(maxsize=256)
def _last_values(items: tuple[str, ...]) -> Mapping[str, str]:
    """The last value of every one-value option set in ``items``, by long name, found in one pass: a validation asks
    :func:`last_value` for several options of the same items (a profile's arguments with the file's extra_args)."""
    tokens = _rewrite(items)
    found: dict[str, str] = {}
    for j, token in enumerate(tokens):
        if not _is_option(token.text):
            continue
        key, sep, explicit = token.text.partition("=")
        resolved = _resolve(key, explicit if sep else None)
        if resolved.option is None or len(resolved.candidates) > 1:
            continue
        if resolved.explicit is not None:
            found[resolved.option.name] = resolved.explicit
        elif j + 1 < len(tokens) and not _is_option(tokens[j + 1].text):
            found[resolved.option.name] = tokens[j + 1].text
    return MappingProxyType(found)


def setting_items(items: Sequence[str], name: str) -> list[int]:
    """The indexes of the items that set the option ``name`` (its long name), in any spelling vLLM reads as it, its
    dotted JSON keys (``-sc.method mtp``) included."""
    tokens, dotted = _split_dotted(_rewrite(items))
    found = {
        d.token.index for d in dotted if _resolve(d.key, None).option is _BY_SPELLING.get(name)
    }
    for token in tokens:
        if not _is_option(token.text):
            continue
        key, sep, explicit = token.text.partition("=")
        option = _resolve(key, explicit if sep else None).option
        if option is not None and option.name == name:
            found.add(token.index)
    return sorted(found)
