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

Where the answer to a card shown is located on the board (Review, a Basic game that must
locate its places), a crystal the answerer puts down on a place locates it: the check says
which place (`located`), and the verdict, right or wrong, is still the table's to give.

The topology counters are compared too, when the camera reports them (`counters`): place
by place, as multisets of values with None for a face-down counter. A counter taken off a
place against the rules (MW-T7), turned the other way up (MW-T5), or lying where the rules
have none or another (MW-T2 on a standard card, MW-T3 in competitive placement) is an alert
like a crystal's; counters the last move changed (the holder took them, a counter placed by
touch) that the table has not followed yet are table work, quoted with the rule that moved
them (MW-T7, MW-T8 for an answer, MW-T4 for a placement). An alert about counters names
no value the rules hide, nor any value the camera read: "a face-down counter", "a counter".
A face-down counter laid where the side on turn may place one, before the touch that gives
its value, is the placement under way, not an alert.

    check = check_table(state, seen, colours)
    check.proposal        # Claim(side=0, place=17), or None
    check.located         # 17: the answer's place, read off the table; 0 when none
    check.alerts          # (TableAlert('17', seen=('blue',), expected=(), rule='MW-SM1', ...),)
    check_table(state, seen, colours, counters={"33": (None,)})   # counters checked too

Pure: the state, the camera's board and the colours come in, nothing is remembered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from companion.games.contract import Action, IllegalAction
from companion.games.memwars import actions as A
from companion.games.memwars import engine
from companion.games.memwars.board_pieces import (
    PieceColours,
    counters_on_board,
    crystals_on_board,
)
from companion.games.memwars.setup import Topology
from companion.games.memwars.state import Phase, State
from companion.games.zone_check import contents_text, on_the_way, zone_name, zone_order

Board = Mapping[str, Sequence[str]]
CounterBoard = Mapping[str, Sequence[int | None]]
"""Place -> the topology counters on it: values, None for a face-down counter."""

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
TURNED_RULE = "MW-T5"
"""Counters lie as the topology has them: competitive ones face down until taken."""
TAKEN_RULE = "MW-T7"
"""Only the holder of a won place takes its counters."""
COUNTER_WORK_RULES = {"answer": "MW-T8", "place_counter": "MW-T4", "takeback": "takeback"}
"""The rule that moved counters, by the kind of the last move, when the table has not
followed it yet; any other move that moved counters gave them to a won place's holder."""


@dataclass(frozen=True, slots=True)
class TableAlert:
    zone: str
    seen: tuple[str, ...]
    """The crystals the camera sees on the zone (for a counters alert too: what the board
    is drawn with)."""
    expected: tuple[str, ...]
    rule: str
    explanation: str
    put_right: bool
    """True when the rules moved pieces that the table has not followed yet; False for a
    piece that went where the rules did not take it."""
    counters: bool = False
    """About the zone's topology counters, not its crystals."""

    def text(self) -> str:
        return f"{zone_name(self.zone)}: {self.explanation} ({self.rule})"


@dataclass(frozen=True, slots=True)
class TableCheck:
    proposal: Action | None = None
    """A move the table shows that the rules allow now."""
    waiting_for: Action | None = None
    """A move under way: the table is part of the way to it."""
    alerts: tuple[TableAlert, ...] = ()
    located: int = 0
    """The place a crystal the answerer put down gives the answer awaited, when the answer
    must locate its place; 0 when none."""

    @property
    def matches(self) -> bool:
        return (
            self.proposal is None
            and self.waiting_for is None
            and not self.alerts
            and not self.located
        )


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
    counters: CounterBoard | None = None,
    counters_changed: Sequence[str] = (),
) -> TableCheck:
    """Compares the camera's board `seen` with the rules' board.

    `last_move` is the kind of the last committed action and `changed` the zones it changed
    on the rules' board: mismatches there are table work, quoted with that move's rule.
    With `propose` False, nothing on the table is taken for a move (after a takeback, the
    piece still lying there is table work, not the same move made again). `counters` are
    the topology counters the camera sees (None: it says nothing of them, and they are not
    checked), `counters_changed` the places whose counters the last move changed."""
    rules = _sorted(crystals_on_board(state, colours))
    table = _sorted(seen)
    counter_alerts: tuple[TableAlert, ...] = ()
    if counters is not None:
        counter_alerts = _counter_alerts(
            state, counters, table, rules, last_move, counters_changed, propose
        )
    check = _crystals_check(state, table, rules, colours, last_move, changed, propose)
    if counter_alerts:
        return replace(check, alerts=check.alerts + counter_alerts)
    return check


