"""Every IAM policy statement of a set of CloudFormation templates, and what the Service Authorization Reference
(tests/iam_reference.py) says is wrong with it.

Three findings, each a statement that does not do what it reads as doing:

- an action that does not exist (or a wildcard that matches none): the grant or the deny is of nothing;
- a condition key, other than a global ``aws:`` one, that the action does not take with any resource type the
  statement's resources name (nor as one of its own keys): a request never carries it, so the statement never
  applies (an ``…IfExists`` or ``Null`` operator, written for a key that may be absent, is not checked);
- in an identity policy, ``Resource: "*"`` for an action that takes a resource type, unless
  tests/data/iam_sar/star_resource_allowances.yaml lists the action with the reason ``*`` cannot be avoided.

Resources are read as IAM compares them: an ARN's six colon-separated parts each on their own, ``*`` and ``?`` never
spanning a colon (IAM user guide, "IAM JSON policy elements: Resource",
https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_resource.html). A part CloudFormation
fills in at deploy time (Ref, Fn::GetAtt, an import) is read as ``*``: it may be anything.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from tests import iam_reference

ALLOWANCES_FILE = iam_reference.DATA_DIR / "star_resource_allowances.yaml"
#: Condition operators written for a key a request may lack: the key's absence is what they test or let through.
ABSENT_KEY_OPERATORS = re.compile(r"(IfExists|^Null)$")


@dataclass(frozen=True)
class Statement:
    where: str  # stack/logical id, and the statement's Sid when it has one
    body: dict
    #: whether the statement is of an identity policy (no Principal): Resource "*" there is every resource
    identity: bool


def statements(templates: dict[str, dict]):
    """Every statement of every policy document in the templates' resources (identity policies, trust policies, key,
    bucket, topic and secret policies), wherever in a resource's properties it is."""
    for stack_name, template in templates.items():
        for logical_id, resource in template.get("Resources", {}).items():
            for document in _documents(resource.get("Properties", {})):
                for statement in document["Statement"]:
                    sid = f" ({statement['Sid']})" if "Sid" in statement else ""
                    yield Statement(
                        f"{stack_name}/{logical_id}{sid}",
                        statement,
                        identity="Principal" not in statement and "NotPrincipal" not in statement,
                    )


def _documents(value):
    if isinstance(value, dict):
        if isinstance(value.get("Statement"), list) and "Version" in value:
            yield value
            return
        for item in value.values():
            yield from _documents(item)
    elif isinstance(value, list):
        for item in value:
            yield from _documents(item)


def listed(value) -> list:
    return value if isinstance(value, list) else [value]


