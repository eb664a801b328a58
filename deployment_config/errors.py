"""The one error type that configuration problems raise, and the small value the rule modules return.

Every message names the file, the field (as a dotted path), what was wrong, and how to fix it, so that a user
can act on it without reading code. A file with several mistakes raises one :class:`ConfigError` that holds
all of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from deployment_config.pasted_secrets import SCAN_CHARS, find_token, redact

#: The longest value quoted back in a message: a 3,000-character region must not become a 3,000-character message.
MAX_QUOTED = 80
#: The most mistakes one message lists; the rest are counted. A file of 10,000 unknown keys gets a readable message.
MAX_LISTED = 25


def quoted(value: object) -> str:
    """``value`` as a message quotes it: repr'd (so control characters show), cut to :data:`MAX_QUOTED`, and with any
    token of a known shape shown as its prefix and length only (:func:`deployment_config.pasted_secrets.redact`)."""
    text = value if isinstance(value, str) else str(value)
    shown = repr(redact(text[:SCAN_CHARS])[:MAX_QUOTED])
    return shown + (f"... ({len(text)} characters)" if len(text) > MAX_QUOTED else "")


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_.:/=+@-]{1,64}")


def key_in_path(key: object) -> str:
    """A mapping key as a field path shows it: plain keys as they are, anything else (a newline, 5,000 characters, a
    number) quoted and cut, so that a key can neither forge a line of the message nor flood it."""
    plain = isinstance(key, str) and _PLAIN_KEY.fullmatch(key) and find_token(key) is None
    return key if plain else quoted(key)


def shown_number(value: object) -> str:
    """A number as a message shows it: whole when short, quoted and cut when it has hundreds of digits."""
    text = str(value)
    return text if len(text) <= 24 else quoted(text)


@dataclass(frozen=True)
class Problem:
    """What is wrong with one value, and how to fix it; a rule returns it, the loader adds the field's path."""

    problem: str
    fix: str


@dataclass(frozen=True)
class ConfigIssue:
    """One mistake: the dotted path of the field, what is wrong, and the fix."""

    field: str
    problem: str
    fix: str

    def __post_init__(self) -> None:
        # The last line of defence: whatever built the message, no token of a known shape is printed back.
        for name in ("field", "problem", "fix"):
            object.__setattr__(self, name, redact(getattr(self, name)))

    @property
    def summary(self) -> str:
        return f"{self.field}: {self.problem}"

    @property
    def message(self) -> str:
        return f"{self.summary}\n  fix: {self.fix}"


class ConfigError(Exception):
    """A configuration that cannot be deployed: one or more :class:`ConfigIssue`.

    :param field: dotted path of the offending field, for example ``capacity.availability_zone``.
    :param problem: what is wrong with the value, in one sentence.
    :param fix: what the user should change, in one sentence.
    :param source: the file the value came from; filled in by the loader when it is known.
    """

    def __init__(self, field: str, problem: str, fix: str, source: str | None = None) -> None:
        self.issues: tuple[ConfigIssue, ...] = (ConfigIssue(field, problem, fix),)
        self.source = source
        super().__init__(self.message)

    @classmethod
    def of(cls, issues: Iterable[ConfigIssue], source: str | None = None) -> ConfigError:
        """One error holding every issue, in the order given (duplicates dropped)."""
        unique = tuple(dict.fromkeys(issues))
        if not unique:
            raise ValueError("a ConfigError needs at least one issue")
        error = cls(unique[0].field, unique[0].problem, unique[0].fix, source)
        error.issues = unique
        error.args = (error.message,)
        return error

    # The first issue's parts, for callers that handle one mistake at a time.
    @property
    def field(self) -> str:
        return self.issues[0].field

    @property
    def problem(self) -> str:
        return self.issues[0].problem

    @property
    def fix(self) -> str:
        return (
            self.issues[0].fix
            if len(self.issues) == 1
            else "fix each field listed above, then run again"
        )

    @property
    def summary(self) -> str:
        """Where and what, without the fix: for callers that print the fix on a line of their own."""
        where = f"{self.source}: " if self.source else ""
        if len(self.issues) == 1:
            return f"{where}{self.issues[0].summary}"
        listed = "".join(
            f"\n  - {issue.summary}\n    fix: {issue.fix}" for issue in self.issues[:MAX_LISTED]
        )
        more = len(self.issues) - MAX_LISTED
        if more > 0:
            listed += f"\n  ... and {more} more (fix the ones above, then run again)"
        return f"{where}{len(self.issues)} problems:{listed}"

    @property
    def message(self) -> str:
        if len(self.issues) == 1:
            return f"{self.summary}\n  fix: {self.fix}"
        return self.summary

    def __str__(self) -> str:
        return self.message
