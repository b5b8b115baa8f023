"""MnemoGame on a drawn table (companion/games/touch.py and drawing.py): each word as a row
of chips, face down or showing what they bear, each player's badge with their score, and
each listed legal action as the taps that make it.

    TOUCH.paths(state, Guess(side=0, owner=1, chip=2, guess="E"))   # (("c1-2", Press("E")),)

Taps: while the players lay their words, "Deal Ada a word" lays the companion's for a
player without a phone (their own is typed on their phone's private page); a chip of an
opponent's word, then the letter guessed (or Hyphen, AHA, JOAL); a chip
to expose; a player's badge to name them; buttons for the roll ("Roll for me", or the face
the die shows), the Letter Codex letter and answers, the ICECQ judgement and declining.
A guess of a whole word is typed on the guesser's phone (its private page); a description
of the word is said aloud ("Describe Bo's word") and its owner taps whether it names the
word. The drawing is made from the public part of a view only, even the table's: a shared
screen never shows a face-down chip. The companion plays and hints from what is public
and from its own word.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.games.contract import JSON, Action
from companion.games.drawing import Drawing, Legend, Spot, Text
from companion.games.mnemo import actions as A
from companion.games.mnemo.legal import legal_actions
from companion.games.mnemo.letters import AHA, HYPHEN, JOAL, NO_VALUE
from companion.games.mnemo.players import unseen
from companion.games.mnemo.state import State
from companion.games.touch import DONE, Hint, Path, Press

WIDTH = 100.0
ROW = 16.0
CHIP_RADIUS = 2.5
FACE_DOWN = "#33415c"
FACE_UP = "#f3ead3"
PLAYER_COLOURS = ("#c8322b", "#2b62c8", "#23914a", "#d89a12", "#7a3fb0", "#1a9aa0")


def chip_key(owner: int, chip: int) -> str:
    return f"c{owner}-{chip}"


def badge_key(side: int) -> str:
    return f"s{side}"


def player_colour(side: int) -> str:
    return PLAYER_COLOURS[side % len(PLAYER_COLOURS)]


def token_label(token: str) -> str:
    return {HYPHEN: "Hyphen"}.get(token, token)


def answer_label(answer: str) -> str:
    """A Letter Codex answer's button: a pantomime's "done" is "Pantomimed", for the touch
    screen's own Done button makes an action whose taps longer ones go on from."""
    label = answer[:1].upper() + answer[1:]
    return "Pantomimed" if label == DONE else label


def roll_label(state: State, face: int | None) -> str:
    if face is None:
        return (
            "Draw for me"
            if state.setup.numbers == "cards" and state.phase == "roll"
            else "Roll for me"
        )
    return f"Rolled {face}"


def deal(names: Sequence[str], seed: int) -> JSON:
    """A setup whose words the companion deals from its list (deal.py), within the box's
    letters (MN-S5): the touch screen's default. The option `words` "phones" has the players
    lay their own on their phones instead."""
    return {"sides": [{"name": name} for name in names], "seed": seed, "words": "dealt"}


def deal_label(state: State, side: int) -> str:
    return f"Deal {state.setup.names[side]} a word"


