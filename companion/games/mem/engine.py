"""The MeM rule engine: pure functions from (state, action) to (state, events).

    engine = MemEngine()
    state = engine.new_game({"game": "mem", "sides": [{"name": "Ada"}, {"name": "Bo"}],
                             "seed": 7})
    state, events = engine.apply(state, Move(side=state.turn, square=12))
    engine.expected(state)   # Expectation(actor=1, actions=('move', 'ask'), ...)

Every refusal is an IllegalAction naming the rule (MEM-...); docs/mem-rules.md lists them.
A turn of the MEM game is a move, a capture, or a move then a capture (MEM-R10.1). A move
the other player could block is held (`pending`) until they block it or allow it; a
question "will you block this stone?" is held the same way (MEM-R10.3, MEM-R10.4).
A player with nothing legal passes automatically; the game ends when nobody can act.
In a game with a clock (setup `timer`), every decision also accepts `time_expired` from
the side it waits on: under house rule mem.timeout that side loses, or the game is scored
as it stands (MEM-A16).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.codec import _plain, parse_value
from companion.games.contract import (
    JSON,
    Action,
    BadData,
    Event,
    Expectation,
    IllegalAction,
    Viewer,
)
from companion.games.engine_base import EngineBase
from companion.games.mem import actions as A
from companion.games.mem import events as E
from companion.games.mem.legal import (
    blocking_matches,
    can_take_turn,
    follow_up_exists,
    has_move,
    has_pair,
    legal_captures,
    legal_moves,
    locked_group,
    place_stone,
    position,
    side_matches,
    with_side,
)
from companion.games.mem.patterns import component
from companion.games.mem.setup import TITLES, Game, Setup, parse_setup
from companion.games.mem.state import Outcome, Pending, Side, State, Undo
from companion.games.mem.text import format_board
from companion.games.mem.view import view_state

Events = list[Event]
MAX_CELL = 40
"""No pattern spans more than 32 cells, so larger coordinates are typing slips."""


class MemEngine(EngineBase[State]):
    name = "mem"
    title = "MeM"
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
    """The first state, and the events of the deal and the first turn."""
    board = setup.board()
    first = setup.first_player()
    state = State(setup=setup, board=board, sides=tuple(Side() for _ in setup.names), turn=first)
    events: Events = [E.GameStarted(setup.game.value, format_board(board), first)]
    state = _begin_turn(state, events)
    return state, tuple(events)


# ------------------------------------------------------------------------ apply
def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    if state.outcome is not None:
        raise IllegalAction("MEM-R10.5", "the game is over")
    side = getattr(action, "side", None)
    if side is None or not 0 <= side < len(state.sides):
        raise IllegalAction("MEM-R10", f"there is no player {side} in this game")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction("MEM-R10", f"{action.kind} is not a MeM action")
    events: Events = []
    new_state = handler(state, action, events)
    return new_state, tuple(events)


def _name(state: State, side: int) -> str:
    return state.setup.names[side]


def _to_board_frame(state: State, side: int, row: int, col: int) -> tuple[int, int]:
    """House rule mem.orientationFrame=OWNER reads the second player's space turned half a
    circle (MEM-A02); only translation matters, so that is a change of sign."""
    if abs(row) > MAX_CELL or abs(col) > MAX_CELL:
        raise IllegalAction("MEM-R1", f"cell ({row}, {col}) is too far from the pattern")
    if side == 1 and state.setup.rules.orientation_frame == "OWNER":
        return (-row, -col)
    return (row, col)


def _on_turn(state: State, side: int, what: str) -> None:
    if state.pending is not None:
        raise IllegalAction(
            "MEM-R10.3",
            f"{_name(state, 1 - state.pending.side)} must first block or allow the stone on "
            f"square {state.pending.square}",
        )
    if side != state.turn:
        raise IllegalAction("MEM-R10", f"it is {_name(state, state.turn)}'s turn, not {what}")


def _may_move_now(state: State) -> bool:
    return state.moves_made < state.setup.moves_per_turn and (
        not state.captured or state.setup.rules.capture_then_move
    )


def _check_move(state: State, side: int, square: int, cell: tuple[int, int]) -> None:
    """Refuses a move the rules forbid, naming the rule (MEM-R1, MEM-R3, MEM-R5, MEM-R10)."""
    if not _may_move_now(state):
        raise IllegalAction("MEM-R10.1", "this turn has no move left")
    if not 0 <= square < len(state.board) or not state.board[square]:
        raise IllegalAction("MEM-R3", f"there is no stone on square {square}")
    if state.pledged is not None and square != state.pledged:
        raise IllegalAction(
            "MEM-R10.4", f"you asked about square {state.pledged} and were told no: take it"
        )
    if square in state.barred:
        raise IllegalAction("MEM-R10.3c", f"the stone on square {square} is blocked")
    me = state.sides[side]
    taken = {(r, c) for r, c, _ in me.pattern}
    if not me.pattern:
        if cell != (0, 0):
            raise IllegalAction("MEM-R1", "the first stone of a pattern goes at cell (0, 0)")
    elif cell in taken:
        raise IllegalAction("MEM-R1", f"cell {cell} of the pattern already holds a stone")
    elif not any((cell[0] + dr, cell[1] + dc) in taken for dr, dc in _STEPS):
        raise IllegalAction("MEM-R1", f"cell {cell} is not next to a stone of the pattern")
    pos = position(state)
    bit = pos.geo.bit[square]
    for other in range(len(state.sides)):
        if other == side or not state.sides[other].pattern:
            continue
        found = side_matches(state, other, pos)
        if not found and state.setup.rules.dead_pattern_exempt:
            continue
        if all(m.group & bit for m in found):
            theirs = state.sides[other]
            rule = "MEM-R10.3c" if theirs.lock is not None else "MEM-R3"
            raise IllegalAction(
                rule,
                f"taking square {square} would leave {_name(state, other)}'s pattern "
                "matching no group",
            )
    after = place_stone(state, side, square, cell)
    if not side_matches(after, side):
        raise IllegalAction(
            "MEM-R3", f"with that stone at {cell} your pattern would match no group on the board"
        )
    if _pair_needed(state) and not follow_up_exists(state, side, square, cell):
        raise IllegalAction(
            "MEM-R5", "no second move could follow that one, and a turn is two moves (MEM-A07)"
        )


_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _move(state: State, action: A.Move, events: Events) -> State:
    _on_turn(state, action.side, _name(state, action.side))
    cell = _to_board_frame(state, action.side, action.row, action.col)
    _check_move(state, action.side, action.square, cell)
    other = 1 - action.side
    if (
        state.setup.captures
        and len(state.sides) == 2
        and state.pledged is None
        and blocking_matches(state, other, action.square)
    ):
        events.append(E.MoveAnnounced(action.side, action.square))
        return replace(state, pending=Pending(action.side, action.square, cell))
    return _complete_move(state, action.side, action.square, cell, events)


def _complete_move(
    state: State, side: int, square: int, cell: tuple[int, int], events: Events
) -> State:
    colour = state.board[square]
    undo = None
    if state.setup.game is Game.MINI and state.moves_made == 0:
        undo = Undo(square, colour, state.sides[side].committed)
    state = place_stone(state, side, square, cell)
    state = replace(
        state,
        moves_made=state.moves_made + 1,
        moves=state.moves + 1,
        pledged=None,
        pending=None,
        undo=undo or state.undo,
    )
    events.append(E.StoneMoved(side, square, colour, cell[0], cell[1]))
    return _after_step(state, events)


def _after_step(state: State, events: Events) -> State:
    """After a move, capture or block: the turn goes on, or ends."""
    side = state.turn
    if state.setup.game is Game.SOLITAIRE and _won_solitaire(state):
        return _end(state, events, "sixteen")
    options = _options(state)
    if options:
        return state
    if state.setup.game is Game.MINI and state.moves_made == 1 and state.undo is not None:
        # A turn is two moves or none (MEM-R5): the first is taken back.
        events.append(E.MoveTakenBack(side, state.undo.square))
        state = _take_back(state)
    elif state.moves_made == 0 and not state.captured:
        events.append(E.TurnPassed(side, "blocked, and no other move or capture"))
    return _next_turn(state, events)


def _take_back(state: State) -> State:
    assert state.undo is not None
    side = state.turn
    me = state.sides[side]
    board = list(state.board)
    board[state.undo.square] = state.undo.colour
    back = replace(me, pattern=me.pattern[:-1], committed=state.undo.committed)
    return replace(
        with_side(state, side, back),
        board=tuple(board),
        moves=state.moves - 1,
        moves_made=0,
        undo=None,
    )


def _options(state: State) -> tuple[str, ...]:
    """The actions open to the side on turn, in the middle of its turn."""
    setup = state.setup
    side = state.turn
    if state.pledged is not None:
        return ("move",)
    out: list[str] = []
    can_move = _may_move_now(state) and has_move(state, side, state.barred)
    if can_move and _pair_needed(state):
        can_move = has_pair(state, side, state.barred)
    if can_move:
        out.append("move")
        if setup.captures and len(state.sides) == 2 and len(state.sides[1 - side].pattern) >= 2:
            out.append("ask")
    must_move = can_move and state.blocked and setup.rules.after_block == "MUST_MOVE_OTHER"
    capture_point = state.moves_made in (0, setup.moves_per_turn)
    if (
        not state.captured
        and capture_point
        and not (must_move and state.moves_made == 0)
        and legal_captures(state, side)
    ):
        out.append("capture")
    if out and (state.captured or state.moves_made == setup.moves_per_turn):
        out.append("end_turn")
    if state.blocked and setup.rules.after_block == "MAY_PASS" and state.moves_made == 0:
        out.append("pass")
    return tuple(out)


def _pair_needed(state: State) -> bool:
    """Mini-MEM under mini.pairSelection=PAIR: the first move must leave a second (MEM-A07)."""
    return (
        state.setup.game is Game.MINI
        and state.moves_made == 0
        and state.setup.rules.pair_selection == "PAIR"
    )


def _begin_turn(state: State, events: Events) -> State:
    """Starts the turn of the side on turn, passing (MEM-R10.1d) or putting out (MEM-R5)
    players who cannot act, and ending the game when nobody can (MEM-R10.5)."""
    n = len(state.sides)
    able = [not s.out and can_take_turn(state, i) for i, s in enumerate(state.sides)]
    if not any(able):
        game = state.setup.game
        if game is Game.MINI:
            for i, s in enumerate(state.sides):
                if not s.out:
                    events.append(E.PlayerOut(i))
                    state = with_side(state, i, replace(s, out=True))
        return _end(state, events, "no_move" if game is Game.SOLITAIRE else "nobody_can_act")
    for _ in range(n):
        side = state.turn
        if able[side]:
            events.append(E.TurnStarted(side, state.turn_number))
            return state
        me = state.sides[side]
        if state.setup.game is Game.MINI:
            if not me.out:
                if state.setup.rules.cannot_move == "ANY_MOVE" and has_move(state, side):
                    events.append(E.TurnPassed(side, "one move only"))
                else:
                    events.append(E.PlayerOut(side))
                    state = with_side(state, side, replace(me, out=True))
        else:
            events.append(E.TurnPassed(side, "no legal move or capture"))
        state = replace(state, turn=(side + 1) % n, turn_number=state.turn_number + 1)
    raise AssertionError("a player able to act was not reached")  # pragma: no cover


def _next_turn(state: State, events: Events) -> State:
    n = len(state.sides)
    state = replace(
        state,
        turn=(state.turn + 1) % n,
        turn_number=state.turn_number + 1,
        moves_made=0,
        captured=False,
        pending=None,
        barred=(),
        blocked=False,
        pledged=None,
        undo=None,
    )
    return _begin_turn(state, events)


def _won_solitaire(state: State) -> bool:
    """MEM-R4: a 16-stone pattern matching the 16 stones left on the board."""
    me = state.sides[0]
    if len(me.pattern) != 16 or sum(1 for c in state.board if c) != 16:
        return False
    pos = position(state)
    return any(m.group == pos.occupied for m in side_matches(state, 0, pos))


def _scores(state: State) -> tuple[int, ...]:
    return tuple(s.pile + len(s.pattern) for s in state.sides)


def _end(
    state: State, events: Events, reason: str, winners: tuple[int, ...] | None = None
) -> State:
    """The game's end: scored (MEM-R10.5, MEM-A13), or with the `winners` given."""
    scores = _scores(state)
    if winners is None:
        winners = _scored_winners(state, scores)
    events.append(E.GameEnded(winners, reason, scores))
    return replace(state, outcome=Outcome(winners, reason, scores), pending=None)


