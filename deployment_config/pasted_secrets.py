"""Tokens pasted into the configuration where a secret's *name* goes: found by their published shape, never echoed.

A token in the configuration file is in clear text in the repository, in the synthesized templates and in the
cluster's manifests. The loader refuses any string field that holds one (:func:`deployment_config.aws_rules.
text_problem`), and every message quotes values through :func:`redact` (:func:`deployment_config.errors.quoted`), so
that no message prints a token back: at most its prefix and its length.

Shapes, each from its source:

- Hugging Face user access token: ``hf_`` followed by 34 letters, the rule gitleaks matches
  (gitleaks/gitleaks@7c56229a9a0ba367cdffdd45e0034274f68dd470 cmd/generate/config/rules/huggingface.go,
  ``hf_(?i:[a-z]{34})``; the Hub's page https://huggingface.co/docs/hub/security-tokens shows tokens as ``hf_...``).
  Organization API tokens (deprecated): ``api_org_`` and 34 letters (same file). Matched here with 30 or more letters
  or digits, so that a token of a slightly changed length or alphabet is still caught; no secret name of that shape
  is plausible (names use '/' or '-' between words).
- Docker Hub personal access token: ``dckr_pat_`` and a random part (Docker Hub API reference, "Create access token",
  https://docs.docker.com/reference/api/hub/latest/operations/AuthCreateAccessToken, whose example secret is
  ``dckr_pat_124509ugsdjga93``); matched with 12 or more of ``[A-Za-z0-9_-]``.

Nothing here imports the rest of the project: :mod:`deployment_config.errors` imports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["PastedToken", "find_token", "redact"]


@dataclass(frozen=True)
class TokenShape:
    """A token's published shape, and where such a token belongs in this project instead."""

    kind: str
    prefix: str
    pattern: re.Pattern[str]
    revoke: str
    store: str


# The store commands read the token from the terminal without echoing it and pass it on standard input, so that it
# is neither in a file, nor in the shell's history, nor in the process list (printf is a shell builtin). The AWS CLI
# reads a parameter from a file with file:// (AWS CLI User Guide, "Loading AWS CLI parameters from a file",
# https://docs.aws.amazon.com/cli/latest/userguide/cli-usage-parameters-file.html); Secrets Manager User Guide,
# "Mitigate the risks of using the AWS CLI to store your AWS Secrets Manager secrets"
# (https://docs.aws.amazon.com/secretsmanager/latest/userguide/security_cli-exposure-risks.html) for why not inline.
_HF_STORE = (
    "store it (or its replacement) in AWS Secrets Manager without writing it to a file or a command line: "
    '`read -rs HF_TOKEN && printf %s "$HF_TOKEN" | aws secretsmanager create-secret --name llm-serving/hf-token '
    "--secret-string file:///dev/stdin; unset HF_TOKEN` (paste the token, then Enter), and set "
    "model.hugging_face_token_secret: llm-serving/hf-token"
)
_SHAPES = (
    TokenShape(
        "a Hugging Face access token",
        "hf_",
        re.compile(r"(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}"),
        "huggingface.co/settings/tokens",
        _HF_STORE,
    ),
    TokenShape(
        "a Hugging Face organization API token",
        "api_org_",
        re.compile(r"(?<![A-Za-z0-9])api_org_[A-Za-z0-9]{30,}"),
        "huggingface.co/settings/tokens",
        _HF_STORE,
    ),
    TokenShape(
        "a Docker Hub access token",
        "dckr_pat_",
        re.compile(r"(?<![A-Za-z0-9])dckr_pat_[A-Za-z0-9_-]{12,}"),
        "hub.docker.com, Account settings, Personal access tokens",
        "store the user name and the token (or its replacement) in AWS Secrets Manager as the secret "
        "ecr-pullthroughcache/docker-hub (docs/security.md, 'The image through an ECR pull-through cache', "
        "shows how), and set "
        "model.image_cache.docker_hub_credentials_secret_arn to its ARN",
    ),
)
#: How far into a value tokens are looked for when it is quoted: past the quoted part, so that a token that begins
#: inside it is hidden whole.
SCAN_CHARS = 4096


@dataclass(frozen=True)
class PastedToken:
    """A token found in a value: what it is, how it is shown (prefix and length), and where it belongs."""

    shape: TokenShape
    length: int

    @property
    def shown(self) -> str:
        return f"{self.shape.prefix}\u2026 ({self.length} characters)"


def find_token(text: str) -> PastedToken | None:
    """The first token of a known shape in ``text`` (looked for in its first :data:`SCAN_CHARS` characters)."""
    head = text[:SCAN_CHARS]
    for shape in _SHAPES:
        match = shape.pattern.search(head)
        if match:
            return PastedToken(shape, len(match.group()))
    return None


def redact(text: str) -> str:
    """``text`` with every token of a known shape replaced by its prefix and length (``hf_… (37 characters)``)."""
    head, tail = text[:SCAN_CHARS], text[SCAN_CHARS:]
    for shape in _SHAPES:
        head = shape.pattern.sub(
            lambda match, s=shape: PastedToken(s, len(match.group())).shown, head
        )
    return head + tail
