"""Shared fixtures. The default app is synthesized once per test run; every stack test reads that one result."""

from __future__ import annotations

import atexit
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.background_synthesis import environment as background_environment

#: The order in which the xdist workers take the files: the longest first (tests/scheduling.py); the assertion rewriting
#: of the test files done once, before the workers start (tests/rewrite_once.py); the garbage collector kept off the
#: objects that live for the whole run (tests/garbage_collection.py); the variants that files of several folders share
#: (tests/shared_variants.py).
pytest_plugins = (
    "tests.scheduling",
    "tests.rewrite_once",
    "tests.garbage_collection",
    "tests.shared_variants",
)

NO_AWS_DIR_VARIABLE = "LLMOPS_TESTS_NO_AWS_DIR"


def _without_real_aws_credentials() -> Path:
    """Leave this process, and every process it starts (llmops, the background synthesis, pytest-xdist's workers,
    which import this file again), no way to find real AWS credentials or reach the instance metadata service.

    Every ``AWS_*`` variable goes, not only those that carry credentials or name a profile (botocore 1.43 reads
    AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_SECURITY_TOKEN, AWS_CREDENTIAL_EXPIRATION,
    AWS_PROFILE, AWS_DEFAULT_PROFILE, AWS_ROLE_ARN, AWS_ROLE_SESSION_NAME, AWS_WEB_IDENTITY_TOKEN_FILE,
    AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI, AWS_CONTAINER_AUTHORIZATION_TOKEN(_FILE), AWS_CREDENTIAL_FILE,
    AWS_LOGIN_CACHE_DIRECTORY and AWS_EC2_METADATA_SERVICE_ENDPOINT: botocore/credentials.py, configprovider.py,
    utils.py): AWS_ENDPOINT_URL or AWS_MAX_ATTEMPTS from a developer's shell would change what a test exercises. The
    config and credentials files (and boto2's, which botocore's BotoProvider reads from BOTO_CONFIG, else
    /etc/boto.cfg and ~/.boto) are pointed at paths that do not exist, so no profile, credential_process, SSO or
    role is found; AWS_EC2_METADATA_DISABLED=true keeps botocore (utils.IMDSFetcher), the AWS CLI and the AWS SDK
    for JavaScript off 169.254.169.254, so that on an EC2 workstation or CI host no test takes the instance's role.
    A test that needs AWS settings sets its own (monkeypatch, or the environ it gives a command).
    """
    for name in [name for name in os.environ if name.startswith("AWS_")]:
        del os.environ[name]
    # An empty directory of this run, so that the files named below never exist; made by the first process (pytest's,
    # or xdist's controller) and reused by its workers, which inherit the variable and may exit without atexit.
    inherited = os.environ.get(NO_AWS_DIR_VARIABLE)
    if inherited and Path(inherited).is_dir():
        nowhere = Path(inherited)
    else:
        nowhere = Path(tempfile.mkdtemp(prefix="llmops-tests-no-aws-"))
        atexit.register(shutil.rmtree, nowhere, ignore_errors=True)
        os.environ[NO_AWS_DIR_VARIABLE] = str(nowhere)
    os.environ.update(
        {
            "AWS_CONFIG_FILE": str(nowhere / "config"),
            "AWS_SHARED_CREDENTIALS_FILE": str(nowhere / "credentials"),
            "BOTO_CONFIG": str(nowhere / "boto.cfg"),
            "AWS_EC2_METADATA_DISABLED": "true",
        }
    )
    return nowhere


#: Before any AWS client is made: this file is imported before the tests and pytest_configure.
NO_AWS_DIR = _without_real_aws_credentials()

# jsii prints a banner on every start while the machine's Node is past end-of-life; it is noise in test output.
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
os.environ.setdefault("JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION", "1")

PROJECT_DIR = Path(__file__).resolve().parents[1]

# --- the configuration files the tests read ---------------------------------------------------------------------------
# Never config/ as the user left it: after the README's `cp config/example.yaml config/prod.yaml`, or with a file of
# theirs that does not validate, every test still sees what a fresh clone holds. Tests that check the shipped examples
# read them by name (SHIPPED_EXAMPLES); everything else uses CONFIG_DIR, a copy of them, or a directory of its own.