def _crystals_check(
    state: State,
    table: dict[str, tuple[str, ...]],
    rules: dict[str, tuple[str, ...]],
    colours: PieceColours,
    last_move: str | None,
    changed: Sequence[str],
    propose: bool,
) -> TableCheck:
    if table == rules:
        return TableCheck()
    differing = {z for z in set(rules) | set(table) if rules.get(z, ()) != table.get(z, ())}
    located = _located(state, table, rules, differing, colours) if propose else 0
    if located:
        return TableCheck(located=located)
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


def _located(
    state: State,
    table: Mapping[str, tuple[str, ...]],
    rules: Mapping[str, tuple[str, ...]],
    differing: set[str],
    colours: PieceColours,
) -> int:
    """The place an answer awaited is located on: where the one difference from the rules
    is one more of the answerer's crystals, on a place the answer may name."""
    expectation = engine.expected(state)
    if (
        expectation is None
        or "answer" not in expectation.actions
        or state.pending is not None
        # One place only: the card gives it, the answer does not locate it.
        or len(expectation.places) < 2
        or len(differing) != 1
    ):
        return 0
    (zone,) = differing
    extra = Counter(table.get(zone, ())) - Counter(rules.get(zone, ()))
    missing = Counter(rules.get(zone, ())) - Counter(table.get(zone, ()))
    if missing or extra != Counter({colours.sides[state.turn]: 1}):
        return 0
    return int(zone) if zone.isdigit() and int(zone) in expectation.places else 0


def _counter_alerts(
    state: State,
    counters: CounterBoard,
    table: Mapping[str, tuple[str, ...]],
    rules: Mapping[str, tuple[str, ...]],
    last_move: str | None,
    changed: Sequence[str],
    propose: bool,
) -> tuple[TableAlert, ...]:
    """One alert per place whose counters are not as the rules have them. No value the
    camera read is ever named: a counter the rules hold face down may lie face up."""
    expected = {z: _in_order(v) for z, v in counters_on_board(state).items()}
    seen = {z: _in_order(v) for z, v in counters.items() if v}
    alerts = []
    for zone in sorted(set(expected) | set(seen), key=zone_order):
        want, got = expected.get(zone, ()), seen.get(zone, ())
        if want == got or (propose and _placing(state, zone, got, want)):
            continue
        rule, explanation, put_right = _counters_wrong(state, zone, got, want, last_move, changed)
        alerts.append(
            TableAlert(
                zone,
                table.get(zone, ()),
                rules.get(zone, ()),
                rule,
                explanation,
                put_right,
                counters=True,
            )
        )
    return tuple(alerts)


def _in_order(values: Sequence[int | None]) -> tuple[int | None, ...]:
    """Face-up values from the lowest, then the face-down counters: the camera reads them
    in no order."""
    return tuple(sorted(values, key=lambda v: (v is None, v or 0)))


def _placing(
    state: State, zone: str, got: tuple[int | None, ...], want: tuple[int | None, ...]
) -> bool:
    """A face-down counter laid where the side on turn may place one, before the touch that
    gives its value: the placement under way."""
    if state.phase is not Phase.PLACE_COUNTERS:
        return False
    expectation = engine.expected(state)
    if expectation is None or "place_counter" not in expectation.actions:
        return False
    return (
        Counter(got) - Counter(want) == Counter({None: 1})
        and not Counter(want) - Counter(got)
        and zone.isdigit()
        and int(zone) in expectation.places
    )


