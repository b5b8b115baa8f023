"""Who sees what: face-down counters, hands, the deck and a card whose place must be found."""

from __future__ import annotations

import json

from companion.games.memwars import actions as A
from companion.games.memwars.state import State

from .helpers import ENGINE, play, setup


def _competitive(**rules: object) -> State:
    state = ENGINE.new_game(setup(topology={"kind": "competitive"}, house_rules=rules))
    state, _ = play(state, A.PlaceCounter(1, 5, 5), A.PlaceCounter(0, 6, 3))
    return state


def _counter(view: dict[str, object], place: int) -> dict[str, object]:
    places = view["places"]
    assert isinstance(places, list)
    entry = next(p for p in places if p["place"] == place)
    return entry["counters"][0]  # type: ignore[no-any-return]


def test_face_down_counters_are_hidden_from_all_but_the_table() -> None:
    state = _competitive()
    assert _counter(ENGINE.view(state, "spectator"), 5)["value"] is None
    assert _counter(ENGINE.view(state, 1), 5)["value"] is None
    assert _counter(ENGINE.view(state, "table"), 5)["value"] == 5
    spectator = ENGINE.view(state, "spectator")
    assert all(s["counter_values_in_hand"] is None for s in spectator["sides"])
    own = ENGINE.view(state, 1)
    assert own["sides"][1]["counter_values_in_hand"] == [3, 2]


def test_owner_may_peek_under_the_house_rule() -> None:
    state = _competitive(**{"mw.counters.ownerCanPeek": True})
    assert _counter(ENGINE.view(state, 1), 5)["value"] == 5
    assert _counter(ENGINE.view(state, 0), 5)["value"] is None


def test_won_counters_are_revealed_to_everyone() -> None:
    state = _competitive()
    for place, value in ((7, 3), (8, 5), (9, 2), (10, 2)):
        state, _ = play(state, A.PlaceCounter(state.counter_turn, place, value))
    state, events = play(state, A.Claim(0, 5), A.DeclineChallenge(1))
    assert _counter(ENGINE.view(state, "spectator"), 5)["value"] == 5
    taken = [e for e in events if e.kind == "counters_taken"]
    assert taken and taken[0].values == (5,)  # type: ignore[attr-defined]


def test_the_deck_order_and_a_card_to_locate_stay_hidden() -> None:
    state = ENGINE.new_game(
        setup(
            mode="basic",
            path="random",
            first_player=0,
            house_rules={"mw.basic.mustLocatePlace": True},
        )
    )
    state, events = play(state, A.ShuffleDeck(1))
    spectator = ENGINE.view(state, "spectator")
    assert spectator["deck"] is None and spectator["deck_count"] == 25
    assert spectator["current_card"] is None
    presented = next(e for e in events if e.kind == "card_presented")
    assert presented.card == 0 and presented.place == 0  # type: ignore[attr-defined]
    assert ENGINE.view(state, "table")["current_card"] == state.current_card
    json.dumps(spectator)  # JSON-safe
