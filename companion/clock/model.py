"""The game clock: pure functions over a frozen Clock, time passed in as integer nanoseconds.

    clock = new_clock([TimeControl.sudden_death(300, 2)] * 2)
    clock, events = start(clock, player=0, t=0)
    clock, events = press(clock, player=0, t=s(12.5))   # 0 ends their move; 1 runs
    remaining(clock, 1, t=s(20))                        # 300 s - 7.5 s, in ns

Every press carries the time of the press itself, so the time it takes to process never
costs a player anything. Only presses, arbiter actions and announced flags change the
clock; asking what it shows (`remaining`, `display`) changes nothing. A flag is announced by
`tick`, which reports the exact instant it fell even when the tick comes later, and only
once SETTLE_NS have passed since: until then a press stamped before the flag, still on its
way from the button, wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.clock.controls import ByoYomi, Delay, Kind, TimeControl
from companion.clock.display import (
    DEFAULT_TENTHS_BELOW_NS,
    DEFAULT_WARNING_AT_NS,
    ClockDisplay,
    PlayerDisplay,
    format_time,
)

SETTLE_NS = 250_000_000
"""How long after a flag's instant (or a per-move limit's) `tick` waits before it announces
it, making it final: the longest a press may take from the button to the clock (a Pico
frame after the firmware's debounce and a busy USB, a GPIO callback on a loaded Pi), with
room to spare. A press stamped before the instant that arrives within it counts first, as
on a clock whose buttons stop it at once; the display reads 0.0 meanwhile, but shows no
flag until it is final."""


class ClockError(ValueError):
    """A clock that cannot be built, or an arbiter action that makes no sense."""


@dataclass(frozen=True, slots=True)
class PlayerTime:
    main_ns: int
    """Main time left at the start of the current move (upcount: time used so far)."""
    stage: int = 0
    stage_moves: int = 0
    moves: int = 0
    in_byo: bool = False
    byo_periods: int = 0
    """Japanese byo-yomi periods left."""
    byo_ns: int = 0
    """Canadian byo-yomi: time left in the current block at the start of the move."""
    byo_moves: int = 0
    flagged_at: int | None = None
    earned_ns: int = 0
    """Time credited by rule so far: increments, Bronstein refunds, stage times, arbiter."""
    used_ns: int = 0
    """Time charged so far for completed moves."""


@dataclass(frozen=True, slots=True)
class Clock:
    controls: tuple[TimeControl, ...]
    players: tuple[PlayerTime, ...]
    order: tuple[int, ...]
    running: int | None = None
    segment_start: int = 0
    """When the running player's time last started to run (a press, a start or a resume)."""
    banked_ns: int = 0
    """Time of the current move already run before the last pause."""
    paused: bool = False
    as_of: int = 0
    """The time of the last change; a press may not be older."""
    limit_done: bool = False
    """The current move's per-move limit has been announced."""
    previous: Clock | None = None
    """The clock before the last press, for undo."""


# ----------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class ClockEvent:
    at: int


@dataclass(frozen=True, slots=True)
class Started(ClockEvent):
    player: int


@dataclass(frozen=True, slots=True)
class Pressed(ClockEvent):
    player: int
    next_player: int
    used_ns: int
    """Time charged for the move just ended."""
    earned_ns: int
    """Increment or refund added for it."""


@dataclass(frozen=True, slots=True)
class PressIgnored(ClockEvent):
    player: int
    reason: str


@dataclass(frozen=True, slots=True)
class FlagFell(ClockEvent):
    player: int


@dataclass(frozen=True, slots=True)
class MoveLimitExpired(ClockEvent):
    player: int
    next_player: int


@dataclass(frozen=True, slots=True)
class StageStarted(ClockEvent):
    player: int
    stage: int
    added_ns: int


@dataclass(frozen=True, slots=True)
class PeriodsUsed(ClockEvent):
    player: int
    periods_left: int


@dataclass(frozen=True, slots=True)
class Paused(ClockEvent):
    pass


@dataclass(frozen=True, slots=True)
class Resumed(ClockEvent):
    pass


@dataclass(frozen=True, slots=True)
class TimeAdjusted(ClockEvent):
    player: int
    delta_ns: int


@dataclass(frozen=True, slots=True)
class PressUndone(ClockEvent):
    player: int


Events = tuple[ClockEvent, ...]


# ----------------------------------------------------------------------------- building
def new_clock(controls: Sequence[TimeControl], order: Sequence[int] | None = None) -> Clock:
    """A clock for 2 to 6 players, each with a control (handicaps allowed), waiting to start.

    `order` is the turn order (default clockwise: 0, 1, 2, ...).
    """
    n = len(controls)
    if not 2 <= n <= 6:
        raise ClockError(f"a clock has 2 to 6 players, not {n}")
    turn_order = tuple(order) if order is not None else tuple(range(n))
    if sorted(turn_order) != list(range(n)):
        raise ClockError(f"the order must list every player 0..{n - 1} once, got {turn_order}")
    for i, control in enumerate(controls):
        if control.kind is Kind.HOURGLASS and n != 2:
            raise ClockError(f"player {i}: an hourglass needs exactly two players")
        if control.kind is Kind.STAGES and not control.stages:
            raise ClockError(f"player {i}: a staged control needs at least one stage")
        problem = control.problem()
        if problem is not None:
            raise ClockError(f"player {i}: {problem}")
    players = tuple(
        PlayerTime(
            main_ns=c.starting_time_ns(),
            byo_periods=c.byo_yomi.periods if c.byo_yomi else 0,
            earned_ns=c.starting_time_ns() if not c.counts_up else 0,
        )
        for c in controls
    )
    return Clock(controls=tuple(controls), players=players, order=turn_order)


def next_in_order(clock: Clock, player: int) -> int:
    i = clock.order.index(player)
    return clock.order[(i + 1) % len(clock.order)]


# ------------------------------------------------------------------------- spending
@dataclass(frozen=True, slots=True)
class _Spent:
    """A player's time after `elapsed` of the current move, before the move's end."""

    main_ns: int
    in_byo: bool
    byo_left_ns: int
    """Japanese: time left in the current period; Canadian: in the current block."""
    periods_left: int
    flagged: bool
    charged_ns: int
    """Main time charged so far this move (the delay's grace is not charged)."""


def _spend(control: TimeControl, pt: PlayerTime, elapsed: int) -> _Spent:
    if pt.flagged_at is not None:
        # A flagged player's time stands still (an hourglass's may hold sand that has run
        # back to them since; elsewhere it is 0).
        return _Spent(pt.main_ns, pt.in_byo, 0, 0, True, 0)
    if control.counts_up:
        return _Spent(pt.main_ns + elapsed, False, 0, 0, False, elapsed)
    if control.kind is Kind.HOURGLASS:
        left = pt.main_ns - elapsed
        return _Spent(max(0, left), False, 0, 0, left <= 0, min(elapsed, pt.main_ns))
    stage = control.stage(pt.stage)
    byo = control.byo_yomi
    # Main time is spent first; in byo-yomi it is time the arbiter added (see `adjust`).
    grace = 0 if pt.in_byo else stage.grace_ns
    charged = max(0, elapsed - grace)
    left = pt.main_ns - charged
    if byo is None:
        if left > 0 or (left == 0 and charged == 0):
            return _Spent(left, False, 0, 0, False, charged)
        return _Spent(0, False, 0, 0, True, pt.main_ns)
    if left > 0:
        return _Spent(left, pt.in_byo, _byo_ahead(byo, pt), pt.byo_periods, False, charged)
    overflow = -left
    charged = pt.main_ns
    if byo.canadian:
        block = pt.byo_ns if pt.in_byo else byo.period_ns
        block_left = block - overflow
        return _Spent(0, True, max(0, block_left), 1, block_left <= 0, charged)
    used, into = divmod(overflow, byo.period_ns)
    periods = pt.byo_periods - used
    return _Spent(
        0, True, byo.period_ns - into if periods > 0 else 0, max(0, periods), periods <= 0, charged
    )


def _byo_ahead(byo: ByoYomi, pt: PlayerTime) -> int:
    """The byo-yomi time a player has before a period is used or the block runs out, once
    their main time is gone: a whole period (Japanese), or the block's time."""
    if byo.canadian:
        return pt.byo_ns if pt.in_byo else byo.period_ns
    return byo.period_ns if pt.byo_periods > 0 else 0


def _elapsed(clock: Clock, t: int) -> int:
    if clock.running is None:
        return 0
    if clock.paused:
        return clock.banked_ns
    return clock.banked_ns + max(0, t - clock.segment_start)


def _fall_elapsed(control: TimeControl, pt: PlayerTime) -> int | None:
    """How much move time the player can use before the flag falls; None if it never does."""
    if pt.flagged_at is not None or control.counts_up:
        return None
    if control.kind is Kind.HOURGLASS:
        return pt.main_ns
    byo = control.byo_yomi
    grace = 0 if pt.in_byo else control.stage(pt.stage).grace_ns
    main = grace + pt.main_ns
    if byo is None:
        return main
    return main + (_byo_ahead(byo, pt) if byo.canadian else pt.byo_periods * byo.period_ns)


def flag_instant(clock: Clock) -> int | None:
    """When the running player's flag falls if nobody presses, or None."""
    if clock.running is None or clock.paused:
        return None
    player = clock.running
    budget = _fall_elapsed(clock.controls[player], clock.players[player])
    if budget is None:
        return None
    return clock.segment_start + max(0, budget - clock.banked_ns)


def limit_instant(clock: Clock) -> int | None:
    """When the running player's per-move limit runs out if nobody presses, or None."""
    if clock.running is None or clock.paused or clock.limit_done:
        return None
    limit = clock.controls[clock.running].move_limit_ns
    if limit is None:
        return None
    return clock.segment_start + max(0, limit - clock.banked_ns)


# --------------------------------------------------------------------------- queries
def remaining(clock: Clock, player: int, t: int) -> int:
    """Main time left for `player` at `t` (in byo-yomi: time left in the period or block,
    after any time the arbiter added; for a clock that counts up: time used)."""
    pt = clock.players[player]
    control = clock.controls[player]
    if clock.running == player:
        spent = _spend(control, pt, _elapsed(clock, t))
        return spent.main_ns + spent.byo_left_ns if spent.in_byo else spent.main_ns
    if control.kind is Kind.HOURGLASS and clock.running is not None:
        return pt.main_ns + _spent_main(clock, t)
    if pt.flagged_at is not None:
        return pt.main_ns
    if pt.in_byo and control.byo_yomi is not None:
        return pt.main_ns + _byo_ahead(control.byo_yomi, pt)
    return pt.main_ns


def _spent_main(clock: Clock, t: int) -> int:
    """Main time the running player has used this move (the hourglass's flow)."""
    assert clock.running is not None
    spent = _spend(clock.controls[clock.running], clock.players[clock.running], _elapsed(clock, t))
    return spent.charged_ns


def display(
    clock: Clock,
    t: int,
    *,
    tenths_below_ns: int = DEFAULT_TENTHS_BELOW_NS,
    warning_at_ns: int = DEFAULT_WARNING_AT_NS,
) -> ClockDisplay:
    rows = []
    for player, (pt, control) in enumerate(zip(clock.players, clock.controls, strict=True)):
        left = remaining(clock, player, t)
        # Only a final flag shows: until `tick` announces it, a press from before it may
        # still arrive, and lights and buzzers must not say the flag fell.
        flagged = pt.flagged_at is not None
        detail = ""
        in_byo = pt.in_byo or (
            clock.running == player and _spend(control, pt, _elapsed(clock, t)).in_byo
        )
        if control.byo_yomi and in_byo:
            if control.byo_yomi.canadian:
                detail = f"{control.byo_yomi.moves - pt.byo_moves} moves"
            else:
                periods = (
                    _spend(control, pt, _elapsed(clock, t)).periods_left
                    if clock.running == player
                    else pt.byo_periods
                )
                detail = f"{periods} x {format_time(control.byo_yomi.period_ns)}"
        move_left = _move_left(clock, player, t)
        if move_left is not None:
            detail = f"move {format_time(move_left, tenths_below_ns)}"
        delay = _delay_left(clock, player, t)
        if delay:
            detail = f"delay {format_time(delay, tenths_below_ns)}"
        rows.append(
            PlayerDisplay(
                remaining_ns=left,
                text=format_time(left, tenths_below_ns),
                running=clock.running == player and not clock.paused,
                flagged=flagged,
                warning=not control.counts_up and not flagged and left < warning_at_ns,
                moves=pt.moves,
                detail=detail,
                delay_ns=delay,
            )
        )
    return ClockDisplay(
        players=tuple(rows), running=None if clock.paused else clock.running, paused=clock.paused
    )


def _move_left(clock: Clock, player: int, t: int) -> int | None:
    """What is left of the running player's per-move limit at `t`, or None when no limit
    runs for `player` (the players watch it count down: MnemoGame's 30 s a guess)."""
    if clock.running != player or clock.limit_done:
        return None
    limit = clock.controls[player].move_limit_ns
    if limit is None:
        return None
    return max(0, limit - _elapsed(clock, t))


def _delay_left(clock: Clock, player: int, t: int) -> int:
    """What is left at `t` of the simple delay of the move `player` is making (paused or
    not), or 0."""
    pt = clock.players[player]
    control = clock.controls[player]
    if clock.running != player or control.kind is not Kind.STAGES:
        return 0
    if pt.in_byo or pt.flagged_at is not None:
        return 0
    return max(0, control.stage(pt.stage).grace_ns - _elapsed(clock, t))


# --------------------------------------------------------------------------- changes
def start(clock: Clock, player: int, t: int) -> tuple[Clock, Events]:
    """Starts `player`'s time (the arbiter's start, or a game's first turn)."""
    _check_player(clock, player)
    if clock.running is not None:
        raise ClockError("the clock has already started")
    started = replace(
        clock, running=player, segment_start=t, banked_ns=0, as_of=t, paused=False, limit_done=False
    )
    return started, (Started(t, player),)


def press(clock: Clock, player: int, t: int) -> tuple[Clock, Events]:
    """`player` presses their own button at `t`: their move ends and the next player's
    time runs. Before the start, a press starts the next player (as Black starts White's
    clock); a press by a waiting player, or while paused, is ignored as on a real clock."""
    _check_player(clock, player)
    if t < clock.as_of:
        flagged_at = clock.players[player].flagged_at
        if clock.running == player and flagged_at is not None and t < flagged_at:
            reason = "stamped before the flag, but it arrived after the flag was final"
        else:
            reason = "older than the clock's last change"
        return clock, (PressIgnored(t, player, reason),)
    if clock.running is None:
        return start(clock, next_in_order(clock, player), t)
    if clock.paused:
        return clock, (PressIgnored(t, player, "the clock is paused"),)
    if player != clock.running:
        return clock, (PressIgnored(t, player, "it is not this player's time"),)
    return _end_move(clock, t, next_in_order(clock, player))


def switch_to(clock: Clock, player: int, t: int) -> tuple[Clock, Events]:
    """Ends the running player's move at `t` and runs `player` (a game that decides whose
    turn it is, skipping or repeating players, drives the clock with this)."""
    _check_player(clock, player)
    if clock.running is None:
        return start(clock, player, t)
    if t < clock.as_of:
        raise ClockError("a switch cannot be older than the clock's last change")
    return _end_move(clock, t, player)


def _end_move(clock: Clock, t: int, nxt: int, *, completed: bool = True) -> tuple[Clock, Events]:
    mover = clock.running
    assert mover is not None
    clock, events = tick(clock, t, settle_ns=0)
    if clock.running != mover:  # the move limit already ended this move
        return clock, events
    control = clock.controls[mover]
    pt = clock.players[mover]
    elapsed = _elapsed(clock, t)
    spent = _spend(control, pt, elapsed)
    out: list[ClockEvent] = list(events)
    players = list(clock.players)
    earned = 0
    if pt.flagged_at is not None:
        new = replace(pt, moves=pt.moves + 1)
    elif control.counts_up:
        new = replace(pt, main_ns=spent.main_ns, moves=pt.moves + 1, used_ns=pt.used_ns + elapsed)
    elif control.kind is Kind.HOURGLASS:
        new = replace(
            pt, main_ns=spent.main_ns, moves=pt.moves + 1, used_ns=pt.used_ns + spent.charged_ns
        )
        other = next(i for i in range(2) if i != mover)
        players[other] = replace(
            players[other],
            main_ns=players[other].main_ns + spent.charged_ns,
            earned_ns=players[other].earned_ns + spent.charged_ns,
        )
    else:
        new, earned, more = _complete_staged(control, pt, spent, elapsed, t, mover, completed)
        out.extend(more)
    players[mover] = new
    done = replace(
        clock,
        players=tuple(players),
        running=nxt,
        segment_start=t,
        banked_ns=0,
        as_of=t,
        limit_done=False,
        previous=clock,
    )
    out.append(Pressed(t, mover, nxt, spent.charged_ns, earned))
    return done, tuple(out)


def _complete_staged(
    control: TimeControl,
    pt: PlayerTime,
    spent: _Spent,
    elapsed: int,
    t: int,
    mover: int,
    completed: bool,
) -> tuple[PlayerTime, int, list[ClockEvent]]:
    events: list[ClockEvent] = []
    stage = control.stage(pt.stage)
    byo = control.byo_yomi
    earned = 0
    main = spent.main_ns
    if completed and not spent.in_byo:
        earned = stage.increment_ns
        if stage.delay is Delay.BRONSTEIN:
            earned += min(elapsed, stage.delay_ns)
        main += earned
    new = replace(
        pt,
        main_ns=main,
        moves=pt.moves + 1,
        used_ns=pt.used_ns + spent.charged_ns,
        earned_ns=pt.earned_ns + earned,
        in_byo=spent.in_byo,
    )
    if spent.in_byo and byo is not None:
        if byo.canadian:
            block_moves = (pt.byo_moves if pt.in_byo else 0) + 1
            if block_moves >= byo.moves:
                new = replace(new, byo_ns=byo.period_ns, byo_moves=0)
            else:
                new = replace(new, byo_ns=spent.byo_left_ns, byo_moves=block_moves)
        else:
            if spent.periods_left != pt.byo_periods:
                events.append(PeriodsUsed(t, mover, spent.periods_left))
            new = replace(new, byo_periods=spent.periods_left)
    # Multi-period controls: the stage's last move brings the next stage's time (PGN 9.6.1).
    if stage.moves is not None and completed:
        made = pt.stage_moves + 1
        if made >= stage.moves:
            following = control.stage(pt.stage + 1)
            added = following.time_ns
            new = replace(new, stage=pt.stage + 1, stage_moves=0, earned_ns=new.earned_ns + added)
            if not new.in_byo:
                new = replace(new, main_ns=new.main_ns + added)
            events.append(StageStarted(t, mover, pt.stage + 1, added))
        else:
            new = replace(new, stage_moves=made)
    return new, earned, events


def tick(clock: Clock, t: int, settle_ns: int = SETTLE_NS) -> tuple[Clock, Events]:
    """Announces what has happened by `t`: a fallen flag (at the instant it fell) or an
    expired per-move limit (which ends the move at its instant)."""
    if clock.running is None or clock.paused:
        return clock, ()
    events: list[ClockEvent] = []
    fall = flag_instant(clock)
    limit = limit_instant(clock)
    if limit is not None and t >= limit + settle_ns and (fall is None or limit < fall):
        mover = clock.running
        nxt = next_in_order(clock, mover)
        limited = replace(clock, limit_done=True)
        done, more = _end_move(limited, limit, nxt, completed=False)
        events.append(MoveLimitExpired(limit, mover, nxt))
        events.extend(e for e in more if not isinstance(e, Pressed))
        done, later = tick(done, t, settle_ns)
        return done, (*events, *later)
    if fall is not None and t >= fall + settle_ns:
        player = clock.running
        players = list(clock.players)
        pt = players[player]
        spent = _spend(clock.controls[player], pt, _elapsed(clock, fall))
        players[player] = replace(
            pt,
            flagged_at=fall,
            main_ns=0,
            in_byo=spent.in_byo,
            byo_ns=0,
            byo_periods=0,
            used_ns=pt.used_ns + spent.charged_ns,
        )
        if clock.controls[player].kind is Kind.HOURGLASS:
            # The sand that ran out of the flagged player's side is the opponent's now.
            other = 1 - player
            players[other] = replace(
                players[other],
                main_ns=players[other].main_ns + spent.charged_ns,
                earned_ns=players[other].earned_ns + spent.charged_ns,
            )
        # The flagged player's time stops; the game's rules decide what a flag means.
        flagged = replace(
            clock,
            players=tuple(players),
            segment_start=fall,
            banked_ns=0,
            as_of=max(clock.as_of, fall),
        )
        return flagged, (FlagFell(fall, player),)
    return clock, ()


def pause(clock: Clock, t: int) -> tuple[Clock, Events]:
    if clock.paused or clock.running is None:
        return clock, ()
    clock, events = tick(clock, t, settle_ns=0)
    paused = replace(clock, paused=True, banked_ns=_elapsed(clock, t), as_of=max(clock.as_of, t))
    return paused, (*events, Paused(t))


def resume(clock: Clock, t: int) -> tuple[Clock, Events]:
    if not clock.paused:
        return clock, ()
    return replace(clock, paused=False, segment_start=t, as_of=max(clock.as_of, t)), (Resumed(t),)


def adjust(clock: Clock, player: int, delta_ns: int, t: int) -> tuple[Clock, Events]:
    """Adds (or with a negative delta removes) time for a player: the arbiter's correction,
    in every time control. `TimeAdjusted` says how much was really added or taken.

    Added time counts from `t`: a running player's flag falls exactly that much later. In
    byo-yomi it is time the player uses before the period or the block goes on (the display
    shows the two together). A fallen flag, final or not, is lifted: the player has the
    added time from `t`, and the game's rules keep whatever they made of the flag. Taking
    time away takes main time (in byo-yomi: what the arbiter added) down to 0 at most,
    so that the flag falls at `t`, never before.
    """
    _check_player(clock, player)
    pt = clock.players[player]
    control = clock.controls[player]
    running = clock.running == player
    clock = replace(clock, as_of=max(clock.as_of, t))
    if pt.flagged_at is not None:
        if delta_ns <= 0:
            return clock, (TimeAdjusted(t, player, 0),)
        lifted = replace(
            pt,
            flagged_at=None,
            main_ns=pt.main_ns + delta_ns,
            earned_ns=pt.earned_ns + delta_ns,
        )
        clock = _with(clock, player, lifted)
        if running:
            # The move goes on from now; its delay was used before the flag fell.
            stage = control.stage(pt.stage) if control.kind is Kind.STAGES else None
            grace = stage.grace_ns if stage is not None and not pt.in_byo else 0
            clock = replace(clock, segment_start=t, banked_ns=grace)
        return clock, (TimeAdjusted(t, player, delta_ns),)
    if control.counts_up:
        added = max(delta_ns, -pt.main_ns)
        changed = replace(pt, main_ns=pt.main_ns + added)
        return _with(clock, player, changed), (TimeAdjusted(t, player, added),)
    if not running:
        added = max(delta_ns, -pt.main_ns)
        changed = replace(pt, main_ns=pt.main_ns + added, earned_ns=pt.earned_ns + added)
        return _with(clock, player, changed), (TimeAdjusted(t, player, added),)
    elapsed = _elapsed(clock, t)
    spent = _spend(control, pt, elapsed)
    budget = _fall_elapsed(control, pt)
    assert budget is not None
    if control.kind is Kind.HOURGLASS and delta_ns > 0 and elapsed >= budget and not clock.paused:
        # The sand ran out: it is the opponent's (the flag, made final now, says when),
        # and the added time runs from now without flowing to them twice.
        fallen, events = tick(clock, t, settle_ns=0)
        back, more = adjust(fallen, player, delta_ns, t)
        return back, (*events, *more)
    if delta_ns > 0:
        added = delta_ns
        # A flag that fell but is not final yet: the time below 0 is not owed.
        base = max(0, elapsed - budget)
    else:
        added = max(delta_ns, -spent.main_ns)
        base = 0
    changed = replace(pt, main_ns=pt.main_ns + base + added)
    if spent.in_byo and not pt.in_byo and added > 0 and control.byo_yomi is not None:
        # The move ran into byo-yomi: the added time goes before the rest of it, as for a
        # player who was in byo-yomi when the move began. The delay is spent by then.
        grace = control.stage(pt.stage).grace_ns
        changed = replace(
            changed,
            in_byo=True,
            main_ns=changed.main_ns + grace,
            byo_ns=control.byo_yomi.period_ns,
            byo_moves=0,
        )
    changed = replace(changed, earned_ns=pt.earned_ns + (changed.main_ns - pt.main_ns))
    return _with(clock, player, changed), (TimeAdjusted(t, player, added),)


def _with(clock: Clock, player: int, pt: PlayerTime) -> Clock:
    return replace(clock, players=(*clock.players[:player], pt, *clock.players[player + 1 :]))


def set_time(clock: Clock, player: int, ns: int, t: int) -> tuple[Clock, Events]:
    """Sets a player's main time, lifting a fallen flag (the arbiter's decision)."""
    _check_player(clock, player)
    if ns < 0:
        raise ClockError("a time cannot be negative")
    pt = clock.players[player]
    control = clock.controls[player]
    charged = 0
    if clock.running == player and not control.counts_up:
        # The running player's move so far is charged first, so the display shows `ns` now.
        stage = control.stage(pt.stage) if control.kind is Kind.STAGES else None
        grace = stage.grace_ns if stage is not None else 0
        charged = max(0, _elapsed(clock, t) - grace)
    base = ns + charged
    changed = replace(
        pt,
        main_ns=base,
        flagged_at=None,
        in_byo=False,
        earned_ns=pt.earned_ns + (base - pt.main_ns),
    )
    players = (*clock.players[:player], changed, *clock.players[player + 1 :])
    return replace(clock, players=players, as_of=max(clock.as_of, t)), (
        TimeAdjusted(t, player, base - pt.main_ns),
    )


def undo(clock: Clock, t: int) -> tuple[Clock, Events]:
    """Takes back the last press: the clock is as if it had not happened, so the time since
    it counts for the player who was running before."""
    if clock.previous is None:
        raise ClockError("there is no press to undo")
    before = clock.previous
    mover = before.running
    assert mover is not None
    return replace(before, as_of=max(before.as_of, t)), (PressUndone(t, mover),)


def _check_player(clock: Clock, player: int) -> None:
    if not 0 <= player < len(clock.players):
        raise ClockError(f"there is no player {player} on this clock")
