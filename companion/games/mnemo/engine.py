"""The MnemoGame rule engine: pure functions from (state, action) to (state, events).

    engine = MnemoEngine(word_facts)       # the word list, injected (dictionary.py)
    state = engine.new_game(setup)
    state, events = engine.apply(state, Roll(side=state.turn))
    engine.expected(state)   # Expectation(actor=..., actions=('guess', 'guess_word'), ...)

A game whose setup leaves some words out begins with those players laying them (lay_word,
each out of the others' sight: MN-S2 .. MN-S5); the first roll follows the last word laid.
A turn (MN-T1 .. MN-T5): the roll, the Number Codex entry's orders (naming an opponent,
exposing chips, a Letter Codex question and its answer), the ICECQ judgement when it is
played, then guessing until a guess is wrong. Every refusal is an IllegalAction naming the
rule (MN-...); docs/mnemo-rules.md lists them. The engine reads no file: the facts of each
word (spelt, noun, verb, reversible) come with the setup or the lay_word action, looked up
through the injected word list when they are left out, and are kept in the setup it returns
and in the action as recorded (`action_from_dict` fills them in, `action_to_dict` writes
them): a record replays the same on any machine, with or without a word list.
"""

from __future__ import annotations

import random
import typing
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from companion.games.codec import _plain, parse_value
from companion.games.contract import (
    JSON,
    Action,
    BadData,
    BadSetup,
    Event,
    Expectation,
    IllegalAction,
    Viewer,
)
from companion.games.engine_base import EngineBase
from companion.games.mnemo import actions as A
from companion.games.mnemo import events as E
from companion.games.mnemo.deal import with_dealt
from companion.games.mnemo.judge import (
    WORD_POINTS,
    aha_penalty,
    points_for,
    right,
    same_word,
    settled_answer,
    unexposed_points,
)
from companion.games.mnemo.letters import (
    AHA,
    CODEX,
    CODEX_LETTERS,
    HYPHEN,
    JOAL,
    LETTER_CODEX,
    LETTERS,
    NO_VALUE,
    SUPPLY,
)
from companion.games.mnemo.setup import (
    Setup,
    parse_setup,
    secret_word,
    supply_problem,
    word_problem,
)
from companion.games.mnemo.state import Outcome, State
from companion.games.mnemo.view import view_state
from companion.games.mnemo.words import Lookup

Events = list[Event]

PHASE_ACTIONS: dict[str, tuple[str, ...]] = {
    "lay": ("lay_word",),
    "roll": ("roll",),
    "name": ("name_opponent",),
    "expose": ("expose",),
    "choose": ("expose", "decline"),
    "answer": ("answer",),
    "icecq": ("judge_icecq",),
    "guess": ("guess", "guess_word", "describe_word"),
    "pair": ("guess",),
    "describe": ("judge_description",),
}


class MnemoEngine(EngineBase[State]):
    name = "mnemo"
    title = "MnemoGame"
    actions = A.ACTIONS
    events = E.EVENTS

    def __init__(self, lookup: Lookup | None = None) -> None:
        self.lookup = lookup
        """The word list a setup without a word's facts is checked against."""

    def action_from_dict(self, data: Mapping[str, Any]) -> Action:
        """A lay_word sent without its word's facts gets them from the word list (a phone
        sends only the word); one with facts (a record) is taken as it is."""
        if isinstance(data, Mapping) and data.get("type") == "lay_word" and "facts" not in data:
            data = {**data, "facts": self._facts_of(data.get("word"))}
        return self.actions.from_dict(data)

    def _facts_of(self, word: Any) -> JSON:
        if not isinstance(word, str):
            raise BadData("lay_word.word", "is missing" if word is None else "expected text")
        text = word.strip().upper()
        if not all(c in SUPPLY or c == HYPHEN for c in text) or not any(c in SUPPLY for c in text):
            raise BadData("lay_word.word", "is letters A to Z and hyphens only (MN-S3)")
        if self.lookup is None:
            raise BadData("lay_word.facts", "give the word's facts: no word list to look it up in")
        try:
            facts = self.lookup(text)
        except LookupError as err:
            raise BadData("lay_word.facts", f"cannot look the word up: {err}") from None
        plain: JSON = _plain(facts)
        return plain

    def new_game(self, setup: Mapping[str, Any]) -> State:
        return new_game(with_dealt(parse_setup(setup, self.lookup)))[0]

    def start(self, setup: Mapping[str, Any]) -> tuple[State, tuple[Event, ...]]:
        return new_game(with_dealt(parse_setup(setup, self.lookup)))

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        return apply(state, action)

    def expected(self, state: State) -> Expectation | None:
        return expected(state)

    def is_over(self, state: State) -> bool:
        return state.outcome is not None

    def view(self, state: State, viewer: Viewer) -> JSON:
        return view_state(state, viewer, expected(state))

    def state_to_dict(self, state: State) -> JSON:
        return state_to_dict(state)

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        return state_from_dict(data)

    def summary(self, state: State) -> JSON:
        return summary(state)


# --------------------------------------------------------------------- new game
def new_game(setup: Setup) -> tuple[State, tuple[Event, ...]]:
    """Every word face down; each player charged 5 for each AHA chip laid (MN-SC5); the
    first player drawn or agreed (MN-S6). When the setup leaves words out, the players lay
    them first: the game proper starts with the last one laid."""
    n = setup.side_count
    chips = tuple(() if w is None else w.chips for w in setup.words)
    first = setup.first_player()
    state = State(
        setup=setup,
        words=setup.words,
        chips=chips,
        up=tuple((False,) * len(row) for row in chips),
        scores=(0,) * n,
        exposed=(False,) * n,
        revealed=(False,) * n,
        word_guessed=(False,) * n,
        forfeited=(False,) * n,
        first=first,
        turn=first,
        last_seat=(first - 1) % n,
        phase="lay",
    )
    if state.to_lay:
        return state, (E.WordsAwaited(state.to_lay),)
    events: Events = []
    return _all_laid(state, events), tuple(events)