def _scored_winners(state: State, scores: tuple[int, ...]) -> tuple[int, ...]:
    if state.setup.game is Game.SOLITAIRE:
        return (0,) if _won_solitaire(state) else ()
    best = max(scores)
    winners = tuple(i for i, s in enumerate(scores) if s == best)
    if len(winners) > 1 and state.setup.rules.tie == "MORE_CAPTURED":
        piles = [state.sides[i].pile for i in winners]
        winners = tuple(i for i in winners if state.sides[i].pile == max(piles))
    return winners if len(winners) == 1 else ()


# ------------------------------------------------------------- blocks, questions
def _ask(state: State, action: A.Ask, events: Events) -> State:
    _on_turn(state, action.side, _name(state, action.side))
    if not state.setup.captures or len(state.sides) != 2:
        raise IllegalAction("MEM-A15", "there are no blocks in this game")
    if state.pledged is not None:
        raise IllegalAction("MEM-R10.4", f"you were told no: take square {state.pledged}")
    square = action.square
    if not 0 <= square < len(state.board) or square in state.barred:
        raise IllegalAction("MEM-R10.4", f"square {square} cannot be taken now")
    choices = [cell for s, cell in legal_moves(state, action.side) if s == square]
    if _pair_needed(state):
        choices = [c for c in choices if follow_up_exists(state, action.side, square, c)]
    if not _may_move_now(state) or not choices:
        raise IllegalAction("MEM-R10.4", f"no legal move takes the stone on square {square}")
    other = 1 - action.side
    if not blocking_matches(state, other, square):
        events.append(E.BlockDeclined(other, square, True))
        return replace(state, pledged=square)
    events.append(E.BlockAsked(action.side, square))
    return replace(state, pending=Pending(action.side, square, None))


