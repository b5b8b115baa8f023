"""MeM in the app, by touch on real widgets offscreen: the wizard, Mini-MEM turns with a
refused move, MEM-Solitaire with hints to its end, a MEM game's takeback, a rated game."""

from __future__ import annotations

from typing import Any

from companion.games.contract import IllegalAction
from companion.games.mem import actions as A
from companion.games.mem.engine import MemEngine
from companion.games.mem.play.game import MemPlay
from companion.games.mem.play.touch import actor_frame
from companion.games.mem.solver import legal_options
from companion.session import Referee
from tests.plays import mem_of

from .screen import Screen

ENGINE = MemEngine()


def start_mem(
    screen: Screen, game: str, names: tuple[str, ...] = ("Ada", "Bo"), **choices: Any
) -> MemPlay:
    screen.tap_text("New game")
    wizard = screen.screen()
    screen.tap_text("MeM")
    assert wizard.picks["game"] == "mem" and "Quadrants" not in _texts(wizard)
    screen.tap_text(game)
    if choices.get("rated"):
        screen.tap_text("Off (rated)")
    if choices.get("clock"):
        screen.tap_text(choices["clock"])
    if choices.get("companion"):
        screen.tap_text("The companion")
        screen.tap_text(choices.get("strength", "Easy"))
    screen.type_into(wizard.ids.name_1, names[0])
    if len(names) > 1:
        screen.type_into(wizard.ids.name_2, names[1])
    else:
        assert wizard.ids.name_2.disabled
    screen.type_into(wizard.seed_input, str(choices.get("seed", 4711)))
    screen.shot(f"wizard-mem-{game.lower()}")
    screen.tap_text("Start the game")
    assert screen.current == "mem_live"
    return mem_of(screen.app.controller)


def _texts(screen: Any) -> set[str]:
    return {getattr(w, "text", "") for w in screen.walk()}


def legal_move(play: MemPlay) -> tuple[int, int, tuple[int, int]]:
    """A move the engine takes now: (side, square, cell in the board's frame)."""
    state = play.state
    expectation = play.referee.expected()
    assert expectation is not None and "move" in expectation.actions
    side = expectation.actor
    for square, cell in legal_options(state)[side].moves:
        try:
            ENGINE.apply(state, A.Move(side, square, *actor_frame(state, side, cell)))
        except IllegalAction:
            continue
        return side, square, cell
    raise AssertionError("no legal move")


def tap_move(screen: Screen, square: int, side: int, cell: tuple[int, int]) -> None:
    """A stone on the board, then a cell of the side's space, by touch."""
    live = screen.screen("mem_live")
    screen.tap_at(*live.ids.board.square_centre(square))
    assert live.view.selected == square
    screen.tap_at(*live.ids[f"space_{side}"].cell_centre(cell))


def test_mini_mem_turns_by_touch_with_a_refused_move(screen: Screen) -> None:
    play = start_mem(screen, "Mini-MEM")
    live = screen.screen("mem_live")
    view = play.view()
    assert view.title == "Ada vs Bo, Mini-MEM, deal 4711"
    side = view.actor
    assert side is not None and live.two_players
    # The first stone of a pattern goes at (0, 0): (0, 1) is refused, with its rule.
    board = view.board
    tap_move(screen, 5, side, (0, 1))
    assert "MEM-R1" in live.message and "(0, 0)" in live.message
    assert play.view().board == board and play.referee.seq == 0
    screen.shot("mem-refused")
    for _ in range(4):  # two turns of two moves
        side, square, cell = legal_move(play)
        tap_move(screen, square, side, cell)
        assert not live.message, live.message
    view = play.view()
    assert view.seq == 4 and [len(p) for p in view.patterns] == [2, 2]
    assert sum(1 for c in view.board if c) == 28
    assert any("took the" in line for line in view.events)
    assert live.header_0.startswith("> ") == (view.actor == 0)
    screen.shot("mem-live-mini")


def test_solitaire_hints_and_plays_to_its_end(screen: Screen) -> None:
    play = start_mem(screen, "MEM-Solitaire", names=("Ada",), seed=3)
    live = screen.screen("mem_live")
    assert not live.two_players and live.ids.hint.opacity == 1
    for _ in range(3):
        screen.tap(live.ids.hint)
        assert screen.until(lambda: play.view().hint is not None, timeout=20)
        hint = play.view().hint
        assert hint is not None and hint.square is not None and hint.cell is not None
        # The hint is a legal move: a square the rules offer, to a cell they allow.
        assert hint.square in play.view().marks.takeable
        assert hint.cell in {c for s, c in legal_options(play.state)[0].moves if s == hint.square}
        screen.shot("mem-solitaire-hint")
        tap_move(screen, hint.square, 0, hint.cell)
        assert not live.message, live.message
    assert len(play.view().patterns[0]) == 3
    # The rest of the solver's line, straight to the game (the same path as a touch).
    while not play.view().over:
        side, square, cell = _hinted_move(play)
        play.tap_square(square)
        play.tap_cell(side, cell)
    screen.frames(2)
    assert screen.current == "end"
    end = screen.screen("end")
    assert end.result.startswith("Solitaire won")
    screen.shot("mem-end-solitaire")


def _hinted_move(play: MemPlay) -> tuple[int, int, tuple[int, int]]:
    from companion.games.mem.solver import best_action

    action = best_action(play.state, budget=2000).action
    assert isinstance(action, A.Move)
    return action.side, action.square, (action.row, action.col)


