"""CIDR blocks: how one is read, and the VPC's range (the source ranges allowed to reach an endpoint: allowed_sources.py)."""

from __future__ import annotations

import ipaddress
import re

from deployment_config.aws_rules._characters import _surface_problem
from deployment_config.errors import Problem, quoted

_NetworkV4V6 = ipaddress.IPv4Network | ipaddress.IPv6Network


# Text accepted as a CIDR block before ipaddress sees it: ASCII only, an explicit prefix length without leading
# zeros, and a bounded length (ipaddress alone would accept "10.0.0.0/255.255.0.0" and quote the whole input).
_IPV4_CIDR_TEXT = re.compile(r"(?:[0-9]{1,3}\.){3}[0-9]{1,3}/(?:0|[1-9][0-9]?)", re.ASCII)
_IPV6_CIDR_TEXT = re.compile(r"[0-9A-Fa-f:.]{2,45}/(?:0|[1-9][0-9]{0,2})", re.ASCII)

# RFC 1918 private ranges, and RFC 6598 shared address space (100.64.0.0/10). Source for AWS allowing them in a
# VPC: Amazon VPC User Guide, "VPC CIDR blocks" (https://docs.aws.amazon.com/vpc/latest/userguide/vpc-cidr-blocks.html;
# read as awsdocs/amazon-vpc-user-guide doc_source/VPC_Subnets.md @0c57cd9f2356936b9956b19d09249e59e33f8f69): "The
# allowed block size is between a /16 netmask (65,536 IP addresses) and /28 netmask (16 IP addresses)", RFC 1918
# ranges recommended, and the association table permits "a CIDR block from the 100.64.0.0/10 range".
PRIVATE_IPV4_RANGES = tuple(
    ipaddress.IPv4Network(n)
    for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10")
)
# Same page (current version): "Some AWS services use the 172.17.0.0/16 CIDR range. To avoid future conflicts,
# don't use this range when creating your VPC. For example, services like AWS Cloud9 or Amazon SageMaker can
# experience IP address conflicts" -- the HyperPod path of this project is SageMaker.
_DOCKER_BRIDGE = ipaddress.IPv4Network("172.17.0.0/16")
#: The prefix lengths this project accepts for the VPC (the range the configuration's schema documents). AWS allows
#: /16 to /28. Note: stacks/network_stack.py lays out a /20 private and a /24 public subnet per zone (4,352
#: addresses), so two zones need at least a /18; a /19 or /20 passes here but cannot hold the layout.
VPC_PREFIX_RANGE = (16, 20)

# Special-purpose IPv4 ranges (IANA registry, RFC 6890) that make no sense as a VPC or as a traffic source.
_SPECIAL_IPV4 = tuple(
    (ipaddress.IPv4Network(n), name, why)
    for n, name, why in (
        ("0.0.0.0/8", "the 'this network' range (RFC 1122)", "no packet comes from it"),
        ("127.0.0.0/8", "the loopback range (RFC 1122)", "it never leaves a host"),
        ("169.254.0.0/16", "the link-local range (RFC 3927)", "routers do not forward it"),
        (
            "224.0.0.0/4",
            "the multicast range (RFC 5771)",
            "a multicast address is never a packet's source",
        ),
        (
            "240.0.0.0/4",
            "the reserved range (RFC 1112), with the broadcast address 255.255.255.255",
            "no packet comes from it",
        ),
    )
)
_SPECIAL_IPV6 = tuple(
    (ipaddress.IPv6Network(n), name, why)
    for n, name, why in (
        ("::/128", "the unspecified address (RFC 4291)", "no packet comes from it"),
        ("::1/128", "the loopback address (RFC 4291)", "it never leaves a host"),
        ("::ffff:0:0/96", "the IPv4-mapped range (RFC 4291)", "write the IPv4 CIDR block instead"),
        ("fe80::/10", "the link-local range (RFC 4291)", "routers do not forward it"),
        (
            "ff00::/8",
            "the multicast range (RFC 4291)",
            "a multicast address is never a packet's source",
        ),
    )
)
# Unique local addresses (RFC 4193): the IPv6 counterpart of the private ranges.
PRIVATE_IPV6_RANGES = (ipaddress.IPv6Network("fc00::/7"),)