def _block(state: State, action: A.Block, events: Events) -> State:
    pending = state.pending
    if pending is None or action.side == pending.side:
        raise IllegalAction("MEM-R10.3", "there is no move or question to block now")
    cell = _to_board_frame(state, action.side, action.row, action.col)
    square = pending.square
    geo_cell = position(state).geo.cell[square]
    t = (geo_cell[0] - cell[0], geo_cell[1] - cell[1])
    found = [m for m in blocking_matches(state, action.side, square) if m.t == t]
    if not found:
        raise IllegalAction(
            "MEM-R9",
            f"your pattern stone at {cell} does not stand for square {square} in a group your "
            "pattern matches",
        )
    lock = t if state.setup.rules.block_scope == "GROUP_LOCK" else None
    events.append(E.StoneBlocked(action.side, square, cell[0], cell[1], lock))
    blocker = state.sides[action.side]
    if lock is not None:
        state = with_side(state, action.side, replace(blocker, lock=lock))
    state = replace(state, pending=None, barred=(*state.barred, square), blocked=True)
    return _after_step(state, events)


def _allow(state: State, action: A.Allow, events: Events) -> State:
    pending = state.pending
    if pending is None or action.side == pending.side:
        raise IllegalAction("MEM-R10.3", "there is no move or question waiting for an answer")
    events.append(E.BlockDeclined(action.side, pending.square, False))
    if pending.cell is None:
        return replace(state, pending=None, pledged=pending.square)
    state = replace(state, pending=None)
    return _complete_move(state, pending.side, pending.square, pending.cell, events)


