"""Hugging Face repository ids (``owner/name``), as huggingface_hub validates them."""

from __future__ import annotations

import re

from deployment_config.aws_rules._characters import _surface_problem
from deployment_config.errors import Problem, quoted

# Source: huggingface_hub, src/huggingface_hub/utils/_validators.py (github.com/huggingface/huggingface_hub
# @ee0a4510f4bc15e26cb722be2efc2bdb01383ca0), validate_repo_id and REPO_ID_REGEX:
#   ^(\b[\w\-.]+\b/)?\b[\w\-.]{1,96}\b$  -- an optional namespace, a name of 1 to 96 characters, each part
#   starting and ending with a word character (so not with '-' or '.'); plus: at most one '/', no '--' or '..',
#   no '.git' at the end. Its docstring: "[a-zA-Z0-9] or '-', '_', '.'", so \w is read as ASCII here (Python's \w
#   would take any Unicode letter, and its '$' would take a trailing newline). This project requires the
#   namespace (owner/name), and bounds it at 96 characters like the name.
HF_NAME_MAX_LENGTH = 96
_HF_PART = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?", re.ASCII)


def hugging_face_id_problem(model_id: str) -> Problem | None:
    """``None`` if ``model_id`` is a Hugging Face repository id ``owner/name`` (as huggingface_hub validates it)."""
    example = "moonshotai/Kimi-K3"
    surface = _surface_problem(model_id, "the Hugging Face model id")
    if surface is not None:
        return surface
    if model_id.count("/") != 1:
        if "/" not in model_id:
            return Problem(
                problem=f"the Hugging Face model id {quoted(model_id)} has no owner",
                fix=f"write it as owner/name, as on the model's page, for example {example!r}",
            )
        shown = "/".join(model_id.split("/")[-2:])[:200]
        return Problem(
            problem=f"the Hugging Face model id {quoted(model_id)} has more than one '/'",
            fix=f"write only owner/name, without 'https://huggingface.co/' or 'models/', for example {quoted(shown)}",
        )
    for part, label in zip(model_id.split("/"), ("owner", "name")):
        if not part:
            return Problem(
                problem=f"the Hugging Face model id {quoted(model_id)} has an empty {label}",
                fix=f"write it as owner/name, for example {example!r}",
            )
        if len(part) > HF_NAME_MAX_LENGTH:
            return Problem(
                problem=f"the {label} in the Hugging Face model id {quoted(model_id)} is {len(part)} characters long; "
                f"the Hub allows at most {HF_NAME_MAX_LENGTH}",
                fix="copy the id from the model's page on huggingface.co",
            )
        if not _HF_PART.fullmatch(part):
            return Problem(
                problem=f"the {label} in the Hugging Face model id {quoted(model_id)} must use only A-Z a-z 0-9 - _ . "
                "and start and end with a letter, digit or '_'",
                fix=f"copy the id from the model's page on huggingface.co, for example {example!r}",
            )
    if "--" in model_id or ".." in model_id:
        return Problem(
            problem=f"the Hugging Face model id {quoted(model_id)} contains '--' or '..', which the Hub forbids",
            fix="copy the id from the model's page on huggingface.co",
        )
    if model_id.endswith(".git"):
        return Problem(
            problem=f"the Hugging Face model id {quoted(model_id)} ends with '.git'",
            fix=f"drop '.git': {model_id[:-4]!r}",
        )
    return None
