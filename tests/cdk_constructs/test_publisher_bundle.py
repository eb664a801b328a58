"""The serving metrics publisher's code, as a deploy stages it: its runtime/ and the Capacity Block rules it shares with
``llmops`` (capacity_rules/, standard library only), at their own paths, and nothing else; the handler the function
names imports from that code alone. Read from the synthesized assembly, not from the source tree."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT_DIR, bare_app


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> tuple[Path, str]:
    """(the folder the publisher's zip is made of, the handler its function names): the construct in a stack of its
    own, synthesized with asset staging; the function's S3Key is ``HASH.zip``, its folder ``asset.HASH``."""
    import aws_cdk as cdk

    from cdk_constructs.serving_metrics import ServingMetricsPublisher

    app = bare_app(outdir=str(tmp_path_factory.mktemp("publisher.out")))
    ServingMetricsPublisher(
        cdk.Stack(app, "Observability"),
        "Metrics",
        cluster_name="example-llm",
        prometheus_endpoint="https://aps/ws/",
        workspace_arn="arn:aws:aps:us-west-2:123456789012:workspace/ws-1",
        load_balancer_tags={},
        capacity_reservation_id="cr-0123456789abcdef0",
        block_fee_usd=91540.8,
    )
    assembly = app.synth()
    template = assembly.get_stack_by_name("Observability").template
    (function,) = [
        r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::Lambda::Function"
    ]
    folder = Path(assembly.directory) / f"asset.{function['Code']['S3Key'].removesuffix('.zip')}"
    return folder, function["Handler"]


def test_the_code_is_the_runtime_and_the_shared_rules_at_their_own_paths(bundle):
    folder, _ = bundle
    # given the publisher's code, as a deploy stages it
    files = {str(f.relative_to(folder)) for f in folder.rglob("*") if f.is_file()}
    # then it holds the shared rules as a package and the runtime, byte for byte, no constructs, no bytecode
    assert files == {
        str(f.relative_to(PROJECT_DIR))
        for f in (
            *(PROJECT_DIR / "capacity_rules").glob("*.py"),
            *(PROJECT_DIR / "cdk_constructs/serving_metrics/runtime").glob("*.py"),
        )
    }
    assert "capacity_rules/__init__.py" in files
    assert all((folder / f).read_bytes() == (PROJECT_DIR / f).read_bytes() for f in files)


def test_the_handler_imports_from_the_code_alone_and_computes_a_blocks_cost(bundle):
    folder, handler = bundle
    module, _, function = handler.rpartition(".")
    # given a Python that sees only the code and the installed packages (-I: not the project's folder)
    code = (
        "import importlib, json, sys; from datetime import datetime, UTC; sys.path.insert(0, sys.argv[1]); "
        "m = importlib.import_module(sys.argv[2]); assert callable(getattr(m, sys.argv[3])); "
        "day = lambda d: datetime(2026, 1, d, tzinfo=UTC); "
        "r = {'CapacityReservationId': 'cr-1', 'StartDate': day(1), 'EndDate': day(3), 'State': 'active'}; "
        "x = [{'CapacityReservationId': 'cr-1', 'CapacityBlockExtensionStartDate': day(2), "
        "'CapacityBlockExtensionEndDate': day(3), 'CapacityBlockExtensionStatus': 'payment-succeeded', "
        "'UpfrontFee': '100', 'CurrencyCode': 'USD'}]; "
        "print(json.dumps({'periods': [[s.day, e.day, f] for s, e, f in m.paid_periods(r, x, 50.0)], "
        "'cdk': 'aws_cdk' in sys.modules, 'cli': 'ops_cli' in sys.modules, "
        "'config': 'deployment_config' in sys.modules, 'files': sorted(getattr(v, '__file__', None) or '' "
        "for k, v in sys.modules.items() if k.split('.')[0] in ('capacity_rules', 'cdk_constructs'))}))"
    )
    # when it imports the handler the function names, as the Lambda runtime does, and splits a block into periods
    result = subprocess.run(
        [sys.executable, "-I", "-c", code, str(folder), module, function],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # then the block as bought ends where its extension starts, each with its fee; every module came from the code,
    # and neither the CDK nor the CLI nor the configuration was imported
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["periods"] == [[1, 2, 50.0], [2, 3, 100.0]]
    assert (answer["cdk"], answer["cli"], answer["config"]) == (False, False, False)
    loaded = [f for f in answer["files"] if f]
    assert any("capacity_rules" in f for f in loaded)
    assert all(f.startswith(str(folder)) for f in loaded)
