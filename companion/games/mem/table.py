"""What the stones on the table mean to the rules: a stone picked up, a stone held while a
move waits, or a mismatch to put right.

The camera reports the stone it has committed on every square (square number -> colour
name, as the board reader names the eleven colours); the rules know which stone should lie
there. The two are compared after every change:

- the table matches the rules: nothing to do;
- exactly one stone is gone: it was picked up, as a tap on it picks it up on the screen.
  Whether taking it is legal now is the engine's to say (a Move for the side on turn, to
  any cell of its space): when no such move is legal, the refusal is an alert naming the
  square and the engine's rule, until the stone is put back;
- the stone of a move or question held for the other player's block or allow is off the
  board: the player holds it while the other decides, not an alert;
- anything else (a stone appearing, a colour changed, several stones gone at once) is a
  mismatch, one alert per square naming what the camera sees and what the rules expect. A
  mismatch on a square the last action changed is table work: the rules moved that stone
  (into a playing space, into a captured pile, back onto the board by a takeback) and the
  table has not followed yet.

Squares the camera is unsure of (a stone between two colours) never raise an alert: the
camera is unsure, not the player.

    check = check_table(state, {"0": ("red",), ...}, unsure={"7"})
    check.taken       # 12: the stone on square 12 was picked up, legally
    check.alerts      # (StoneAlert(square=3, seen='', expected='blue', rule='MEM-R10.3c', ...),)

Pure: the state and the camera's board come in, nothing is remembered.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from companion.games.contract import IllegalAction
from companion.games.mem import actions as A
from companion.games.mem import engine
from companion.games.mem.colours import NAME
from companion.games.mem.legal import legal_captures, position
from companion.games.mem.state import State

Board = Mapping[str, Sequence[str]]
"""The camera's committed board: zone key ('0'..'31') -> the stones it reads there."""

TABLE_RULE = "MEM-R3"
"""Stones leave the board one at a time, by a move (or all of a group by a capture); none
come back onto it and none change colour."""
PUT_RIGHT_RULES = {
    "move": "MEM-R3",
    "allow": "MEM-R3",
    "capture": "MEM-R8",
    "takeback": "takeback",
}
"""The rule that moved stones, by the kind of action that last changed the board: quoted
when the table has not followed it yet."""

_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True, slots=True)
class StoneAlert:
    square: int
    seen: str
    """The colour the camera sees there, or '' for no stone."""
    expected: str
    """The colour the rules have there, or ''."""
    rule: str
    explanation: str
    put_right: bool
    """True when the rules moved this stone and the table has not followed yet; False for
    a stone moved where the rules did not take it."""

    def text(self) -> str:
        return f"Square {self.square}: {self.explanation} ({self.rule})"


@dataclass(frozen=True, slots=True)
class TableCheck:
    taken: int | None = None
    """The square of a stone picked up that the rules allow taking now."""
    waiting: int | None = None
    """The square of a held move's (or question's) stone, off the board while the other
    player decides."""
    alerts: tuple[StoneAlert, ...] = ()

    @property
    def matches(self) -> bool:
        return self.taken is None and self.waiting is None and not self.alerts


def rules_board(state: State) -> dict[int, str]:
    """Square -> colour name, for every stone the rules have on the board."""
    return {square: NAME[colour] for square, colour in enumerate(state.board) if colour}


def table_board(state: State) -> dict[int, str]:
    """The stones that lie on the table when the players have done what the rules ask: the
    rules' board, less the stone of a move or question held for the other player (its
    player holds it while the other decides)."""
    board = rules_board(state)
    if state.pending is not None:
        board.pop(state.pending.square, None)
    return board


def camera_board(seen: Board) -> dict[int, str]:
    """Square -> colour name from the camera's board (zones that are not squares left out;
    two stones on one square, which no move makes, read as their names joined)."""
    out: dict[int, str] = {}
    for zone, stones in seen.items():
        if zone.isdigit() and stones:
            out[int(zone)] = " and ".join(sorted(stones))
    return out


