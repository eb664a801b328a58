"""What the project's own Lambda functions share: their Python runtime, the code of a function made of files of the
project at their own paths, and the log groups of the functions, Provider frameworks and state machines (kept a month,
removed with their stack: a destroyed environment leaves none behind)."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import aws_cdk as cdk
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import custom_resources as cr
from constructs import Construct

#: The latest Python runtime aws-cdk-lib 2.275 knows (cdk-nag's AwsSolutions-L1 wants the latest of the family): the
#: destroy waiters, the deploy-time smoke test and the serving metrics publisher.
RUNTIME = lambda_.Runtime.PYTHON_3_14


def month_log_group(scope: Construct, id: str, *, name: str | None = None) -> logs.LogGroup:
    """A log group with a month's retention, destroyed with the stack; ``name`` None lets CloudFormation name it."""
    return logs.LogGroup(
        scope,
        id,
        log_group_name=name,
        retention=logs.RetentionDays.ONE_MONTH,
        removal_policy=cdk.RemovalPolicy.DESTROY,
    )


PROJECT_DIR = Path(__file__).resolve().parents[1]


def project_files(files: tuple[str, ...]) -> lambda_.Code:
    """A function's code: ``files`` of the project (globs, relative to it) at their paths, and nothing else.
    ``exclude`` is read in order, the last pattern that matches a path deciding, ``!`` keeping what it matches; a folder
    left out is not looked into, so every folder above a file is kept (aws-cdk-lib 2.275.0 core/lib/fs/ignore.js
    ``GlobIgnoreStrategy``, minimatch with ``matchBase``; core/lib/fs/utils.js ``walkDirectory``). No ``__init__.py``
    above a runtime/ folder unless listed (the constructs import aws-cdk-lib): Python imports it as namespace packages.
    No ``__pycache__``: a test run's bytecode would change the asset's hash. ``.*``: minimatch's ``*`` skips dot names."""
    folders = (
        str(p) for file in files for p in reversed(PurePosixPath(file).parents) if str(p) != "."
    )
    exclude = [
        "*",
        ".*",
        *dict.fromkeys(f"!{folder}" for folder in folders),
        *(f"!{f}" for f in files),
    ]
    return lambda_.Code.from_asset(str(PROJECT_DIR), exclude=exclude)


def on_event_function(
    scope: Construct, handler_dir: Path, *, timeout: cdk.Duration, description: str
) -> lambda_.Function:
    """A custom resource's onEvent function: ``handler.on_event`` in ``handler_dir``, its log group kept a month."""
    return lambda_.Function(
        scope,
        "OnEvent",
        runtime=RUNTIME,
        code=lambda_.Code.from_asset(str(handler_dir), exclude=["__pycache__", "*.pyc"]),
        handler="handler.on_event",
        timeout=timeout,
        description=description,
        log_group=month_log_group(scope, "OnEventLogs"),
    )


def on_event_resource(
    scope: Construct, function: lambda_.Function, *, resource_type: str, properties: dict
) -> tuple[cr.Provider, cdk.CustomResource]:
    """The Provider framework around ``function`` (its log group kept a month) and the one custom resource it serves."""
    provider = cr.Provider(
        scope,
        "Provider",
        on_event_handler=function,
        log_group=month_log_group(scope, "FrameworkLogs"),
    )
    resource = cdk.CustomResource(
        scope,
        "Resource",
        service_token=provider.service_token,
        resource_type=resource_type,
        properties=properties,
    )
    return provider, resource