def _all_laid(state: State, events: Events) -> State:
    """Every word is on the table: the AHA charge (MN-SC5), then the first turn."""
    scores = tuple(-5 * state.word(s).ahas for s in range(state.side_count))
    events += [E.GameStarted(state.first, scores), E.TurnStarted(state.first, 1, 1)]
    return replace(state, scores=scores, phase="roll")


# ------------------------------------------------------------------------ helpers
def _name(state: State, side: int) -> str:
    return state.setup.names[side]


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(values)
    out[index] = value
    return tuple(out)


def _score(state: State, side: int, points: int, rule: str, events: Events) -> State:
    if points == 0:
        return state
    scores = _set(state.scores, side, state.scores[side] + points)
    events.append(E.Scored(side, points, rule, scores[side]))
    state = replace(state, scores=scores)
    if side == state.turn and rule.startswith("MN-NC"):
        state = replace(state, codex_points=state.codex_points + points)
    return state


def opponents(state: State, side: int) -> tuple[int, ...]:
    """The other players, in seating order from `side`'s left."""
    n = state.side_count
    return tuple((side + k) % n for k in range(1, n))


def targets(state: State, side: int) -> tuple[int, ...]:
    """The opponents whose words can still be guessed at or stripped: not fully exposed
    (MN-E3)."""
    return tuple(o for o in opponents(state, side) if not state.exposed[o] and state.face_down(o))


def guess_tokens(state: State, side: int, owner: int) -> tuple[str, ...]:
    """What `side` may name at a chip of `owner` now (MN-T4, MN-A03, MN-A18)."""
    tokens = [*LETTERS, HYPHEN]
    if state.setup.rules.joal_guess == "JOAL":
        tokens.append(JOAL)
    if state.phase == "guess" and state.mode == "free" and aha_allowed(state, owner):
        tokens.append(AHA)
    return tuple(tokens)


def aha_allowed(state: State, owner: int) -> bool:
    """AHA may not be guessed in the first round, nor before a letter chip is exposed: of
    the word guessed at (TARGET_WORD) or anywhere (ANY_WORD) (MN-A03)."""
    if state.round == 1 or state.guesses == 0:
        return False
    if state.setup.rules.aha_guess_gate == "TARGET_WORD":
        return state.letter_up(owner)
    return any(state.letter_up(s) for s in range(state.side_count))


def actor(state: State) -> int:
    """Whose decision the state waits for."""
    if state.phase == "lay" and state.to_lay:
        return state.to_lay[0]
    if state.phase == "expose" and state.purpose == "expo" and state.pending:
        return state.pending[0]
    if state.phase == "expose" and state.purpose == "stripper" and state.named is not None:
        return state.named
    if state.phase == "answer" and state.purpose == "ask" and state.named is not None:
        return state.named
    if state.phase == "describe" and state.named is not None:
        return state.named
    return state.turn


def accepted(state: State) -> tuple[str, ...]:
    if state.outcome is not None:
        return ()
    if state.phase == "letter":
        return ("roll",) if state.setup.rules.letter_codex_select == "ROLL" else ("choose_letter",)
    kinds = PHASE_ACTIONS.get(state.phase, ())
    if state.phase == "guess" and (state.mode == "mono" or state.guesses == 0):
        kinds = ("guess",)  # the first guess is of a letter (MN-T4); MONO's only one
    if state.phase in ("guess", "pair") and state.setup.guess_seconds:
        kinds = (*kinds, "time_expired")
    return kinds


def own_chips_to_expose(state: State) -> tuple[tuple[int, int], ...]:
    """(owner, chip) pairs the current expose or choose phase accepts."""
    phase, purpose = state.phase, state.purpose
    if phase not in ("expose", "choose"):
        return ()
    if purpose == "stripper" and state.named is None:
        return tuple((o, j) for o in targets(state, state.turn) for j in state.face_down(o))
    who = actor(state)
    return tuple((who, j) for j in state.face_down(who))


# ------------------------------------------------------------------------ apply
def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """The state after `action` and what happened; IllegalAction for what the rules forbid."""
    check(state, action)
    events: Events = []
    state = _EFFECTS[type(action)](state, action, events)
    if state.outcome is None:
        state = _settle(state, events)
    return replace(state, actions=state.actions + 1), tuple(events)


def check(state: State, action: Action) -> None:
    if state.outcome is not None:
        raise IllegalAction("MN-E4", "the game is over")
    side = getattr(action, "side", None)
    n = state.side_count
    if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < n:
        raise IllegalAction("MN-T5", f"there is no player {side} in this game")
    checker = _CHECKS.get(type(action))
    if checker is None:
        raise IllegalAction("MN-T1", f"{action.kind} is not a MnemoGame action")
    if isinstance(action, A.Infraction):
        checker(state, action)
        return
    kinds = accepted(state)
    if isinstance(action, A.LayWord) and state.phase == "lay":
        # Each player lays their word when they are ready: not in seating order.
        checker(state, action)
        return
    if action.kind not in kinds:
        raise IllegalAction(
            _PHASE_RULE.get(state.phase, "MN-T2"),
            f"now the rules wait for {_WORDS.get(kinds[0], kinds[0]) if kinds else 'nothing'}, "
            f"not {_WORDS.get(action.kind, action.kind)}",
        )
    who = actor(state)
    if side != who:
        raise IllegalAction(
            "MN-T5", f"it is {_name(state, who)}'s decision, not {_name(state, side)}'s"
        )
    checker(state, action)


