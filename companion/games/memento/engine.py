"""The memento ludis rule engine: pure functions from (state, action) to (state, events).

    engine = MementoEngine()
    state = engine.new_game({"sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": 7})
    state, events = engine.apply(state, Place(side=state.turn, point=27))
    engine.expected(state)   # Expectation(actor=..., actions=('move', 'bring_in', ...))

Every refusal is an IllegalAction naming the rule (ML-...); docs/memento-rules.md lists
them. A turn is exactly one action that changes the layout (ML-T0); after it, players who
have lost their last figure are out (ML-W2), the game ends on a win (ML-W1), and play goes
clockwise to the next player still in.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from companion.games.codec import _plain, parse_value
from companion.games.contract import (
    JSON,
    Action,
    BadData,
    BadSetup,
    Event,
    Expectation,
    IllegalAction,
    Viewer,
)
from companion.games.engine_base import EngineBase
from companion.games.memento import actions as A
from companion.games.memento import events as E
from companion.games.memento.board import TRIANGLES, TURNS_BY_KIND
from companion.games.memento.legal import (
    bring_in_points,
    can_bring_in,
    has_action,
    legal_actions,
    may_turn,
    move_targets,
    must_place,
    split_reach,
    split_shapes,
    turn_changes_layout,
    turned,
    winner_by_position,
)
from companion.games.memento.setup import MARKERS, Setup, parse_setup
from companion.games.memento.state import EMPTY, FIGURES, Outcome, State
from companion.games.memento.view import view_state

Events = list[Event]


class MementoEngine(EngineBase[State]):
    name = "memento"
    title = "memento ludis"
    actions = A.ACTIONS
    events = E.EVENTS

    def new_game(self, setup: Mapping[str, Any]) -> State:
        return new_game(parse_setup(setup))[0]

    def start(self, setup: Mapping[str, Any]) -> tuple[State, tuple[Event, ...]]:
        return new_game(parse_setup(setup))

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        return apply(state, action)

    def expected(self, state: State) -> Expectation | None:
        return expected(state)

    def is_over(self, state: State) -> bool:
        return state.outcome is not None

    def view(self, state: State, viewer: Viewer) -> JSON:
        return view_state(state, viewer, expected(state))

    def state_to_dict(self, state: State) -> JSON:
        return state_to_dict(state)

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        return state_from_dict(data)

    def summary(self, state: State) -> JSON:
        return summary(state)


# --------------------------------------------------------------------- new game
def new_game(setup: Setup) -> tuple[State, tuple[Event, ...]]:
    """An empty board, the pool full, every marker free (ML-S1, ML-S2, ML-S4)."""
    n = setup.side_count
    first = setup.first_player()
    size = setup.board.size
    everyone = setup.rules.opening == "EVERYONE"
    state = State(
        setup=setup,
        owners=(EMPTY,) * size,
        stones=(0,) * size,
        pool=setup.stones,
        markers=(MARKERS,) * n,
        turn=first,
        own_previous=("",) * n,
        # Under STARTER_ONLY the others are excused from the opening placement (ML-A04).
        opened=tuple(not everyone and i != first for i in range(n)),
        fielded=(False,) * n,
        out=(False,) * n,
    )
    events: Events = [E.GameStarted(first, setup.stones), E.TurnStarted(first, 1)]
    return state, tuple(events)


# ------------------------------------------------------------------------ apply
def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """The state after `action` and what happened; IllegalAction for what the rules forbid."""
    check(state, action)
    return perform(state, action)


def perform(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Carries out an action already known to be legal (the opponent's search uses this
    directly, having taken the action from legal_actions)."""
    events: Events = []
    state = _EFFECTS[type(action)](state, action, events)
    state = _after_action(state, action, events)
    return state, tuple(events)


def _name(state: State, side: int) -> str:
    return state.setup.names[side]


def _point_name(state: State, point: int) -> str:
    return f"point {point} ({state.setup.board.names[point]})"


