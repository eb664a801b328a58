"""What the probe reports: a failure the user can act on (:class:`OpsError`, one message with a fix and its own exit
code, never a traceback), the endpoint's own failures, and the helpers that keep what an endpoint sent safe to print.

The CLI's exit codes are defined here, with the errors that carry them, so that the probe, which both ``llmops`` and
the deploy-time smoke test's Lambda function run, needs nothing outside the standard library; ops_cli/errors.py adds
the translation of AWS SDK errors.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    CHECK_FAILED = 1  # a preflight check or the smoke test failed
    USAGE = 2  # bad arguments or configuration
    CONFIRMATION_REQUIRED = 3  # a purchase was asked for without --yes
    CREDENTIALS = 4  # no credentials, or expired ones
    ACCESS_DENIED = 5
    THROTTLED = 6  # still throttled after retrying with backoff
    INSUFFICIENT_CAPACITY = 7
    OFFERING_GONE = 8  # the offering was bought by someone else, or expired
    ALREADY_EXISTS = 9  # a training plan with that name exists
    TIMEOUT = 10  # a wait ran out of time
    NOT_FOUND = 11
    BOUGHT_NOT_WRITTEN = (
        12  # capacity WAS bought, but its id could not be written into the environment file
    )
    PURCHASE_UNKNOWN = (
        13  # a purchase's answer was lost and the lookup could not tell whether it was bought
    )
    AWS_ERROR = 20  # any other AWS error
    UNEXPECTED_ANSWER = 21  # AWS or a tool answered, but not as asked: pages that never end, a body of the wrong shape
    INTERNAL = (
        70  # a bug: an unexpected exception (EX_SOFTWARE); LLMOPS_DEBUG=1 shows the traceback
    )
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)
    STDOUT_CLOSED = 141  # standard output was closed early, as by `| head` (128 + SIGPIPE, like other Unix tools)


class OpsError(Exception):
    """A failure the user can act on.

    :param message: what went wrong, in one sentence.
    :param fix: what to do about it.
    :param exit_code: the process exit code.
    :param details: more for the --json output (for example the reservation that was bought before the failure).
    """

    def __init__(
        self, message: str, fix: str, exit_code: ExitCode, details: dict | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix
        self.exit_code = exit_code
        self.details = details or {}

    def to_dict(self) -> dict:
        return {
            **self.details,
            "error": self.message,
            "fix": self.fix,
            "exit_code": int(self.exit_code),
            "kind": self.exit_code.name,
        }


#: The AWS error codes of throttling: what ops_cli.errors.translate reports as throttled and what the deploy-time check
#: (which has no ops_cli) waits on.
THROTTLING_CODES = {
    "Throttling",
    "ThrottlingException",
    "RequestLimitExceeded",
    "TooManyRequestsException",
    "RequestThrottled",
    "SlowDown",
}


class Unreachable(OpsError):
    """No connection to the endpoint. ``reason`` is the short cause, for progress lines."""

    def __init__(self, message: str, fix: str, reason: str) -> None:
        super().__init__(message, fix, ExitCode.CHECK_FAILED)
        self.reason = reason


class CertificateInvalid(Unreachable):
    """The endpoint's TLS certificate does not verify for the name checked: no wait makes it valid."""


class DeadlineExceeded(OpsError):
    def __init__(self, message: str, fix: str, seconds: float) -> None:
        super().__init__(message, fix, ExitCode.TIMEOUT)
        self.seconds = seconds


class BadResponse(Exception):
    """The endpoint answered, but not with a usable HTTP response; the message says what was wrong."""


def printable(text: str, limit: int = 300) -> str:
    """``text`` safe for a terminal, at most about ``limit`` characters: control characters (escape sequences from a
    hostile server included) are shown escaped."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit + 1])
    return shown[:limit] + "..." if len(shown) > limit else shown


def quoted(text: str, limit: int = 120) -> str:
    return "'" + printable(text, limit) + "'"
