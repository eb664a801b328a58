"""Expected failures: each is one message with a fix and its own exit code, never a traceback. The codes and the
error are the endpoint probe's (endpoint_probe/errors.py, standard library only); this module translates the AWS SDK's
errors into them."""

from __future__ import annotations

import botocore.exceptions
import botocore.parsers

from deployment_config.errors import quoted
from endpoint_probe.errors import THROTTLING_CODES, ExitCode, OpsError

#: ``value`` as a message quotes it: repr'd (so control characters and trailing newlines show), cut to 80 characters; the
#: configuration's own rule, so that the CLI and the loader quote alike.
shown = quoted

_CREDENTIAL_CODES = {
    "ExpiredToken",
    "ExpiredTokenException",
    "RequestExpired",
    "InvalidClientTokenId",
    "UnrecognizedClientException",
    "AuthFailure",
    "InvalidToken",
}
_ACCESS_CODES = {
    "AccessDenied",
    "AccessDeniedException",
    "UnauthorizedOperation",
    "UnauthorizedException",
}
_CAPACITY_CODES = {
    "InsufficientInstanceCapacity",
    "InsufficientCapacity",
    "InsufficientCapacityException",
    "ResourceLimitExceeded",
    "CapacityNotAvailable",
}
_NOT_FOUND_CODES = {
    "ResourceNotFound",
    "ResourceNotFoundException",
    "InvalidCapacityReservationId.NotFound",
    "InvalidCapacityReservationId.Malformed",
}


#: What the AWS SDK raises for a call that failed: :func:`translate` makes each an OpsError. botocore's parser error
#: (a body that is not the service's format) is an ``Exception``, outside BotoCoreError.
SDK_ERRORS = (
    botocore.exceptions.ClientError,
    botocore.exceptions.BotoCoreError,
    botocore.parsers.ResponseParserError,
)


def unexpected_answer(message: str) -> OpsError:
    """An answer that came, but not in the shape asked for (exit 21): a proxy's or a captive portal's page instead of
    AWS's, a field of the wrong type, a list that does not end."""
    return OpsError(
        message,
        "check that nothing between here and AWS answers in its place (a proxy, a VPN's sign-in page, "
        "AWS_ENDPOINT_URL_*), then run again; the same call with the AWS CLI and --debug shows the raw answer",
        ExitCode.UNEXPECTED_ANSWER,
    )


def error_code(error: botocore.exceptions.ClientError) -> str:
    return error.response.get("Error", {}).get("Code", "")


_PROFILE_FIX = "use a profile that `aws configure list-profiles` lists (AWS_PROFILE=NAME), or unset AWS_PROFILE"