# --------------------------------------------------------------------- captures
def _capture(state: State, action: A.Capture, events: Events) -> State:
    _on_turn(state, action.side, _name(state, action.side))
    setup = state.setup
    if not setup.captures:
        raise IllegalAction("MEM-A15", f"there are no captures in {setup.game.value}")
    if "capture" not in _options(state):
        if state.pledged is not None:
            raise IllegalAction("MEM-R10.4", f"you were told no: take square {state.pledged}")
        if state.blocked and state.moves_made == 0 and setup.rules.after_block == "MUST_MOVE_OTHER":
            raise IllegalAction("MEM-A11", "after a block you must make another move")
        if state.captured:
            raise IllegalAction("MEM-R7", "only one group may be captured in a turn")
        if state.moves_made not in (0, setup.moves_per_turn):
            raise IllegalAction("MEM-R10.1", "a capture comes before or after the turn's moves")
    if not 0 <= action.square < len(state.board) or not state.board[action.square]:
        raise IllegalAction("MEM-R7", f"there is no stone on square {action.square}")
    pos = position(state)
    group = component(pos.geo.bit[action.square], pos.occupied, pos.geo)
    if group not in legal_captures(state, action.side, pos):
        raise IllegalAction("MEM-R7", _why_not_capture(state, action.side, group))
    squares = tuple(pos.geo.squares(group))
    me = state.sides[action.side]
    pile = me.pile + len(squares) + len(me.pattern)
    board = list(state.board)
    for s in squares:
        board[s] = 0
    state = with_side(state, action.side, Side(pile=pile))
    state = replace(state, board=tuple(board), captured=True)
    events.append(E.GroupCaptured(action.side, squares, len(me.pattern), pile))
    for other in range(len(state.sides)):
        if other != action.side and state.sides[other].pattern and not side_matches(state, other):
            events.append(E.PatternDied(other))
    return _after_step(state, events)