def _parse_cidr(text: str, what: str, example: str) -> tuple[_NetworkV4V6 | None, Problem | None]:
    """A strictly written CIDR block (network address, explicit prefix), or the problem with ``text``."""
    surface = _surface_problem(text, what)
    if surface is not None:
        return None, surface
    how = f"write a network address and a prefix length, for example {example}"
    if "/" not in text and len(text) <= 45:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            address = None
        if address is not None:
            return None, Problem(problem=f"{what} {quoted(text)} has no prefix length", fix=how)
    v4 = _IPV4_CIDR_TEXT.fullmatch(text)
    if not (v4 or _IPV6_CIDR_TEXT.fullmatch(text)):
        return None, Problem(problem=f"{what} {quoted(text)} is not a CIDR block", fix=how)
    address_text, _, prefix_text = text.partition("/")
    if v4:
        octets = address_text.split(".")
        reason = (
            "an octet above 255"
            if any(int(o) > 255 for o in octets)
            else "an octet with a leading zero, which some tools read as octal"
            if any(len(o) > 1 and o[0] == "0" for o in octets)
            else "a prefix longer than /32"
            if int(prefix_text) > 32
            else None
        )
    else:
        reason = "a prefix longer than /128" if int(prefix_text) > 128 else None
    try:
        if reason is None:
            return ipaddress.ip_network(text, strict=True), None
    except ValueError:
        pass
    network = None
    if reason is None:
        try:
            network = ipaddress.ip_network(text, strict=False)
        except ValueError:
            reason = "an address that is not valid IPv4 or IPv6"
    if network is None:
        return None, Problem(
            problem=f"{what} {quoted(text)} is not a CIDR block: it has {reason}", fix=how
        )
    return None, Problem(
        problem=f"{what} {quoted(text)} has host bits set: {network} is the network of that prefix",
        fix=f"write {network} (or a longer prefix if you meant fewer addresses)",
    )


def _special(network: _NetworkV4V6) -> tuple[str, str] | None:
    """The special-purpose range ``network`` lies in, as ("RANGE, its name", why it makes no sense as a source)."""
    table = _SPECIAL_IPV4 if network.version == 4 else _SPECIAL_IPV6
    return next(
        ((f"{special}, {name}", why) for special, name, why in table if network.subnet_of(special)),
        None,
    )


def vpc_cidr_problem(cidr: str) -> Problem | None:
    """``None`` if ``cidr`` is an IPv4 network address with a prefix from /16 to /20 inside a private range.

    Private means RFC 1918 (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16) or RFC 6598 (100.64.0.0/10), which the
    Amazon VPC User Guide allows for a VPC; 172.17.0.0/16 is refused because AWS says SageMaker and Cloud9 conflict
    with it. AWS also allows publicly routable ranges for a VPC; this project does not (its VPC is private).
    """
    network, problem = _parse_cidr(cidr, "the VPC CIDR block", "10.0.0.0/16")
    if problem is not None:
        return problem
    assert network is not None
    example = "10.0.0.0/16"
    if network.version != 4:
        return Problem(
            problem=f"the VPC CIDR block {quoted(cidr)} is IPv6; a VPC's primary CIDR block is IPv4",
            fix=f"use a private IPv4 block such as {example}",
        )
    special = _special(network)
    if not any(network.subnet_of(private) for private in PRIVATE_IPV4_RANGES):
        kind = f"in {special[0]}" if special else "public (internet-routable) address space"
        return Problem(
            problem=f"the VPC CIDR block {quoted(cidr)} is {kind}, not a private range",
            fix=f"use a block inside 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 (RFC 1918) or 100.64.0.0/10 "
            f"(RFC 6598), for example {example}",
        )
    low, high = VPC_PREFIX_RANGE
    if not low <= network.prefixlen <= high:
        size = (
            "larger than the /16 AWS allows for a VPC"
            if network.prefixlen < low
            else "too small for the subnets the project lays out (a /20 private and a /24 public subnet per zone)"
        )
        suggestion = network.supernet(new_prefix=low) if network.prefixlen > low else None
        if suggestion is None or suggestion.overlaps(_DOCKER_BRIDGE):
            suggestion = example
        return Problem(
            problem=f"the VPC CIDR block {quoted(cidr)} is a /{network.prefixlen}, {size}",
            fix=f"use a prefix from /{low} to /{high}, for example {suggestion}",
        )
    if network.overlaps(_DOCKER_BRIDGE):
        return Problem(
            problem=f"the VPC CIDR block {quoted(cidr)} overlaps 172.17.0.0/16, which AWS services such as SageMaker "
            "use (Docker's default bridge); AWS advises against it for a VPC",
            fix=f"use another private block, for example {example} or 172.18.0.0/16",
        )
    return None