def rendered(value) -> str:
    """A resource as a string, with ``*`` for every part CloudFormation fills in."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and "Fn::Join" in value:
        separator, parts = value["Fn::Join"]
        return separator.join(rendered(part) for part in listed(parts))
    if isinstance(value, dict) and "Fn::Sub" in value:
        text = listed(value["Fn::Sub"])[0]
        return re.sub(r"\$\{[^}]*\}", "*", text)
    return "*"


def _glob_overlap(a: str, b: str) -> bool:
    """Whether some string matches both IAM wildcard patterns (``*``, ``?``)."""
    seen: dict[tuple[int, int], bool] = {}

    def overlap(i: int, j: int) -> bool:
        if (i, j) in seen:
            return seen[(i, j)]
        if i == len(a) or j == len(b):
            result = a[i:].strip("*") == "" and b[j:].strip("*") == ""
        elif a[i] == "*":
            result = overlap(i + 1, j) or overlap(i, j + 1)
        elif b[j] == "*":
            result = overlap(i, j + 1) or overlap(i + 1, j)
        else:
            result = (a[i] == b[j] or "?" in (a[i], b[j])) and overlap(i + 1, j + 1)
        seen[(i, j)] = result
        return result

    return overlap(0, 0)


def _arn_overlap(resource: str, pattern: str) -> bool:
    if not resource.startswith("arn:"):
        return True  # "*", or a value CloudFormation fills in whole
    parts = resource.split(":", 5)
    pattern_parts = re.sub(r"\$\{[^}]*\}", "*", pattern).split(":", 5)
    if len(parts) < 6:
        return True
    return all(_glob_overlap(x, y) for x, y in zip(parts, pattern_parts, strict=True))


def _key_taken(key: str, keys) -> bool:
    """Whether ``key`` is one of ``keys``, whose ``${TagKey}``-style parts match any text (keys are case-insensitive)."""
    return any(
        re.fullmatch(re.sub(r"\\\$\\\{[^}]*\\\}", ".+", re.escape(k.lower())), key.lower())
        for k in keys
    )


def _expanded(action: str) -> tuple[iam_reference.Service | None, list[str]]:
    prefix, _, name = action.partition(":")
    service = iam_reference.load(prefix)
    if service is None:
        return None, []
    if "*" in name or "?" in name:
        pattern = name.lower()
        return service, [a for a in service.actions if fnmatch.fnmatchcase(a.lower(), pattern)]
    exact = service.action(name)
    return service, [exact] if exact else []


def _takes(service: iam_reference.Service, action: str, key: str, resources: list[str]) -> bool:
    """Whether ``action`` takes ``key`` for every resource of the statement (for one it could match, at least)."""
    types = service.actions[action]
    for resource in resources:
        matched = [
            kind
            for kind in types
            if kind and _arn_overlap(resource, service.resources.get(kind, "*"))
        ]
        if not _key_taken(key, [k for kind in [*matched, ""] for k in types.get(kind, ())]):
            return False
    return True


@cache
def _allowances() -> dict:
    return yaml.safe_load(Path(ALLOWANCES_FILE).read_text(encoding="utf-8"))


def star_allowed(action: str, where: str) -> bool:
    """Whether star_resource_allowances.yaml lets the statement at ``where`` grant ``action`` on "*"."""
    allowances = _allowances()
    return any(
        any(part in where for part in entry["statements"])
        for entry in allowances["verbatim_policies"]
        + [e for e in allowances["actions"] if e["action"] == action]
    )


def _condition_keys(condition: dict) -> list[str]:
    """The statement's condition keys that must be present, but the global ones (see the module's docstring)."""
    return [
        key
        for operator, keys in condition.items()
        if not ABSENT_KEY_OPERATORS.search(operator)
        # a map CloudFormation fills in (aws-cdk-lib's CfnJson, for keys that name an OIDC issuer) is not read
        if not any(key.startswith("Fn::") for key in keys)
        for key in keys
        if not key.lower().startswith(iam_reference.GLOBAL)
    ]


def findings(statement: Statement) -> list[str]:
    body = statement.body
    actions = [a for a in listed(body.get("Action", body.get("NotAction", []))) if a != "*"]
    resources = [rendered(r) for r in listed(body.get("Resource", "*"))]
    conditions = _condition_keys(body.get("Condition", {}))
    star = (
        statement.identity
        and body.get("Effect") == "Allow"
        and "Action" in body
        and "*" in listed(body.get("Resource", []))
    )
    found = []
    for action in actions:
        service, names = _expanded(action)
        if service is None:
            found.append(
                f"{action}: service {action.partition(':')[0]} is not in tests/data/iam_sar/: "
                f"{iam_reference.REGENERATE} {action.partition(':')[0]}"
            )
            continue
        if not names:
            found.append(f"{action}: no such action ({service.url})")
            continue
        for key in conditions:
            if not any(_takes(service, name, key, resources) for name in names):
                found.append(
                    f"{action}: condition key {key} is not one it takes with {resources} ({service.url})"
                )
        takes_a_type = [n for n in names if any(kind for kind in service.actions[n])]
        if star and takes_a_type and not star_allowed(action, statement.where):
            found.append(
                f'{action}: on "*", but it takes a resource type ({service.url}); name the resource, or list it '
                f"in {ALLOWANCES_FILE.name} with the reason"
            )
    return [f"{statement.where}: {finding}" for finding in found]
