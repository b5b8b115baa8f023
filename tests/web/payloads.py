"""Realistic stream payloads from a real, simulated MemWars game (the contract is in
docs/display.md): what the publisher sends, built here so the pages can be tested alone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.clock.display import format_time
from companion.decks import find_deck
from companion.games.contract import Event
from companion.games.memwars.engine import MemWarsEngine
from companion.games.memwars.events import PlaceClaimed
from companion.games.memwars.narrate import narrate
from companion.games.memwars.play.simulation import demo_setup as simulation_setup
from companion.games.memwars.players import SimulatedTable
from companion.games.memwars.state import State

ENGINE = MemWarsEngine()


@dataclass
class Game:
    """A simulated game played one action at a time, remembering its last narrated event."""

    names: tuple[str, str] = ("Ada", "Basil")
    colours: tuple[str, str] = ("red", "blue")
    seed: int = 16
    game_id: int = 3
    title: str = "Club night, round 2"
    seq: int = 0
    t: float = 0.0
    last_event: dict[str, Any] | None = None
    state: State = field(init=False)
    table: SimulatedTable = field(init=False)

    def __post_init__(self) -> None:
        deck = find_deck("mythologies-of-earth")
        setup = simulation_setup(
            deck.board_map(), list(deck.quadrants), deck.depth, "standard", self.seed
        )
        for side, name, colour in zip(setup["sides"], self.names, self.colours, strict=True):
            side["name"], side["colour"] = name, colour
        self.state = ENGINE.new_game(setup)
        self.table = SimulatedTable(self.state.setup, (0.85, 0.6), self.seed)

    def step(self) -> list[Event]:
        expectation = ENGINE.expected(self.state)
        assert expectation is not None, "the game is over"
        action = self.table.next_action(self.state, expectation)
        self.state, events = ENGINE.apply(self.state, action)
        self.t += 4.0
        self.seq += 1  # one per committed action, as the stream numbers them
        for event in events:
            text = narrate(event, self.state.setup)
            if text:
                self.last_event = {"event": ENGINE.event_to_dict(event), "text": text}
        return list(events)

    def play_until(self, kind: str, limit: int = 400) -> Event:
        """Plays until an event of this kind happens; returns it."""
        for _ in range(limit):
            for event in self.step():
                if event.kind == kind:
                    return event
        raise AssertionError(f"no {kind} event in {limit} actions")

    def claim(self) -> PlaceClaimed:
        """Plays until the next claim; returns it (its side and place)."""
        event = self.play_until("place_claimed")
        assert isinstance(event, PlaceClaimed)
        return event

    def play_to_end(self, limit: int = 2000) -> None:
        for _ in range(limit):
            if ENGINE.expected(self.state) is None:
                return
            self.step()
        raise AssertionError("the game did not end")

    def view(self) -> dict[str, Any]:
        return ENGINE.view(self.state, "spectator")

    def state_payload(self, board: str, clock: dict[str, Any] | None = None) -> dict[str, Any]:
        return {
            "schema": 1,
            "board": board,
            "t": self.t,
            "game": "memwars",
            "game_id": self.game_id,
            "title": self.title,
            "seq": self.seq,
            "names": list(self.names),
            "view": self.view(),
            "clock": clock,
            "last_event": self.last_event,
        }


def clock_reading(
    at: float,
    remaining_ms: list[int],
    running: int | None,
    *,
    paused: bool = False,
    delay_ms: int = 0,
) -> dict[str, Any]:
    """A reading as the companion sends it; `delay_ms` is the running player's simple delay."""
    return {
        "at": at,
        "running": running,
        "paused": paused,
        "players": [
            {
                "remaining_ms": ms,
                "text": format_time(ms * 1_000_000),
                "running": running == i and not paused,
                "flagged": ms <= 0,
                "warning": 0 < ms < 10_000,
                "moves": 7,
                "detail": f"delay {format_time(delay_ms * 1_000_000)}"
                if delay_ms and running == i
                else "",
                "delay_ms": delay_ms if running == i else 0,
            }
            for i, ms in enumerate(remaining_ms)
        ],
    }


def clock_payload(board: str, reading: dict[str, Any]) -> dict[str, Any]:
    return {"schema": 1, "board": board, "t": reading["at"], **reading}


def alert_payload(board: str, t: float, text: str, level: str = "warning") -> dict[str, Any]:
    return {"schema": 1, "board": board, "t": t, "level": level, "text": text, "rule": "MW-CH3"}
