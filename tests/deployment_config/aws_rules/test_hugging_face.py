"""deployment_config.aws_rules.hugging_face: Hugging Face repository ids."""

from __future__ import annotations

import pytest

from deployment_config.aws_rules.hugging_face import hugging_face_id_problem
from tests.deployment_config.aws_rules.checks import refused

# ---------------------------------------------------------------------------------------------------- Hugging Face


@pytest.mark.parametrize(
    "model_id",
    [
        "moonshotai/Kimi-K3",
        "meta-llama/Llama-3.1-8B-Instruct",
        "a/b",
        "org_1/model.v2",
        "o/" + "n" * 96,
    ],
)
def test_hugging_face_ids_are_accepted(model_id):
    assert hugging_face_id_problem(model_id) is None


@pytest.mark.parametrize(
    ("model_id", "words"),
    [
        ("gpt2", ("no owner",)),
        (
            "https://huggingface.co/moonshotai/Kimi-K3",
            ("more than one '/'", "'moonshotai/Kimi-K3'"),
        ),
        ("datasets/a/b", ("more than one '/'",)),
        ("/Kimi-K3", ("empty owner",)),
        ("moonshotai/", ("empty name",)),
        ("-org/model", ("owner",)),
        ("org/model.", ("name",)),
        ("org/mo del", ("name",)),
        ("org/mödel", ("name",)),
        ("org/a--b", ("'--'",)),
        ("org/a..b", ("'..'",)),
        ("org/model.git", ("'.git'", "'org/model'")),
        ("org/" + "n" * 97, ("97 characters", "96")),
        ("moonshotai/Kimi-K3\n", ("line feed",)),
    ],
)
def test_other_hugging_face_ids_are_refused(model_id, words):
    refused(hugging_face_id_problem(model_id), *words)
