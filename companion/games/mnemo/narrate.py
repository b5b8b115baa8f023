"""Plain-English sentences for MnemoGame events, for a ticker, a log or a terminal. They say
only what the events say, and the events never name a face-down chip's content: a wrong
guess is told with the letter guessed, not with what the chip is."""

from __future__ import annotations

from companion.games.contract import Event
from companion.games.mnemo import events as E
from companion.games.mnemo.setup import Setup

_WHY = {
    "stripper": "STRIPPER",
    "tail": "TAIL-ENDERS",
    "hoopla": "HOOPLA",
    "expo": "EXPO",
    "seven": "MAGIC SEVEN",
    "nine": "LUCKY NINE",
    "guess": "a right guess",
    "word": "the word guessed",
    "complete": "the word exposed",
    "infraction": "an infraction",
}
_RULES = {
    "MN-SC1": "a right guess",
    "MN-SC2": "letters left unexposed",
    "MN-SC3": "the word's bonus",
    "MN-SC4": "the word",
    "MN-SC5": "a wrong AHA guess",
    "MN-SC6": "a misspelt word",
    "MN-SC7": "an infraction",
    "MN-A02": "a wrong ICECQ answer",
    "MN-A05": "one right letter of two",
}


def _shown(shows: str) -> str:
    return {"-": "a hyphen", "AHA": "an AHA decoy"}.get(shows, shows)


def _points(n: int) -> str:
    return f"{n} point" + ("" if abs(n) == 1 else "s")


def narrate(event: Event, setup: Setup) -> str | None:
    """One sentence for an event, or None for events not worth a line of their own."""

    def who(side: int) -> str:
        return setup.names[side] if 0 <= side < len(setup.names) else "nobody"

    def whose(owner: int) -> str:
        return f"{who(owner)}'s"

    match event:
        case E.WordsAwaited(sides=sides):
            names = [who(s) for s in sides]
            listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            verb = "lays a secret word" if len(names) == 1 else "lay their secret words"
            return f"MnemoGame begins: {listed} {verb}, face down."
        case E.WordLaid(side=side, chips=chips):
            return f"{who(side)} has laid a word of {chips} chips."
        case E.GameStarted(first=first):
            return f"MnemoGame begins: {who(first)} rolls first."
        case E.TurnStarted(side=side, number=number, round=round_):
            return f"Turn {number}, round {round_}: {who(side)} to roll."
        case E.TurnSkipped(side=side):
            return f"{who(side)} has forfeited their turns and is passed over."
        case E.Rolled(side=side, face=face, codex=codex):
            return f"{who(side)} rolls {face}: {codex}."
        case E.Scored(side=side, points=points, rule=rule, total=total):
            what = _RULES.get(rule, f"the codex ({rule})")
            verb = "scores" if points > 0 else "loses"
            return f"{who(side)} {verb} {_points(abs(points))} for {what}: {total}."
        case E.OpponentNamed(side=side, owner=owner):
            return f"{who(side)} names {who(owner)}."
        case E.ChipExposed(owner=owner, chip=chip, shows=shows, why=why):
            return f"Chip {chip} of {whose(owner)} word is {_shown(shows)} ({_WHY.get(why, why)})."
        case E.NoTailEnders(owner=owner):
            where = f"in {whose(owner)} word" if owner >= 0 else "anywhere"
            return f"No face-down V, W, X or Z {where}."
        case E.Declined(side=side):
            return f"{who(side)} keeps their chips face down and collects nothing."
        case E.LetterDrawn(letter=letter, question=question):
            return f"Letter Codex {letter}: {question}"
        case E.Answered(side=side, answer=answer):
            return f"{who(side)} answers: {answer}."
        case E.IcecqJudged(side=side, correct=correct):
            return f"{who(side)}'s ICECQ answer is {'right' if correct else 'wrong'}."
        case E.Guessed(side=side, owner=owner, chip=chip, guess=guess, right=right):
            said = _shown(guess)
            verdict = "right" if right else "wrong"
            return f"{who(side)} guesses {said} at chip {chip} of {whose(owner)} word: {verdict}."
        case E.PairHalf(side=side, owner=owner, chip=chip, guess=guess):
            return f"{who(side)} names {_shown(guess)} at chip {chip} of {whose(owner)} word."
        case E.PairJudged(side=side, both=both):
            return f"{who(side)}'s two letters are {'both right' if both else 'not both right'}."
        case E.WordGuessed(side=side, owner=owner, word=word, right=right):
            verdict = "right" if right else "wrong"
            return f"{who(side)} guesses {whose(owner)} word is {word}: {verdict}."
        case E.WordDescribed(side=side, owner=owner):
            return f"{who(side)} describes {whose(owner)} word: {who(owner)} judges it."
        case E.DescriptionJudged(side=side, guesser=guesser, right=right):
            verdict = "names it" if right else "does not name it"
            return f"{who(side)} says {whose(guesser)} description {verdict}."
        case E.WordExposed(owner=owner, word=word, misspelt=misspelt):
            spelt = " It is misspelt." if misspelt else ""
            return f"{whose(owner)} word is fully exposed: {word}.{spelt}"
        case E.WordRevealed(owner=owner, word=word, misspelt=misspelt):
            spelt = " It is misspelt." if misspelt else ""
            return f"{whose(owner)} word, never exposed, was {word}.{spelt}"
        case E.GuessTimeExpired(side=side):
            return f"{who(side)}'s time to guess runs out."
        case E.InfractionReported(side=side, owner=owner, chip=chip):
            return f"{who(side)} exposed chip {chip} of {whose(owner)} word out of turn."
        case E.TurnEnded():
            return None
        case E.EndTriggered(last_seat=last):
            return f"All words but one are exposed: the round ends with {who(last)}."
        case E.GameEnded(winners=winners):
            if not winners:
                return "Game over: no winner."
            return "Game over: " + " and ".join(who(w) for w in winners) + " wins."
    return None
