"""The access variant (a pytest plugin of tests/conftest.py), read by tests/stacks/test_access_stack.py,
tests/stacks/test_inventory.py and tests/docs/test_doc_figures.py and built once per test process instead of once per
file: the example EKS environment as ``reach`` and the example HyperPod environment as ``reach-hp``, each with the
access host on, in one app (cdk-nag runs on both when it synthesizes).

Session-scoped: built by the first of the files a process runs, reused by the others (all of them with ``-n 0``, and
with xdist because tests/scheduling.py's SAME_WORKER gives them to one worker).
"""

from __future__ import annotations

import dataclasses

import pytest


@pytest.fixture(scope="session")
def access_envs(default_env, hyperpod_env):
    from deployment_config.sections.access import AccessSection

    on = AccessSection(enabled=True)
    return [
        dataclasses.replace(default_env, name="reach", access=on),
        dataclasses.replace(hyperpod_env, name="reach-hp", access=on),
    ]


@pytest.fixture(scope="session")
def access_assembly(access_envs, tmp_path_factory):
    """The cloud assembly (aws_cdk.cx_api.CloudAssembly) of both environments with access on."""
    from app import checked_app
    from stacks.composition import add_environment

    app = checked_app(str(tmp_path_factory.mktemp("access.out")), inspect_only=True)
    for env in access_envs:
        add_environment(app, env)
    return app.synth()  # cdk-nag runs here and fails the synthesis on an unacknowledged finding
