"""Every button the screen offers is a move the engine accepts, all through simulated games."""

from __future__ import annotations

import pytest

from companion.decks import find_deck
from companion.games.memwars.decisions import decisions
from companion.games.memwars.play.simulation import demo_setup as simulation_setup
from companion.games.memwars.players import SimulatedTable

from .helpers import ENGINE


@pytest.mark.parametrize("mode", ["standard", "basic", "hybrid", "review", "study"])
def test_every_decision_offered_is_accepted(mode: str) -> None:
    deck = find_deck("mythologies-of-earth")
    setup = simulation_setup(deck.board_map(), list(deck.quadrants), deck.depth, mode, 5, 1)
    state = ENGINE.new_game(setup)
    table = SimulatedTable(state.setup, (0.8, 0.5)[: len(setup["sides"])], 5)
    offered: set[str] = set()
    while (expectation := ENGINE.expected(state)) is not None:
        place = expectation.places[0] if expectation.places else 0
        choices = decisions(state)
        assert choices, expectation
        for decision in choices:
            offered.add(decision.key)
            ENGINE.apply(state, decision.action(place if decision.needs_place else 0))
        state, _ = ENGINE.apply(state, table.next_action(state, expectation))
    assert decisions(state) == []
    if mode == "standard":
        assert {"claim", "challenge", "decline", "contest", "give-up", "maintain"} <= offered
