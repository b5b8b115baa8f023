"""A game's card reader, built one way for the app, `run` and `simulate`: a reader on a serial
port (bytes through a pseudo-terminal) or its emulated twin, each checked at the game's desk."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.config import Config
from companion.decks import find_deck
from companion.decks.tagmap import save_tag_map
from companion.devices.cardreader.emulators import Rdm6300Emulator
from companion.devices.cardreader.ptypair import PtyPair
from companion.devices.cardreader.reader import CardReader
from companion.games.memwars.play.simulation import demo_setup as simulation_setup
from companion.games.memwars.players import SimulatedTable
from companion.session import Referee
from companion.store import Store
from companion.table.card_reading import CardReading, EmulatedReader, SerialReader
from companion.table.observations import ScanOutcome, ScanVerdict
from companion.table.wiring import parts_of

DECK = "mythologies-of-earth"


@pytest.fixture()
def referee(tmp_path: Path) -> Iterator[Referee]:
    deck = find_deck(DECK)
    setup = simulation_setup(deck.board_map(), list(deck.quadrants), deck.depth, "basic", 3, 1)
    with Store.open(tmp_path / "games.sqlite3") as store:
        referee = Referee.start(store, "memwars", setup, {"id": deck.id, "hash": deck.hash})
        table = SimulatedTable(referee.state.setup, (0.5, 0.5), seed=3)
        while not (expectation := referee.expected()) or not expectation.cards:
            assert expectation is not None
            referee.submit(table.next_action(referee.state, expectation))  # up to a card
        yield referee


def expected_card(referee: Referee) -> int:
    expectation = referee.expected()
    assert expectation is not None and expectation.cards
    return expectation.cards[0]


def test_a_serial_readers_scans_are_checked_on_the_games_thread(referee: Referee) -> None:
    deck = find_deck(DECK)
    save_tag_map(deck, {f"E0{c.number:08X}": c.number for c in deck.cards})  # enrolled
    jobs: queue.Queue[Callable[[], None]] = queue.Queue()
    verdicts: list[tuple[ScanVerdict, str]] = []
    with PtyPair() as pair, Rdm6300Emulator(pair.device_path, repeat_s=0.03) as emulator:
        choice = SerialReader(port=pair.host_path, protocol="rdm6300", silence_ms=1_500)
        with CardReading.open(choice, referee, deliver=jobs.put) as reading:
            assert reading.emulated is None
            assert parts_of(referee, reading).scans is reading.desk
            reading.desk.subscribe(
                lambda verdict: verdicts.append((verdict, threading.current_thread().name))
            )
            wanted = expected_card(referee)
            emulator.present(f"E0{wanted:08X}")
            jobs.get(timeout=20)()  # the game's thread runs what the reader heard
    ((verdict, thread),) = verdicts
    assert verdict.outcome is ScanOutcome.EXPECTED and verdict.card == wanted
    assert thread == threading.current_thread().name


def test_the_configured_silence_reaches_the_reader(referee: Referee) -> None:
    with PtyPair() as pair:
        choice = SerialReader(port=pair.host_path, protocol="pn532", silence_ms=1_500)
        with CardReading.open(choice, referee) as reading:
            assert isinstance(reading.reader, CardReader)
            assert reading.reader.tracker.silence_ns == 1_500_000_000
    assert SerialReader(port="x", protocol="rdm6300").silence_ms == Config().reader.silence_ms


def test_the_emulated_reader_lays_any_card_of_the_game(referee: Referee) -> None:
    with CardReading.open(EmulatedReader(protocol="pn532"), referee) as reading:
        assert reading.emulated is not None
        wanted = expected_card(referee)
        other = next(c for c in reading.emulated.tags if c != wanted)
        for card, outcome in ((other, ScanOutcome.NOT_EXPECTED), (wanted, ScanOutcome.EXPECTED)):
            event = reading.lay(card)
            assert event is not None
            assert reading.desk.scanned(event).outcome is outcome


def test_cards_are_laid_by_hand_on_a_real_reader(referee: Referee) -> None:
    with PtyPair() as pair:
        choice = SerialReader(port=pair.host_path, protocol="rdm6300")
        with CardReading.open(choice, referee) as reading, pytest.raises(ValueError):
            reading.lay(1)