#: The repository's configuration directory, which holds the user's own files beside the examples.
SHIPPED_CONFIG_DIR = PROJECT_DIR / "config"
#: The examples the repository ships in config/: the only files of it a test may read, and only by name.
SHIPPED_EXAMPLES = (
    "example.yaml",
    "example-hyperpod.yaml",
    "example-prod.yaml",
    "pipeline/example.yaml",
)
CONFIG_DIR_VARIABLE = "LLMOPS_TESTS_CONFIG_DIR"


def copy_shipped_examples(target: Path) -> Path:
    """``target``, a configuration directory with a copy of the shipped examples and nothing else."""
    for name in SHIPPED_EXAMPLES:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SHIPPED_CONFIG_DIR / name, target / name)
    return target


def _examples_config_dir() -> Path:
    """The run's copy of the shipped examples: made by the first process, reused by the xdist workers (as NO_AWS_DIR)."""
    inherited = os.environ.get(CONFIG_DIR_VARIABLE)
    if inherited and Path(inherited).is_dir():
        return Path(inherited)
    directory = Path(tempfile.mkdtemp(prefix="llmops-tests-config-"))
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    os.environ[CONFIG_DIR_VARIABLE] = str(directory)
    return copy_shipped_examples(directory)


#: The configuration directory the tests load environments from and list: the shipped examples only. Read-only by
#: convention: a test that writes makes its own copy (tests/ops_cli/conftest.py's config_dir).
CONFIG_DIR = _examples_config_dir()


def _refuse_the_users_config(event: str, args: tuple) -> None:
    """An audit hook (PEP 578) of every test process: listing config/, or opening a file of it other than a shipped
    example, fails the test at once, on a clean checkout as on a user's, instead of passing until a user adds a file.

    The events and their arguments: ``open`` (path, mode, flags), ``os.scandir`` (path), ``os.listdir`` (path)
    (https://docs.python.org/3.11/library/audit_events.html); Path.glob and shutil.copytree list with os.scandir.
    Processes the tests start (llmops, app.py) are not watched: they get a configuration directory on their command
    line or in their environment."""
    if event == "open":
        path = args[0]
    elif event in ("os.scandir", "os.listdir"):
        path = args[0] if args[0] is not None else "."
    else:
        return
    if isinstance(path, int) or "config" not in os.fsdecode(path):
        return  # the cheap test first: this runs on every open of the process
    path = os.fsdecode(path)
    if event == "open" and os.sep not in path:
        return  # a bare name may be relative to a dir_fd (shutil.rmtree's os.open), which the event does not carry
    path = Path(os.path.abspath(path))
    if path == SHIPPED_CONFIG_DIR or SHIPPED_CONFIG_DIR in path.parents:
        if event == "open" and path.relative_to(SHIPPED_CONFIG_DIR).as_posix() in SHIPPED_EXAMPLES:
            return
        pytest.fail(
            f"a test read the user's configuration directory ({event} {path}): read a shipped example by name "
            "(tests.conftest.SHIPPED_EXAMPLES), or use tests.conftest.CONFIG_DIR, a copy of the examples"
        )


sys.addaudithook(_refuse_the_users_config)


@pytest.fixture(scope="session")
def example_document() -> dict:
    """The embedded default configuration as parsed YAML; copy before changing it."""
    return yaml.safe_load((CONFIG_DIR / "example.yaml").read_text(encoding="utf-8"))


@pytest.fixture
def example_copy(example_document) -> dict:
    return copy.deepcopy(example_document)


@pytest.fixture(scope="session")
def default_env():
    from deployment_config import DEFAULT_ENVIRONMENT, load_environment

    return load_environment(CONFIG_DIR, DEFAULT_ENVIRONMENT)


@pytest.fixture(scope="session")
def hyperpod_env():
    from deployment_config import load_environment

    return load_environment(CONFIG_DIR, "example-hyperpod")


@dataclass(frozen=True)
class Assembly:
    """The cloud assembly of the one synthesis of the session."""

    directory: Path
    manifest: dict
    templates: dict[str, dict]
    kubernetes_files: list[Path]


