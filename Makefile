# Two commands set everything up on a fresh machine:
#   make synth   create .venv, install the pinned Python and Node dependencies, synthesize the default app
#   make test    create .venv and install the pinned Python dependencies (no test needs the Node ones), then the
#                test suite (quality gates included)
# No AWS account, credentials or network beyond the package registries are needed.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
ENV ?=
CDK_CONTEXT := $(if $(ENV),-c env=$(ENV),)
# uv installs the Python packages from uv.lock unless USE_UV=0; its version is the one locked (requirements-uv.txt)
USE_UV ?= 1
UV := $(VENV)/bin/uv
UV_PIN := $(shell sed -n 's/^uv==//p' requirements-uv.txt)

# jsii warns on every start that Node 20 is end-of-life; the CDK CLI must not phone home.
export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION := 1
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20
export CDK_DISABLE_CLI_TELEMETRY := true
# Byte-code of the project's own modules and pytest's rewritten tests is cached in __pycache__ (git-ignored), whatever
# the shell's PYTHONDONTWRITEBYTECODE: with it set, every test worker, every `llmops` the tests start and every
# `cdk synth` compiled them again (docs/maintainers/performance.md, "Byte-code").
export PYTHONDONTWRITEBYTECODE :=

.PHONY: synth test lint bench clean setup pipeline schema check-config crd-bindings recipes lock

# The Python and the Node packages install side by side (-j2): on 2 cores the fresh-clone set-up took 23 s + 6 s one
# after the other (docs/maintainers/performance.md, "Set-up"). -Oline keeps each printed line whole where make has
# output sync (GNU make 4.0 and later; macOS's make 3.81 has not, and interleaves); -s: no "is up to date" lines.
# The targets that run only Python (test, lint, check-config, schema, recipes) install only the Python packages: no
# test runs a program of node_modules (the CDK CLI, the cdk8s CLI, cdk-assets), and on a fresh clone `npm ci` took
# 14 s of CPU from the two cores that the Python set-up and the tests need (docs/maintainers/performance.md, "Set-up").
OUTPUT_SYNC := $(if $(filter output-sync,$(.FEATURES)),-Oline)
setup:
	@$(MAKE) --no-print-directory -s -j2 $(OUTPUT_SYNC) $(VENV)/.installed node_modules/.installed

