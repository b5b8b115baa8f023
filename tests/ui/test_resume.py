"""A power cut mid-game: the companion is killed outright, and the next start offers the
game on its Home screen and goes on from exactly where it stood."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.plays import memwars_of

from .screen import Screen

PLAYER = textwrap.dedent(
    """
    import sys, time
    from companion.config import Config
    from companion.store import Store
    from companion.games.memwars.play.choices import MemWarsChoices
    from companion.ui.controller import Controller

    store = Store.open(sys.argv[1])
    app = Controller(Config(), store)
    choices = MemWarsChoices(names=("Ann", "Bo"), quadrants=1, opponent=True, seed=11)
    live = app.start("memwars", choices)
    while live.view().seq < 12:
        if not app.step():
            buttons = live.view().buttons
            keys = [b.key for b in buttons]
            if "claim" in keys:
                live.decide("claim", live.view().places[0])
            else:
                live.decide("north-top" if "north-top" in keys else keys[0])
    print(live.view().seq, flush=True)
    time.sleep(60)
    """
)


def test_a_killed_game_is_offered_on_home_and_resumes_exactly(
    screen: Screen, tmp_path: Path
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", PLAYER, str(tmp_path / "games.sqlite3")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        seq = int(child.stdout.readline())
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    home = screen.screen("home")
    home.refresh()
    assert home.resume_text.startswith("Resume: Ann vs Bo") and f"move {seq}" in home.resume_text
    screen.shot("home-resume")
    screen.tap(home.ids.resume)
    assert screen.current == "live"
    view = screen.view()
    assert view.seq == seq
    assert len(view.history) == seq
    # It goes on: the companion still plays Bo, the player still plays Ann.
    controller = screen.app.controller
    assert memwars_of(controller).opponent_side == 1
