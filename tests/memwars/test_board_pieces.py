"""What lies on the board as a camera sees it: crystals by colour, counters as they lie."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.memwars import actions as A
from companion.games.memwars.board_pieces import (
    PieceColours,
    counters_on_board,
    crystals_on_board,
    piece_colours,
)
from companion.games.memwars.state import CHALLENGE, Counter, Place, State
from tests.memwars.helpers import ENGINE, competitive_in_play, play, setup

COLOURS = PieceColours(sides=("red", "blue"), challenge="yellow")
PALETTE = ("red", "blue", "green", "yellow", "purple")


def _game() -> State:
    state: State = ENGINE.new_game(setup())
    return state


def _with_place(state: State, number: int, place: Place) -> State:
    places = list(state.places)
    places[number] = place
    return replace(state, places=tuple(places))


def test_each_side_has_its_colour_and_challenge_pieces_theirs() -> None:
    state = _with_place(_game(), 17, Place(crystals=(1, CHALLENGE, 0)))
    state = _with_place(state, 4, Place(crystals=(CHALLENGE,)))
    assert crystals_on_board(state, COLOURS) == {"17": ("blue", "red", "yellow"), "4": ("yellow",)}


def test_a_claimed_quadrant_shows_its_winners_crystals_on_its_diamond() -> None:
    state = _game()
    sides = (replace(state.sides[0], diamonds=(1, 3)), replace(state.sides[1], diamonds=(3,)))
    assert crystals_on_board(replace(state, sides=sides), COLOURS) == {
        "diamond-1": ("red",),
        "diamond-3": ("blue", "red"),
    }


def test_an_empty_board_shows_nothing() -> None:
    assert crystals_on_board(_game(), COLOURS) == {}
    assert counters_on_board(_game()) == {}


def test_a_face_down_counter_shows_no_value() -> None:
    counters = (Counter(owner=0, value=5, face_up=False), Counter(owner=1, value=3, face_up=True))
    state = _with_place(_game(), 9, Place(counters=counters))
    assert counters_on_board(state) == {"9": (None, 3)}


def test_sides_beyond_the_usual_two_take_colours_nobody_uses() -> None:
    assert piece_colours(2, ("red", "blue"), "yellow", PALETTE).sides == ("red", "blue")
    assert piece_colours(1, ("red", "blue"), "yellow", PALETTE).sides == ("red",)
    four = piece_colours(4, ("red", "blue"), "yellow", PALETTE)
    assert four == PieceColours(("red", "blue", "green", "purple"), "yellow")
    with pytest.raises(ValueError, match="only 4 crystal colours for 5 sides"):
        piece_colours(5, ("red", "blue"), "yellow", PALETTE)


def test_counters_the_holder_took_are_off_the_board() -> None:
    state = competitive_in_play()
    laid = counters_on_board(state)
    assert laid and all(v is None for values in laid.values() for v in values)
    place = int(next(iter(laid)))
    claimed, _ = play(state, A.Claim(state.turn, place))
    assert str(place) in counters_on_board(claimed)  # a claim still open keeps them there
    won, _ = play(claimed, A.DeclineChallenge(1 - state.turn))
    assert won.places[place].counters_taken
    assert str(place) not in counters_on_board(won)
    assert counters_on_board(won) == {k: v for k, v in laid.items() if k != str(place)}
