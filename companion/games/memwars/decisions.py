"""The decisions the rules await now, as buttons a screen can show: a label and the action
it submits. A decision that names a place waits for one to be chosen on the board.

    for decision in decisions(state):
        decision.label, decision.needs_place      # 'Claim', True
        decision.action(place=17)                 # Claim(side=0, place=17)

The screen decides nothing: it lists these, and the engine judges what is submitted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.games.contract import Action
from companion.games.memwars import actions as A
from companion.games.memwars import engine
from companion.games.memwars.board import Edge
from companion.games.memwars.state import State


@dataclass(frozen=True, slots=True)
class Decision:
    key: str
    """Stable name for tests and keyboards, e.g. 'claim', 'judge-claimant'."""
    label: str
    make: Callable[[int], Action]
    """The action, from the chosen place (0 when none is needed)."""
    needs_place: bool = False
    danger: bool = False
    """A decision that costs its maker (give up, forsake): shown apart."""

    def action(self, place: int = 0) -> Action:
        return self.make(place)


def decisions(state: State) -> list[Decision]:
    expectation = engine.expected(state)
    if expectation is None:
        return []
    actor = expectation.actor
    kinds = expectation.actions
    out: list[Decision] = []
    if "roll_for_first" in kinds:
        out.append(Decision("roll", "Roll for first", lambda _p: A.RollForFirst()))
    if "orient_board" in kinds:
        for edge in Edge:
            out.append(
                Decision(
                    f"north-{edge.value}",
                    f"North {edge.value}",
                    _orient(actor, edge.value),
                )
            )
    if "roll_depth" in kinds:
        out.append(Decision("roll-depth", "Roll the depth", lambda _p: A.RollDepth()))
    if "shuffle_deck" in kinds:
        out.append(Decision("shuffle", "Deck shuffled", lambda _p: A.ShuffleDeck(actor)))
    if "place_counter" in kinds:
        for value in sorted(set(state.sides[actor].counters_left), reverse=True):
            out.append(
                Decision(
                    f"counter-{value}",
                    f"Counter {value} here",
                    _counter(actor, value),
                    needs_place=True,
                )
            )
    if "study_card" in kinds:
        out.append(Decision("study", "Studied", lambda _p: A.StudyCard(actor)))
    if "claim" in kinds:
        out.append(Decision("claim", "Claim", lambda p: A.Claim(actor, p), needs_place=True))
    if "pass" in kinds:
        out.append(Decision("pass", "Pass", lambda _p: A.Pass(actor)))
    if "challenge" in kinds:
        out.append(Decision("challenge", "Challenge", lambda _p: A.Challenge(actor)))
        out.append(Decision("decline", "No challenge", lambda _p: A.DeclineChallenge(actor)))
    if "give_up" in kinds:
        out.append(Decision("contest", "Contest", lambda _p: A.Contest(actor)))
        out.append(Decision("give-up", "Give up", lambda _p: A.GiveUp(actor), danger=True))
    if "forsake" in kinds:
        out.append(Decision("maintain", "Maintain", lambda _p: A.Maintain(actor)))
        out.append(Decision("forsake", "Forsake", lambda _p: A.Forsake(actor), danger=True))
    if "judge" in kinds:
        for claimant in (True, False):
            for challenger in (True, False):
                key = f"judge-{'r' if claimant else 'w'}{'r' if challenger else 'w'}"
                label = (
                    f"Claim {'right' if claimant else 'wrong'}, "
                    f"challenge {'right' if challenger else 'wrong'}"
                )
                out.append(Decision(key, label, _judge(claimant, challenger)))
    if "answer" in kinds:
        side = state.pending.claimant if state.pending is not None else state.turn
        locate = len(expectation.places) > 1
        out.append(
            Decision(
                "right",
                "Right" if not locate else "Right, here",
                lambda p: A.Answer(side, True, p if locate else 0),
                needs_place=locate,
            )
        )
        out.append(
            Decision(
                "wrong",
                "Wrong",
                lambda p: A.Answer(side, False, p if locate else 0),
                needs_place=locate,
                danger=True,
            )
        )
    return out


def _orient(actor: int, edge: str) -> Callable[[int], Action]:
    return lambda _place: A.OrientBoard(actor, edge)


def _counter(actor: int, value: int) -> Callable[[int], Action]:
    return lambda place: A.PlaceCounter(actor, place, value)


def _judge(claimant: bool, challenger: bool) -> Callable[[int], Action]:
    return lambda _place: A.Judge(claimant, challenger)
