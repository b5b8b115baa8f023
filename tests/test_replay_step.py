"""`companion replay RECORD --step`: the screen of each step (the events told, the board as
text, the score breakdown), which step a key or a script's line leads to, and the command on
a pseudo-terminal and fed a script."""

from __future__ import annotations

import dataclasses
import fcntl
import io
import json
import os
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.games import find_plugin, plugin_names
from companion.record import read_record, read_record_file
from companion.render import plain
from companion.replay_view import (
    FIRST,
    LAST,
    NEXT,
    PREVIOUS,
    QUIT,
    Steps,
    fit,
    key_command,
    line_command,
    load,
    move,
    screen_of,
    split_keys,
)

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
COUNTERS = GOLDEN / "setup-path-counters-multipliers.jsonl"
"""MemWars, competitive topology: counters placed face down, taken face up later."""
CHALLENGES = GOLDEN / "standard-challenge-outcomes.jsonl"
MEM = GOLDEN / "mem" / "mem-block-and-captures.jsonl"
MEMENTO = GOLDEN / "memento" / "beat-turn-split.jsonl"
WIDE = 200


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("COLUMNS", str(WIDE))


def _steps(path: Path) -> Steps:
    return load(read_record_file(str(path)), path.name)


def _text(steps: Steps, n: int) -> str:
    return "\n".join(screen_of(steps, n, WIDE).lines())


# ------------------------------------------------------------------ the screens


def test_a_memwars_screen_tells_the_events_draws_the_board_and_gives_the_scores() -> None:
    steps = _steps(CHALLENGES)
    assert steps.last == 61
    narrate = find_plugin("memwars").narrator(steps.steps[0].state)
    start = screen_of(steps, 0, WIDE)
    assert start.position.startswith("The start of the game (61 actions")
    assert start.events == ("Move 1: Ada to play.",)
    assert start.board[0].startswith("Quadrant 1: north-west")
    assert start.waiting == "Ada claims a place and states its facts."
    assert any("Score breakdown" in line for line in start.scores)
    for n in (1, 5, 12, steps.last):
        screen = screen_of(steps, n, WIDE)
        assert screen.position.startswith(f"Action {n} of 61, at ")
        told = [narrate(event) for event in steps.steps[n].events]
        assert list(screen.events) == [sentence for sentence in told if sentence]
        # The board as text, drawn from the spectator view by the game's plugin.
        view = steps.engine.view(steps.steps[n].state, "spectator")
        assert screen.board == find_plugin("memwars").text_board(view)
        assert screen.lines().count("Quadrant 1: north-west") == 1
    # Place 2 taken by Ada and a challenge piece put down by the end of action 5.
    assert screen_of(steps, 5, WIDE).board[1].split()[:2] == ["A", "A*"]
    last = _text(steps, steps.last)
    assert "Winner: Ada (complete)." in last and "Waiting for" not in last


def test_the_score_breakdown_follows_the_game() -> None:
    steps = _steps(CHALLENGES)
    tables = [screen_of(steps, n, WIDE).scores for n in range(steps.last + 1)]
    assert len(set(tables)) > 5
    assert tables[0] != tables[-1]
    totals = [_total(table, "Ada") for table in tables]
    assert totals[0] == 0 and totals[-1] == 22
    assert all("The game is not over" in "\n".join(t) for t in tables[:-1])


def _total(table: tuple[str, ...], side: str) -> int:
    row = next(line for line in table if line.strip("│ ").startswith(side))
    return int(row.strip("│ ").split("│")[-1])


