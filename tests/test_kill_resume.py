"""SIGKILL the referee anywhere in a game, resume, and lose or double nothing.

A child process (tests/scripts/play_script.py) plays a scripted game into a store file. The
parent kills it at random moments, drawn from a seeded random.Random and scaled by the
child's measured pace so that kills land all through the game: while Python starts, while
the store opens and replays, and between and during commits. After every kill the store
must hold a prefix of the script that includes every "committed N" the child printed.

A SIGKILL leaves the operating system's page cache intact, so this tests transactions and
resume, not fsync; synchronous=FULL is what covers a power cut.
"""

from __future__ import annotations

import json
import math
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.games import find_engine
from companion.games.memwars.engine import MemWarsEngine
from companion.games.memwars.players import SimulatedTable
from companion.store import Store, load_game

CHILD = Path(__file__).parent / "scripts" / "play_script.py"
IMPORTS: list[str] = []
GAME = "memwars"
RAW_SETUP: dict[str, Any] = {
    "sides": [{"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"}],
    "mode": "standard",
    "depth": "roll",
    "max_depth": 4,
    "topology": {"kind": "competitive"},
    "multipliers": {"centre_place": 2, "centre_quincunx": 3},
    "seed": 7,
}
SETUP = MemWarsEngine().setup_of(MemWarsEngine().new_game(RAW_SETUP))
MIN_LENGTH = 250


def scripted_game() -> list[dict[str, Any]]:
    """A whole 100-place, three-sided Standard game between simulated players."""
    engine = MemWarsEngine()
    state = engine.new_game(SETUP)
    table = SimulatedTable(state.setup, (0.9, 0.7, 0.5), seed=3)
    actions = []
    while (expectation := engine.expected(state)) is not None:
        action = table.next_action(state, expectation)
        state, _ = engine.apply(state, action)
        actions.append(engine.action_to_dict(action))
    return actions


KILLS = 200
SEED = 20261122
EARLY_KILLS = 0.25
"""The share of kills aimed at start-up (interpreter, imports, opening, replaying)."""
AIM = 0.9
"""Kills aim to have played this much of the game by the last one; a final run ends it."""
TIMEOUT = 20.0

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


@dataclass
class Run:
    proc: subprocess.Popen[bytes]
    started: float
    buffer: bytes = b""
    lines: list[str] = field(default_factory=list)

    def read(self, timeout: float) -> bool:
        """Reads what is available within `timeout`; False at end of output."""
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            return True
        chunk = os.read(self.proc.stdout.fileno(), 65536)
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        self.lines += [line.decode() for line in complete]
        return bool(chunk)

    def wait_for(self, prefix: str, deadline: float) -> None:
        while not any(line.startswith(prefix) for line in self.lines):
            assert time.monotonic() < deadline, f"no {prefix!r} line in time: {self.lines}"
            assert self.read(deadline - time.monotonic()), f"no {prefix!r} line: {self.lines}"

    def finish(self) -> int:
        """Reads to the end of the output; the exit code."""
        deadline = time.monotonic() + TIMEOUT
        while self.read(max(0.0, deadline - time.monotonic())):
            assert time.monotonic() < deadline, f"the child did not end: {self.lines}"
        return self.proc.wait(timeout=TIMEOUT)

    def committed(self) -> list[int]:
        # Only whole lines count: a line cut off by the kill proves nothing.
        return [int(line.split()[1]) for line in self.lines if line.startswith("committed ")]


def start(store: Path, script: Path, stderr: Any, stop_after: int | None = None) -> Run:
    limit = [] if stop_after is None else ["--stop-after", str(stop_after)]
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(store), str(script), *IMPORTS, *limit],
        stdout=subprocess.PIPE,
        stderr=stderr,
        bufsize=0,
    )
    return Run(proc, time.monotonic())


def stored_actions(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """What the store holds, read without recovering or checkpointing it: a read-only
    connection leaves the WAL as the kill left it, for the next child to deal with."""
    if not path.exists():
        return []
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT seq, action FROM actions WHERE game_id = 1 ORDER BY seq")
        return [(seq, json.loads(text)) for seq, text in rows]
    except sqlite3.OperationalError as err:
        assert "no such table" in str(err), err  # killed before the schema was committed
        return []
    finally:
        conn.close()


@pytest.fixture()
def script(tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    actions = scripted_game()
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"game": GAME, "setup": SETUP, "actions": actions}))
    return path, actions


def play_through(store: Path, script: Path, log: Path) -> Run:
    with log.open("ab") as stderr:
        run = start(store, script, stderr)
        code = run.finish()
    assert code == 0, f"the child failed ({code}): {log.read_text()[-2000:]}"
    return run


@dataclass(frozen=True)
class Pace:
    startup: float
    """Spawn to "resumed": interpreter, imports, opening the store, replaying."""
    first: float
    """"resumed" to the first commit."""
    action: float
    """Seconds per action after the first."""


def measure(tmp_path: Path, script: Path, length: int) -> Pace:
    """The child's pace, from one whole game played without a kill."""
    log = tmp_path / "measure.log"
    with log.open("ab") as stderr:
        run = start(tmp_path / "measure.sqlite3", script, stderr)
        run.wait_for("resumed", time.monotonic() + TIMEOUT)
        resumed = time.monotonic()
        run.wait_for("committed 1", time.monotonic() + TIMEOUT)
        first = time.monotonic()
        code = run.finish()
        ended = time.monotonic()
    assert code == 0, f"the child failed ({code}): {log.read_text()[-2000:]}"
    assert run.committed() == list(range(1, length + 1))
    return Pace(resumed - run.started, first - resumed, (ended - first) / (length - 1))


