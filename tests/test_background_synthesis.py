"""The background synthesis's process (tests/background_synthesis.py): what it inherits, and the Node.js jsii runs."""

from __future__ import annotations

import json
import os
import subprocess

from tests.background_synthesis import NODE_LIFTOFF_ONLY, environment


def test_given_the_run_s_environment_then_the_synthesis_drops_what_would_change_cdk_synth_s_output():
    env = environment(
        {**os.environ, "CDK_OUTDIR": "/x", "CDK_VALIDATION": "false", "CDK_CONTEXT_JSON": "{}"}
    )
    assert not {"CDK_OUTDIR", "CDK_VALIDATION", "CDK_CONTEXT_JSON"} & env.keys()
    assert env["PATH"] == os.environ["PATH"]


def test_given_no_jsii_node_then_jsii_runs_node_with_webassembly_compiled_by_liftoff_alone(
    tmp_path,
):
    env = environment({k: v for k, v in os.environ.items() if k != "JSII_NODE"})
    assert env["JSII_NODE"] == str(NODE_LIFTOFF_ONLY)
    # jsii starts JSII_NODE with its own arguments and its runtime's script; the wrapper hands them on after the flag
    script = tmp_path / "argv.js"
    script.write_text(
        "process.stdout.write(JSON.stringify([process.execArgv, process.argv.slice(2)]))"
    )
    argv = subprocess.run(
        [env["JSII_NODE"], "--max-old-space-size=4069", str(script), "x"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(argv) == [["--liftoff-only", "--max-old-space-size=4069"], ["x"]]


def test_given_a_jsii_node_already_set_then_it_is_kept():
    env = environment({**os.environ, "JSII_NODE": "/opt/profiler/node"})
    assert env["JSII_NODE"] == "/opt/profiler/node"


def test_given_a_node_without_the_flag_then_jsii_runs_plain_node(tmp_path):
    # a node that refuses the flag, as Node.js does an option it does not know ("bad option", exit 9)
    fake = tmp_path / "node"
    fake.write_text('#!/bin/sh\necho "node: bad option: $1" >&2\nexit 9\n')
    fake.chmod(0o755)
    inherited = {k: v for k, v in os.environ.items() if k != "JSII_NODE"}
    env = environment({**inherited, "PATH": f"{tmp_path}{os.pathsep}{inherited['PATH']}"})
    assert "JSII_NODE" not in env
