"""Write capacity ids back into an environment file, changing nothing but the values written.

The edit is made in the text itself: each value's exact span is found with PyYAML's parser (the parser the loader
uses), and only that span is replaced, so every other byte of the file (comments, blank lines, quoting, list
indentation, line endings) stays as it was. Keys that do not exist yet are inserted as new lines, indented like the
rest of the document (ops_cli/config_text_edit.py). Before anything is written:

* the file must be UTF-8 YAML holding exactly one document whose top level is a mapping, with no anchors, aliases,
  merge keys or tags and no duplicate keys (such files are refused: an edit could silently change other values;
  ops_cli/config_file_checks.py);
* the new text, loaded again, must equal the old document with only the updated keys changed;
* the new document must pass the app's own loader (``parse_environment``).

A refusal is an :class:`~ops_cli.errors.OpsError` with exit code 2 and leaves the file untouched. The write itself
goes to a temporary file next to the target (a symlink is followed: its target is replaced, the link stays), which
gets the original's permission bits, is fsynced, and then atomically replaces the target; the directory is fsynced
after. Any failure removes the temporary file.
"""

from __future__ import annotations

import contextlib
import copy
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from deployment_config import ConfigError, EnvironmentConfig, parse_environment
from deployment_config.loader import ENV_NAME, config_path
from ops_cli.config_file_checks import checked_document, refuse
from ops_cli.config_text_edit import apply_updates, edited_text, updates_tree
from ops_cli.errors import ExitCode, OpsError, shown


def env_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be an environment name, or None."""
    if ENV_NAME.fullmatch(name):
        return None
    return (
        f"{shown(name)} is not an environment name: it must start with a lowercase letter and use only a-z, 0-9 "
        "and '-', at most 20 characters"
    )


def available_environments(config_dir: Path) -> list[str]:
    """The environment names there are files for in ``config_dir`` (empty when it is not a readable directory)."""
    try:
        return sorted(p.stem for p in Path(config_dir).glob("*.yaml") if ENV_NAME.fullmatch(p.stem))
    except OSError:
        return []


def missing_environment(config_dir: Path, name: str) -> OpsError:
    known = available_environments(config_dir)
    listed = (
        f"one of: {', '.join(known)}"
        if known
        else f"none exist in {config_dir} (check --config-dir)"
    )
    return OpsError(
        f"there is no file {config_path(config_dir, name)}",
        f"pass --env NAME with {listed}; or create it: cp config/example.yaml {config_path(config_dir, name)}",
        ExitCode.USAGE,
    )


def check_environment_file(
    config_dir: Path, env_name: str, updates: dict[str, str]
) -> EnvironmentConfig:
    """Everything :func:`update_environment_file` checks, without writing: the environment the file would then hold."""
    return _prepare(config_dir, env_name, updates).config


def update_environment_file(config_dir: Path, env_name: str, updates: dict[str, str]) -> Path:
    """Set each dotted key of ``updates`` in ``config_dir/ENV.yaml``; validate; replace the file. Returns its path."""
    edit = _prepare(config_dir, env_name, updates)
    _replace(edit)
    return edit.path


# --- preparing the edit ---------------------------------------------------------------------------------------------


@dataclass
class _Edit:
    path: Path  # as the user named it (may be a symlink)
    target: Path  # the file written: the symlink's final target, or the path itself
    text: str  # the new contents
    config: EnvironmentConfig


def _prepare(config_dir: Path, env_name: str, updates: dict[str, str]) -> _Edit:
    problem = env_name_problem(env_name)
    if problem:
        raise OpsError(
            problem,
            "name a file of config/ without '.yaml', for example --env prod",
            ExitCode.USAGE,
        )
    path = config_path(Path(config_dir), env_name)
    if not path.is_file():
        if path.is_symlink():
            raise refuse(
                path,
                f"is a symlink to {os.readlink(path)}, which does not exist",
                "point the link at an existing file, or replace it with the file",
            )
        raise missing_environment(config_dir, env_name)
    target = Path(os.path.realpath(path))
    try:
        raw = target.read_bytes()
    except OSError as error:
        raise refuse(path, f"cannot be read ({error.strerror})", "check its permissions") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise refuse(
            path,
            f"is not UTF-8 text (byte {error.start}: {raw[error.start : error.start + 1]!r})",
            "save it as UTF-8, then run again",
        ) from None
    root = checked_document(text, path)
    tree = updates_tree(updates)
    new_text = edited_text(text, root, tree, path)

    try:
        expected = apply_updates(copy.deepcopy(yaml.safe_load(text)), tree)
    except (
        yaml.YAMLError,
        ValueError,
        TypeError,
    ) as error:  # e.g. a date that does not exist: 2026-02-30
        raise refuse(
            path, f"cannot be read as YAML: {str(error).splitlines()[0]}", "fix the file first"
        ) from None
    try:
        written = yaml.safe_load(new_text)
    except (yaml.YAMLError, ValueError, TypeError):
        written = None
    if written != expected:
        raise refuse(
            path,
            "cannot be edited without changing more than the values to write",
            f"set {', '.join(updates)} by hand",
        )
    try:
        config = parse_environment(written, name=env_name, source=str(path))
    except ConfigError as error:
        raise OpsError(
            f"not written, the result would be invalid: {error.summary}", error.fix, ExitCode.USAGE
        ) from None
    if not os.access(target, os.W_OK):
        raise refuse(
            path,
            "is read-only",
            f"make it writable (chmod u+w {target}), or set {', '.join(updates)} by hand",
        )
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise refuse(
            path,
            f"cannot be replaced: its directory {target.parent} is not writable",
            "make the directory writable, or set the values by hand",
        )
    return _Edit(path, target, new_text, config)


# --- writing --------------------------------------------------------------------------------------------------------


def _replace(edit: _Edit) -> None:
    target = edit.target
    try:
        status = os.stat(target)
        handle, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise OpsError(
            f"not written: cannot create a file next to {target} ({error.strerror})",
            "check the permissions of the file and its directory",
            ExitCode.USAGE,
        ) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(edit.text.encode("utf-8"))
            stream.flush()
            os.fchmod(stream.fileno(), stat.S_IMODE(status.st_mode))
            if (status.st_uid, status.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(
                    OSError
                ):  # only root may give a file away; others keep their own
                    os.fchown(stream.fileno(), status.st_uid, status.st_gid)
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise OpsError(
                f"not written: could not replace {target} ({error.strerror or error})",
                "check the disk space and the permissions of the file and its directory",
                ExitCode.USAGE,
            ) from None
        raise
    with contextlib.suppress(OSError):  # the rename is durable once the directory is on disk too
        directory = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
