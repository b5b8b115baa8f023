"""`companion run --simulate` as a person meets it: a real window on a (virtual) X screen,
clicked through with xdotool, the game landing in the store, SIGTERM closing it cleanly."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .screen import Screen

HEIGHT = 480


def centre(widget: object) -> tuple[int, int]:
    """A widget's centre in X's coordinates (y down), from the same layout drawn offscreen."""
    x, y = widget.to_window(*widget.center)  # type: ignore[attr-defined]
    return round(x), round(HEIGHT - y)


@pytest.fixture()
def x_screen() -> Iterator[str]:
    for tool in ("Xvfb", "xdotool"):
        assert shutil.which(tool), f"{tool} is missing: run scripts/install-system-deps.sh"
    display = f":{100 + os.getpid() % 800}"
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", f"800x{HEIGHT}x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{display[1:]}").exists():
            assert time.monotonic() < deadline, "Xvfb did not start"
            time.sleep(0.05)
        yield display
    finally:
        server.terminate()
        server.wait(timeout=10)


def actions_stored(data: Path) -> list[tuple[int, str]]:
    path = data / "games.sqlite3"
    if not path.exists():
        return []
    with sqlite3.connect(path) as db:
        try:
            rows = db.execute(
                "SELECT game_id, status FROM games JOIN actions ON id = game_id"
            ).fetchall()
        except sqlite3.OperationalError:
            return []
    return rows


def test_a_turn_clicked_through_in_a_real_window(
    screen: Screen, x_screen: str, tmp_path: Path
) -> None:
    # Where the buttons are, from the same app laid out offscreen at the same size.
    home = centre(screen.screen("home").ids.new_game)
    screen.tap_text("New game")
    start = centre(screen.screen("new_game").ids.start)
    screen.tap_text("Start the game")
    roll = centre(screen.screen("live").button("roll"))

    data = tmp_path / "kiosk"
    data.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SDL_", "KIVY_"))}
    env.update(
        DISPLAY=x_screen,
        COMPANION_DATA=str(data),
        COMPANION_CONFIG=str(data / "none.toml"),
    )
    app = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate", "--app", "--no-stream"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A suite run in the background has SIGINT ignored; the app must hear SIGTERM.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        found = subprocess.run(
            ["xdotool", "search", "--sync", "--classname", "python"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        window = found.stdout.split()[0]

        def click(x: int, y: int) -> None:
            subprocess.run(
                ["xdotool", "mousemove", "--window", window, str(x), str(y), "click", "1"],
                env=env,
                check=True,
                timeout=10,
            )
            time.sleep(0.6)

        def games() -> int:
            path = data / "games.sqlite3"
            if not path.exists():
                return 0
            with sqlite3.connect(path) as db:
                try:
                    return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
                except sqlite3.OperationalError:
                    return 0

        # The window may be up before the app has drawn its first screen (a busy machine):
        # New game and Start again until the game exists. A second tap on New game's spot
        # lands on the wizard's Quadrants row, which changes nothing this test looks at.
        deadline = time.monotonic() + 30
        while games() == 0:
            assert time.monotonic() < deadline, "the app never started a game"
            click(*home)
            click(*start)
        click(*roll)
        deadline = time.monotonic() + 20
        while len(actions_stored(data)) < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert actions_stored(data) == [(1, "playing")]
    finally:
        app.send_signal(signal.SIGTERM)
        out, err = app.communicate(timeout=20)
    assert app.returncode == 0, err
    assert "Traceback" not in out + err
