"""What the rules allow in a memento ludis position: where each figure can go, where new
figures may be brought in, which triangle turns change the layout, and every legal action.

Pure functions of the state, shared by the engine (which refuses what they exclude), the
random player and the opponent (which search what they list). Fast: the board's geometry
is precomputed (board.py), so listing a position's actions is a walk over small tuples.

    legal_actions(state)        # [Move(...), BringIn(...), ...] for the player on turn
    move_targets(state, 6)      # the points the figure on point 6 can move to
"""

from __future__ import annotations

from itertools import combinations, permutations

from companion.games.contract import Action
from companion.games.memento import actions as A
from companion.games.memento.board import CORNERS, INNER, MIDDLE, TURNS_BY_KIND, Board, SlideTree
from companion.games.memento.state import EMPTY, State


def step_targets(board: Board, point: int) -> tuple[int, ...]:
    """One step (Singles, and every figure's shortest move, ML-T3a)."""
    return board.steps[point]


def slide_targets(state: State, point: int) -> set[int]:
    """A Double's straight slides from `point` (ML-T3a, ML-A08): it may stop on any empty
    point of the line, and a figure stops it (and may be beaten); bends end a line."""
    owners = state.owners
    stop_on_bend = state.setup.rules.corner_stop == "ON_BEND"
    out: set[int] = set()
    pending: list[SlideTree] = [state.setup.board.slides[point]]
    while pending:
        for target, stop_here, onward in pending.pop():
            if owners[target] != EMPTY:
                # A resistor: the slide ends on it, beating it, unless the rule is to stop
                # before a bend and this point is one.
                if stop_here or stop_on_bend:
                    out.add(target)
                continue
            if stop_here or stop_on_bend:
                out.add(target)
            if onward:
                pending.append(onward)
    out.discard(point)
    return out


def tripple_specials(board: Board, point: int) -> tuple[int, ...]:
    """A Tripple on a middle point may also go to another middle or a big corner."""
    if point not in board.middles:
        return ()
    return tuple(p for p in (*board.middles, *board.big_corners) if p != point)


def move_targets(state: State, point: int) -> set[int]:
    """Every point the figure on `point` can move to, beating what stands there."""
    board = state.setup.board
    stones = state.stones[point]
    out = set(board.steps[point])
    if stones == 2:
        out |= slide_targets(state, point)
    elif stones == 3:
        out.update(tripple_specials(board, point))
    return out


def reach_as(state: State, point: int, stones: int) -> set[int]:
    """Where a figure of `stones` would move from `point` (for splits under OWN_TYPE)."""
    board = state.setup.board
    out = set(board.steps[point])
    if stones == 2:
        out |= slide_targets(state, point)
    elif stones == 3:
        out.update(tripple_specials(board, point))
    return out


def split_reach(state: State, point: int, part: int) -> set[int]:
    """The free points a part of `part` stones split off the figure on `point` may go to
    (ML-T4, ML-A11)."""
    if state.setup.rules.split_reach == "ORIGINAL":
        reach = move_targets(state, point)
    else:
        reach = reach_as(state, point, part)
    owners = state.owners
    return {p for p in reach if owners[p] == EMPTY}


def split_shapes(stones: int) -> tuple[tuple[int, ...], ...]:
    """How a figure may split (ML-T4): a Double into two Singles, a Tripple into a Double and
    a Single or into three Singles."""
    if stones == 2:
        return ((1, 1),)
    if stones == 3:
        return ((2, 1), (1, 1, 1))
    return ()


def bring_in_points(state: State) -> tuple[int, ...]:
    """The empty points new Singles may go on (ML-T1, ML-A05): never a middle, never the
    inner triangle; under ENTRY_CORNERS only the outer triangles' corners."""
    return tuple(
        p
        for p in _bring_in_allowed(state.setup.board, state.setup.rules.bring_in_points)
        if state.owners[p] == EMPTY
    )


_ALLOWED: dict[tuple[int, str], tuple[int, ...]] = {}


def _bring_in_allowed(board: Board, rule: str) -> tuple[int, ...]:
    key = (id(board), rule)
    found = _ALLOWED.get(key)
    if found is None:
        corners = {tri[r] for tri in board.triangles for r in CORNERS}
        found = tuple(
            p
            for p in range(board.size)
            if board.kinds[p] != "middle"
            and INNER not in board.triangles_of[p]
            and (rule == "OUTER_POINTS" or p in corners)
        )
        _ALLOWED[key] = found
    return found


