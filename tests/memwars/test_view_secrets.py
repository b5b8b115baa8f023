"""No view lets anyone deduce a hidden fact (hypothesis).

A view leaks when two states that differ only in something hidden from a viewer look
different to that viewer. For every prompt of many random games, over every mode and every
house rule that changes what is secret, each state is paired with twins that differ only in
a hidden fact, and every viewer but the table must see the twins alike:
- the order of the cards still in the deck;
- the card presented when finding its place is part of the answer (Review by default, Basic
  under mw.basic.mustLocatePlace): any card not yet seen at the table could be the one;
- the values of face-down counters (their owner sees them only under
  mw.counters.ownerCanPeek), and which of its values a side still holds in hand.

What the stream publishes is exactly the spectator view (companion/publish/stream.py), so
this is also the property of every retained `state` payload.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.contract import Viewer
from companion.games.memwars.state import NO_CARD, Counter, Phase, State

from .helpers import ENGINE
from .test_properties import GAMES, random_game

SECRET_RULES = st.fixed_dictionaries(
    {
        "mw.basic.mustLocatePlace": st.booleans(),
        "mw.review.correctness": st.sampled_from(["PLACE_AND_FACTS", "FACTS_ONLY"]),
        "mw.counters.ownerCanPeek": st.booleans(),
        "mw.standardPath.showFront": st.booleans(),
    }
)


@st.composite
def secret_games(draw: st.DrawFn) -> dict[str, Any]:
    setup: dict[str, Any] = draw(GAMES)
    setup["house_rules"] = {**setup["house_rules"], **draw(SECRET_RULES)}
    return setup


Twin = tuple[str, State, frozenset[int]]
"""What differs, the twin, and the sides that may see the difference (the table always may)."""


def twins(state: State, rng: random.Random) -> Iterator[Twin]:
    yield from _deck_orders(state, rng)
    yield from _presented_cards(state, rng)
    yield from _counter_values(state, rng)


def _deck_orders(state: State, rng: random.Random) -> Iterator[Twin]:
    if len(state.deck) > 2:
        fixed = {state.current_card}
        movable = [c for c in state.deck if c not in fixed]
        shuffled = iter(rng.sample(movable, len(movable)))
        deck = tuple(c if c in fixed else next(shuffled) for c in state.deck)
        yield "the deck's order", replace(state, deck=deck), frozenset()


def _locating(state: State) -> bool:
    rules = state.setup.rules
    if state.setup.mode.value == "review":
        return rules.review_correctness == "PLACE_AND_FACTS"
    return rules.basic_must_locate_place


def _presented_cards(state: State, rng: random.Random) -> Iterator[Twin]:
    """The card being answered, when its place is the answer and the table has not seen it
    yet: it could be any card still in the deck."""
    card = state.current_card
    if card == NO_CARD or state.phase is not Phase.PLAY or not _locating(state):
        return
    answerer = state.turn
    if state.setup.sides[answerer].mode.value not in ("basic", "review"):
        return
    others = [c for c in state.deck if c != card]
    for other in rng.sample(others, min(3, len(others))):
        swap = {card: other, other: card}
        twin = replace(
            state,
            current_card=other,
            deck=tuple(swap.get(c, c) for c in state.deck),
            order=tuple(swap.get(c, c) for c in state.order),
        )
        yield f"card {card} or card {other} presented", twin, frozenset()


def _counter_values(state: State, rng: random.Random) -> Iterator[Twin]:
    """Face-down counters' values, shuffled among one owner's face-down counters (the owner
    may see that only under ownerCanPeek), or between them and the owner's hand (the owner
    sees its hand)."""
    peek = state.setup.rules.owner_can_peek
    for owner in range(len(state.sides)):
        spots = [
            (number, i)
            for number in sorted(state.setup.in_play)
            for i, counter in enumerate(state.places[number].counters)
            if counter.owner == owner and not counter.face_up
        ]
        hand = state.sides[owner].counters_left
        values = [state.places[n].counters[i].value for n, i in spots]
        if len(set(values)) > 1:
            seen_by = frozenset({owner}) if peek else frozenset()
            yield (
                "face-down values",
                _with_values(state, owner, spots, rng.sample(values, len(values)), hand),
                seen_by,
            )
        if spots and hand and set(values) != set(hand):
            both = values + list(hand)
            mixed = rng.sample(both, len(both))
            twin = _with_values(
                state, owner, spots, mixed[: len(spots)], tuple(mixed[len(spots) :])
            )
            yield "values on the board or in hand", twin, frozenset({owner})


def _with_values(
    state: State, owner: int, spots: list[tuple[int, int]], values: list[int], hand: tuple[int, ...]
) -> State:
    places = list(state.places)
    for (number, i), value in zip(spots, values, strict=True):
        counters = list(places[number].counters)
        counters[i] = Counter(owner, value, face_up=False)
        places[number] = replace(places[number], counters=tuple(counters))
    sides = list(state.sides)
    sides[owner] = replace(sides[owner], counters_left=hand)
    return replace(state, places=tuple(places), sides=tuple(sides))


CHECKED = {"states": 0, "twins": 0}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(secret_games())
def test_no_view_tells_a_hidden_fact(setup: dict[str, Any]) -> None:
    rng = random.Random(setup["seed"])
    for state, _ in random_game(setup, steps=400):
        CHECKED["states"] += 1
        viewers: list[Viewer] = ["spectator", *range(len(state.sides))]
        for what, twin, seen_by in twins(state, rng):
            CHECKED["twins"] += 1
            for viewer in viewers:
                if viewer in seen_by:
                    continue
                assert ENGINE.view(state, viewer) == ENGINE.view(twin, viewer), (
                    f"{viewer!r} can tell {what} (move {state.move}, phase {state.phase.value})"
                )


def test_the_property_has_something_to_find() -> None:
    """The twins are real: the table (which sees everything) tells each of them apart."""
    setup = {
        "sides": [{"name": "Ada"}],
        "mode": "review",
        "seed": 4,
        "depth": 1,
        "topology": {"kind": "standard"},
    }
    rng = random.Random(1)
    kinds = set()
    for state, _ in random_game(setup, steps=60):
        for what, twin, _seen in twins(state, rng):
            assert ENGINE.view(state, "table") != ENGINE.view(twin, "table")
            kinds.add(what.split(" or ")[0] if what.startswith("card") else what)
    assert any(kind.startswith("card") for kind in kinds)