def _why_not_capture(state: State, side: int, group: int) -> str:
    pos = position(state)
    me = state.sides[side]
    if len(me.pattern) < 2:
        return "a capture needs a pattern of 2 or more stones"
    if not any(m.group == group for m in side_matches(state, side, pos)):
        return "your pattern does not match that whole group"
    others = [o for o in range(len(state.sides)) if o != side]
    if state.setup.rules.block_vs_capture == "PROTECTS_GROUP" and any(
        group & locked_group(state, o, pos) for o in others
    ):
        return "that group is protected by a block (MEM-A10)"
    return "that group is not isolated (MEM-A04)"


# ------------------------------------------------------------ end turn and pass
def _end_turn(state: State, action: A.EndTurn, events: Events) -> State:
    _on_turn(state, action.side, _name(state, action.side))
    if "end_turn" not in _options(state):
        raise IllegalAction("MEM-R10.1", "the turn is not done: move, capture or pass first")
    return _next_turn(state, events)


def _pass(state: State, action: A.Pass, events: Events) -> State:
    _on_turn(state, action.side, _name(state, action.side))
    if "pass" not in _options(state):
        raise IllegalAction(
            "MEM-R10.1", "you may pass only when you have no legal move and no legal capture"
        )
    events.append(E.TurnPassed(action.side, "passed after a block"))
    return _next_turn(state, events)


# ------------------------------------------------------------------------ clock
def _time_expired(state: State, action: A.TimeExpired, events: Events) -> State:
    """The side the rules wait on ran out of time (MEM-A16): it loses, or under
    mem.timeout=SCORE the game ends and is scored as it stands."""
    if not state.setup.timer:
        raise IllegalAction("MEM-A16", "this game is played without a clock")
    expectation = expected(state)
    if expectation is None or expectation.timed != action.side:
        waiting = _name(state, expectation.actor) if expectation is not None else "nobody"
        raise IllegalAction(
            "MEM-A16",
            f"{_name(state, action.side)}'s time is not running: the rules wait on {waiting}",
        )
    events.append(E.FlagFell(action.side))
    state = replace(state, pending=None)
    if state.setup.rules.timeout == "SCORE":
        return _end(state, events, "time_scored")
    winners = tuple(i for i in range(len(state.sides)) if i != action.side)
    return _end(state, events, "time", winners)


