"""The source CIDR blocks allowed to reach an endpoint: each a valid block, and all together not the internet."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from deployment_config.aws_rules.networks import (
    PRIVATE_IPV4_RANGES,
    PRIVATE_IPV6_RANGES,
    _NetworkV4V6,
    _parse_cidr,
    _special,
)
from deployment_config.errors import Problem, quoted

#: The most public IPv4 addresses a list of allowed sources may open an endpoint to, all entries together: fewer
#: than a /8's worth (16,777,216). A /8 is more than any organisation's office or VPN egress needs, so a list that
#: reaches it is either "the internet" written in pieces (0.0.0.0/1 + 128.0.0.0/1) or a mistake. RFC 1918 and
#: RFC 6598 addresses do not count: allowing the whole 10.0.0.0/8 of a corporate network is legitimate.
MAX_PUBLIC_IPV4_ADDRESSES = 2**24
#: The IPv6 counterpart: fewer than a /32's worth of global addresses (the size of a whole ISP's allocation; a
#: site gets a /48 or a /56). Unique local addresses (fc00::/7) do not count.
MAX_PUBLIC_IPV6_ADDRESSES = 2**96


def _public_count(union: list[_NetworkV4V6], private: Sequence[_NetworkV4V6]) -> int:
    """Addresses of ``union`` (collapsed, so disjoint) outside the ``private`` ranges (CIDRs nest or are disjoint)."""
    total = 0
    for network in union:
        if any(network.subnet_of(p) for p in private):
            continue
        total += network.num_addresses - sum(
            p.num_addresses for p in private if p.subnet_of(network)
        )
    return total


def allowed_cidrs_problems(cidrs: list[str]) -> list[tuple[int | None, Problem]]:
    """Problems with a list of source CIDR blocks allowed to reach an endpoint (IPv4 and IPv6 both allowed).

    Each problem comes with the index of the entry it is about, or ``None`` when it is about the list as a whole.

    - every entry must be a strictly written CIDR block (network address and explicit prefix length);
    - an entry inside a special-purpose range that is never a packet's source is refused: 0.0.0.0/8 (with the
      unspecified 0.0.0.0), loopback, link-local, multicast, 240.0.0.0/4 (with 255.255.255.255), and their IPv6
      counterparts (::/128, ::1/128, fe80::/10, ff00::/8), and IPv4-mapped IPv6 (write the IPv4 block);
    - an entry equal to or inside another entry is refused (it adds nothing; remove one);
    - the union of the valid entries is judged (``ipaddress.collapse_addresses``): refused if it covers every IPv4
      address (0.0.0.0/0, or 0.0.0.0/1 + 128.0.0.0/1, ...) or every IPv6 address, or if it holds
      :data:`MAX_PUBLIC_IPV4_ADDRESSES` public IPv4 addresses (a /8's worth) or more, or
      :data:`MAX_PUBLIC_IPV6_ADDRESSES` global IPv6 addresses (a /32's worth) or more.
    """
    problems: list[tuple[int | None, Problem]] = []
    valid: list[tuple[int, _NetworkV4V6]] = []
    for index, text in enumerate(cidrs):
        network, problem = _parse_cidr(
            text, "the source CIDR block", "203.0.113.0/24 (or 203.0.113.7/32 for one address)"
        )
        if problem is not None:
            problems.append((index, problem))
            continue
        assert network is not None
        special = _special(network)
        if special is not None:
            problems.append(
                (
                    index,
                    Problem(
                        problem=f"the source CIDR block {quoted(text)} lies in {special[0]}: {special[1]}",
                        fix="list the public or private networks your clients connect from, for example 203.0.113.0/24",
                    ),
                )
            )
            continue
        valid.append((index, network))

    # Duplicates and entries inside another one: sorted by (version, start, prefix), a network inside another comes
    # after it and before the next disjoint block, so one sweep with the last kept network finds them all.
    kept: tuple[int, _NetworkV4V6] | None = None
    for index, network in sorted(
        valid, key=lambda e: (e[1].version, int(e[1].network_address), e[1].prefixlen, e[0])
    ):
        if kept is not None and kept[1].version == network.version and network.subnet_of(kept[1]):
            other_index, other = kept
            same = network == other
            problems.append(
                (
                    index,
                    Problem(
                        problem=f"the source CIDR block {quoted(cidrs[index])} is "
                        + (
                            f"listed twice (also entry {other_index})"
                            if same
                            else f"inside entry {other_index}, {other}"
                        ),
                        fix="remove this entry"
                        if same
                        else f"remove this entry ({other} already allows it), or narrow {other}",
                    ),
                )
            )
        else:
            kept = (index, network)

    for version, everything, private, limit, size in (
        (
            4,
            ipaddress.IPv4Network("0.0.0.0/0"),
            PRIVATE_IPV4_RANGES,
            MAX_PUBLIC_IPV4_ADDRESSES,
            "/8",
        ),
        (6, ipaddress.IPv6Network("::/0"), PRIVATE_IPV6_RANGES, MAX_PUBLIC_IPV6_ADDRESSES, "/32"),
    ):
        members = [(i, n) for i, n in valid if n.version == version]
        if not members:
            continue
        union = list(ipaddress.collapse_addresses(n for _, n in members))
        broadest = sorted(members, key=lambda e: (e[1].prefixlen, e[0]))[:3]
        named = ", ".join(f"entry {i} ({n})" for i, n in broadest)
        fix = (
            f"list only the networks that must reach the endpoint, for example your office's 203.0.113.0/24 "
            f"or your VPN's egress addresses; the broadest entries are {named}"
        )
        if union == [everything]:
            problems.append(
                (
                    None,
                    Problem(
                        problem=f"the source CIDR blocks together cover every IPv{version} address ({everything}): "
                        "the endpoint would be open to the whole internet",
                        fix=fix,
                    ),
                )
            )
            continue
        public = _public_count(union, private)
        if public >= limit:
            amount = f"{public:,}" if version == 4 else f"2^{public.bit_length() - 1} or more"
            problems.append(
                (
                    None,
                    Problem(
                        problem=f"the source CIDR blocks together allow {amount} public IPv{version} addresses: a {size}'s "
                        f"worth ({'2^96' if version == 6 else f'{limit:,}'}) or more is too broad for an allow list",
                        fix=fix,
                    ),
                )
            )
    return sorted(problems, key=lambda p: (p[0] is None, p[0] or 0))
