"""MemWars' verdicts (companion/games/verdicts.py) from a game's events: what each side
showed it knew of a card, read only from what every viewer saw.

- A card checked after a maintained challenge (MW-M1..M3): each party right or wrong.
- A claim given up to a challenger (MW-GU): the claimant did not trust its facts, a bluff.
- A challenge forsaken (MW-FS): the challenger did not trust its facts.
- An answer judged (Basic play, lightning rounds, Review): right or wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.games.contract import Event
from companion.games.memwars import events as E
from companion.games.memwars.setup import parse_setup
from companion.games.verdicts import Rating, Verdict

_JUDGED: Mapping[str, tuple[Rating, Rating]] = {
    # outcome -> (the claimant's rating, the challenger's)
    "both_right": ("good", "good"),
    "challenger_right": ("again", "good"),
    "challenger_wrong": ("good", "again"),
    "both_wrong": ("again", "again"),
}


def verdicts(setup: Mapping[str, Any], events: Iterable[tuple[int, Event]]) -> tuple[Verdict, ...]:
    card_at = parse_setup(setup).card_at
    out: list[Verdict] = []
    claimant = challenger = -1
    place = 0
    for seq, event in events:
        match event:
            case E.PlaceClaimed(side=side):
                claimant, challenger = side, -1
            case E.ChallengeDeclared(side=side, place=place):
                challenger = side
            case E.PlaceGivenUp(claimant=side, place=place):
                out.append(Verdict(side, card_at[place], "again", "gave up a claim", seq))
            case E.ChallengeForsaken(side=side) if place:
                out.append(Verdict(side, card_at[place], "again", "forsook a challenge", seq))
            case E.ChallengeJudged(place=place, outcome=outcome) if outcome in _JUDGED:
                card = card_at[place]
                for side, rating in zip((claimant, challenger), _JUDGED[outcome], strict=True):
                    if side >= 0:
                        out.append(Verdict(side, card, rating, _stated(rating), seq))
            case E.AnswerJudged(side=side, card=card, correct=correct):
                said = "answered right" if correct else "answered wrongly"
                out.append(Verdict(side, card, "good" if correct else "again", said, seq))
    return tuple(out)


def _stated(rating: Rating) -> str:
    return "stated its facts rightly" if rating == "good" else "stated its facts wrongly"
