"""The main job (`companion run`, `make run`): with a screen, the touchscreen app on a
simulated table; without one, a whole refereed game between simulated players in the
terminal, on simulated twins of the hardware, streamed live with the display page served.

    run_main(MainOptions(app=None))    # the app when there is a screen, else the terminal
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

from companion.config import load_config
from companion.games.memwars.play.simulation import SimulationOptions, run_simulation
from companion.launch.app import AppOptions, has_screen, run_app
from companion.streaming import DISPLAY_PORT, Streaming


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
    game: SimulationOptions = field(default_factory=SimulationOptions)
    """The terminal game."""


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
            )
        )
    config = load_config(options.config)
    game = replace(options.game, config=options.config)
    if not options.stream:
        return run_simulation(game)
    with Streaming(config, options.display_port, local=options.local) as streaming:
        code = run_simulation(game, attach=streaming.attach)
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