@dataclass(frozen=True)
class SynthesizedApp:
    """One environment's view of the session's synthesis."""

    assembly: Assembly
    env_config: object

    @property
    def directory(self) -> Path:
        return self.assembly.directory

    @property
    def manifest(self) -> dict:
        return self.assembly.manifest

    @property
    def templates(self) -> dict[str, dict]:
        return self.assembly.templates

    @property
    def kubernetes_file(self) -> Path:
        (path,) = [
            p for p in self.assembly.kubernetes_files if p.parent.name == self.env_config.name
        ]
        return path

    def template(self, unit: str) -> dict:
        return self.templates[self.env_config.stack_name(unit)]

    def resources(self, unit: str, resource_type: str) -> dict[str, dict]:
        return {
            k: v for k, v in self.template(unit)["Resources"].items() if v["Type"] == resource_type
        }

    def assertions(self, unit: str):
        from aws_cdk.assertions import Template

        return Template.from_json(self.template(unit))


# --- the default app and the example pipeline, synthesized once per run -------------------------------------------
# In one background process (tests/background_synthesis.py, with cdk-nag and aws-cdk-lib's built-in CloudFormation
# validation on, as `cdk synth`), started when the run starts, so that it overlaps with the collection of the tests and
# every xdist worker reads the same result. The tests' own variants synthesize in the workers with the built-in
# validation off and are linted with cfn-lint instead (app.checked_app).

#: Where the background synthesis writes; set by the process that starts it, inherited by the xdist workers.
BACKGROUND_DIR_VARIABLE = "LLMOPS_TESTS_SYNTHESIS_DIR"
#: Far longer than the background synthesis takes on a loaded 2-core machine (docs/maintainers/performance.md), so that
#: only a synthesis that hangs reaches it.
SYNTHESIS_TIMEOUT_S = 600


#: Tests that never read the shared syntheses (the CLI's, the tooling's): a run of only these does not start them.
NO_SYNTHESIS_PATHS = (PROJECT_DIR / "tests" / "ops_cli", PROJECT_DIR / "tests" / "test_tooling.py")


def _needs_synthesis(config) -> bool:
    if hasattr(config, "workerinput") or config.option.collectonly:
        return False  # an xdist worker (its controller starts the synthesis), or nothing will run
    paths = [Path(str(arg).split("::", 1)[0]).resolve() for arg in config.args] or [
        PROJECT_DIR / "tests"
    ]
    return not all(
        any(path == free or free in path.parents for free in NO_SYNTHESIS_PATHS) for path in paths
    )


def pytest_configure(config):
    if not _needs_synthesis(config):
        return
    work_dir = Path(tempfile.mkdtemp(prefix="llmops-tests-synthesis-"))
    log = (work_dir / "synthesis.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.background_synthesis", str(work_dir)],
        cwd=PROJECT_DIR,
        env=background_environment(os.environ),
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()
    config._llmops_synthesis = (process, work_dir)
    os.environ[BACKGROUND_DIR_VARIABLE] = str(work_dir)


def pytest_unconfigure(config):
    started = getattr(config, "_llmops_synthesis", None)
    if started:
        process, work_dir = started
        if process.poll() is None:
            process.kill()  # a run that did not need all of it, or was interrupted
        process.wait()
        os.environ.pop(BACKGROUND_DIR_VARIABLE, None)
        shutil.rmtree(work_dir, ignore_errors=True)


def _finished_synthesis(part: str) -> tuple[Path, dict]:
    """Wait for ``part`` of the background synthesis; its cloud assembly directory and the facts it recorded."""
    if BACKGROUND_DIR_VARIABLE not in os.environ:
        pytest.fail(
            f"the shared synthesis was not started: a test of {NO_SYNTHESIS_PATHS} may not use it"
        )
    work_dir = Path(os.environ[BACKGROUND_DIR_VARIABLE])
    deadline = time.monotonic() + SYNTHESIS_TIMEOUT_S
    while not (work_dir / f"{part}.json").exists():
        if (work_dir / f"{part}.error").exists():
            pytest.fail(
                f"synthesis of {part} failed:\n{(work_dir / f'{part}.error').read_text()[-6000:]}"
            )
        if time.monotonic() > deadline:
            log = (work_dir / "synthesis.log").read_text(errors="replace")[-4000:]
            pytest.fail(
                f"synthesis of {part} did not finish within {SYNTHESIS_TIMEOUT_S} s:\n{log}"
            )
        time.sleep(0.05)
    return work_dir / part, json.loads((work_dir / f"{part}.json").read_text())