# ------------------------------------------------------------------- expected
def expected(state: State) -> Expectation | None:
    if state.outcome is not None:
        return None
    clock = ("time_expired",) if state.setup.timer else ()
    pending = state.pending
    if pending is not None:
        blocker = 1 - pending.side
        what = "asks whether you block" if pending.cell is None else "wants to take"
        return Expectation(
            blocker,
            ("block", "allow", *clock),
            (pending.square,),
            f"{_name(state, pending.side)} {what} the stone on square {pending.square}: "
            f"{_name(state, blocker)} blocks or allows.",
            timed=blocker,
        )
    side = state.turn
    options = _options(state)
    places: set[int] = set()
    if "move" in options:
        places |= {s for s, _ in legal_moves(state, side) if s not in state.barred}
        if state.pledged is not None:
            places = {state.pledged}
    if "capture" in options:
        pos = position(state)
        for group in legal_captures(state, side, pos):
            places |= set(pos.geo.squares(group))
    words = {
        "move": "move",
        "ask": "ask about a block",
        "capture": "capture",
        "end_turn": "end the turn",
        "pass": "pass",
    }
    prompt = f"{_name(state, side)}: " + ", ".join(words[o] for o in options) + "."
    return Expectation(side, (*options, *clock), tuple(sorted(places)), prompt, timed=side)


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
    from companion.games.contract import BadSetup

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
    if len(values["board"]) != 32 or len(values["sides"]) != setup.side_count:
        raise BadData("state.board", "a board has 32 squares and a side per player")
    return State(**values)


def summary(state: State) -> JSON:
    scores = _scores(state)
    outcome = state.outcome
    return {
        "game": "mem",
        "variant": state.setup.game.value,
        "phase": "over" if outcome else "play",
        "move": state.moves,
        "turn": state.turn,
        "sides": list(state.setup.names),
        "scores": {
            "sides": [
                {
                    "side": i,
                    "pattern": len(s.pattern),
                    "pile": s.pile,
                    "total": scores[i],
                    "dead": bool(s.pattern) and not side_matches(state, i),
                }
                for i, s in enumerate(state.sides)
            ],
            "board_stones": sum(1 for c in state.board if c),
        },
        "board": format_board(state.board),
        "outcome": None
        if outcome is None
        else {"winners": list(outcome.winners), "reason": outcome.reason},
        "lines": _summary_lines(state, scores),
    }


def _summary_lines(state: State, scores: tuple[int, ...]) -> list[str]:
    """The summary in words, for a terminal (`companion replay`)."""
    names = state.setup.names
    lines = [f"{TITLES[state.setup.game]}, board now {format_board(state.board)}"]
    for i, side in enumerate(state.sides):
        notes = " (locked)" if side.lock is not None else ""
        notes += " (out)" if side.out else ""
        lines.append(
            f"{names[i]}: {scores[i]} stones (pattern {len(side.pattern)}, "
            f"captured {side.pile}){notes}"
        )
    outcome = state.outcome
    if outcome is None:
        lines.append("The game is not over.")
    elif state.setup.game is Game.SOLITAIRE:
        won = "won: 16 stones match the 16 left" if outcome.winners else "not won"
        lines.append(f"Solitaire {won} (pattern of {scores[0]}).")
    elif outcome.reason == "time" and outcome.winners:
        loser = next(i for i in range(len(names)) if i not in outcome.winners)
        lines.append(f"Winner: {names[outcome.winners[0]]}, on time ({names[loser]}'s ran out).")
    elif outcome.reason == "time_scored":
        how = "time ran out, the position scored"
        if outcome.winners:
            lines.append(f"Winner: {names[outcome.winners[0]]} ({how}).")
        else:
            lines.append(f"Draw ({how}).")
    elif outcome.winners:
        lines.append(f"Winner: {names[outcome.winners[0]]} ({outcome.reason}).")
    else:
        lines.append(f"Draw ({outcome.reason}).")
    return lines


_HANDLERS: dict[type, Any] = {
    A.Move: _move,
    A.Ask: _ask,
    A.Block: _block,
    A.Allow: _allow,
    A.Capture: _capture,
    A.EndTurn: _end_turn,
    A.Pass: _pass,
    A.TimeExpired: _time_expired,
}
