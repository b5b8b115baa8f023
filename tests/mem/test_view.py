"""MeM's view carries what a display draws (the board's stones by colour, both playing
spaces, scores, turn, a held move, the outcome) and is the same for every viewer: MeM is
open information."""

from __future__ import annotations

import random

from companion.games.mem.colours import NAME
from tests.mem.helpers import ENGINE, random_action, setup


def test_the_view_has_what_a_display_draws_and_every_viewer_sees_the_same() -> None:
    state = ENGINE.new_game(setup("mem", seed=3))
    rng = random.Random(8)
    held = 0
    while ENGINE.expected(state) is not None:
        view = ENGINE.view(state, "spectator")
        for viewer in (0, 1, "table"):
            assert {**ENGINE.view(state, viewer), "viewer": "spectator"} == view
        assert [s["colour_name"] for s in view["squares"]] == [
            NAME[c] if c else None for c in state.board
        ]
        summary = ENGINE.summary(state)["scores"]["sides"]
        assert [
            (s["side"], s["pattern"], s["pile"], s["total"]) for s in view["scores"]["sides"]
        ] == [(s["side"], s["pattern"], s["pile"], s["total"]) for s in summary]
        totals = [s["total"] for s in summary]
        leaders = view["scores"]["leaders"]
        assert leaders == ([totals.index(max(totals))] if len(set(totals)) > 1 else [])
        for side, mine in zip(view["sides"], state.sides, strict=True):
            assert [(p["row"], p["col"]) for p in side["pattern"]] == [
                (r, c) for r, c, _ in mine.pattern
            ]
        if state.pending is not None:
            held += 1
            assert view["pending"]["square"] == state.pending.square
        assert view["stones_on_board"] == sum(1 for c in state.board if c)
        state, _ = ENGINE.apply(state, random_action(state, rng))
    assert held, "no move was held for a block: the test proves less than it says"
    view = ENGINE.view(state, "spectator")
    assert view["outcome"] is not None and view["scores"]["leaders"] == []
    assert view["variant_title"] == "The MEM game"