def replayed_state(actions: list[dict[str, Any]]) -> tuple[dict[str, Any], list[Any]]:
    engine = find_engine(GAME)
    state = engine.new_game(SETUP)
    events: list[Any] = []
    for seq, data in enumerate(actions, start=1):
        state, happened = engine.apply(state, engine.action_from_dict(data))
        events += [(seq, idx, engine.event_to_dict(e)) for idx, e in enumerate(happened)]
    return engine.state_to_dict(state), events


@pytest.mark.long
def test_kills_anywhere_lose_and_double_nothing(tmp_path: Path, script) -> None:
    script_path, actions = script
    length = len(actions)
    assert length >= MIN_LENGTH, "the game must be long enough for kills to land mid-game"
    pace = measure(tmp_path, script_path, length)

    store = tmp_path / "games.sqlite3"
    log = tmp_path / "child.log"
    draw = random.Random(SEED)
    progress_at_kill: list[int] = []
    advanced = 0  # kills after the run had committed something
    stored = 0
    runs = 0
    with log.open("ab") as stderr:
        while len(progress_at_kill) < KILLS:
            runs += 1
            assert runs <= 4 * KILLS, f"{runs} runs for {len(progress_at_kill)} kills"
            assert stored < length, f"the game ended after only {len(progress_at_kill)} kills"
            # Kills follow a straight schedule to AIM of the game. A run that falls behind it
            # (a slow first commit, a busy machine) gets a longer window; a run is never
            # allowed more than a few actions past its share, so a parent that wakes up late
            # cannot let the game run to its end before the kills are done.
            target = AIM * length * (len(progress_at_kill) + 1) / KILLS
            share = min(max(0.0, target - stored), 4 * AIM * length / KILLS)
            # A run ahead of the schedule commits nothing (it is still killed as it starts,
            # opens and replays): however the machine's pace changes after it was measured,
            # runs the kills miss cannot play the game to its end before the kills are done.
            commits = math.ceil(2 * share) + 2 if share > 0 else 0
            run = start(store, script_path, stderr, stop_after=commits)
            if draw.random() < EARLY_KILLS:
                time.sleep(draw.uniform(0.0, pace.startup * 1.2))
            else:
                run.wait_for("resumed", time.monotonic() + TIMEOUT)
                time.sleep(draw.uniform(0.0, pace.first + 2 * share * pace.action))
            if run.proc.poll() is None:
                run.proc.send_signal(signal.SIGKILL)
            code = run.finish()
            assert code in (0, -signal.SIGKILL), f"the child failed ({code}): {log.read_text()}"

            resumed = [int(line.split()[1]) for line in run.lines if line.startswith("resumed ")]
            assert not resumed or resumed[0] == stored, (
                f"resumed at {resumed[0]} after {stored} actions were stored"
            )
            rows = stored_actions(store)
            seqs = [seq for seq, _ in rows]
            assert seqs == list(range(1, len(rows) + 1)), f"seqs not 1..n after a kill: {seqs}"
            assert [action for _, action in rows] == actions[: len(rows)], "not the script"
            printed = run.committed()
            assert printed == list(range(stored + 1, stored + 1 + len(printed))), printed
            assert not printed or printed[-1] <= len(rows), (
                f"committed {printed[-1]} was printed but the store holds {len(rows)}"
            )
            assert len(rows) >= stored, "the store lost actions"
            if code == -signal.SIGKILL:
                progress_at_kill.append(len(rows))
                advanced += len(rows) > stored
            stored = len(rows)

    final = play_through(store, script_path, log)
    assert final.lines[-1] == "over", final.lines

    rows = stored_actions(store)
    assert [seq for seq, _ in rows] == list(range(1, length + 1)), "nothing lost, nothing doubled"
    assert [action for _, action in rows] == actions
    expected_state, expected_events = replayed_state(actions)
    with Store.open(store) as opened:
        engine, state, seq = load_game(opened, 1)
        assert seq == length
        assert engine.state_to_dict(state) == expected_state
        assert opened.events(1) == expected_events
        assert opened.game(1).status == "finished"
        times = [t for _, t, _ in opened.actions(1)]
        assert times == sorted(times), "t went backwards across a resume"

    # The kills must have been spread over the game, not bunched at its start or end.
    assert advanced >= KILLS // 4, f"only {advanced} kills came after a commit"
    assert progress_at_kill[KILLS // 2] >= length // 5, progress_at_kill
    assert progress_at_kill[-1] >= length // 2, progress_at_kill
    assert len(set(progress_at_kill)) >= KILLS // 4, progress_at_kill


def test_a_finished_game_is_left_alone(tmp_path: Path, script) -> None:
    script_path, actions = script
    store = tmp_path / "games.sqlite3"
    log = tmp_path / "child.log"
    first = play_through(store, script_path, log)
    assert first.committed() == list(range(1, len(actions) + 1))
    assert first.lines[-1] == "over"

    def dump() -> list[str]:
        conn = sqlite3.connect(store)
        try:
            return list(conn.iterdump())
        finally:
            conn.close()

    before = dump()
    again = play_through(store, script_path, log)
    assert again.lines == [f"resumed {len(actions)}", "over"]
    assert dump() == before
