"""``llmops smoke-test``: chat completions, plain and streaming, timed, against the endpoint (endpoint_probe/smoke.py)."""

from __future__ import annotations

import argparse

from deployment_config.model_location import model_path
from endpoint_probe.errors import printable
from endpoint_probe.smoke import DEFAULT_PROMPT
from endpoint_probe.smoke import smoke_test as run_smoke_test
from endpoint_probe.url import check_url
from ops_cli.api_key import add_api_key_options, api_key, keeping_secret, requires_key
from ops_cli.arguments import positive
from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode
from ops_cli.output import table
from ops_cli.tls import add_tls_options, operator_trust, tls_options


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "smoke-test",
        help="send chat completions, plain and streaming, and time them",
        parents=[common],
        **command_help(
            "Check that the endpoint serves the model: /v1/models, then a chat completion plain and one streaming, each "
            "checked and timed (first token, rate, total).",
            [
                "llmops smoke-test --url http://localhost:8000 --env prod",
                "llmops smoke-test --url https://llm.example.com --env prod --json",
                "llmops smoke-test --url http://localhost:8000 --api-key-secret llm-serving/prod/api-key --region us-west-2",
            ],
            [
                (ExitCode.OK, "passed"),
                (
                    ExitCode.CHECK_FAILED,
                    "a check failed (a FAILED row says which), the endpoint is unreachable or answered an "
                    "error (401: no key, or the wrong one)",
                ),
                (
                    ExitCode.USAGE,
                    "bad arguments or configuration, or a --url that cannot work (before any request)",
                ),
                (ExitCode.TIMEOUT, "a request ran past --timeout"),
            ],
        ),
    )
    p.add_argument("--url", required=True, help="the endpoint, for example http://localhost:8000")
    p.add_argument("--model", help="served model name (default: the environment's, or Kimi-K3)")
    p.add_argument(
        "--env",
        help="take the served model name and the model path from config/ENV.yaml (default: none: "
        "--model)",
    )
    p.add_argument(
        "--model-path",
        help="the model vLLM must have loaded, as /v1/models reports its root "
        "(default: the environment's --model; without --env only the served name is checked)",
    )
    p.add_argument(
        "--prompt",
        default=DEFAULT_PROMPT,
        help=f"the prompt of both chat completions (default: '{DEFAULT_PROMPT}')",
    )
    p.add_argument(
        "--max-tokens",
        type=positive,
        default=64,
        help="max_tokens of each chat completion (default: 64)",
    )
    p.add_argument(
        "--timeout",
        type=positive,
        default=600,
        help="deadline in seconds for the whole smoke test, every request from connect to the last byte of "
        "its answer or stream (default: 600); a request past it stops the smoke test with exit code 10",
    )
    add_api_key_options(p)
    add_tls_options(p)
    p.set_defaults(handler=smoke_test)


def smoke_test(ctx: Context) -> int:
    """Exit codes: 0 passed; 1 a check failed (a FAILED row names the problem), the endpoint is unreachable or
    answered an error status (401: no key or the wrong one); 2 the --url cannot work (checked before any
    request); 10 a request ran past its --timeout deadline (the message names the request and the seconds);
    4, 5, 11, ... reading the key's secret failed. See endpoint_probe.smoke.smoke_test."""
    args = (
        ctx.args
    )  # the environment is loaded where it is first needed, as each check comes in its turn
    model = args.model or (ctx.env.model.served_name if ctx.env else "Kimi-K3")
    path = args.model_path or (model_path(ctx.env) if ctx.env else None)
    tls = tls_options(ctx)
    check_url(args.url, tls=tls)  # a URL that cannot work fails before the key is read
    tls = operator_trust(ctx, tls)
    key = api_key(ctx)
    with keeping_secret(ctx, key):
        # Real time always: these are the figures the user asked for, not a wait.
        results = run_smoke_test(
            args.url,
            model,
            args.prompt,
            args.max_tokens,
            args.timeout,
            model_path=path,
            api_key=key,
            tls=tls,
            key_required=requires_key(ctx.env),
            deadline=ctx.deadline,
        )
        by_mode = {r.mode: r for r in results}
        passed = all(r.ok for r in results)
        fmt = lambda v, unit: f"{v:.2f} {unit}" if v is not None else "-"  # noqa: E731
        rows = [
            (
                r.mode,
                "ok" if r.ok else "FAILED",
                fmt(r.time_to_first_token_s, "s"),
                fmt(r.tokens_per_s, "tok/s"),
                fmt(r.total_s, "s"),
                r.completion_tokens if r.completion_tokens is not None else "-",
                "; ".join(r.problems),
            )
            for r in results
        ]
        requests = table(
            ["request", "result", "first token", "rate", "total", "tokens", "problems"], rows
        )
        human = (
            f"Model: {model} from {by_mode['models'].text or '?'}\n"
            f"Answer: {printable(' '.join(by_mode['plain'].text.split()), 200)}\n"
        )
        if key is not None:
            human += f"API key: from {key.source}\n"
        if tls.server_name:
            human += f"TLS: certificate verified for {tls.server_name}\n"
        if tls.ca_source:
            human += f"TLS: trusted {tls.ca_source}\n"
        human += "Smoke test passed." if passed else "Smoke test FAILED."
        human = [requests, human]
        ctx.out(
            {
                "passed": passed,
                "url": args.url,
                "model": model,
                "api_key_source": key.source if key else None,
                "tls_server_name": tls.server_name,
                "tls_trusted": tls.ca_source,
                "requests": [r.to_dict() for r in results],
            },
            human,
        )
    return ExitCode.OK if passed else ExitCode.CHECK_FAILED
