"""What a touch on the MeM screen means, as pure functions of the game's state: which
action a tap makes, which buttons are offered, what to highlight. Nothing here decides a
rule: the buttons are the engine's expected actions, the highlights come from the rules'
own lists (legal.py, solver.legal_options), and every action is judged by the engine.

    selected = square_tapped(state, None, 12)                 # 12: the stone is picked up
    cell_tapped(state, expected(state), selected, 0, (0, 0))  # Move(side=0, square=12, ...)
    button_pressed(state, expected(state), selected, "end_turn")

Cells are in the board's frame, as the screen draws every playing space; the action's cell
is turned into the actor's frame (house rule mem.orientationFrame) here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.contract import Action, Expectation
from companion.games.mem import actions as A
from companion.games.mem.colours import NAME
from companion.games.mem.legal import blocking_matches, geo_of
from companion.games.mem.solver import legal_options
from companion.games.mem.state import State

CellXY = tuple[int, int]
"""(row, column) of a playing space, in the board's frame."""


@dataclass(frozen=True, slots=True)
class Guidance:
    """Not an action: what to do first (tap a stone, say). Shown, nothing submitted."""

    text: str


Outcome = Action | Guidance


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    key: str
    label: str
    danger: bool = False


BUTTON_LABELS: Mapping[str, str] = {
    "ask": "Ask: block it?",
    "capture": "Capture its group",
    "allow": "Allow",
    "end_turn": "End turn",
    "pass": "Pass",
}
"""A button for each expected action that is not a tap on the board or a space."""


def actor_frame(state: State, side: int, cell: CellXY) -> CellXY:
    """A board-frame cell of `side`'s space as `side`'s actions give it: the second player's
    space is read turned half a circle under mem.orientationFrame=OWNER (MEM-A02)."""
    if side == 1 and state.setup.rules.orientation_frame == "OWNER":
        return (-cell[0], -cell[1])
    return cell


def square_tapped(state: State, selected: int | None, square: int) -> int | None:
    """The stone picked up after a tap on `square`: that stone, or none when it was already
    picked up (a second tap puts it down) or the square is empty."""
    if square == selected or not 0 <= square < len(state.board) or not state.board[square]:
        return None
    return square


def cell_tapped(
    state: State,
    expectation: Expectation | None,
    selected: int | None,
    owner: int,
    cell: CellXY,
) -> Outcome:
    """A tap on cell `cell` of `owner`'s playing space: a block when the rules wait for one
    and a pattern stone is tapped, else the stone picked up moved there."""
    taken = {(r, c) for r, c, _ in state.sides[owner].pattern}
    if expectation is not None and "block" in expectation.actions and cell in taken:
        row, col = actor_frame(state, owner, cell)
        return A.Block(owner, row, col)
    if selected is None:
        if expectation is not None and "block" in expectation.actions:
            return Guidance("Tap the stone of your pattern that stands for it, or Allow.")
        return Guidance("Tap a stone on the board first, then a cell of your space.")
    row, col = actor_frame(state, owner, cell)
    return A.Move(owner, selected, row, col)


def button_pressed(
    state: State, expectation: Expectation | None, selected: int | None, key: str
) -> Outcome:
    """The action of button `key`, for whoever the rules wait for."""
    if expectation is None:
        return Guidance("The game is over.")
    actor = expectation.actor
    if key in ("ask", "capture") and selected is None:
        what = "to ask about" if key == "ask" else "of the group to capture"
        return Guidance(f"Tap the stone {what} first.")
    if key == "ask" and selected is not None:
        return A.Ask(actor, selected)
    if key == "capture" and selected is not None:
        return A.Capture(actor, selected)
    plain: dict[str, type[A.Allow | A.EndTurn | A.Pass]] = {
        "allow": A.Allow,
        "end_turn": A.EndTurn,
        "pass": A.Pass,
    }
    if key not in plain:
        return Guidance("That is not a button of this game.")
    return plain[key](actor)


def offered_buttons(expectation: Expectation | None) -> tuple[ButtonSpec, ...]:
    """One button per expected action that has one, in the engine's order."""
    if expectation is None:
        return ()
    return tuple(
        ButtonSpec(kind, BUTTON_LABELS[kind], danger=kind == "capture")
        for kind in expectation.actions
        if kind in BUTTON_LABELS
    )


def how_to(expectation: Expectation | None) -> str:
    """One line on what a touch does now."""
    if expectation is None:
        return ""
    actions = set(expectation.actions)
    if "block" in actions:
        return "Block: tap the stone of your pattern that stands for it. Or Allow."
    parts = []
    if "move" in actions:
        parts.append("tap a stone, then a cell of your space")
    if "capture" in actions:
        parts.append("tap a stone of a group ringed in red, then Capture")
    text = "; or ".join(parts)
    return text[:1].upper() + text[1:] + "." if text else ""


