"""The checks that refuse an environment file a text edit could get wrong (ops_cli/config_writer.py): it must be UTF-8
YAML holding exactly one document whose top level is a mapping, with no anchors, aliases, merge keys or tags and no
duplicate keys. A refusal is an :class:`~ops_cli.errors.OpsError` with exit code 2 that names the file."""

from __future__ import annotations

from pathlib import Path

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ops_cli.errors import ExitCode, OpsError, shown

_MERGE_TAG = "tag:yaml.org,2002:merge"
NULL_TAG = "tag:yaml.org,2002:null"


def refuse(path: Path, problem: str, fix: str) -> OpsError:
    return OpsError(f"not written: {path} {problem}", fix, ExitCode.USAGE)


def where(node: Node) -> str:
    return f"line {node.start_mark.line + 1}"


def checked_document(text: str, path: Path) -> MappingNode:
    """The document's root node, after refusing everything a text edit could get wrong."""
    try:
        events = list(yaml.parse(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError as error:
        raise _invalid_yaml(path, error) from None
    documents = sum(isinstance(e, yaml.DocumentStartEvent) for e in events)
    if documents == 0:
        raise refuse(path, "is empty", "start from config/example.yaml")
    if documents > 1:
        raise refuse(
            path,
            f"holds {documents} YAML documents, the loader reads exactly one",
            "keep one document (remove the other '---' sections)",
        )
    for event in events:
        line = f"line {event.start_mark.line + 1}"
        if isinstance(event, yaml.AliasEvent):
            raise refuse(
                path,
                f"uses an alias (*{event.anchor}) at {line}; an edit could change the values that share it",
                "write the values out instead of using anchors and aliases, or set the ids by hand",
            )
        if getattr(event, "anchor", None):
            raise refuse(
                path,
                f"uses an anchor (&{event.anchor}) at {line}; an edit could change the values that share it",
                "write the values out instead of using anchors and aliases, or set the ids by hand",
            )
        if (
            isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent))
            and event.tag is not None
        ):
            raise refuse(
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
            if root is None or (isinstance(root, ScalarNode) and root.tag == NULL_TAG)
            else f"a {'list' if isinstance(root, SequenceNode) else 'single value'}, not a mapping of keys"
        )
        raise refuse(path, f"is {kind}", "start from config/example.yaml")
    _check_keys(root, path)
    return root


def _invalid_yaml(path: Path, error: yaml.YAMLError) -> OpsError:
    mark = getattr(error, "problem_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    return refuse(path, f"is not valid YAML at {where}: {problem}", "fix the file first")


def _check_keys(node: Node, path: Path) -> None:
    if isinstance(node, MappingNode):
        seen: dict[tuple[str, str], Node] = {}
        for key, value in node.value:
            if key.tag == _MERGE_TAG:
                raise refuse(
                    path,
                    f"uses a merge key (<<) at {where(key)}; an edit could change the merged values",
                    "write the merged keys out, or set the ids by hand",
                )
            if not isinstance(key, ScalarNode):
                raise refuse(
                    path, f"has a key that is not a plain value at {where(key)}", "use plain keys"
                )
            if (key.tag, key.value) in seen:
                raise refuse(
                    path,
                    f"has the key {shown(key.value)} twice in one mapping ({where(seen[key.tag, key.value])} "
                    f"and {where(key)}); the loader keeps only the last",
                    "delete one of them",
                )
            seen[key.tag, key.value] = key
            _check_keys(value, path)
    elif isinstance(node, SequenceNode):
        for item in node.value:
            _check_keys(item, path)
