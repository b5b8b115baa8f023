"""What a viewer sees of a game of memento ludis. Nothing is hidden (figures, pool and
markers all lie open on the table), so every viewer gets the same picture; `viewer` is
echoed so a screen knows whose seat it is drawn for.

The board comes with what a drawing needs: every point's (x, y) in a unit big triangle
(apex at (0.5, 0), base from (0, 1) to (1, 1)), its kind and triangles, the straight runs
to draw as lines, and the transfer links across the board's edge.
"""

from __future__ import annotations

from companion.games.contract import JSON, Expectation, Viewer
from companion.games.memento.board import TRIANGLES
from companion.games.memento.state import EMPTY, FIGURES, State


def view_state(state: State, viewer: Viewer, expectation: Expectation | None) -> JSON:
    setup = state.setup
    board = setup.board
    return {
        "game": "memento",
        "viewer": viewer,
        "geometry": board.geometry,
        "points": [
            {
                "point": p,
                "name": board.names[p],
                "x": board.xy[p][0],
                "y": board.xy[p][1],
                "kind": board.kinds[p],
                "triangles": [TRIANGLES[t] for t in board.triangles_of[p]],
                "owner": None if state.owners[p] == EMPTY else state.owners[p],
                "stones": state.stones[p],
                "figure": FIGURES.get(state.stones[p]),
            }
            for p in range(board.size)
        ],
        "lines": [list(run) for run in board.runs],
        "links": [[p, q] for p in range(board.size) for q in board.links[p] if p < q],
        "triangles": {TRIANGLES[t]: list(tri) for t, tri in enumerate(board.triangles)},
        "pool": state.pool,
        "sides": [
            {
                "side": i,
                "name": name,
                "markers": state.markers[i],
                "figures": len(state.figures_of(i)),
                "stones": state.stones_of(i),
                "out": state.out[i],
            }
            for i, name in enumerate(setup.names)
        ],
        "turn": state.turn,
        "turn_number": state.turn_number,
        "previous": state.previous or None,
        "expected": expectation.to_dict() if expectation else None,
        "outcome": None
        if state.outcome is None
        # The shape every page reads a result from: the winners, and why.
        else {"winners": [state.outcome.winner], "reason": state.outcome.reason},
    }
