"""Read a configuration file as plain YAML data, refusing what a configuration never needs and an attacker would use.

- Files larger than :data:`MAX_FILE_BYTES`: an environment file is a few hundred lines.
- Anchors and aliases (``&x`` / ``*x``, and the ``<<`` merge key built on them): a 1.7 KB "billion laughs" file
  expands to gigabytes in any code that walks the data. Write values out instead.
- Duplicate keys: PyYAML lets the last one win silently; here the second one is an error naming both lines.
- Tags (``!!python/...``, ``!Ref``): ``safe_load`` refuses the dangerous ones; the rest are not configuration either.
- Several documents in one file (``---``): only the first would be read.
- Nesting more than :data:`MAX_NESTING_DEPTH` levels deep (``[[[[...``): refused as soon as the parser reaches that
  depth. A file nested thousands of levels deep would otherwise exhaust Python's recursion limit, after PyYAML's
  pure-Python scanner spent seconds on it (its work per token grows with the depth of flow collections).
- Bytes that are not UTF-8, and files that cannot be read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from deployment_config.errors import ConfigError

MAX_FILE_BYTES = 256 * 1024
#: Lists and mappings inside each other; an environment file needs about five levels.
MAX_NESTING_DEPTH = 64


class _TooDeep(Exception):
    def __init__(self, mark) -> None:  # noqa: ANN001 (a PyYAML Mark)
        super().__init__()
        self.mark = mark


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader without aliases, duplicate keys, custom tags or deep nesting."""

    _depth = 0

    def compose_node(self, parent, index):  # noqa: ANN001 (PyYAML's signature)
        # compose_node recurses through compose_sequence_node / compose_mapping_node for every level
        if self._depth >= MAX_NESTING_DEPTH:
            raise _TooDeep(self.peek_event().start_mark)
        self._depth += 1
        try:
            return self._compose_checked_node(parent, index)
        finally:
            self._depth -= 1

    def _compose_checked_node(self, parent, index):  # noqa: ANN001
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.MarkedYAMLError(
                problem=f"uses the alias *{event.anchor}: anchors and aliases are not supported",
                problem_mark=event.start_mark,
            )
        event = self.peek_event()
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise yaml.MarkedYAMLError(
                problem=f"defines the anchor &{anchor}: anchors and aliases are not supported",
                problem_mark=event.start_mark,
            )
        tag = getattr(event, "tag", None)
        if tag is not None and tag != "!":
            raise yaml.MarkedYAMLError(
                problem=f"uses the tag {tag}: tags are not supported", problem_mark=event.start_mark
            )
        return super().compose_node(parent, index)

    def construct_mapping(self, node, deep=False):  # noqa: ANN001
        seen: dict[Any, Any] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise yaml.MarkedYAMLError(
                    problem="uses the merge key '<<': write the values out",
                    problem_mark=key_node.start_mark,
                )
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise yaml.MarkedYAMLError(
                    problem="uses a list or mapping as a key", problem_mark=key_node.start_mark
                ) from None
            if key in seen:
                first = seen[key]
                raise yaml.MarkedYAMLError(
                    problem=f"repeats the key '{key}' (first at line {first.line + 1}); YAML would silently keep the last one",
                    problem_mark=key_node.start_mark,
                )
            seen[key] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)


def read_yaml(path: Path, *, source: str) -> Any:
    """The data of the single YAML document in ``path``, or a :class:`ConfigError` that says what is wrong and where."""
    return parse_yaml_bytes(read_bytes(path, source=source), source=source)


def read_bytes(path: Path, *, source: str) -> bytes:
    """The bytes of ``path``, or a :class:`ConfigError` if it is too large or cannot be read."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ConfigError(
                "(file)",
                f"is {size:,} bytes; a configuration file is at most {MAX_FILE_BYTES:,}",
                "point at the right file; an environment file is a few hundred lines",
                source=source,
            )
        raw = path.read_bytes()
    except OSError as error:
        raise ConfigError(
            "(file)",
            f"cannot be read ({error.strerror or error})",
            "check that the file exists and that you may read it",
            source=source,
        ) from None
    return raw


def parse_yaml_bytes(raw: bytes, *, source: str) -> Any:
    """The data of the single YAML document in ``raw`` (UTF-8), or a :class:`ConfigError`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise ConfigError(
            "(file)",
            f"is not UTF-8 text (byte 0x{raw[error.start]:02x} on line {line})",
            "save the file as UTF-8",
            source=source,
        ) from None
    return parse_yaml(text, source=source)


def parse_yaml(text: str, *, source: str) -> Any:
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        documents = list(yaml.load_all(text, Loader=_StrictLoader))  # noqa: S506 (a SafeLoader subclass)
    except _TooDeep as error:
        raise ConfigError(
            "(file)",
            f"nests lists or mappings more than {MAX_NESTING_DEPTH} levels deep (line "
            f"{error.mark.line + 1}, column {error.mark.column + 1})",
            "write the configuration as the example does: a few levels of 'key: value'",
            source=source,
        ) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        problem = getattr(error, "problem", None) or str(error)
        raise ConfigError(
            "(file)",
            f"is not valid YAML at {where}: {problem}",
            "fix the indentation or quoting there; write every value out (no anchors, aliases, tags "
            "or repeated keys)",
            source=source,
        ) from None
    if len(documents) > 1:
        raise ConfigError(
            "(file)",
            f"holds {len(documents)} YAML documents (separated by '---')",
            "keep one environment per file",
            source=source,
        )
    return documents[0] if documents else None