_PHASE_RULE = {
    "lay": "MN-S2",
    "roll": "MN-T1",
    "name": "MN-T2",
    "expose": "MN-T2",
    "choose": "MN-T2",
    "letter": "MN-A10",
    "answer": "MN-C4",
    "icecq": "MN-T3",
    "guess": "MN-T4",
    "pair": "MN-NC2",
    "describe": "MN-A16",
}


def _check_owner(state: State, owner: int) -> None:
    if isinstance(owner, bool) or not 0 <= owner < state.side_count:
        raise IllegalAction("MN-T4", f"there is no player {owner} in this game")


def _check_chip(state: State, owner: int, chip: int, rule: str) -> None:
    _check_owner(state, owner)
    row = state.up[owner]
    if not 0 <= chip < len(row):
        raise IllegalAction(rule, f"{_name(state, owner)}'s word has chips 0 .. {len(row) - 1}")
    if row[chip]:
        raise IllegalAction(rule, f"chip {chip} of {_name(state, owner)}'s word is already face up")


_LAY_FIELDS = {".word": "the word ", ".joal": "JOAL ", ".spell_from": "spelt from: "}


def _check_lay(state: State, action: A.LayWord) -> None:
    side = action.side
    if state.words[side] is not None:
        raise IllegalAction("MN-S2", f"{_name(state, side)}'s word is on the table already")
    setup = state.setup
    word = action.word.strip().upper() if isinstance(action.word, str) else ""
    joal = tuple(action.joal)
    problem = word_problem(
        word,
        action.aha_before,
        action.aha_after,
        joal,
        action.spell_from,
        setup.division_rules,
        setup.rules,
    )
    if problem is not None:
        field, rule, text = problem
        raise IllegalAction(rule, _LAY_FIELDS.get(field, "") + text)
    if action.facts.proper:
        raise IllegalAction("MN-S3", "that is a proper name: proper names are not allowed")
    laid = secret_word(
        word, action.aha_before, action.aha_after, joal, action.spell_from, action.facts
    )
    others = [w for s, w in enumerate(state.words) if s != side]
    short = supply_problem([*others, laid])
    if short is not None:
        raise IllegalAction("MN-S5", short)


def _check_roll(state: State, action: A.Roll) -> None:
    face = action.face
    if face is None:
        return
    if isinstance(face, bool) or not 0 <= face < 12:
        raise IllegalAction("MN-C3", f"the D12 shows 0 to 11, not {face}")
    if (
        state.phase == "roll"
        and state.setup.numbers == "cards"
        and state.setup.rules.cards_replacement == "NO_REPLACEMENT"
        and face not in _deck(state)
    ):
        raise IllegalAction(
            "MN-A01", f"card {face} was drawn already: cards left {list(_deck(state))}"
        )


def _deck(state: State) -> tuple[int, ...]:
    return state.deck or tuple(range(12))


def _check_name(state: State, action: A.NameOpponent) -> None:
    _check_owner(state, action.owner)
    if action.owner == action.side:
        raise IllegalAction("MN-T2", "name one of your opponents")
    if state.purpose in ("stripper", "tail") and action.owner not in targets(state, action.side):
        raise IllegalAction(
            "MN-E3", f"{_name(state, action.owner)}'s word is fully exposed: nothing to lay bare"
        )


_EXPOSE_RULES = {
    "stripper": "MN-NC3",
    "hoopla": "MN-NC5",
    "expo": "MN-NC6",
    "seven": "MN-NC7",
    "nine": "MN-NC9",
}


def _check_expose(state: State, action: A.Expose) -> None:
    rule = _EXPOSE_RULES.get(state.purpose, "MN-NC9")
    _check_chip(state, action.owner, action.chip, rule)
    if (action.owner, action.chip) not in own_chips_to_expose(state):
        if state.purpose == "stripper" and state.named is None:
            raise IllegalAction(rule, "STRIPPER exposes a chip of an opponent still in play")
        raise IllegalAction(rule, "expose a chip of your own word")


def _check_decline(state: State, action: A.Decline) -> None:
    return


def _check_letter(state: State, action: A.ChooseLetter) -> None:
    if action.letter not in LETTER_CODEX:
        raise IllegalAction("MN-A10", f"the Letter Codex runs from A to L, not {action.letter!r}")


def _check_answer(state: State, action: A.Answer) -> None:
    answers = LETTER_CODEX[state.letter][1]
    if action.answer not in answers:
        raise IllegalAction(
            "MN-C4", f"Letter Codex {state.letter} is answered {', '.join(answers)}"
        )
    # What the chips on the table settle, the companion checks: the answer is public once
    # given, so refusing a wrong one tells nobody more than the right one will.
    truth = codex_answer(state, action.side)
    if truth is not None and action.answer != truth:
        raise IllegalAction(
            "MN-C4",
            f"that is not what {_name(state, action.side)}'s chips say: look at the word again",
        )


def codex_answer(state: State, side: int) -> str | None:
    """The answer to this turn's Letter Codex question about `side`'s word that the chips
    settle (H and I), or None where only the word's owner can say."""
    return settled_answer(state.letter, state.word(side), state.up[side])


def _check_icecq(state: State, action: A.JudgeIcecq) -> None:
    return