def check(state: State, action: Action) -> None:
    """Raises IllegalAction, naming the rule, when `action` is not legal in `state`."""
    if state.outcome is not None:
        raise IllegalAction("ML-W1", "the game is over")
    side = getattr(action, "side", None)
    if not isinstance(side, int) or not 0 <= side < state.setup.side_count:
        raise IllegalAction("ML-T0", f"there is no player {side} in this game")
    checker = _CHECKS.get(type(action))
    if checker is None:
        raise IllegalAction("ML-T0", f"{action.kind} is not a memento ludis action")
    if side != state.turn:
        raise IllegalAction(
            "ML-T0", f"it is {_name(state, state.turn)}'s turn, not {_name(state, side)}'s"
        )
    if must_place(state, side) and not isinstance(action, A.Place):
        raise IllegalAction(
            "ML-S4", "your first action is to place one Single on any empty point (ML-A04)"
        )
    checker(state, action)


def _check_point(state: State, point: int) -> None:
    if not 0 <= point < state.setup.board.size:
        raise IllegalAction("ML-B1", f"there is no point {point} on this board")


def _check_place(state: State, action: A.Place) -> None:
    if not must_place(state, action.side):
        raise IllegalAction("ML-S4", "only the opening action places a single Single (ML-A04)")
    _check_point(state, action.point)
    if state.owners[action.point] != EMPTY:
        raise IllegalAction("ML-S4", f"{_point_name(state, action.point)} is not empty")


def _check_bring_in(state: State, action: A.BringIn) -> None:
    if not can_bring_in(state, action.side):
        raise IllegalAction(
            "ML-T1",
            f"bringing in needs 2 stones in the pool and 2 of your markers free; there are "
            f"{state.pool} and {state.markers[action.side]}",
        )
    for point in (action.first, action.second):
        _check_point(state, point)
    if action.first == action.second:
        raise IllegalAction("ML-T1", "the two new Singles go on two different points")
    allowed = bring_in_points(state)
    board = state.setup.board
    for point in (action.first, action.second):
        if point in allowed:
            continue
        if state.owners[point] != EMPTY:
            why = "a brought-in figure never beats: that point is taken"
        elif board.kinds[point] == "middle":
            why = "never on a middle point"
        elif board.in_inner(point):
            why = "never onto the inner triangle"
        else:
            raise IllegalAction(
                "ML-A05", f"{_point_name(state, point)} is not a corner of an outer triangle"
            )
        raise IllegalAction("ML-T1", f"{_point_name(state, point)}: {why}")


def _check_turn(state: State, action: A.Turn) -> None:
    if not 0 <= action.triangle < 4:
        raise IllegalAction("ML-T2", f"there is no triangle {action.triangle} (0 to 3)")
    kind = state.setup.rules.turn_kind
    if action.direction not in TURNS_BY_KIND[kind]:
        allowed = ", ".join(TURNS_BY_KIND[kind])
        raise IllegalAction("ML-A06", f"under ml.turn.kind={kind} a triangle is turned {allowed}")
    if not may_turn(state, action.side):
        if state.own_previous[action.side] == "turn":
            raise IllegalAction("ML-T2", "you may not turn a triangle two times in a row")
        raise IllegalAction("ML-T2", "the previous player turned a triangle")
    if not turn_changes_layout(state, action.triangle, action.direction):
        raise IllegalAction(
            "ML-T0",
            f"turning the {TRIANGLES[action.triangle]} triangle leaves the layout as it was",
        )


def _check_move(state: State, action: A.Move) -> None:
    _check_point(state, action.source)
    _check_point(state, action.target)
    if state.owners[action.source] != action.side:
        raise IllegalAction("ML-T3", f"you have no figure on {_point_name(state, action.source)}")
    if action.target not in move_targets(state, action.source):
        figure = FIGURES[state.stones[action.source]]
        raise IllegalAction(
            "ML-T3a",
            f"a {figure} on {_point_name(state, action.source)} cannot reach "
            f"{_point_name(state, action.target)}",
        )


