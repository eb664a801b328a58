"""Write capacity ids back into an environment file, changing nothing but the values written.

The edit is made in the text itself: each value's exact span is found with PyYAML's parser (the parser the loader
uses), and only that span is replaced, so every other byte of the file (comments, blank lines, quoting, list
indentation, line endings) stays as it was. Keys that do not exist yet are inserted as new lines, indented like the
rest of the document. Before anything is written:

* the file must be UTF-8 YAML holding exactly one document whose top level is a mapping, with no anchors, aliases,
  merge keys or tags and no duplicate keys (such files are refused: an edit could silently change other values);
* the new text, loaded again, must equal the old document with only the updated keys changed;
* the new document must pass the app's own loader (``parse_environment``).

A refusal is an :class:`~ops_cli.errors.OpsError` with exit code 2 and leaves the file untouched. The write itself
goes to a temporary file next to the target (a symlink is followed: its target is replaced, the link stays), which
gets the original's permission bits, is fsynced, and then atomically replaces the target; the directory is fsynced
after. Any failure removes the temporary file.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from deployment_config import ConfigError, EnvironmentConfig, parse_environment
from deployment_config.loader import ENV_NAME, config_path
from ops_cli.errors import ExitCode, OpsError, shown

#: An end-of-line comment with this word marks an example value; it goes when the value is replaced.
PLACEHOLDER = re.compile(r"\bPLACEHOLDER\b")
_NEWLINE = re.compile(r"\r?\n")
_MERGE_TAG = "tag:yaml.org,2002:merge"
_NULL_TAG = "tag:yaml.org,2002:null"


def env_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be an environment name, or None."""
    if ENV_NAME.fullmatch(name):
        return None
    return (
        f"{shown(name)} is not an environment name: it must start with a lowercase letter and use only a-z, 0-9 "
        "and '-', at most 20 characters"
    )


def available_environments(config_dir: Path) -> list[str]:
    """The environment names there are files for in ``config_dir`` (empty when it is not a readable directory)."""
    try:
        return sorted(p.stem for p in Path(config_dir).glob("*.yaml") if ENV_NAME.fullmatch(p.stem))
    except OSError:
        return []


def missing_environment(config_dir: Path, name: str) -> OpsError:
    known = available_environments(config_dir)
    listed = (
        f"one of: {', '.join(known)}"
        if known
        else f"none exist in {config_dir} (check --config-dir)"
    )
    return OpsError(
        f"there is no file {config_path(config_dir, name)}",
        f"pass --env NAME with {listed}; or create it: cp config/example.yaml {config_path(config_dir, name)}",
        ExitCode.USAGE,
    )


def check_environment_file(
    config_dir: Path, env_name: str, updates: dict[str, str]
) -> EnvironmentConfig:
    """Everything :func:`update_environment_file` checks, without writing: the environment the file would then hold."""
    return _prepare(config_dir, env_name, updates).config


def update_environment_file(config_dir: Path, env_name: str, updates: dict[str, str]) -> Path:
    """Set each dotted key of ``updates`` in ``config_dir/ENV.yaml``; validate; replace the file. Returns its path."""
    edit = _prepare(config_dir, env_name, updates)
    _replace(edit)
    return edit.path


# --- preparing the edit ---------------------------------------------------------------------------------------------


@dataclass
class _Edit:
    path: Path  # as the user named it (may be a symlink)
    target: Path  # the file written: the symlink's final target, or the path itself
    text: str  # the new contents
    config: EnvironmentConfig


def _refuse(path: Path, problem: str, fix: str) -> OpsError:
    return OpsError(f"not written: {path} {problem}", fix, ExitCode.USAGE)


