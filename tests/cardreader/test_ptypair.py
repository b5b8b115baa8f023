"""The socat pseudo-terminal pair the reader tests run on: a cable, unplugged and replugged."""

from __future__ import annotations

from pathlib import Path

import pytest
import serial

from companion.devices.cardreader.ptypair import PtyPair
from tests.cardreader.conftest import needs_socat

pytestmark = needs_socat


def test_bytes_cross_both_ways(pty_pair: PtyPair) -> None:
    with (
        serial.Serial(pty_pair.device_path, timeout=1) as device,
        serial.Serial(pty_pair.host_path, timeout=1) as host,
    ):
        device.write(bytes(range(256)))
        assert host.read(256) == bytes(range(256))  # raw: every byte value passes as it is
        host.write(b"\x00\xff\x11\x13")
        assert device.read(4) == b"\x00\xff\x11\x13"


def test_unplug_fails_the_port_and_removes_the_links_replug_brings_them_back(
    pty_pair: PtyPair,
) -> None:
    host = serial.Serial(pty_pair.host_path, timeout=0.05)
    pty_pair.unplug()
    assert not pty_pair.plugged
    assert not Path(pty_pair.host_path).exists() and not Path(pty_pair.device_path).exists()
    with pytest.raises((serial.SerialException, OSError)):
        host.read(1)
        host.in_waiting  # noqa: B018  (it raises EIO)
    host.close()
    pty_pair.replug()
    assert pty_pair.plugged
    with (
        serial.Serial(pty_pair.device_path, timeout=1) as device,
        serial.Serial(pty_pair.host_path, timeout=1) as host,
    ):
        device.write(b"back")
        assert host.read(4) == b"back"


def test_close_removes_the_directory() -> None:
    pair = PtyPair()
    directory = pair.directory
    pair.close()
    pair.close()
    assert not directory.exists()