def test_a_mem_screen_draws_the_stones_and_each_side_s_pattern() -> None:
    steps = _steps(MEM)
    start = screen_of(steps, 0, WIDE)
    assert start.board[:3] == ("   0 1 2 3 4 5", " 0   A A . .", " 1 . . . . . .")
    assert start.scores[1:3] == (
        "Ada: 0 stones (pattern 0, captured 0)",
        "Bo: 0 stones (pattern 0, captured 0)",
    )
    third = screen_of(steps, 3, WIDE)
    assert third.events == ("Ada takes the blue stone from square 29 to (0, 1).",)
    assert third.board[6] == " 5   . . E ."  # the two blue stones have left the board
    assert "Ada: pattern of 2, pile 0" in third.board
    assert "    D D" in third.board
    scores = [screen_of(steps, n, WIDE).scores for n in range(steps.last + 1)]
    assert len(set(scores)) > 3
    assert scores[-1][-1].startswith(("Winner:", "Draw"))


def test_a_memento_screen_draws_every_point() -> None:
    steps = _steps(MEMENTO)
    for n in range(steps.last + 1):
        view = steps.engine.view(steps.steps[n].state, "spectator")
        board = screen_of(steps, n, WIDE).board
        grid = " ".join(board[: board.index("")]).split()
        owned = [p for p in view["points"] if p["owner"] is not None and p["stones"]]
        assert len(grid) == len(view["points"])
        assert sum(1 for token in grid if token[0].isalpha()) == len(owned)


@pytest.mark.parametrize("game", plugin_names())
def test_every_game_draws_its_board_as_plain_text(game: str) -> None:
    plugin = find_plugin(game)
    for setup in plugin.example_setups():
        state, _ = plugin.engine.start(setup)
        lines = plugin.text_board(plugin.engine.view(state, "spectator"))
        assert lines and all(isinstance(line, str) for line in lines)
        assert all(plain(line, one_line=True) == line for line in lines)


def _twin(state: Any) -> Any:
    """The same MemWars state with every face-down counter's value changed."""
    other = {5: 2, 3: 5, 2: 3}
    places = tuple(
        dataclasses.replace(
            place,
            counters=tuple(
                c if c.face_up else dataclasses.replace(c, value=other[c.value])
                for c in place.counters
            ),
        )
        for place in state.places
    )
    return dataclasses.replace(state, places=places)


def test_no_screen_shows_a_face_down_counter_s_value() -> None:
    steps = _steps(COUNTERS)
    twin = dataclasses.replace(
        steps,
        steps=tuple(dataclasses.replace(s, state=_twin(s.state)) for s in steps.steps),
    )
    hidden = 0
    for n in range(steps.last + 1):
        state = steps.steps[n].state
        assert twin.steps[n].state != state or not _face_down(state)
        hidden += bool(_face_down(state))
        # Twins differing only in what a spectator may not know look alike on every screen.
        assert screen_of(twin, n, WIDE) == screen_of(steps, n, WIDE)
    assert hidden > 20
    # Place 13 (alone on lattice row 4) holds both sides' face-down 5s after action 5: two
    # counters shown, no value; after action 12 places 8, 12 and 25 hold one face down each.
    assert screen_of(steps, 5, WIDE).board[5].split() == ["(+)"]
    board = screen_of(steps, 12, WIDE).board
    assert [board[2].split()[-1], board[4].split()[-1], board[9].split()[-1]] == ["(?)"] * 3


def _face_down(state: Any) -> list[Any]:
    return [c for place in state.places for c in place.counters if not c.face_up]


def test_a_screen_shows_control_characters_in_names_as_escapes() -> None:
    lines = COUNTERS.read_text().splitlines()
    header = json.loads(lines[0])
    header["setup"]["sides"][0]["name"] = "Ada\x1b[2J"
    text = "\n".join([json.dumps(header), *lines[1:]]) + "\n"
    steps = load(read_record(io.StringIO(text), "game.jsonl"), "game.jsonl")
    shown = _text(steps, 3)
    assert "\x1b" not in shown and "Ada\\x1b[2J" in shown


# ------------------------------------------------------------------ moving