def _check_guess(state: State, action: A.Guess) -> None:
    side, owner = action.side, action.owner
    _check_chip(state, owner, action.chip, "MN-T4")
    if owner == side:
        raise IllegalAction("MN-T4", "guess at an opponent's word, not your own")
    if state.exposed[owner]:
        raise IllegalAction("MN-E3", f"{_name(state, owner)}'s word is fully exposed")
    guess = action.guess
    if guess == AHA:
        if state.phase == "pair" or state.mode == "mono" or state.guesses == 0:
            raise IllegalAction("MN-T4", "the first guess of a turn is of a letter, not AHA")
        if state.round == 1:
            raise IllegalAction("MN-A03", "AHA is not guessed in the first guessing round")
        if not aha_allowed(state, owner):
            raise IllegalAction("MN-A03", "AHA is guessed only once a letter chip is exposed")
        return
    if guess == JOAL and state.setup.rules.joal_guess != "JOAL":
        raise IllegalAction("MN-A18", "under mn.joal.guess=MEANING name what a JOAL stands for")
    if guess not in LETTERS and guess not in (HYPHEN, JOAL):
        raise IllegalAction("MN-T4", f"a guess is a letter A to Z, '-', or AHA, not {guess!r}")
    if state.pair is not None and (owner, action.chip) == state.pair[:2]:
        raise IllegalAction("MN-NC2", "TWINNER's two letters go on two different chips")


def _check_word(state: State, action: A.GuessWord) -> None:
    _check_whole_word(state, action.side, action.owner, ("MN-T4", "guess"))
    if not action.word.strip():
        raise IllegalAction("MN-T4", "say the word")


def _check_describe(state: State, action: A.DescribeWord) -> None:
    _check_whole_word(state, action.side, action.owner, ("MN-A16", "describe"))


def _check_whole_word(state: State, side: int, owner: int, own: tuple[str, str]) -> None:
    """A guess or a description of a whole word: an opponent's, still unknown, and not the
    turn's first guess. `own` is the rule and the verb that refuse one's own word."""
    _check_owner(state, owner)
    if owner == side:
        rule, verb = own
        raise IllegalAction(rule, f"{verb} an opponent's word, not your own")
    if state.guesses == 0:
        raise IllegalAction("MN-T4", "the first guess of a turn is of a letter")
    if state.exposed[owner] or state.word_guessed[owner]:
        raise IllegalAction("MN-E3", f"{_name(state, owner)}'s word is known already")


def _check_judge_description(state: State, action: A.JudgeDescription) -> None:
    return


def _check_time(state: State, action: A.TimeExpired) -> None:
    return


def _check_infraction(state: State, action: A.Infraction) -> None:
    if state.phase == "lay":
        raise IllegalAction("MN-SC7", "the words are still being laid: no turn has begun")
    _check_chip(state, action.owner, action.chip, "MN-SC7")


_CHECKS: dict[type, Callable[[State, Any], None]] = {
    A.LayWord: _check_lay,
    A.Roll: _check_roll,
    A.NameOpponent: _check_name,
    A.Expose: _check_expose,
    A.Decline: _check_decline,
    A.ChooseLetter: _check_letter,
    A.Answer: _check_answer,
    A.JudgeIcecq: _check_icecq,
    A.Guess: _check_guess,
    A.GuessWord: _check_word,
    A.DescribeWord: _check_describe,
    A.JudgeDescription: _check_judge_description,
    A.TimeExpired: _check_time,
    A.Infraction: _check_infraction,
}


# ---------------------------------------------------------------------- exposing
def expose(state: State, by: int, owner: int, chip: int, why: str, events: Events) -> State:
    """Turns a chip face up; when it was the word's last face-down letter, the word is
    exposed: its decoys shown, its bonus paid (MN-SC3), its spelling judged (MN-SC6), and
    the end of the game looked for (MN-E1)."""
    content = state.chips[owner][chip]
    state = replace(state, up=_set(state.up, owner, _set(state.up[owner], chip, True)))
    events.append(E.ChipExposed(by, owner, chip, content.shows, content.kind, why))
    if state.exposed[owner]:
        return state
    if any(
        c.is_letter and not up for c, up in zip(state.chips[owner], state.up[owner], strict=True)
    ):
        return state
    for j in state.face_down(owner):
        shown = state.chips[owner][j]
        events.append(E.ChipExposed(by, owner, j, shown.shows, shown.kind, "complete"))
    state = replace(
        state,
        up=_set(state.up, owner, (True,) * len(state.up[owner])),
        exposed=_set(state.exposed, owner, True),
    )
    word = state.word(owner)
    facts = word.facts
    events.append(
        E.WordExposed(owner, word.word, facts.noun, facts.verb, facts.reversible, not facts.spelt)
    )
    rules = state.setup.rules
    recipient = owner if rules.bonus_recipient == "OWNER" else by
    state = _score(state, recipient, facts.bonus(rules.bonus_stack), "MN-SC3", events)
    if not facts.spelt:
        state = _score(state, owner, -_margin(state), "MN-SC6", events)
    return _look_for_the_end(state, events)


def _margin(state: State) -> int:
    """The difference between the highest and lowest scores (MN-SC6, MN-SC7)."""
    return max(state.scores) - min(state.scores)


def _look_for_the_end(state: State, events: Events) -> State:
    """MN-E1, MN-E2: when every word but one is exposed the round is finished, unless the
    seat that closes the round is the one playing; with every word exposed, nothing is left
    to play for."""
    left = [s for s in range(state.side_count) if not state.exposed[s]]
    if not state.ending and len(left) <= 1:
        state = replace(state, ending=True)
        events.append(E.EndTriggered(state.last_seat))
        if state.turn == state.last_seat:
            return game_over(state, events)
    if not left:
        return game_over(state, events)
    return state


