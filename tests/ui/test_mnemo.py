"""MnemoGame in the app offscreen: New game's Words row, a game whose players lay their words
on their phones (the touch screen waits for them and says so, or deals a word to a player
without a phone), then played by taps."""

from __future__ import annotations

from typing import Any

from companion.games import find_plugin
from companion.games.mnemo import actions as A
from companion.games.mnemo.words import WordFacts
from companion.table.touch_play import TouchPlay
from tests.plays import touch_of

from .screen import Screen

FACTS = WordFacts(spelt=True, noun=True, verb=True, reversible=False)


def start_mnemo(screen: Screen, words: str, players: str = "3") -> TouchPlay:
    screen.tap_text("New game")
    wizard = screen.screen()
    screen.tap_text("MnemoGame")
    screen.tap_text(players)
    screen.tap_text(words)
    screen.type_into(wizard.ids.name_1, "Ada")
    screen.type_into(wizard.ids.name_2, "Bo")
    screen.shot("wizard-mnemo")
    screen.tap_text("Start the game")
    assert screen.current == "touch_live"
    play = touch_of(screen.app.controller)
    assert play is not None
    return play


def test_words_laid_on_the_phones_are_waited_for_then_the_game_begins(screen: Screen) -> None:
    play = start_mnemo(screen, "Laid on the players' phones")
    live = screen.screen("touch_live")
    referee = play.referee
    assert referee.engine.setup_of(referee.state)["words"] == "phones"
    assert play.view().prompt == (
        "Waiting for Ada, Bo and Player 3 to lay their words on their phones (Menu > Phones)."
    )
    screen.shot("mnemo-waiting-for-words")
    # Bo's phone sends his word first (as the private page does, on the game's thread).
    referee.submit(A.LayWord(1, "planet", FACTS, aha_after=1))
    screen.frames(3)
    assert "Waiting for Ada and Player 3" in live.view.prompt
    assert "Bo has laid a word of 7 chips." in live.view.events
    assert not any("PLANET" in line.upper() for line in live.view.events)
    # Ada has no phone: the companion deals her a word, tapped on the screen.
    screen.tap(live.button("Deal Ada a word"))
    assert referee.state.words[0] is not None
    assert live.view.prompt == "Waiting for Player 3 to lay a word on their phone (Menu > Phones)."
    referee.submit(A.LayWord(2, "stone", FACTS, spell_from="right"))
    screen.frames(3)
    assert referee.state.phase == "roll"
    assert live.button("Roll for me") is not None
    screen.tap(live.button("Roll for me"))
    assert referee.seq == 4
    screen.shot("mnemo-words-laid")


def test_words_dealt_by_the_companion_begin_the_game_at_once(screen: Screen) -> None:
    play = start_mnemo(screen, "Dealt by the companion", players="2")
    state = play.referee.state
    assert state.phase == "roll" and all(w is not None for w in state.words)
    assert find_plugin("mnemo").engine.setup_of(state)["words"] == "dealt"


def test_no_button_of_the_game_is_one_of_the_screens_own() -> None:
    """A pantomime's answer is "Pantomimed": a button "Done" would be the screen's own."""
    from companion.games.mnemo.letters import LETTER_CODEX
    from companion.games.mnemo.touch import TOUCH
    from companion.games.touch import DONE
    from companion.table.touch_play import AGREE, CLEAR, HINT, REFUSE, TAKE_BACK

    own = {DONE, HINT, TAKE_BACK, AGREE, REFUSE, CLEAR}
    state = find_plugin("mnemo").engine.new_game(
        {"sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": 1, "words": "dealt"}
    )
    for _question, answers in LETTER_CODEX.values():
        for answer in answers:
            ((press,),) = TOUCH.paths(state, A.Answer(0, answer))
            assert getattr(press, "label", "") not in own, answer


def test_a_guess_clock_counts_down_each_guess_and_every_letter_can_be_tapped(
    screen: Screen,
) -> None:
    screen.tap_text("New game")
    screen.tap_text("MnemoGame")
    screen.tap_text("2")
    screen.tap_text("Dealt by the companion")
    screen.tap_text("30 seconds")
    screen.tap_text("Start the game")
    play = touch_of(screen.app.controller)
    assert play is not None
    referee = play.referee
    assert referee.store.header(referee.game_id).clock == {
        "controls": ["-!30", "-!30"],
        "order": [0, 1],
    }
    live = screen.screen("touch_live")
    assert live.clocks == ""  # the roll is nobody's time: the clock has not started
    turn = referee.state.turn
    referee.submit(A.Roll(turn, face=_guessing_face(referee.engine, referee.state)))
    screen.frames(3)
    assert f"[b]{live.view.names[turn]} " in live.clocks and "(move " in live.clocks
    chip = f"c{1 - turn}-0"
    live.ids.board.on_spot(chip)
    screen.frames(3)
    letters = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    assert all(live.button(letter) is not None for letter in letters)
    assert live.ids.buttons.cols == 5
    # Z, the last key, lies on the screen, not below its edge.
    z = live.button("Z")
    assert z is not None
    _, y = z.to_window(*z.center)
    assert 0 < y < screen.app.root.height
    screen.shot("mnemo-guess-clock")


def _guessing_face(engine: Any, state: Any) -> int:
    """A face of the die whose codex entry lets the dicer guess until wrong."""
    for face in range(12):
        after, _ = engine.apply(state, A.Roll(state.turn, face=face))
        if after.phase == "guess" and after.mode == "free":
            return face
    raise AssertionError("no face of the die lets the dicer guess")
