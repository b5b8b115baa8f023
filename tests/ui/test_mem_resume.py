"""A MeM game killed mid-turn is offered on Home at the next start and resumes exactly."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from companion.games.mem.solver import best_action
from companion.games.mem.text import format_board
from tests.plays import mem_of

from .screen import Screen

PLAYER = textwrap.dedent(
    """
    import sys, time
    from companion.config import Config
    from companion.games.mem.solver import best_action
    from companion.games.mem.text import format_board
    from companion.store import Store
    from companion.ui.controller import Controller
    from companion.games.mem.screens.choices import MemChoices

    store = Store.open(sys.argv[1])
    app = Controller(Config(), store)
    play = app.start("mem", MemChoices(game="mini", names=("Ada", "Bo"), seed=21, hints=False))
    while play.referee.seq < 5:
        play.referee.submit(best_action(play.state, budget=50).action)
    patterns = [list(side.pattern) for side in play.state.sides]
    print(play.referee.seq, format_board(play.state.board), patterns, flush=True)
    time.sleep(60)
    """
)


def test_a_killed_mem_game_resumes_from_home(screen: Screen, tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", PLAYER, str(tmp_path / "games.sqlite3")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        seq_text, board, patterns = child.stdout.readline().split(" ", 2)
        seq = int(seq_text)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    home = screen.screen("home")
    home.refresh()
    assert home.resume_text == f"Resume: Ada vs Bo, Mini-MEM, deal 21, rated (move {seq})"
    screen.shot("mem-home-resume")
    screen.tap(home.ids.resume)
    assert screen.current == "mem_live"
    play = mem_of(screen.app.controller)
    view = play.view()
    # The same position: replayed from the store, mid-turn, a rated game still.
    assert view.seq == seq == 5 and not view.hints
    assert format_board(view.board) == board
    assert str([list(p) for p in view.patterns]) == patterns.strip()
    assert play.state.moves_made == 1 and len(view.history) == 5 and view.events
    screen.shot("mem-resumed")
    # And it goes on.
    action = best_action(play.state, budget=50).action
    assert action is not None
    play.referee.submit(action)
    assert play.view().seq == 6
