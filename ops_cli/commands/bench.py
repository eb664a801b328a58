"""``llmops bench``: a correctness probe from here (ops_cli/bench.py) and a load test with vLLM's own ``vllm bench
serve`` as a Kubernetes Job (ops_cli/load_test.py), in one table beside the published figures."""

from __future__ import annotations

import argparse
import math
import time

from deployment_config.model import Platform
from endpoint_probe.url import check_url
from ops_cli import bench as bench_probe
from ops_cli import load_test, load_test_job, load_test_target, workspace_acceptance
from ops_cli.api_key import add_api_key_options, api_key, keeping_secret
from ops_cli.arguments import TIMEOUT_HELP, positive
from ops_cli.bench_tables import acceptance_table, load_test_table, probe_table
from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError
from ops_cli.output import write_if_open
from ops_cli.tables import published_note
from ops_cli.tls import add_tls_options, operator_trust, tls_options


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "bench",
        help="a correctness probe (a checkable answer, a schema-checked tool call) and a load "
        "test with vLLM's own 'vllm bench serve', run as a Kubernetes Job",
        parents=[common],
        **command_help(
            "Check the model's answers from here (a question with one right answer, a tool call checked against its "
            "schema), then load-test the endpoint with vLLM's 'vllm bench serve' as a Kubernetes Job, one run per "
            "concurrency, beside the published figures.",
            [
                "llmops bench --env prod --url http://localhost:8000",
                "llmops bench --env prod --skip-probe --concurrency 1,8,32 --input-len 2048 --output-len 512",
                "llmops bench --env prod --url http://localhost:8000 --probe-only --json",
            ],
            [
                (ExitCode.OK, "passed"),
                (ExitCode.CHECK_FAILED, "a probe row or a load-test run failed"),
                (ExitCode.TIMEOUT, "a probe request or the Job ran past its deadline"),
                (ExitCode.NOT_FOUND, "HyperPod: no running worker pod"),
            ],
        ),
    )
    p.add_argument("--env", required=True, help="the environment whose endpoint to test")
    p.add_argument(
        "--url",
        help="the endpoint, for the probe, which runs from here like smoke-test (required unless "
        "--skip-probe; default: none)",
    )
    p.add_argument(
        "--concurrency",
        type=_concurrencies,
        default=load_test.DEFAULT_CONCURRENCIES,
        metavar="N,N,...",
        help="one load-test run per concurrency (default: 1,4,16)",
    )
    p.add_argument(
        "--input-len",
        type=positive,
        default=load_test.DEFAULT_INPUT_LEN,
        help="prompt tokens (default: 8192)",
    )
    p.add_argument(
        "--output-len",
        type=positive,
        default=load_test.DEFAULT_OUTPUT_LEN,
        help="output tokens (default: 1024)",
    )
    p.add_argument(
        "--num-prompts", type=positive, help="requests per run (default: max(10, 4 x concurrency))"
    )
    p.add_argument("--probe-only", action="store_true", help="run the probe only, no load test")
    p.add_argument("--skip-probe", action="store_true", help="run the load test only")
    p.add_argument(
        "--probe-max-tokens",
        type=positive,
        default=bench_probe.DEFAULT_PROBE_MAX_TOKENS,
        help="max_tokens of each probe request, room for the reasoning too (default: 4096)",
    )
    p.add_argument(
        "--request-timeout",
        type=positive,
        default=600,
        help="deadline in seconds for each probe request as a whole (default: 600; exit code 10)",
    )
    p.add_argument(
        "--timeout",
        type=positive,
        default=3600,
        help=TIMEOUT_HELP.format(3600)
        + "; the load-test Job gets what is left as its activeDeadlineSeconds",
    )
    p.add_argument(
        "--interval",
        type=positive,
        default=15,
        help="seconds between checks of the Job (default: 15)",
    )
    add_api_key_options(p)
    add_tls_options(p)
    p.set_defaults(handler=bench)


