"""The main job (`companion run`, `make run`): with a screen, the touchscreen app on a
simulated table; without one, a whole refereed game between simulated players in the
terminal, on simulated twins of the hardware, streamed live with the display page served.

    run_main(MainOptions(app=None))    # the app when there is a screen, else the terminal
"""

from __future__ import annotations

import sys
import threading
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from companion.config import load_config
from companion.errors import UserError
from companion.launch.app import AppOptions, has_screen, run_app
from companion.streaming import DISPLAY_PORT, Streaming
from companion.table.wiring import OnGame, together
from companion.voice import table_voice


class TerminalGame(Protocol):
    """A whole game between simulated players on simulated twins of the hardware, narrated
    in the terminal: a game's own demonstration (`companion run` asks its plugin's
    command module for one)."""

    def play(self, config: Path | None, attach: OnGame | None) -> int:
        """Plays it to the end; `attach` is called with the game once it is set up (the
        stream, say). Returns the exit code."""
        ...


@dataclass(frozen=True)
class MainOptions:
    config: Path | None = None
    app: bool | None = None
    """The app (True), the terminal (False), or the app when there is a screen (None)."""
    stream: bool = True
    local: bool = False
    display_port: int = DISPLAY_PORT
    linger: float | None = None
    """Seconds the stream and page stay up after a terminal game; None: until Ctrl-C from a
    terminal, none otherwise."""
    game: TerminalGame | None = None
    """The terminal game."""
    setup: str | None = None
    """A named setup or setup file the app's New game opens with."""


def run_main(options: MainOptions) -> int:
    if options.app if options.app is not None else has_screen():
        return run_app(
            AppOptions(
                config=options.config,
                simulate=True,
                stream=options.stream,
                local=options.local,
                display_port=options.display_port,
                reader=False,
                setup=options.setup,
            )
        )
    game = options.game
    if game is None:
        raise UserError("this game is not played in the terminal: play it in the app (--app)")
    config = load_config(options.config)
    with ExitStack() as stack:
        voice = stack.enter_context(table_voice(lambda: config.voice))
        if not options.stream:
            return game.play(options.config, voice.attach)
        streaming = stack.enter_context(
            Streaming(config, options.display_port, local=options.local)
        )
        code = game.play(options.config, together(streaming.attach, voice.attach))
        linger = (
            options.linger
            if options.linger is not None
            else (float("inf") if sys.stdin.isatty() else 0.0)
        )
        if linger > 0:
            print(
                f"The game is over; the page stays up at {streaming.shown_url} "
                + ("until Ctrl-C." if linger == float("inf") else f"for {linger:g} s."),
                flush=True,
            )
            threading.Event().wait(None if linger == float("inf") else linger)
    return code
