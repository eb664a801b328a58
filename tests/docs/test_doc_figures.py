"""The figures the pages repeat are the ones the code owns, and the pages stay readable (issue 32, item 8).

Given README.md and docs/**/*.md, when they are read next to the code that defines each figure (the recipe's share of
GPU memory, the stacks the app synthesizes per platform with and without ``access.enabled``, the startup budget, the
interface endpoints, the API port), then every page states the code's figure; and no Markdown table cell is longer than
:data:`MAX_CELL` characters (a longer one goes into prose or a note below its table). The timeline, the running
resources and the prices are tied in tests/docs/test_readme_first_hour.py and tests/docs/test_cost_figures.py."""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path

import pytest

from deployment_config import sizing
from deployment_config.model import INTERFACE_ENDPOINT_NAMES
from deployment_config.recipe.vendored import MULTI_NODE_TP_PP, SINGLE_NODE_TP, recipe_for
from tests.conftest import PROJECT_DIR, SHIPPED_CONFIG_DIR, SHIPPED_EXAMPLES

sys.path.insert(0, str(PROJECT_DIR / "bench"))
import running_resources  # noqa: E402

MAX_CELL = 300
PAGES = [PROJECT_DIR / "README.md", *sorted((PROJECT_DIR / "docs").rglob("*.md"))]
DOCS = PROJECT_DIR / "docs"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _flat(path: Path) -> str:
    """The page with its line breaks folded, so that a sentence wrapped over lines is found as one, and its links'
    targets left out (``[startup budget](README.md#startup-budget)`` reads as ``[startup budget]``)."""
    return re.sub(r"\]\([^)\s]*\)", "]", " ".join(_text(path).split()))