def _stack_templates(directory: Path, manifest: dict) -> dict[str, dict]:
    """The templates of a cloud assembly directory by stack name, from its manifest.json as the CDK CLI reads it."""
    stacks = {
        name: a["properties"]
        for name, a in manifest["artifacts"].items()
        if a["type"] == "aws:cloudformation:stack"
    }
    return {
        properties.get("stackName", name): json.loads(
            (directory / properties["templateFile"]).read_text()
        )
        for name, properties in stacks.items()
    }


@pytest.fixture(scope="session")
def assembly() -> Assembly:
    """The default app (both example environments), synthesized once per test run (tests/background_synthesis.py)."""
    directory, facts = _finished_synthesis("default-app")
    manifest_files = [Path(path) for path in facts["manifest_files"]]
    manifest = json.loads((directory / "manifest.json").read_text())
    templates = _stack_templates(directory, manifest)
    assert len(manifest_files) == 2, (
        f"app.py wrote one manifest file per environment: {manifest_files}"
    )
    return Assembly(directory, manifest, templates, manifest_files)


@pytest.fixture(scope="session")
def synthesized(assembly, default_env) -> SynthesizedApp:
    return SynthesizedApp(assembly, default_env)


@pytest.fixture(scope="session")
def synthesized_hyperpod(assembly, hyperpod_env) -> SynthesizedApp:
    return SynthesizedApp(assembly, hyperpod_env)


def bare_app(**props):
    """A CDK App for a test's own stacks outside the project's app: aws-cdk-lib's built-in CloudFormation validation
    off, as app.checked_app(inspect_only=True) has it. Without cdk.json's context it only warns, so it fails no test
    (aws-cdk-lib 2.275.0 core/lib/private/synthesis-validation.js: errors are downgraded to warnings unless
    @aws-cdk/core:validateAgainstDefaultRules is set), and building its engine costs about 5 s in each process that
    synthesizes (docs/maintainers/performance.md, "Synthesis")."""
    import aws_cdk as cdk

    return cdk.App(builtin_cloud_formation_validation=False, **props)


def in_memory_pipeline(name: str, *waves):
    """A pipeline of ``waves`` (deployment_config.pipeline.Wave) in the examples' account and region, not read from a
    file: for the tests that build one around a variant environment."""
    from deployment_config.pipeline import PipelineConfig, Source

    return PipelineConfig(
        name=name,
        source_file="<memory>",
        account="111111111111",
        region="us-west-2",
        source=Source(
            "arn:aws:codeconnections:us-west-2:111111111111:connection/"
            "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
            "my-org/llm-serving",
            "main",
        ),
        waves=tuple(waves),
    )


@dataclass(frozen=True)
class PipelineAssembly:
    directory: Path
    template: dict
    stage_templates: dict[str, dict[str, dict]]  # environment name → stack name → template
    config: object

    @property
    def stages(self) -> dict[str, dict]:
        """The CodePipeline's stages by name, each with its actions."""
        (pipeline,) = [
            r
            for r in self.template["Resources"].values()
            if r["Type"] == "AWS::CodePipeline::Pipeline"
        ]
        return {s["Name"]: s for s in pipeline["Properties"]["Stages"]}


@pytest.fixture(scope="session")
def pipeline_assembly() -> PipelineAssembly:
    """The example pipeline (config/pipeline/example.yaml), synthesized once per test run (background_synthesis)."""
    from deployment_config.pipeline import load_pipeline

    config = load_pipeline(CONFIG_DIR)
    directory, facts = _finished_synthesis("pipeline")
    stack_name = facts["stack_name"]
    manifest = json.loads((directory / "manifest.json").read_text())
    template = _stack_templates(directory, manifest)[stack_name]
    stage_templates = {}
    for env in config.environments:
        stage = (
            directory
            / manifest["artifacts"][f"assembly-{stack_name}-{env.name}"]["properties"][
                "directoryName"
            ]
        )
        stage_templates[env.name] = _stack_templates(
            stage, json.loads((stage / "manifest.json").read_text())
        )
    return PipelineAssembly(directory, template, stage_templates, config)
