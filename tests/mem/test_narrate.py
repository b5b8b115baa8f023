"""The ticker's sentences for MeM events: one for every kind of event, naming the players,
the squares and the stones' colours."""

from __future__ import annotations

import pytest

from companion.games.contract import Event
from companion.games.mem import events as E
from companion.games.mem.narrate import narrate
from companion.games.mem.setup import Setup, parse_setup
from tests.mem.helpers import setup

TWO = parse_setup(setup("mem"))
ALONE = parse_setup(setup("solitaire"))


SAMPLES: list[tuple[Event, str]] = [
    (E.GameStarted("mem", "ABCD/...", 1), "The MEM game begins: Bo plays first."),
    (E.TurnStarted(0, 7), "Turn 7: Ada to play."),
    (E.MoveAnnounced(0, 12), "Ada reaches for the stone on square 12: Bo may block it."),
    (E.BlockAsked(1, 4), "Bo asks Ada: will you block square 4?"),
    (E.BlockDeclined(0, 4, True), "Ada cannot block square 4, so Bo must take it."),
    (E.BlockDeclined(1, 12, False), "Bo does not block square 12."),
    (
        E.StoneBlocked(1, 12, 0, -1, (2, 3)),
        "Bo blocks square 12 with the pattern stone at (0, -1); "
        "Bo's pattern is now locked to that group.",
    ),
    (
        E.StoneBlocked(1, 12, 0, -1, None),
        "Bo blocks square 12 with the pattern stone at (0, -1).",
    ),
    (E.StoneMoved(0, 9, 8, 1, 0), "Ada takes the purple stone from square 9 to (1, 0)."),
    (
        E.MoveTakenBack(1, 9),
        "Bo's stone goes back to square 9: no second move could follow.",
    ),
    (
        E.GroupCaptured(0, (4, 5, 10), 3, 6),
        "Ada captures 3 stones with a pattern of 3: 6 in the pile.",
    ),
    (E.PatternDied(1), "Bo's pattern matches nothing on the board any more."),
    (E.TurnPassed(0, "no legal move or capture"), "Ada passes (no legal move or capture)."),
    (E.PlayerOut(1), "Bo cannot take a turn any more and is out."),
    (E.GameEnded((1,), "nobody_can_act", (6, 11)), "Game over: Bo wins (Ada 6, Bo 11)."),
    (E.GameEnded((), "nobody_can_act", (8, 8)), "Game over: a draw (Ada 8, Bo 8)."),
    (E.FlagFell(0), "Ada's time has run out."),
    (E.GameEnded((1,), "time", (9, 4)), "Game over: Bo wins on time (Ada 9, Bo 4)."),
    (E.GameEnded((0,), "time_scored", (9, 4)), "Game over: Ada wins (Ada 9, Bo 4)."),
]


@pytest.mark.parametrize(("event", "sentence"), SAMPLES)
def test_every_event_has_a_sentence(event: Event, sentence: str) -> None:
    assert narrate(event, TWO) == sentence


def test_every_kind_of_event_is_told() -> None:
    assert {event.kind for event, _ in SAMPLES} == set(E.EVENTS.by_kind)


@pytest.mark.parametrize(
    ("winners", "sentence"),
    [
        ((0,), "Game over: won, with a pattern of 16 stones."),
        ((), "Game over: not won, with a pattern of 16 stones."),
    ],
)
def test_a_solitaire_game_ends_won_or_not(winners: tuple[int, ...], sentence: str) -> None:
    solo: Setup = ALONE
    assert (
        narrate(E.GameStarted("solitaire", "", 0), solo) == "MEM-Solitaire begins: Ada plays alone."
    )
    assert narrate(E.GameEnded(winners, "sixteen", (16,)), solo) == sentence