def test_moving_stays_within_the_game() -> None:
    assert move(0, NEXT, 5) == 1
    assert move(5, NEXT, 5) == 5
    assert move(0, PREVIOUS, 5) == 0
    assert move(3, PREVIOUS, 5) == 2
    assert move(3, FIRST, 5) == 0
    assert move(3, LAST, 5) == 5
    assert move(3, 4, 5) == 4
    assert move(3, 99, 5) == 5
    assert move(3, QUIT, 5) is None


@pytest.mark.parametrize(
    ("keys", "commands"),
    [
        ("n,p,g,G,q", [NEXT, None, PREVIOUS, None, FIRST, None, LAST, None, QUIT]),
        ("\x1b[C\x1b[D\x1b[H\x1b[F", [NEXT, PREVIOUS, FIRST, LAST]),
        ("\x1bOC\x1bOD\x1bOH\x1bOF", [NEXT, PREVIOUS, FIRST, LAST]),
        ("\x1b[1~\x1b[4~\x03", [FIRST, LAST, QUIT]),
        ("\x1bn", [QUIT, NEXT]),  # Esc, then n
        ("x\x1b[A", [None, None]),  # other keys do nothing
    ],
)
def test_keys(keys: str, commands: list[str | None]) -> None:
    split, rest = split_keys(keys)
    assert rest == ""
    assert [key_command(key) for key in split] == commands


def test_an_escape_sequence_cut_in_two_waits_for_its_end() -> None:
    assert split_keys("n\x1b") == (["n"], "\x1b")
    assert split_keys("n\x1b[") == (["n"], "\x1b[")
    assert split_keys("\x1b[1") == ([], "\x1b[1")
    assert split_keys("\x1b[1~") == (["\x1b[1~"], "")


def test_script_lines() -> None:
    assert [line_command(s) for s in ("n", " p ", "g", "G", "q\n", "12", "x", "-1")] == [
        NEXT,
        PREVIOUS,
        FIRST,
        LAST,
        QUIT,
        12,
        None,
        None,
    ]


def test_a_screen_fits_the_terminal_with_the_keys_below() -> None:
    lines = [f"line {i} " + "x" * 50 for i in range(30)]
    shown = fit(lines, 20, 10, "keys")
    assert len(shown) == 10 and shown[-1] == "keys"
    assert all(len(line) <= 20 for line in shown)
    assert shown[-2].startswith("(22 more lines")
    assert fit(lines[:3], 80, 10, "keys") == (*lines[:3], "keys")


# ------------------------------------------------------------------ the command, scripted


def _positions(out: str) -> list[str]:
    return [
        line for line in out.splitlines() if line.startswith(("Action ", "The start of the game"))
    ]


def test_without_a_terminal_step_reads_one_command_a_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\nn\np\n\nG\nwhat\n3\ng\nq\nn\n"))
    assert main(["replay", str(CHALLENGES), "--step"]) == 0
    out, err = capsys.readouterr()
    positions = [line.split(",")[0] for line in _positions(out)]
    assert positions == [
        "The start of the game (61 actions recorded)",
        "Action 1 of 61",
        "Action 2 of 61",
        "Action 1 of 61",
        "Action 61 of 61",
        "Action 3 of 61",
        "The start of the game (61 actions recorded)",
    ]
    assert "'what' is not a command" in err
    assert out.count("Score breakdown") == 7 and out.count("Quadrant 1: north-west") == 7


def test_the_end_of_the_script_quits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("G\n"))
    assert main(["replay", str(MEM), "--step", "--at", "2"]) == 0
    positions = [line.split(",")[0] for line in _positions(capsys.readouterr().out)]
    assert positions == ["Action 2 of 15", "Action 15 of 15"]