def game_over(state: State, events: Events) -> State:
    """The unexposed words are shown and scored (MN-SC2, MN-SC4, MN-SC6); the highest scorer
    who spelt their word right wins (MN-E4)."""
    if state.outcome is not None:
        return state
    for side in range(state.side_count):
        if state.exposed[side]:
            continue
        word = state.word(side)
        events.append(E.WordRevealed(side, word.word, not word.facts.spelt))
        state = replace(state, revealed=_set(state.revealed, side, True))
        points = unexposed_points(state.chips[side], state.up[side])
        state = _score(state, side, points, "MN-SC2", events)
        state = _score(state, side, WORD_POINTS, "MN-SC4", events)
    for side in range(state.side_count):
        if state.revealed[side] and not state.word(side).facts.spelt:
            state = _score(state, side, -_margin(state), "MN-SC6", events)
    honest = [s for s in range(state.side_count) if state.word(s).facts.spelt]
    best = max((state.scores[s] for s in honest), default=None)
    winners = tuple(s for s in honest if state.scores[s] == best)
    events.append(E.GameEnded(winners, state.scores))
    return replace(state, phase="over", outcome=Outcome(winners, "highest_score"))


# ------------------------------------------------------------------- turn flow
def end_turn(state: State, events: Events) -> State:
    """MN-T5: play passes to the left; a player who forfeited is skipped (MN-SC7); the
    round closes at the seat before the first player (MN-E2)."""
    if state.outcome is not None:
        return state
    events.append(E.TurnEnded(state.turn))
    if state.ending and state.turn == state.last_seat:
        return game_over(state, events)
    n = state.side_count
    seat, round_ = state.turn, state.round
    for _ in range(n):
        seat = (seat + 1) % n
        if seat == state.first:
            round_ += 1
        if state.forfeited[seat]:
            events.append(E.TurnSkipped(seat))
            if state.ending and seat == state.last_seat:
                return game_over(state, events)
            continue
        number = state.turn_number + 1
        events.append(E.TurnStarted(seat, number, round_))
        return replace(
            state,
            turn=seat,
            turn_number=number,
            round=round_,
            phase="roll",
            face=None,
            purpose="",
            named=None,
            pending=(),
            letter="",
            answer="",
            mode="",
            value=5,
            guesses=0,
            pair=None,
            codex_points=0,
        )
    return game_over(state, events)  # everyone forfeited: nobody is left to play


def to_guessing(state: State, events: Events) -> State:
    """After the codex's orders: the ICECQ question when it is played (MN-T3), then
    guessing."""
    if state.outcome is not None:
        return state
    if state.setup.icecq:
        return replace(state, phase="icecq", purpose="", named=None)
    return start_guessing(state, events)


def start_guessing(state: State, events: Events) -> State:
    face = state.face
    mode, value = {1: ("mono", 20), 2: ("pair", 20), 5: ("free", 10)}.get(face or 3, ("free", 5))
    state = replace(
        state,
        phase="pair" if mode == "pair" else "guess",
        purpose="",
        named=None,
        mode=mode,
        value=value,
        guesses=0,
    )
    chips = sum(len(state.face_down(o)) for o in targets(state, state.turn))
    if not chips:
        return end_turn(state, events)
    if mode == "pair" and chips < 2:
        # One chip left to guess at: TWINNER's pair cannot be named (MN-NC2).
        state = replace(state, phase="guess", mode="free", value=5)
    return state


def _settle(state: State, events: Events) -> State:
    """Moves past a phase that nobody can act in any more (an infraction exposed the last
    chip it could act on)."""
    for _ in range(8):
        if state.outcome is not None:
            return state
        phase, purpose = state.phase, state.purpose
        if state.forfeited[state.turn]:
            state = end_turn(state, events)
            continue
        if phase in ("expose", "choose") and purpose == "expo":
            pending = tuple(p for p in state.pending if state.face_down(p))
            if pending != state.pending:
                state = replace(state, pending=pending)
            if not pending:
                state = to_guessing(state, events)
                continue
        elif (phase in ("expose", "choose") and not own_chips_to_expose(state)) or (
            phase == "name" and purpose in ("stripper", "tail") and not targets(state, state.turn)
        ):
            state = to_guessing(state, events)
            continue
        elif phase in ("guess", "pair") and not targets(state, state.turn):
            state = end_turn(state, events)
            continue
        return state
    return state


# ---------------------------------------------------------------------- effects
def _lay_word(state: State, action: A.LayWord, events: Events) -> State:
    side = action.side
    word = secret_word(
        action.word,
        action.aha_before,
        action.aha_after,
        action.joal,
        action.spell_from,
        action.facts,
    )
    row = word.chips
    state = replace(
        state,
        words=_set(state.words, side, word),
        chips=_set(state.chips, side, row),
        up=_set(state.up, side, (False,) * len(row)),
    )
    events.append(E.WordLaid(side, len(row)))
    return _all_laid(state, events) if not state.to_lay else state


def _draw(state: State, action: A.Roll, letter: bool) -> tuple[State, int, bool]:
    """The face rolled or drawn: the table's, or one drawn from the seed (MN-T1, MN-A01)."""
    cards = (
        not letter
        and state.setup.numbers == "cards"
        and state.setup.rules.cards_replacement == "NO_REPLACEMENT"
    )
    deck = _deck(state)
    if action.face is not None:
        face, drawn = action.face, False
    else:
        rng = random.Random(f"mnemo:roll:{state.setup.seed}:{state.rolls}")
        face = rng.choice(deck) if cards else rng.randrange(12)
        state = replace(state, rolls=state.rolls + 1)
        drawn = True
    if cards:
        state = replace(state, deck=tuple(c for c in deck if c != face))
    return state, face, drawn


