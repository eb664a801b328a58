"""Expected failures: each is one message with a fix and its own exit code, never a traceback."""

from __future__ import annotations

from enum import IntEnum

import botocore.exceptions


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
    AWS_ERROR = 20  # any other AWS error


class OpsError(Exception):
    """A failure the user can act on.

    :param message: what went wrong, in one sentence.
    :param fix: what to do about it.
    :param exit_code: the process exit code.
    """

    def __init__(self, message: str, fix: str, exit_code: ExitCode) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix
        self.exit_code = exit_code

    def to_dict(self) -> dict:
        return {"error": self.message, "fix": self.fix, "exit_code": int(self.exit_code), "kind": self.exit_code.name}


THROTTLING_CODES = {"Throttling", "ThrottlingException", "RequestLimitExceeded", "TooManyRequestsException",
                    "RequestThrottled", "SlowDown"}
_CREDENTIAL_CODES = {"ExpiredToken", "ExpiredTokenException", "RequestExpired", "InvalidClientTokenId",
                     "UnrecognizedClientException", "AuthFailure", "InvalidToken"}
_ACCESS_CODES = {"AccessDenied", "AccessDeniedException", "UnauthorizedOperation", "UnauthorizedException"}
_CAPACITY_CODES = {"InsufficientInstanceCapacity", "InsufficientCapacity", "InsufficientCapacityException",
                   "ResourceLimitExceeded", "CapacityNotAvailable"}
_NOT_FOUND_CODES = {"ResourceNotFound", "ResourceNotFoundException", "InvalidCapacityReservationId.NotFound",
                    "InvalidCapacityReservationId.Malformed"}


def error_code(error: botocore.exceptions.ClientError) -> str:
    return error.response.get("Error", {}).get("Code", "")


def translate(error: Exception, action: str) -> OpsError:
    """Turn a boto3/botocore exception raised while doing ``action`` into an :class:`OpsError`."""
    if isinstance(error, OpsError):
        return error
    if isinstance(error, (botocore.exceptions.NoCredentialsError, botocore.exceptions.PartialCredentialsError)):
        return OpsError(f"no AWS credentials while trying to {action}",
                        "configure credentials (aws configure sso, AWS_PROFILE=..., or environment variables)",
                        ExitCode.CREDENTIALS)
    if isinstance(error, (botocore.exceptions.TokenRetrievalError, botocore.exceptions.SSOTokenLoadError)):
        return OpsError(f"the AWS session has expired while trying to {action}", "log in again: aws sso login",
                        ExitCode.CREDENTIALS)
    if isinstance(error, botocore.exceptions.EndpointConnectionError):
        return OpsError(f"cannot reach AWS while trying to {action}: {error}", "check the network and the region",
                        ExitCode.AWS_ERROR)
    if isinstance(error, botocore.exceptions.ClientError):
        code = error_code(error)
        text = error.response.get("Error", {}).get("Message", "") or code
        if code in _CREDENTIAL_CODES:
            return OpsError(f"AWS rejected the credentials while trying to {action} ({code}: {text})",
                            "refresh them (aws sso login, or new keys) and run again", ExitCode.CREDENTIALS)
        if code in _ACCESS_CODES:
            return OpsError(f"access denied while trying to {action} ({text})",
                            "use a role that allows this call, or ask your administrator for it", ExitCode.ACCESS_DENIED)
        if code in THROTTLING_CODES:
            return OpsError(f"AWS kept throttling the requests to {action}, even after retrying with backoff",
                            "wait a minute and run again", ExitCode.THROTTLED)
        if code in _CAPACITY_CODES:
            return OpsError(f"not enough capacity to {action} ({code}: {text})",
                            "pick another offering, zone or date range", ExitCode.INSUFFICIENT_CAPACITY)
        if code in _NOT_FOUND_CODES:
            return OpsError(f"not found while trying to {action} ({code}: {text})", "check the id or name and the region",
                            ExitCode.NOT_FOUND)
        if code == "ResourceInUse":
            return OpsError(f"already exists: {text}", "choose another name", ExitCode.ALREADY_EXISTS)
        return OpsError(f"AWS error while trying to {action} ({code}: {text})", "see the message above", ExitCode.AWS_ERROR)
    if isinstance(error, botocore.exceptions.BotoCoreError):
        return OpsError(f"AWS SDK error while trying to {action}: {error}", "see the message above", ExitCode.AWS_ERROR)
    raise error
