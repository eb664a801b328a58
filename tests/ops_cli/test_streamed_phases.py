"""`llmops phases` of a streamed start (``model.weight_load: runai_streamer``): no fetch-weights and no verify-weights,
the check-weights-s3 init container's span from the pod's status, in the text and in ``--json``; the pod's status is
written in the Kubernetes 1.34 API's shape (tests/ops_cli/test_startup_phases.py says why it is not recorded)."""

from __future__ import annotations

from ops_cli.errors import ExitCode
from ops_cli.startup_phases import CHECK_S3_PHASE, startup_phases
from tests.ops_cli.test_startup_phases import EVENTS, LOG, NODE_JSON, FakeKubectl, by_name, pod


def streamed_pod() -> dict:
    """A pod of the streamed path: check-weights-s3 ran from 10:06:45 to 10:07:05, then vLLM streamed the weights."""
    result = pod()
    result["status"]["initContainerStatuses"] = [
        {
            "name": "check-weights-s3",
            "state": {
                "terminated": {
                    "exitCode": 0,
                    "startedAt": "2026-11-30T10:06:45Z",
                    "finishedAt": "2026-11-30T10:07:05Z",
                }
            },
        }
    ]
    return result


def test_a_streamed_start_takes_its_check_phase_from_the_check_weights_s3_init_container():
    # given a streamed start: check-weights-s3 in the pod's status, the load in vLLM's log (no download logged)
    phases = by_name(
        startup_phases(
            pod=streamed_pod(), node=NODE_JSON, events=EVENTS, log_lines=LOG[2:], container="vllm"
        )
    )
    # then its check is a phase of 20 s from the init container's own start and end, and no copy is reported
    check = phases[CHECK_S3_PHASE]
    assert check.seconds == 20 and "init container check-weights-s3" in check.source
    assert not {"weights on the node (S3 copy)", "weights checked (manifest)"} & set(phases)
    assert phases["model loaded into the GPUs"].seconds == 700.0


def test_llmops_phases_json_records_the_check_weights_s3_phase(run_with_kubectl):
    # given the serving pod of a streamed start
    result = run_with_kubectl(FakeKubectl([streamed_pod()]), "phases", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    # then --json records the check with its start, end and seconds
    phases = {p["phase"]: p for p in result.json["phases"]}
    assert phases[CHECK_S3_PHASE]["seconds"] == 20.0
    assert phases[CHECK_S3_PHASE]["started"].startswith("2026-11-30T10:06:45")