def _roll(state: State, action: A.Roll, events: Events) -> State:
    if state.phase == "letter":
        state, face, drawn = _draw(state, action, letter=True)
        return _letter_drawn(state, CODEX_LETTERS[face], events)
    state, face, drawn = _draw(state, action, letter=False)
    side = state.turn
    events.append(E.Rolled(side, face, CODEX[face], drawn))
    state = replace(state, face=face, codex_points=0)
    rules = state.setup.rules
    if face == 0:  # NEMO: pass; the lowest scorers get 5
        lowest = min(state.scores)
        for s in range(state.side_count):
            if state.scores[s] == lowest and (rules.nemo_recipients == "ALL_LOWEST" or s != side):
                state = _score(state, s, 5, "MN-NC0", events)
        return end_turn(state, events)
    if face == 3:
        return replace(
            state,
            phase="name" if rules.stripper_chooser == "OPPONENT" else "expose",
            purpose="stripper",
        )
    if face == 4:
        if rules.tail_enders_scope == "ONE_OPPONENT":
            return replace(state, phase="name", purpose="tail")
        found = False
        for owner in targets(state, side):
            for j in state.face_down(owner):
                if state.chips[owner][j].shows in NO_VALUE and not state.up[owner][j]:
                    state = expose(state, side, owner, j, "tail", events)
                    found = True
                    if state.outcome is not None:
                        return state
        if not found:
            events.append(E.NoTailEnders(side, -1))
        return to_guessing(state, events)
    if face == 5:
        return replace(state, phase="expose", purpose="hoopla")
    if face == 6:
        lowest = min(state.scores)
        order = (side, *opponents(state, side))
        pending = tuple(
            s
            for s in order
            if (s != side or rules.expo_dicer_exposes)
            and state.scores[s] != lowest
            and state.face_down(s)
        )
        state = _score(state, side, 5, "MN-NC6", events)
        return replace(state, phase="expose", purpose="expo", pending=pending)
    if face in (7, 9):
        if len(state.face_down(side)) <= 1:
            # All your chips, or all but one, laid bare: only 5 (MN-NC7, MN-NC9).
            state = _score(state, side, 5, f"MN-NC{face}", events)
            return to_guessing(state, events)
        return replace(state, phase="choose", purpose="seven" if face == 7 else "nine")
    if face == 8:
        top = max(state.scores)
        alone = state.scores.count(top) == 1
        if state.scores[side] == top and (rules.eight_ball_tie == "TIED_PAYS" or alone):
            state = _score(state, side, -10, "MN-NC8", events)
        return to_guessing(state, events)
    if face == 10:
        return replace(state, phase="name", purpose="ask")
    if face == 11:
        return replace(state, phase="letter", purpose="clue", named=None)
    return to_guessing(state, events)  # 1 MONO, 2 TWINNER


def _letter_drawn(state: State, letter: str, events: Events) -> State:
    events.append(E.LetterDrawn(state.turn, letter, LETTER_CODEX[letter][0]))
    return replace(state, phase="answer", letter=letter)


def _choose_letter(state: State, action: A.ChooseLetter, events: Events) -> State:
    return _letter_drawn(state, action.letter, events)


def _name_opponent(state: State, action: A.NameOpponent, events: Events) -> State:
    side, owner = action.side, action.owner
    events.append(E.OpponentNamed(side, owner, state.purpose))
    if state.purpose == "stripper":
        return replace(state, phase="expose", named=owner)
    if state.purpose == "ask":
        return replace(state, phase="letter", named=owner)
    # TAIL-ENDERS, one opponent: their first face-down V, W, X or Z chip is laid bare.
    for j in state.face_down(owner):
        if state.chips[owner][j].shows in NO_VALUE:
            state = expose(state, side, owner, j, "tail", events)
            return to_guessing(state, events)
    events.append(E.NoTailEnders(side, owner))
    return to_guessing(state, events)


_EXPOSE_POINTS = {"stripper": (5, "MN-NC3"), "hoopla": (5, "MN-NC5"), "seven": (15, "MN-NC7"),
                  "nine": (20, "MN-NC9")}  # fmt: skip


def _expose(state: State, action: A.Expose, events: Events) -> State:
    purpose = state.purpose
    state = expose(state, action.side, action.owner, action.chip, purpose, events)
    if state.outcome is not None:
        return state
    if purpose == "expo":
        pending = tuple(p for p in state.pending[1:] if state.face_down(p))
        state = replace(state, pending=pending)
        return state if pending else to_guessing(state, events)
    points, rule = _EXPOSE_POINTS[purpose]
    state = _score(state, state.turn, points, rule, events)
    return to_guessing(state, events)


def _decline(state: State, action: A.Decline, events: Events) -> State:
    events.append(E.Declined(action.side))
    return to_guessing(state, events)


def _answer(state: State, action: A.Answer, events: Events) -> State:
    events.append(E.Answered(action.side, state.letter, action.answer))
    return to_guessing(replace(state, answer=action.answer), events)


def _judge_icecq(state: State, action: A.JudgeIcecq, events: Events) -> State:
    events.append(E.IcecqJudged(action.side, action.correct))
    if action.correct:
        return start_guessing(state, events)
    if state.setup.rules.icecq_wrong_answer == "CANCEL_POINTS" and state.codex_points:
        state = _score(state, state.turn, -state.codex_points, "MN-A02", events)
    return end_turn(state, events)


