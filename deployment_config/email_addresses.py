"""E-mail addresses of the configuration (``observability.alarm_emails``): the common, plain form every mail relay takes.

Source: RFC 5321 (SMTP) section 4.1.2, ``Mailbox = Local-part "@" Domain``, ``Local-part = Dot-string``,
``Dot-string = Atom *("." Atom)``, ``Atom = 1*atext`` (atext: RFC 5322 section 3.2.3, letters, digits and
``!#$%&'*+-/=?^_`{|}~``), ``Domain = sub-domain *("." sub-domain)``, ``sub-domain = Let-dig [Ldh-str]`` (letters,
digits and '-', not at either end); section 4.5.3.1: a local part of at most 64 octets, a domain of at most 255.
Those are ASCII: an address with other characters needs the SMTPUTF8 extension (RFC 6531), which a relay may not
offer, and an internationalized domain is written as its A-labels (``xn--...``, RFC 5890). So a look-alike such as
a Cyrillic 'а' in ``exаmple.com`` is refused instead of sending the alarms to another domain. The quoted-string local
part and address literals (``user@[192.0.2.1]``), which RFC 5321 also allows, are refused as surely a mistake here.
"""

from __future__ import annotations

import re

from deployment_config.errors import Problem, quoted

__all__ = ["email_address_problem"]

_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LOCAL_PART = re.compile(rf"{_ATOM}(\.{_ATOM})*", re.ASCII)
_SUB_DOMAIN = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?", re.ASCII)
MAX_LOCAL_PART, MAX_DOMAIN, MAX_LABEL = 64, 255, 63
_FIX = "write it as name@example.com: ASCII letters, digits and . _ + - in the name, a DNS domain after the @"


def email_address_problem(address: str) -> Problem | None:
    """``None`` if ``address`` is a plain ``local@domain`` mailbox of RFC 5321 with an ASCII dot-string and a domain of
    at least two DNS labels."""
    if address.count("@") != 1:
        return Problem(
            f"{quoted(address)} is not an e-mail address (one '@' between a name and a domain)",
            _FIX,
        )
    local, domain = address.split("@")
    odd = next((ch for ch in address if not ch.isascii()), None)
    if odd is not None:
        where = "domain" if odd in domain else "name"
        fix = (
            "write an internationalized domain as its xn-- form (as `idn2` prints it); "
            if where == "domain"
            else ""
        ) + _FIX
        return Problem(
            f"the {where} of {quoted(address)} contains the non-ASCII character {odd!r} "
            f"(U+{ord(odd):04X}), which looks like a letter of another address or needs a mail extension "
            "relays may not offer",
            fix,
        )
    if not _LOCAL_PART.fullmatch(local) or len(local) > MAX_LOCAL_PART:
        return Problem(
            f"the name before the @ in {quoted(address)} is not a plain mailbox name: 1 to "
            f"{MAX_LOCAL_PART} letters, digits and !#$%&'*+-/=?^_`{{|}}~, with single dots between words",
            _FIX,
        )
    labels = domain.split(".")
    if (
        len(domain) > MAX_DOMAIN
        or len(labels) < 2
        or labels[-1].isdigit()
        or not all(len(label) <= MAX_LABEL and _SUB_DOMAIN.fullmatch(label) for label in labels)
    ):
        return Problem(
            f"the domain of {quoted(address)} is not a DNS domain: two or more labels of letters, digits "
            "and '-' (not at either end), separated by single dots",
            _FIX,
        )
    return None