class MnemoTouch:
    players = (2, 4)
    strengths = (1, 3, 5)
    # Dealt by the companion, or laid by the players on their phones.
    option_rows: tuple[tuple[str, str], ...] = (("Words", "words"), ("Guess time", "guess_seconds"))

    def legal_actions(self, state: Any) -> Sequence[Action]:
        return legal_actions(state)

    def paths(self, state: Any, action: Action) -> tuple[Path, ...]:
        match action:
            case A.LayWord(side=side):
                return ((Press(deal_label(state, side)),),)
            case A.Roll(face=face):
                return ((Press(roll_label(state, face)),),)
            case A.ChooseLetter(letter=letter):
                return ((Press(f"Letter {letter}"),),)
            case A.NameOpponent(owner=owner):
                return ((badge_key(owner),),)
            case A.Expose(owner=owner, chip=chip):
                return ((chip_key(owner, chip),),)
            case A.Decline():
                return ((Press("Decline"),),)
            case A.Answer(answer=answer):
                return ((Press(answer_label(answer)),),)
            case A.JudgeIcecq(correct=correct):
                return ((Press("ICECQ right" if correct else "ICECQ wrong"),),)
            case A.Guess(owner=owner, chip=chip, guess=guess):
                return ((chip_key(owner, chip), Press(token_label(guess))),)
            case A.DescribeWord(owner=owner):
                return ((Press(f"Describe {state.setup.names[owner]}'s word"),),)
            case A.JudgeDescription(correct=correct):
                return ((Press("Description right" if correct else "Description wrong"),),)
            case A.TimeExpired():
                return ((Press("Time's up"),),)
        return ()

    def drawing(self, view: JSON, chosen: Sequence[str], offered: frozenset[str]) -> Drawing:
        sides = view["sides"]
        height = ROW * len(sides) + 10
        spots: list[Spot] = []
        texts: list[Text] = []
        for row, side in enumerate(sides):
            y = 8 + ROW * row
            s = int(side["side"])
            colour = player_colour(s)
            badge = badge_key(s)
            spots.append(
                Spot(
                    badge,
                    (6.0, y),
                    4.0,
                    fill=colour,
                    outline="#202020",
                    label=str(side["score"]),
                    marked=badge in chosen or badge in offered,
                )
            )
            name = side["name"] + (" *" if s == view["turn"] else "")
            texts.append(Text((1.5, y - 5.5), name, 3.0))
            chips = side["chips"]
            step = min(5.8, 84.0 / max(1, len(chips)))
            for chip in chips:
                key = chip_key(s, int(chip["chip"]))
                at = (14.0 + step * int(chip["chip"]), y)
                up = bool(chip["up"])
                spots.append(
                    Spot(
                        key,
                        at,
                        min(CHIP_RADIUS, step * 0.45),
                        fill=FACE_UP if up else FACE_DOWN,
                        outline=colour,
                        label=(chip["shows"] or "") if up else "",
                        marked=key in chosen or key in offered,
                    )
                )
            if side["word"]:
                texts.append(Text((14.0, y + 5.5), str(side["word"]), 2.6))
        caption = f"Round {view['round']}"
        if view["codex"]:
            caption += f": rolled {view['face']}, {view['codex']}"
        if view["question"]:
            caption += f" - {view['letter']}: {view['question']}"
        texts.append(Text((WIDTH / 2, height - 2.0), caption, 2.6))  # centred on its point
        legend = tuple(
            Legend(player_colour(i), line.split(": ", 1)[-1])
            for i, line in enumerate(self.side_lines(view))
        )
        return Drawing(WIDTH, height, (), tuple(spots), tuple(texts), legend)

    def side_lines(self, view: JSON) -> tuple[str, ...]:
        lines = []
        for side in view["sides"]:
            if not side.get("laid", True):
                lines.append(f"{side['name']}: laying a word")
                continue
            down = sum(1 for c in side["chips"] if not c["up"])
            line = f"{side['name']}: {side['score']} points, {down} chips face down"
            if side["exposed"]:
                line += " (exposed)"
            if side["forfeited"]:
                line += " (forfeited)"
            lines.append(line)
        return tuple(lines)

    def opponent_move(self, state: Any, strength: int, rng: random.Random) -> Action:
        return choose(state, strength, rng)[0]

    def hint(self, state: Any) -> Hint:
        action, why = choose(state, 5, random.Random(state.actions))
        return Hint(action, why)

    def setup_for(self, names: Sequence[str], seed: int) -> JSON:
        return deal(names, seed)

    def game_clock(self, setup: JSON) -> JSON | None:
        """With a guess time (MN-T4), every player's clock limits each guess to it and
        keeps no other time: a guess that takes longer forfeits the turn's guessing."""
        seconds = setup.get("guess_seconds") or 0
        if not seconds:
            return None
        sides = len(setup["sides"])
        return {"controls": [f"-!{seconds}"] * sides, "order": list(range(sides))}


def choose(state: State, strength: int, rng: random.Random) -> tuple[Action, str]:
    """The companion's choice and why, from public knowledge and its own word only: guesses
    follow the letters most often still unseen, chips given away are its decoys first."""
    actions = list(legal_actions(state))
    kinds = {a.kind for a in actions}
    if "lay_word" in kinds:
        return actions[0], "Let the companion deal you a word: your phone's page shows it."
    if "guess" in kinds:
        guesses = [a for a in actions if isinstance(a, A.Guess) and a.guess not in (AHA, JOAL)]
        weights = unseen(state)
        if rng.random() < strength / 5:
            best = max(weights.get(a.guess, 0) for a in guesses)
            guess = rng.choice([a for a in guesses if weights.get(a.guess, 0) == best])
            return guess, f"{guess.guess} is the letter with the most chips still unseen."
        return rng.choice(guesses), "Any letter may be there."
    if "roll" in kinds:
        return A.Roll(actions[0].side), "Roll the die."  # type: ignore[attr-defined]
    exposes = [a for a in actions if isinstance(a, A.Expose)]
    if exposes:
        own = [a for a in exposes if a.owner == a.side]
        if own:
            chips = state.chips[own[0].side]
            cheap = [a for a in own if chips[a.chip].kind == "aha"] or [
                a for a in own if chips[a.chip].shows in NO_VALUE
            ]
            if len(state.face_down(own[0].side)) > 2 or "decline" not in kinds:
                return rng.choice(cheap or own), "Give away the chip that tells the least."
            return A.Decline(own[0].side), "Keep your last chips hidden."
        leader = max({a.owner for a in exposes}, key=lambda o: (state.scores[o], -o))
        return rng.choice([a for a in exposes if a.owner == leader]), "Strip the leader's word."
    names = [a for a in actions if isinstance(a, A.NameOpponent)]
    if names:
        return max(names, key=lambda a: (state.scores[a.owner], -a.owner)), "Name the leader."
    judged = [a for a in actions if isinstance(a, A.JudgeIcecq) and a.correct]
    if judged:
        return judged[0], "The table judges the answer."
    if "judge_description" in kinds:
        # The companion hears nothing said at the table: only a word typed on a phone can
        # name its word.
        return A.JudgeDescription(actions[0].side, False), (  # type: ignore[attr-defined]
            "The companion cannot hear a description: type the word on your phone instead."
        )
    other = rng.choice([a for a in actions if not isinstance(a, A.TimeExpired)] or actions)
    return other, "Any answer will do."


TOUCH = MnemoTouch()
