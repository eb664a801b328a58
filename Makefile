# Two commands set everything up on a fresh machine:
#   make synth   create .venv, install the pinned Python and Node dependencies, synthesize the default app
#   make test    the same set-up, then the test suite (quality gates included)
# No AWS account, credentials or network beyond the package registries are needed.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
ENV ?=
CDK_CONTEXT := $(if $(ENV),-c env=$(ENV),)

# jsii warns on every start that Node 20 is end-of-life; the CDK CLI must not phone home.
export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION := 1
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20
export CDK_DISABLE_CLI_TELEMETRY := true

.PHONY: synth test lint bench clean setup pipeline schema check-config

setup: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt requirements-ops.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

synth: setup
	npx cdk synth --quiet --no-notices $(CDK_CONTEXT)
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

pipeline: setup
	npx cdk synth --quiet --no-notices -c pipeline=$(or $(PIPELINE),example)

clean:
	rm -rf cdk.out .pytest_cache bench/out