def can_bring_in(state: State, side: int) -> bool:
    """Two stones in the pool and two free markers of one's own (ML-T1)."""
    return state.pool >= 2 and state.markers[side] >= 2


def may_turn(state: State, side: int) -> bool:
    """Not right after anyone's turn of a triangle, nor twice in a row (ML-T2)."""
    return state.previous != "turn" and state.own_previous[side] != "turn"


def turned(state: State, triangle: int, direction: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board's owners and stones after turning `triangle` (figures go with it)."""
    owners = list(state.owners)
    stones = list(state.stones)
    for source, target in state.setup.board.rotation(triangle, direction).items():
        owners[target] = state.owners[source]
        stones[target] = state.stones[source]
    return tuple(owners), tuple(stones)


def turn_changes_layout(state: State, triangle: int, direction: str) -> bool:
    """ML-T0: a turn that leaves every point as it was is no action."""
    owners, stones = state.owners, state.stones
    for source, target in state.setup.board.rotation(triangle, direction).items():
        if owners[source] != owners[target] or stones[source] != stones[target]:
            return True
    return False


def turn_options(state: State, side: int) -> list[tuple[int, str]]:
    if not may_turn(state, side):
        return []
    return [
        (t, how)
        for t in range(4)
        for how in TURNS_BY_KIND[state.setup.rules.turn_kind]
        if turn_changes_layout(state, t, how)
    ]


def must_place(state: State, side: int) -> bool:
    """The opening placement is still to be made (ML-S4, ML-A04)."""
    return not state.opened[side]


def legal_actions(state: State) -> list[Action]:
    """Every legal action of the player on turn; a Pass only when there is nothing else and
    ml.noAction=PASS (ML-A10)."""
    if state.outcome is not None:
        return []
    side = state.turn
    owners = state.owners
    if must_place(state, side):
        return [A.Place(side, p) for p in range(len(owners)) if owners[p] == EMPTY]
    out: list[Action] = []
    free_markers = state.markers[side]
    for point in range(len(owners)):
        if owners[point] != side:
            continue
        targets = move_targets(state, point)
        out.extend(A.Move(side, point, t) for t in sorted(targets))
        stones = state.stones[point]
        if stones < 2:
            continue
        for shape in split_shapes(stones):
            if free_markers < len(shape) - 1:
                continue
            out.extend(_splits(state, side, point, shape))
    if can_bring_in(state, side):
        points = bring_in_points(state)
        out.extend(A.BringIn(side, a, b) for a, b in combinations(points, 2))
    out.extend(A.Turn(side, t, how) for t, how in turn_options(state, side))
    if not out and state.setup.rules.no_action == "PASS":
        out.append(A.Pass(side))
    return out


def _splits(state: State, side: int, point: int, shape: tuple[int, ...]) -> list[Action]:
    if shape == (1, 1) or shape == (1, 1, 1):
        free = sorted(split_reach(state, point, 1))
        return [
            A.Split(side, point, tuple((p, 1) for p in chosen))
            for chosen in combinations(free, len(shape))
        ]
    doubles = split_reach(state, point, 2)
    singles = split_reach(state, point, 1)
    return [
        A.Split(side, point, ((d, 2), (s, 1)))
        for d, s in permutations(sorted(doubles | singles), 2)
        if d in doubles and s in singles
    ]


def has_action(state: State, side: int) -> bool:
    """Whether `side` could act if it were their turn (a Pass not counted)."""
    if must_place(state, side):
        return EMPTY in state.owners
    if side in state.owners:
        # Every figure can at least step to a neighbour, beating what is there.
        return True
    if can_bring_in(state, side) and len(bring_in_points(state)) >= 2:
        return True
    return bool(turn_options(state, side))


def winner_by_position(state: State, side: int) -> str | None:
    """ML-W1 (1) and (2): all four middles, or a middle and its three median points."""
    owners = state.owners
    board = state.setup.board
    if all(owners[m] == side for m in board.middles):
        return "four_middles"
    for t, tri in enumerate(board.triangles):
        if owners[tri[MIDDLE]] == side and all(owners[p] == side for p in board.median_points(t)):
            return "triangle"
    return None