def _check_split(state: State, action: A.Split) -> None:
    _check_point(state, action.source)
    if state.owners[action.source] != action.side:
        raise IllegalAction("ML-T4", f"you have no figure on {_point_name(state, action.source)}")
    stones = state.stones[action.source]
    shape = tuple(s for _, s in action.parts)
    shapes = split_shapes(stones)
    if not shapes:
        raise IllegalAction("ML-T4", "only a Double or a Tripple can split")
    if shape not in shapes and tuple(sorted(shape, reverse=True)) not in shapes:
        raise IllegalAction(
            "ML-T4",
            "a Double splits into two Singles, a Tripple into a Double and a Single or three "
            "Singles",
        )
    needed = len(shape) - 1
    if state.markers[action.side] < needed:
        raise IllegalAction(
            "ML-T4",
            f"that split needs {needed} free markers of yours; you have "
            f"{state.markers[action.side]}",
        )
    points = [p for p, _ in action.parts]
    for point in points:
        _check_point(state, point)
    if len(set(points)) != len(points):
        raise IllegalAction("ML-T4", "each new figure needs a point of its own")
    for point, part in action.parts:
        if point == action.source:
            raise IllegalAction("ML-T4", "the point the figure stood on has to stay free")
        if state.owners[point] != EMPTY:
            raise IllegalAction("ML-T4", f"{_point_name(state, point)} is not free")
        if point not in split_reach(state, action.source, part):
            raise IllegalAction(
                "ML-A11",
                f"a part of {part} cannot go to {_point_name(state, point)} "
                f"(ml.split.reach={state.setup.rules.split_reach})",
            )


def _check_pass(state: State, action: A.Pass) -> None:
    if state.setup.rules.no_action != "PASS":
        raise IllegalAction("ML-A10", "passing is not allowed under ml.noAction=OUT")
    if has_action(state, action.side):
        raise IllegalAction("ML-A10", "you may pass only when no action is possible")


_CHECKS: dict[type, Callable[[State, Any], None]] = {
    A.Place: _check_place,
    A.BringIn: _check_bring_in,
    A.Turn: _check_turn,
    A.Move: _check_move,
    A.Split: _check_split,
    A.Pass: _check_pass,
}


# ---------------------------------------------------------------------- effects
def _with(values: tuple[int, ...], changes: dict[int, int]) -> tuple[int, ...]:
    out = list(values)
    for i, v in changes.items():
        out[i] = v
    return tuple(out)


def _place(state: State, action: A.Place, events: Events) -> State:
    side = action.side
    events.append(E.SinglePlaced(side, action.point))
    return replace(
        state,
        owners=_with(state.owners, {action.point: side}),
        stones=_with(state.stones, {action.point: 1}),
        pool=state.pool - 1,
        markers=_with(state.markers, {side: state.markers[side] - 1}),
        opened=tuple(True if i == side else o for i, o in enumerate(state.opened)),
    )


def _bring_in(state: State, action: A.BringIn, events: Events) -> State:
    side = action.side
    points = (action.first, action.second)
    events.append(E.FiguresBroughtIn(side, points))
    return replace(
        state,
        owners=_with(state.owners, dict.fromkeys(points, side)),
        stones=_with(state.stones, dict.fromkeys(points, 1)),
        pool=state.pool - 2,
        markers=_with(state.markers, {side: state.markers[side] - 2}),
    )


def _turn(state: State, action: A.Turn, events: Events) -> State:
    owners, stones = turned(state, action.triangle, action.direction)
    events.append(E.TriangleTurned(action.side, action.triangle, action.direction))
    return replace(state, owners=owners, stones=stones)


def _move(state: State, action: A.Move, events: Events) -> State:
    side, source, target = action.side, action.source, action.target
    moving = state.stones[source]
    events.append(E.FigureMoved(side, source, target, moving))
    markers = list(state.markers)
    pool = state.pool
    stack = moving
    beaten = state.owners[target]
    if beaten != EMPTY:
        # ML-T3: the beaten marker goes back to its owner, the stacks merge under the
        # winner's marker, and a stack over 3 gives stones back to the pool (ML-A07).
        markers[beaten] += 1
        under = state.stones[target]
        stack = moving + under
        returned = 0
        if stack > 3:
            returned = 3 if state.setup.rules.overflow == "REMOVE_THREE" else stack - 3
        stack -= returned
        pool += returned
        events.append(E.FigureBeaten(side, target, beaten, under, stack, returned))
    return replace(
        state,
        owners=_with(state.owners, {source: EMPTY, target: side}),
        stones=_with(state.stones, {source: 0, target: stack}),
        pool=pool,
        markers=tuple(markers),
    )


