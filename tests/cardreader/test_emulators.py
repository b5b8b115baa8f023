"""The emulators, byte for byte, from the host's end of the line."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import serial

from companion.devices.cardreader import pn532
from companion.devices.cardreader.emulators import ERROR_FRAME, Pn532Emulator, Rdm6300Emulator
from companion.devices.cardreader.ptypair import PtyPair
from companion.devices.cardreader.rdm6300 import encode_frame
from tests.cardreader.conftest import needs_socat, wait_until

pytestmark = needs_socat

SAM = pn532.frame(pn532.SAM_NORMAL)


def read_exactly(port: serial.Serial, size: int) -> bytes:
    data = port.read(size)
    assert len(data) == size, data
    return data


@pytest.fixture()
def host(pty_pair: PtyPair) -> Iterator[serial.Serial]:
    with serial.Serial(pty_pair.host_path, 115200, timeout=1) as port:
        yield port


def test_rdm6300_repeats_the_frame_while_the_card_lies_there(
    pty_pair: PtyPair, host: serial.Serial
) -> None:
    with Rdm6300Emulator(pty_pair.device_path, repeat_s=0.02) as emulator:
        emulator.present("0a1b2c3d4e")
        assert read_exactly(host, 14 * 3) == encode_frame("0A1B2C3D4E") * 3
        emulator.remove()
        time.sleep(0.05)
        host.reset_input_buffer()
        host.timeout = 0.1
        assert host.read(14) == b""
        emulator.write_raw(b"\x01\x02\x03")
        assert host.read(3) == b"\x01\x02\x03"


def test_pn532_answers_each_command_with_an_ack_and_its_response(
    pty_pair: PtyPair, host: serial.Serial
) -> None:
    with Pn532Emulator(pty_pair.device_path) as emulator:
        host.write(pn532.WAKEUP + SAM)
        assert read_exactly(host, 15) == pn532.ACK + bytes.fromhex("0000ff02fed5151600")
        host.write(pn532.frame(b"\x02"))  # GetFirmwareVersion
        assert read_exactly(host, 19) == pn532.ACK + pn532.frame(
            bytes.fromhex("0332010607"), pn532.DEVICE_TFI
        )
        host.write(pn532.frame(pn532.POLL))
        assert read_exactly(host, 16) == pn532.ACK + pn532.target_response(None)
        emulator.present("04a224b2c12a81")
        host.write(pn532.frame(pn532.POLL))
        expected = pn532.ACK + pn532.target_response(bytes.fromhex("04a224b2c12a81"))
        assert read_exactly(host, len(expected)) == expected
        assert wait_until(lambda: emulator.tag_answered_ns is not None)
        host.write(pn532.NACK)  # "again, please": the last response, without an ACK
        assert read_exactly(host, len(expected) - 6) == expected[6:]
        host.write(pn532.frame(b"\x60\x01"))  # a command it does not know
        assert read_exactly(host, 14) == pn532.ACK + ERROR_FRAME
        assert emulator.commands == [0x14, 0x02, 0x4A, 0x4A, 0x60]


def test_pn532_ignores_a_command_that_fails_its_checksum(
    pty_pair: PtyPair, host: serial.Serial
) -> None:
    with Pn532Emulator(pty_pair.device_path) as emulator:
        broken = bytearray(pn532.frame(pn532.POLL))
        broken[-2] ^= 1
        host.write(bytes(broken) + pn532.ACK)
        assert wait_until(lambda: emulator.bad_commands == 1)
        host.timeout = 0.1
        assert host.read(1) == b""
        assert emulator.commands == []


def test_pn532_nacks_corrupts_garbage_and_silence_on_request(
    pty_pair: PtyPair, host: serial.Serial
) -> None:
    with Pn532Emulator(pty_pair.device_path) as emulator:
        poll = pn532.frame(pn532.POLL)
        emulator.nack_next(1)
        host.write(poll)
        assert read_exactly(host, 6) == pn532.NACK
        emulator.corrupt_next(1)
        emulator.inject_garbage(b"\xaa\xbb")
        host.write(poll)
        answer = read_exactly(host, 18)
        good = pn532.target_response(None)
        assert answer[:8] == pn532.ACK + b"\xaa\xbb"
        assert answer[8:] != good and answer[8:-2] == good[:-2]
        host.write(poll)
        assert read_exactly(host, 16) == pn532.ACK + good
        emulator.muted = True
        host.write(poll)
        host.timeout = 0.1
        assert host.read(1) == b""
        assert emulator.commands == [0x4A] * 4


def test_present_refuses_a_bad_uid(pty_pair: PtyPair) -> None:
    with Pn532Emulator(pty_pair.device_path) as emulator, pytest.raises(ValueError):
        emulator.present("0102")