@dataclass(frozen=True, slots=True)
class Marks:
    """What the screen highlights, from the rules' own lists."""

    takeable: frozenset[int] = frozenset()
    """Squares the expected move or capture may name."""
    capturable: frozenset[int] = frozenset()
    """Squares of the groups the actor may capture."""
    targets: frozenset[CellXY] = frozenset()
    """Cells of the actor's space the picked-up stone may go to."""
    blocking: frozenset[CellXY] = frozenset()
    """Cells of the blocker's pattern that may block the held stone."""


def marks(state: State, expectation: Expectation | None, selected: int | None) -> Marks:
    if expectation is None:
        return Marks()
    actor = expectation.actor
    actions = set(expectation.actions)
    if "block" in actions and state.pending is not None:
        geo = geo_of(state)
        r, c = geo.cell[state.pending.square]
        found = blocking_matches(state, actor, state.pending.square)
        cells = {(r - m.t[0], c - m.t[1]) for m in found}
        return Marks(takeable=frozenset(expectation.places), blocking=frozenset(cells))
    options = legal_options(state)[actor]
    capturable: frozenset[int] = frozenset()
    if "capture" in actions:
        capturable = frozenset(s for group in options.captures for s in group)
    targets: frozenset[CellXY] = frozenset()
    if "move" in actions and selected is not None:
        targets = frozenset(cell for square, cell in options.moves if square == selected)
    return Marks(frozenset(expectation.places), capturable, targets)


@dataclass(frozen=True, slots=True)
class HintMarks:
    """The solver's advice, as the screen shows it."""

    text: str
    square: int | None = None
    side: int | None = None
    cell: CellXY | None = None
    """In the board's frame, in `side`'s space."""
    button: str | None = None


def hint_marks(state: State, action: Action | None) -> HintMarks:
    if action is None:
        return HintMarks("No hint: nothing to choose now.")
    names = state.setup.names
    if isinstance(action, A.Move):
        cell = actor_frame(state, action.side, (action.row, action.col))
        colour = NAME[state.board[action.square]] if state.board[action.square] else "stone"
        return HintMarks(
            f"Hint: the {colour} stone on square {action.square} to cell {cell}.",
            square=action.square,
            side=action.side,
            cell=cell,
        )
    if isinstance(action, A.Capture):
        return HintMarks(
            f"Hint: capture the group on square {action.square}.",
            square=action.square,
            button="capture",
        )
    if isinstance(action, A.Block):
        cell = actor_frame(state, action.side, (action.row, action.col))
        text = f"Hint: block with the pattern stone at {cell}."
        return HintMarks(text, side=action.side, cell=cell)
    if isinstance(action, A.Ask):
        text = f"Hint: ask about square {action.square}."
        return HintMarks(text, square=action.square, button="ask")
    words = {"allow": "allow it", "end_turn": "end the turn", "pass": "pass"}
    return HintMarks(
        f"Hint for {names[getattr(action, 'side', 0)]}: {words.get(action.kind, action.kind)}.",
        button=action.kind,
    )


def describe_event(event: Mapping[str, Any], names: tuple[str, ...]) -> str:
    """One line for the screen's event list; '' for events not worth one."""
    kind = event.get("type", "")
    side = event.get("side")
    who = names[side] if isinstance(side, int) and 0 <= side < len(names) else "?"
    square = event.get("square")
    if kind == "stone_moved":
        colour = NAME.get(event.get("colour", 0), "a")
        cell = (event.get("row"), event.get("col"))
        return f"{who} took the {colour} stone from square {square} to {cell}."
    if kind == "move_announced":
        return f"{who} wants the stone on square {square}: block or allow?"
    if kind == "block_asked":
        return f"{who} asks: will you block square {square}?"
    if kind == "block_declined":
        return f"{who} did not block square {square}."
    if kind == "stone_blocked":
        return f"{who} blocked square {square}."
    if kind == "group_captured":
        count = len(event.get("squares", ()))
        return f"{who} captured {count} stones (pile {event.get('pile')})."
    if kind == "move_taken_back":
        return f"{who}'s first move was taken back: no second could follow."
    if kind == "pattern_died":
        return f"{who}'s pattern matches nothing any more."
    if kind == "turn_passed":
        return f"{who} passed ({event.get('reason', '')})."
    if kind == "player_out":
        return f"{who} is out: no two moves left."
    if kind == "flag_fell":
        return f"{who}'s time ran out."
    if kind == "game_ended":
        return "The game is over."
    if kind == "turn_started" and len(names) > 1:
        return f"Turn {event.get('number')}: {who}."
    return ""


def describe_action(action: Mapping[str, Any], names: tuple[str, ...]) -> str:
    """'Ada's move from square 12', for the takeback question."""
    side = action.get("side")
    who = names[side] if isinstance(side, int) and 0 <= side < len(names) else "?"
    kind = str(action.get("type", "action")).replace("_", " ")
    square = action.get("square")
    return f"{who}'s {kind}" + (f" on square {square}" if isinstance(square, int) else "")
