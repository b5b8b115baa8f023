"""`companion clock`: the standalone clock driven from keys (standard input) and mock GPIO."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from rich.console import Console

from companion.cli import main
from companion.clock import model
from companion.clock.notation import parse
from companion.clock.terminal import big_digits, clock_panel


@pytest.fixture(autouse=True)
def _no_user_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))


def run_clock(monkeypatch: pytest.MonkeyPatch, keys: str, *args: str) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(keys))
    return main(["clock", *args])


def test_keys_drive_the_clock(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run_clock(monkeypatch, "2\n1\n2\n+\nu\np\nq\n", "5+3", "--plain", "--names", "Ada,Bo")
    out = capsys.readouterr().out
    assert code == 0
    assert "Ada: 300+3 (5 min + 3 s per move)" in out
    assert "Ada's time starts" in out
    assert "Ada moved" in out and "Bo moved" in out
    assert "by the arbiter" in out and "press undone" in out and "paused" in out
    assert "Ada: 5:" in out and "after 1 moves" in out


def test_end_of_input_ends_the_clock(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_clock(monkeypatch, "", "300", "300", "600", "--order", "3,1,2") == 0
    out = capsys.readouterr().out
    assert "Player 3: 600" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["40/"], "bad time control '40/' at position 4"),
        (["300", "300", "--players", "3"], "one CONTROL for everyone or one per player"),
        (["*60", "--players", "3"], "an hourglass needs exactly two players"),
        (["300", "--order", "a,b"], "--order takes player numbers"),
        (["300", "--players", "7"], "2 to 6 players"),
        (["300:40/9000"], "must be the last"),
        (["40/0"], "'40/0' at position 1: a period of 0 s"),
        (["*0"], "'*0' at position 2: an hourglass of 0 s"),
        (["0+5"], "'0+5' at position 1: a period of 0 s"),
        (["300", "40/0"], "'40/0' at position 1"),
    ],
)
def test_bad_arguments(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    assert run_clock(monkeypatch, "q\n", *args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_gpio_without_pins_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    assert run_clock(monkeypatch, "q\n", "300", "--gpio", "--plain") == 2
    assert "no GPIO pins here" in capsys.readouterr().err


def test_gpio_on_mock_pins(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    monkeypatch.setattr(Device, "pin_factory", factory)
    try:
        assert run_clock(monkeypatch, "2\nq\n", "300", "--gpio", "--plain") == 0
    finally:
        factory.reset()
    assert "time starts" in capsys.readouterr().out


def test_big_digits_and_panel() -> None:
    assert big_digits("1:05")[0] == "  █   ███ ███"
    clock, _ = model.start(model.new_clock([parse("300")] * 2), 0, 0)
    console = Console(record=True, width=100)
    console.print(clock_panel(model.display(clock, 10**9), ["Ada", "Bo"], footer="hello"))
    text = console.export_text()
    assert "Ada" in text and "running" in text and "waiting" in text and "hello" in text


def test_the_terminal_shows_a_simple_delay_counting_down() -> None:
    clock, _ = model.start(model.new_clock([parse("300d5")] * 2), 0, 0)
    for t, seen in ((10**9, "delay 4.0"), (3 * 10**9, "delay 2.0")):
        console = Console(record=True, width=100)
        console.print(clock_panel(model.display(clock, t), ["Ada", "Bo"]))
        text = console.export_text()
        assert seen in text
    console = Console(record=True, width=100)
    console.print(clock_panel(model.display(clock, 6 * 10**9), ["Ada", "Bo"]))
    assert "delay" not in console.export_text()


def test_every_tick_feeds_the_buzzer_as_time_passes() -> None:
    from companion.clock.runner import ClockRunner
    from companion.commands.clock_cmd import _frame
    from companion.config import Config
    from companion.devices.buzzer import TerminalBell

    t = [0]
    runner = ClockRunner(model.new_clock([parse("12")] * 2), now_ns=lambda: t[0])
    runner.start(0)
    bell_out = io.StringIO()
    bell = TerminalBell(Config().clock, stream=bell_out)
    beeps = []
    for tenth in range(0, 120, 5):  # nobody presses: only time passes
        t[0] = tenth * 100_000_000
        _frame(runner, Config(), lambda: t[0], [lambda shown: beeps.append(bell.update(shown))])
    kinds = [b.kind for b in beeps if b is not None]
    assert kinds == ["warning", "countdown", "countdown", "countdown", "countdown", "countdown"]
    assert bell_out.getvalue() == "\a" * 6


def test_the_pico_board_drives_the_clock(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import os
    import threading
    import time

    from companion.devices.cardreader import picowire as wire
    from companion.devices.cardreader.pico_emulator import PicoEmulator
    from companion.devices.cardreader.ptypair import PtyPair

    read_end, write_end = os.pipe()
    monkeypatch.setattr(sys, "stdin", os.fdopen(read_end, "r"))
    with PtyPair() as ptys, PicoEmulator(ptys.device_path) as board:
        result: list[int] = []
        runner = threading.Thread(
            target=lambda: result.append(
                main(["clock", "300", "--pico", ptys.host_path, "--plain", "--names", "Ada,Bo"])
            )
        )
        runner.start()
        deadline = time.monotonic() + 5
        while board.leds[0][0] == wire.LED_OFF and time.monotonic() < deadline:
            if not board.received:
                time.sleep(0.05)
                continue
            board.press(1)  # Bo's button: Ada's time starts and her LED lights
            board.release(1)
            time.sleep(0.3)
        os.write(write_end, b"q\n")
        os.close(write_end)
        runner.join(10)
    assert result == [0]
    out = capsys.readouterr().out
    assert "Ada's time starts" in out
    assert board.leds[0][0] == wire.LED_ON
