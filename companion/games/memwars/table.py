"""What the pieces on the table mean to the rules: a move to take, a move under way, or a
mismatch to put right.

The camera reports the crystals it has committed on every zone; the rules know what should
lie there. The two are compared after every change:

- the table matches the rules: nothing to do;
- it matches the board some physical move would give (a claim: the player on turn put a
  crystal down; a challenge: the challenger put their crystal and a challenge piece on the
  claimed place): that move is proposed, and the engine, not this module, accepts it;
- it is part way to such a board (one of the challenge's two pieces is down): wait;
- anything else is a mismatch, one alert per zone, naming the rule broken. A mismatch on a
  zone the last move changed is table work (the pieces the rules moved have not been moved
  yet); any other is a wrong move.

    check = check_table(state, seen, colours)
    check.proposal        # Claim(side=0, place=17), or None
    check.alerts          # (TableAlert('17', seen=('blue',), expected=(), rule='MW-SM1', ...),)

Pure: the state, the camera's board and the colours come in, nothing is remembered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.games.contract import Action, IllegalAction
from companion.games.memwars import actions as A
from companion.games.memwars import engine
from companion.games.memwars.board_pieces import PieceColours, crystals_on_board
from companion.games.memwars.state import State
from companion.games.zone_check import contents_text, on_the_way, zone_name, zone_order

Board = Mapping[str, Sequence[str]]

PUT_RIGHT_RULES = {
    "claim": "MW-SM1",
    "challenge": "MW-CH5",
    "give_up": "MW-CH6",
    "contest": "MW-CH6",
    "forsake": "MW-FS1",
    "maintain": "MW-M1",
    "judge": "MW-M1",
    "answer": "MW-BM3",
    "pass": "MW-SM2",
    "time_expired": "MW-A33",
    "takeback": "takeback",
}
"""The rule that moved the pieces, by the kind of move that last changed the board: quoted
when the table has not followed it yet."""

PIECES_RULE = "MW-SM1"
"""Crystals appear on places only by a claim (or a move the rules make after one)."""
DIAMOND_RULE = "MW-Q3"
"""Crystals go on a claim diamond only when a quadrant is won."""


@dataclass(frozen=True, slots=True)
class TableAlert:
    zone: str
    seen: tuple[str, ...]
    expected: tuple[str, ...]
    rule: str
    explanation: str
    put_right: bool
    """True when the rules moved pieces that the table has not followed yet; False for a
    piece that went where the rules did not take it."""

    def text(self) -> str:
        return f"{zone_name(self.zone)}: {self.explanation} ({self.rule})"


@dataclass(frozen=True, slots=True)
class TableCheck:
    proposal: Action | None = None
    """A move the table shows that the rules allow now."""
    waiting_for: Action | None = None
    """A move under way: the table is part of the way to it."""
    alerts: tuple[TableAlert, ...] = ()

    @property
    def matches(self) -> bool:
        return self.proposal is None and self.waiting_for is None and not self.alerts


def _sorted(board: Board) -> dict[str, tuple[str, ...]]:
    return {zone: tuple(sorted(c)) for zone, c in board.items() if c}


def physical_moves(state: State) -> list[Action]:
    """The moves the rules expect now that players make with their hands on the table."""
    expectation = engine.expected(state)
    if expectation is None:
        return []
    moves: list[Action] = []
    if "claim" in expectation.actions:
        moves.extend(A.Claim(expectation.actor, place) for place in expectation.places)
    if "challenge" in expectation.actions:
        moves.append(A.Challenge(expectation.actor))
    return moves


def check_table(
    state: State,
    seen: Board,
    colours: PieceColours,
    *,
    last_move: str | None = None,
    changed: Sequence[str] = (),
    propose: bool = True,
) -> TableCheck:
    """Compares the camera's board `seen` with the rules' board.

    `last_move` is the kind of the last committed action and `changed` the zones it changed
    on the rules' board: mismatches there are table work, quoted with that move's rule.
    With `propose` False, nothing on the table is taken for a move (after a takeback, the
    piece still lying there is table work, not the same move made again)."""
    rules = _sorted(crystals_on_board(state, colours))
    table = _sorted(seen)
    if table == rules:
        return TableCheck()
    differing = {z for z in set(rules) | set(table) if rules.get(z, ()) != table.get(z, ())}
    for move in physical_moves(state) if propose else []:
        try:
            after_state, _ = engine.apply(state, move)
        except IllegalAction:
            continue
        after = _sorted(crystals_on_board(after_state, colours))
        if table == after:
            return TableCheck(proposal=move)
        if all(
            on_the_way(table.get(z, ()), rules.get(z, ()), after.get(z, ())) for z in differing
        ) and any(rules.get(z, ()) != after.get(z, ()) for z in differing):
            return TableCheck(waiting_for=move)
    alerts = [
        _alert(state, zone, table.get(zone, ()), rules.get(zone, ()), colours, last_move, changed)
        for zone in sorted(differing, key=zone_order)
    ]
    return TableCheck(alerts=tuple(alerts))


def _alert(
    state: State,
    zone: str,
    seen: tuple[str, ...],
    expected: tuple[str, ...],
    colours: PieceColours,
    last_move: str | None,
    changed: Sequence[str],
) -> TableAlert:
    extra = Counter(seen) - Counter(expected)
    missing = Counter(expected) - Counter(seen)
    wanted = _changes_text(extra, missing)
    if zone in changed and last_move is not None:
        rule = PUT_RIGHT_RULES.get(last_move, PIECES_RULE)
        return TableAlert(zone, seen, expected, rule, f"the rules {wanted}", put_right=True)
    if not zone.isdigit():
        return TableAlert(
            zone,
            seen,
            expected,
            DIAMOND_RULE,
            f"the camera sees {contents_text(seen)}, the rules expect "
            f"{contents_text(expected)}: only a quadrant won puts a crystal there",
            put_right=False,
        )
    side = _single_side_crystal(extra, missing, colours)
    if side is not None and not expected:
        # One side's crystal on an empty place looks like a claim: let the rules say why
        # it is not one.
        try:
            engine.apply(state, A.Claim(side, int(zone)))
        except IllegalAction as refused:
            return TableAlert(
                zone, seen, expected, refused.rule, refused.explanation, put_right=False
            )
    return TableAlert(
        zone,
        seen,
        expected,
        PIECES_RULE,
        f"the camera sees {contents_text(seen)}, the rules expect {contents_text(expected)}",
        put_right=False,
    )


def _single_side_crystal(
    extra: Counter[str], missing: Counter[str], colours: PieceColours
) -> int | None:
    if missing or sum(extra.values()) != 1:
        return None
    (colour,) = extra
    return colours.sides.index(colour) if colour in colours.sides else None


def _changes_text(extra: Counter[str], missing: Counter[str]) -> str:
    parts = []
    if missing:
        parts.append("put " + _crystals(missing) + " here")
    if extra:
        parts.append("take " + _crystals(extra) + " off")
    return " and ".join(parts) or "leave this as it is"


def _crystals(counts: Counter[str]) -> str:
    words = []
    for colour, n in sorted(counts.items()):
        words.append(f"{n} {colour} crystals" if n > 1 else f"a {colour} crystal")
    return ", ".join(words)


def changed_zones(before: State, after: State, colours: PieceColours) -> tuple[str, ...]:
    """The zones whose crystals a move changed on the rules' board."""
    old = _sorted(crystals_on_board(before, colours))
    new = _sorted(crystals_on_board(after, colours))
    return tuple(
        sorted((z for z in set(old) | set(new) if old.get(z) != new.get(z)), key=zone_order)
    )
