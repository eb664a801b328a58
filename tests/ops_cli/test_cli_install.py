"""llmops as an installed tool: its version, AWS CLI habits (--profile, the profile's region) and the configuration
directory outside the checkout; and the package itself, built from pyproject.toml and run from another directory."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from ops_cli import __version__
from ops_cli.cli import main
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode
from tests.conftest import CONFIG_DIR
from tests.ops_cli.conftest import Result

PROJECT = Path(__file__).resolve().parents[2]
#: The packages pyproject.toml puts in the wheel: the CLI, the loader, the endpoint probe, the Capacity Block rules.
PACKAGES = ("ops_cli", "deployment_config", "endpoint_probe", "capacity_rules")


def _run(aws, argv, *, environ=None, cwd=None) -> Result:
    stdout, stderr = io.StringIO(), io.StringIO()
    runtime = Runtime(
        aws_factory=aws.aws,
        stdout=stdout,
        stderr=stderr,
        environ=environ or {},
        **({"cwd": lambda: cwd} if cwd else {}),
    )
    return Result(main(list(argv), runtime), stdout.getvalue(), stderr.getvalue())


@pytest.fixture
def aws_config(tmp_path) -> dict:
    """An AWS config file with a profile 'dev' in us-west-2 and a default profile without a region."""
    (config := tmp_path / "aws-config").write_text(
        "[default]\noutput = json\n\n[profile dev]\nregion = us-west-2\n"
    )
    (credentials := tmp_path / "aws-credentials").write_text("")
    return {"AWS_CONFIG_FILE": str(config), "AWS_SHARED_CREDENTIALS_FILE": str(credentials)}


def test_version(aws):
    result = _run(aws, ["--version"])
    assert result.code == ExitCode.OK and result.stdout.strip() == f"llmops {__version__}"


def test_the_region_falls_back_to_the_profiles_as_the_aws_cli_does(aws, aws_config):
    # given no --region, no --env and no AWS_REGION, a profile whose region is us-west-2 (the stubbed region)
    aws.stub("ec2").add_response(
        "describe_capacity_block_offerings", {"CapacityBlockOfferings": []}
    )
    # when a command that needs a region runs with that profile
    result = _run(
        aws, ["capacity-blocks", "offerings", "--profile", "dev", "--json"], environ=aws_config
    )
    # then it asked EC2 in the profile's region (StubbedAws refuses any other)
    assert result.code == ExitCode.OK, result.stderr


def test_a_profile_without_a_region_says_how_to_give_one(aws, aws_config):
    result = _run(aws, ["capacity-blocks", "offerings"], environ=aws_config)
    assert result.code == ExitCode.USAGE
    assert "no AWS region" in result.stderr and "aws configure set region" in result.stderr


def test_an_unknown_profile_is_refused_with_the_profiles_there(aws, aws_config):
    result = _run(aws, ["capacity-blocks", "offerings", "--profile", "prod"], environ=aws_config)
    assert result.code == ExitCode.USAGE
    assert "--profile 'prod' is not a profile" in result.stderr and "default, dev" in result.stderr
    assert "aws configure --profile" in result.stderr


def test_outside_the_checkout_the_configuration_directory_must_be_named(aws, tmp_path, monkeypatch):
    # given llmops installed outside any checkout and run from a directory that is not one
    monkeypatch.setattr("ops_cli.context.PROJECT_DIR", tmp_path / "site-packages")
    result = _run(aws, ["preflight", "--env", "example"], cwd=tmp_path)
    # then it says what to pass
    assert result.code == ExitCode.USAGE
    assert "no configuration directory" in result.stderr and "--config-dir" in result.stderr
    assert "LLMOPS_CONFIG_DIR" in result.stderr


def test_run_from_a_checkout_the_checkouts_config_is_the_default(aws, tmp_path, monkeypatch):
    # given an installed llmops run from inside a checkout (cdk.json next to config/) without --config-dir
    monkeypatch.setattr("ops_cli.context.PROJECT_DIR", tmp_path / "site-packages")
    (tmp_path / "cdk.json").write_text("{}")
    (tmp_path / "config").mkdir()
    result = _run(aws, ["preflight", "--env", "nowhere"], cwd=tmp_path)
    # then it looks there (and says which environments exist: none)
    assert result.code == ExitCode.USAGE and f"none exist in {tmp_path / 'config'}" in result.stderr


def test_the_environment_variable_names_the_configuration_directory(aws, tmp_path, monkeypatch):
    monkeypatch.setattr("ops_cli.context.PROJECT_DIR", tmp_path / "site-packages")
    result = _run(
        aws,
        ["preflight", "--env", "nowhere"],
        environ={"LLMOPS_CONFIG_DIR": str(tmp_path / "elsewhere")},
        cwd=tmp_path,
    )
    assert result.code == ExitCode.USAGE and str(tmp_path / "elsewhere") in result.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The wheel pyproject.toml builds (with the pinned setuptools of requirements-dev.txt, no download), unpacked into
    a directory of its own."""
    out = tmp_path_factory.mktemp("wheel")
    # built from a copy of what the package needs: setuptools writes build/ and *.egg-info next to pyproject.toml
    source = out / "source"
    for name in ("pyproject.toml", "README.md"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(PROJECT / name, source / name)
    for package in PACKAGES:
        shutil.copytree(
            PROJECT / package, source / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    # the build backend pyproject.toml names, called as pip calls it (build_wheel), in one process: pip itself adds
    # two more (its own and one that asks the backend for the metadata first) and about 1 s of CPU
    backend = tomllib.loads((PROJECT / "pyproject.toml").read_text())["build-system"][
        "build-backend"
    ]
    built = subprocess.run(
        [
            sys.executable,
            "-c",
            "import importlib, sys; importlib.import_module(sys.argv[1]).build_wheel(sys.argv[2])",
            backend,
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=source,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    (wheel,) = out.glob("llm_serving_ops-*.whl")
    target = out / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def test_the_package_holds_the_cli_and_the_loader_and_nothing_of_the_cdk_app(installed):
    top = {p.name for p in installed.iterdir()}
    # the CLI, the loader, the endpoint probe the CLI's smoke test and bench import, the Capacity Block rules
    assert set(PACKAGES) <= top
    assert not top & {"stacks", "charts", "cdk_constructs", "tests", "app.py"}
    # the loader's data files travel with it
    assert (installed / "deployment_config" / "data" / "availability_zones.json").is_file()
    # and so do the weights mirror Job's hashed requirements, which llmops weights mirror puts in the Job
    assert (installed / "ops_cli" / "data" / "weights_mirror_requirements.txt").is_file()
    (entry_points,) = installed.glob("llm_serving_ops-*.dist-info/entry_points.txt")
    assert "llmops = ops_cli.cli:run" in entry_points.read_text()


def test_every_module_of_the_packages_is_in_the_wheel(installed):
    # a subpackage left out of pyproject.toml's package list would import in the checkout and fail once installed
    packages = PACKAGES
    in_checkout = {
        p.relative_to(PROJECT)
        for package in packages
        for p in (PROJECT / package).rglob("*.py")
        if "__pycache__" not in p.parts
    }
    in_wheel = {
        p.relative_to(installed)
        for package in packages
        for p in (installed / package).rglob("*.py")
    }
    assert in_checkout - in_wheel == set()


def test_the_installed_cli_loads_an_environment_from_any_directory(installed, tmp_path):
    # given the unpacked package first on the path, the current directory far from the checkout, and the checkout's
    # configuration named by the environment variable
    environ = {**os.environ, "PYTHONPATH": str(installed), "LLMOPS_CONFIG_DIR": str(CONFIG_DIR)}
    # the command runs the installed copy, and says so if it does not
    command = [
        sys.executable,
        "-c",
        "import sys, ops_cli.cli as m; "
        "assert m.__file__.startswith(sys.argv[1]), m.__file__; sys.argv[1:2] = []; m.run()",
        str(installed),
    ]
    # (its version is the checkout's, as pip shows it: what --version prints, test_version, comes from the same attribute)
    (metadata,) = installed.glob("llm_serving_ops-*.dist-info/METADATA")
    assert f"\nVersion: {__version__}\n" in metadata.read_text()
    # when it smoke-tests with an environment (the loader and its data files) an endpoint where nothing listens
    result = subprocess.run(
        [
            *command,
            "smoke-test",
            "--url",
            "http://127.0.0.1:9",
            "--env",
            "example",
            "--api-key",
            "k" * 32,
            "--timeout",
            "5",
        ],
        capture_output=True,
        text=True,
        env=environ,
        cwd=tmp_path,
        timeout=60,
    )
    # then it loaded the environment and failed only where it should: nothing answers
    assert result.returncode == ExitCode.CHECK_FAILED, result.stderr
    assert "connection refused" in result.stderr


def test_starting_llmops_does_not_load_jsonschema():
    # given a fresh interpreter: jsonschema is for the add-on and tool-call checks, loaded where they run
    # (ops_cli/addon_checks.py, ops_cli/bench.py), not by every start of llmops
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, ops_cli.cli; print('jsonschema' in sys.modules)"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    # then the command line is built without it
    assert loaded.strip() == "False"
