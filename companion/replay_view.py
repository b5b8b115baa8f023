"""Stepping through a game record, move by move: which step is shown and what the screen of
step n holds. No terminal here (companion/commands/replay_steps.py reads the keys and draws).

Step 0 is the game as it starts; step n the game after the record's action n. A screen holds
the record's header line, where it stands (action n of N and when), what the action made
happen (the game's narrator, a sentence per event), the board (the plugin's `text_board` of
the spectator view), what the rules wait for, and the score breakdown then. Everything is
drawn from the spectator's picture, so a screen shows nothing hidden: not the record's
actions themselves (a counter's placement names its face-down value), only their events.

    steps = load(read_record_file("game.jsonl"), "game.jsonl")
    screen_of(steps, 3).lines()
    position = move(position, line_command("G"), steps.last)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import find_engine, find_plugin, plugin_names
from companion.games.contract import JSON, Event, GameEngine
from companion.games.plugin import GamePlugin, Narrator
from companion.record import GameRecord, Step, replay_steps
from companion.render import plain, summary_lines

# ------------------------------------------------------------------ the game's steps


@dataclass(frozen=True)
class Steps:
    """A record replayed: the game after each of its actions, from the start."""

    name: str
    record: GameRecord
    engine: GameEngine[Any]
    plugin: GamePlugin | None
    """None for an engine with no plugin (a test double): no board, events by kind."""
    steps: tuple[Step, ...]

    @property
    def last(self) -> int:
        """The last step: the number of actions the record holds."""
        return len(self.steps) - 1


def load(record: GameRecord, name: str) -> Steps:
    """Every step of the record, replayed at once so that moving back and forth is instant;
    an illegal action is the UserError of replay_steps, before anything is shown."""
    steps = tuple(replay_steps(record, name))
    engine_name = record.header.game
    plugin = find_plugin(engine_name) if engine_name in plugin_names() else None
    engine = find_engine(engine_name)
    return Steps(name=name, record=record, engine=engine, plugin=plugin, steps=steps)


# ------------------------------------------------------------------ a step's screen


@dataclass(frozen=True)
class Screen:
    """What the terminal shows of one step, every text plain (control characters shown as
    escapes, never obeyed)."""

    header: str
    position: str
    """'Action 3 of 29, at 0:12', or 'The start of the game (29 actions)'."""
    events: tuple[str, ...]
    """What the step's action made happen, a sentence per event worth one."""
    board: tuple[str, ...]
    waiting: str | None
    """What the rules wait for, as the spectator is told; None once the game is over."""
    scores: tuple[str, ...]
    """The score breakdown after the step (the game's own lines where it gives them)."""

    def lines(self) -> tuple[str, ...]:
        out = [self.header, self.position]
        out.extend(f"  {sentence}" for sentence in self.events)
        if self.board:
            out.append("")
            out.extend(self.board)
        out.append("")
        if self.waiting:
            out.append(f"Waiting for: {self.waiting}")
        out.extend(self.scores)
        return tuple(out)


def screen_of(steps: Steps, n: int, width: int = 100) -> Screen:
    """The screen of step `n` (0 to steps.last), the score table at most `width` wide."""
    step = steps.steps[n]
    engine = steps.engine
    view: JSON = engine.view(step.state, "spectator")
    narrate = _narrator(steps)
    sentences = [text for text in (narrate(event) for event in step.events) if text]
    if step.supplied:
        supplied = len(step.supplied)
        sentences.insert(
            0,
            f"({supplied} action{'s' if supplied != 1 else ''} the record left out, "
            "supplied by the reader first.)",
        )
    if not sentences:
        sentences = ["(Nothing to tell.)"]
    board = steps.plugin.text_board(view) if steps.plugin is not None else ()
    expected = view.get("expected") if isinstance(view, dict) else None
    prompt = expected.get("prompt") if isinstance(expected, dict) else None
    return Screen(
        header=_one_line(_header(steps)),
        position=_one_line(_position(steps, n)),
        events=tuple(_one_line(text) for text in sentences),
        board=tuple(_one_line(line) for line in board),
        waiting=_one_line(prompt) if prompt else None,
        scores=summary_lines(engine.summary(step.state), width),
    )


def _narrator(steps: Steps) -> Narrator:
    if steps.plugin is None:
        return lambda event: event.kind.replace("_", " ")
    narrate = steps.plugin.narrator(steps.steps[0].state)

    def sentence(event: Event) -> str:
        return narrate(event)

    return sentence


def _header(steps: Steps) -> str:
    header = steps.record.header
    title = steps.plugin.title if steps.plugin is not None else header.game
    deck = header.deck
    deck_name = deck.get("title") or deck.get("id") if deck else None
    return f"{steps.name}: {title}" + (f", deck {deck_name}" if deck_name else "")


