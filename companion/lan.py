"""This machine's addresses on the local network, for telling a room where the display page
is: a phone, a TV or a streaming PC cannot open 127.0.0.1."""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct

_SIOCGIFADDR = 0x8915
"""Linux's ioctl for an interface's IPv4 address."""


def lan_addresses() -> list[str]:
    """Every IPv4 address of this machine other devices can reach (not loopback, not
    link-local), in interface order; empty when the machine is on no network."""
    found: list[str] = []
    for _index, name in _interfaces():
        address = _ipv4_of(name)
        if address is None:
            continue
        ip = ipaddress.IPv4Address(address)
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
            continue
        if address not in found:
            found.append(address)
    return found


def lan_address() -> str | None:
    """The address to advertise: the first the machine has on a network, or None."""
    addresses = lan_addresses()
    return addresses[0] if addresses else None


def page_url(host: str, port: int) -> str:
    """The display page's address as a person types it."""
    return f"http://{host}:{port}/" if port != 80 else f"http://{host}/"


def _interfaces() -> list[tuple[int, str]]:
    try:
        return socket.if_nameindex()
    except OSError:
        return []


def _ipv4_of(interface: str) -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            answer = fcntl.ioctl(
                probe.fileno(), _SIOCGIFADDR, struct.pack("256s", interface.encode()[:15])
            )
        except OSError:  # an interface with no IPv4 address, or one that went away
            return None
    return socket.inet_ntoa(answer[20:24])
