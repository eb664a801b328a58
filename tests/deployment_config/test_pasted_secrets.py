"""A token pasted into the configuration file: refused, and never printed back (deployment_config/pasted_secrets.py)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr

import pytest
import yaml

import app
from deployment_config import ConfigError, load_environment, parse_environment
from deployment_config.pasted_secrets import find_token, redact

# Fake tokens of the published shapes (gitleaks' Hugging Face rule; Docker Hub's API reference example).
BODY = "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"
HF_TOKEN = "hf_" + BODY
DOCKER_TOKEN = "dckr_pat_" + BODY[:27]


def test_a_hugging_face_token_where_the_secret_name_goes_is_refused_with_how_to_store_it(
    tmp_path, example_document
):
    # given the token itself pasted into model.hugging_face_token_secret
    document = {**example_document, "model": {"hugging_face_token_secret": HF_TOKEN}}
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    # when the app loads the file as `cdk synth -c env=bad` does
    stderr = io.StringIO()
    with redirect_stderr(stderr):
        code = app.main(
            {
                "CDK_CONTEXT_JSON": json.dumps({"config_dir": str(tmp_path), "env": "bad"}),
                "CDK_OUTDIR": str(tmp_path / "cdk.out"),
            }
        )
    message = stderr.getvalue()
    # then it is refused, shown as its prefix and length only, with the rule and how to store it instead
    assert code == app.EXIT_BAD_CONFIG
    assert BODY not in message and BODY[:8] not in message
    assert "model.hugging_face_token_secret" in message and "hf_\u2026 (37 characters)" in message
    assert "never put a token in a file" in message
    assert (
        "aws secretsmanager create-secret --name llm-serving/hf-token --secret-string file:///dev/stdin"
        in message
    )
    assert not (tmp_path / "cdk.out").exists()


@pytest.mark.parametrize(
    "change",
    [
        {"model": {"hugging_face_token_secret": f"  {HF_TOKEN}\n"}},
        {"model": {"weight_source": HF_TOKEN}},
        {"model": {"served_name": HF_TOKEN + "!"}},
        {"account": HF_TOKEN},
        {"region": HF_TOKEN},
        {"tags": {HF_TOKEN: "x"}},
        {HF_TOKEN: "an unknown key"},
        {"model": {"image_cache": {"docker_hub_credentials_secret_arn": DOCKER_TOKEN}}},
        {"model": {"extra_args": ["--hf-token", HF_TOKEN]}},
    ],
    ids=[
        "secret-with-spaces",
        "literal",
        "pattern",
        "account",
        "region",
        "tag-key",
        "unknown-key",
        "docker",
        "vllm-argument",
    ],
)
def test_no_message_prints_a_token_back_whatever_field_holds_it(example_copy, change):
    example_copy.update(change)
    with pytest.raises(ConfigError) as caught:
        parse_environment(example_copy, name="example")
    message = str(caught.value)
    assert BODY[:8] not in message and BODY[-8:] not in message


def test_a_token_in_a_line_yaml_refuses_is_not_printed_back_either(tmp_path, example_document):
    text = yaml.safe_dump(example_document) + f"{HF_TOKEN}: 1\n{HF_TOKEN}: 2\n"  # a repeated key
    (tmp_path / "bad.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_environment(tmp_path, "bad")
    assert "repeats the key" in str(caught.value) and BODY not in str(caught.value)


@pytest.mark.parametrize(
    "name",
    [
        "llm-serving/hf-token",
        "hf_token",
        "hf-token-for-kimi",
        "prod/hf_read_token_2026",
        "arn:aws:secretsmanager:us-west-2:123456789012:secret:llm-serving/hf-token-AbCdEf",
    ],
)
def test_secret_names_are_not_mistaken_for_tokens(name):
    assert find_token(name) is None and redact(name) == name


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("llm-serving/hf-secret", False),
        ("kimi/hf-tokens", False),
        ("team/huggingface-reader", False),
        ("llm-serving/hf-token-AbC1d2", True),
        ("llm-serving/hf-token-a1b2c3", True),
    ],
)
def test_only_a_suffix_that_looks_like_the_arns_random_one_is_refused(
    tmp_path, example_document, name, refused
):
    # given a secret name ending in '-' and six letters or digits: a real name (AWS's API reference only advises against
    # it) or a name copied with the ARN's random suffix (capitals or digits)
    document = {**example_document, "model": {"hugging_face_token_secret": name}}
    (tmp_path / "env.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    if refused:
        with pytest.raises(ConfigError, match="random suffix"):
            load_environment(tmp_path, "env")
    else:
        assert load_environment(tmp_path, "env").model.hugging_face_token_secret == name
