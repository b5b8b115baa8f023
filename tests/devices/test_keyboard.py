"""The keyboard twin: keys to presses, lines or a real terminal in cbreak mode, stop()."""

from __future__ import annotations

import io
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from companion.clock.presses import ButtonPress
from companion.devices.keyboard import PAUSE_KEYS, PLAYER_KEYS, KeyboardButtons
from tests.devices.conftest import FakeClock


def _keyboard(**kwargs: Any) -> tuple[KeyboardButtons, list[ButtonPress]]:
    presses: list[ButtonPress] = []
    return KeyboardButtons(on_press=presses.append, clock_ns=FakeClock(42), **kwargs), presses


def test_the_default_keys_are_the_clocks_digits() -> None:
    assert (PLAYER_KEYS, PAUSE_KEYS) == ("123456", "p ")
    keys, presses = _keyboard()
    assert keys.feed("1") == ButtonPress("player", 0, 42)
    assert keys.feed("2") == ButtonPress("player", 1, 42)
    assert keys.feed("p") == ButtonPress("pause", None, 42)
    assert keys.feed(" ") == ButtonPress("pause", None, 42)
    assert [p.player for p in presses] == [0, 1, None, None]


def test_custom_keys_for_more_players_and_letters_in_either_case() -> None:
    keys, presses = _keyboard(keys="qwe", pause_keys="x")
    for char in "qWeX":
        keys.feed(char)
    assert [(p.kind, p.player) for p in presses] == [
        ("player", 0),
        ("player", 1),
        ("player", 2),
        ("pause", None),
    ]


def test_other_keys_are_ignored_or_handed_on() -> None:
    keys, presses = _keyboard()
    assert keys.feed("\n") is None and keys.feed("7") is None
    assert presses == []
    others: list[str] = []
    keys, presses = _keyboard(on_other_key=others.append)
    assert keys.feed("q") is None
    assert others == ["q"] and presses == []


def test_the_time_is_read_at_the_key() -> None:
    clock = FakeClock(5)
    presses: list[ButtonPress] = []
    keys = KeyboardButtons(on_press=presses.append, clock_ns=clock)
    keys.feed("1")
    clock.t_ns = 9
    keys.feed("2")
    assert [p.t_ns for p in presses] == [5, 9]


@pytest.mark.parametrize(
    ("keys", "pause_keys"), [("", "p"), ("aa", "p"), ("az", "a"), ("azp", "p ")]
)
def test_ambiguous_keys_are_refused(keys: str, pause_keys: str) -> None:
    with pytest.raises(ValueError):
        KeyboardButtons(keys, pause_keys=pause_keys, on_press=lambda press: None)


def test_read_loop_without_a_terminal_reads_lines() -> None:
    keys, presses = _keyboard()
    keys.read_loop(io.StringIO("1\n2 p\n\nx1\n"))
    assert [(p.kind, p.player) for p in presses] == [
        ("player", 0),
        ("player", 1),
        ("pause", None),
        ("pause", None),
        ("player", 0),
    ]


def test_stop_ends_the_line_loop_at_once() -> None:
    presses: list[ButtonPress] = []

    def on_press(press: ButtonPress) -> None:
        presses.append(press)
        keys.stop()

    keys = KeyboardButtons(on_press=on_press)
    keys.read_loop(io.StringIO("1212\n12\n"))
    assert len(presses) == 1 and keys.stopped


def test_close_stops_and_a_stopped_keyboard_reads_nothing() -> None:
    with KeyboardButtons(on_press=lambda press: None) as keys:
        pass
    assert keys.stopped
    keys.read_loop(io.StringIO("1\n"))


@pytest.fixture()
def terminal() -> Iterator[tuple[int, int]]:
    """A pseudo-terminal: (the end the 'user' types into, the end the loop reads)."""
    pty = pytest.importorskip("pty")
    main_fd, tty_fd = pty.openpty()
    try:
        yield main_fd, tty_fd
    finally:
        os.close(main_fd)
        os.close(tty_fd)


