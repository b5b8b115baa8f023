"""The protocol registry: names, fresh objects, and a clear line for a missing module."""

from __future__ import annotations

import importlib.util

import pytest

from companion.devices.cardreader.pn532 import Pn532
from companion.devices.cardreader.rdm6300 import Rdm6300
from companion.devices.cardreader.registry import (
    PICO_MODULE,
    PROTOCOLS,
    Identifies,
    ProtocolUnavailable,
    make_protocol,
    protocol_available,
)
from companion.errors import UserError


def test_every_protocol_is_registered_by_its_name() -> None:
    assert {"rdm6300", "pn532", "pico"} <= set(PROTOCOLS)
    assert isinstance(make_protocol("rdm6300"), Rdm6300)
    assert isinstance(make_protocol("pn532"), Pn532)
    for name in ("rdm6300", "pn532"):
        protocol = make_protocol(name)
        assert protocol.name == name
        assert isinstance(protocol, Identifies)
        assert protocol_available(name)


def test_each_call_makes_a_new_protocol() -> None:
    assert make_protocol("pn532") is not make_protocol("pn532")


def test_an_unknown_protocol_is_a_user_error_naming_the_known_ones() -> None:
    with pytest.raises(UserError, match=r"unknown reader protocol 'acr122' \(known: pico, pn532"):
        make_protocol("acr122")
    assert not protocol_available("acr122")


def test_pico_is_made_lazily_or_refused_in_one_clear_line() -> None:
    if importlib.util.find_spec(PICO_MODULE) is None:
        with pytest.raises(ProtocolUnavailable, match="pico reader protocol is not available"):
            make_protocol("pico")
        assert not protocol_available("pico")
    else:
        assert make_protocol("pico").name == "pico"
