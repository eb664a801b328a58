"""The one error type that configuration problems raise.

Every message names the file, the field (as a dotted path), what was wrong, and how to fix it,
so that a user can act on it without reading code.
"""

from __future__ import annotations


class ConfigError(Exception):
    """A configuration value that cannot be deployed.

    :param field: dotted path of the offending field, for example ``capacity.availability_zone``.
    :param problem: what is wrong with the value, in one sentence.
    :param fix: what the user should change, in one sentence.
    :param source: the file the value came from; filled in by the loader when it is known.
    """

    def __init__(self, field: str, problem: str, fix: str, source: str | None = None) -> None:
        self.field = field
        self.problem = problem
        self.fix = fix
        self.source = source
        super().__init__(self.message)

    @property
    def summary(self) -> str:
        """Where and what, without the fix: for callers that print the fix on a line of their own."""
        where = f"{self.source}: " if self.source else ""
        return f"{where}{self.field}: {self.problem}"

    @property
    def message(self) -> str:
        return f"{self.summary}\n  fix: {self.fix}"

    def __str__(self) -> str:
        return self.message

    def with_source(self, source: str) -> ConfigError:
        return ConfigError(self.field, self.problem, self.fix, source=source)
