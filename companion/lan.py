"""This machine's addresses on the local network, for telling a room where the display page
is (a phone, a TV or a streaming PC cannot open 127.0.0.1), and the names it answers to, so
that the page server and the broker can refuse requests meant for somewhere else.
"""

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


LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_this_machine(host: str) -> bool:
    """Whether `host` (a name or an address, as in an HTTP Host or Origin) names this
    machine: a loopback name, its host name (bare, .local or fully qualified), or an address
    one of its interfaces holds. A web page on another site that has had its own name
    pointed at this machine (DNS rebinding) names itself, and is refused."""
    name = host.strip().strip("[]").rstrip(".").lower()
    if not name or "\x00" in name:
        return False
    try:
        ip = ipaddress.ip_address(name.split("%")[0])
    except ValueError:
        return name in LOOPBACK_NAMES or name in _own_names()
    if ip.is_unspecified or ip.is_multicast:
        return False
    return ip.is_loopback or _holds(ip)


def _own_names() -> frozenset[str]:
    """The host name as set, its first label, and each with .local (mDNS). No DNS lookup:
    this is asked on every request."""
    name = socket.gethostname().lower().rstrip(".")
    short = name.split(".")[0]
    return frozenset(n for n in (name, short, f"{name}.local", f"{short}.local") if n)


def _holds(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether an interface of this machine holds `ip`: only then can a socket bind to it."""
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((str(ip), 0))
        except OSError:
            return False
    return True


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