def check_table(
    state: State,
    seen: Board,
    *,
    unsure: Collection[str] = (),
    last_action: str | None = None,
    changed: Collection[int] = (),
) -> TableCheck:
    """Compares the camera's board `seen` with the rules' board.

    `unsure` are the zones the camera cannot name the stone of now: never an alert.
    `last_action` is the kind of the last committed action and `changed` the squares it
    changed on the rules' board: mismatches there are table work, quoted with its rule."""
    rules = rules_board(state)
    table = camera_board(seen)
    doubtful = {int(zone) for zone in unsure if zone.isdigit()}
    differing = [
        s
        for s in range(len(state.board))
        if s not in doubtful and rules.get(s, "") != table.get(s, "")
    ]
    if not differing:
        return TableCheck()
    alerts: list[StoneAlert] = []
    moved = [s for s in differing if last_action is not None and s in changed]
    for square in moved:
        alerts.append(_put_right(square, table.get(square, ""), rules.get(square, ""), last_action))
    others = [s for s in differing if s not in moved]
    taken: int | None = None
    waiting: int | None = None
    if len(others) == 1 and others[0] in rules and others[0] not in table:
        square = others[0]
        pending = state.pending
        if pending is not None and pending.square == square:
            waiting = square
        else:
            refusal = take_refusal(state, square)
            if refusal is None:
                taken = square
            else:
                colour = rules[square]
                alerts.append(
                    StoneAlert(
                        square,
                        "",
                        colour,
                        refusal.rule,
                        f"the {colour} stone may not be taken: {refusal.explanation}; put it back",
                        put_right=False,
                    )
                )
    else:
        for square in others:
            seen_here, expected = table.get(square, ""), rules.get(square, "")
            alerts.append(
                StoneAlert(
                    square,
                    seen_here,
                    expected,
                    TABLE_RULE,
                    f"the camera sees {_stone(seen_here)}, the rules expect {_stone(expected)}",
                    put_right=False,
                )
            )
    alerts.sort(key=lambda a: a.square)
    return TableCheck(taken, waiting, tuple(alerts))


def take_refusal(state: State, square: int) -> IllegalAction | None:
    """Why the side on turn may not take the stone on `square` now, in the engine's words,
    or None when it may: the stone of a group it may capture, or a Move the engine accepts
    to some cell of its playing space (a move announced for the other player's block is
    accepted too)."""
    side = state.turn
    if square in _capturable(state, side):
        return None
    refusals: list[IllegalAction] = []
    for cell in _cells(state, side):
        try:
            engine.apply(state, A.Move(side, square, *_actor_frame(state, side, cell)))
        except IllegalAction as refused:
            refusals.append(refused)
        else:
            return None
    if not refusals:  # pragma: no cover - a pattern always has a free cell beside it
        return IllegalAction(TABLE_RULE, f"no cell can take the stone on square {square}")
    first = refusals[0]
    if all(r.explanation == first.explanation for r in refusals):
        return first
    name = state.setup.names[side]
    return IllegalAction(first.rule, f"it fits no cell of {name}'s space: {first.explanation}")


def changed_squares(before: State, after: State) -> tuple[int, ...]:
    """The squares whose stone an action changed on the rules' board."""
    return tuple(
        s for s, (a, b) in enumerate(zip(before.board, after.board, strict=True)) if a != b
    )


def _capturable(state: State, side: int) -> set[int]:
    expectation = engine.expected(state)
    if expectation is None or expectation.actor != side or "capture" not in expectation.actions:
        return set()
    pos = position(state)
    return {s for group in legal_captures(state, side, pos) for s in pos.geo.squares(group)}


def _cells(state: State, side: int) -> list[tuple[int, int]]:
    """The cells of `side`'s space (board frame) a stone could be put on: (0, 0) for a
    first stone, else every free cell beside the pattern."""
    taken = {(r, c) for r, c, _ in state.sides[side].pattern}
    if not taken:
        return [(0, 0)]
    free = {(r + dr, c + dc) for r, c in taken for dr, dc in _STEPS} - taken
    return sorted(free)


def _actor_frame(state: State, side: int, cell: tuple[int, int]) -> tuple[int, int]:
    """A board-frame cell as `side`'s Move gives it (house rule mem.orientationFrame)."""
    if side == 1 and state.setup.rules.orientation_frame == "OWNER":
        return (-cell[0], -cell[1])
    return cell


def _put_right(square: int, seen: str, expected: str, last_action: str | None) -> StoneAlert:
    rule = PUT_RIGHT_RULES.get(last_action or "", TABLE_RULE)
    if expected and seen:
        wanted = f"swap the {seen} stone for the {expected} one"
    elif expected:
        wanted = f"put the {expected} stone back here"
    else:
        wanted = f"take the {seen} stone off"
    return StoneAlert(square, seen, expected, rule, f"the rules say: {wanted}", put_right=True)


def _stone(colour: str) -> str:
    return f"a {colour} stone" if colour else "no stone"