def _in_cbreak(fd: int) -> bool:
    import termios

    return not termios.tcgetattr(fd)[3] & termios.ICANON


def _wait_for(condition: Any, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_read_loop_on_a_terminal_takes_keys_as_typed_and_restores_it(
    terminal: tuple[int, int],
) -> None:
    import termios

    main_fd, tty_fd = terminal
    before = termios.tcgetattr(tty_fd)
    presses: list[ButtonPress] = []
    keys = KeyboardButtons(on_press=presses.append)
    with open(tty_fd, closefd=False) as stream:
        loop = threading.Thread(target=keys.read_loop, args=(stream,), kwargs={"poll_s": 0.01})
        loop.start()
        _wait_for(lambda: _in_cbreak(tty_fd))
        os.write(main_fd, b"1")  # no Enter: cbreak mode delivers it at once
        _wait_for(lambda: len(presses) == 1)
        os.write(main_fd, "2é ".encode())
        _wait_for(lambda: len(presses) == 3)
        keys.stop()
        loop.join(timeout=5)
    assert not loop.is_alive()
    assert [(p.kind, p.player) for p in presses] == [
        ("player", 0),
        ("player", 1),
        ("pause", None),
    ]
    assert termios.tcgetattr(tty_fd) == before


def test_the_terminal_is_restored_when_a_press_raises(terminal: tuple[int, int]) -> None:
    import termios

    main_fd, tty_fd = terminal
    before = termios.tcgetattr(tty_fd)

    def on_press(press: ButtonPress) -> None:
        assert _in_cbreak(tty_fd)
        raise RuntimeError("the clock broke")

    keys = KeyboardButtons(on_press=on_press)
    errors: list[BaseException] = []

    def run() -> None:
        with open(tty_fd, closefd=False) as stream:
            try:
                keys.read_loop(stream, poll_s=0.01)
            except RuntimeError as err:
                errors.append(err)

    loop = threading.Thread(target=run)
    loop.start()
    _wait_for(lambda: _in_cbreak(tty_fd))
    os.write(main_fd, b"1")
    loop.join(timeout=5)
    assert not loop.is_alive()
    assert [str(e) for e in errors] == ["the clock broke"]
    assert termios.tcgetattr(tty_fd) == before


def test_stop_from_a_key_ends_the_terminal_loop(terminal: tuple[int, int]) -> None:
    main_fd, tty_fd = terminal
    presses: list[ButtonPress] = []
    keys = KeyboardButtons(on_press=presses.append, on_other_key=lambda char: keys.stop())
    with open(tty_fd, closefd=False) as stream:
        loop = threading.Thread(target=keys.read_loop, args=(stream,))
        loop.start()
        _wait_for(lambda: _in_cbreak(tty_fd))
        os.write(main_fd, b"q1")  # '1' arrives after the stop and is not fed
        loop.join(timeout=5)
    assert not loop.is_alive() and presses == []


def test_a_key_is_dated_when_it_arrives_not_when_it_is_handled(
    terminal: tuple[int, int],
) -> None:
    """While one key is being handled (a slow screen, a busy machine), the next arrives: it
    is dated when it arrived, before the first one's handling ended, not after."""
    main_fd, tty_fd = terminal
    presses: list[ButtonPress] = []
    handled: list[int] = []

    def on_press(press: ButtonPress) -> None:
        presses.append(press)
        if len(presses) == 1:
            os.write(main_fd, b"2")  # typed while the first key is being handled
            time.sleep(0.3)
        handled.append(time.monotonic_ns())

    keys = KeyboardButtons(on_press=on_press)
    with open(tty_fd, closefd=False) as stream:
        loop = threading.Thread(target=keys.read_loop, args=(stream,), kwargs={"poll_s": 0.01})
        loop.start()
        _wait_for(lambda: _in_cbreak(tty_fd))
        os.write(main_fd, b"1")
        _wait_for(lambda: len(presses) == 2)
        keys.stop()
        loop.join(timeout=5)
    assert [p.player for p in presses] == [0, 1]
    assert presses[1].t_ns < handled[0]
