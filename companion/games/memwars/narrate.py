"""Plain-English sentences for MemWars events, for a terminal, a log or a ticker.

Events are public, so their narration is too: nothing here can reveal a hidden value.
"""

from __future__ import annotations

from companion.games.contract import Event
from companion.games.memwars import events as E
from companion.games.memwars.setup import Setup
from companion.games.memwars.state import BOARD

_OUTCOMES = {
    "challenger_right": "the challenger was right",
    "challenger_wrong": "the challenger was wrong",
    "both_wrong": "both were wrong",
    "both_right": "both were right",
}


def narrate(event: Event, setup: Setup, card_name: dict[int, str] | None = None) -> str | None:
    """One sentence for an event, or None for events not worth a line of their own."""

    def who(side: int) -> str:
        if side == BOARD:
            return "the board"
        return setup.sides[side].name if 0 <= side < len(setup.sides) else "nobody"

    def card(number: int) -> str:
        name = (card_name or {}).get(number)
        return f"card {number}" + (f" ({name})" if name else "")

    match event:
        case E.FirstPlayerRolled(rounds=rounds, first=first):
            shown = "; ".join(
                ", ".join(f"{who(i)} {v}" for i, v in enumerate(r) if v) for r in rounds
            )
            return f"Rolls for first player: {shown}. {who(first)} goes first."
        case E.BoardOriented(side=side, north=north):
            return f"{who(side)} turns the board: North faces the {north} edge."
        case E.DepthRolled(rolls=rolls, depth=depth):
            return f"Depth rolled ({', '.join(map(str, rolls))}): facts to depth {depth}."
        case E.DeckShuffled(side=side):
            return f"{who(side)} shuffles the deck."
        case E.CounterPlaced(side=side, place=place):
            return f"{who(side)} puts a counter face down on place {place}."
        case E.PlaceAddressed(side=side, place=place):
            return f"The path sends {who(side)} to place {place}."
        case E.CardPresented(answerer=a, presenter=p, card=c):
            shown = card(c) if c else "a card"
            return f"{who(p)} shows {who(a)} {shown}."
        case E.PlaceClaimed(side=side, place=place):
            return f"{who(side)} claims place {place}."
        case E.TurnPassed(side=side, reason=reason):
            return f"{who(side)} passes ({'time ran out' if reason == 'time' else 'by choice'})."
        case E.ChallengeDeclared(side=side, place=place):
            return f"{who(side)} challenges on place {place}!"
        case E.PlaceGivenUp(claimant=p, challenger=c, place=place):
            return f"{who(p)} gives up place {place} to {who(c)}."
        case E.ChallengeContested(side=side):
            return f"{who(side)} contests."
        case E.ChallengeForsaken(side=side):
            return f"{who(side)} forsakes the challenge."
        case E.ChallengeMaintained(place=place):
            return f"The challenge is maintained: {card(setup.card_at[place])} is checked."
        case E.ChallengeJudged(place=place, outcome=outcome, holder=holder):
            return (
                f"Checked: {_OUTCOMES.get(outcome, outcome)}; place {place} goes to {who(holder)}."
            )
        case E.PieceCaptured(by=by, colour=colour):
            return f"{who(by)} takes a piece of {who(colour)}."
        case E.PiecesRetainedByBoard():
            return "The board keeps both pieces."
        case E.ChallengePieceReplaced(side=side, virtual=virtual):
            return f"{who(side)} draws a replacement challenge piece" + (
                " (virtual)." if virtual else "."
            )
        case E.ReplacementUnavailable(side=side):
            return f"The pool is empty: no replacement for {who(side)}."
        case E.TurnLost(side=side):
            return f"{who(side)} loses their next turn."
        case E.TurnSkipped(side=side, reason=reason):
            return f"{who(side)}'s turn is skipped ({reason})."
        case E.CountersTaken(side=side, place=place, values=values):
            return (
                f"{who(side)} takes the counters on place {place}: {', '.join(map(str, values))}."
            )
        case E.AnswerJudged(side=side, card=c, place=place, correct=correct):
            verdict = "right" if correct else "wrong"
            return f"{who(side)} answers {card(c)}: {verdict}; place {place}."
        case E.CardStudied(side=side, card=c, place=place):
            return f"{who(side)} studies {card(c)} and marks place {place}."
        case E.LightningRoundStarted(round=r, cards=cards):
            return f"Lightning round {r}: {len(cards)} card(s)."
        case E.QuadrantCompleted(quadrant=q, totals=totals, winners=winners):
            name = setup.quadrant_names[q - 1]
            scores = ", ".join(f"{who(i)} {t}" for i, t in enumerate(totals))
            won = " and ".join(who(w) for w in winners) or "nobody"
            return f"Quadrant {q} ({name}) is complete ({scores}): {won} wins it."
        case E.FlagFell(side=side):
            return f"{who(side)}'s flag falls."
        case E.SupplyExhausted(side=side):
            return f"{who(side)} has run out of pieces and plays on with virtual ones."
        case E.GameEnded(winners=winners):
            return f"Game over: {' and '.join(who(w) for w in winners) or 'nobody'} wins."
    return None
