"""A tournament's preset as a user starts it: `make run`'s process (`companion run --simulate
--app`, the stream on) with `--setup FILE` opens New game with the setup's game, options and
house rules; Start begins the game with all of them, and the phone's page shows it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.table.setups import read_setup

from .browser import Phone
from .product import centre, open_real_app, python_module
from .room import Room

SETUP = """\
game = "memwars"
name = "Club handicap"

[options]
quadrants = [2]
depth = "roll"
"sides.1.depth" = 4
topology.kind = "standard"
"clock.controls.0" = "15+10"
"clock.controls.1" = "5+3"

[house_rules]
"mw.standard.allowPass" = true
"""


def test_the_app_opens_new_game_on_a_setup_and_begins_it(
    screen: Any, x_screen: str, room: Room, tmp_path: Path, shots: Path
) -> None:
    file = tmp_path / "club.toml"
    file.write_text(SETUP, encoding="utf-8")
    # Where Start is, from the same app laid out offscreen with the same setup.
    wizard = screen.screen("new_game")
    wizard.use_setup(read_setup(file))
    screen.app.manager.current = "new_game"
    screen.frames(2)
    assert wizard.options_button.text == "Club handicap (change...)"
    start = centre(wizard.ids.start)

    command = python_module("run", "--simulate", "--app", "--setup", str(file))
    real = open_real_app(room, command, x_screen, tmp_path)
    try:
        real.until(real.drawn, 60, "the first screen")
        real.shot(shots / "setup-real-new-game.png")
        real.click(start, settle=1.0)
        real.until(lambda: bool(real.games()), 30, "the game to start")
        ((_game_id, status, header),) = real.games()
        assert status == "playing" and header["game"] == "memwars"
        setup = header["setup"]
        assert setup["quadrants"] == [2] and setup["depth"] == "roll"
        assert setup["sides"][1]["depth"] == 4
        assert setup["topology"]["kind"] == "standard"
        assert setup["house_rules"] == {"mw.standard.allowPass": True}
        assert header["clock"]["controls"] == ["15+10", "5+3"]
        with Phone(room, shots) as phone:
            page = phone.open(f"http://{room.table_address}:8080/", "setup-page")
            # The game's own board: the three quadrants not agreed on are drawn out of play.
            page.wait_for_function(
                "document.querySelectorAll('#board .out').length === 3", timeout=30_000
            )
            phone.shot(page, "setup-page")
        real.shot(shots / "setup-real-live.png")
    finally:
        code, out, err = real.stop()
    assert code == 0, err
    assert "Traceback" not in out + err, out + err