def _guess_value(state: State, side: int) -> int:
    """MN-A14: a player whose word is fully exposed earns 5 a guess (ALL_FIVE)."""
    if state.exposed[side] and state.setup.rules.exposed_guess_value == "ALL_FIVE":
        return 5
    return state.value


def _guess(state: State, action: A.Guess, events: Events) -> State:
    side, owner, chip, guess = action.side, action.owner, action.chip, action.guess
    rules = state.setup.rules
    if state.phase == "pair":
        if state.pair is None:
            events.append(E.PairHalf(side, owner, chip, guess))
            return replace(state, pair=(owner, chip, guess))
        return _judge_pair(state, action, events)
    content = state.chips[owner][chip]
    correct = right(content, guess, rules.joal_guess)
    events.append(E.Guessed(side, owner, chip, guess, correct))
    state = replace(state, guesses=state.guesses + 1)
    if not correct:
        penalty = aha_penalty(content, guess, rules.aha_penalty_trigger)
        state = _score(state, side, -penalty, "MN-SC5", events)
        return end_turn(state, events)
    points = points_for(content, _guess_value(state, side))
    state = _score(state, side, points, "MN-NC1" if state.mode == "mono" else "MN-SC1", events)
    state = expose(state, side, owner, chip, "guess", events)
    if state.outcome is not None:
        return state
    if state.mode == "mono":
        if rules.mono_continue == "ENDS":
            return end_turn(state, events)
        state = replace(state, mode="free", value=5)
    return state


def _judge_pair(state: State, action: A.Guess, events: Events) -> State:
    """TWINNER: both letters right, 20 and guessing goes on at 5; else the turn ends, or
    under ONE_RIGHT_GOES_ON a right one is exposed for 5 and guessing goes on (MN-A05)."""
    assert state.pair is not None
    side = action.side
    rules = state.setup.rules
    halves = (state.pair, (action.owner, action.chip, action.guess))
    events.append(E.PairHalf(side, action.owner, action.chip, action.guess))
    correct = [right(state.chips[o][c], g, rules.joal_guess) for o, c, g in halves]
    state = replace(
        state, pair=None, guesses=state.guesses + 1, mode="free", phase="guess", value=5
    )
    events.append(E.PairJudged(side, all(correct)))
    penalty = sum(
        aha_penalty(state.chips[o][c], g, rules.aha_penalty_trigger) for o, c, g in halves
    )
    state = _score(state, side, -penalty, "MN-SC5", events)
    if all(correct):
        value = 5 if (state.exposed[side] and rules.exposed_guess_value == "ALL_FIVE") else 20
        hyphens = all(state.chips[o][c].shows == HYPHEN for o, c, _ in halves)
        state = _score(state, side, 0 if hyphens else value, "MN-NC2", events)
    elif rules.twinner_fail == "TURN_ENDS" or not any(correct):
        return end_turn(state, events)
    else:
        o, c, _ = halves[correct.index(True)]
        state = _score(state, side, points_for(state.chips[o][c], 5), "MN-A05", events)
    for (o, c, _), ok in zip(halves, correct, strict=True):
        if ok and not state.up[o][c] and state.outcome is None:
            state = expose(state, side, o, c, "guess", events)
    return state


def _guess_word(state: State, action: A.GuessWord, events: Events) -> State:
    side, owner = action.side, action.owner
    word = state.word(owner).word
    correct = same_word(action.word, word)
    events.append(E.WordGuessed(side, owner, action.word.strip().upper(), correct))
    state = replace(state, guesses=state.guesses + 1)
    if not correct:
        return end_turn(state, events)
    return _word_known(state, side, owner, events)


def _describe_word(state: State, action: A.DescribeWord, events: Events) -> State:
    events.append(E.WordDescribed(action.side, action.owner))
    return replace(state, phase="describe", named=action.owner)


def _judge_description(state: State, action: A.JudgeDescription, events: Events) -> State:
    """MN-A16 a: a description the owner agrees identifies the word is a right guess of the
    word; one they do not is a wrong guess, and ends the turn."""
    guesser, owner = state.turn, action.side
    events.append(E.DescriptionJudged(owner, guesser, action.correct))
    state = replace(state, phase="guess", named=None, guesses=state.guesses + 1)
    if not action.correct:
        return end_turn(state, events)
    return _word_known(state, guesser, owner, events)


def _word_known(state: State, side: int, owner: int, events: Events) -> State:
    """`side` named `owner`'s word (MN-SC4): 30 points, and the word is exposed
    (mn.wordGuess.exposes) or, under the house rule, only known."""
    value = (
        5
        if (state.exposed[side] and state.setup.rules.exposed_guess_value == "ALL_FIVE")
        else WORD_POINTS
    )
    state = _score(state, side, value, "MN-SC4", events)
    if not state.setup.rules.word_guess_exposes:
        return replace(state, word_guessed=_set(state.word_guessed, owner, True))
    for j in state.face_down(owner):
        if state.exposed[owner] or state.outcome is not None:
            break
        if state.chips[owner][j].is_letter:
            state = expose(state, side, owner, j, "word", events)
    return state


def _time_expired(state: State, action: A.TimeExpired, events: Events) -> State:
    events.append(E.GuessTimeExpired(action.side))
    return end_turn(state, events)


