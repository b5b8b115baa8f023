"""The live screen of a game played remotely: the link's state in one line, and what to lay
at this table for the other table's move, with a Done touch when no camera checks it."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

from companion.config import Config as CompanionConfig
from companion.games import find_plugin
from companion.games.memwars.play.choices import MemWarsChoices
from companion.publish.mosquitto import Mosquitto
from companion.remote.at_table import RemoteBroker
from companion.remote.state import LinkState
from companion.store import Store
from companion.ui.controller import Controller

from .screen import Screen

DEADLINE_S = 60.0


def test_the_live_screen_shows_the_link_and_the_move_to_lay(
    screen: Screen, tmp_path: Path, broker: Mosquitto
) -> None:
    app = screen.app
    host = app.controller
    app.start_game("memwars", MemWarsChoices(names=("Ada", "Basil"), quadrants=1, seed=3))
    host.host_remote(RemoteBroker(url=broker.url), match="ui", host_sides=[0])
    with Store.open(tmp_path / "guest.sqlite3") as guest_store:
        guest = Controller(CompanionConfig(), guest_store)
        rng = random.Random(3)

        def run_until(done: Callable[[], bool], *, moves: bool = False) -> None:
            deadline = time.monotonic() + DEADLINE_S
            while not done():
                assert time.monotonic() < deadline, "the condition did not come true in time"
                app.step(0.2)  # the app's clock: takes in the guest's moves
                guest.step()
                for controller in (host, guest):
                    at, play = controller.remote, controller.play
                    assert at is not None and play is not None
                    connected = at.state is LinkState.CONNECTED
                    if moves and connected and at.link.local_turn() and not at.mirroring:
                        referee = play.referee
                        referee.submit(find_plugin("memwars").random_action(referee.state, rng))
                        break
                screen.frames(1)

        try:
            guest.join_remote(RemoteBroker(url=broker.url), match="ui")
            live = screen.screen()
            run_until(lambda: "Remote: connected to Basil's table" in live.remote)
            assert not live.remote_done
            screen.shot("remote-connected")

            assert host.remote is not None
            run_until(lambda: host.remote is not None and host.remote.mirroring, moves=True)
            run_until(lambda: live.remote_done)
            assert "Basil" in live.remote and "crystal" in live.remote
            screen.shot("remote-lay-the-move")

            screen.tap(live.ids.remote_done)
            screen.frames(1)
            assert not host.remote.mirroring
            assert live.remote == "Remote: connected to Basil's table"
        finally:
            guest.close()
