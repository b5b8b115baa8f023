"""`make run` as a person at the table meets it, with the stream on, while a phone on the
same network watches: the real `companion run --simulate` in a real window, clicked through
a whole game against the companion (a claim laid on the simulated table, challenges,
verdicts, the clock running) to the end screen, the companion speaking each move; then the
game stepped through on the phone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from companion.games.memwars.palette import CHALLENGE_COLOUR
from companion.games.memwars.play.choices import MemWarsChoices
from tests.voice.sound import measure

from .browser import Phone, clock_runs
from .product import RealApp, Twin, centre, open_real_app, python_module, start_from_home
from .room import Room

MAKE_RUN = python_module("run", "--simulate", "--app")


@pytest.mark.long
def test_make_run_plays_a_whole_game_streamed_to_a_phone(
    screen: Any, x_screen: str, room: Room, tmp_path: Path, shots: Path
) -> None:
    # Where the wizard's buttons are, from the same app laid out offscreen at the same size.
    home = centre(screen.screen("home").ids.new_game)
    screen.tap_text("New game")
    wizard = screen.screen("new_game")
    companion = next(w for w in wizard.walk() if getattr(w, "text", "") == "The companion")
    picks = [
        centre(companion),
        centre(wizard.toggles["quadrants"][1]),
        centre(wizard.toggles["time_control"]["5+3"]),
    ]
    start = centre(wizard.ids.start)
    screen.tap_text("Back")

    # The companion speaks, and keeps what it says: the recording is checked at the end.
    said = tmp_path / "table" / "said"
    voice = f'[voice]\non = true\nkeep_dir = "{said}"\n'
    real = open_real_app(room, MAKE_RUN, x_screen, tmp_path, config=voice)
    try:
        game_id, status, header = start_from_home(
            real, home, picks, start, shots / "make-run-wizard.png", settle=0.2
        )
        assert status == "playing"
        setup = header["setup"]

        # The twin plays the same game: the same choices and the real game's seed. It has
        # no camera of its own (its alerts would move its buttons); the simulated table's
        # row is laid out as the real app lays it.
        screen.app.start_game(
            "memwars",
            MemWarsChoices(opponent=True, quadrants=1, time_control="5+3", seed=setup["seed"]),
        )
        twin = Twin(screen, real, game_id)
        table = _table_row(screen)
        assert twin.referee.state.setup.seed == setup["seed"]
        assert twin.catch_up() == 0

        with Phone(room, shots) as phone:
            page = phone.open(f"http://{room.table_address}:8080/", "make-run-page")
            page.wait_for_selector("#board [data-place]", timeout=30_000)
            played = _play_to_the_end(twin, real, phone, shots, table)
            page.wait_for_selector("#outcome:not([hidden])", timeout=30_000)
            assert page.inner_text("#outcome").startswith("Game over")
            phone.shot(page, "make-run-page-over")
            overlay = phone.open(f"http://{room.table_address}:8080/?overlay=1", "overlay")
            overlay.wait_for_selector(".ov-side .total", timeout=30_000)
            assert overlay.locator(".ov-side").count() == 2
            phone.shot(overlay, "make-run-overlay")
            wall = phone.open(f"http://{room.table_address}:8080/wall", "wall")
            wall.wait_for_selector('.card[data-board="table-1"] .card-side .total')
            phone.shot(wall, "make-run-wall")
            # The game just played, stepped through on the phone from the table's store.
            replay = phone.open(f"http://{room.table_address}:8080/?replay=", "replay")
            replay.click(f"#stored-games a[href='?replay={game_id}']")
            replay.wait_for_selector("#replay-bar:not([hidden])")
            assert replay.inner_text("#replay-where") == "Start"
            replay.keyboard.press("End")
            replay.wait_for_selector("#outcome:not([hidden])")
            assert replay.inner_text("#outcome").startswith("Game over")
            phone.shot(replay, "make-run-replay")
        assert {"claim", "challenge"} <= played
        assert any(kind.startswith("judge") for kind in played), played
        real.until(lambda: real.games()[0][1] == "finished", 20, "the game to be finished")
        time.sleep(1.0)
        real.shot(shots / "make-run-end.png")
    finally:
        code, out, err = real.stop()
    assert code == 0, err
    assert "Traceback" not in out + err, out + err
    assert f"http://{room.table_address}:8080/" in out
    # Speech for the game's first ten moves and prompts, each long and loud enough to hear.
    kept = sorted(said.glob("*.wav"))
    assert len(kept) >= 10, kept
    for wav in kept[:10]:
        sound = measure(wav)
        assert sound.seconds > 0.4 and sound.rms > 0.02, (wav.name, sound)


def _table_row(screen: Any) -> dict[str, tuple[int, int]]:
    """Where the real app's simulated-table row puts its toggle and colour chips."""
    live = screen.screen("live")
    live.has_table = live.has_reader = True
    live._show_table_colours((*screen.view().side_colours, CHALLENGE_COLOUR))
    screen.frames(3)
    row = {chip.colour: centre(chip) for chip in live.ids.table_colours.children}
    row["toggle"] = centre(live.ids.table_toggle)
    return row