def _split(state: State, action: A.Split, events: Events) -> State:
    side = action.side
    owners = dict.fromkeys((p for p, _ in action.parts), side)
    stones = {p: s for p, s in action.parts}
    owners[action.source] = EMPTY
    stones[action.source] = 0
    events.append(E.FigureSplit(side, action.source, action.parts))
    return replace(
        state,
        owners=_with(state.owners, owners),
        stones=_with(state.stones, stones),
        markers=_with(state.markers, {side: state.markers[side] - (len(action.parts) - 1)}),
    )


def _pass(state: State, action: A.Pass, events: Events) -> State:
    events.append(E.TurnPassed(action.side))
    return state


_EFFECTS: dict[type, Callable[[State, Any, Events], State]] = {
    A.Place: _place,
    A.BringIn: _bring_in,
    A.Turn: _turn,
    A.Move: _move,
    A.Split: _split,
    A.Pass: _pass,
}


# ------------------------------------------------------------ after an action
def _after_action(state: State, action: Action, events: Events) -> State:
    side = state.turn
    on_board = set(state.owners)
    state = replace(
        state,
        previous=action.kind,
        own_previous=tuple(
            action.kind if i == side else k for i, k in enumerate(state.own_previous)
        ),
        fielded=tuple(f or i in on_board for i, f in enumerate(state.fielded)),
        actions=state.actions + 1,
    )
    state = _eliminate(state, on_board, events)
    state = _check_wins(state, side, events)
    if state.outcome is not None:
        return state
    return _next_turn(state, events)


def _eliminate(state: State, on_board: set[int], events: Events) -> State:
    """ML-W2 with ML-A09: who has lost all their stones is out."""
    out = list(state.out)
    rule = state.setup.rules.elimination
    for i in _clockwise(state, state.turn):
        if out[i] or i in on_board:
            continue
        if rule == "AFTER_FIRST_FIGURE":
            gone = state.fielded[i]
        else:
            gone = state.opened[i] and not can_bring_in(state, i)
        if gone:
            out[i] = True
            events.append(E.PlayerOut(i, "no_stones"))
    return replace(state, out=tuple(out))


def _clockwise(state: State, start: int) -> list[int]:
    n = state.setup.side_count
    return [(start + k) % n for k in range(n)]


def _check_wins(state: State, mover: int, events: Events) -> State:
    """ML-W1: the mover's position first, then the others' in turn order (a turned triangle
    can complete someone else's), then the last player in."""
    for i in _clockwise(state, mover):
        if state.out[i]:
            continue
        reason = winner_by_position(state, i)
        if reason is not None:
            return _end(state, i, reason, events)
    players_in = [i for i in range(state.setup.side_count) if not state.out[i]]
    if len(players_in) == 1:
        return _end(state, players_in[0], "last_standing", events)
    return state


def _end(state: State, winner: int, reason: str, events: Events) -> State:
    events.append(E.GameEnded(winner, reason))
    return replace(state, outcome=Outcome(winner, reason))


def _next_turn(state: State, events: Events) -> State:
    """Clockwise to the next player still in (ML-S4); under ml.noAction=OUT a player with
    nothing to do is out instead (ML-A10)."""
    n = state.setup.side_count
    side = state.turn
    for _ in range(n):
        side = (side + 1) % n
        if state.out[side]:
            continue
        if state.setup.rules.no_action == "OUT" and not has_action(state, side):
            # Such a player has no figure left (every figure can step), so nothing leaves
            # the board with them.
            state = replace(state, out=tuple(o or i == side for i, o in enumerate(state.out)))
            events.append(E.PlayerOut(side, "no_action"))
            ended = _check_wins(state, side, events)
            if ended.outcome is not None:
                return ended
            continue
        number = state.turn_number + 1
        events.append(E.TurnStarted(side, number))
        return replace(state, turn=side, turn_number=number)
    raise AssertionError("no player left to take a turn")  # pragma: no cover