def translate(error: Exception, action: str) -> OpsError:
    """Turn a boto3/botocore exception raised while doing ``action`` into an :class:`OpsError`.

    Covers the SDK's own set-up failures too (a profile that does not exist, an unparsable ~/.aws/config, no region,
    an invalid retry setting...), which botocore raises while a client is created or its credentials are resolved.
    """
    exc = botocore.exceptions
    if isinstance(error, OpsError):
        return error
    if isinstance(error, exc.ProfileNotFound):
        profile = error.kwargs.get("profile", "?")
        return OpsError(
            f"the AWS profile {shown(profile)} does not exist (in the AWS config and credentials files) "
            f"while trying to {action}",
            _PROFILE_FIX,
            ExitCode.CREDENTIALS,
        )
    if isinstance(error, exc.ConfigParseError):
        path = error.kwargs.get("path", "the AWS config file")
        return OpsError(
            f"cannot parse the AWS configuration file {path} while trying to {action}",
            f"fix the syntax of {path} (INI sections such as [profile NAME] with key = value lines), or point "
            "AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE at a valid file; `aws configure list` shows what "
            "is read",
            ExitCode.USAGE,
        )
    if isinstance(error, exc.ConfigNotFound):
        return OpsError(
            f"the AWS configuration file {error.kwargs.get('path', '')} does not exist while trying to {action}",
            "create it with `aws configure`, or unset AWS_CONFIG_FILE",
            ExitCode.USAGE,
        )
    if isinstance(error, exc.NoRegionError):
        return OpsError(
            f"no AWS region while trying to {action}",
            "pass --region, --env NAME, or set AWS_REGION",
            ExitCode.USAGE,
        )
    if isinstance(error, (exc.InvalidRegionError, exc.UnknownRegionError)):
        return OpsError(
            f"the AWS SDK refused the region while trying to {action}: {error}",
            "pass a region code such as --region us-west-2",
            ExitCode.USAGE,
        )
    if isinstance(
        error,
        (
            exc.InvalidRetryConfigurationError,
            exc.InvalidConfigError,
            exc.InvalidProxiesConfigError,
            exc.InvalidEndpointConfigurationError,
            exc.InvalidSTSRegionalEndpointsConfigError,
        ),
    ):
        return OpsError(
            f"invalid AWS SDK setting while trying to {action}: {error}",
            "correct or unset the AWS_* environment variable or ~/.aws/config entry it names",
            ExitCode.USAGE,
        )
    if isinstance(error, exc.UnknownCredentialError):
        return OpsError(
            f"the AWS profile names an unknown credential source while trying to {action}: {error}",
            "fix credential_source in the profile (Environment, Ec2InstanceMetadata or EcsContainer)",
            ExitCode.CREDENTIALS,
        )
    if isinstance(error, (exc.NoCredentialsError, exc.PartialCredentialsError)):
        return OpsError(
            f"no AWS credentials while trying to {action}",
            "configure credentials (aws configure sso, AWS_PROFILE=..., or environment variables)",
            ExitCode.CREDENTIALS,
        )
    if isinstance(error, (exc.TokenRetrievalError, exc.SSOError, exc.NoAuthTokenError)):
        return OpsError(
            f"the AWS session has expired while trying to {action}",
            "log in again: aws sso login",
            ExitCode.CREDENTIALS,
        )
    if isinstance(error, exc.CredentialRetrievalError):
        return OpsError(
            f"could not get AWS credentials while trying to {action}: {error}",
            "check the profile's credential_process / role settings (`aws sts get-caller-identity` shows "
            "the same error), or log in again",
            ExitCode.CREDENTIALS,
        )
    if isinstance(error, exc.ParamValidationError):
        return OpsError(
            f"invalid request parameters while trying to {action}: {error}",
            "check the values given on the command line",
            ExitCode.USAGE,
        )
    if isinstance(error, exc.EndpointConnectionError):
        return OpsError(
            f"cannot reach AWS while trying to {action}: {error}",
            "check the network and the region",
            ExitCode.AWS_ERROR,
        )
    if isinstance(error, exc.ClientError):
        code = error_code(error)
        text = error.response.get("Error", {}).get("Message", "") or code
        if code in _CREDENTIAL_CODES:
            return OpsError(
                f"AWS rejected the credentials while trying to {action} ({code}: {text})",
                "refresh them (aws sso login, or new keys) and run again",
                ExitCode.CREDENTIALS,
            )
        if code in _ACCESS_CODES:
            return OpsError(
                f"access denied while trying to {action} ({text})",
                "use a role that allows this call, or ask your administrator for it",
                ExitCode.ACCESS_DENIED,
            )
        if code in THROTTLING_CODES:
            return OpsError(
                f"AWS kept throttling the requests to {action}, even after retrying with backoff",
                "wait a minute and run again",
                ExitCode.THROTTLED,
            )
        if code in _CAPACITY_CODES:
            return OpsError(
                f"not enough capacity to {action} ({code}: {text})",
                "pick another offering, zone or date range",
                ExitCode.INSUFFICIENT_CAPACITY,
            )
        if code in _NOT_FOUND_CODES:
            return OpsError(
                f"not found while trying to {action} ({code}: {text})",
                "check the id or name and the region",
                ExitCode.NOT_FOUND,
            )
        if code == "ResourceInUse":
            return OpsError(
                f"already exists: {text}", "choose another name", ExitCode.ALREADY_EXISTS
            )
        return OpsError(
            f"AWS error while trying to {action} ({code}: {text})",
            "see the message above",
            ExitCode.AWS_ERROR,
        )
    if isinstance(error, botocore.parsers.ResponseParserError):  # an Exception, not a BotoCoreError
        return unexpected_answer(
            f"the answer to the request to {action} is not in the service's format (botocore: "
            f"{str(error).split(',')[0]})"
        )
    if isinstance(error, exc.BotoCoreError):
        return OpsError(
            f"AWS SDK error while trying to {action}: {error}",
            "see the message above",
            ExitCode.AWS_ERROR,
        )
    raise error
