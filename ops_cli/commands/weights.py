"""``llmops weights mirror``: copy the model from Hugging Face to the environment's S3 prefix at a pinned commit (a
Job in the cluster), check its checksum manifest, then pin the commit in the environment file (ops_cli/weights.py)."""

from __future__ import annotations

import argparse
import json

from deployment_config.kubernetes_names import SERVING_NAMESPACE
from endpoint_probe.errors import printable
from ops_cli import hugging_face_hub, weights, weights_mirror_job
from ops_cli.arguments import TIMEOUT_HELP, positive
from ops_cli.command_help import command_help, group_help
from ops_cli.config_writer import check_environment_file, update_environment_file
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError
from ops_cli.tools import run_tool


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    weights_group = groups.add_parser(
        "weights",
        help="the model's weights",
        parents=[common],
        **group_help(
            "Work with the model's weights: mirror them from Hugging Face to the environment's S3 prefix.",
            [
                "llmops weights mirror --env prod",
                "llmops weights mirror --env prod --revision main",
            ],
        ),
    ).add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = weights_group.add_parser(
        "mirror",
        help="copy the model from Hugging Face to the environment's S3 prefix at a "
        "pinned commit (a Job in the cluster), then check its checksum manifest",
        parents=[common],
        **command_help(
            "Copy the model (and with spec_decoding its speculator) from Hugging Face into the environment's S3 prefix at "
            "a pinned commit, with a Job in the cluster; check every file's sha256 against the Hub's, then write the "
            "commit into the environment file.",
            [
                "llmops weights mirror --env prod",
                "llmops weights mirror --env prod --revision main --timeout 21600",
            ],
            [
                (ExitCode.OK, "mirrored and checked; the commit is in the environment file"),
                (
                    ExitCode.CHECK_FAILED,
                    "the Job failed, or the copy does not match the Hub's checksums (nothing written)",
                ),
                (ExitCode.TIMEOUT, "--timeout ran out (nothing written)"),
            ],
        ),
    )
    p.add_argument(
        "--env", required=True, help="the environment (model.weight_source: s3) to mirror into"
    )
    p.add_argument(
        "--revision",
        help="branch, tag or commit to resolve on the Hub (default: the environment's "
        "model.hugging_face_revision, else main); the commit id is written into the environment file",
    )
    p.add_argument("--kubectl", default="kubectl", help="kubectl to use (default: the one on PATH)")
    p.add_argument(
        "--timeout",
        type=positive,
        default=12 * 3600,
        help=TIMEOUT_HELP.format(43200) + "; the Hub's answer has 30 s at most of its own",
    )
    p.add_argument(
        "--interval",
        type=positive,
        default=30,
        help="seconds between looks at the copy (default: 30)",
    )
    p.set_defaults(handler=mirror)