def _concurrencies(text: str) -> tuple[int, ...]:
    try:
        return load_test.parse_concurrencies(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def bench(ctx: Context) -> int:
    """The probe from here (``--url``, the key and TLS as smoke-test takes them), then the load test as a Job in
    the cluster (``--kubectl``); one table. Exit codes: 0 passed; 1 a probe row or a run failed; 2 bad arguments;
    10 a probe request or the Job ran past its deadline. See ops_cli/bench.py and ops_cli/load_test.py."""
    args, env = ctx.args, ctx.env
    if args.probe_only and args.skip_probe:
        raise OpsError(
            "--probe-only and --skip-probe leave nothing to run",
            "pass one of them, or neither",
            ExitCode.USAGE,
        )
    if not args.skip_probe and not args.url:
        raise OpsError(
            "the probe needs --url (the endpoint, reachable from here, as for smoke-test)",
            "pass --url, or --skip-probe for the load test alone",
            ExitCode.USAGE,
        )
    from deployment_config import published as pub

    key = pub.key_of(env, input_len=args.input_len, output_len=args.output_len)
    published = pub.rows_for(env.model.preset.key, key)
    payload: dict = {
        "env": env.name,
        "url": args.url,
        "probe": None,
        "load_test": None,
        "published": {
            "key": key.describe(),
            "rows": {str(c): row.to_dict() for c, row in published.items()},
        },
    }
    human: list = []
    passed = True
    if not args.skip_probe:
        tls = tls_options(ctx)
        check_url(args.url, tls=tls)  # a URL that cannot work fails before the key is read
        tls = operator_trust(ctx, tls)
        endpoint_key = api_key(ctx)
        with keeping_secret(ctx, endpoint_key):
            rows = bench_probe.run_probe(
                args.url,
                env.model.served_name,
                args.request_timeout,
                api_key=endpoint_key,
                tls=tls,
                max_tokens=args.probe_max_tokens,
                deadline=ctx.deadline,
            )
        passed = all(r.ok for r in rows)
        payload["probe"] = [r.to_dict() for r in rows]
        human.append(probe_table(rows))
    if not args.probe_only:
        ctx.check_kubectl()
        if args.input_len + args.output_len > 1_000_000:
            raise OpsError(
                "--input-len + --output-len is over a million tokens",
                "pass smaller lengths",
                ExitCode.USAGE,
            )
        base_url = (
            load_test_target.hyperpod_worker_url(
                env, args.kubectl, ctx.rt.run_command, deadline=ctx.deadline
            )
            if env.platform is Platform.HYPERPOD
            else load_test_target.eks_service_url(env)
        )
        moment = ctx.rt.now()
        plan = load_test.plan_for(
            env,
            base_url=base_url,
            job_name=f"llmops-bench-{moment.strftime('%Y%m%d-%H%M%S')}",
            concurrencies=args.concurrency,
            input_len=args.input_len,
            output_len=args.output_len,
            num_prompts=args.num_prompts,
            seed=int(moment.timestamp()),
            deadline_seconds=max(1, math.ceil(ctx.deadline.remaining())),
        )
        runs, status = load_test_job.run_load_test(
            plan,
            args.kubectl,
            ctx.progress(f"Job {plan.namespace}/{plan.job_name}"),
            run=ctx.rt.run_command,
            log=lambda text: write_if_open(ctx.rt.stderr, text + "\n"),
            deadline=ctx.deadline,
        )
        passed = passed and all(r.ok for r in runs)
        for r in runs:
            r.published = published[r.concurrency].to_dict() if r.concurrency in published else None
        payload["load_test"] = {
            "job": plan.job_name,
            "namespace": plan.namespace,
            "image": plan.image,
            "base_url": base_url,
            "job_status": status,
            "input_len": args.input_len,
            "output_len": args.output_len,
            "runs": [r.to_dict() for r in runs],
        }

        human.append(load_test_table(runs, published))
        if env.model.speculator_size_gb:  # speculative decoding's acceptance, only where it is on
            # several replicas behind the Service: its /metrics are not one server's
            if load_test_target.acceptance_from_workspace(env):
                workspace_acceptance.measure(
                    runs,
                    ctx.aws(),
                    env.cluster_name,
                    now=ctx.rt.now,
                    sleep=ctx.rt.sleep or time.sleep,
                    deadline=ctx.deadline,
                    log=lambda text: write_if_open(ctx.rt.stderr, text + "\n"),
                )
            human.append(acceptance_table(runs))
            payload["load_test"]["runs"] = [r.to_dict() for r in runs]
        human.append(
            f"{args.input_len} tokens in, {args.output_len} out; Job {plan.namespace}/{plan.job_name} "
            f"{status}, deleted.\n" + published_note(key, published)
        )
    human.append("Bench passed." if passed else "Bench FAILED.")
    payload["passed"] = passed
    ctx.out(payload, human)
    return ExitCode.OK if passed else ExitCode.CHECK_FAILED
