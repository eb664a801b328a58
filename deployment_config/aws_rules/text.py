"""Generic text: the check every string field of the configuration goes through, and tokens pasted into it."""

from __future__ import annotations

from deployment_config.aws_rules._characters import _invisible_problem
from deployment_config.errors import Problem, quoted
from deployment_config.pasted_secrets import find_token


def text_problem(value: str, *, max_length: int) -> Problem | None:
    """The check every string field of the configuration goes through.

    Refuses control and invisible characters anywhere (Unicode categories Cc, Cf, Cs, Zl, Zp: a trailing newline,
    tab, NUL, zero-width spaces, bidi overrides, BOM, line separators), leading or trailing whitespace, and more than
    ``max_length`` characters (code points). The empty string passes: whether a field is required is the loader's call.
    First of all it refuses a token pasted into the file (:func:`pasted_token_problem`).
    """
    pasted = pasted_token_problem(value)
    if pasted is not None:
        return pasted
    invisible = _invisible_problem(value, "")
    if invisible is not None:
        return invisible
    stripped = value.strip()
    if stripped != value:
        return Problem(
            problem=f"{quoted(value)} has leading or trailing whitespace",
            fix=f"remove the surrounding spaces: {quoted(stripped)}",
        )
    if len(value) > max_length:
        return Problem(
            problem=f"{quoted(value)} is {len(value)} characters long; at most {max(max_length, 0)} are allowed",
            fix=f"shorten it to {max(max_length, 0)} characters or fewer",
        )
    return None


def pasted_token_problem(value: str) -> Problem | None:
    """A token itself (a Hugging Face or Docker Hub token, by its published shape: :mod:`deployment_config.
    pasted_secrets`) where a secret's name or any other setting goes; the message shows only its prefix and length."""
    token = find_token(value)
    if token is None:
        return None
    shape = token.shape
    return Problem(
        problem=f"holds {shape.kind} itself ({token.shown}), not the name of the secret that holds it: a token "
        "in the configuration file is in clear text in the repository, the synthesized templates and the cluster's "
        "manifests",
        fix=f"never put a token in a file. Remove it; if this file was committed or shared, revoke the token "
        f"({shape.revoke}). Then {shape.store}",
    )
