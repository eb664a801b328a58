"""The vendored tables of published results (deployment_config/data/published/): every row says where it comes from,
and no two rows compete for the same run."""

from __future__ import annotations

import copy
import json

import pytest

from deployment_config import published
from deployment_config.published import PUBLISHED_FILES, PublishedTableError, load_table


def _vendored_rows() -> list[dict]:
    return json.loads(PUBLISHED_FILES["kimi-k3"].read_text(encoding="utf-8"))["rows"]


def _table(tmp_path, rows: list[dict]):
    path = tmp_path / "kimi-k3.json"
    path.write_text(json.dumps({"rows": rows}), encoding="utf-8")
    return path


def test_every_vendored_row_has_a_source_and_its_own_key():
    # given the vendored table of each preset
    for preset, path in PUBLISHED_FILES.items():
        # when it is read with its checks
        rows = load_table(path, preset=preset)
        # then every row names its source, and no two rows share a configuration and a concurrency
        assert rows and all(row.source.strip() and row.statistic.strip() for row in rows)
        keys = [(row.key, row.concurrency) for row in rows]
        assert len(keys) == len(set(keys))


@pytest.mark.parametrize("source", [None, "", "   "])
def test_a_row_without_a_source_is_refused(tmp_path, source):
    # given a table whose second row lost its source (absent, empty or blank)
    rows = _vendored_rows()
    if source is None:
        del rows[1]["source"]
    else:
        rows[1]["source"] = source
    # when it is read, then the error names the row and the field
    with pytest.raises(
        PublishedTableError, match=r"kimi-k3\.json rows\[1\]\.source: missing or empty"
    ):
        load_table(_table(tmp_path, rows), preset="kimi-k3")


def test_two_rows_of_the_same_key_and_concurrency_are_refused(tmp_path):
    # given a table with a copy of its first row, the features listed in another order, other figures
    rows = _vendored_rows()
    twin = copy.deepcopy(rows[0])
    twin["features"] = list(reversed(twin["features"]))
    twin["output_tokens_per_s"] = 1
    rows.append(twin)
    # when it is read, then the error names both rows (rows_for would keep only the last)
    with pytest.raises(PublishedTableError) as error:
        load_table(_table(tmp_path, rows), preset="kimi-k3")
    assert f"rows[{len(rows) - 1}]: same configuration and concurrency as rows[0]" in str(
        error.value
    )


def test_the_same_configuration_at_another_concurrency_is_its_own_row(tmp_path):
    # given a row copied with only its concurrency changed
    rows = _vendored_rows()
    other = copy.deepcopy(rows[0]) | {"concurrency": 64}
    # when the table is read, then both rows are kept
    table = load_table(_table(tmp_path, [rows[0], other]), preset="kimi-k3")
    assert [row.concurrency for row in table] == [rows[0]["concurrency"], 64]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("features", ["agentic_trace"], "a list of the recipe's opt-in features, each once: "),
        ("features", ["spec_decoding", "spec_decoding"], "each once"),
        ("strategy", "dep8", "'dep8' is not one of: single_node_tp, multi_node_tp_pp"),
        ("serving_profile", "inferencex", "'inferencex' is not one of: recipe, announced"),
        ("hardware", "B300", "'B300' is not one of: "),
        ("input_len", "8k", "must be a whole number of at least 1"),
        ("output_tokens_per_s", -5, "must be a positive number, or null"),
    ],
)
def test_a_row_no_run_could_match_is_refused(tmp_path, field, value, message):
    # given a row with a name or number no measured run can have
    rows = _vendored_rows()
    rows[0][field] = value
    # when the table is read, then the error names the row, the field and what is allowed
    with pytest.raises(PublishedTableError, match=r"rows\[0\]\." + field) as error:
        load_table(_table(tmp_path, rows), preset="kimi-k3")
    assert message in str(error.value)


def test_rows_for_returns_the_checked_rows_by_concurrency():
    # given the key of the vendored rows (B300, recipe, single-node TP, spec_decoding, 8K in / 1K out)
    key = published.serving_key(
        hardware="b300",
        serving_profile="recipe",
        strategy="single_node_tp",
        features=["spec_decoding"],
        input_len=8192,
        output_len=1024,
    )
    # when the rows of that key are looked up, then each concurrency has its one row
    rows = published.rows_for("kimi-k3", key)
    assert sorted(rows) == [1, 4, 16]
    assert rows[1].output_tokens_per_s == 183 and rows[1].source


def test_a_row_without_any_figure_is_refused(tmp_path):
    # given a row whose TTFT and throughput are both null
    rows = _vendored_rows()
    rows[2] |= {"ttft_ms": None, "output_tokens_per_s": None}
    # when the table is read, then the error says a row publishes at least one figure
    with pytest.raises(
        PublishedTableError, match=r"rows\[2\]\.ttft_ms/output_tokens_per_s: both null"
    ):
        load_table(_table(tmp_path, rows), preset="kimi-k3")


@pytest.mark.parametrize("figure", ["NaN", "Infinity"])
def test_a_figure_that_is_no_finite_number_is_refused(tmp_path, figure):
    # given a table whose row's throughput is NaN or Infinity (JSON as Python's json module reads and writes it): NaN
    # would never fail within_percent_of_published, Infinity would fail every run
    rows = _vendored_rows()
    rows[1]["output_tokens_per_s"] = float(figure.lower().replace("infinity", "inf"))
    # when the table is read, then the error names the row and the field
    with pytest.raises(
        PublishedTableError, match=r"rows\[1\]\.output_tokens_per_s: must be a positive number"
    ):
        load_table(_table(tmp_path, rows), preset="kimi-k3")
