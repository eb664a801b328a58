"""deployment_config.email_addresses: the addresses the alarms and the budget e-mail (RFC 5321's plain mailbox)."""

from __future__ import annotations

import pytest

from deployment_config.email_addresses import email_address_problem


@pytest.mark.parametrize(
    "address",
    [
        "oncall@example.com",
        "first.last+llm@ops.example.co.uk",
        "o'neil@example.com",
        "ONCALL@EXAMPLE.COM",
        "alerts@xn--bcher-kva.example",
        "a@b-c.example",
    ],
)
def test_a_plain_address_is_accepted(address):
    assert email_address_problem(address) is None


@pytest.mark.parametrize(
    "address, words",
    [
        (
            "oncall@ex\u0430mple.com",
            "non-ASCII character 'а' (U+0430)",
        ),  # Cyrillic a: another domain
        ("on\u0441all@example.com", "non-ASCII"),
        ("oncall@example..com", "not a DNS domain"),
        ("oncall@-example.com", "not a DNS domain"),
        ("oncall@example", "not a DNS domain"),
        ("oncall@192.0.2.1", "not a DNS domain"),
        ("a..b@example.com", "single dots"),
        ("a,b@example.com", "not a plain mailbox name"),
        ("a@b@example.com", "one '@'"),
        ("oncall", "one '@'"),
        ("x" * 65 + "@example.com", "1 to 64"),
    ],
)
def test_an_address_a_relay_may_refuse_or_send_elsewhere_is_refused(address, words):
    problem = email_address_problem(address)
    assert problem is not None and words in problem.problem
    assert "name@example.com" in problem.fix