def _prepare(config_dir: Path, env_name: str, updates: dict[str, str]) -> _Edit:
    problem = env_name_problem(env_name)
    if problem:
        raise OpsError(
            problem,
            "name a file of config/ without '.yaml', for example --env prod",
            ExitCode.USAGE,
        )
    path = config_path(Path(config_dir), env_name)
    if not path.is_file():
        if path.is_symlink():
            raise _refuse(
                path,
                f"is a symlink to {os.readlink(path)}, which does not exist",
                "point the link at an existing file, or replace it with the file",
            )
        raise missing_environment(config_dir, env_name)
    target = Path(os.path.realpath(path))
    try:
        raw = target.read_bytes()
    except OSError as error:
        raise _refuse(path, f"cannot be read ({error.strerror})", "check its permissions") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _refuse(
            path,
            f"is not UTF-8 text (byte {error.start}: {raw[error.start : error.start + 1]!r})",
            "save it as UTF-8, then run again",
        ) from None
    root = _checked_document(text, path)
    tree = _tree(updates)
    newline = "\r\n" if "\r\n" in text else "\n"
    edits = _edits(text, root, tree, _indent_unit(root), newline, path, prefix="")
    new_text = text
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        new_text = new_text[:start] + replacement + new_text[end:]

    try:
        expected = _apply(copy.deepcopy(yaml.safe_load(text)), tree)
    except (
        yaml.YAMLError,
        ValueError,
        TypeError,
    ) as error:  # e.g. a date that does not exist: 2026-02-30
        raise _refuse(
            path, f"cannot be read as YAML: {str(error).splitlines()[0]}", "fix the file first"
        ) from None
    try:
        written = yaml.safe_load(new_text)
    except (yaml.YAMLError, ValueError, TypeError):
        written = None
    if written != expected:
        raise _refuse(
            path,
            "cannot be edited without changing more than the values to write",
            f"set {', '.join(updates)} by hand",
        )
    try:
        config = parse_environment(written, name=env_name, source=str(path))
    except ConfigError as error:
        raise OpsError(
            f"not written, the result would be invalid: {error.summary}", error.fix, ExitCode.USAGE
        ) from None
    if not os.access(target, os.W_OK):
        raise _refuse(
            path,
            "is read-only",
            f"make it writable (chmod u+w {target}), or set {', '.join(updates)} by hand",
        )
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise _refuse(
            path,
            f"cannot be replaced: its directory {target.parent} is not writable",
            "make the directory writable, or set the values by hand",
        )
    return _Edit(path, target, new_text, config)


def _where(node: Node) -> str:
    return f"line {node.start_mark.line + 1}"


def _checked_document(text: str, path: Path) -> MappingNode:
    """The document's root node, after refusing everything a text edit could get wrong."""
    try:
        events = list(yaml.parse(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError as error:
        raise _invalid_yaml(path, error) from None
    documents = sum(isinstance(e, yaml.DocumentStartEvent) for e in events)
    if documents == 0:
        raise _refuse(path, "is empty", "start from config/example.yaml")
    if documents > 1:
        raise _refuse(
            path,
            f"holds {documents} YAML documents, the loader reads exactly one",
            "keep one document (remove the other '---' sections)",
        )
    for event in events:
        line = f"line {event.start_mark.line + 1}"
        if isinstance(event, yaml.AliasEvent):
            raise _refuse(
                path,
                f"uses an alias (*{event.anchor}) at {line}; an edit could change the values that share it",
                "write the values out instead of using anchors and aliases, or set the ids by hand",
            )
        if getattr(event, "anchor", None):
            raise _refuse(
                path,
                f"uses an anchor (&{event.anchor}) at {line}; an edit could change the values that share it",
                "write the values out instead of using anchors and aliases, or set the ids by hand",
            )
        if (
            isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent))
            and event.tag is not None
        ):
            raise _refuse(
                path,
                f"uses a YAML tag ({event.tag}) at {line}",
                "remove the tag, or set the ids by hand",
            )
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        raise _invalid_yaml(path, error) from None
    if not isinstance(root, MappingNode):
        kind = (
            "empty"
            if root is None or (isinstance(root, ScalarNode) and root.tag == _NULL_TAG)
            else f"a {'list' if isinstance(root, SequenceNode) else 'single value'}, not a mapping of keys"
        )
        raise _refuse(path, f"is {kind}", "start from config/example.yaml")
    _check_keys(root, path)
    return root


