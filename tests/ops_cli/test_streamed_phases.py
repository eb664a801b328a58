"""`llmops phases` of a streamed start (``model.weight_load: runai_streamer``): no fetch-weights and no verify-weights,
the check-weights-s3 init container's span from the pod's status, in the text and in ``--json``; and bench/timeline.py
--measured with it, on the Run:ai path. The pod's status is written in the Kubernetes 1.34 API's shape
(tests/ops_cli/test_startup_phases.py says why it is not recorded)."""

from __future__ import annotations

from ops_cli.errors import ExitCode
from ops_cli.startup_phases import CHECK_S3_PHASE, startup_phases
from tests.ops_cli.test_measured_plan import (  # noqa: F401 - record, timeline: fixtures
    plan,
    ready_at,
    record,
    timeline,
    vllm_lines,
)
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


def _streaming(config_dir) -> None:
    """The example, its weights from S3 at a revision, streamed by Run:ai (model.weight_load: runai_streamer)."""
    path = config_dir / "example.yaml"
    path.write_text(
        path.read_text().replace(
            "  weight_source: huggingface",
            "  weight_source: s3\n  s3_uri: s3://weights-bucket/kimi-k3/\n"
            "  hugging_face_revision: 0123456789abcdef0123456789abcdef01234567\n"
            "  weight_load: runai_streamer",
            1,
        )
    )


def test_the_measured_plan_of_a_streamed_start_uses_its_check_and_stream(
    timeline,  # noqa: F811 - the fixture imported above
    capsys,
    config_dir,
    record,  # noqa: F811
):
    # given a streamed environment and its start: check-weights-s3 20 s, then a stream of 150 s and a warm-up of 500 s
    _streaming(config_dir)
    start = dict(
        pod=ready_at(streamed_pod(), "2026-11-30T10:18:00Z"),
        events=EVENTS,
        log=vllm_lines(
            loading_s=150,
            engine_s=500,
            loaded_at="2026-11-30T10:09:35.000000000Z",
            engine_at="2026-11-30T10:17:55.000000000Z",
        ),
    )
    path = record("streamed.json", **start)
    # when bench/timeline.py plans with it
    code, data, err = plan(timeline, capsys, config_dir, path, json_out=True)
    assert code == 0, err
    # then the done-when's terms are the check and the stream, on a new node and on a restart, with no copy
    verdicts = {v["name"]: v for v in data["measured"]["done_when"]}
    for name in ("node ready → first token", "restart on the same node"):
        terms = {t["term"].split(" (")[0]: t["seconds"] for t in verdicts[name]["terms"]}
        assert terms["check-weights-s3"] == 20 and terms["stream"] == 150
        assert not {"manifest check", "load"} & set(terms)
    # and the plan's Run:ai rows take the measured check and stream in place of the bound and the published rate
    rows = {p["step"]: p for p in data["phases"]}
    check = next(p for s, p in rows.items() if s.startswith("weights check (check-weights-s3)"))
    assert check["basis"].startswith("20 s: measured: ") and str(path) in check["basis"]
    stream = next(p for s, p in rows.items() if "Run:ai streamer into GPU memory" in s)
    assert "(runai_stream_measured)" in stream["basis"]
    assert "runai_stream_measured" in data["rates"]
    # and the instance store's rate stays unmeasured: a streamed start does not read it
    assert "instance_store_read" in data["unmeasured"]