# Python packages: the groups app and dev of uv.lock (pyproject.toml declares them), with the uv that requirements-uv.txt
# pins, installed into the new environment by the interpreter's own pip (`pip --python`, pip 22.3 and later: a venv
# without pip of its own is made in 0.1 s, with one in 3.9 s), or by the environment's pip when that is missing.
# USE_UV=0, or uv failing to install, falls back to pip and requirements-dev.txt (the same versions, exported from
# uv.lock). Each step prints one line when it starts and one with its time at the end.
# --inexact: uv sync would otherwise remove what the lock does not name ("By default, an exact sync is performed",
# https://docs.astral.sh/uv/reference/cli/#uv-sync), uv itself among them (its group, uv, is not synced). --no-install-project: the checkout runs the CLI as bin/llmops; `pip install .` is for other directories.
# Byte-code: uv leaves it to the first import ("By default, uv does not compile Python (.py) files to bytecode",
# https://docs.astral.sh/uv/reference/cli/#uv-sync, --compile-bytecode); compileall writes it here for every package
# but the five large ones that the app and the tests use a small part of, which compile at their first import, once
# (the Makefile clears PYTHONDONTWRITEBYTECODE): aws-cdk-lib, whose 358 submodules load lazily (aws_cdk/__init__.py's
# __getattr__) and of which a test run loads 75, 44 of its 183 MB of Python, 19.5 of the 34 s of CPU that
# --compile-bytecode took; sympy and networkx (cfn-lint's; 435 of 1,532 and 285 of 580 modules), pygments (rich's;
# 21 of 343) and pip (none): 6.9 of the other packages' 10.9 s of compile() (docs/maintainers/performance.md, "Byte-code").
# A shell that sets PYTHONDONTWRITEBYTECODE compiles those again in every process it starts outside make. A file that
# does not compile (a module for another Python) is named and left to its import, as pip does. Two compileall
# processes of -j1 side by side, one for the top-level names of site-packages that start with i to z, one for the
# rest (about half of the compile time each), rather than compileall's -j0, which hands each of the 6,038 files to its
# pool of workers one at a time: -j0 took 14.9 s wall and 25 s of CPU on 2 cores, one -j1 process 12-12.8 s and
# 12-13 s, and the Python set-up went from 16.0 and 15.6 s to 10.5 and 11.7 s with the two halves, the same 2,461
# files compiled (docs/maintainers/performance.md, "Byte-code"). pip compiles everything at install.
SITE_PACKAGES = $$($(PY) -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
NOT_COMPILED := site-packages/(aws_cdk|sympy|networkx|pygments|pip)/
$(VENV)/.installed: pyproject.toml uv.lock requirements-dev.txt requirements-uv.txt
	@echo "==> Python packages into $(VENV) (uv.lock: groups app and dev)"
	@start=$$(date +%s); \
	test -x $(PY) || $(PYTHON) -m venv --without-pip $(VENV) || exit 1; \
	if [ "$(USE_UV)" != 0 ] && { { test -x $(UV) && $(UV) --version | grep -qF "$(UV_PIN)"; } || \
	    $(PYTHON) -m pip --python $(PY) install --quiet --disable-pip-version-check -r requirements-uv.txt 2>/dev/null || \
	    { { $(PY) -m pip --version >/dev/null 2>&1 || $(PY) -m ensurepip --default-pip >/dev/null; } && \
	      $(PY) -m pip install --quiet --disable-pip-version-check -r requirements-uv.txt; }; }; then \
	  echo "    with $$($(UV) --version)"; \
	  UV_PROJECT_ENVIRONMENT="$(CURDIR)/$(VENV)" $(UV) sync --locked --inexact --no-install-project \
	    --no-default-groups --group app --group dev || exit 1; \
	  failed=; \
	  $(PY) -m compileall -q -j1 -x '$(NOT_COMPILED)|site-packages/[i-z]' "$(SITE_PACKAGES)" & \
	  $(PY) -m compileall -q -j1 -x '$(NOT_COMPILED)|site-packages/[^i-z]' "$(SITE_PACKAGES)" || failed=1; \
	  wait $$! || failed=1; \
	  test -z "$$failed" || echo "    (the files named above did not compile: each compiles at its import, or fails there)"; \
	else \
	  echo "    with pip and requirements-dev.txt (USE_UV=0, or uv could not be installed)"; \
	  { $(PY) -m pip --version >/dev/null 2>&1 || $(PY) -m ensurepip --default-pip >/dev/null; } || exit 1; \
	  $(PY) -m pip install --disable-pip-version-check --progress-bar off -r requirements-dev.txt || exit 1; \
	fi; \
	echo "    Python packages: $$(( $$(date +%s) - start )) s"
	@touch $@

# After a change to the dependencies in pyproject.toml: lock them again (the registry only) and export the
# requirements*.txt files that pip reads. Never edit those by hand: tests/test_tooling.py fails when one is not the
# export of uv.lock. `uv lock --upgrade-package NAME` moves one indirect dependency.
# requirements-ops.txt keeps the hashes: the access host (cluster admin) and the pipeline's smoke-test steps install
# it with pip, which then checks every download against them; the others are the pip fallback of `make`.
EXPORT := $(UV) export --quiet --frozen --no-hashes --no-emit-project
lock:
	@test -x $(UV) || { echo "no $(UV): run make setup first"; exit 2; }
	$(UV) lock
	$(UV) export --quiet --frozen --no-emit-project --no-default-groups -o requirements-ops.txt
	$(EXPORT) --no-default-groups --group app -o requirements.txt
	$(EXPORT) --no-default-groups --group app --group dev -o requirements-dev.txt
	$(EXPORT) --only-group uv -o requirements-uv.txt

node_modules/.installed: package.json package-lock.json
	@echo "==> Node packages into node_modules (package-lock.json: CDK CLI, cdk8s CLI, cdk-assets)"
	@start=$$(date +%s); \
	npm ci --no-audit --no-fund --loglevel=error || exit 1; \
	echo "    Node packages: $$(( $$(date +%s) - start )) s"
	@touch $@

synth: setup
	@echo "==> cdk synth $(CDK_CONTEXT)"
	@start=$$(date +%s); \
	npx cdk synth --quiet --no-notices $(CDK_CONTEXT) || exit 1; \
	echo "    synth: $$(( $$(date +%s) - start )) s"
	@echo "Templates in cdk.out/, Kubernetes manifests in cdk.out/kubernetes/"

test: $(VENV)/.installed
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(PY) -m pytest

# Formats the code (line length 100, pyproject.toml), then lints it.
lint: $(VENV)/.installed
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check .

bench: setup
	$(PY) bench/synth_bench.py
	$(PY) bench/pipeline_scale.py

# Validate configuration files without the CDK (exit code 2 on a mistake): make check-config [ENV=name]
check-config: $(VENV)/.installed
	$(PY) -m deployment_config $(ENV)

# Generated files: the JSON Schema of the configuration files (schema/), from the loader's models, and the EC2
# instance type names (deployment_config/data/), from botocore's EC2 model. Tests fail when either is stale.
schema: $(VENV)/.installed
	$(PY) -m deployment_config.schema
	$(PY) -m deployment_config.ec2_instance_types
	$(PY) -m deployment_config.reference_docs

# Typed bindings of the CRDs the charts write (charts/imports/, committed; SOURCE.json names each CRD and its digest,
# and a test fails when a CRD changed without this): cdk8s import with the CLI pinned in package.json.
crd-bindings: setup
	$(PY) -m charts.imports.generate

# The vLLM recipes vendored in deployment_config/data/recipes/ (SOURCE.md there): after copying a new recipe file,
# rewrite recipes.lock.json (its sha256 and the profiles derived from it); tests/deployment_config/test_recipe.py fails until then.
recipes: $(VENV)/.installed
	$(PY) -m deployment_config.recipe

pipeline: setup
	npx cdk synth --quiet --no-notices -c pipeline=$(or $(PIPELINE),example)

clean:
	rm -rf cdk.out .pytest_cache bench/out
