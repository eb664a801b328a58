"""Writing ids back into an environment file: only the values change, the file is replaced safely, and files that
cannot be edited safely are refused (exit code 2, nothing written)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from ops_cli import config_text_edit
from ops_cli.config_writer import check_environment_file, update_environment_file
from ops_cli.errors import ExitCode, OpsError

RESERVATION = "cr-0fedcba9876543210"
UPDATES = {
    "capacity.capacity_reservation_id": RESERVATION,
    "capacity.availability_zone": "us-west-2b",
}
PLAN_ARN = "arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3-december"


def example(config_dir: Path) -> Path:
    return config_dir / "example.yaml"


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    assert len(before.splitlines()) == len(after.splitlines())
    return [
        (b, a)
        for b, a in zip(before.splitlines(keepends=True), after.splitlines(keepends=True))
        if b != a
    ]


def dir_listing(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


# --- only the values change -------------------------------------------------------------------------------------------


def test_only_the_two_value_lines_change(config_dir):
    before = example(config_dir).read_text()
    assert update_environment_file(config_dir, "example", UPDATES) == example(config_dir)
    after = example(config_dir).read_text()
    assert changed_lines(before, after) == [
        (
            "  capacity_reservation_id: cr-0123456789abcdef0   # PLACEHOLDER\n",
            f"  capacity_reservation_id: {RESERVATION}\n",
        ),
        (
            "  availability_zone: us-west-2a                   # the reservation's zone\n",
            "  availability_zone: us-west-2b                   # the reservation's zone\n",
        ),
    ]


def test_placeholder_remark_goes_with_the_replaced_value_only(config_dir):
    update_environment_file(config_dir, "example", UPDATES)
    text = example(config_dir).read_text()
    assert f"capacity_reservation_id: {RESERVATION}\n" in text  # its '# PLACEHOLDER' is gone
    # every other remark stays, placeholders included, and the header comment
    assert 'account: "123456789012"          # PLACEHOLDER: 12 digits, quoted\n' in text
    assert "admin_role_arn: arn:aws:iam::123456789012:role/PlatformAdmin   # PLACEHOLDER\n" in text
    assert (
        "# the reservation's zone" in text
        and "# EXAMPLE ENVIRONMENT: every id below is a PLACEHOLDER.\n" in text
    )


@pytest.mark.parametrize(
    "items",
    [
        "- us-west-2a\n- us-west-2b\n",
        "  - us-west-2a\n  - us-west-2b\n",
        "    - us-west-2a\n    - us-west-2b\n",
    ],
)
def test_list_indentation_is_kept_byte_for_byte(config_dir, items):
    path = example(config_dir)
    path.write_text(path.read_text().replace("  - us-west-2a\n  - us-west-2b\n", items))
    before = path.read_text()
    assert items in before
    update_environment_file(config_dir, "example", UPDATES)
    after = path.read_text()
    assert items in after
    # untouched lines are identical: only the two updated values differ
    assert [b.split(":")[0] for b, _ in changed_lines(before, after)] == [
        "  capacity_reservation_id",
        "  availability_zone",
    ]


def test_windows_line_endings_are_kept(config_dir):
    path = example(config_dir)
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    update_environment_file(config_dir, "example", UPDATES)
    data = path.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n")
    assert f"capacity_reservation_id: {RESERVATION}\r\n".encode() in data


def test_missing_keys_are_added_indented_like_the_document(config_dir):
    path = example(config_dir)
    path.write_text(
        path.read_text().replace(
            "  availability_zone: us-west-2a                   # the reservation's zone\n", ""
        )
    )
    update_environment_file(config_dir, "example", UPDATES)
    assert (
        f"  capacity_reservation_id: {RESERVATION}\n  availability_zone: us-west-2b\n"
        in path.read_text()
    )


def test_a_new_section_is_appended_with_the_document_indentation(config_dir):
    path = config_dir / "example-hyperpod.yaml"
    text = path.read_text()
    text = (
        text[: text.index("hyperpod:\n")] + text[text.index("endpoint:\n") :]
    )  # no hyperpod section yet
    path.write_text(
        text.replace("\n  ", "\n    ").replace("    - us-west", "  - us-west")
    )  # mappings indented by 4
    before = path.read_text()
    update_environment_file(
        config_dir,
        "example-hyperpod",
        {"hyperpod.training_plan_arn": PLAN_ARN, "hyperpod.availability_zone": "us-west-2b"},
    )
    after = path.read_text()
    assert (
        after
        == before
        + f"\nhyperpod:\n    training_plan_arn: {PLAN_ARN}\n    availability_zone: us-west-2b\n"
    )


# --- the file is replaced safely -------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664])
def test_permission_bits_are_kept(config_dir, mode):
    path = example(config_dir)
    path.chmod(mode)
    update_environment_file(config_dir, "example", UPDATES)
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert RESERVATION in path.read_text()


def test_a_symlink_stays_a_symlink_and_its_target_changes(config_dir, tmp_path):
    real = tmp_path / "elsewhere" / "prod-settings.yaml"
    real.parent.mkdir()
    example(config_dir).rename(real)
    example(config_dir).symlink_to(real)
    update_environment_file(config_dir, "example", UPDATES)
    assert example(config_dir).is_symlink() and os.readlink(example(config_dir)) == str(real)
    assert f"capacity_reservation_id: {RESERVATION}" in real.read_text()
    assert dir_listing(real.parent) == [
        "prod-settings.yaml"
    ]  # the temporary file was made, and renamed, next to it


def test_the_new_file_is_fsynced_before_it_replaces_the_old_and_the_directory_after(
    config_dir, monkeypatch
):
    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append("fsync directory" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    def replace(source, target):
        events.append("replace")
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    update_environment_file(config_dir, "example", UPDATES)
    assert events == ["fsync file", "replace", "fsync directory"]


@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_a_failed_write_leaves_the_file_and_no_temporary_file(config_dir, monkeypatch, failing):
    before_text, before_listing = example(config_dir).read_text(), dir_listing(config_dir)

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, failing, fail)
    with pytest.raises(OpsError) as raised:
        update_environment_file(config_dir, "example", UPDATES)
    assert (
        raised.value.exit_code == ExitCode.USAGE
        and "No space left on device" in raised.value.message
    )
    assert example(config_dir).read_text() == before_text
    assert dir_listing(config_dir) == before_listing


def test_an_interrupted_write_leaves_no_temporary_file(config_dir, monkeypatch):
    before_listing = dir_listing(config_dir)

    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        update_environment_file(config_dir, "example", UPDATES)
    assert dir_listing(config_dir) == before_listing


def test_checking_writes_nothing(config_dir):
    before = example(config_dir).read_text()
    config = check_environment_file(config_dir, "example", UPDATES)
    assert (
        config.capacity.capacity_reservation_id == RESERVATION
        and config.capacity.availability_zone == "us-west-2b"
    )
    assert example(config_dir).read_text() == before


# --- files that cannot be edited safely are refused ------------------------------------------------------------------

EXAMPLE_TEXT = (Path(__file__).resolve().parents[2] / "config" / "example.yaml").read_text()

REFUSED = {
    "undecodable bytes": (
        EXAMPLE_TEXT.encode().replace(b"platform-team", b"platform-\xff\xfeteam"),
        "not UTF-8",
    ),
    "a list": (b"- account: '123456789012'\n", "not a mapping"),
    "a single value": (b"just text\n", "not a mapping"),
    "empty": (b"# nothing here yet\n", "is empty"),
    "an anchor and an alias": (
        EXAMPLE_TEXT.replace("  - us-west-2a\n", "  - &zone us-west-2a\n")
        .replace("us-west-2a                   #", "*zone #")
        .encode(),
        "anchor",
    ),
    "an alias": (
        EXAMPLE_TEXT.replace("  extra_env: {}\n", "  extra_env: *elsewhere\n").encode(),
        "alias",
    ),
    "a merge key": (
        EXAMPLE_TEXT.replace("capacity:\n", "capacity:\n  <<: {instance_count: 1}\n")
        .replace("  instance_count: 1\n  capacity_reservation_id", "  capacity_reservation_id")
        .encode(),
        "merge key",
    ),
    "a tag": (
        EXAMPLE_TEXT.replace(
            "instance_count: 1\n  capacity", "instance_count: !!int 1\n  capacity"
        ).encode(),
        "tag",
    ),
    "a duplicate key": (
        EXAMPLE_TEXT.replace(
            "  instance_count: 1\n", "  instance_count: 1\n  instance_count: 2\n", 1
        ).encode(),
        "twice",
    ),
    "two documents": (
        (EXAMPLE_TEXT + "---\naccount: '210987654321'\n").encode(),
        "2 YAML documents",
    ),
    "invalid YAML": (
        EXAMPLE_TEXT.replace("capacity:\n", "capacity: [\n").encode(),
        "not valid YAML",
    ),
    "the value as a list": (
        EXAMPLE_TEXT.replace(
            "capacity_reservation_id: cr-0123456789abcdef0",
            "capacity_reservation_id: [cr-0123456789abcdef0]",
        ).encode(),
        "where one value belongs",
    ),
    "the section as a value": (
        EXAMPLE_TEXT.split("capacity:\n")[0].encode() + b"capacity: none\n",
        "not a mapping",
    ),
}


@pytest.mark.parametrize("content, problem", REFUSED.values(), ids=REFUSED.keys())
def test_files_it_cannot_edit_safely_are_refused_untouched(config_dir, content, problem):
    path = example(config_dir)
    path.write_bytes(content)
    listing = dir_listing(config_dir)
    with pytest.raises(OpsError) as raised:
        update_environment_file(config_dir, "example", UPDATES)
    assert raised.value.exit_code == ExitCode.USAGE
    assert problem in raised.value.message and raised.value.fix
    assert path.read_bytes() == content and dir_listing(config_dir) == listing


def test_an_edit_that_would_change_other_values_is_refused(config_dir, monkeypatch):
    """The last check re-loads the new text and compares it with the old document plus the updates: a faulty edit (here
    one injected into the scalar writer) is refused instead of written."""
    before = example(config_dir).read_text()
    monkeypatch.setattr(
        config_text_edit, "_scalar_text", lambda value, style, flow: value + "\n  instance_count: 2"
    )
    with pytest.raises(OpsError) as raised:
        update_environment_file(config_dir, "example", UPDATES)
    assert (
        raised.value.exit_code == ExitCode.USAGE
        and "without changing more than" in raised.value.message
    )
    assert example(config_dir).read_text() == before


def test_a_result_the_loader_rejects_is_refused(config_dir):
    before = example(config_dir).read_text()
    with pytest.raises(OpsError) as raised:
        update_environment_file(
            config_dir, "example", {**UPDATES, "capacity.availability_zone": "us-west-2c"}
        )
    assert raised.value.exit_code == ExitCode.USAGE
    assert (
        "the result would be invalid" in raised.value.message
        and "capacity.availability_zone" in raised.value.message
    )
    assert example(config_dir).read_text() == before


@pytest.mark.parametrize("name", ["../example", "Example", "", "a" * 21, "example.yaml"])
def test_environment_names_that_are_not_names_are_refused(config_dir, name):
    with pytest.raises(OpsError) as raised:
        update_environment_file(config_dir, name, UPDATES)
    assert (
        raised.value.exit_code == ExitCode.USAGE
        and "not an environment name" in raised.value.message
    )


def test_a_missing_file_names_the_environments_there_are(config_dir):
    with pytest.raises(OpsError) as raised:
        update_environment_file(config_dir, "prod", UPDATES)
    assert "example, example-hyperpod, example-prod" in raised.value.fix


def test_a_dangling_symlink_is_refused(config_dir, tmp_path):
    example(config_dir).unlink()
    example(config_dir).symlink_to(tmp_path / "gone.yaml")
    with pytest.raises(OpsError) as raised:
        update_environment_file(config_dir, "example", UPDATES)
    assert "does not exist" in raised.value.message and example(config_dir).is_symlink()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write any file")
def test_a_read_only_file_is_refused(config_dir):
    path = example(config_dir)
    path.chmod(0o444)
    with pytest.raises(OpsError) as raised:
        update_environment_file(config_dir, "example", UPDATES)
    assert "read-only" in raised.value.message
