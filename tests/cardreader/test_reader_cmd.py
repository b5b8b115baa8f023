"""`companion reader listen|detect` against emulated readers on pseudo-terminals."""

from __future__ import annotations

import json
import queue
import threading
from pathlib import Path

import pytest
from serial.tools import list_ports, list_ports_common

from companion.cli import main
from companion.devices.cardreader import registry
from companion.devices.cardreader.emulators import Pn532Emulator, Rdm6300Emulator
from companion.devices.cardreader.events import ButtonSeen, Observation
from companion.devices.cardreader.ptypair import PtyPair
from tests.cardreader.conftest import needs_socat

pytestmark = needs_socat

TAG = "0A1B2C3D4E"
UID = "04A224B2C12A81"


def json_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = tmp_path / "config.toml"
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    return config


# ---- listen ------------------------------------------------------------------------------------


def test_listen_prints_a_json_line_per_event(
    pty_pair: PtyPair, capsys: pytest.CaptureFixture[str]
) -> None:
    with Rdm6300Emulator(pty_pair.device_path, repeat_s=0.03) as emulator:
        emulator.present(TAG)
        threading.Timer(0.4, emulator.remove).start()
        argv = ["reader", "listen", "--port", pty_pair.host_path, "--protocol", "rdm6300"]
        # A long silence: a busy machine's late read must not look like the card leaving.
        assert main([*argv, "--silence-ms", "1000", "--duration", "2.5"]) == 0
    out, err = capsys.readouterr()
    lines = json_lines(out)
    assert [(line["event"], line["tag"], line["reader"]) for line in lines] == [
        ("presented", TAG, "rdm6300"),
        ("removed", TAG, "rdm6300"),
    ]
    first, second = (line["t"] for line in lines)
    assert isinstance(first, float) and isinstance(second, float)
    assert 0 <= first < second
    assert err == ""


def test_listen_takes_port_protocol_and_silence_from_the_configuration(
    pty_pair: PtyPair, capsys: pytest.CaptureFixture[str], no_user_config: Path
) -> None:
    no_user_config.write_text(
        f'[reader]\nport = "{pty_pair.host_path}"\nprotocol = "pn532"\nsilence_ms = 5000\n'
    )
    with Pn532Emulator(pty_pair.device_path) as emulator:
        emulator.present(UID)
        assert main(["reader", "listen", "--duration", "0.5"]) == 0
    assert json_lines(capsys.readouterr().out) == [
        {"event": "presented", "tag": UID, "t": pytest.approx(0.1, abs=0.1), "reader": "pn532"}
    ]


