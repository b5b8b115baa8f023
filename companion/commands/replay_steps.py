"""`companion replay RECORD --step`: the terminal side of stepping through a game record
(companion/replay_view.py says what each step's screen holds and where a key leads).

On a terminal the keys are read in raw mode, the terminal always restored on the way out:
→ n space next, ← p previous, Home g first, End G last, q Esc Ctrl-C quit. Otherwise the
commands are read one a line (n, p, g, G, q or an action's number) and every screen is
printed in turn, so that a script can step through a game; the end of the input quits.
"""

from __future__ import annotations

import codecs
import os
import select
import shutil
import sys
from typing import TextIO

from companion.render import plain
from companion.replay_view import (
    KEYS_HELP,
    QUIT,
    Steps,
    commands_help,
    fit,
    key_command,
    line_command,
    move,
    screen_of,
    split_keys,
)

_ESC_WAIT = 0.05
"""Seconds to wait for the rest of an escape sequence before a lone ESC is the Esc key."""


def step_through(steps: Steps, start: int, stdin: TextIO, stdout: TextIO) -> int:
    """Shows step `start`, then moves as the keys (or the script's lines) say; 0 on quitting."""
    if stdin.isatty():
        return _keys(steps, start, stdin, stdout)
    return _script(steps, start, stdin, stdout)


def print_step(steps: Steps, n: int, stdout: TextIO) -> None:
    """The screen of step `n`, printed as plain lines."""
    width = shutil.get_terminal_size((100, 24)).columns
    stdout.write("\n".join(screen_of(steps, n, width).lines()) + "\n")
    stdout.flush()


def _script(steps: Steps, position: int, stdin: TextIO, stdout: TextIO) -> int:
    print_step(steps, position, stdout)
    for line in stdin:
        if not line.strip():
            continue
        command = line_command(line)
        if command is None:
            shown = plain(line.strip(), one_line=True)
            print(
                f"companion: replay: {shown!r} is not a command ({commands_help()})",
                file=sys.stderr,
            )
            continue
        moved = move(position, command, steps.last)
        if moved is None:
            return 0
        position = moved
        stdout.write("\n")
        print_step(steps, position, stdout)
    return 0


def _keys(steps: Steps, position: int, stdin: TextIO, stdout: TextIO) -> int:
    import termios
    import tty

    fd = stdin.fileno()
    saved = termios.tcgetattr(fd)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    # The alternate screen keeps what the terminal showed before; the cursor is hidden.
    stdout.write("\x1b[?1049h\x1b[?25l")
    try:
        tty.setraw(fd)
        _draw(steps, position, stdout)
        pending = ""
        while True:
            data = os.read(fd, 64)
            if not data:
                return 0
            keys, pending = split_keys(pending + decoder.decode(data))
            if pending and not select.select([fd], [], [], _ESC_WAIT)[0]:
                # Nothing more came: the ESC was the Esc key itself.
                keys.append(pending)
                pending = ""
            for key in keys:
                command = key_command(key)
                if command is None:
                    continue
                if command == QUIT:
                    return 0
                moved = move(position, command, steps.last)
                if moved is not None and moved != position:
                    position = moved
                    _draw(steps, position, stdout)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        stdout.write("\x1b[?25h\x1b[?1049l")
        stdout.flush()


def _draw(steps: Steps, n: int, stdout: TextIO) -> None:
    size = shutil.get_terminal_size((100, 24))
    lines = screen_of(steps, n, size.columns).lines()
    shown = fit(lines, size.columns, size.lines, KEYS_HELP)
    # Raw mode: no newline translation, so every line ends in CR LF.
    stdout.write("\x1b[H\x1b[2J" + "\r\n".join(shown))
    stdout.flush()
