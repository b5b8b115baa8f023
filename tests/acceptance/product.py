"""Drives the real app process as a finger would: xdotool clicks at the places where the
twin (the same app, offscreen, in this process, kept in the same game) draws each widget.

The real process is never asked anything: what it did is read back from its store (the
game's committed actions) and seen on its window and on the display page.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import ImageGrab

from companion.games.contract import TABLE
from tests.plays import live_of

from .conftest import HEIGHT

if TYPE_CHECKING:
    from tests.ui.screen import Screen

    from .room import Room


def centre(widget: Any) -> tuple[int, int]:
    """A widget's centre in X's coordinates (y down)."""
    x, y = widget.to_window(*widget.center)
    return round(x), round(HEIGHT - y)


def at(point: tuple[float, float]) -> tuple[int, int]:
    """A window point (Kivy's, y up) in X's coordinates."""
    return round(point[0]), round(HEIGHT - point[1])


@dataclass
class RealApp:
    """`companion ...` running in a window of its own on the X screen."""

    process: subprocess.Popen[str]
    display: str
    data: Path
    window: str = ""
    log: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, command: Sequence[str], *, display: str, data: Path, config: Path) -> RealApp:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SDL_", "KIVY_"))}
        env.update(DISPLAY=display, COMPANION_DATA=str(data), COMPANION_CONFIG=str(config))
        process = subprocess.Popen(
            list(command),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            # A suite run in the background has SIGINT ignored; the app must hear SIGTERM.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        app = cls(process, display, data)
        app.window = _window(display)
        return app

    def click(self, point: tuple[int, int], settle: float = 0.4) -> None:
        subprocess.run(
            ["xdotool", "mousemove", "--window", self.window, *map(str, point), "click", "1"],
            env={**os.environ, "DISPLAY": self.display},
            check=True,
            timeout=10,
        )
        time.sleep(settle)

    def drawn(self) -> bool:
        """Whether the window shows anything yet (it is black until the first frame)."""
        return ImageGrab.grab(xdisplay=self.display).getbbox() is not None

    def picture(self) -> bytes:
        """What the screen shows now, as raw pixels."""
        return ImageGrab.grab(xdisplay=self.display).tobytes()

    def still(self, interval: float = 0.4) -> bool:
        """Whether the screen shows the same before and after `interval`."""
        first = self.picture()
        time.sleep(interval)
        return self.picture() == first

    def shot(self, path: Path) -> Path:
        ImageGrab.grab(xdisplay=self.display).save(path)
        return path

    def stop(self, how: int = signal.SIGTERM) -> tuple[int, str, str]:
        if self.process.poll() is None:
            self.process.send_signal(how)
        out, err = self.process.communicate(timeout=30)
        return self.process.returncode, out, err

    # -- what it committed ------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        path = self.data / "games.sqlite3"
        if not path.exists():
            return []
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
                return db.execute(sql, params).fetchall()
        except sqlite3.OperationalError:  # not created yet
            return []

    def games(self) -> list[tuple[int, str, dict[str, Any]]]:
        rows = self._query("SELECT id, status, header FROM games ORDER BY id")
        return [(row[0], row[1], json.loads(row[2])) for row in rows]

    def actions(self, game_id: int) -> list[dict[str, Any]]:
        rows = self._query("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [json.loads(row[0]) for row in rows]

    def until(self, done: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if self.process.poll() is not None:
                _, out, err = self.stop()
                raise AssertionError(f"the app ended while waiting for {what}:\n{out}\n{err}")
            if time.monotonic() > deadline:
                seen = self.shot(self.data / "timed-out.png")
                raise AssertionError(f"timed out waiting for {what} (the window: {seen})")
            time.sleep(0.1)


class Twin:
    """The same app offscreen, kept in the real app's game by replaying what it commits:
    it knows where each place and button of the real window is."""

    def __init__(self, screen: Screen, real: RealApp, game_id: int) -> None:
        self.screen = screen
        self.real = real
        self.game_id = game_id

    @property
    def referee(self) -> Any:
        return live_of(self.screen.app.controller).referee

    def catch_up(self) -> int:
        """Plays what the real app committed since; returns how many actions that was."""
        engine = self.referee.engine
        committed = self.real.actions(self.game_id)
        new = committed[self.referee.seq :]
        for data in new:
            self.referee.submit(engine.action_from_dict(data))
        self.screen.frames(3)
        return len(new)

    def companions_turn(self) -> bool:
        """Whether the companion (the second side) owes the next decision."""
        expectation = self.referee.expected()
        return expectation is not None and (
            expectation.actor == 1
            or (expectation.actor == TABLE and "answer" in expectation.actions)
        )

    def over(self) -> bool:
        return self.referee.expected() is None

    def place(self, number: int) -> tuple[int, int]:
        board = self.screen.screen("live").ids.board
        return at(board.to_window(*board.place_at(number)))

    def button(self, key: str) -> tuple[int, int]:
        button = self.screen.screen("live").button(key)
        assert button is not None, f"no {key!r} button"
        return centre(button)

    def wait_for_more(self, before: int, timeout: float, what: str) -> None:
        """Waits for the real app to commit past action `before`, and catches up."""
        self.real.until(lambda: len(self.real.actions(self.game_id)) > before, timeout, what)
        self.catch_up()

    def took(self, before: int, within: float) -> bool:
        """Whether the real app commits past action `before` within `within` seconds (a
        click can miss: an alert that comes and goes moves the buttons, as it would under
        a finger); catches up either way."""
        deadline = time.monotonic() + within
        while len(self.real.actions(self.game_id)) <= before:
            if time.monotonic() > deadline or self.real.process.poll() is not None:
                self.catch_up()
                return False
            time.sleep(0.1)
        self.catch_up()
        return True

    def decide(self, key: str, place: int = 0, *, tries: int = 10) -> None:
        """Clicks the place (when given) and the decision's button on the real window until
        the real app commits the decision (a click can miss while an alert holds the game,
        as a finger's would); then catches up."""
        for _ in range(tries):
            before = self.referee.seq
            if place:
                self.real.click(self.place(place))
            self.real.click(self.button(key))
            if self.took(before, 8):
                return
        seen = self.real.shot(self.real.data / "not-taken.png")
        raise AssertionError(f"the app did not take {key!r} in {tries} tries (the window: {seen})")

    def same_setup_as(self, header: dict[str, Any]) -> bool:
        """Whether the twin's game was set up as the real one was."""
        store = self.referee.store
        mine = store.header(self.referee.game_id)
        return dict(mine.setup) == dict(header["setup"])


def python_module(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion", *args]


def _window(display: str) -> str:
    """The app's window, once it exists. A search that meets a window being destroyed (the
    previous app's, after a kill) fails with BadWindow: it is tried again."""
    deadline = time.monotonic() + 90
    while True:
        found = subprocess.run(
            ["xdotool", "search", "--sync", "--classname", "python"],
            env={**os.environ, "DISPLAY": display},
            capture_output=True,
            text=True,
            timeout=90,
        )
        if found.stdout.split():
            return found.stdout.split()[0]
        assert "BadWindow" in found.stderr and time.monotonic() < deadline, (
            f"no window: {found.stderr}"
        )
        time.sleep(0.2)


def open_real_app(
    room: Room, command: Sequence[str], display: str, folder: Path, config: str = ""
) -> RealApp:
    """The real app at the table, with a data folder (folder/table) and the configuration
    file `config`, or none."""
    data = folder / "table"
    data.mkdir()
    config_file = data / ("config.toml" if config else "none.toml")
    if config:
        config_file.write_text(config)
    return RealApp.start(room.at_table(command), display=display, data=data, config=config_file)


def start_from_home(
    real: RealApp,
    home: tuple[int, int],
    picks: Sequence[tuple[int, int]],
    start: tuple[int, int],
    shot: Path,
    settle: float,
) -> tuple[int, str, dict[str, Any]]:
    """New game, the wizard's picks, a screenshot of them, Start: the one game it began."""
    real.until(real.drawn, 60, "the first screen")
    before = real.picture()
    real.click(home)
    # On a busy machine New game may take a while to show: a pick clicked before it does
    # would land on Home. Wait for the window to change and then hold still.
    real.until(lambda: real.picture() != before, 30, "New game")
    real.until(real.still, 30, "New game to be drawn")
    for pick in picks:
        real.click(pick, settle=settle)
    real.shot(shot)
    real.click(start, settle=1.0)
    real.until(lambda: bool(real.games()), 30, "the game to start")
    ((game_id, status, header),) = real.games()
    return game_id, status, header