def test_a_mem_game_move_taken_back_when_the_other_agrees(screen: Screen) -> None:
    play = start_mem(screen, "MEM game")
    live = screen.screen("mem_live")
    assert live.ids.take_back.disabled  # nothing to take back yet
    side, square, cell = legal_move(play)
    tap_move(screen, square, side, cell)
    assert play.referee.seq == 1
    before = play.view().board
    screen.tap(live.ids.take_back)
    other = play.state.setup.names[1 - side]
    assert live.button("agree") is not None and live.button("agree").text == f"{other} agrees"
    assert live.message.startswith(f"Take back {play.state.setup.names[side]}'s move on square")
    screen.shot("mem-takeback")
    screen.tap(live.button("agree"))
    view = play.view()
    assert view.message == "The last action was taken back."
    assert view.board[square] and view.board != before and view.patterns[side] == ()


def test_a_rated_game_has_no_hint_button(screen: Screen) -> None:
    play = start_mem(screen, "MEM game", rated=True)
    live = screen.screen("mem_live")
    assert play.view().title.endswith(", rated")
    assert live.ids.hint.disabled and live.ids.hint.opacity == 0
    play.press("hint")
    assert play.view().message == "No hints in a rated game."


def test_a_held_move_is_blocked_by_a_tap_on_the_pattern(screen: Screen) -> None:
    play = start_mem(screen, "MEM game", seed=12)
    live = screen.screen("mem_live")
    for _ in range(12):
        if play.view().pending is not None:
            break
        side, square, cell = legal_move(play)
        tap_move(screen, square, side, cell)
    view = play.view()
    assert view.pending is not None, "no move was ever held for a block"
    blocker = view.actor
    assert blocker is not None and [b.key for b in view.buttons] == ["allow"]
    assert view.marks.blocking and "Block" in live.how
    screen.shot("mem-block-or-allow")
    cell = sorted(view.marks.blocking)[0]
    screen.tap_at(*live.ids[f"space_{blocker}"].cell_centre(cell))
    view = play.view()
    assert view.pending is None and view.barred and not live.message
    assert any("blocked" in line for line in view.events)


def test_a_capture_by_touch(screen: Screen) -> None:
    setup = {
        "game": "solitaire",
        "sides": [{"name": "Ada"}],
        "seed": 1,
        "board": "AA../....../....../....../....../AA..",
        "house_rules": {"mem.variants.captures": True},
    }
    controller = screen.app.controller
    referee = Referee.start(controller.store, "mem", setup, {}, title="Ada, captures")
    screen.app._follow(controller.resume(referee.game_id))
    screen.frames(2)
    play = mem_of(controller)
    tap_move(screen, 28, 0, (0, 0))
    tap_move(screen, 29, 0, (0, 1))
    view = play.view()
    assert [b.key for b in view.buttons] == ["capture", "end_turn"]
    assert view.marks.capturable == {0, 1}
    screen.shot("mem-capture")
    live = screen.screen("mem_live")
    # The button needs a stone of the group: without one, it says so.
    screen.tap(live.button("capture"))
    assert "Tap the stone" in live.message and play.referee.seq == 2
    screen.tap_at(*live.ids.board.square_centre(1))
    screen.tap(live.button("capture"))
    assert screen.current == "end"
    summary = play.referee.engine.summary(play.state)
    assert summary["scores"]["sides"][0]["pile"] == 4


def test_a_deal_laid_by_hand_is_typed_on_all_options(screen: Screen) -> None:
    screen.tap_text("New game")
    wizard = screen.screen()
    screen.tap_text("MeM")
    wizard.change_options()
    page = screen.screen()
    board = "ABCA/ABCDAB/CDABCD/ABCDAB/CDABCD/ABCD"
    page.texts["board"].text = board
    screen.tap(page.toggles["first_player"][1])  # agreed: the house rule follows
    screen.shot("all-options-mem")
    screen.tap(page.ids.done)
    screen.tap_text("Start the game")
    play = mem_of(screen.app.controller)
    assert play is not None
    setup = play.referee.engine.setup_of(play.state)
    assert setup["board"] == board
    assert setup["first_player"] == 1
    assert setup["house_rules"] == {"mem.firstPlayer": "AGREED"}


def test_a_timed_game_against_the_companion(screen: Screen) -> None:
    play = start_mem(screen, "Mini-MEM", ("Ada", ""), clock="5+3", companion=True)
    live = screen.screen("mem_live")
    assert play.companion_side == 1 and play.view().title.endswith("against the companion")
    assert play.view().names == ("Ada", "Companion")
    assert live.timed and not live.ids.pause.disabled
    assert "5:00" in live.header_0 or "4:5" in live.header_0, live.header_0
    assert "5:00" in live.header_1 or "4:5" in live.header_1, live.header_1
    for _ in range(8):  # the player's turn and the companion's, by touch and by search
        if play.companions_turn():

            def moved(before: int = play.referee.seq) -> bool:
                return play.referee.seq > before

            screen.app.controller.step()  # unless the app's own step began the search
            assert screen.until(moved, timeout=30)
            continue
        side, square, cell = legal_move(play)
        tap_move(screen, square, side, cell)
        assert not live.message, live.message
    actions = screen.app.controller.store.actions(play.referee.game_id)
    assert any(a["side"] == 1 for _s, _t, a in actions), "the companion moved"
    screen.shot("mem-live-clock-companion")
    screen.tap(live.ids.pause)
    assert live.ids.pause.text == "Resume"
