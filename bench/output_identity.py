"""Every synthesized template and manifest, fingerprinted, to show that a change of code moves no output.

    python bench/output_identity.py record BEFORE.json     (on the old commit)
    python bench/output_identity.py record AFTER.json      (on the new one)
    python bench/output_identity.py compare BEFORE.json AFTER.json

What is synthesized: the default app (both embedded examples, config/example.yaml and config/example-hyperpod.yaml),
each documented variant in tests/configs/*.yaml, the example pipeline (config/pipeline/example.yaml) and each pipeline
variant in tests/configs/pipeline/. Each is synthesized as the tests do (``inspect_only``: no asset staging, no
built-in validation; neither changes a template).

What is recorded, per synthesis: two sha256 of every template (``*.template.json``), of every plain-YAML manifest the
app writes, and of the cloud assembly's nested stage templates: of the text as written, and of the text with every
asset hash blanked; and, apart, each asset's source path and hash. ``compare`` says of each file that differs whether
only the hash of an asset it names changed (a Lambda bundle whose content changed: the assets list says which) or
something else, and exits 1 only on something else. An asset whose folder moved but whose content did not keeps its
hash (asset hashes are of the content), so it changes no template.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import tempfile
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_DIR))

_HASH = re.compile(r"[0-9a-f]{64}")


def _assets(directory: Path) -> dict[str, str]:
    """Asset hash → where its content came from (relative to the project), over every asset manifest of an assembly."""
    found: dict[str, str] = {}
    for manifest in directory.rglob("*.assets.json"):
        data = json.loads(manifest.read_text(encoding="utf-8"))
        for asset_hash, asset in {**data.get("files", {}), **data.get("dockerImages", {})}.items():
            source = asset.get("source", {})
            path = source.get("path") or source.get("directory") or source.get("executable") or "?"
            found[asset_hash] = _stable(str(path))
    return found


def _stable(path: str) -> str:
    """An asset's source path without what changes from run to run: the project's place, jsii's and the CDK's
    temporary directories (their random suffixes)."""
    path = path.replace(str(PROJECT_DIR), ".")
    path = re.sub(r"^/tmp/jsii-kernel-[A-Za-z0-9]+/", "<jsii>/", path)
    # Node's mkdtemp adds 6 characters to the CDK's prefixes, Python's 8 to the project's own.
    return re.sub(
        r"^/tmp/(s3-deployment|cdk-custom-resource|[a-z-]+-)(?:[A-Za-z0-9]{6}|[a-z0-9_]{8})$",
        r"<tmp>/\1",
        path,
    )


def _fingerprint(directory: Path, manifest_files: list[Path]) -> dict:
    assets = _assets(directory)
    files: dict[str, list[str]] = {}
    for path in sorted([*directory.rglob("*.template.json"), *manifest_files]):
        text = path.read_text(encoding="utf-8")
        blanked = _HASH.sub(lambda m: "<asset>" if m.group(0) in assets else m.group(0), text)
        files[str(path.relative_to(directory))] = [
            hashlib.sha256(t.encode()).hexdigest() for t in (text, blanked)
        ]
    return {
        "files": files,
        "assets": sorted([path, asset_hash] for asset_hash, path in assets.items()),
    }


def record(out: Path) -> None:
    from app import build_pipeline, synthesize
    from deployment_config import load_environment
    from deployment_config.loader import DEFAULT_ENVIRONMENTS
    from deployment_config.pipeline import DEFAULT_PIPELINE, load_pipeline

    config, variants = PROJECT_DIR / "config", PROJECT_DIR / "tests" / "configs"
    runs: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as work:

        def environments(label: str, config_dir: Path, names: list[str]) -> None:
            result = synthesize(
                [load_environment(config_dir, name) for name in names],
                outdir=f"{work}/{label}",
                inspect_only=True,
            )
            runs[label] = _fingerprint(result.directory, result.manifest_files)
            print(f"{label}: {len(runs[label]['files'])} files", file=sys.stderr)

        def pipeline(label: str, config_dir: Path, name: str) -> None:
            app, _ = build_pipeline(
                load_pipeline(config_dir, name), outdir=f"{work}/{label}", inspect_only=True
            )
            runs[label] = _fingerprint(Path(app.synth().directory), [])
            print(f"{label}: {len(runs[label]['files'])} files", file=sys.stderr)

        environments("default-app", config, list(DEFAULT_ENVIRONMENTS))
        for variant in sorted(variants.glob("*.yaml")):
            environments(f"variant-{variant.stem}", variants, [variant.stem])
        pipeline("pipeline-example", config, DEFAULT_PIPELINE)
        for variant in sorted((variants / "pipeline").glob("*.yaml")):
            pipeline(f"pipeline-{variant.stem}", variants, variant.stem)
    out.write_text(json.dumps(runs, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def compare(before: dict, after: dict) -> int:
    differences = 0
    for label in sorted(set(before) | set(after)):
        old, new = (
            before.get(label, {"files": {}, "assets": []}),
            after.get(label, {"files": {}, "assets": []}),
        )
        for name in sorted(set(old["files"]) | set(new["files"])):
            before_file, after_file = old["files"].get(name), new["files"].get(name)
            if before_file == after_file:
                continue
            if before_file and after_file and before_file[1] == after_file[1]:
                print(f"{label}: {name}: only the hash of an asset it names changed")
                continue
            differences += 1
            state = "added" if not before_file else "removed" if not after_file else "changed"
            print(f"{label}: {name} {state}")
        # Templates are compared above; of the other assets, one whose content is on both sides only moved.
        old_assets, new_assets = (
            {(path, h) for path, h in run["assets"] if not path.endswith(".template.json")}
            for run in (old, new)
        )
        old_hashes, new_hashes = {h for _, h in old_assets}, {h for _, h in new_assets}
        for path, asset_hash in sorted(old_assets ^ new_assets):
            if asset_hash in old_hashes and asset_hash in new_hashes:
                if (path, asset_hash) in new_assets:
                    print(f"{label}: asset {path} {asset_hash[:12]}: moved, same content")
                continue
            side = "only after" if (path, asset_hash) in new_assets else "only before"
            print(f"{label}: asset {path} {asset_hash[:12]}: content {side}")
    total = sum(len(run["files"]) for run in after.values())
    print(f"{total} templates and manifests compared, {differences} differ")
    return 1 if differences else 0


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "record":
        record(Path(argv[1]))
        return 0
    if len(argv) == 3 and argv[0] == "compare":
        return compare(*(json.loads(Path(p).read_text(encoding="utf-8")) for p in argv[1:]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
