"""Every reader protocol by name, for the configuration and the command line.

    protocol = make_protocol("pn532")       # a fresh Pn532()
    sorted(PROTOCOLS)                        # ['pico', 'pn532', 'rdm6300']
    protocol_available("pico")               # False while pico.py is not there

Each entry makes a new protocol object: a protocol holds parsing state, so one object
serves one port.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from companion.devices.cardreader.pn532 import Pn532
from companion.devices.cardreader.protocol import ReaderProtocol
from companion.devices.cardreader.rdm6300 import Rdm6300
from companion.errors import UserError


class ProtocolUnavailable(UserError):
    """A protocol that is named but cannot be made here (its module is missing)."""


@runtime_checkable
class Identifies(Protocol):
    """A protocol that can tell whether the device on the port has identified itself:
    `companion reader detect` asks this after a short exchange (the PN532 acknowledged
    SAMConfiguration, the Pico sent its hello, the RDM6300 sent a valid frame)."""

    def identified(self) -> bool: ...


# ---- pico: the project's own Pico board ---------------------------------------------------
# Its protocol lives in companion/devices/cardreader/pico.py (PicoProtocol), written
# separately. It is imported only when asked for, so that every other protocol works
# without it, and a missing module is one clear line instead of an ImportError at start-up.
# To wire it differently, change only `_pico` below; keep the "pico" key in PROTOCOLS.

PICO_MODULE = "companion.devices.cardreader.pico"


def _pico() -> ReaderProtocol:
    try:
        module = importlib.import_module(PICO_MODULE)
    except ModuleNotFoundError as err:
        if err.name != PICO_MODULE:
            raise  # pico.py is there but something it imports is not: show that
        raise ProtocolUnavailable(
            f"the pico reader protocol is not available: {PICO_MODULE} is missing"
        ) from None
    protocol: ReaderProtocol = module.PicoProtocol()
    return protocol


# ---- end of pico ----------------------------------------------------------------------------


PROTOCOLS: dict[str, Callable[[], ReaderProtocol]] = {
    "pico": _pico,
    "pn532": Pn532,
    "rdm6300": Rdm6300,
}


def make_protocol(name: str) -> ReaderProtocol:
    """A new protocol object; a UserError for an unknown or unavailable name."""
    try:
        factory = PROTOCOLS[name]
    except KeyError:
        known = ", ".join(sorted(PROTOCOLS))
        raise UserError(f"unknown reader protocol {name!r} (known: {known})") from None
    return factory()


def protocol_available(name: str) -> bool:
    """Whether `make_protocol(name)` would work."""
    try:
        make_protocol(name)
    except UserError:  # unknown, or ProtocolUnavailable
        return False
    return True
