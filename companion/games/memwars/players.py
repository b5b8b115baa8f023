"""Simulated MemWars players and a simulated table, for demos, tests and benchmarks.

A simulated player knows each card's facts with its recall rate, is confidently wrong about
some of the rest and unsure of the others, and plays accordingly: it claims what it
believes it knows, bluffs when it must, challenges statements that differ from its own,
gives up bluffs it is caught on. The table judges from the truth the simulation holds.

    table = SimulatedTable(state.setup, recalls=(0.85, 0.6), seed=7)
    action = table.next_action(state, engine.expected(state))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from companion.games.contract import TABLE, Action, Expectation
from companion.games.memwars import actions as A
from companion.games.memwars.board import Edge
from companion.games.memwars.scoring import base_value
from companion.games.memwars.setup import Setup
from companion.games.memwars.state import NO_CARD, State


class Belief(Enum):
    KNOWS = "knows"
    WRONG = "wrong"
    """Confidently wrong: states a wrong fact with conviction."""
    UNSURE = "unsure"


@dataclass(frozen=True)
class SimulatedPlayer:
    recall: float
    beliefs: dict[int, Belief]
    """card number -> what this player holds about it."""

    @staticmethod
    def make(setup: Setup, recall: float, rng: random.Random) -> SimulatedPlayer:
        beliefs = {}
        for card in sorted(c.number for c in setup.cards):
            roll = rng.random()
            if roll < recall:
                beliefs[card] = Belief.KNOWS
            elif roll < recall + (1 - recall) / 2:
                beliefs[card] = Belief.WRONG
            else:
                beliefs[card] = Belief.UNSURE
        return SimulatedPlayer(recall, beliefs)

    def believes(self, card: int) -> bool:
        return self.beliefs[card] is not Belief.UNSURE

    def right(self, card: int) -> bool:
        return self.beliefs[card] is Belief.KNOWS


class SimulatedTable:
    """Decides every action a game expects, for every player and for the table."""

    def __init__(self, setup: Setup, recalls: Sequence[float], seed: int) -> None:
        if len(recalls) != len(setup.sides):
            raise ValueError("one recall rate per side")
        self.rng = random.Random(f"players:{seed}")
        self.players = [SimulatedPlayer.make(setup, r, self.rng) for r in recalls]
        self.setup = setup
        self.bluffed: set[int] = set()
        """Places claimed on a bluff that looked unsure to the table."""

    def next_action(self, state: State, expectation: Expectation) -> Action:
        kind = expectation.actions[0] if len(expectation.actions) == 1 else None
        actor = expectation.actor
        pending = state.pending
        setup = state.setup
        if "roll_for_first" in expectation.actions:
            return A.RollForFirst()
        if "orient_board" in expectation.actions:
            return A.OrientBoard(actor, self.rng.choice([e.value for e in Edge]))
        if "roll_depth" in expectation.actions:
            return A.RollDepth()
        if "shuffle_deck" in expectation.actions:
            return A.ShuffleDeck(actor)
        if "place_counter" in expectation.actions:
            return self._place_counter(state, actor, expectation.places)
        if "study_card" in expectation.actions:
            return A.StudyCard(actor)
        if "claim" in expectation.actions:
            return A.Claim(actor, self._choose_place(state, actor, expectation.places))
        if pending is not None:
            card = setup.card_at[pending.place]
            claimant = self.players[pending.claimant]
            if "challenge" in expectation.actions:
                return self._challenge_or_not(actor, card, pending.place)
            if "give_up" in expectation.actions:
                if claimant.believes(card) or self.rng.random() < 0.3:
                    return A.Contest(actor)
                return A.GiveUp(actor)
            if "forsake" in expectation.actions:
                if self.players[actor].believes(card) or self.rng.random() < 0.25:
                    return A.Maintain(actor)
                return A.Forsake(actor)
            if "judge" in expectation.actions:
                challenger = self.players[pending.challenger]
                return A.Judge(
                    self._answers_right(claimant, card), self._answers_right(challenger, card)
                )
            if "answer" in expectation.actions:
                return A.Answer(pending.claimant, self._answers_right(claimant, card))
        if "answer" in expectation.actions and state.current_card != NO_CARD:
            card = state.current_card
            player = self.players[state.turn]
            right = self._answers_right(player, card)
            place = 0
            if len(expectation.places) > 1:
                true_place = setup.place_of[card]
                place = (
                    true_place
                    if right or self.rng.random() < 0.5
                    else self.rng.choice(
                        [p for p in expectation.places if p != true_place] or [true_place]
                    )
                )
            return A.Answer(state.turn, right, place)
        raise ValueError(f"the simulation cannot decide {kind or expectation.actions}")

    def _answers_right(self, player: SimulatedPlayer, card: int) -> bool:
        if player.right(card):
            return True
        lucky = player.beliefs[card] is Belief.UNSURE and self.rng.random() < 0.1
        # Whoever sees a card checked learns it often enough that lightning rounds end.
        if self.rng.random() < 0.5:
            player.beliefs[card] = Belief.KNOWS
        return lucky

    def _choose_place(self, state: State, side: int, places: tuple[int, ...]) -> int:
        if len(places) == 1:
            return places[0]
        player = self.players[side]
        setup = state.setup
        known = [p for p in places if player.believes(setup.card_at[p])]
        if known and self.rng.random() > 0.12:
            best = max(_value(state, p) for p in known)
            top = [p for p in known if _value(state, p) == best]
            return self.rng.choice(top)
        choice = self.rng.choice(places)
        self.bluffed.add(choice)
        return choice

    def _challenge_or_not(self, side: int, card: int, place: int) -> Action:
        me = self.players[side]
        claimant_unsure = place in self.bluffed
        if me.believes(card):
            # A challenger hears the claim; it challenges what differs from its own belief.
            claimant = [p for p in self.players if p is not me]
            differs = claimant_unsure or any(
                p.beliefs[card] is not me.beliefs[card] or p.beliefs[card] is Belief.WRONG
                for p in claimant
            )
            if differs and self.rng.random() < 0.9:
                return A.Challenge(side)
        elif claimant_unsure and self.rng.random() < 0.25:
            return A.Challenge(side)
        return A.DeclineChallenge(side)

    def _place_counter(self, state: State, side: int, places: tuple[int, ...]) -> Action:
        hand = state.sides[side].counters_left
        value = max(hand)
        player = self.players[side]
        setup = state.setup
        known = [p for p in places if player.right(setup.card_at[p])]
        place = self.rng.choice(known or list(places))
        return A.PlaceCounter(side, place, value)


def _value(state: State, place: int) -> int:
    base = base_value(state.setup, place)
    return base + sum(c.value for c in state.places[place].counters if c.face_up)


def random_legal_action(state: State, expectation: Expectation, rng: random.Random) -> Action:
    """Any action the expectation allows, with random arguments (for property tests)."""
    kind = rng.choice(expectation.actions)
    actor = expectation.actor
    places = expectation.places
    if kind == "roll_for_first":
        return A.RollForFirst()
    if kind == "orient_board":
        return A.OrientBoard(actor, rng.choice([e.value for e in Edge]))
    if kind == "roll_depth":
        return A.RollDepth()
    if kind == "shuffle_deck":
        return A.ShuffleDeck(actor)
    if kind == "place_counter":
        return A.PlaceCounter(
            actor, rng.choice(places), rng.choice(state.sides[actor].counters_left)
        )
    if kind == "study_card":
        return A.StudyCard(actor)
    if kind == "claim":
        return A.Claim(actor, rng.choice(places))
    if kind == "pass":
        return A.Pass(actor)
    if kind in ("challenge", "decline_challenge", "give_up", "contest", "forsake", "maintain"):
        make: dict[str, Callable[[int], Action]] = {
            "challenge": A.Challenge,
            "decline_challenge": A.DeclineChallenge,
            "give_up": A.GiveUp,
            "contest": A.Contest,
            "forsake": A.Forsake,
            "maintain": A.Maintain,
        }
        return make[kind](actor)
    if kind == "judge":
        return A.Judge(rng.random() < 0.5, rng.random() < 0.5)
    if kind == "answer":
        side = state.pending.claimant if state.pending is not None else state.turn
        place = rng.choice(places) if len(places) > 1 else 0
        return A.Answer(side, rng.random() < 0.6, place)
    if kind == "time_expired":
        side = actor if actor != TABLE else state.turn
        return A.TimeExpired(side)
    raise ValueError(f"unknown action kind {kind}")
