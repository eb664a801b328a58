"""Container image references (``[host[:port]/]path[:tag][@digest]``), as distribution/reference parses them."""

from __future__ import annotations

import re

from deployment_config.aws_rules._characters import _surface_problem
from deployment_config.errors import Problem, quoted

# Source: github.com/distribution/reference @0965666a6ade2e06035fe352e38344be1e68951a, regexp.go and reference.go:
#   reference := name [ ":" tag ] [ "@" digest ];  name := [domain '/'] remote-name
#   domain-component := [a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9];  domain := host [':' port]
#   host := domain-name | '[' IPv6 ']';  path-component := [a-z0-9]+ (separator [a-z0-9]+)*
#   separator := [._] | __ | [-]+;  tag := [\w][\w.-]{0,127};  digest := algorithm ':' hex (32 or more)
#   RepositoryNameTotalLengthMax = 255 (checked on the path, the name without the domain);
#   ErrNameContainsUppercase when the reference only parses once lower-cased.
# Go's \w is ASCII and its $ is the end of text; Python needs re.ASCII and fullmatch for the same meaning.
# Digests: opencontainers/go-digest (algorithm.go) registers sha256, sha384 and sha512, with lower-case hex of
# 64, 96 and 128 digits (anchoredEncodedRegexps); those are the digests accepted here.
IMAGE_NAME_MAX_LENGTH = 255
_IMAGE_MAX_LENGTH = (
    1024  # far above any valid reference (255 path + host + 128 tag + 135 digest); bounds the work
)
_DOMAIN_COMPONENT = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
_DOMAIN = rf"(?:{_DOMAIN_COMPONENT}(?:\.{_DOMAIN_COMPONENT})*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?"
_PATH_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*"
_REMOTE_NAME = rf"{_PATH_COMPONENT}(?:/{_PATH_COMPONENT})*"
_TAG = r"[\w][\w.-]{0,127}"
_DIGEST = r"[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}"
_REFERENCE = re.compile(
    rf"(?P<name>(?:{_DOMAIN}/)?{_REMOTE_NAME})(?::(?P<tag>{_TAG}))?(?:@(?P<digest>{_DIGEST}))?",
    re.ASCII,
)
_ANCHORED_NAME = re.compile(rf"(?:(?P<domain>{_DOMAIN})/)?(?P<path>{_REMOTE_NAME})", re.ASCII)
_DIGEST_ENCODINGS = {
    "sha256": re.compile("[a-f0-9]{64}"),
    "sha384": re.compile("[a-f0-9]{96}"),
    "sha512": re.compile("[a-f0-9]{128}"),
}


def _image_part_problem(image: str) -> Problem | None:
    """A precise message when the name parses but the tag or the digest does not."""
    rest, _, digest = image.partition("@")
    slash = rest.rfind("/")
    colon = rest.rfind(":")
    name, tag = (rest[:colon], rest[colon + 1 :]) if colon > slash else (rest, None)
    if not _ANCHORED_NAME.fullmatch(name):
        return None
    if tag is not None and not re.fullmatch(_TAG, tag, re.ASCII):
        return Problem(
            problem=f"the tag {quoted(tag)} of the container image {quoted(image)} is not a valid tag: 1 to 128 "
            "letters, digits, '_', '.' or '-', not starting with '.' or '-'",
            fix="use the tag as the registry lists it, for example ':v0.11.0'",
        )
    if "@" in image and not re.fullmatch(_DIGEST, digest, re.ASCII):
        return Problem(
            problem=f"the digest of the container image {quoted(image)} is not sha256: followed by 64 lower-case "
            "hex digits",
            fix="copy the digest from the registry (`docker buildx imagetools inspect IMAGE` shows it), "
            "for example @sha256:" + "0" * 64,
        )
    return None


def image_problem(image: str) -> Problem | None:
    """``None`` if ``image`` is a container image reference ``[host[:port]/]path[:tag][@digest]``.

    Per the distribution/reference grammar: lower-case path components, tag ``[\\w][\\w.-]{0,127}``, digest
    ``sha256:`` + 64 lower-case hex digits (or sha384/sha512), path at most 255 characters.
    """
    example = (
        "vllm/vllm-openai:v0.11.0 or 123456789012.dkr.ecr.us-west-2.amazonaws.com/vllm:v0.11.0"
    )
    if len(image) > _IMAGE_MAX_LENGTH:
        return Problem(
            problem=f"the container image {quoted(image)} is {len(image)} characters long, more than any image "
            "reference can be",
            fix=f"write the image as [registry/]repository[:tag][@sha256:digest], for example {example}",
        )
    surface = _surface_problem(image, "the container image")
    if surface is not None:
        return surface
    if any(ch.isspace() for ch in image):
        return Problem(
            problem=f"the container image {quoted(image)} contains whitespace",
            fix=f"write the reference without spaces, for example {example}",
        )
    if not image:
        return Problem(
            problem="the container image is empty", fix=f"name an image, for example {example}"
        )
    uppercase = Problem(
        problem=f"the container image {quoted(image)} has upper-case letters in its repository path; repository "
        "names are lower case",
        fix="write the repository path in lower case (the registry host and the tag may keep upper case)",
    )
    match = _REFERENCE.fullmatch(image)
    if match is None:
        if _REFERENCE.fullmatch(image.lower()) is not None:
            return uppercase
        return _image_part_problem(image) or Problem(
            problem=f"{quoted(image)} is not a container image reference",
            fix=f"write it as [registry/]repository[:tag][@sha256:digest], for example {example}",
        )
    name_match = _ANCHORED_NAME.fullmatch(match["name"])
    domain = name_match["domain"] if name_match else None
    path = name_match["path"] if name_match else match["name"]
    # The grammar lets an upper-case first component be a registry host ("Vllm/vllm-openai" = host "Vllm"), and
    # normalize.go's splitDockerDomain does treat it as one. A registry host without '.' or ':' other than
    # localhost is almost always a mistyped Docker Hub namespace, so this project refuses it (stricter than the
    # library).
    if (
        domain is not None
        and domain != "localhost"
        and not any(c in domain for c in ".:")
        and domain.lower() != domain
    ):
        return uppercase
    if len(path) > IMAGE_NAME_MAX_LENGTH:
        return Problem(
            problem=f"the repository path of the container image {quoted(image)} is {len(path)} characters long; "
            f"at most {IMAGE_NAME_MAX_LENGTH} are allowed",
            fix="use a shorter repository name",
        )
    digest = match["digest"]
    if digest is not None:
        algorithm, _, encoded = digest.partition(":")
        check = _DIGEST_ENCODINGS.get(algorithm)
        if check is None or not check.fullmatch(encoded):
            return Problem(
                problem=f"the digest of the container image {quoted(image)} is not sha256: followed by 64 lower-case "
                "hex digits (or sha384/sha512)",
                fix="copy the digest from the registry (`docker buildx imagetools inspect IMAGE` shows it), "
                "for example @sha256:" + "0" * 64,
            )
    return None
