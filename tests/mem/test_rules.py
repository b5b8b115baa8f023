"""The rules of the three games, folded through the engine: setup, moves, Mini-MEM turns,
MEM turns, captures, blocks and questions, the end and the scores."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.contract import BadSetup, IllegalAction
from companion.games.mem import actions as A
from companion.games.mem.board import geometry
from companion.games.mem.colours import BOX
from companion.games.mem.legal import legal_moves
from companion.games.mem.state import State

from .helpers import ENGINE, agreed, kinds, play, setup, with_patterns

GEO = geometry()
SQ = GEO.square_at


# ----------------------------------------------------------------------- setup
def test_the_deal_uses_the_box_and_follows_the_seed() -> None:
    one = ENGINE.new_game(setup(seed=5))
    assert Counter(one.board) == Counter(BOX)
    assert ENGINE.new_game(setup(seed=5)).board == one.board
    assert ENGINE.new_game(setup(seed=6)).board != one.board
    firsts = {ENGINE.new_game(setup(seed=s)).turn for s in range(20)}
    assert firsts == {0, 1}


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (setup(game="chess"), "game"),
        (setup(sides=[{"name": "Ada"}]), "sides"),
        (setup("solitaire", sides=[{"name": "A"}, {"name": "B"}]), "sides"),
        (setup(board="ABC"), "board"),
        (setup(board="ABCZ/AAAAAA/AAAAAA/AAAAAA/AAAAAA/AAAA"), "board"),
        (setup(first_player=1), "first_player"),
        (setup(house_rules={"mem.firstPlayer": "AGREED"}), "first_player"),
        (setup(house_rules={"mem.tie": "COIN"}), "house_rules.mem.tie"),
        (setup(house_rules={"mem.nope": 1}), "house_rules.mem.nope"),
        (setup(seed=-1), "seed"),
    ],
)
def test_bad_setups_name_the_field(data: dict[str, object], field: str) -> None:
    with pytest.raises(BadSetup) as err:
        ENGINE.new_game(data)
    assert err.value.field == field


def test_setup_round_trips() -> None:
    data = agreed("mem", "AB../CD..../....../....../....../....", first=1, mem__tie="MORE_CAPTURED")
    state = ENGINE.new_game(data)
    again = ENGINE.new_game(ENGINE.setup_of(state))
    assert again == state


# ----------------------------------------------------------------- pattern moves
def test_first_stone_goes_at_the_origin_and_later_ones_next_to_the_pattern() -> None:
    state = ENGINE.new_game(agreed("solitaire", "AAAA/AAAAAA/AAAAAA/AAAAAA/AAAAAA/AAAA"))
    with pytest.raises(IllegalAction, match="MEM-R1"):
        play(state, A.Move(0, 0, 1, 0))
    state, _ = play(state, A.Move(0, 0, 0, 0))
    with pytest.raises(IllegalAction, match="MEM-R1"):
        play(state, A.Move(0, 1, 0, 0))
    with pytest.raises(IllegalAction, match="MEM-R1"):
        play(state, A.Move(0, 1, 2, 0))
    state, events = play(state, A.Move(0, 1, 0, -1))
    assert state.sides[0].pattern == ((0, 0, 1), (0, -1, 1))
    assert "stone_moved" in kinds(events)


def test_a_move_must_leave_the_movers_pattern_matching() -> None:
    # Ada holds A A; the only equal horizontal pair left is the B B on row 2.
    board = "A.B./....../BB..../....../....../...."
    state = with_patterns(agreed("mem", board), ((0, 0, 1), (0, 1, 1)), ())
    # Putting the A below the pattern asks for an L of A A / A: nothing matches.
    with pytest.raises(IllegalAction, match="MEM-R3"):
        play(state, A.Move(0, 0, 1, 0))
    # Taking a B breaks the only match.
    with pytest.raises(IllegalAction, match="MEM-R3"):
        play(state, A.Move(0, SQ[(2, 0)], 0, 2))


def test_a_move_must_leave_the_other_pattern_matching() -> None:
    board = "A.../....../BB..../....../....../...C"
    state = with_patterns(agreed("mem", board), (), ((0, 0, 5), (0, 1, 5)), turn=0)
    with pytest.raises(IllegalAction, match="MEM-R3") as err:
        play(state, A.Move(0, SQ[(2, 1)], 0, 0))
    assert "Bo's pattern" in err.value.explanation
    state, _ = play(state, A.Move(0, 0, 0, 0))
    assert state.board[0] == 0


# ------------------------------------------------------------------- solitaire
SIXTEEN = "AAAA/AAIJAC/CCEEGG/BBBBBB/BADDDF/FHHK"
"""A box-legal board whose top 16 squares (A x7, I, J, C x3, E x2, G x2) have the same
colour classes as its bottom 16 (B x7, A, K, D x3, F x2, H x2): a pattern of the bottom's
stones can copy the top (MEM-R4)."""
PARTNER = {1: 2, 9: 1, 10: 11, 3: 4, 5: 6, 7: 8}
"""Top colour -> the bottom colour that stands for it."""
TOP_ORDER = (0, 1, 2, 3, 5, 6, 7, 8, 4, 9, 10, 11, 12, 13, 14, 15)
"""The top squares in an order that keeps the pattern connected (MEM-R1)."""


def test_solitaire_is_won_with_sixteen_stones_matching_the_sixteen_left() -> None:
    state = ENGINE.new_game(agreed("solitaire", SIXTEEN))
    assert Counter(state.board) == Counter(BOX)
    left = {c: [s for s in range(16, 32) if state.board[s] == c] for c in range(1, 12)}
    events = []
    for square in TOP_ORDER:
        r, c = GEO.cell[square]
        take = left[PARTNER[state.board[square]]].pop()
        state, happened = play(state, A.Move(0, take, r, c - 1))
        events += happened
    assert ENGINE.is_over(state)
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert state.outcome.reason == "sixteen"
    assert kinds(events)[-1] == "game_ended"


def test_solitaire_ends_without_a_win_when_no_move_is_left() -> None:
    state = ENGINE.new_game(agreed("solitaire", "AB../....../....../....../....../..CD"))
    state, _ = play(state, A.Move(0, 0, 0, 0))
    # A pattern of one stone matches any stone; B C D left, no pair adjacent but C D.
    assert not ENGINE.is_over(state)
    state, _events = play(state, A.Move(0, 1, 0, 1))
    assert ENGINE.is_over(state)
    assert state.outcome is not None and state.outcome.winners == ()
    assert ENGINE.summary(state)["scores"]["sides"][0]["total"] == 2


# -------------------------------------------------------------------- Mini-MEM
MINI = "..../ABC.../....../....../....D./...."


def test_mini_refuses_a_first_move_no_second_can_follow() -> None:
    state = ENGINE.new_game(agreed("mini", MINI))
    with pytest.raises(IllegalAction, match="MEM-R5"):
        play(state, A.Move(0, SQ[(1, 1)], 0, 0))
    state, _ = play(state, A.Move(0, SQ[(4, 4)], 0, 0))
    assert state.turn == 0 and state.moves_made == 1
    state, events = play(state, A.Move(0, SQ[(1, 2)], 0, 1))
    # Ada's (D, C) pair matches A B; Bo cannot take two stones; nor can Ada: game over.
    assert "player_out" in kinds(events)
    assert ENGINE.is_over(state)
    assert ENGINE.summary(state)["outcome"]["winners"] == [0]


def test_mini_first_then_undo_takes_the_first_move_back() -> None:
    state = ENGINE.new_game(agreed("mini", MINI, mini__pairSelection="FIRST_THEN_UNDO"))
    state, events = play(state, A.Move(0, SQ[(1, 1)], 0, 0))
    assert kinds(events)[:2] == ["stone_moved", "move_taken_back"]
    assert state.board == ENGINE.new_game(agreed("mini", MINI)).board
    assert state.turn == 1 and state.sides[0].pattern == ()


def test_mini_player_who_cannot_take_two_moves_is_out_and_the_other_plays_on() -> None:
    # Bo's pattern stands for a D / C vertical pair; the board has one, so Ada's moves
    # must spare it, and Bo can never grow: he is out, Ada goes on.
    board = "AAAA/AAAAAA/....../..D.../..C.../...."
    state = with_patterns(agreed("mini", board), (), ((0, 0, 9), (1, 0, 10)))
    state, events = play(state, A.Move(0, 0, 0, 0), A.Move(0, 1, 0, 1))
    assert "player_out" in kinds(events)
    assert state.sides[1].out and state.turn == 0


def test_mini_any_move_reading_skips_instead_of_putting_out() -> None:
    board = "AAAA/AAAAAA/....../..D.../..C.../...."
    data = agreed("mini", board, mini__cannotMove="ANY_MOVE")
    state = with_patterns(data, (), ((0, 0, 9),))
    state, events = play(state, A.Move(0, 0, 0, 0), A.Move(0, 1, 0, 1))
    assert "player_out" not in kinds(events)
    assert ("turn_passed", 1) in [(e.kind, getattr(e, "side", None)) for e in events]


# ---------------------------------------------------------------- MEM: captures
def test_move_then_capture_scores_group_and_pattern() -> None:
    board = "AA../....../BB..CD/AA..CD/....../...."
    state = ENGINE.new_game(agreed("mem", board))
    state, _ = play(state, A.Move(0, SQ[(3, 0)], 0, 0))
    state, _ = play(state, A.Move(1, SQ[(2, 4)], 0, 0))
    state, _ = play(state, A.Move(0, SQ[(3, 1)], 0, 1))
    expectation = ENGINE.expected(state)
    assert expectation is not None and expectation.actions == ("capture", "end_turn")
    with pytest.raises(IllegalAction, match="MEM-R7"):
        play(state, A.Capture(0, SQ[(3, 5)]))  # the D of a C D / D block: not matched
    state, events = play(state, A.Capture(0, SQ[(0, 1)]))
    assert state.sides[0].pile == 4 and state.sides[0].pattern == ()
    assert state.turn == 1
    assert kinds(events)[0] == "group_captured"


def test_pass_only_when_nothing_is_legal() -> None:
    board = "AA../....../BB..CD/AA..CD/....../...."
    state = ENGINE.new_game(agreed("mem", board))
    with pytest.raises(IllegalAction, match=r"MEM-R10\.1"):
        play(state, A.Pass(0))
    with pytest.raises(IllegalAction, match=r"MEM-R10\.1"):
        play(state, A.EndTurn(0))


def test_capturing_the_only_match_leaves_the_other_passing() -> None:
    # Both patterns are equal pairs; the only equal pair on the board is C C. Ada captures
    # it: Bo's only match is gone and he must pass from then on (MEM-R10.2).
    board = "CC../....../....../ABA.../....../...."
    state = with_patterns(agreed("mem", board), ((0, 0, 4), (0, 1, 4)), ((0, 0, 5), (0, 1, 5)))
    state, events = play(state, A.Capture(0, 0))
    assert "pattern_died" in kinds(events)
    assert ("turn_passed", 1) in [(e.kind, getattr(e, "side", None)) for e in events]
    assert state.turn == 0
    # Ada may still move (MEM-A06): Bo's dead pattern does not hold her back.
    assert legal_moves(state, 0)


def test_literal_rule_three_stops_everyone_once_a_pattern_is_dead() -> None:
    board = "CC../....../....../ABA.../....../...."
    data = agreed("mem", board, mem__deadPatternExempt=False)
    state = with_patterns(data, ((0, 0, 4), (0, 1, 4)), ((0, 0, 5), (0, 1, 5)))
    state, _events = play(state, A.Capture(0, 0))
    assert ENGINE.is_over(state)
    assert state.outcome is not None and state.outcome.scores == (4, 2)


# ----------------------------------------------------------- MEM: blocks, asks
BLOCK = "AA../....../....../AA..B./....../...."


def _blockable() -> State:
    return with_patterns(agreed("mem", BLOCK), ((0, 0, 3), (0, 1, 3)), (), turn=1)


def test_a_move_from_a_matched_group_waits_for_block_or_allow() -> None:
    state = _blockable()
    state, events = play(state, A.Move(1, 1, 0, 0))  # (0, 2)
    assert kinds(events) == ["move_announced"]
    expectation = ENGINE.expected(state)
    assert expectation is not None and (expectation.actor, expectation.actions) == (
        0,
        ("block", "allow"),
    )
    with pytest.raises(IllegalAction, match=r"MEM-R10\.3"):
        play(state, A.Move(1, SQ[(3, 4)], 0, 0))
    allowed, events = play(state, A.Allow(0))
    assert kinds(events)[:2] == ["block_declined", "stone_moved"]
    assert allowed.board[1] == 0


def test_a_block_locks_the_pattern_and_the_mover_takes_another_stone() -> None:
    state, _ = play(_blockable(), A.Move(1, 1, 0, 0))
    with pytest.raises(IllegalAction, match="MEM-R9"):
        play(state, A.Block(0, 0, 0))  # (0, 0) stands for square (0, 2) only at t=(0, 2)
    state, events = play(state, A.Block(0, 0, 1))
    assert kinds(events) == ["stone_blocked"]
    assert state.sides[0].lock == (0, 1)
    with pytest.raises(IllegalAction, match=r"MEM-R10\.3c"):
        play(state, A.Move(1, 1, 0, 0))
    with pytest.raises(IllegalAction, match=r"MEM-R10\.3c"):
        play(state, A.Move(1, 0, 0, 0))
    # The A A on row 3 is no longer Ada's to protect: no window opens.
    state, events = play(state, A.Move(1, SQ[(3, 0)], 0, 0))
    assert kinds(events)[0] == "stone_moved"


def test_a_block_of_the_stone_only_sets_no_lock() -> None:
    data = agreed("mem", BLOCK, mem__block__scope="STONE_THIS_MOVE")
    state = with_patterns(data, ((0, 0, 3), (0, 1, 3)), (), turn=1)
    state, _ = play(state, A.Move(1, 1, 0, 0))
    state, _ = play(state, A.Block(0, 0, 1))
    assert state.sides[0].lock is None
    with pytest.raises(IllegalAction, match=r"MEM-R10\.3c"):
        play(state, A.Move(1, 1, 0, 0))
    state, events = play(state, A.Move(1, 0, 0, 0))
    assert kinds(events) == ["move_announced"]


def test_asking_then_no_means_the_stone_must_be_taken() -> None:
    state, events = play(_blockable(), A.Ask(1, SQ[(3, 0)]))
    assert kinds(events) == ["block_asked"]
    state, _ = play(state, A.Allow(0))
    assert state.pledged == SQ[(3, 0)]
    with pytest.raises(IllegalAction, match=r"MEM-R10\.4"):
        play(state, A.Move(1, SQ[(3, 4)], 0, 0))
    state, events = play(state, A.Move(1, SQ[(3, 0)], 0, 0))
    assert kinds(events)[0] == "stone_moved"


def test_asking_about_a_stone_nobody_can_block_is_answered_no_at_once() -> None:
    _state, events = play(_blockable(), A.Ask(1, SQ[(3, 4)]))
    assert kinds(events) == ["block_declined"]
    assert events[0].forced  # type: ignore[attr-defined]


def test_asking_then_yes_is_a_block() -> None:
    state, _ = play(_blockable(), A.Ask(1, SQ[(3, 0)]))
    state, _ = play(state, A.Block(0, 0, 0))
    assert state.sides[0].lock == (3, 0)
    assert SQ[(3, 0)] in state.barred


def test_a_blocked_player_may_pass_only_under_may_pass() -> None:
    state, _ = play(_blockable(), A.Move(1, 1, 0, 0))
    state, _ = play(state, A.Block(0, 0, 1))
    with pytest.raises(IllegalAction, match=r"MEM-R10\.1"):
        play(state, A.Pass(1))
    data = agreed("mem", BLOCK, mem__block__afterBlock="MAY_PASS")
    state = with_patterns(data, ((0, 0, 3), (0, 1, 3)), (), turn=1)
    state, _ = play(state, A.Move(1, 1, 0, 0), A.Block(0, 0, 1))
    state, events = play(state, A.Pass(1))
    assert ("turn_passed", 1) in [(e.kind, getattr(e, "side", None)) for e in events]


def test_a_locked_group_may_be_captured_unless_protected() -> None:
    board = "AA../....../....../....../....../...."
    for rule, allowed in (("MOVES_ONLY", True), ("PROTECTS_GROUP", False)):
        data = agreed("mem", board, mem__block__vsCapture=rule)
        state = with_patterns(
            data, ((0, 0, 3), (0, 1, 3)), ((0, 0, 5), (0, 1, 5)), lock=(0, 1), turn=1
        )
        if allowed:
            state, events = play(state, A.Capture(1, 0))
            assert "pattern_died" in kinds(events)
        else:
            with pytest.raises(IllegalAction, match="MEM-R7"):
                play(state, A.Capture(1, 0))


# --------------------------------------------------------------- end and score
def test_ties_are_draws_or_go_to_the_bigger_pile() -> None:
    board = "CC../....../....../....../....../...."
    for rule, winners in (("DRAW", ()), ("MORE_CAPTURED", (0,))):
        data = agreed("mem", board, mem__tie=rule, mem__deadPatternExempt=False)
        state = with_patterns(
            data, ((0, 0, 4), (0, 1, 4)), ((0, 0, 5), (0, 1, 5), (1, 0, 6), (1, 1, 6))
        )
        state, _ = play(state, A.Capture(0, 0))
        # Ada: pile 2 + 2; Bo: pattern 4 -> 4 each.
        assert state.outcome is not None and state.outcome.scores == (4, 4)
        assert state.outcome.winners == winners


def test_orientation_frame_owner_turns_the_second_players_cells() -> None:
    board = "AAAA/AAAAAA/....../....../....../...."
    data = agreed("mem", board, first=1, mem__orientationFrame="OWNER")
    state = ENGINE.new_game(data)
    state, _ = play(state, A.Move(1, 0, 0, 0), A.Move(0, 5, 0, 0), A.Move(1, 1, 0, 1))
    assert state.sides[1].pattern[-1][:2] == (0, -1)
