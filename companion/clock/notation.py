"""Time controls as text: the PGN TimeControl tag, an extension for what PGN cannot say, and
the minutes-plus-seconds shorthand players write.

PGN (standard section 9.6.1), read exactly by `parse_pgn`:

    ?            unknown                 -            no time control
    300          300 s sudden death      4500+60      4500 s, 60 s added per move
    40/9000      40 moves in 9000 s      *180         an hourglass (sandclock) of 180 s
    40/9000:3600 periods separated by colons; the last one repeats

The extension, read by `parse` along with everything above:

    40/5400+30   a moves/seconds period with an increment (as FIDE writes 40/90+30)
    300d5        5 s simple (US) delay       300b5      5 s Bronstein delay
    300d5+2      a delay and an increment (the delay first; 300b5+2 with Bronstein)
    3600|5x30    then byo-yomi: 5 periods of 30 s
    3600|25/600  then Canadian byo-yomi: 25 moves in 600 s
    ...!30       a per-move limit of 30 s (a slower move is forfeited); `-!30` alone
    ^            a stopwatch that counts up (`^!30` with a per-move limit)
    90m+30       minutes marked with `m`; 90s+30 seconds marked with `s`

The shorthand: a lone `N+I` whose N is not a whole number of minutes in seconds (not a
multiple of 60) reads as N minutes plus I seconds, as players say it: `5+3`, `90+30`,
`15+10`. `300+3` and `180+2` stay PGN seconds. Write `90m+30` or `90s+30` to be explicit;
the canonical form does so itself where the shorthand could misread it, and `format_pgn`
gives the plain PGN tag.

    format_control(parse("90+30"))      # '5400+30'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.clock.controls import (
    NS_PER_S,
    ByoYomi,
    Delay,
    Kind,
    Stage,
    TimeControl,
    stage_problem,
)
from companion.errors import UserError


class BadTimeControl(UserError):
    """A time-control string that does not parse; says where."""

    def __init__(self, text: str, position: int, problem: str) -> None:
        self.text = text
        self.position = position
        self.problem = problem
        pointer = f"{text!r} at position {position + 1}"
        super().__init__(f"bad time control {pointer}: {problem}")


_SHORTHAND = re.compile(r"^(\d+)\+(\d+)$")


def parse(text: str) -> TimeControl:
    """PGN, the extension or the shorthand; BadTimeControl names the position at fault."""
    source = text.strip()
    shorthand = _SHORTHAND.match(source)
    if shorthand and int(shorthand.group(1)) % 60 != 0:
        minutes, increment = int(shorthand.group(1)), int(shorthand.group(2))
        return TimeControl.stages_of(Stage(None, minutes * 60 * NS_PER_S, increment * NS_PER_S))
    return _Parser(source, strict=False).control()


def parse_pgn(text: str) -> TimeControl:
    """The PGN TimeControl tag exactly as the standard defines it: seconds everywhere."""
    return _Parser(text.strip(), strict=True).control()


@dataclass
class _Parser:
    text: str
    strict: bool
    pos: int = 0

    def fail(self, problem: str, at: int | None = None) -> BadTimeControl:
        return BadTimeControl(self.text, self.pos if at is None else at, problem)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self, char: str) -> bool:
        if self.peek() == char:
            self.pos += 1
            return True
        return False

    def control(self) -> TimeControl:
        if not self.text:
            raise self.fail("it is empty")
        first = self.peek()
        if first in "?-^":
            self.pos += 1
            if first == "^" and self.strict:
                raise self.fail("a stopwatch (^) is not PGN", 0)
            kind = {"?": Kind.UNKNOWN, "-": Kind.NONE, "^": Kind.UPCOUNT}[first]
            control = TimeControl(kind)
        elif first == "*":
            self.pos += 1
            control = TimeControl(Kind.HOURGLASS, hourglass_ns=self.seconds("after '*'"))
            if control.hourglass_ns <= 0:
                raise self.fail("an hourglass of 0 s leaves no time at all", 1)
        else:
            starts = [self.pos]
            stages = [self.stage()]
            while self.take(":"):
                starts.append(self.pos)
                stages.append(self.stage())
            byo = self.byo_yomi() if self.peek() == "|" else None
            found = stage_problem(stages, byo)
            if found is not None:
                index, problem = found
                raise self.fail(problem, starts[index])
            control = TimeControl(Kind.STAGES, tuple(stages), byo_yomi=byo)
        if self.peek() == "!":
            if self.strict:
                raise self.fail("a per-move limit (!) is not PGN")
            self.pos += 1
            limit = self.seconds("after '!'")
            if limit <= 0:
                raise self.fail("a per-move limit must be more than 0 s", self.pos - 1)
            control = TimeControl(
                control.kind,
                control.stages,
                control.hourglass_ns,
                control.byo_yomi,
                move_limit_ns=limit,
            )
        if self.pos != len(self.text):
            raise self.fail(f"unexpected {self.peek()!r}")
        return control

    def stage(self) -> Stage:
        start = self.pos
        number = self.number("a number of seconds, or moves/seconds")
        moves: int | None = None
        if self.take("/"):
            if "." in number or int(number) < 1:
                raise self.fail("the number of moves must be a whole number above 0", start)
            moves = int(number)
            seconds = self.seconds("after '/'")
        else:
            seconds = self.to_ns(number, start)
        delay, kind = 0, Delay.NONE
        char = self.peek()
        if char in ("d", "b"):
            if self.strict:
                raise self.fail("a delay is not PGN")
            self.pos += 1
            delay = self.seconds(f"after {char!r}")
            kind = Delay.SIMPLE if char == "d" else Delay.BRONSTEIN
        increment = 0
        if self.peek() == "+":
            if self.strict and moves is not None:
                raise self.fail("an increment with moves is not PGN")
            self.pos += 1
            increment = self.seconds("after '+'")
            if self.peek() in ("d", "b"):
                raise self.fail("write the delay before the increment, as in 300d5+2", self.pos)
        return Stage(moves, seconds, increment, delay, kind)

    def byo_yomi(self) -> ByoYomi:
        if self.strict:
            raise self.fail("byo-yomi (|) is not PGN")
        self.pos += 1
        start = self.pos
        count = self.number("a number of periods or moves")
        if "." in count or int(count) < 1:
            raise self.fail("a whole number above 0 is needed", start)
        if self.take("x"):
            period = self.seconds("after 'x'")
            result = ByoYomi(periods=int(count), period_ns=period, moves=1)
        elif self.take("/"):
            period = self.seconds("after '/'")
            result = ByoYomi(periods=1, period_ns=period, moves=int(count))
            if int(count) == 1:
                result = ByoYomi(periods=1, period_ns=period, moves=1)
        else:
            raise self.fail("expected 'x' (periods x seconds) or '/' (moves/seconds)")
        if period <= 0:
            raise self.fail("a byo-yomi period must be more than 0 s", self.pos - 1)
        return result

    def number(self, what: str) -> str:
        match = re.compile(r"\d+(\.\d{1,9})?").match(self.text, self.pos)
        if not match:
            raise self.fail(f"expected {what}")
        self.pos = match.end()
        return match.group(0)

    def seconds(self, where: str) -> int:
        start = self.pos
        number = self.number(f"a number of seconds {where}")
        return self.to_ns(number, start)

    def to_ns(self, number: str, start: int) -> int:
        if "." in number and self.strict:
            raise self.fail("PGN gives whole seconds", start)
        whole, _, fraction = number.partition(".")
        ns = int(whole) * NS_PER_S + (int(fraction.ljust(9, "0")) if fraction else 0)
        if self.peek() == "m":
            if self.strict:
                raise self.fail("PGN gives seconds, not minutes")
            self.pos += 1
            ns *= 60
        elif self.peek() == "s":
            if self.strict:
                raise self.fail("PGN gives plain numbers of seconds")
            self.pos += 1
        return ns


def _secs(ns: int) -> str:
    whole, rest = divmod(ns, NS_PER_S)
    if not rest:
        return str(whole)
    return f"{whole}.{rest:09d}".rstrip("0")


def format_control(control: TimeControl) -> str:
    """The canonical string: PGN wherever PGN can say it, the extension otherwise."""
    if control.kind is Kind.UNKNOWN:
        text = "?"
    elif control.kind is Kind.NONE:
        text = "-"
    elif control.kind is Kind.UPCOUNT:
        text = "^"
    elif control.kind is Kind.HOURGLASS:
        text = f"*{_secs(control.hourglass_ns)}"
    else:
        parts = []
        for stage in control.stages:
            part = f"{stage.moves}/" if stage.moves is not None else ""
            part += _secs(stage.time_ns)
            if stage.delay_ns:
                part += f"{'d' if stage.delay is Delay.SIMPLE else 'b'}{_secs(stage.delay_ns)}"
            if stage.increment_ns:
                part += f"+{_secs(stage.increment_ns)}"
            parts.append(part)
        text = ":".join(parts)
        byo = control.byo_yomi
        if byo is not None:
            text += (
                f"|{byo.moves}/{_secs(byo.period_ns)}"
                if byo.canadian
                else f"|{byo.periods}x{_secs(byo.period_ns)}"
            )
    if control.move_limit_ns is not None:
        text += f"!{_secs(control.move_limit_ns)}"
    shorthand = _SHORTHAND.match(text)
    if shorthand and int(shorthand.group(1)) % 60 != 0:
        # `90+30` would read back as minutes: mark the seconds.
        text = f"{shorthand.group(1)}s+{shorthand.group(2)}"
    return text


def format_pgn(control: TimeControl) -> str:
    """The PGN TimeControl tag for a control PGN can express; BadTimeControl otherwise."""
    text = format_control(control).replace("s+", "+")
    parse_pgn(text)  # refuses what PGN cannot say, naming it
    return text


def describe(control: TimeControl) -> str:
    """In words, for a screen: '90 min + 30 s per move, then ...'."""
    if control.kind is Kind.UNKNOWN:
        words = "unknown time control (counting up)"
    elif control.kind is Kind.NONE:
        words = "no time control (counting up)"
    elif control.kind is Kind.UPCOUNT:
        words = "stopwatch"
    elif control.kind is Kind.HOURGLASS:
        words = f"hourglass of {_duration(control.hourglass_ns)}"
    else:
        pieces = []
        for stage in control.stages:
            piece = (f"{stage.moves} moves in " if stage.moves else "") + _duration(stage.time_ns)
            if stage.delay_ns:
                bronstein = " Bronstein" if stage.delay is Delay.BRONSTEIN else ""
                piece += f" with a {_duration(stage.delay_ns)}{bronstein} delay"
            if stage.increment_ns:
                piece += f" + {_duration(stage.increment_ns)} per move"
            pieces.append(piece)
        words = ", then ".join(pieces)
        if len(control.stages) > 1 or control.stages[0].moves:
            words += " (the last period repeats)"
        byo = control.byo_yomi
        if byo is not None:
            words += (
                f", then {byo.moves} moves in every {_duration(byo.period_ns)}"
                if byo.canadian
                else f", then {byo.periods} periods of {_duration(byo.period_ns)}"
            )
    if control.move_limit_ns is not None:
        words += f"; at most {_duration(control.move_limit_ns)} a move"
    return words


def _duration(ns: int) -> str:
    seconds = ns / NS_PER_S
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return (
            f"{minutes // 60} h {minutes % 60} min".replace(" 0 min", "")
            if minutes >= 60
            else f"{minutes} min"
        )
    return f"{_secs(ns)} s"
