"""Stream payloads from a real MeM game played with random legal actions (the contract is in
docs/display.md): what the publisher sends for MeM, built here so the pages can be tested
alone."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.games.contract import Event
from companion.games.mem.engine import MemEngine
from companion.games.mem.narrate import narrate
from companion.games.mem.state import State
from tests.mem.helpers import random_action

ENGINE = MemEngine()


@dataclass
class MemGame:
    """A MeM game played one random legal action at a time, remembering its last sentence."""

    names: tuple[str, ...] = ("Ada", "Bo")
    game: str = "mem"
    seed: int = 3
    play_seed: int = 8
    game_id: int = 11
    title: str = "MeM at the club"
    seq: int = 0
    t: float = 0.0
    last_event: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    """The event payloads of the last action, as the stream publishes them before its state."""
    state: State = field(init=False)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        sides = [{"name": name} for name in self.names]
        self.state = ENGINE.new_game({"game": self.game, "sides": sides, "seed": self.seed})
        self.rng = random.Random(self.play_seed)

    def step(self) -> list[Event]:
        self.state, events = ENGINE.apply(self.state, random_action(self.state, self.rng))
        self.t += 3.0
        self.seq += 1
        self.events = []
        for event in events:
            data = ENGINE.event_to_dict(event)
            text = narrate(event, self.state.setup) or ""
            if text:
                self.last_event = {"event": data, "text": text}
            self.events.append(self.event_payload(data, text))
        return list(events)

    def event_payload(self, event: dict[str, Any], text: str) -> dict[str, Any]:
        return {
            "schema": 1,
            "board": "",
            "t": self.t,
            "seq": self.seq,
            "event": event,
            "text": text,
        }

    def play_until(self, kind: str, limit: int = 200) -> Event:
        """Plays until an event of this kind happens; returns it."""
        for _ in range(limit):
            if ENGINE.expected(self.state) is None:
                break
            for event in self.step():
                if event.kind == kind:
                    return event
        raise AssertionError(f"no {kind} event in {limit} actions")

    def play(self, actions: int) -> None:
        for _ in range(actions):
            if ENGINE.expected(self.state) is None:
                return
            self.step()

    def play_to_end(self) -> None:
        self.play(1000)
        assert ENGINE.expected(self.state) is None, "the game did not end"

    def view(self) -> dict[str, Any]:
        return ENGINE.view(self.state, "spectator")

    def state_payload(self, board: str, clock: dict[str, Any] | None = None) -> dict[str, Any]:
        return {
            "schema": 1,
            "board": board,
            "t": self.t,
            "game": "mem",
            "game_id": self.game_id,
            "title": self.title,
            "seq": self.seq,
            "names": list(self.names),
            "view": self.view(),
            "clock": clock,
            "last_event": self.last_event,
        }
