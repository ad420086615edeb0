"""The reader's own address, for rate limits and logs, also behind a reverse proxy.

A request's peer is the reader, unless the peer is one of TRUSTED_PROXIES (addresses or
networks, none by default). Then `X-Forwarded-For` is read from its right end, where the
proxy appended the address it saw, moving left only while the hop is itself a trusted proxy:
the first hop that is not is the reader. Whatever a reader wrote into the header further left
is never believed. From any other peer the forwarding headers are dropped, so that nothing
behind this layer can be fooled by them.
"""
from __future__ import annotations

import ipaddress
from typing import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

FORWARDING_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST",
                      "HTTP_X_FORWARDED_PORT", "HTTP_X_REAL_IP", "HTTP_FORWARDED")
PEER = "textbook_chat.peer"  # the environ key keeping the address the connection came from


def parse_networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """Addresses or networks ("10.0.0.0/8", "::1"); ValueError naming the first that is neither."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is not an IP address or network (e.g. 10.0.0.5 or 10.0.0.0/8)") from None
    return tuple(networks)


def in_networks(text: str, networks: tuple[Network, ...]) -> bool:
    """Whether the address `text` (a peer's, as a server saw it) is in one of `networks`."""
    address = _address(text.split("%", 1)[0])
    return address is not None and any(address in network for network in networks)


def _address(text: str):
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


class ClientAddress:
    """WSGI middleware: REMOTE_ADDR becomes the reader's address (the peer's is kept under PEER)."""

    def __init__(self, app, trusted: Iterable[str]):
        self.app = app
        self.trusted = parse_networks(trusted)

    def is_trusted(self, address) -> bool:
        return address is not None and any(address in network for network in self.trusted)

    def client_of(self, peer: str, forwarded_for: str) -> str:
        current = peer
        hops = [hop for hop in forwarded_for.split(",") if hop.strip()]
        for hop in reversed(hops):
            if not self.is_trusted(_address(current)) or _address(hop) is None:
                break
            current = hop.strip()
        return current

    def __call__(self, environ, start_response):
        peer = environ.get("REMOTE_ADDR", "")
        environ[PEER] = peer
        if self.trusted and self.is_trusted(_address(peer)):
            environ["REMOTE_ADDR"] = self.client_of(peer, environ.get("HTTP_X_FORWARDED_FOR", ""))
            scheme = environ.get("HTTP_X_FORWARDED_PROTO", "").split(",")[-1].strip().lower()
            if scheme in ("http", "https"):
                environ["wsgi.url_scheme"] = scheme
        else:
            for header in FORWARDING_HEADERS:
                environ.pop(header, None)
        return self.app(environ, start_response)
