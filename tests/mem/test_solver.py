"""The solver: legal options, the longest MEM-Solitaire pattern against exhaustive search
over moves, budgets, hints, and `companion mem solve|hint`."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.mem import actions as A
from companion.games.mem.board import geometry
from companion.games.mem.legal import legal_captures, legal_moves, place_stone
from companion.games.mem.solitaire import solve_solitaire
from companion.games.mem.solver import best_action, legal_options
from companion.games.mem.state import State
from companion.games.mem.text import format_board
from companion.record import RecordHeader, write_record

from .helpers import ENGINE, agreed, play, setup
from .test_rules import SIXTEEN

GEO = geometry()


def _exhaustive(state: State) -> int:
    """The longest pattern by trying every sequence of legal moves (small boards only)."""
    best = len(state.sides[0].pattern)
    seen: set[tuple[object, ...]] = set()

    def walk(node: State) -> None:
        nonlocal best
        key = (node.board, tuple(sorted(node.sides[0].pattern)))
        if key in seen:
            return
        seen.add(key)
        best = max(best, len(node.sides[0].pattern))
        for square, cell in legal_moves(node, 0):
            walk(place_stone(node, 0, square, cell))

    walk(state)
    return best


def _replay(state: State, moves: tuple[tuple[int, tuple[int, int]], ...]) -> State:
    for square, (row, col) in moves:
        state, _ = play(state, A.Move(0, square, row, col))
    return state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 2))
def test_longest_pattern_equals_exhaustive_search(seed: int, started: int) -> None:
    rng = random.Random(seed)
    board = [0] * 32
    for square in rng.sample(range(32), rng.randrange(4, 11)):
        board[square] = rng.choice([1, 1, 2, 2, 3, 4, 5])
    state = ENGINE.new_game(agreed("solitaire", format_board(board)))
    for _ in range(started):
        choices = legal_moves(state, 0)
        if choices:
            state = place_stone(state, 0, *rng.choice(choices))
    me = state.sides[0]
    result = solve_solitaire(state.board, GEO, me.pattern)
    assert result.proved
    assert result.best == _exhaustive(state)
    assert len(me.pattern) + len(result.moves) == result.best
    # The moves are legal and reach the pattern they promise.
    assert len(_replay(state, result.moves).sides[0].pattern) == result.best


def test_the_sixteen_win_is_found_and_wins_through_the_engine() -> None:
    state = ENGINE.new_game(agreed("solitaire", SIXTEEN))
    result = solve_solitaire(state.board, GEO)
    assert (result.best, result.win, result.proved) == (16, True, True)
    final = _replay(state, result.moves)
    assert final.outcome is not None and final.outcome.winners == (0,)


def test_a_spent_budget_reports_the_best_found_and_a_bound() -> None:
    state = ENGINE.new_game(setup("solitaire", seed=11))
    result = solve_solitaire(state.board, GEO, budget=3)
    assert not result.proved
    assert result.best <= result.bound == 16
    assert result.nodes <= 4
    assert len(_replay(state, result.moves).sides[0].pattern) == result.best


def test_legal_options_list_both_sides() -> None:
    state = ENGINE.new_game(agreed("mem", "AA../....../BB..CD/AA..CD/....../...."))
    state, _ = play(state, A.Move(0, GEO.square_at[(3, 0)], 0, 0))
    options = legal_options(state)
    assert len(options) == 2
    assert options[0].moves == tuple(legal_moves(state, 0))
    assert options[1].moves == tuple(legal_moves(state, 1))
    assert options[0].captures == () == options[1].captures


def test_hint_takes_the_capture_on_offer() -> None:
    state = ENGINE.new_game(agreed("mem", "AA../....../BB..CD/AA..CD/....../...."))
    sq = GEO.square_at
    state, _ = play(
        state, A.Move(0, sq[(3, 0)], 0, 0), A.Move(1, sq[(2, 4)], 0, 0), A.Move(0, sq[(3, 1)], 0, 1)
    )
    assert legal_captures(state, 0)
    hint = best_action(state, depth=2, budget=400)
    assert isinstance(hint.action, A.Capture)


def test_solitaire_hint_is_the_first_move_of_a_longest_line() -> None:
    state = ENGINE.new_game(agreed("solitaire", SIXTEEN))
    hint = best_action(state)
    assert hint.value == 16 and len(hint.line) == 16 and hint.action == hint.line[0]


def test_cli_solve_seed_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mem", "solve", "7", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    state = ENGINE.new_game(setup("solitaire", seed=7))
    assert out["board"] == format_board(state.board)
    final = _replay(state, tuple((m["square"], (m["row"], m["col"])) for m in out["moves"]))
    assert len(final.sides[0].pattern) == out["best"]
    assert out["win"] == (final.outcome is not None and final.outcome.winners == (0,))


def test_cli_solve_board_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mem", "solve", "AAB./....../CC..../....../....../...."]) == 0
    out = capsys.readouterr().out
    assert "Longest pattern: 2 stones, optimal" in out
    assert "No 16-stone win exists" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["mem", "solve", "ABC"],
        ["mem", "solve", "AAB./....../CC..../....../....../...Z"],
        ["mem", "solve", "5", "--budget", "none"],
        ["mem", "hint", "/nonexistent/game.jsonl"],
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


def test_cli_hint_on_a_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:

    data = agreed("mem", "AA../....../BB..CD/AA..CD/....../....")
    state = ENGINE.new_game(data)
    sq = GEO.square_at
    moves = [A.Move(0, sq[(3, 0)], 0, 0), A.Move(1, sq[(2, 4)], 0, 0), A.Move(0, sq[(3, 1)], 0, 1)]
    path = tmp_path / "game.jsonl"
    with path.open("w") as out:
        header = RecordHeader(game="mem", setup=ENGINE.setup_of(state))
        write_record(
            out, header, [(float(i), ENGINE.action_to_dict(a)) for i, a in enumerate(moves)]
        )
    assert main(["mem", "hint", str(path), "--json", "--budget", "300"]) == 0
    hint = json.loads(capsys.readouterr().out)
    assert hint["action"]["type"] == "capture"


def test_rules_mem_lists_every_ambiguity(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "mem", "--json"]) == 0
    rules = json.loads(capsys.readouterr().out)
    assert [r["settles"] for r in rules] == [f"MEM-A{i:02}" for i in range(1, 17)]
    assert main(["rules", "mem"]) == 0
    assert "mem.block.scope" in capsys.readouterr().out