def _position(steps: Steps, n: int) -> str:
    total = steps.last
    if n == 0:
        return f"The start of the game ({total} action{'s' if total != 1 else ''} recorded)"
    seconds = steps.record.actions[n - 1].t
    return f"Action {n} of {total}, at {_clock(seconds)}"


def _clock(seconds: float) -> str:
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _one_line(text: object) -> str:
    return plain(text, one_line=True)


def fit(lines: Sequence[str], width: int, height: int, footer: str) -> tuple[str, ...]:
    """A screen for a terminal `width` x `height`: lines cut at the width, and as many as fit
    above the footer (the keys), the footer saying when some were left out below."""
    room = max(height - 1, 1)
    shown = list(lines)
    if len(shown) > room:
        hidden = len(shown) - room + 1
        shown = [*shown[: room - 1], f"({hidden} more lines below: make the terminal taller)"]
    return tuple(line[:width] for line in (*shown, footer))


# ------------------------------------------------------------------ moving


NEXT = "next"
PREVIOUS = "previous"
FIRST = "first"
LAST = "last"
QUIT = "quit"

Command = str | int
"""One of NEXT, PREVIOUS, FIRST, LAST, QUIT, or the number of a step to go to."""

KEYS_HELP = "→ n space: next   ← p: previous   Home g: first   End G: last   q Esc: quit"


def move(position: int, command: Command, last: int) -> int | None:
    """The step shown after `command`, staying within 0..last; None to quit."""
    if command == QUIT:
        return None
    if isinstance(command, int):
        target = command
    else:
        target = {
            NEXT: position + 1,
            PREVIOUS: position - 1,
            FIRST: 0,
            LAST: last,
        }.get(command, position)
    return min(max(target, 0), last)


_KEYS: dict[str, Command] = {
    "n": NEXT,
    " ": NEXT,
    "l": NEXT,
    "\r": NEXT,
    "\n": NEXT,
    "\x1b[C": NEXT,
    "\x1bOC": NEXT,
    "p": PREVIOUS,
    "h": PREVIOUS,
    "\x7f": PREVIOUS,
    "\x1b[D": PREVIOUS,
    "\x1bOD": PREVIOUS,
    "g": FIRST,
    "\x1b[H": FIRST,
    "\x1bOH": FIRST,
    "\x1b[1~": FIRST,
    "\x1b[7~": FIRST,
    "G": LAST,
    "\x1b[F": LAST,
    "\x1bOF": LAST,
    "\x1b[4~": LAST,
    "\x1b[8~": LAST,
    "q": QUIT,
    "Q": QUIT,
    "\x1b": QUIT,
    "\x03": QUIT,
    "\x04": QUIT,
}


def key_command(key: str) -> Command | None:
    """The command of one key pressed (as split_keys gives it); None for any other key."""
    return _KEYS.get(key)


def split_keys(data: str) -> tuple[list[str], str]:
    """The keys in what a terminal sent, each a character or an escape sequence, and what
    is left of a sequence not yet complete (a lone ESC may be the Esc key or the start of
    one: the caller decides once no more comes)."""
    keys: list[str] = []
    i = 0
    while i < len(data):
        if data[i] != "\x1b":
            keys.append(data[i])
            i += 1
            continue
        if i + 1 >= len(data):
            return keys, data[i:]
        kind = data[i + 1]
        if kind == "O":
            if i + 2 >= len(data):
                return keys, data[i:]
            keys.append(data[i : i + 3])
            i += 3
        elif kind == "[":
            end = i + 2
            while end < len(data) and not ("@" <= data[end] <= "~"):
                end += 1
            if end >= len(data):
                return keys, data[i:]
            keys.append(data[i : end + 1])
            i = end + 1
        else:
            # ESC then another key: Esc pressed, then that key.
            keys.append("\x1b")
            i += 1
    return keys, ""


_LINES: dict[str, Command] = {
    "n": NEXT,
    "next": NEXT,
    "p": PREVIOUS,
    "previous": PREVIOUS,
    "g": FIRST,
    "first": FIRST,
    "G": LAST,
    "last": LAST,
    "q": QUIT,
    "quit": QUIT,
}


def line_command(line: str) -> Command | None:
    """The command of one line of a script: n, p, g, G, q (or next, previous, first, last,
    quit), or the number of an action to go to; None for anything else."""
    text = line.strip()
    if text.isdigit():
        return int(text)
    return _LINES.get(text)


def commands_help() -> str:
    return "n, p, g, G, q, or the number of an action"