# ------------------------------------------------------------------- expected
_WORDS = {
    "place": "place the opening Single",
    "bring_in": "bring in two Singles",
    "turn": "turn a triangle",
    "move": "move a figure",
    "split": "split a figure",
    "pass": "pass (no action is possible)",
}


def expected(state: State) -> Expectation | None:
    if state.outcome is not None:
        return None
    side = state.turn
    kinds: dict[str, None] = {}
    places: set[int] = set()
    for action in legal_actions(state):
        kinds[action.kind] = None
        if isinstance(action, A.Place):
            places.add(action.point)
        elif isinstance(action, A.Move | A.Split):
            places.add(action.source)
        elif isinstance(action, A.BringIn):
            places.update((action.first, action.second))
    options = tuple(kinds)
    prompt = f"{_name(state, side)}: " + ", or ".join(_WORDS[k] for k in options) + "."
    return Expectation(side, options, tuple(sorted(places)), prompt, timed=side)


# ---------------------------------------------------------------------- codecs
def state_to_dict(state: State) -> JSON:
    out: JSON = {"setup": state.setup.to_dict()}
    for name in State.__dataclass_fields__:
        if name != "setup":
            out[name] = _plain(getattr(state, name))
    return out


def state_from_dict(data: Mapping[str, Any]) -> State:
    if not isinstance(data, Mapping) or not isinstance(data.get("setup"), Mapping):
        raise BadData("state", "expected an object with a setup")
    try:
        setup = parse_setup(data["setup"])
    except BadSetup as err:
        raise BadData(f"state.setup.{err.field}", err.problem) from None
    hints = typing.get_type_hints(State)
    values: dict[str, Any] = {"setup": setup}
    for name in State.__dataclass_fields__:
        if name == "setup":
            continue
        if name not in data:
            raise BadData(f"state.{name}", "is missing")
        values[name] = parse_value(data[name], hints[name], f"state.{name}")
    size, n = setup.board.size, setup.side_count
    if len(values["owners"]) != size or len(values["stones"]) != size:
        raise BadData("state.owners", f"this board has {size} points")
    for name in ("markers", "own_previous", "opened", "fielded", "out"):
        if len(values[name]) != n:
            raise BadData(f"state.{name}", f"needs one entry per player ({n})")
    return State(**values)


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


WIN_WORDS = {
    "four_middles": "the middles of all four triangles",
    "triangle": "a triangle's middle and its three median points",
    "last_standing": "the last with figures on the board",
}
"""The three wins of ML-W1, for a person."""


def summary(state: State) -> JSON:
    outcome = state.outcome
    names = state.setup.names
    sides = [
        {
            "side": i,
            "name": names[i],
            "figures": len(state.figures_of(i)),
            "stones": state.stones_of(i),
            "markers": state.markers[i],
            "out": state.out[i],
        }
        for i in range(state.setup.side_count)
    ]
    lines = [f"memento ludis, {state.actions} actions, {state.pool} stones in the pool"]
    for i, name in enumerate(names):
        out = " (out)" if state.out[i] else ""
        figures, stones = len(state.figures_of(i)), state.stones_of(i)
        lines.append(f"{name}: {_count(figures, 'figure')}, {_count(stones, 'stone')}{out}")
    if outcome is None:
        lines.append("The game is not over.")
    else:
        lines.append(
            f"{names[outcome.winner]} wins: {WIN_WORDS.get(outcome.reason, outcome.reason)}."
        )
    return {
        "game": "memento",
        "phase": "over" if outcome else "play",
        "actions": state.actions,
        "turn": state.turn,
        "sides": sides,
        "pool": state.pool,
        "outcome": None
        if outcome is None
        else {"winners": [outcome.winner], "reason": outcome.reason},
        "lines": lines,
    }