def test_ctrl_c_ends_listening_quietly(
    pty_pair: PtyPair, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ctrl-C arrives while the command waits for events (a timer's interrupt_main could
    # land anywhere, even in a garbage-collection callback that swallows it).
    class InterruptedQueue(queue.Queue[dict[str, object]]):
        waits = 0

        def get(self, block: bool = True, timeout: float | None = None) -> dict[str, object]:
            InterruptedQueue.waits += 1
            if InterruptedQueue.waits == 3:
                raise KeyboardInterrupt
            return super().get(block, timeout)

    monkeypatch.setattr("companion.commands.reader_cmd.queue.Queue", InterruptedQueue)
    with Rdm6300Emulator(pty_pair.device_path):
        assert main(["reader", "listen", "--port", pty_pair.host_path]) == 0
    assert InterruptedQueue.waits == 3
    assert capsys.readouterr() == ("", "")


def test_listen_prints_button_events(
    pty_pair: PtyPair, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Buttons:
        """A stand-in for the Pico protocol: each byte 'B' is a press of button 2."""

        name = "pico"
        baudrate = 115200

        def connected(self, t_ns: int) -> bytes:
            return b""

        def due(self, t_ns: int) -> bytes:
            return b""

        def receive(self, data: bytes, t_ns: int) -> list[Observation]:
            return [ButtonSeen(2, True, 1234567, t_ns) for byte in data if byte == ord("B")]

    monkeypatch.setitem(registry.PROTOCOLS, "pico", Buttons)
    with Rdm6300Emulator(pty_pair.device_path) as emulator:
        threading.Timer(0.1, emulator.write_raw, [b"B"]).start()
        argv = ["reader", "listen", "--port", pty_pair.host_path, "--protocol", "pico"]
        assert main([*argv, "--duration", "0.4"]) == 0
    [line] = json_lines(capsys.readouterr().out)
    assert line == {
        "event": "button",
        "button": 2,
        "pressed": True,
        "device_us": 1234567,
        "t": pytest.approx(0.1, abs=0.1),
        "reader": "pico",
    }


def test_a_port_that_does_not_exist_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["reader", "listen", "--port", "/nonexistent/ttyUSB7"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "companion: error: cannot open /nonexistent/ttyUSB7: No such file or directory\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "no card reader port"),
        (["--port", "loop://", "--silence-ms", "0"], "the silence must be more than 0 ms"),
        (["--port", "loop://", "--duration", "-1"], "--duration must be more than 0"),
    ],
)
def test_bad_listen_arguments_are_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reader", "listen", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_an_unknown_protocol_in_the_configuration_is_one_line(
    capsys: pytest.CaptureFixture[str], no_user_config: Path
) -> None:
    no_user_config.write_text('[reader]\nport = "loop://"\nprotocol = "acr122"\n')
    assert main(["reader", "listen"]) == 2
    refused = "reader.protocol must be one of rdm6300, pn532, pico, not 'acr122'"
    assert refused in capsys.readouterr().err


# ---- detect -----------------------------------------------------------------------------------


def test_detect_finds_the_pn532(pty_pair: PtyPair, capsys: pytest.CaptureFixture[str]) -> None:
    with Pn532Emulator(pty_pair.device_path) as emulator:
        assert main(["reader", "detect", "--port", pty_pair.host_path, "--timeout", "0.5"]) == 0
        assert 0x14 in emulator.commands
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["PORT", "DESCRIPTION", "PROTOCOL", "RESULT"]
    assert len(out) == 2  # found first: the other protocols are not tried
    assert out[1].split()[:4] == [pty_pair.host_path, "-", "pn532", "found:"]


def test_detect_an_rdm6300_needs_a_card(
    pty_pair: PtyPair, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["reader", "detect", "--port", pty_pair.host_path, "--timeout", "0.25"]
    with Rdm6300Emulator(pty_pair.device_path, repeat_s=0.05) as emulator:
        assert main(argv) == 0
        rows = capsys.readouterr().out.splitlines()[1:]
        assert "no answer to SAMConfiguration" in rows[0]
        assert rows[-1].endswith("rdm6300   no card seen: place a card to check")
        emulator.present(TAG)
        assert main(argv) == 0
        rows = capsys.readouterr().out.splitlines()[1:]
        assert "found: an RDM6300 sent a valid frame" in rows[-1]


def test_detect_reports_a_port_it_cannot_open(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reader", "detect", "--port", "/nonexistent/ttyS9", "--timeout", "0.1"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert rows and all("cannot open: No such file or directory" in row for row in rows)


def test_detect_lists_the_serial_ports(
    pty_pair: PtyPair, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    info = list_ports_common.ListPortInfo(pty_pair.host_path, skip_link_detection=True)
    info.description = "USB-serial adapter"
    monkeypatch.setattr(list_ports, "comports", lambda: [info])
    with Pn532Emulator(pty_pair.device_path):
        assert main(["reader", "detect", "--timeout", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "USB-serial adapter" in out and "found: a PN532" in out
    monkeypatch.setattr(list_ports, "comports", list)
    assert main(["reader", "detect"]) == 0
    assert capsys.readouterr().out == "no serial ports found\n"


def test_detect_refuses_a_timeout_of_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reader", "detect", "--timeout", "0"]) == 2
    assert "--timeout must be more than 0" in capsys.readouterr().err