def mirror(ctx: Context) -> int:
    """Resolve the revision to a commit, run the copy Job into that commit's own prefix, follow it, check the
    manifest, and only then write the commit into the environment file (ops_cli/weights.py)."""
    env = ctx.env
    weights.check_mirror_target(env)
    ctx.check_kubectl()
    check_environment_file(
        ctx.config_dir, env.name, {}
    )  # a file it cannot edit is refused before any call
    ref = ctx.args.revision or env.model.hugging_face_revision or "main"
    token = None
    if (
        env.model.hugging_face_token_secret
    ):  # a gated model: the Hub answers its info only with the token
        with ctx.deadline.during("reading the Hugging Face token from Secrets Manager"):
            answer = ctx.aws().call(
                "secretsmanager",
                "get_secret_value",
                "read the Hugging Face token",
                SecretId=env.model.hugging_face_token_secret,
            )
        token = (answer.get("SecretString") or "").strip() or None
    sha = hugging_face_hub.resolve_revision(
        env.model.hugging_face_id,
        ref,
        token=token,
        hub=hugging_face_hub.hub_endpoint(ctx.rt.environ),
        deadline=ctx.deadline,
    )
    bucket, prefix = weights.check_mirror_target(env, sha)
    # With spec_decoding the recipe's speculator is mirrored by the same Job, at the commit it is pinned to (else its
    # default branch), into its own prefix (deployment_config/speculator.py).
    speculator_id = weights.mirrored_speculator(env)
    speculator_sha = speculator_target = None
    if speculator_id is not None:
        speculator_sha = hugging_face_hub.resolve_revision(
            speculator_id,
            env.model.speculator_revision or "main",
            token=token,
            hub=hugging_face_hub.hub_endpoint(ctx.rt.environ),
            deadline=ctx.deadline,
        )
        speculator_target = weights.speculator_target(env, speculator_sha)
    # The edit is checked now (the file must accept this revision) and made only once the copy checked out: until
    # then the file, and what the charts serve, stay at the revision that was there. Both revisions or neither.
    revision_update = {
        "model.hugging_face_revision": sha,
        **({"model.speculator_revision": speculator_sha} if speculator_sha else {}),
    }
    check_environment_file(ctx.config_dir, env.name, revision_update)
    ctx.say(
        f"{env.model.hugging_face_id}@{ref} is commit {sha}; copying it to s3://{bucket}/{prefix}.",
        ctx.rt.stderr,
    )
    if speculator_target is not None:
        ctx.say(
            f"The speculator {speculator_id} is commit {speculator_sha}; copying it to "
            f"s3://{speculator_target[0]}/{speculator_target[1]}.",
            ctx.rt.stderr,
        )
    run, deadline = (
        ctx.rt.run_command,
        ctx.deadline,
    )  # every kubectl call ends by the --timeout deadline
    k, ns = ctx.args.kubectl, SERVING_NAMESPACE
    weights_mirror_job.kubectl(
        run,
        k,
        "delete",
        "job",
        weights_mirror_job.MIRROR_JOB,
        "-n",
        ns,
        "--ignore-not-found",
        "--wait=true",
        deadline=deadline,
    )
    items = weights_mirror_job.mirror_manifests(env, sha, speculator_sha)
    weights_mirror_job.kubectl(
        run,
        k,
        "apply",
        "-f",
        "-",
        stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": items}),
        deadline=deadline,
    )
    printed: list[dict] = []

    def probe() -> tuple[bool, str]:
        """One look at the Job: the files it has copied since the last look (a line each), and whether it ended.
        The log of a pod that has not started yet is not an error, only nothing to show."""
        result = run_tool(
            [k, "logs", "-n", ns, f"job/{weights_mirror_job.MIRROR_JOB}"],
            deadline=deadline,
            cap=120,
            run=run,
        )
        records = weights_mirror_job.file_records(result.stdout if result.returncode == 0 else "")
        for record in records[len(printed) :]:
            ctx.say(
                f"[{record['file']}/{record['files']}] {printable(record['path'], 200)}  {record['size']:,} bytes  "
                f"({record['bytes_copied']:,} of {record['bytes_total']:,})",
                ctx.rt.stderr,
            )
            printed.append(record)
        job = weights_mirror_job.kubectl_json(
            run, k, "get", "job", weights_mirror_job.MIRROR_JOB, "-n", ns, deadline=deadline
        )
        status = job.get("status") if isinstance(job.get("status"), dict) else {}
        conditions = status.get("conditions") if isinstance(status.get("conditions"), list) else []
        failed = any(
            isinstance(c, dict) and c.get("type") == "Failed" and c.get("status") == "True"
            for c in conditions
        )
        if failed or (
            status.get("failed") and not status.get("active") and not status.get("succeeded")
        ):
            raise OpsError(
                f"the mirror Job {ns}/{weights_mirror_job.MIRROR_JOB} did not succeed",
                f"kubectl -n {ns} logs job/{weights_mirror_job.MIRROR_JOB}; kubectl -n {ns} describe job "
                f"{weights_mirror_job.MIRROR_JOB}",
                ExitCode.CHECK_FAILED,
            )
        last = printed[-1] if printed else None
        state = (
            f"{last['file']}/{last['files']} files, {last['bytes_copied'] / 1e9:,.1f} of "
            f"{last['bytes_total'] / 1e9:,.1f} GB"
            if last
            else "starting"
        )
        return bool(status.get("succeeded")), state

    ctx.progress(f"mirror Job {ns}/{weights_mirror_job.MIRROR_JOB}").run(probe)
    checked, digests = [], []
    for where_bucket, where_prefix, revision in (
        (bucket, prefix, sha),
        *(((*speculator_target, speculator_sha),) if speculator_target else ()),
    ):
        with deadline.during(
            f"reading the mirror's manifest from s3://{where_bucket}/{where_prefix}"
        ):
            manifest, objects, digest = weights.read_mirror(ctx.aws(), where_bucket, where_prefix)
        problems = weights.check_manifest(manifest, objects, where_prefix)
        if manifest.get("revision") != revision:
            problems.insert(
                0,
                weights.MirrorProblem(
                    weights.MANIFEST_NAME, f"is of revision {manifest.get('revision')}"
                ),
            )
        if problems:  # nothing is written: neither revision is pinned unless both copies check out
            raise OpsError(
                f"the mirror in s3://{where_bucket}/{where_prefix} does not match: "
                + "; ".join(f"{p.path}: {p.problem}" for p in problems[:5]),
                "run llmops weights mirror again",
                ExitCode.CHECK_FAILED,
            )
        checked.append(manifest)
        digests.append(digest)
    manifest = checked[0]
    # The weights' manifest pinned by its sha256 with the revision: the node's check refuses any other (charts/
    # vllm_weights_check/), so a manifest rewritten in S3 after this check, with hashes to match other files, is not
    # trusted.
    revision_update["model.weights_manifest_sha256"] = digests[0]
    written = None
    if (
        sha != env.model.hugging_face_revision
        or speculator_sha != (env.model.speculator_revision if speculator_sha else None)
        or digests[0] != env.model.weights_manifest_sha256
    ):
        written = update_environment_file(ctx.config_dir, env.name, revision_update)
        ctx.say(
            f"The copy of {sha} checked out; wrote the revision and the manifest's sha256 into {written}.",
            ctx.rt.stderr,
        )
    files = manifest.get("files") or []
    size = sum(f.get("size") or 0 for f in files)
    speculator_out = {}
    if speculator_target is not None:
        spec_files = checked[1].get("files") or []
        spec_bytes = sum(f.get("size") or 0 for f in spec_files)
        speculator_out = {
            "speculator": {
                "repo_id": speculator_id,
                "revision": speculator_sha,
                "s3_uri": f"s3://{speculator_target[0]}/{speculator_target[1]}",
                "files": len(spec_files),
                "bytes": spec_bytes,
                "size_gb": -(-spec_bytes // 10**9),
            }
        }
        ctx.say(
            f"The speculator: {len(spec_files)} files, {spec_bytes:,} bytes (model.speculator_size_gb: "
            f"{-(-spec_bytes // 10**9)} or more).",
            ctx.rt.stderr,
        )
    ctx.out(
        {
            "env": env.name,
            "revision": sha,
            "s3_uri": f"s3://{bucket}/{prefix}",
            "files": len(files),
            "bytes": size,
            "config_file": str(written) if written else None,
            **speculator_out,
        },
        f"Mirrored {env.model.hugging_face_id}@{sha}: {len(files)} files, {size:,} bytes in s3://{bucket}/{prefix}; "
        "every sha256 matches the Hub's.",
    )
    return ExitCode.OK
