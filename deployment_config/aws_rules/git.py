"""Git branch names, as ``git check-ref-format --branch`` accepts them."""

from __future__ import annotations

import unicodedata

from deployment_config.aws_rules._characters import _describe_char
from deployment_config.errors import Problem, quoted

# Source: git (github.com/git/git @1a3e64c6c4a623626ff0687008732a8e007e2a1c), Documentation/git-check-ref-format.adoc
# and refs.c (refname_disposition, check_refname_component, check_or_sanitize_refname, check_branch_ref), which
# `git check-ref-format --branch NAME` runs on "refs/heads/NAME":
#   - no ASCII control character (below \040, or \177 DEL), space, ~ ^ : ? * [ or \ anywhere;
#   - no "..", no "@{";  no component that begins with "." or ends with ".lock";
#   - no empty component: not beginning or ending with "/", no "//";  not ending with ".";
#   - check_branch_ref: not beginning with "-", not "HEAD";  the documentation: not the single character "@"
#     (which `--branch` also reads as a shorthand for HEAD).
# Bytes above \177 (non-ASCII) are allowed by git; text_problem() (text.py) refuses the invisible ones. A str that cannot be
# encoded in UTF-8 (unpaired surrogates) is refused: it could never be written to a ref.
_GIT_FORBIDDEN = frozenset(" ~^:?*[\\")


def git_branch_problem(branch: str) -> Problem | None:
    """``None`` if ``git check-ref-format --branch`` accepts ``branch`` as a branch name."""
    fix = "use a name such as 'main' or 'release/2026-11'"
    if not branch:
        return Problem(problem="the branch name is empty", fix=fix)
    for index, ch in enumerate(branch):
        if (
            ord(ch) < 0o40
            or ord(ch) == 0o177
            or ch in _GIT_FORBIDDEN
            or unicodedata.category(ch) == "Cs"
        ):
            shown = _describe_char(ch) if ch != " " else "a space"
            return Problem(
                problem=f"the branch name {quoted(branch)} contains {shown} at position {index + 1}; git branch names "
                "cannot contain control characters, spaces or any of ~ ^ : ? * [ \\",
                fix=fix,
            )
    refused = ", which git does not allow in a branch name"
    rules = (
        (branch.startswith("-"), "begins with '-'" + refused),
        (branch == "HEAD", "is HEAD, which git reserves for the current checkout"),
        (branch == "@", "is '@', which git reads as HEAD"),
        (".." in branch, "contains '..'" + refused),
        ("@{" in branch, "contains '@{'" + refused),
        (
            branch.startswith("/") or branch.endswith("/") or "//" in branch,
            "begins or ends with '/' or contains '//' (an empty path component)" + refused,
        ),
        (branch.endswith("."), "ends with '.'" + refused),
        (
            any(part.startswith(".") for part in branch.split("/")),
            "has a component that begins with '.'" + refused,
        ),
        (
            any(part.endswith(".lock") for part in branch.split("/")),
            "has a component that ends with '.lock'" + refused,
        ),
    )
    for broken, what in rules:
        if broken:
            return Problem(problem=f"the branch name {quoted(branch)} {what}", fix=fix)
    return None
