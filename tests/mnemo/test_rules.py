"""MnemoGame rules one at a time: setups refused and accepted, the codex entries' house
rules, guesses refused, and the word list (when the Debian lists are installed)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.games.contract import Action, BadData, BadSetup, IllegalAction
from companion.games.mnemo import actions as A
from companion.games.mnemo import events as E
from companion.games.mnemo.dictionary import WORD_LIST, WORDNET, word_facts
from companion.games.mnemo.engine import MnemoEngine
from companion.games.mnemo.judge import right, unexposed_points
from companion.games.mnemo.setup import Chip
from companion.games.mnemo.state import State
from companion.games.mnemo.words import WordFacts

ENGINE = MnemoEngine()
NOUN = {"spelt": True, "noun": True, "verb": False, "reversible": False}
INSTALLED = WORD_LIST.exists() and (WORDNET / "index.verb").exists()


def side(name: str, word: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "word": word, "facts": NOUN, **more}


def game(*sides: dict[str, Any], **more: Any) -> State:
    return ENGINE.new_game({"sides": list(sides), "seed": 1, "first_player": 0, **more})


def run(state: State, *actions: Action) -> State:
    for action in actions:
        state, _ = ENGINE.apply(state, action)
    return state


# ----------------------------------------------------------------------- setup
def test_a_word_is_laid_with_its_decoys_from_the_chosen_side() -> None:
    state = game(
        side("Ada", "pot", aha_before=1, aha_after=1), side("Bo", "cab", spell_from="right")
    )
    assert [c.shows for c in state.chips[0]] == ["AHA", "P", "O", "T", "AHA"]
    assert [c.shows for c in state.chips[1]] == ["B", "A", "C"]
    assert state.scores == (-10, 0)  # MN-SC5: 5 a decoy, charged at setup


def test_a_hyphen_is_a_joal_and_a_joal_stands_in_for_a_missing_letter() -> None:
    state = game(side("Ada", "x-ray"), side("Bo", "jazz", joal=[3]))
    assert state.chips[0][1] == Chip("joal", "-")
    assert state.chips[1][3] == Chip("joal", "Z")
    with pytest.raises(BadSetup, match="Z chips"):
        game(side("Ada", "jazz"), side("Bo", "cab"))  # MN-S5: the box has one Z


@pytest.mark.parametrize(
    ("sides", "more", "field"),
    [
        ([side("Ada", "pot", aha_before=6), side("Bo", "cab")], {}, "sides[0]"),
        ([side("Ada", "strawberry"), side("Bo", "cab")], {"division": 1}, "sides[0].word"),
        ([side("Ada", "pot"), side("Bo", "an")], {"division": 1}, "sides[1].word"),
        ([side("Ada", "pot", aha_after=3), side("Bo", "cab")], {"division": 1}, "sides[0]"),
        ([side("Ada", "po7"), side("Bo", "cab")], {}, "sides[0].word"),
        ([side("Ada", "pot")], {}, "sides"),
    ],
)
def test_setups_the_rules_refuse(
    sides: list[dict[str, Any]], more: dict[str, Any], field: str
) -> None:
    with pytest.raises(BadSetup) as caught:
        game(*sides, **more)
    assert caught.value.field == field


def test_exact_division_decoys_name_the_house_rule() -> None:
    with pytest.raises(BadSetup, match=r"mn\.division\.ahaRule"):
        game(
            side("Ada", "pot"),
            side("Bo", "cab", aha_before=2),
            division=1,
            house_rules={"mn.division.ahaRule": "EXACT"},
        )


def test_a_setup_without_facts_needs_a_word_list() -> None:
    with pytest.raises(BadSetup, match="facts"):
        ENGINE.new_game({"sides": [{"name": "Ada", "word": "pot"}, side("Bo", "cab")]})
    looked = MnemoEngine(lambda word: WordFacts(False, False, False, False))
    state = looked.new_game({"sides": [{"name": "Ada", "word": "pot"}, side("Bo", "cab")]})
    # A misspelling is not refused: it is found out when the word is exposed (MN-SC6).
    assert not state.word(0).facts.spelt
    assert looked.setup_of(state)["sides"][0]["facts"]["spelt"] is False


def test_a_proper_name_is_refused() -> None:
    proper = MnemoEngine(lambda word: WordFacts(False, True, False, False, proper=True))
    with pytest.raises(BadSetup, match="proper name"):
        proper.new_game({"sides": [{"name": "Ada", "word": "paris"}, side("Bo", "cab")]})


# ---------------------------------------------------------------------- turns
def test_nemo_goes_to_the_lowest_and_others_only_leaves_out_the_dicer() -> None:
    sides = (side("Ada", "pot", aha_after=1), side("Bo", "cab", aha_after=1), side("Cy", "rug"))
    assert run(game(*sides), A.Roll(0, 0)).scores == (0, 0, 0)
    others = game(*sides, house_rules={"mn.nemo.recipients": "OTHERS_ONLY"})
    assert run(others, A.Roll(0, 0)).scores == (-5, 0, 0)


def test_the_first_guess_is_a_letter_and_aha_waits_for_round_two() -> None:
    state = run(game(side("Ada", "pot", aha_after=1), side("Bo", "cab")), A.Roll(0, 8))
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, A.Guess(0, 1, 0, "AHA"))
    assert caught.value.rule == "MN-T4"
    state = run(state, A.Guess(0, 1, 0, "C"))
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, A.Guess(0, 1, 1, "AHA"))
    assert caught.value.rule == "MN-A03"


def test_mono_ends_the_turn_or_goes_on() -> None:
    sides = (side("Ada", "pot"), side("Bo", "cab"))
    state = run(game(*sides), A.Roll(0, 1), A.Guess(0, 1, 0, "C"))
    assert state.turn == 1 and state.scores == (20, 0)
    going = game(*sides, house_rules={"mn.mono.continue": "CONTINUES"})
    state = run(going, A.Roll(0, 1), A.Guess(0, 1, 0, "C"), A.Guess(0, 1, 1, "A"))
    assert state.turn == 0 and state.scores == (25, 0)


def test_twinner_judges_both_letters_together() -> None:
    sides = (side("Ada", "pot"), side("Bo", "cab"))
    state = run(game(*sides), A.Roll(0, 2), A.Guess(0, 1, 0, "C"), A.Guess(0, 1, 1, "E"))
    assert state.turn == 1 and state.scores == (0, 0) and not any(state.up[1])
    lenient = game(*sides, house_rules={"mn.twinner.fail": "ONE_RIGHT_GOES_ON"})
    state = run(lenient, A.Roll(0, 2), A.Guess(0, 1, 0, "C"), A.Guess(0, 1, 1, "E"))
    assert state.turn == 0 and state.scores == (5, 0) and state.up[1] == (True, False, False)


def test_eight_ball_when_tied_for_the_highest() -> None:
    sides = (side("Ada", "pot"), side("Bo", "cab"))
    assert run(game(*sides), A.Roll(0, 8)).scores == (-10, 0)
    alone = game(*sides, house_rules={"mn.eightBall.tie": "ALONE_ONLY"})
    assert run(alone, A.Roll(0, 8)).scores == (0, 0)


def test_the_bonus_stacks_or_not_and_goes_to_the_owner_or_the_exposer() -> None:
    star = {"spelt": True, "noun": True, "verb": True, "reversible": True}
    sides = (
        {"name": "Ada", "word": "on", "facts": NOUN},
        {"name": "Bo", "word": "pa", "facts": star},
        side("Cy", "rug"),
    )
    guesses = (A.Roll(0, 8), A.Guess(0, 1, 0, "P"), A.Guess(0, 1, 1, "A"))
    assert run(game(*sides), *guesses).scores == (0, 25, 0)
    largest = game(*sides, house_rules={"mn.bonus.stack": False})
    assert run(largest, *guesses).scores == (0, 15, 0)
    exposer = game(*sides, house_rules={"mn.bonus.recipient": "EXPOSER"})
    assert run(exposer, *guesses).scores == (25, 0, 0)


def test_magic_seven_is_a_choice() -> None:
    sides = (side("Ada", "pot"), side("Bo", "cab"))
    assert run(game(*sides), A.Roll(0, 7), A.Expose(0, 0, 2)).scores == (15, 0)
    declined = run(game(*sides), A.Roll(0, 7), A.Decline(0))
    assert declined.scores == (0, 0) and declined.phase == "guess"
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(run(game(*sides), A.Roll(0, 7)), A.Expose(0, 1, 0))
    assert caught.value.rule == "MN-NC7"


def test_number_cards_without_replacement_refuse_a_card_drawn() -> None:
    state = game(
        side("Ada", "pot"),
        side("Bo", "cab"),
        numbers="cards",
        house_rules={"mn.cards.replacement": "NO_REPLACEMENT"},
    )
    state = run(state, A.Roll(0, 0))
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, A.Roll(1, 0))
    assert caught.value.rule == "MN-A01"


# ------------------------------------------------------------ words laid in play
FACTS = WordFacts(spelt=True, noun=True, verb=False, reversible=False)
PROPER = WordFacts(spelt=False, noun=False, verb=False, reversible=False, proper=True)


def laying(*sides: dict[str, Any], **more: Any) -> State:
    return game(*sides, **more)


def test_words_left_out_are_laid_in_any_order_and_then_the_game_begins() -> None:
    state, opening = ENGINE.start(
        {"sides": [{"name": "Ada"}, {"name": "Bo"}, side("Cy", "cab")], "seed": 1}
    )
    assert opening == (E.WordsAwaited((0, 1)),)
    expected = ENGINE.expected(state)
    assert expected is not None and expected.actions == ("lay_word",) and expected.timed is None
    assert expected.prompt == (
        "Waiting for Ada and Bo to lay their words on their phones (Menu > Phones)."
    )
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, A.Roll(0))
    assert refused.value.rule == "MN-S2"
    # Bo is ready first.
    state, events = ENGINE.apply(state, A.LayWord(1, "pot", FACTS, aha_after=2))
    assert events == (E.WordLaid(1, 5),)
    assert ENGINE.expected(state).prompt == (  # type: ignore[union-attr]
        "Waiting for Ada to lay a word on their phone (Menu > Phones)."
    )
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, A.LayWord(1, "tin", FACTS))
    assert refused.value.rule == "MN-S2"
    state, events = ENGINE.apply(state, A.LayWord(0, "x-ray", FACTS, spell_from="right"))
    assert events[0] == E.WordLaid(0, 5)
    assert events[1] == E.GameStarted(state.first, (0, -10, 0))
    assert state.phase == "roll" and [c.shows for c in state.chips[0]] == list("YAR-X")
    assert state.word(0).joal == (1,)  # the hyphen is a JOAL (MN-C5)
    # The setup the game keeps is the one it began with: its record replays the same.
    assert "word" not in ENGINE.setup_of(state)["sides"][0]


@pytest.mark.parametrize(
    ("action", "more", "rule"),
    [
        (A.LayWord(0, "Paris", PROPER), {}, "MN-S3"),
        (A.LayWord(0, "po7", FACTS), {}, "MN-S3"),
        (A.LayWord(0, "pot", FACTS, aha_before=3, aha_after=3), {}, "MN-S4"),
        (A.LayWord(0, "pot", FACTS, aha_before=-1), {}, "MN-S4"),
        (A.LayWord(0, "pot", FACTS, aha_after=3), {"division": 1}, "MN-DIV"),
        (A.LayWord(0, "strawberry", FACTS), {"division": 1}, "MN-DIV"),
        (
            A.LayWord(0, "pot", FACTS, aha_after=1),
            {"division": 1, "house_rules": {"mn.division.ahaRule": "EXACT"}},
            "MN-A15",
        ),
        (A.LayWord(0, "pot", FACTS, joal=(3,)), {}, "MN-A18"),
        (A.LayWord(0, "fuzz", FACTS), {}, "MN-S5"),  # Bo's JAZZ took the box's one Z
        (A.LayWord(0, "fuzz", FACTS, joal=(2,)), {}, "MN-S5"),
        (A.LayWord(0, "pot", FACTS, spell_from="up"), {}, "MN-S2"),
        (A.Infraction(1, 1, 0), {}, "MN-SC7"),
    ],
)
def test_words_laid_the_rules_refuse(action: Any, more: dict[str, Any], rule: str) -> None:
    bo = side("Bo", "jaz", **({"aha_before": 2} if "house_rules" in more else {}))
    state = laying({"name": "Ada"}, bo, **more)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, action)
    assert refused.value.rule == rule, refused.value


def test_a_joal_stands_in_for_a_letter_the_box_has_run_out_of() -> None:
    state = laying({"name": "Ada"}, side("Bo", "jaz"))
    state, _ = ENGINE.apply(state, A.LayWord(0, "fuzz", FACTS, joal=(2, 3)))
    assert state.chips[0][3] == Chip("joal", "Z")


def test_a_word_sent_without_facts_gets_them_from_the_word_list_and_keeps_them() -> None:
    looked = MnemoEngine(lambda word: FACTS if word == "KAYAK" else PROPER)
    sent = {"type": "lay_word", "side": 0, "word": "kayak", "aha_after": 1}
    action = looked.action_from_dict(sent)
    assert isinstance(action, A.LayWord) and action.facts == FACTS
    recorded = looked.action_to_dict(action)
    assert recorded["facts"] == {
        "spelt": True,
        "noun": True,
        "verb": False,
        "reversible": False,
        "proper": False,
    }
    # A recorded action is taken as recorded, with no word list or another one.
    assert ENGINE.action_from_dict(recorded) == action
    assert MnemoEngine(lambda word: PROPER).action_from_dict(recorded) == action
    with pytest.raises(BadData, match="facts"):
        ENGINE.action_from_dict(sent)  # no word list to look it up in
    with pytest.raises(BadData, match=r"lay_word\.word"):
        looked.action_from_dict({**sent, "word": "ka yak"})
    proper = looked.action_from_dict({**sent, "word": "Paris"})
    with pytest.raises(IllegalAction, match="proper name"):
        looked.apply(laying({"name": "Ada"}, side("Bo", "cab")), proper)


def test_a_dealt_setup_deals_the_words_left_out_into_the_setup() -> None:
    state = ENGINE.new_game(
        {"sides": [{"name": "Ada"}, side("Bo", "cab")], "seed": 5, "words": "dealt"}
    )
    assert state.phase == "roll" and state.word(0).word and state.word(1).word == "CAB"
    stored = ENGINE.setup_of(state)
    assert stored["words"] == "dealt" and stored["sides"][0]["word"] == state.word(0).word
    assert ENGINE.new_game(stored) == state
    with pytest.raises(BadSetup) as caught:
        ENGINE.new_game({"sides": [{"name": "Ada"}, side("Bo", "cab")], "words": "typed"})
    assert caught.value.field == "words"


# --------------------------------------------------------------------- judging
def test_judging_a_guess() -> None:
    assert right(Chip("letter", "E"), "E", "MEANING")
    assert not right(Chip("aha", "AHA"), "E", "MEANING")
    assert right(Chip("aha", "AHA"), "AHA", "MEANING")
    assert right(Chip("joal", "-"), "-", "MEANING")
    assert not right(Chip("joal", "Q"), "Q", "JOAL") and right(Chip("joal", "Q"), "JOAL", "JOAL")
    chips = (Chip("letter", "W"), Chip("letter", "E"), Chip("joal", "-"), Chip("aha", "AHA"))
    assert unexposed_points(chips, (False, False, False, False)) == 10


# ------------------------------------------------------------------ word list
@pytest.mark.skipif(not INSTALLED, reason="the Debian packages wamerican and wordnet-base")
def test_the_word_list_gives_spelling_names_and_kinds() -> None:
    star = word_facts("star")
    assert star == WordFacts(spelt=True, noun=True, verb=True, reversible=True)
    assert word_facts("Paris").proper and word_facts("mary").proper
    assert not word_facts("recieve").spelt and not word_facts("recieve").proper
    assert word_facts("well-being").spelt and word_facts("well-being").noun
    assert word_facts("running").verb and word_facts("geese").noun
    assert word_facts("level").reversible and not word_facts("planet").reversible
    assert not word_facts("happy").noun and not word_facts("happy").verb


def test_a_missing_word_list_is_a_lookup_error(tmp_path: Path) -> None:
    from companion.games.mnemo.dictionary import read_lexicon

    with pytest.raises(LookupError, match="wamerican"):
        read_lexicon(tmp_path / "none", tmp_path)


# ------------------------------------------------------------ Letter Codex, checked
PICK = {"mn.letterCodex.select": "PICK"}
MYSTERY_WORD, ID = 10, 11


def test_what_the_chips_settle_has_one_answer_and_a_false_one_is_refused() -> None:
    from companion.games.mnemo.legal import legal_actions

    # Bo's "cab" lies from his right: its first letter is the last chip of his row.
    state = game(
        side("Ada", "pot"),
        side("Bo", "cab", spell_from="right", aha_before=1),
        **{"house_rules": PICK},
    )
    state = run(state, A.Roll(0, MYSTERY_WORD))
    state, _ = ENGINE.apply(state, A.NameOpponent(0, 1))
    state, _ = ENGINE.apply(state, A.ChooseLetter(0, "H"))
    assert legal_actions(state) == [A.Answer(1, "neither")]
    with pytest.raises(IllegalAction, match="MN-C4: that is not what Bo's chips say"):
        ENGINE.apply(state, A.Answer(1, "first"))
    # Once C (the word's first letter) is face up, "first" is the truth.
    row = state.chips[1]
    first = max(j for j, chip in enumerate(row) if chip.is_letter)
    assert row[first].shows == "C"
    shown = replace(state, up=(state.up[0], tuple(j == first for j in range(len(row)))))
    assert legal_actions(shown) == [A.Answer(1, "first")]
    ENGINE.apply(shown, A.Answer(1, "first"))


def test_a_laid_bare_letter_still_face_down_is_answered_from_the_chips() -> None:
    from companion.games.mnemo.legal import legal_actions

    state = game(side("Ada", "level"), side("Bo", "cab"), **{"house_rules": PICK})
    state = run(state, A.Roll(0, ID))
    state, _ = ENGINE.apply(state, A.ChooseLetter(0, "I"))
    assert legal_actions(state) == [A.Answer(0, "no")]  # nothing of "level" is face up yet
    one_l = replace(state, up=((True, False, False, False, False), state.up[1]))
    assert legal_actions(one_l) == [A.Answer(0, "yes")]  # the other L is still down
    with pytest.raises(IllegalAction, match="MN-C4"):
        ENGINE.apply(one_l, A.Answer(0, "no"))


def test_what_only_the_owner_knows_is_theirs_to_answer() -> None:
    from companion.games.mnemo.legal import legal_actions
    from companion.games.mnemo.letters import LETTER_CODEX

    state = game(side("Ada", "pot"), side("Bo", "cab"), **{"house_rules": PICK})
    state = run(state, A.Roll(0, ID))
    state, _ = ENGINE.apply(state, A.ChooseLetter(0, "A"))
    answers = [a.answer for a in legal_actions(state) if isinstance(a, A.Answer)]
    assert answers == list(LETTER_CODEX["A"][1])


# ------------------------------------------------------------ a description of the word
FREE = 6  # the die face that lets the dicer guess until wrong


def guessing() -> State:
    """Ada guessing at Bo's "cab" after one right letter."""
    state = run(game(side("Ada", "pot"), side("Bo", "cab")), A.Roll(0, FREE))
    assert state.phase == "guess" and state.mode == "free"
    return run(state, A.Guess(0, 1, 0, "C"))