def _counters_wrong(
    state: State,
    zone: str,
    got: tuple[int | None, ...],
    want: tuple[int | None, ...],
    last_move: str | None,
    changed: Sequence[str],
) -> tuple[str, str, bool]:
    """The rule, the explanation and whether it is table work, for counters that differ."""
    extra = Counter(got) - Counter(want)
    missing = Counter(want) - Counter(got)
    if zone in changed and last_move is not None:
        rule = COUNTER_WORK_RULES.get(last_move, TAKEN_RULE)
        return rule, f"the rules {_counter_work(extra, missing, bool(want))}", True
    down_got, down_want = got.count(None), want.count(None)
    if len(got) < len(want):
        lost = _counters_text(missing)
        return (
            TAKEN_RULE,
            f"{lost} {'was' if sum(missing.values()) == 1 else 'were'} taken off: only the "
            "holder of a won place takes its counters; put "
            f"{'it' if sum(missing.values()) == 1 else 'them'} back",
            False,
        )
    if len(got) > len(want):
        laid = "MW-T3" if state.setup.topology is Topology.COMPETITIVE else "MW-T2"
        many = sum(extra.values())
        what = "a counter" if many == 1 else f"{many} counters"
        return (
            laid,
            f"{what} the rules do not have here: take {'it' if many == 1 else 'them'} off",
            False,
        )
    if down_got < down_want:
        n = down_want - down_got
        what = "a face-down counter was" if n == 1 else f"{n} face-down counters were"
        return (
            TURNED_RULE,
            f"{what} turned face up: face-down counters stay hidden until the place is won; "
            f"turn {'it' if n == 1 else 'them'} back",
            False,
        )
    if down_got > down_want:
        n = down_got - down_want
        what = "a face-up counter was" if n == 1 else f"{n} face-up counters were"
        return (
            TURNED_RULE,
            f"{what} turned face down: turn {'it' if n == 1 else 'them'} back",
            False,
        )
    # As many, the same way up: face-up values other than the topology's.
    return (
        "MW-T2",
        f"the topology has {_counters_text(missing)} here, not the counter lying there",
        False,
    )


def _counter_work(extra: Counter[int | None], missing: Counter[int | None], any_left: bool) -> str:
    if extra and not missing and not any_left:
        return "took the counters off: take them off"
    parts = []
    if missing:
        parts.append("put " + _counters_text(missing) + " here")
    if extra:
        parts.append("take " + _counters_text(extra, values=False) + " off")
    return "moved the counters: " + " and ".join(parts)


def _counters_text(counts: Counter[int | None], values: bool = True) -> str:
    """'a face-down counter', '2 face-down counters', 'a face-up 5'. `values` only for the
    rules' counters, whose face-up values are public: a counter the camera reads face up may
    be one the rules hold face down, so its value is never said ('a face-up counter')."""
    words = []
    down = counts.get(None, 0)
    if down:
        words.append("a face-down counter" if down == 1 else f"{down} face-down counters")
    up = sorted((v, n) for v, n in counts.items() if v is not None)
    if values:
        for value, n in up:
            words.append(f"a face-up {value}" if n == 1 else f"{n} face-up {value}s")
    elif up:
        n = sum(n for _v, n in up)
        words.append("a face-up counter" if n == 1 else f"{n} face-up counters")
    return " and ".join(words)


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


def changed_zones(
    before: State, after: State, colours: PieceColours, action: Action | None = None
) -> tuple[str, ...]:
    """The zones whose crystals a move changed on the rules' board, and the place an answer
    located: after a wrong one, the crystal put down there is the table's to take back."""
    old = _sorted(crystals_on_board(before, colours))
    new = _sorted(crystals_on_board(after, colours))
    zones = {z for z in set(old) | set(new) if old.get(z) != new.get(z)}
    if isinstance(action, A.Answer) and action.place:
        zones.add(str(action.place))
    return tuple(sorted(zones, key=zone_order))


def changed_counters(before: State, after: State) -> tuple[str, ...]:
    """The places whose counters a move changed on the rules' board (taken, placed)."""
    old = {z: _in_order(v) for z, v in counters_on_board(before).items()}
    new = {z: _in_order(v) for z, v in counters_on_board(after).items()}
    return tuple(
        sorted((z for z in set(old) | set(new) if old.get(z) != new.get(z)), key=zone_order)
    )