def _infraction(state: State, action: A.Infraction, events: Events) -> State:
    """MN-SC7: the offender loses the margin between the highest and lowest scores (before
    the infraction) and every remaining turn; the chip stays exposed."""
    side = action.side
    margin = _margin(state)
    events.append(E.InfractionReported(side, action.owner, action.chip))
    state = replace(state, forfeited=_set(state.forfeited, side, True))
    state = _score(state, side, -margin, "MN-SC7", events)
    return expose(state, side, action.owner, action.chip, "infraction", events)


_EFFECTS: dict[type, Callable[[State, Any, Events], State]] = {
    A.LayWord: _lay_word,
    A.Roll: _roll,
    A.NameOpponent: _name_opponent,
    A.Expose: _expose,
    A.Decline: _decline,
    A.ChooseLetter: _choose_letter,
    A.Answer: _answer,
    A.JudgeIcecq: _judge_icecq,
    A.Guess: _guess,
    A.GuessWord: _guess_word,
    A.DescribeWord: _describe_word,
    A.JudgeDescription: _judge_description,
    A.TimeExpired: _time_expired,
    A.Infraction: _infraction,
}


# ------------------------------------------------------------------- expected
_WORDS = {
    "lay_word": "a secret word to be laid",
    "roll": "a roll of the D12",
    "name_opponent": "an opponent to be named",
    "expose": "a chip to be exposed",
    "decline": "declining",
    "choose_letter": "a Letter Codex letter",
    "answer": "an answer",
    "judge_icecq": "the ICECQ answer to be judged",
    "guess": "a guess",
    "guess_word": "a guess of the word",
    "describe_word": "a description of the word",
    "judge_description": "the description to be judged",
    "time_expired": "the guess time running out",
    "infraction": "an infraction",
}

_PROMPTS = {
    "roll": "roll the D12",
    "name": "name an opponent",
    "expose": "expose a chip",
    "choose": "expose one of your chips for points, or decline",
    "letter": "roll or pick the Letter Codex letter",
    "answer": "answer the Letter Codex question",
    "icecq": "the table judges the ICECQ answer",
    "guess": "guess a chip of an opponent's word",
    "pair": "guess two letters at once",
    "describe": "say whether the description names your word",
}


def expected(state: State) -> Expectation | None:
    if state.outcome is not None:
        return None
    who = actor(state)
    kinds = accepted(state)
    prompt = f"{_name(state, who)}: {_PROMPTS.get(state.phase, state.phase)}."
    if state.phase == "lay":
        prompt = laying_prompt(state)
    timed = who if state.phase in ("guess", "pair") and state.setup.guess_seconds else None
    # Each guess is timed on its own (MN-T4): every action taken moves on to the next one.
    return Expectation(who, kinds, (), prompt, timed=timed, move=state.actions)


def laying_prompt(state: State) -> str:
    """Who the table waits for: each lays their word on their own phone (the touchscreen's
    Menu, Phones, shows each player's page)."""
    names = [_name(state, s) for s in state.to_lay]
    if len(names) == 1:
        return f"Waiting for {names[0]} to lay a word on their phone (Menu > Phones)."
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    return f"Waiting for {listed} to lay their words on their phones (Menu > Phones)."


# ---------------------------------------------------------------------- codecs
def state_to_dict(state: State) -> JSON:
    out: JSON = {"setup": state.setup.to_dict()}
    for name in State.__dataclass_fields__:
        if name != "setup":
            out[name] = _plain(getattr(state, name))
    return out


def state_from_dict(data: Mapping[str, Any]) -> State:
    if not isinstance(data, Mapping) or not isinstance(data.get("setup"), Mapping):
        raise BadData("state", "expected an object with a setup")
    try:
        setup = parse_setup(data["setup"])
    except BadSetup as err:
        raise BadData(f"state.setup.{err.field}", err.problem) from None
    hints = typing.get_type_hints(State)
    values: dict[str, Any] = {"setup": setup}
    for name in State.__dataclass_fields__:
        if name == "setup":
            continue
        if name not in data:
            raise BadData(f"state.{name}", "is missing")
        values[name] = parse_value(data[name], hints[name], f"state.{name}")
    n = setup.side_count
    for name in (
        "words",
        "chips",
        "up",
        "scores",
        "exposed",
        "revealed",
        "word_guessed",
        "forfeited",
    ):
        if len(values[name]) != n:
            raise BadData(f"state.{name}", f"needs one entry per player ({n})")
    return State(**values)


def summary(state: State) -> JSON:
    names = state.setup.names
    outcome = state.outcome
    sides = [
        {
            "side": s,
            "name": names[s],
            "total": state.scores[s],
            "exposed": state.exposed[s],
            "forfeited": state.forfeited[s],
            "chips_face_down": len(state.face_down(s)),
        }
        for s in range(state.side_count)
    ]
    lines = [f"MnemoGame, {state.actions} actions, round {state.round}"]
    for s, name in enumerate(names):
        note = " (word exposed)" if state.exposed[s] else ""
        lines.append(f"{name}: {state.scores[s]} points{note}")
    if outcome is None:
        lines.append("The game is not over.")
    elif outcome.winners:
        lines.append("Winner: " + " and ".join(names[w] for w in outcome.winners) + ".")
    else:
        lines.append("No winner: every top scorer misspelt their word.")
    return {
        "game": "mnemo",
        "phase": "over" if outcome else "play",
        "actions": state.actions,
        "turn": state.turn,
        "round": state.round,
        "sides": sides,
        "scores": {
            "sides": [{"side": s["side"], "name": s["name"], "total": s["total"]} for s in sides]
        },
        "outcome": None
        if outcome is None
        else {"winners": list(outcome.winners), "reason": outcome.reason},
        "lines": lines,
    }