def test_a_description_the_owner_accepts_is_a_right_guess_of_the_word() -> None:
    state, events = ENGINE.apply(guessing(), A.DescribeWord(0, 1))
    expectation = ENGINE.expected(state)
    assert state.phase == "describe" and expectation is not None and expectation.actor == 1
    with pytest.raises(IllegalAction, match="MN-A16"):
        ENGINE.apply(state, A.Guess(0, 1, 1, "A"))  # the description is being judged
    with pytest.raises(IllegalAction, match="MN-T5"):
        ENGINE.apply(state, A.JudgeDescription(0, True))  # the owner judges, not the guesser
    before = state.scores[0]
    state, events = ENGINE.apply(state, A.JudgeDescription(1, True))
    assert E.DescriptionJudged(1, 0, True) in events
    assert state.scores[0] == before + 30  # MN-SC4
    assert state.exposed[1]  # mn.wordGuess.exposes = true: every letter chip face up
    assert state.ending  # one word is left: the round is finished (MN-E1)


def test_a_description_the_owner_rejects_ends_the_turn() -> None:
    state = run(guessing(), A.DescribeWord(0, 1))
    state, events = ENGINE.apply(state, A.JudgeDescription(1, False))
    assert E.DescriptionJudged(1, 0, False) in events
    assert state.turn == 1 and state.phase == "roll" and not state.exposed[1]


def test_a_description_is_of_an_opponents_word_and_never_the_first_guess() -> None:
    with pytest.raises(IllegalAction, match="MN-A16"):
        ENGINE.apply(guessing(), A.DescribeWord(0, 0))
    first = run(game(side("Ada", "pot"), side("Bo", "cab")), A.Roll(0, FREE))
    with pytest.raises(IllegalAction, match="MN-T4"):
        ENGINE.apply(first, A.DescribeWord(0, 1))


def test_the_guessers_phone_offers_a_word_guess_and_nobody_elses_does() -> None:
    from companion.games.mnemo.phone import private_inputs

    state = guessing()
    (offer,) = private_inputs(state, 0)
    assert offer.action == "guess_word"
    assert [choice for _, choice in offer.fields[0].choices] == [1]
    assert private_inputs(state, 1) == ()
    assert private_inputs(run(game(side("Ada", "pot"), side("Bo", "cab"))), 0) == ()
