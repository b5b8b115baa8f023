"""What a viewer sees of a game of MnemoGame.

Every row of chips lies on the table, so how many chips each word has is public, and so is
every chip turned face up: what it shows and whether it is a letter, a JOAL or an AHA
decoy. What a face-down chip is, whether a letter, a JOAL or a decoy, is hidden from the
spectator and from every other side (MN-S2): a side's own view adds its own word under
"secret", and the table's (the referee's) adds every word. A word is public once every
letter chip of it is exposed, or the game is over.

While the players lay their words (the 'lay' phase), a word not laid yet has no chips and
`laid` false; one laid shows as face-down chips only, its owner's view adding it under
"secret" as it does a word the setup gave.
"""

from __future__ import annotations

from companion.games.contract import JSON, Expectation, Viewer
from companion.games.mnemo.letters import CODEX, LETTER_CODEX
from companion.games.mnemo.state import State


def view_state(state: State, viewer: Viewer, expectation: Expectation | None) -> JSON:
    setup = state.setup
    n = state.side_count
    sides = []
    for s in range(n):
        public = state.exposed[s] or state.revealed[s]
        word = state.words[s]
        chips: list[JSON] = []
        for j, (chip, up) in enumerate(zip(state.chips[s], state.up[s], strict=True)):
            if up:
                chips.append({"chip": j, "up": True, "shows": chip.shows, "kind": chip.kind})
            else:
                chips.append({"chip": j, "up": False, "shows": None, "kind": None})
        sides.append(
            {
                "side": s,
                "name": setup.names[s],
                "score": state.scores[s],
                "chips": chips,
                "exposed": state.exposed[s],
                "forfeited": state.forfeited[s],
                "laid": word is not None,
                "word": word.word if public and word is not None else None,
                "facts": _facts(state, s) if public else None,
            }
        )
    out: JSON = {
        "game": "mnemo",
        "viewer": viewer,
        "sides": sides,
        "scores": {
            "sides": [
                {"side": s, "name": setup.names[s], "total": state.scores[s]} for s in range(n)
            ]
        },
        "turn": state.turn,
        "turn_number": state.turn_number,
        "round": state.round,
        "first": state.first,
        "phase": state.phase,
        "face": state.face,
        "codex": None if state.face is None else CODEX[state.face],
        "purpose": state.purpose or None,
        "named": state.named,
        "pending": list(state.pending),
        "letter": state.letter or None,
        "question": LETTER_CODEX[state.letter][0] if state.letter else None,
        "answers": list(LETTER_CODEX[state.letter][1]) if state.letter else [],
        "answer": state.answer or None,
        "guesses": state.guesses,
        "pair": None
        if state.pair is None
        else {"owner": state.pair[0], "chip": state.pair[1], "guess": state.pair[2]},
        "value": state.value,
        "numbers": setup.numbers,
        "division": setup.division,
        "icecq": setup.icecq,
        "guess_seconds": setup.guess_seconds,
        "ending": state.ending,
        "last_seat": state.last_seat,
        "expected": expectation.to_dict() if expectation else None,
        "outcome": None
        if state.outcome is None
        else {"winners": list(state.outcome.winners), "reason": state.outcome.reason},
    }
    if viewer == "table":
        out["secret"] = [_secret(state, s) for s in range(n) if state.words[s] is not None]
    elif (
        isinstance(viewer, int)
        and not isinstance(viewer, bool)
        and 0 <= viewer < n
        and state.words[viewer] is not None  # a word not laid yet is nobody's secret
    ):
        out["secret"] = [_secret(state, viewer)]
    return out


def _facts(state: State, side: int) -> JSON:
    facts = state.word(side).facts
    return {
        "spelt": facts.spelt,
        "noun": facts.noun,
        "verb": facts.verb,
        "reversible": facts.reversible,
    }


def _secret(state: State, side: int) -> JSON:
    """What the word's owner knows of it."""
    word = state.word(side)
    return {
        "side": side,
        "word": word.word,
        "spell_from": word.spell_from,
        "chips": [
            {"chip": j, "shows": chip.shows, "kind": chip.kind}
            for j, chip in enumerate(state.chips[side])
        ],
        "facts": _facts(state, side),
    }
