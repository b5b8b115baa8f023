"""The kiosk as a club sets it up: `companion app --fullscreen` with a card reader on its
serial port (an RDM6300 speaking its real protocol through a pseudo-terminal), the stream
on, a timed Basic game clicked through; the power pulled (kill -9) mid-game and the game
resumed from Home, while a phone on the network watches."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

import pytest

from companion.decks import find_deck
from companion.decks.tagmap import save_tag_map
from companion.devices.cardreader.emulators import Rdm6300Emulator
from companion.devices.cardreader.ptypair import PtyPair
from companion.games.memwars.play.choices import MemWarsChoices

from .browser import Phone, clock_runs
from .product import RealApp, Twin, centre, python_module
from .room import Room

KIOSK = python_module("app", "--fullscreen")
SETUP_KEYS = ("roll", "north-top", "roll-depth", "shuffle")


def tag(card: int) -> str:
    return f"E0{card:08X}"


@pytest.mark.long
def test_the_kiosk_with_a_reader_and_a_clock_survives_a_power_cut(
    screen: Any,
    x_screen: str,
    room: Room,
    tmp_path: Path,
    shots: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = tmp_path / "table"
    data.mkdir()
    deck = find_deck("mythologies-of-earth")
    with monkeypatch.context() as enrolled:
        # The deck's tags enrolled on this table, as `companion deck enroll` would have.
        enrolled.setenv("COMPANION_DATA", str(data))
        save_tag_map(deck, {tag(card.number): card.number for card in deck.cards})
    pair = PtyPair()
    reader = Rdm6300Emulator(pair.device_path, repeat_s=0.03)
    config = data / "config.toml"
    config.write_text(f'[reader]\nport = "{pair.host_path}"\nprotocol = "rdm6300"\n')

    # Where the buttons are, from the same app laid out offscreen at the same size.
    home = centre(screen.screen("home").ids.new_game)
    screen.tap_text("New game")
    wizard = screen.screen("new_game")
    picks = [
        centre(wizard.toggles["mode"]["basic"]),
        centre(wizard.toggles["quadrants"][1]),
        centre(wizard.toggles["time_control"]["5+3"]),
    ]
    start = centre(wizard.ids.start)
    screen.tap_text("Back")

    real = RealApp.start(room.at_table(KIOSK), display=x_screen, data=data, config=config)
    try:
        real.until(real.drawn, 60, "the first screen")
        real.click(home)
        for pick in picks:
            real.click(pick, settle=0.2)
        real.click(start, settle=1.0)
        real.until(lambda: bool(real.games()), 30, "the game to start")
        ((game_id, _, header),) = real.games()
        screen.app.start_game(
            "memwars",
            MemWarsChoices(
                mode="basic", quadrants=1, time_control="5+3", seed=header["setup"]["seed"]
            ),
        )
        twin = Twin(screen, real, game_id)
        assert twin.same_setup_as(header)

        with Phone(room, shots) as phone:
            page = phone.open(f"http://{room.table_address}:8080/", "kiosk-page")
            page.wait_for_selector("#board [data-place]", timeout=30_000)
            _through_setup(twin)

            # The card the rules expect, after a wrong one: the wrong one holds the game
            # and the phone hears of it without the card's number.
            expectation = twin.referee.expected()
            assert expectation is not None and expectation.cards
            (wanted,) = expectation.cards
            wrong = 1 if wanted != 1 else 2
            reader.present(tag(wrong))
            page.wait_for_selector(".alert", timeout=20_000)
            assert str(wrong) not in page.inner_text(".alert")
            real.shot(shots / "kiosk-wrong-card.png")
            phone.shot(page, "kiosk-page-wrong-card")
            reader.remove()
            time.sleep(0.5)
            reader.present(tag(wanted))
            time.sleep(1.0)
            reader.remove()
            twin.decide("right")  # refused while the wrong card holds the game
            assert clock_runs(page), "the phone never saw the clock run"
            phone.shot(page, "kiosk-page-clock")
            played = twin.referee.seq

            # The power is pulled.
            real.process.send_signal(signal.SIGKILL)
            real.process.wait(timeout=20)
        committed = real.actions(game_id)
        assert len(committed) == played

        # Back on: Home offers the game; Resume takes it up where it was.
        twin_game = twin.referee.game_id
        screen.app.controller.close()
        screen.root.current = "home"
        screen.screen("home").refresh()
        screen.frames(3)
        resume = centre(screen.screen("home").ids.resume)
        real = RealApp.start(room.at_table(KIOSK), display=x_screen, data=data, config=config)
        real.until(real.drawn, 60, "the first screen after the power came back")
        real.shot(shots / "kiosk-home-after-power-cut.png")
        real.click(resume, settle=1.0)
        screen.app.resume_game(twin_game)
        twin = Twin(screen, real, game_id)
        assert twin.catch_up() == 0
        with Phone(room, shots) as phone:
            page = phone.open(f"http://{room.table_address}:8080/", "kiosk-page-resumed")
            page.wait_for_selector("#board .crystal", timeout=30_000)
            _next_decision(twin)
            real.shot(shots / "kiosk-resumed.png")
            phone.shot(page, "kiosk-page-resumed")
        assert real.actions(game_id)[:played] == committed
        assert len(real.actions(game_id)) > played
    finally:
        code, out, err = real.stop()
        reader.close()
        pair.close()
    assert code == 0, err
    assert "Traceback" not in out + err, out + err


def _through_setup(twin: Twin) -> None:
    """Rolls and the board's orientation, by clicks, until the first card."""
    while True:
        keys = [b.key for b in twin.screen.view().buttons]
        if not keys or keys[0] not in (*SETUP_KEYS, "north-right"):
            return
        twin.decide("north-top" if "north-top" in keys else keys[0])


def _next_decision(twin: Twin) -> None:
    """The next decision the table awaits, made by a click."""
    view = twin.screen.view()
    keys = [b.key for b in view.buttons]
    assert keys, "no decision awaited"
    key = "right" if "right" in keys else keys[0]
    needs_place = next(b.needs_place for b in view.buttons if b.key == key)
    twin.decide(key, view.places[0] if needs_place else 0)