def _invalid_yaml(path: Path, error: yaml.YAMLError) -> OpsError:
    mark = getattr(error, "problem_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    return _refuse(path, f"is not valid YAML at {where}: {problem}", "fix the file first")


def _check_keys(node: Node, path: Path) -> None:
    if isinstance(node, MappingNode):
        seen: dict[tuple[str, str], Node] = {}
        for key, value in node.value:
            if key.tag == _MERGE_TAG:
                raise _refuse(
                    path,
                    f"uses a merge key (<<) at {_where(key)}; an edit could change the merged values",
                    "write the merged keys out, or set the ids by hand",
                )
            if not isinstance(key, ScalarNode):
                raise _refuse(
                    path, f"has a key that is not a plain value at {_where(key)}", "use plain keys"
                )
            if (key.tag, key.value) in seen:
                raise _refuse(
                    path,
                    f"has the key {shown(key.value)} twice in one mapping ({_where(seen[key.tag, key.value])} "
                    f"and {_where(key)}); the loader keeps only the last",
                    "delete one of them",
                )
            seen[key.tag, key.value] = key
            _check_keys(value, path)
    elif isinstance(node, SequenceNode):
        for item in node.value:
            _check_keys(item, path)


def _tree(updates: dict[str, str]) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    for dotted, value in updates.items():
        if not isinstance(value, str):
            raise TypeError(f"{dotted}: only strings are written, got {type(value).__name__}")
        *parents, last = dotted.split(".")
        node = tree
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = value
    return tree


def _apply(document: Any, tree: dict[str, Any]) -> Any:
    """``document`` (as PyYAML loads it) with the values of ``tree`` set, the way the text edit sets them."""
    for key, value in tree.items():
        if isinstance(value, dict):
            if not isinstance(document.get(key), dict):
                document[key] = {}
            _apply(document[key], value)
        else:
            document[key] = value
    return document


def _indent_unit(root: MappingNode) -> int:
    """How far the document indents a nested mapping under its key (2 unless the file shows otherwise)."""
    pending = [root]
    while pending:
        node = pending.pop(0)
        for key, value in node.value:
            if isinstance(value, MappingNode) and not value.flow_style and value.value:
                if value.start_mark.column > key.start_mark.column:
                    return value.start_mark.column - key.start_mark.column
                pending.append(value)
    return 2


def _line_end(text: str, index: int) -> int:
    """Where the line holding ``index`` ends (its line break, or the end of the text)."""
    match = _NEWLINE.search(text, index)
    return match.start() if match else len(text)


def _content_end(node: Node) -> int:
    """The index just after the last character of ``node``'s own text (a block collection: of its last item)."""
    if isinstance(node, MappingNode) and node.value and not node.flow_style:
        return _content_end(node.value[-1][1])
    if isinstance(node, SequenceNode) and node.value and not node.flow_style:
        return _content_end(node.value[-1])
    return node.end_mark.index


def _scalar_text(value: str, style: str | None, flow: bool) -> str:
    """``value`` written as a YAML scalar: in the original's quoting, plain when that reads back unchanged."""
    if style == '"':
        return json.dumps(value, ensure_ascii=False)
    if style == "'" and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    if value and "\n" not in value and value == value.strip():
        probe = "{k: %s}" if flow else "k: %s"
        with contextlib.suppress(yaml.YAMLError):
            if yaml.safe_load(probe % value) == {"k": value}:
                return value
    return json.dumps(value, ensure_ascii=False)


def _block_lines(tree: dict[str, Any], column: int, unit: int) -> list[str]:
    lines = []
    for key, value in tree.items():
        if isinstance(value, dict):
            lines.append(f"{' ' * column}{key}:")
            lines.extend(_block_lines(value, column + unit, unit))
        else:
            lines.append(f"{' ' * column}{key}: {_scalar_text(value, None, flow=False)}")
    return lines


def _replace_scalar(
    text: str, node: ScalarNode, value: str, flow: bool, dotted: str, path: Path
) -> tuple[int, int, str]:
    if node.style in ("|", ">") or node.start_mark.line != node.end_mark.line:
        raise _refuse(
            path,
            f"writes {dotted} over several lines ({_where(node)})",
            f"write {dotted} on one line, or by hand",
        )
    start, end = node.start_mark.index, node.end_mark.index
    new = _scalar_text(value, node.style, flow)
    if start == end:  # an empty value: 'key:' followed by nothing
        new = " " + new
    line_end = _line_end(text, end)
    comment = re.fullmatch(r"([ \t]+)(#.*)", text[end:line_end])
    if not comment or flow:
        return start, end, new
    gap, remark = comment.groups()
    if PLACEHOLDER.search(
        remark
    ):  # the value it marked as an example is being replaced: the remark goes with it
        return start, line_end, new
    column = node.end_mark.column + len(
        gap
    )  # keep the comment in its column when the new value leaves room
    new_end = node.start_mark.column + len(new)
    padding = column - new_end if column - new_end >= 1 else len(gap)
    return start, line_end, new + " " * padding + remark


def _edits(
    text: str,
    mapping: MappingNode,
    tree: dict[str, Any],
    unit: int,
    newline: str,
    path: Path,
    prefix: str,
) -> list[tuple[int, int, str]]:
    edits: list[tuple[int, int, str]] = []
    missing: dict[str, Any] = {}
    by_key = {key.value: (key, value) for key, value in mapping.value}
    for name, wanted in tree.items():
        dotted = prefix + name
        if name not in by_key:
            missing[name] = wanted
            continue
        key, node = by_key[name]
        if isinstance(wanted, dict):
            if isinstance(node, MappingNode):
                edits += _edits(text, node, wanted, unit, newline, path, prefix=dotted + ".")
            elif (
                isinstance(node, ScalarNode) and node.tag == _NULL_TAG
            ):  # 'capacity:' with nothing under it
                lines = _block_lines(wanted, key.start_mark.column + unit, unit)
                edits.append((node.start_mark.index, node.end_mark.index, ""))
                at = _line_end(text, node.end_mark.index)
                edits.append((at, at, "".join(newline + line for line in lines)))
            else:
                raise _refuse(
                    path,
                    f"has {dotted} as a single value or a list at {_where(node)}, not a mapping",
                    f"make {dotted} a mapping (see config/example.yaml)",
                )
        elif isinstance(node, ScalarNode):
            edits.append(
                _replace_scalar(text, node, wanted, bool(mapping.flow_style), dotted, path)
            )
        else:
            raise _refuse(
                path,
                f"has {dotted} as a list or mapping at {_where(node)}, where one value belongs",
                f"make {dotted} a single value",
            )
    if missing:
        if mapping.flow_style:
            raise _refuse(
                path,
                f"writes {prefix.rstrip('.') or 'the document'} in flow style ({{...}}, {_where(mapping)}), "
                f"where {', '.join(prefix + m for m in missing)} would have to be added",
                "write it in block style (one key per line), or add the keys by hand",
            )
        lines = _block_lines(missing, mapping.start_mark.column, unit)
        at = _line_end(text, _content_end(mapping))
        spacer = (
            newline
            if mapping.start_mark.column == 0 and any(isinstance(v, dict) for v in missing.values())
            else ""
        )
        edits.append((at, at, spacer + "".join(newline + line for line in lines)))
    return edits


# --- writing --------------------------------------------------------------------------------------------------------


def _replace(edit: _Edit) -> None:
    target = edit.target
    try:
        status = os.stat(target)
        handle, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise OpsError(
            f"not written: cannot create a file next to {target} ({error.strerror})",
            "check the permissions of the file and its directory",
            ExitCode.USAGE,
        ) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(edit.text.encode("utf-8"))
            stream.flush()
            os.fchmod(stream.fileno(), stat.S_IMODE(status.st_mode))
            if (status.st_uid, status.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(
                    OSError
                ):  # only root may give a file away; others keep their own
                    os.fchown(stream.fileno(), status.st_uid, status.st_gid)
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise OpsError(
                f"not written: could not replace {target} ({error.strerror or error})",
                "check the disk space and the permissions of the file and its directory",
                ExitCode.USAGE,
            ) from None
        raise
    with contextlib.suppress(OSError):  # the rename is durable once the directory is on disk too
        directory = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