def test_at_shows_one_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(MEMENTO), "--at", "3"]) == 0
    out = capsys.readouterr().out
    assert _positions(out) == ["Action 3 of 6, at 0:10"]
    assert "Figures: A Ada, B Bo" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--at", "62"], "--at 62: the record has actions 1 to 61"),
        (["--step", "--json"], "--json prints where the game ended"),
    ],
)
def test_bad_arguments_are_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(CHALLENGES), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_an_illegal_record_is_refused_before_stepping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = CHALLENGES.read_text().splitlines()
    bad = json.loads(lines[3])
    bad["action"] = {"type": "claim", "side": 1, "place": 1}
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([*lines[:3], json.dumps(bad), *lines[4:]]) + "\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("G\n"))
    assert main(["replay", str(path), "--step"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"companion: error: {path}:4: action 3 is illegal")
    assert err.count("\n") == 1


# ------------------------------------------------------------------ on a terminal


class Terminal:
    """`companion replay RECORD --step` on a pseudo-terminal 200 x 60: keys in, output read
    until a text appears (never for a set time)."""

    TIMEOUT = 60.0

    def __init__(self, record: Path) -> None:
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, WIDE, 0, 0))
        self.before = termios.tcgetattr(self.slave)
        env = {
            **os.environ,
            "COLUMNS": str(WIDE),
            "LINES": "60",
            "TERM": "xterm",
            "PYTHONPATH": str(ROOT),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "replay", str(record), "--step"],
            stdin=self.slave,
            stdout=self.slave,
            stderr=self.slave,
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        self.seen = b""

    def expect(self, text: str) -> str:
        """The output up to and including `text`, which must come within the timeout."""
        marker = text.encode()
        deadline = time.monotonic() + self.TIMEOUT
        while marker not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} never came; last output: {self.seen[-400:]!r}")
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if ready:
                self.seen += os.read(self.master, 65536)
        end = self.seen.index(marker) + len(marker)
        shown, self.seen = self.seen[:end], self.seen[end:]
        return shown.decode("utf-8", "replace")

    def press(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def wait(self) -> int:
        code = self.process.wait(self.TIMEOUT)
        # Whatever the command wrote last (the terminal given back) is read before closing.
        while select.select([self.master], [], [], 0)[0]:
            chunk = os.read(self.master, 65536)
            if not chunk:
                break
            self.seen += chunk
        return code

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def terminal() -> Iterator[Any]:
    opened: list[Terminal] = []

    def start(record: Path) -> Terminal:
        opened.append(Terminal(record))
        return opened[-1]

    yield start
    for term in opened:
        term.close()


def test_keys_step_back_and_forth_on_a_terminal(terminal: Any) -> None:
    term = terminal(CHALLENGES)
    first = term.expect("q Esc: quit")
    assert "The start of the game (61 actions recorded)" in first
    assert "Quadrant 1: north-west" in first and "Score breakdown" in first
    assert "\r\n" in first  # raw mode: the command ends its own lines
    for keys, position in [
        ("\x1b[C", "Action 1 of 61"),
        ("n", "Action 2 of 61"),
        (" ", "Action 3 of 61"),
        ("p", "Action 2 of 61"),
        ("\x1b[D", "Action 1 of 61"),
        ("G", "Action 61 of 61"),
        ("g", "The start of the game"),
        ("\x1b[F", "Action 61 of 61"),
        ("\x1b[H", "The start of the game"),
        ("\x1bOF", "Action 61 of 61"),
    ]:
        term.press(keys)
        shown = term.expect(position)
        term.expect("q Esc: quit")
    assert "\x1b[2J" in shown
    term.press("q")
    assert term.wait() == 0
    assert term.seen.endswith(b"\x1b[?25h\x1b[?1049l")
    # The terminal is given back as it was found.
    assert termios.tcgetattr(term.slave) == term.before


@pytest.mark.parametrize("key", ["\x1b", "\x03", "q"])
def test_esc_ctrl_c_and_q_quit_and_give_the_terminal_back(terminal: Any, key: str) -> None:
    term = terminal(MEM)
    term.expect("q Esc: quit")
    term.press("G")
    term.expect("Action 15 of 15")
    term.expect("q Esc: quit")
    term.press(key)
    assert term.wait() == 0
    assert termios.tcgetattr(term.slave) == term.before
    assert b"interrupted" not in term.seen
