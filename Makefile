# Two commands set everything up on a fresh machine:
#   make synth   create .venv, install the pinned Python and Node dependencies, synthesize the default app
#   make test    the same set-up, then the test suite (quality gates included)
# No AWS account, credentials or network beyond the package registries are needed.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
ENV ?=
CDK_CONTEXT := $(if $(ENV),-c env=$(ENV),)
# uv installs the Python packages unless USE_UV=0; its version is the one pinned in requirements-uv.txt
USE_UV ?= 1
UV := $(VENV)/bin/uv
UV_PIN := $(shell sed -n 's/^uv==//p' requirements-uv.txt)

# jsii warns on every start that Node 20 is end-of-life; the CDK CLI must not phone home.
export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION := 1
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20
export CDK_DISABLE_CLI_TELEMETRY := true
# Byte-code of the project's own modules and pytest's rewritten tests is cached in __pycache__ (git-ignored), whatever
# the shell's PYTHONDONTWRITEBYTECODE: with it set, every test worker, every `llmops` the tests start and every
# `cdk synth` compiled them again (pytest's collection alone: 5 s instead of 3 s per worker).
export PYTHONDONTWRITEBYTECODE :=

.PHONY: synth test lint bench clean setup pipeline schema check-config crd-bindings recipes

setup: $(VENV)/.installed node_modules/.installed

# Python packages are installed with uv (pinned in requirements-uv.txt, itself installed with pip): on a fresh clone
# with empty caches on 2 cores, 19 s where pip took about 2 minutes (README, "Set up and synthesize"). USE_UV=0, or
# uv failing to install, falls back to pip. Each step prints one line when it starts and one with its time at the end.
# --compile-bytecode: uv leaves bytecode to the first import by default (pip compiles at install); without it every
# process that imports aws-cdk-lib's 500 MB of generated Python, and any machine with PYTHONDONTWRITEBYTECODE set
# compiles it again: measured 4.9 s instead of 1.3 s for the CDK imports of one `cdk synth` or test worker.
$(VENV)/.installed: requirements.txt requirements-dev.txt requirements-ops.txt requirements-uv.txt
	@echo "==> Python packages into $(VENV) (requirements-dev.txt)"
	@start=$$(date +%s); \
	test -x $(PY) || $(PYTHON) -m venv $(VENV) || exit 1; \
	if [ "$(USE_UV)" != 0 ] && { test -x $(UV) && $(UV) --version | grep -qF "$(UV_PIN)" || \
	    $(PY) -m pip install --quiet --disable-pip-version-check -r requirements-uv.txt; }; then \
	  echo "    with $$($(UV) --version)"; \
	  $(UV) pip install --python $(PY) --compile-bytecode -r requirements-dev.txt || exit 1; \
	else \
	  echo "    with pip (USE_UV=0, or uv could not be installed)"; \
	  $(PY) -m pip install --disable-pip-version-check --progress-bar off -r requirements-dev.txt || exit 1; \
	fi; \
	echo "    Python packages: $$(( $$(date +%s) - start )) s"
	@touch $@

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

test: setup
	$(VENV)/bin/ruff check .
	$(PY) -m pytest

lint: setup
	$(VENV)/bin/ruff check .

bench: setup
	$(PY) bench/synth_bench.py
	$(PY) bench/pipeline_scale.py

# Validate configuration files without the CDK (exit code 2 on a mistake): make check-config [ENV=name]
check-config: setup
	$(PY) -m deployment_config $(ENV)

# Generated files: the JSON Schema of the configuration files (schema/), from the loader's models, and the EC2
# instance type names (deployment_config/data/), from botocore's EC2 model. Tests fail when either is stale.
schema: setup
	$(PY) -m deployment_config.schema
	$(PY) -m deployment_config.ec2_instance_types

# Typed bindings of the CRDs the charts write (charts/imports/, committed; SOURCE.json names each CRD and its digest,
# and a test fails when a CRD changed without this): cdk8s import with the CLI pinned in package.json.
crd-bindings: setup
	$(PY) -m charts.imports.generate

# The vLLM recipes vendored in deployment_config/data/recipes/ (SOURCE.md there): after copying a new recipe file,
# rewrite recipes.lock.json (its sha256 and the profiles derived from it); tests/test_recipe.py fails until then.
recipes: setup
	$(PY) -m deployment_config.recipe

pipeline: setup
	npx cdk synth --quiet --no-notices -c pipeline=$(or $(PIPELINE),example)

clean:
	rm -rf cdk.out .pytest_cache bench/out
