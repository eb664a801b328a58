"""The variant that tests/stacks/test_access_stack.py and tests/stacks/test_inventory.py both read, synthesized once
per test process instead of once per file: the example EKS environment as ``reach`` and the example HyperPod
environment as ``reach-hp``, each with the access host on, in one app (cdk-nag runs on both when it synthesizes).

Session-scoped: built by the first of the two files a process runs, reused by the other (both, with ``-n 0`` or when
xdist's ``--dist loadfile`` gives them to one worker; else each worker builds it once, as each file did before).
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
