"""Every action the rules accept now that can be listed: all but a guess of a whole word
(any text), a word a player chooses to lay (any word: only the one the companion would deal
them is listed) and an infraction (the table reports it when it happens). Shared by the
random player and the touch rules.

    legal_actions(state)      # [Roll(side=2), Roll(side=2, face=0), ...]
"""

from __future__ import annotations

from companion.games.contract import Action
from companion.games.mnemo import actions as A
from companion.games.mnemo.deal import dealt_word
from companion.games.mnemo.engine import (
    accepted,
    actor,
    codex_answer,
    guess_tokens,
    own_chips_to_expose,
    targets,
)
from companion.games.mnemo.letters import CODEX_LETTERS, LETTER_CODEX
from companion.games.mnemo.state import State


def faces(state: State) -> tuple[int, ...]:
    """The faces the table may enter for a roll: every face, but with number cards drawn
    without replacement only the cards left (MN-A01)."""
    setup = state.setup
    if (
        state.phase == "roll"
        and setup.numbers == "cards"
        and setup.rules.cards_replacement == "NO_REPLACEMENT"
    ):
        return state.deck or tuple(range(12))
    return tuple(range(12))


def dealt_lay(state: State, side: int) -> A.LayWord:
    """The companion's word laid for `side`: for a player without a phone, or its own."""
    setup = state.setup
    word = dealt_word(state.words, side, setup.seed, setup.division_rules, setup.rules)
    return A.LayWord(
        side,
        word.word,
        word.facts,
        word.aha_before,
        word.aha_after,
        word.joal,
        word.spell_from,
    )


def legal_actions(state: State) -> list[Action]:
    if state.outcome is not None:
        return []
    who = actor(state)
    kinds = accepted(state)
    out: list[Action] = []
    if "lay_word" in kinds:
        out.append(dealt_lay(state, who))
    if "roll" in kinds:
        out.append(A.Roll(who))
        out.extend(A.Roll(who, face) for face in faces(state))
    if "choose_letter" in kinds:
        out.extend(A.ChooseLetter(who, letter) for letter in CODEX_LETTERS)
    if "name_opponent" in kinds:
        if state.purpose in ("stripper", "tail"):
            owners = targets(state, who)
        else:
            owners = tuple(s for s in range(state.side_count) if s != who)
        out.extend(A.NameOpponent(who, owner) for owner in owners)
    if "expose" in kinds:
        out.extend(A.Expose(who, owner, chip) for owner, chip in own_chips_to_expose(state))
    if "decline" in kinds:
        out.append(A.Decline(who))
    if "answer" in kinds:
        settled = codex_answer(state, who)
        answers = LETTER_CODEX[state.letter][1] if settled is None else (settled,)
        out.extend(A.Answer(who, answer) for answer in answers)
    if "judge_icecq" in kinds:
        out.extend((A.JudgeIcecq(who, True), A.JudgeIcecq(who, False)))
    if "judge_description" in kinds:
        out.extend((A.JudgeDescription(who, True), A.JudgeDescription(who, False)))
    if "guess" in kinds:
        for owner in targets(state, who):
            tokens = guess_tokens(state, who, owner)
            for chip in state.face_down(owner):
                if state.pair is not None and (owner, chip) == state.pair[:2]:
                    continue
                out.extend(A.Guess(who, owner, chip, token) for token in tokens)
    if "describe_word" in kinds:
        out.extend(
            A.DescribeWord(who, owner)
            for owner in targets(state, who)
            if not state.word_guessed[owner]
        )
    if "time_expired" in kinds:
        out.append(A.TimeExpired(who))
    return out