def _table_cells(path: Path):
    """(line number, cell text) of every Markdown table cell outside code blocks; ``\\|`` does not split a cell."""
    fenced = False
    for number, line in enumerate(_text(path).splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or not line.lstrip().startswith("|"):
            continue
        for cell in re.split(r"(?<!\\)\|", line.strip().strip("|")):
            yield number, cell.strip()


def test_no_table_cell_is_longer_than_the_limit():
    # given every page of the README and docs/, when their table cells are measured
    too_long = [
        f"{page.relative_to(PROJECT_DIR)}:{number}: {len(cell)} characters ({cell[:60]}…)"
        for page in PAGES
        for number, cell in _table_cells(page)
        if len(cell) > MAX_CELL
    ]
    # then none is over the limit: the rest of a long cell goes into prose or a note below the table
    assert not too_long, "\n".join(too_long)


def test_the_cell_measure_sees_a_long_cell_and_ignores_code_blocks(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "| a | b |\n| --- | --- |\n| x | " + "y" * 301 + " |\n```\n| " + "z" * 400 + " |\n```\n",
        encoding="utf-8",
    )
    assert [(n, len(c)) for n, c in _table_cells(page) if len(c) > MAX_CELL] == [(3, 301)]


def _recipe_share(generation: str, strategy: str) -> float:
    from deployment_config.recipe.profile import recipe_profile

    recipe = recipe_for("kimi-k3")
    return recipe_profile(
        recipe, generation=generation, strategy=strategy, features=(), load_format=None
    ).gpu_memory_utilization


def test_the_memory_share_on_the_pages_is_the_recipes(default_env):
    # given the shares vLLM is given by the recipe (deployment_config/data/recipes/) and the sizing's floor
    one_blackwell = _recipe_share("blackwell", SINGLE_NODE_TP)
    pipeline = _recipe_share("blackwell", MULTI_NODE_TP_PP)
    hopper = {_recipe_share("hopper", s) for s in (SINGLE_NODE_TP, MULTI_NODE_TP_PP)}
    assert len(hopper) == 1
    configure = _flat(DOCS / "configure.md")
    # then the configure page states them, per layout, and the floor as the floor, not as the share vLLM uses
    assert (
        f"the share of GPU memory vLLM takes ({one_blackwell:.2f} on one Blackwell node, {pipeline:.2f} for the "
        f"two-node pipeline, {hopper.pop():.2f} on Hopper)" in configure
    )
    floor = f"{sizing.GPU_MEMORY_UTILIZATION:.0%}".replace("%", " %")
    assert f"never below {floor} (`sizing.GPU_MEMORY_UTILIZATION`)" in configure
    # and no page says vLLM uses a share the code does not give it
    shares = {
        f"{s:.0%}" for s in (one_blackwell, pipeline, _recipe_share("hopper", SINGLE_NODE_TP))
    }
    for page in PAGES:
        for said in re.findall(r"(\d+) ?% (?:vLLM uses|utilization)", _flat(page)):
            assert f"{said}%" in shares, f"{page.name}: {said} % is not a share the recipe gives"
    # and the preflight sample on the deploy page is the sizing the example gets
    assert f"model sizing PASS {default_env.sizing_message}" in _flat(DOCS / "deploy.md")
    assert default_env.model.memory.single_node_utilization == one_blackwell


@pytest.fixture(scope="module")
def stack_counts(
    assembly, default_env, hyperpod_env, access_assembly, access_envs
) -> dict[tuple[str, bool], int]:
    """The stacks of each example by (platform, access.enabled): without access from the session's synthesis, with
    access from the session's access variant (tests/shared_variants.py: the same files with access on, as ``reach``
    and ``reach-hp``)."""
    counts = {}
    for env, with_access in zip((default_env, hyperpod_env), access_envs, strict=True):
        assert (with_access.platform, with_access.access.enabled) == (env.platform, True)
        synthesized = running_resources.templates_of(Path(assembly.directory), env.name)
        counts[env.platform.value, False] = len(synthesized)
        synthesized = running_resources.templates_of(
            Path(access_assembly.directory), with_access.name
        )
        counts[env.platform.value, True] = len(synthesized)
    return counts


NUMBER_WORDS = {5: "five", 6: "six", 7: "seven", 8: "eight"}


def test_the_stack_counts_on_the_pages_are_the_apps(stack_counts):
    # given what the app synthesizes per platform, with and without access.enabled (one stack more: NAME-access)
    eks, eks_access = stack_counts["eks", False], stack_counts["eks", True]
    hyperpod, hyperpod_access = stack_counts["hyperpod", False], stack_counts["hyperpod", True]
    assert (eks_access - eks, hyperpod_access - hyperpod) == (1, 1)
    # then the README's architecture says both counts of both paths
    readme = _flat(PROJECT_DIR / "README.md")
    assert (
        f"{eks} stacks on EKS and {hyperpod} on HyperPod; with `access.enabled` one more, `NAME-access` "
        f"({eks_access} and {hyperpod_access})" in readme
    )
    # and the HyperPod page, the configure page, the access page and the set-up page agree
    assert (
        f"deploys {NUMBER_WORDS[hyperpod]} stacks ({NUMBER_WORDS[hyperpod_access]} with `access.enabled`:"
        in _flat(DOCS / "hyperpod.md")
    )
    assert f"synthesizes the {eks} stacks prod-network," in _flat(DOCS / "configure.md")
    assert f"({eks_access} with access.enabled: prod-access too)" in _flat(DOCS / "configure.md")
    assert "`access.enabled` adds one stack, `NAME-access`, on both platforms" in _flat(
        DOCS / "access.md"
    )
    assert f"# {eks + hyperpod} stacks" in _text(DOCS / "setup.md")
    for page in PAGES:
        for said in re.findall(
            r"\b(\d+) stacks, both examples|the two examples, (\d+) stacks", _text(page)
        ):
            assert int("".join(said)) == eks + hyperpod, page.name


def test_the_example_files_name_the_staged_deploy_of_the_readme():
    # given the README's quick start: stage 1 (network and cluster) before the block, stage 2 (--all) once it is active
    readme = _text(PROJECT_DIR / "README.md")
    assert "npx cdk deploy -c env=prod prod-cluster           # stage 1" in readme
    assert "npx cdk deploy -c env=prod --all                  # stage 2" in readme
    # then no environment example tells a one-go deploy; each names the stages and the page that has them
    # (nor does a test variant of an example that says how to deploy it)
    variants = [
        path
        for path in sorted((PROJECT_DIR / "tests" / "configs").glob("*.yaml"))
        if "cdk deploy" in _text(path)
    ]
    shipped = [SHIPPED_CONFIG_DIR / name for name in SHIPPED_EXAMPLES if "/" not in name]
    for example in shipped + variants:
        header = " ".join(
            line.lstrip("# ") for line in _text(example).splitlines() if line.startswith("#")
        )
        assert "stage 1 `npx cdk deploy -c env=NAME NAME-cluster`" in header, example.name
        assert "stage 2 `npx cdk deploy -c env=NAME --all`" in header, example.name
        assert "README.md" in header or "docs/" in header, example.name
    # and the placeholder guard's message names the same stages and the page that has them for each platform
    from deployment_config.model import Platform
    from stacks.composition import placeholder_fix

    for platform, page in [
        (Platform.EKS, "README.md, Quick start"),
        (Platform.HYPERPOD, "docs/hyperpod.md"),
    ]:
        assert "stage 1 `npx cdk deploy -c env=NAME NAME-cluster`" in placeholder_fix(platform)
        assert "stage 2 `npx cdk deploy -c env=NAME --all`" in placeholder_fix(platform)
        assert f"({page})" in placeholder_fix(platform)
    assert "## Quick start" in _text(DOCS / "hyperpod.md")


def _minutes(seconds: int) -> str:
    return f"{seconds / 60:g}"


def test_the_startup_budget_on_the_pages_is_the_one_the_pod_is_given(default_env):
    # given the budget the example's vLLM pod is given (deployment_config/sizing.py, from the weight size)
    budget = default_env.pod_startup_budget
    probe = _minutes(budget.probe_seconds)
    # then every page that gives the startup budget in minutes gives the startup probe's
    stated = [
        (page.name, minutes)
        for page in PAGES
        for between, minutes in re.findall(r"startup budget([^.;)]{0,25}?)\b(\d+) min", _flat(page))
        if not re.search(r"\+|plus", between)  # the budget plus a margin of another wait
    ]
    assert stated and all(minutes == probe for _, minutes in stated), stated
    # and the deploy page's manifest gives vLLM's own wait and the probe's, in seconds and in minutes
    deploy = _flat(DOCS / "deploy.md")
    engine = budget.engine_ready_timeout_seconds
    assert f"`VLLM_ENGINE_READY_TIMEOUT_S={engine}` ({_minutes(engine)} minutes" in deploy
    assert (
        f"allows {_minutes(budget.probe_seconds - engine)} minutes more, {probe} minutes" in deploy
    )


def test_the_performance_pages_plan_and_warm_up_figures_are_the_plans(
    default_env, example_document
):
    from deployment_config.loader import parse_environment
    from deployment_config.startup_rates import WARM_UP_PROXY
    from ops_cli.first_token_plan import first_token_phases

    # given the plan of the example and of the same with the compile cache on (S3 weights at a revision, an image by
    # digest), as bench/timeline.py prints them
    cached = copy.deepcopy(example_document)
    cached["model"].update(
        weight_source="s3",
        s3_uri="s3://example-weights/kimi-k3/",
        hugging_face_revision="0123456789abcdef0123456789abcdef01234567",
        image="vllm/vllm-openai:kimi-k3@sha256:" + "0123456789abcdef" * 4,
    )
    plans = [
        first_token_phases(default_env),
        first_token_phases(parse_environment(cached, name="c")),
    ]
    page = _text(DOCS / "maintainers" / "performance.md")
    rows = {
        "new node, S3 copied to the NVMe, checked, then loaded": "node ready -> first token, weights from S3: copy",
        "new node, Run:ai distributed from S3": "node ready -> first token, weights from S3: Run:ai",
        "restart on the same node (weights on the NVMe)": "restart on the same node -> first token (weights on",
        "restart, Run:ai distributed from S3": "restart on the same node -> first token, Run:ai distributed from S3",
    }
    for words, prefix in rows.items():
        plain, with_cache = (next(p for p in plan if p.step.startswith(prefix)) for plan in plans)
        first = (
            f" {with_cache.first_start_minutes:g} min |" if with_cache.first_start_minutes else " |"
        )
        expected = f"| {words} | {plain.minutes:g} min | {plain.limit_minutes:g} min | {with_cache.minutes:g} min |{first}"
        # then the page's start-up table gives each row's figures
        assert expected in page, expected
    # and its warm-up table ends in the proxies the plan uses
    proxies = (
        f"| **{WARM_UP_PROXY['cold'].seconds:g}** | **{WARM_UP_PROXY['restored'].seconds:g}** |"
    )
    assert proxies in page and "[warm-up.md](warm-up.md)" in page


def test_the_network_port_and_volume_figures_are_the_codes():
    from charts.serving_spec import TLS_PORT, VLLM_PORT
    from deployment_config.gpu_nodes import GPU_ROOT_VOLUME_GIB

    # given the interface endpoints the network stack makes (deployment_config.model.INTERFACE_ENDPOINT_NAMES)
    readme = _flat(PROJECT_DIR / "README.md")
    assert f"S3 gateway endpoint and {len(INTERFACE_ENDPOINT_NAMES)} interface endpoints" in readme
    listed = re.search(
        r"interface endpoints \(([^)]*)\) behind one security group", _flat(DOCS / "deploy.md")
    )
    assert listed and len(listed.group(1).split(", ")) == len(INTERFACE_ENDPOINT_NAMES)
    # and the API port, the TLS port, /dev/shm and the GPU nodes' root volume
    assert f"behind a Service on port {VLLM_PORT}" in readme
    assert f"Service vllm: internal NLB, port {VLLM_PORT}" in readme
    deploy = _flat(DOCS / "deploy.md")
    assert f"a LoadBalancer Service on port {VLLM_PORT}" in deploy
    assert f"port {TLS_PORT}, a TLS listener" in deploy
    assert f"an encrypted {GPU_ROOT_VOLUME_GIB} GiB gp3 root volume" in deploy
    for page in PAGES:
        for said in re.findall(r"(\d+) GiB memory-backed `/dev/shm`", _flat(page)):
            assert int(said) == sizing.SHM_SIZE_GIB, page.name


#: Terms the pages use before a reader can know them, each defined once on docs/README.md ("Terms").
TERMS = {"startup budget": "startup-budget", "the pins": "the-pins"}


def _prose(path: Path, *, keep_inline_code: bool = False) -> str:
    """The page without its code blocks (and without its inline code unless ``keep_inline_code``), on one line."""
    text = re.sub(r"^```.*?^```", "", _text(path), flags=re.S | re.M)
    if not keep_inline_code:
        text = re.sub(r"`[^`]*`", "", text)
    return " ".join(text.split())


def test_each_page_links_its_first_use_of_a_term_to_its_definition():
    terms_page = DOCS / "README.md"
    assert all(f"### {t[0].upper()}{t[1:]}" in _text(terms_page) for t in TERMS)
    # given every page but the definitions and the generated reference, when a term first appears in its prose
    for page in PAGES:
        if page in (terms_page, DOCS / "reference" / "configuration.md"):
            continue
        prose = _prose(page)
        for term, anchor in TERMS.items():
            first = prose.lower().find(term)
            if first < 0:
                continue
            # then it is a link to the term's definition
            target = "docs/README.md" if page.parent == PROJECT_DIR else "README.md"
            if page.parent != DOCS and page.parent != PROJECT_DIR:
                target = "../README.md"
            link = f"[{term}]({target}#{anchor})"
            assert prose[first - 1 : first - 1 + len(link)].lower() == link.lower(), (
                f"{page.relative_to(PROJECT_DIR)}: the first {term!r} is not {link}"
            )


def test_the_add_on_and_chart_versions_in_the_prose_are_the_pins():
    from cdk_constructs.gpu_device_plugins import (
        EFA_DEVICE_PLUGIN_VERSION,
        NVIDIA_DEVICE_PLUGIN_VERSION,
    )
    from deployment_config import addons

    # given the add-on builds the project pins (deployment_config/addons.py)
    pins = {
        v.name: v.version
        for v in vars(addons).values()
        if isinstance(v, addons.AddonPin) and v.version
    }
    # then every build the user's pages name in their prose (not a command's recorded output) is the pin of its add-on
    # (docs/maintainers/facts-and-sources.md also records the builds of its sources)
    for page in [p for p in PAGES if "maintainers" not in p.parts]:
        prose = _prose(page, keep_inline_code=True)
        for match in re.finditer(r"v\d+\.\d+\.\d+-eksbuild\.\d+", prose):
            named = [n for n in pins if n in prose[max(0, match.start() - 80) : match.start()]]
            where = f"{page.relative_to(PROJECT_DIR)}: {prose[match.start() - 60 : match.end()]}"
            assert match.group() in pins.values(), where
            assert not named or pins[
                max(named, key=lambda n: prose.rfind(n, 0, match.start()))
            ] == (match.group()), where
    # and the GPU nodes stack's device plugin charts
    assert (
        f"the NVIDIA device plugin (chart {NVIDIA_DEVICE_PLUGIN_VERSION}) and EFA device plugin "
        f"(chart {EFA_DEVICE_PLUGIN_VERSION})" in _flat(DOCS / "deploy.md")
    )


def test_the_system_nodes_and_the_alarms_are_the_examples(assembly, default_env):
    # given the example's system node group and the alarms its observability stack makes
    nodes = f"{default_env.cluster.system_node_count} x {default_env.cluster.system_instance_type}"
    template = running_resources.templates_of(Path(assembly.directory), "example")[
        "example-observability"
    ]
    alarms = sum(r["Type"] == "AWS::CloudWatch::Alarm" for r in template["Resources"].values())
    # then the README's diagrams and the deploy page say the same
    readme = _flat(PROJECT_DIR / "README.md")
    assert f"system node group: {nodes} On-Demand" in readme
    assert f"system node group: {nodes} with the managed add-ons" in readme
    assert f"`system-imdsv2` ({nodes.replace(' x ', ' × ')})" in _flat(DOCS / "deploy.md")
    assert f"CloudWatch: dashboard, {alarms} alarms" in readme
    assert f"the dashboard, and {NUMBER_WORDS.get(alarms, alarms)} alarms" in _flat(
        DOCS / "deploy.md"
    )


def test_the_multi_node_layouts_and_the_kv_reserve_on_the_configure_page_are_the_sizings():
    from deployment_config.catalog import GPU_INSTANCE_TYPES, MODEL_PRESETS

    kimi = MODEL_PRESETS["kimi-k3"]
    configure = _text(DOCS / "configure.md")
    # given the layout the sizing picks for Kimi-K3 on each instance type, at the recipe's shares for its GPUs
    rows = re.findall(
        r"^\| ((?:p[\w.-]+, )*p[\w.-]+) \| (\d) \| tensor parallel (\d)", configure, re.M
    )
    assert len(rows) >= 4
    for names, nodes, tensor_parallel in rows:
        for name in names.split(", "):
            instance = GPU_INSTANCE_TYPES[name]
            memory = sizing.MemoryProfile(
                single_node_utilization=_recipe_share(instance.gpu_generation, SINGLE_NODE_TP),
                multi_node_utilization=_recipe_share(instance.gpu_generation, MULTI_NODE_TP_PP),
            )
            layout = sizing.layout_for(kimi.weight_size_gb, instance, memory=memory)
            # then the page's table shows it
            assert (layout.nodes, layout.tensor_parallel_size) == (
                int(nodes),
                int(tensor_parallel),
            ), name
    # and the reserve and the node limit it names are the sizing's
    flat = _flat(DOCS / "configure.md")
    reserve = f"{sizing.MIN_KV_CACHE_SHARE:.0%}".replace("%", " %")
    assert f"weights plus {reserve} of GPU memory for the KV cache" in flat
    assert f"the fewest nodes (at most {sizing.MAX_LAYOUT_NODES})" in flat
    assert f"the {reserve} KV-cache reserve" in flat


def test_the_models_size_and_parallelism_are_the_presets():
    from deployment_config.catalog import MODEL_PRESETS

    kimi = MODEL_PRESETS["kimi-k3"]
    # given the preset's weight size in GB, then each page gives it as the preset has it (rounded in TB)
    sizes = {
        f"{kimi.weight_size_gb} GB",
        f"{kimi.weight_size_gb:,} GB",
        f"{kimi.weight_size_gb / 1000:.2f} TB",
        f"{kimi.weight_size_gb / 1000:.1f} TB",
    }
    for page in PAGES:
        for said in re.findall(
            r"Kimi-K3 \(([\d,.]+ [GT]B)\)|([\d,.]+ [GT]B) of weights|\b(1\.\d+ TB)", _flat(page)
        ):
            assert "".join(said) in sizes, f"{page.name}: {''.join(said)}"
    # and the README's first line gives its tensor-parallel size
    assert f"vLLM with tensor parallel {kimi.tensor_parallel_size})" in _flat(
        PROJECT_DIR / "README.md"
    )


def test_the_misfit_message_on_the_pages_is_the_one_check_config_gives(example_copy):
    from deployment_config import ConfigError, parse_environment

    # given the example on one p6-b200 node, which Kimi-K3 does not fit alone (a copy: the session's document is shared)
    example_copy["capacity"]["instance_type"] = "p6-b200.48xlarge"
    with pytest.raises(ConfigError) as raised:
        parse_environment(example_copy, name="b200")
    (issue,) = [i for i in raised.value.issues if i.field == "capacity.instance_type"]
    # then the configure and setup pages show its problem and its fix word for word
    for page in ("configure.md", "setup.md"):
        text = _text(DOCS / page)
        assert f"capacity.instance_type: {issue.problem}\n" in text, page
        assert f"fix: {issue.fix}\n" in text, page
