"""deployment_config.aws_rules.images: container image references."""

from __future__ import annotations

import pytest

from deployment_config.aws_rules.images import image_problem
from tests.deployment_config.aws_rules.checks import HUGE, bounded, refused

# ---------------------------------------------------------------------------------------------------- images

DIGEST = "sha256:" + "0123456789abcdef" * 4


@pytest.mark.parametrize(
    "image",
    [
        "vllm/vllm-openai:kimi-k3",
        "vllm/vllm-openai",
        "ubuntu",
        "ubuntu:22.04",
        "localhost:5000/team/app:1.0",
        f"123456789012.dkr.ecr.us-west-2.amazonaws.com/vllm:v0.11.0@{DIGEST}",
        f"vllm/vllm-openai@{DIGEST}",
        "MyRegistry.example.com/vllm:Latest",
        "[::1]:5000/app",
        "a__b/c-d--e.f",
        "x/" + "a" * 253,
        "vllm/vllm-openai:" + "t" * 128,
        "nvcr.io/nvidia/k8s-device-plugin:v0.17.0",
    ],
)
def test_image_references_are_accepted(image):
    assert image_problem(image) is None


@pytest.mark.parametrize(
    ("image", "words"),
    [
        ("Vllm/vllm-openai:x", ("upper-case",)),
        ("vllm/VLLM-openai", ("upper-case",)),
        ("vllm/vllm openai", ("whitespace",)),
        ("vllm/vllm-openai ", ("whitespace",)),
        ("vllm/vllm-openai\n", ("line feed",)),
        ("vllm/vllm-openai:", ("tag ''",)),
        ("vllm/vllm-openai:.x", ("tag",)),
        ("vllm/vllm-openai:" + "t" * 129, ("tag", "128")),
        ("vllm/vllm-openai@sha256:abc", ("digest",)),
        ("vllm/vllm-openai@sha256:" + "A" * 64, ("digest", "lower-case")),
        ("vllm/vllm-openai@md5:" + "a" * 32, ("digest",)),
        ("vllm//x", ("not a container image reference",)),
        ("-x/y", ("not a container image reference",)),
        ("", ("empty",)),
        ("a" * 256, ("256 characters", "255")),
        (HUGE, ("3000 characters",)),
    ],
)
def test_other_images_are_refused(image, words):
    bounded(refused(image_problem(image), *words), image)
