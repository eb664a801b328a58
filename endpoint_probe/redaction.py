"""Secrets out of what llmops prints: whatever a message quotes (a URL given on the command line, a line a tool or an
endpoint printed, an argument argparse did not expect), no password, token or key is printed back.

Applied where every message leaves: the ``error:``/``fix:`` lines (ops_cli/cli.py ``_report``), argparse's errors,
and the URL checks (endpoint_probe/url.py ``check_url``). The endpoint's own API key, whose value is known, is
replaced by its source wherever it appears (``ApiKey.redact``); this module catches the secrets whose value is not
known, by their shape.
"""

from __future__ import annotations

import re

REDACTED = "<redacted>"

#: ``scheme://user:password@host`` and ``scheme://token@host`` (RFC 3986 userinfo: everything before the last '@' of
#: the authority). The authority ends at the first '/', '?', '#' or white space.
_USERINFO = re.compile(
    r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)(?P<userinfo>[^/?#\s]*)@(?=[^/?#\s@]*(?:[/?#\s]|$))"
)
#: ``Authorization: Bearer X`` / ``Basic X``, as a header line or in a message.
_AUTHORIZATION = re.compile(
    r"(?i)\b(?P<scheme>bearer|basic)(?P<sep>\s+)(?P<credential>[A-Za-z0-9._~+/=-]{8,})"
)
#: Tokens of known shapes: Hugging Face user access tokens (``hf_`` and 30+ letters), and ``NAME=VALUE`` pairs of a
#: URL query or a credentials file whose name says they hold a secret.
_HF_TOKEN = re.compile(r"\bhf_[A-Za-z0-9]{30,}")
_NAMED = re.compile(
    r"(?i)(?<!api-key-)\b(?P<name>password|passwd|[a-z_]*token|[a-z_]*secret[a-z_]*|api_?key|key|signature|"
    r"credential)(?P<sep>\s*=\s*)(?P<value>[^\s&;,'\"]{4,})"
)


def redact_secrets(text: str, known: tuple[str, ...] = ()) -> str:
    """``text`` with URL userinfo, authorization credentials, tokens of known shapes and the ``known`` values replaced
    by ``<redacted>``. Idempotent: redacting twice changes nothing more."""
    if not isinstance(text, str) or not text:
        return text
    for value in known:
        if value and len(value) >= 4:
            text = text.replace(value, REDACTED)
    text = _USERINFO.sub(lambda m: f"{m.group('scheme')}{REDACTED}@", text)
    text = _AUTHORIZATION.sub(lambda m: f"{m.group('scheme')}{m.group('sep')}{REDACTED}", text)
    text = _HF_TOKEN.sub(f"hf_{REDACTED}", text)
    return _NAMED.sub(
        lambda m: (
            m.group(0)
            if m.group("value").startswith(REDACTED)
            else f"{m.group('name')}{m.group('sep')}{REDACTED}"
        ),
        text,
    )


def redact_url(text: str) -> str:
    """A URL as typed, for messages: :func:`redact_secrets`, and also the userinfo of one typed without a scheme
    (``user:password@host:8000``)."""
    text = redact_secrets(text)
    if "://" not in text:
        authority, slash, rest = text.partition("/")
        if "@" in authority and not authority.startswith(REDACTED):
            text = f"{REDACTED}@{authority.rpartition('@')[2]}{slash}{rest}"
    return text


#: Options whose value is a secret: argparse quotes arguments it did not expect, and the value of a mistyped
#: ``--api-kye KEY`` is one of them.
SECRET_OPTIONS = ("--api-key",)


def secret_arguments(argv: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The values given to :data:`SECRET_OPTIONS` (or to a mistyped option that looks like one) in ``argv``."""
    values = []
    for index, word in enumerate(argv):
        name, equals, value = word.partition("=")
        # --api-key-secret names a secret, it holds none
        looks_secret = (
            name.startswith("--")
            and re.search(r"(?i)key|token|passw", name)
            and not name.endswith("-secret")
        )
        if name in SECRET_OPTIONS or looks_secret:
            if equals:
                values.append(value)
            elif index + 1 < len(argv):
                values.append(argv[index + 1])
    return tuple(v for v in values if v)