def _play_to_the_end(
    twin: Twin, real: RealApp, phone: Phone, shots: Path, table: dict[str, tuple[int, int]]
) -> set[str]:
    """The person's side of the game, by clicks; the companion plays its own side. Returns
    the kinds of action committed."""
    laid_on_table = challenged = False
    clock_seen = verdict_seen = False
    misses = 0
    deadline = time.monotonic() + 300
    while not twin.over():
        assert time.monotonic() < deadline, "the game did not end in 5 minutes"
        before = twin.referee.seq
        if twin.companions_turn():
            twin.wait_for_more(before, 30, "the companion's move")
            continue
        view = twin.screen.view()
        keys = [b.key for b in view.buttons]
        if "claim" in keys and not laid_on_table:
            # The first claim is a crystal laid on the simulated table, which the camera
            # sees and the rules take.
            mine = view.side_colours[view.side_names.index(view.actor)]
            place = view.places[0]
            _lay(real, twin, table, mine, place, before, "the camera to see the claim")
            laid_on_table = True
            assert twin.real.actions(twin.game_id)[before] == {
                "type": "claim",
                "side": 0,
                "place": place,
            }
            page = phone.pages["make-run-page"]
            page.wait_for_selector(f'#board [data-place="{place}"] .crystal', timeout=20_000)
            clock_seen = clock_runs(page)
            phone.shot(page, "make-run-page-claim")
            real.shot(shots / "make-run-claim.png")
            continue
        if "claim" in keys:
            real.click(twin.place(view.places[0]))
            key = "claim"
        elif "judge-rr" in keys:
            key = "judge-rw"
        elif "decline" in keys:
            # One challenge of the person's own; then the companion's bring the verdicts.
            key = "decline" if challenged else "challenge"
        elif "north-top" in keys:
            key = "north-top"
        else:
            key = keys[0]
        real.click(twin.button(key))
        if twin.took(before, 8):
            misses = 0
            challenged = challenged or key == "challenge"
        else:
            misses += 1
            real.shot(shots / f"miss-{misses}.png")
            twin.screen.shot(f"twin-miss-{misses}")
            assert misses < 10, f"the app did not take {key!r} in ten tries in a row"
            continue
        if key.startswith("judge") and not verdict_seen:
            page = phone.pages["make-run-page"]
            page.wait_for_function(
                "() => document.querySelector('#last-event').textContent.length > 0"
            )
            phone.shot(page, "make-run-page-verdict")
            real.shot(shots / "make-run-verdict.png")
            verdict_seen = True
    assert clock_seen, "the display page never showed the clock running"
    return {action["type"] for action in twin.real.actions(twin.game_id)}


def _lay(
    real: RealApp,
    twin: Twin,
    table: dict[str, tuple[int, int]],
    colour: str,
    place: int,
    before: int,
    what: str,
) -> None:
    """A crystal of `colour` laid on `place` of the simulated table, by clicks."""
    real.click(table["toggle"])
    real.click(table[colour])
    real.click(twin.place(place))
    twin.wait_for_more(before, 60, what)
    real.click(table["toggle"])
