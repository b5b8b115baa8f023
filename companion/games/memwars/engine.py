"""The MemWars rule engine: pure functions from (state, action) to (state, events).

    engine = MemWarsEngine()
    state = engine.new_game({"sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": 7})
    state, events = engine.apply(state, RollForFirst())
    engine.expected(state)     # Expectation(actor=1, actions=('orient_board',), ...)

Every refusal is an IllegalAction naming the rule (MW-...) and saying why in one sentence.
Rule ids (MW-...) are listed in docs/memwars-rules.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.codec import parse_value
from companion.games.contract import (
    JSON,
    TABLE,
    Action,
    BadData,
    Event,
    Expectation,
    IllegalAction,
    Viewer,
)
from companion.games.engine_base import EngineBase
from companion.games.memwars import actions as A
from companion.games.memwars import events as E
from companion.games.memwars.board import Edge, quadrant_of, quadrant_places
from companion.games.memwars.scoring import quadrant_total, score
from companion.games.memwars.setup import (
    CHALLENGE_PIECES_IN_BOX,
    COUNTER_VALUES,
    PIECES_PER_SIDE,
    Mode,
    Path,
    Setup,
    Topology,
    parse_setup,
)
from companion.games.memwars.state import (
    BOARD,
    CHALLENGE,
    EMPTY_PLACE,
    NO_CARD,
    NOBODY,
    Capture,
    Counter,
    LastClaim,
    Outcome,
    Pending,
    Phase,
    Place,
    QuadrantResult,
    Side,
    Stage,
    State,
)
from companion.games.memwars.view import view_state

Events = list[Event]


class MemWarsEngine(EngineBase[State]):
    name = "memwars"
    title = "MemWars"
    actions = A.ACTIONS
    events = E.EVENTS

    # ----------------------------------------------------------------- contract
    def new_game(self, setup: Mapping[str, Any]) -> State:
        return new_game(parse_setup(setup))[0]

    def start(self, setup: Mapping[str, Any]) -> tuple[State, tuple[Event, ...]]:
        return new_game(parse_setup(setup))

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        return apply(state, action)

    def expected(self, state: State) -> Expectation | None:
        return expected(state)

    def implied(self, state: State, action: Action) -> Action | None:
        return implied(state, action)

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.OVER

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
    """The first state, and the events of any setup already agreed: with the first player,
    North and the depth given, play starts and the first turn begins at once."""
    n = setup.side_count
    solitaire = setup.mode in (Mode.STUDY, Mode.REVIEW)
    each = 0 if solitaire else setup.challenge_pieces_each()
    pool = CHALLENGE_PIECES_IN_BOX - each * n
    virtual = max(0, -pool)
    places = [EMPTY_PLACE] * 101
    for place, value in setup.standard_counters:
        places[place] = Place(counters=(*places[place].counters, Counter(NOBODY, value, True)))
    hand: tuple[int, ...] = ()
    if setup.topology is Topology.COMPETITIVE:
        k = setup.counters_each_per_value()
        hand = tuple(v for v in COUNTER_VALUES for _ in range(k))
    sides = tuple(
        Side(supply=PIECES_PER_SIDE, challenge_pieces=each, counters_left=hand) for _ in range(n)
    )
    order = setup.path_order()
    state = State(
        setup=setup,
        phase=Phase.ROLL_FIRST,
        places=tuple(places),
        sides=sides,
        pool=max(0, pool),
        virtual_challenge_pieces=virtual,
        first_player=setup.first_player if setup.first_player is not None else NOBODY,
        north=setup.north.value if setup.north else "",
        depth=(setup.depth or 0) if setup.mode is not Mode.STUDY else 1,
        deck=order,
        order=order,
    )
    state, events = _next_setup_step(state, [])
    return state, tuple(events)


# ------------------------------------------------------------------------ apply
def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    if state.phase is Phase.OVER:
        raise IllegalAction("MW-F4", "the game is over")
    side = getattr(action, "side", None)
    if side is not None and not 0 <= side < len(state.sides):
        raise IllegalAction("MW-G4", f"there is no side {side} in this game")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction("MW-G4", f"{action.kind} is not a MemWars action")
    events: Events = []
    new_state = handler(state, action, events)
    return new_state, tuple(events)


def _expect_phase(state: State, phase: Phase, rule: str, what: str) -> None:
    if state.phase is not phase:
        raise IllegalAction(rule, f"{what} is not expected now ({_waiting_for(state)})")


def _waiting_for(state: State) -> str:
    expectation = expected(state)
    return expectation.prompt if expectation else "the game is over"


def _draw(state: State) -> tuple[State, random.Random]:
    """A random source for one action, from the seed and the number of draws so far."""
    rng = random.Random(f"memwars:{state.setup.seed}:{state.rolls}")
    return replace(state, rolls=state.rolls + 1), rng


# ------------------------------------------------------------------------ setup
def _roll_for_first(state: State, action: A.RollForFirst, events: Events) -> State:
    _expect_phase(state, Phase.ROLL_FIRST, "MW-S1", "rolling for the first player")
    state, rng = _draw(state)
    n = len(state.sides)
    contenders = list(range(n))
    rounds = []
    while True:
        rolls = [rng.randint(1, 8) if i in contenders else 0 for i in range(n)]
        rounds.append(tuple(rolls))
        best = max(rolls)
        contenders = [i for i in contenders if rolls[i] == best]
        if len(contenders) == 1:
            break
    first = contenders[0]
    events.append(E.FirstPlayerRolled(tuple(rounds), first))
    return _next_setup_step(replace(state, first_player=first), events)[0]


def _orient(state: State, action: A.OrientBoard, events: Events) -> State:
    _expect_phase(state, Phase.ORIENT, "MW-S3", "orienting the board")
    if action.side != state.second_player:
        raise IllegalAction(
            "MW-S3", f"the second player ({_name(state, state.second_player)}) orients the board"
        )
    try:
        north = Edge(action.north)
    except ValueError:
        raise IllegalAction(
            "MW-B11", f"North must face top, right, bottom or left, not {action.north!r}"
        ) from None
    events.append(E.BoardOriented(action.side, north.value))
    return _next_setup_step(replace(state, north=north.value), events)[0]


def _roll_depth(state: State, action: A.RollDepth, events: Events) -> State:
    _expect_phase(state, Phase.ROLL_DEPTH, "MW-S8", "rolling for the depth")
    state, rng = _draw(state)
    limit = state.setup.max_depth
    rolls = [rng.randint(1, 8)]
    if state.setup.rules.depth_roll_mapping == "REROLL":
        while rolls[-1] > limit:
            rolls.append(rng.randint(1, 8))
        depth = rolls[-1]
    else:
        depth = min(rolls[-1], limit)
    events.append(E.DepthRolled(tuple(rolls), depth))
    return _next_setup_step(replace(state, depth=depth), events)[0]


def _shuffle(state: State, action: A.ShuffleDeck, events: Events) -> State:
    _expect_phase(state, Phase.SHUFFLE, "MW-P3", "shuffling the deck")
    if action.side != state.last_player:
        raise IllegalAction(
            "MW-P3", f"the last player ({_name(state, state.last_player)}) shuffles the deck"
        )
    state, rng = _draw(state)
    deck = list(state.deck)
    rng.shuffle(deck)
    events.append(E.DeckShuffled(action.side))
    state = replace(state, deck=tuple(deck), order=tuple(deck), shuffled=True)
    return _next_setup_step(state, events)[0]


def _place_counter(state: State, action: A.PlaceCounter, events: Events) -> State:
    _expect_phase(state, Phase.PLACE_COUNTERS, "MW-T4", "placing a topology counter")
    if action.side != state.counter_turn:
        raise IllegalAction(
            "MW-T4", f"it is {_name(state, state.counter_turn)}'s turn to place a counter"
        )
    side = state.sides[action.side]
    if action.value not in side.counters_left:
        left = ", ".join(str(v) for v in sorted(set(side.counters_left), reverse=True))
        raise IllegalAction(
            "MW-T3",
            f"{_name(state, action.side)} has no counter of value "
            f"{action.value} left (left: {left})",
        )
    if action.place not in state.setup.in_play:
        raise IllegalAction("MW-B13", f"place {action.place} is not in play")
    place = state.places[action.place]
    if any(c.owner == action.side for c in place.counters):
        raise IllegalAction(
            "MW-T6", f"{_name(state, action.side)} already has a counter on place {action.place}"
        )
    hand = list(side.counters_left)
    hand.remove(action.value)
    state = _set_side(state, action.side, replace(side, counters_left=tuple(hand)))
    counter = Counter(action.side, action.value, False)
    state = _set_place(state, action.place, replace(place, counters=(*place.counters, counter)))
    events.append(E.CounterPlaced(action.side, action.place))
    # Placement alternates clockwise; a side with nothing left is passed over (MW-T4).
    nxt = state.next_side(action.side)
    for _ in range(len(state.sides)):
        if state.sides[nxt].counters_left:
            break
        nxt = state.next_side(nxt)
    return _next_setup_step(replace(state, counter_turn=nxt), events)[0]


def _next_setup_step(state: State, events: Events) -> tuple[State, Events]:
    """Moves to the first setup step still to do, or starts play."""
    setup = state.setup
    if state.first_player == NOBODY:
        return replace(state, phase=Phase.ROLL_FIRST), events
    if not state.north:
        return replace(state, phase=Phase.ORIENT), events
    if state.depth == 0:
        return replace(state, phase=Phase.ROLL_DEPTH), events
    if setup.uses_path and setup.path is Path.RANDOM and not state.shuffled:
        return replace(state, phase=Phase.SHUFFLE), events
    if any(s.counters_left for s in state.sides):
        if state.phase is not Phase.PLACE_COUNTERS:
            state = replace(state, counter_turn=state.second_player)
        return replace(state, phase=Phase.PLACE_COUNTERS), events
    if state.phase in (Phase.PLAY, Phase.LIGHTNING, Phase.OVER):
        return state, events
    events.append(E.PlayStarted(state.first_player))
    state = replace(state, phase=Phase.PLAY)
    return _begin_turn(state, state.first_player, events), events


# ------------------------------------------------------------------------ turns
def _plays_basic(state: State, side: int) -> bool:
    """Whether this side's turns present a card (Basic, Review, a Basic side in Hybrid)."""
    mode = state.setup.mode
    if mode is Mode.HYBRID:
        return state.setup.sides[side].mode is Mode.BASIC
    return mode in (Mode.BASIC, Mode.REVIEW)


def _next_open_card(state: State) -> tuple[State, int]:
    """The next card in deck order whose place is still empty; cards whose place was taken
    meanwhile go to the discard pile (MW-H2)."""
    deck = list(state.deck)
    discard = list(state.discard)
    while deck and state.places[state.setup.place_of[deck[0]]].occupied:
        discard.append(deck.pop(0))
    state = replace(state, deck=tuple(deck), discard=tuple(discard))
    return state, deck[0] if deck else NO_CARD


def _begin_turn(state: State, side: int, events: Events) -> State:
    sides = state.sides
    me = sides[side]
    if me.sitting_out and state.setup.rules.lost_turn_ineligible_until == "NEXT_ACTUAL_TURN":
        state = _set_side(state, side, replace(me, sitting_out=False))
    state = replace(state, turn=side, move=state.move + 1, current_card=NO_CARD)
    events.append(E.TurnStarted(side, state.move))
    mode = state.setup.mode
    if state.phase is Phase.LIGHTNING:
        card = state.round_cards[0]
        return _present(state, side, card, events)
    if mode is Mode.STUDY:
        return replace(state, current_card=state.deck[0])
    if _plays_basic(state, side):
        state, card = _next_open_card(state)
        return _present(state, side, card, events)
    if state.setup.uses_path:
        state, card = _next_open_card(state)
        place = state.setup.place_of[card]
        events.append(E.PlaceAddressed(side, place))
        return replace(state, current_card=card)
    return state


def _present(state: State, answerer: int, card: int, events: Events) -> State:
    presenter = state.next_side(answerer)
    hidden = state.setup.rules.basic_must_locate_place or (
        state.setup.mode is Mode.REVIEW
        and state.setup.rules.review_correctness == "PLACE_AND_FACTS"
    )
    place = state.setup.place_of[card]
    events.append(
        E.CardPresented(answerer, presenter, 0 if hidden else card, 0 if hidden else place)
    )
    return replace(state, current_card=card)


def _advance(state: State, after: int, events: Events) -> State:
    """Passes the turn clockwise from `after`, skipping lost turns (MW-SM6, MW-CH9)."""
    if state.phase is Phase.OVER:
        return state
    members = len(state.setup.sides[after].members)
    if members > 1 and state.setup.rules.team_answering == "ROTATE":
        me = state.sides[after]
        state = _set_side(state, after, replace(me, speaker=(me.speaker + 1) % members))
    candidate = after
    budget = len(state.sides) * (2 + sum(s.lost_turns for s in state.sides))
    for _ in range(budget):
        candidate = state.next_side(candidate)
        side = state.sides[candidate]
        if side.lost_turns > 0:
            lost = side.lost_turns - 1
            out = side.sitting_out
            if lost == 0 and state.setup.rules.lost_turn_ineligible_until == "SKIP_CONSUMED":
                out = False
            state = _set_side(state, candidate, replace(side, lost_turns=lost, sitting_out=out))
            events.append(E.TurnSkipped(candidate, "lost turn"))
            continue
        if _out_of_pieces(state, candidate):
            events.append(E.TurnSkipped(candidate, "no pieces left"))
            continue
        return _begin_turn(state, candidate, events)
    return _end_game(state, "no_player_can_move", events)


def _out_of_pieces(state: State, side: int) -> bool:
    return state.setup.rules.supply_exhaustion == "SKIP_SIDE" and state.sides[side].supply <= 0


# ----------------------------------------------------------------- Standard play
def _claim(state: State, action: A.Claim, events: Events) -> State:
    _expect_phase(state, Phase.PLAY, "MW-SM1", "a claim")
    if (
        state.pending is not None
        or _plays_basic(state, action.side)
        or state.setup.mode is Mode.STUDY
    ):
        raise IllegalAction("MW-SM1", f"a claim is not expected now ({_waiting_for(state)})")
    if action.side != state.turn:
        raise IllegalAction(
            "MW-SM1", f"it is {_name(state, state.turn)}'s turn, not {_name(state, action.side)}'s"
        )
    place = action.place
    if place not in state.setup.in_play:
        raise IllegalAction("MW-B13", f"place {place} is not in play in this game")
    if state.places[place].occupied:
        raise IllegalAction("MW-SM1", f"place {place} is already occupied")
    if state.current_card != NO_CARD:
        forced = state.setup.place_of[state.current_card]
        if place != forced:
            raise IllegalAction("MW-P4", f"the path forces place {forced}, not place {place}")
    state = _take_piece(state, action.side, events)
    state = _set_place(state, place, replace(state.places[place], crystals=(action.side,)))
    if state.current_card != NO_CARD:
        state = replace(
            state,
            deck=state.deck[1:],
            discard=(*state.discard, state.current_card),
            current_card=NO_CARD,
        )
    events.append(E.PlaceClaimed(action.side, place))
    if (
        state.setup.mode is Mode.HYBRID
        and state.setup.rules.hybrid_standard_claims == "CHECKED_AT_ONCE"
    ):
        pending = Pending(place, action.side, NOBODY, Stage.CHECK, TABLE)
        return replace(state, pending=pending, last_claim=LastClaim(place, action.side))
    barred = tuple(
        (i, rule)
        for i in range(len(state.sides))
        if i != action.side and (rule := _barred_by(state, i))
    )
    state = replace(state, last_claim=LastClaim(place, action.side, barred))
    challenger = _next_challenger(state, action.side, (action.side,))
    if challenger == NOBODY:
        return _finish_claim(state, action.side, place, events)
    events.append(E.ChallengeOffered(challenger, place))
    return replace(state, pending=Pending(place, action.side, NOBODY, Stage.WINDOW, challenger))


def _barred_by(state: State, side: int) -> str:
    """The rule that bars this side from challenging now, or "" when it may (MW-CH2, MW-CH3)."""
    me = state.sides[side]
    if state.setup.rules.lost_turn_ineligible_until == "NEXT_ACTUAL_TURN":
        lost = me.sitting_out
    else:
        lost = me.lost_turns > 0
    if lost:
        return "MW-CH2"
    enough = me.supply > 0 or state.setup.rules.supply_exhaustion == "VIRTUAL"
    if me.challenge_pieces <= 0 or not enough:
        return "MW-CH3"
    return ""


def _eligible(state: State, side: int) -> bool:
    """May this side challenge now (MW-CH2, MW-CH3)?"""
    return not _barred_by(state, side)


def _refuse_if_barred(state: State, side: int, declining: bool) -> None:
    """Refuses a challenge, or a decline, from a side that could not challenge the latest
    claim, naming the rule that barred it and why (MW-CH2, MW-A14, MW-CH3)."""
    last = state.last_claim
    if last is None:
        return
    rule = dict(last.barred).get(side, "")
    if not rule:
        return
    who, claimant = _name(state, side), _name(state, last.claimant)
    if rule == "MW-CH2":
        until = (
            "their next turn starts"
            if state.setup.rules.lost_turn_ineligible_until == "NEXT_ACTUAL_TURN"
            else "the turn they lost has been skipped"
        )
        why = (
            f"{who} had lost a turn (a player who lost a turn may not challenge until "
            f"{until}: MW-A14, house rule mw.lostTurn.ineligibleUntil)"
        )
    elif state.sides[side].challenge_pieces <= 0:
        why = f"{who} had no challenge piece left"
    else:
        why = f"{who} had no crystal left to put down (house rule mw.supply.exhaustion)"
    if declining:
        raise IllegalAction(
            rule,
            f"{who} was not offered {claimant}'s claim on place {last.place}, so there is "
            f"nothing to decline: {why}",
        )
    raise IllegalAction(
        rule, f"{who} may not challenge {claimant}'s claim on place {last.place}: {why}"
    )


def _next_challenger(state: State, claimant: int, passed: tuple[int, ...]) -> int:
    """The next eligible player clockwise from `claimant`, not in `passed` (MW-CH4)."""
    candidate = claimant
    for _ in range(len(state.sides) - 1):
        candidate = state.next_side(candidate)
        if candidate not in passed and _eligible(state, candidate):
            return candidate
    return NOBODY


def _pending(state: State, stage: Stage, rule: str, what: str) -> Pending:
    pending = state.pending
    if pending is None or pending.stage is not stage:
        raise IllegalAction(rule, f"{what} is not expected now ({_waiting_for(state)})")
    return pending


def _challenge(state: State, action: A.Challenge, events: Events) -> State:
    if state.pending is None or action.side != state.pending.offered_to:
        _refuse_if_barred(state, action.side, declining=False)
    pending = _pending(state, Stage.WINDOW, "MW-CH1", "a challenge")
    if action.side != pending.offered_to:
        raise IllegalAction(
            "MW-CH1",
            f"only {_name(state, pending.offered_to)}, the next "
            "eligible player, may challenge this claim",
        )
    if not action.differs and state.setup.rules.challenge_must_differ:
        raise IllegalAction(
            "MW-CH5",
            "a challenger must state facts that differ from the "
            "claim (house rule mw.challenge.mustDiffer)",
        )
    state = _take_piece(state, action.side, events)
    me = state.sides[action.side]
    state = _set_side(state, action.side, replace(me, challenge_pieces=me.challenge_pieces - 1))
    place = state.places[pending.place]
    state = _set_place(
        state, pending.place, replace(place, crystals=(*place.crystals, action.side, CHALLENGE))
    )
    events.append(E.ChallengeDeclared(action.side, pending.place))
    return replace(state, pending=replace(pending, challenger=action.side, stage=Stage.RESPONSE))


def _decline(state: State, action: A.DeclineChallenge, events: Events) -> State:
    if state.pending is None or action.side != state.pending.offered_to:
        _refuse_if_barred(state, action.side, declining=True)
    pending = _pending(state, Stage.WINDOW, "MW-CH1", "declining a challenge")
    if action.side != pending.offered_to:
        raise IllegalAction(
            "MW-CH1", f"the challenge is offered to {_name(state, pending.offered_to)}"
        )
    events.append(E.ChallengeDeclined(action.side))
    if state.setup.rules.challenge_offer == "ROUND_ROBIN":
        passed = (*pending.declined, action.side, pending.claimant)
        nxt = _next_challenger(state, action.side, passed)
        if nxt != NOBODY:
            events.append(E.ChallengeOffered(nxt, pending.place))
            return replace(
                state,
                pending=replace(pending, offered_to=nxt, declined=(*pending.declined, action.side)),
            )
    return _finish_claim(state, pending.claimant, pending.place, events)


def _give_up(state: State, action: A.GiveUp, events: Events) -> State:
    pending = _pending(state, Stage.RESPONSE, "MW-CH6", "giving up")
    _check_actor(state, action.side, pending.claimant, "MW-CH6", "answers the challenge")
    return _resolve_give_up(state, pending, events)


def _resolve_give_up(state: State, pending: Pending, events: Events) -> State:
    p, c, number = pending.claimant, pending.challenger, pending.place
    place = state.places[number]
    crystals = list(place.crystals)
    crystals.remove(p)
    if state.setup.rules.give_up_on_turn_piece != "RETURN_TO_SUPPLY":
        state = _capture(state, c, p, "give_up", events)
    else:
        me = state.sides[p]
        state = _set_side(state, p, replace(me, supply=me.supply + 1))
    # "1 point for each of the pieces on the place" holds whether or not crystals count
    # elsewhere (MW-GU3, MW-A09, MW-A10).
    counted = 3 if state.setup.rules.give_up_points == "ALL_PIECES" else len(crystals)
    state = _set_place(state, number, replace(place, crystals=tuple(crystals), counted=counted))
    events.append(E.PlaceGivenUp(p, c, number))
    state = _replace_challenge_piece(state, c, events)
    return _finish_claim(state, p, number, events)


def _contest(state: State, action: A.Contest, events: Events) -> State:
    pending = _pending(state, Stage.RESPONSE, "MW-CH6", "contesting")
    _check_actor(state, action.side, pending.claimant, "MW-CH6", "answers the challenge")
    events.append(E.ChallengeContested(action.side))
    return replace(state, pending=replace(pending, stage=Stage.DECISION))


def _forsake(state: State, action: A.Forsake, events: Events) -> State:
    pending = _pending(state, Stage.DECISION, "MW-FS1", "forsaking")
    _check_actor(state, action.side, pending.challenger, "MW-FS1", "decides to forsake or maintain")
    events.append(E.ChallengeForsaken(action.side))
    return _resolve_forsake(state, pending, "forsake", events)


def _resolve_forsake(state: State, pending: Pending, rule: str, events: Events) -> State:
    p, c, number = pending.claimant, pending.challenger, pending.place
    crystals = list(state.places[number].crystals)
    crystals.remove(c)
    state = _capture(state, p, c, rule, events)
    if state.setup.rules.forsake_challenge_piece == "TO_ON_TURN_PLAYER_HAND":
        crystals.remove(CHALLENGE)
        me = state.sides[p]
        state = _set_side(state, p, replace(me, challenge_pieces=me.challenge_pieces + 1))
    state = _set_place(state, number, replace(state.places[number], crystals=tuple(crystals)))
    return _finish_claim(state, p, number, events)


def _maintain(state: State, action: A.Maintain, events: Events) -> State:
    pending = _pending(state, Stage.DECISION, "MW-CH6", "maintaining")
    _check_actor(state, action.side, pending.challenger, "MW-M1", "decides to forsake or maintain")
    claimant_depth = state.setup.depth_of(pending.claimant, state.depth) or state.depth
    if state.setup.rules.challenge_depth_rule == "CLAIM_DEPTH":
        challenger_depth = claimant_depth
    else:
        challenger_depth = state.setup.depth_of(pending.challenger, state.depth) or state.depth
    events.append(E.ChallengeMaintained(pending.place, claimant_depth, challenger_depth))
    return replace(state, pending=replace(pending, stage=Stage.JUDGEMENT))


def _judge(state: State, action: A.Judge, events: Events) -> State:
    pending = _pending(state, Stage.JUDGEMENT, "MW-M1", "checking the card")
    p, c, number = pending.claimant, pending.challenger, pending.place
    rules = state.setup.rules
    right_p, right_c = action.claimant_correct, action.challenger_correct
    if right_p and right_c:
        if rules.maintain_both_correct == "AS_FORSAKE":
            events.append(E.ChallengeJudged(number, "both_right", p))
            return _resolve_forsake(state, pending, "both_right", events)
        outcome = "challenger_wrong"
        label = "both_right"
    elif right_c:
        outcome = label = "challenger_right"
    elif right_p:
        outcome = label = "challenger_wrong"
    else:
        outcome = label = "both_wrong"
    crystals = list(state.places[number].crystals)
    if outcome == "challenger_right":
        # MW-M1: C takes the place and P's piece; P loses their next turn.
        crystals.remove(p)
        state = _capture(state, c, p, "challenger_right", events)
        if rules.maintain_challenge_piece == "STAYS_ON_PLACE":
            state = _replace_challenge_piece(state, c, events)
        else:
            crystals.remove(CHALLENGE)
            me = state.sides[c]
            state = _set_side(state, c, replace(me, challenge_pieces=me.challenge_pieces + 1))
        state = _lose_turn(state, p, events)
        holder = c
    elif outcome == "challenger_wrong":
        # MW-M2: P keeps the place and takes C's piece; C loses their next turn.
        crystals.remove(c)
        state = _capture(state, p, c, label, events)
        if rules.maintain_challenge_piece != "STAYS_ON_PLACE":
            crystals.remove(CHALLENGE)
            state = _return_challenge_piece(state, NOBODY)
        state = _lose_turn(state, c, events)
        holder = p
    else:
        # MW-M3: the board keeps the challenge piece and both players' pieces.
        crystals = [CHALLENGE]
        for side in (p, c):
            me = state.sides[side]
            state = _set_side(state, side, replace(me, board_retained=me.board_retained + 1))
        events.append(E.PiecesRetainedByBoard((p, c)))
        if rules.both_wrong_on_turn_loses_turn:
            state = _lose_turn(state, p, events)
        holder = BOARD
    state = _set_place(state, number, replace(state.places[number], crystals=tuple(crystals)))
    events.append(E.ChallengeJudged(number, label, holder))
    return _finish_claim(state, p, number, events)


def _finish_claim(state: State, claimant: int, number: int, events: Events) -> State:
    """The protocol is over: counters go to the holder, the quadrant is checked, the game
    ends or the turn passes from the claimant (MW-CH7, MW-CH8)."""
    state = replace(state, pending=None)
    state = _take_counters(state, number, events)
    state = _check_quadrant(state, number, events)
    return _after_turn(state, claimant, events)


def _after_turn(state: State, side: int, events: Events) -> State:
    if all(state.places[p].occupied for p in state.setup.in_play):
        if state.phase is Phase.PLAY and state.lightning and state.setup.mode is not Mode.STANDARD:
            return _start_lightning(state, side, events)
        return _end_game(state, "complete", events)
    return _advance(state, side, events)


def _pass(state: State, action: A.Pass, events: Events) -> State:
    _expect_phase(state, Phase.PLAY, "MW-SM2", "passing")
    if not state.setup.rules.allow_pass:
        raise IllegalAction(
            "MW-SM2",
            "the move is forced: a player on turn may not pass (house rule mw.standard.allowPass)",
        )
    if state.pending is not None or action.side != state.turn or _plays_basic(state, action.side):
        raise IllegalAction("MW-SM2", f"only the player on turn may pass ({_waiting_for(state)})")
    events.append(E.TurnPassed(action.side, "pass"))
    return _advance(replace(state, current_card=NO_CARD), action.side, events)


# --------------------------------------------------------------- presented cards
def _answer(state: State, action: A.Answer, events: Events) -> State:
    if state.phase not in (Phase.PLAY, Phase.LIGHTNING):
        raise IllegalAction("MW-BM3", f"an answer is not expected now ({_waiting_for(state)})")
    if state.pending is not None:
        pending = _pending(state, Stage.CHECK, "MW-BM3", "an answer")
        _check_actor(state, action.side, pending.claimant, "MW-A31", "made the claim checked")
        return _check_claim(state, pending, action, events)
    if (
        state.current_card == NO_CARD
        or state.setup.mode is Mode.STUDY
        or (state.phase is Phase.PLAY and not _plays_basic(state, state.turn))
    ):
        raise IllegalAction("MW-BM3", f"no card is being answered ({_waiting_for(state)})")
    _check_actor(state, action.side, state.turn, "MW-BM1", "answers this card")
    card = state.current_card
    number = state.setup.place_of[card]
    correct = action.correct
    rules = state.setup.rules
    locate = (
        rules.review_correctness == "PLACE_AND_FACTS"
        if state.setup.mode is Mode.REVIEW
        else rules.basic_must_locate_place
    )
    if locate:
        if action.place == 0:
            rule = "MW-SR3" if state.setup.mode is Mode.REVIEW else "MW-BM2"
            raise IllegalAction(rule, "the place is part of the answer: say where the crystal went")
        if action.place not in state.setup.in_play:
            raise IllegalAction("MW-B13", f"place {action.place} is not in play")
        correct = correct and action.place == number
    elif action.place not in (0, number):
        raise IllegalAction(
            "MW-BM3", f"card {card} belongs on place {number}, not place {action.place}"
        )
    events.append(E.AnswerJudged(action.side, card, number, correct))
    first_pass = state.phase is Phase.PLAY
    if first_pass:
        state = replace(
            state,
            first_pass_answers=state.first_pass_answers + 1,
            first_pass_correct=state.first_pass_correct + int(correct),
        )
    state = replace(state, current_card=NO_CARD)
    if first_pass:
        state = replace(state, deck=tuple(c for c in state.deck if c != card))
    else:
        state = replace(state, round_cards=state.round_cards[1:])
    place = state.places[number]
    if correct:
        # A lightning-round success replaces the marker unless it stays (MW-BM8, MW-A19).
        if CHALLENGE in place.crystals and rules.lightning_correct == "REPLACE_MARKER":
            state = _return_challenge_piece(state, place.marker_owner)
            place = replace(place, crystals=(), marker_owner=NOBODY, marker=False)
        state = _take_piece(state, action.side, events)
        place = replace(place, crystals=(*place.crystals, action.side))
        state = _set_place(state, number, place)
        state = replace(
            state,
            discard=(*state.discard, card),
            missed_by=tuple(m for m in state.missed_by if m[0] != card),
        )
        state = _take_counters(state, number, events)
    else:
        if not place.occupied:
            state, owner = _put_marker(state, action.side)
            state = _set_place(
                state,
                number,
                replace(place, crystals=(CHALLENGE,), marker_owner=owner, marker=True),
            )
        missed = (*(m for m in state.missed_by if m[0] != card), (card, action.side))
        state = replace(state, lightning=(*state.lightning, card), missed_by=missed)
    if first_pass and _quadrants_at_completion(state):
        state = _check_quadrant(state, number, events)
    return _after_card(state, action.side, events)


def _quadrants_at_completion(state: State) -> bool:
    mode = state.setup.mode
    if mode is Mode.HYBRID:
        return True
    return mode is Mode.BASIC and state.setup.rules.basic_quadrant_bonus == "AT_COMPLETION"


def _check_claim(state: State, pending: Pending, action: A.Answer, events: Events) -> State:
    """Hybrid under CHECKED_AT_ONCE: a Standard claim is checked at once (MW-A31 b)."""
    number = pending.place
    card = state.setup.card_at[number]
    events.append(E.AnswerJudged(action.side, card, number, action.correct))
    if not action.correct:
        place = state.places[number]
        me = state.sides[action.side]
        state = _set_side(state, action.side, replace(me, supply=me.supply + 1))
        state, owner = _put_marker(state, action.side)
        state = _set_place(
            state,
            number,
            replace(place, crystals=(CHALLENGE,), marker_owner=owner, marker=True),
        )
        missed = (*state.missed_by, (card, action.side))
        state = replace(
            state,
            lightning=(*state.lightning, card),
            missed_by=missed,
            deck=tuple(c for c in state.deck if c != card),
        )
    return _finish_claim(state, pending.claimant, number, events)


def _after_card(state: State, answerer: int, events: Events) -> State:
    if state.phase is Phase.LIGHTNING:
        if state.round_cards:
            return _next_lightning_answerer(state, answerer, events)
        return _start_lightning(state, answerer, events)
    mode = state.setup.mode
    if mode is Mode.HYBRID:
        return _after_turn(state, answerer, events)
    if state.deck:
        return _advance(state, answerer, events)
    return _start_lightning(state, answerer, events)


def _start_lightning(state: State, last: int, events: Events) -> State:
    """Starts the next lightning round, or ends the game (MW-BM7, MW-SR6)."""
    limit = state.setup.lightning_rounds
    if not state.lightning or (limit is not None and state.lightning_rounds >= limit):
        return _end_game(state, "complete", events)
    order = state.setup.rules.lightning_order
    if order == "PATH_ORDER":
        rank = {card: i for i, card in enumerate(state.order)}
        cards = tuple(sorted(state.lightning, key=lambda c: rank.get(c, c)))
    elif order == "PILE_LIFO":
        cards = tuple(reversed(state.lightning))
    else:
        cards = state.lightning
    if state.setup.mode is Mode.REVIEW and state.setup.rules.review_loop == "CLEAR_BOARD":
        state = _clear_board(state)
    rounds = state.lightning_rounds + 1
    state = replace(
        state,
        phase=Phase.LIGHTNING,
        lightning=(),
        round_cards=cards,
        lightning_rounds=rounds,
        pending=None,
        current_card=NO_CARD,
    )
    events.append(E.LightningRoundStarted(rounds, cards))
    return _next_lightning_answerer(state, last, events)


def _next_lightning_answerer(state: State, last: int, events: Events) -> State:
    if state.setup.rules.lightning_answerer == "ORIGINAL_MISSER":
        card = state.round_cards[0]
        missers = dict(state.missed_by)
        if card in missers:
            return _begin_turn(state, missers[card], events)
    return _advance(state, last, events)


def _clear_board(state: State) -> State:
    """House rule mw.review.loop=CLEAR_BOARD: every crystal leaves the board (MW-A39 b)."""
    for number in state.setup.in_play:
        place = state.places[number]
        for crystal in place.crystals:
            if crystal == CHALLENGE:
                state = _return_challenge_piece(state, place.marker_owner)
            else:
                me = state.sides[crystal]
                state = _set_side(state, crystal, replace(me, supply=me.supply + 1))
        if place.crystals:
            state = _set_place(
                state, number, replace(place, crystals=(), marker_owner=NOBODY, marker=False)
            )
    return state


def _study(state: State, action: A.StudyCard, events: Events) -> State:
    _expect_phase(state, Phase.PLAY, "MW-SS1", "studying a card")
    if state.setup.mode is not Mode.STUDY:
        raise IllegalAction("MW-SS1", "cards are studied only in Solitaire study mode")
    _check_actor(state, action.side, state.turn, "MW-SS1", "studies the cards")
    card = state.deck[0]
    number = state.setup.place_of[card]
    state = _take_piece(state, action.side, events)
    state = _set_place(state, number, replace(state.places[number], crystals=(action.side,)))
    state = replace(state, deck=state.deck[1:], discard=(*state.discard, card))
    events.append(E.CardStudied(action.side, card, number))
    if not state.deck:
        return _end_game(state, "complete", events)
    return _advance(state, action.side, events)


# ------------------------------------------------------------------------ timer
def _time_expired(state: State, action: A.TimeExpired, events: Events) -> State:
    if not state.setup.timer:
        raise IllegalAction("MW-G7", "this game is played without a move timer")
    if state.phase not in (Phase.PLAY, Phase.LIGHTNING):
        raise IllegalAction("MW-A33", f"the move timer runs only in play ({_waiting_for(state)})")
    expectation = expected(state)
    answering = (
        expectation is not None
        and expectation.actor == TABLE
        and state.pending is None
        and state.current_card != NO_CARD
        and _presents(state)
        and action.side == state.turn
    )
    # Only a side that owes the next decision can run out of time; the table checking a
    # card is never on the clock.
    if expectation is None or (expectation.actor != action.side and not answering):
        raise IllegalAction(
            "MW-A33", f"{_name(state, action.side)} has no move to time out ({_waiting_for(state)})"
        )
    if state.setup.rules.timer_expiry == "FLAG_LOSES":
        events.append(E.FlagFell(action.side))
        winners = tuple(i for i in range(len(state.sides)) if i != action.side)
        return _end_game(state, "flag", events, winners=winners)
    pending = state.pending
    if pending is None and state.current_card != NO_CARD and _presents(state):
        if action.side != state.turn:
            raise IllegalAction("MW-A33", f"{_name(state, state.turn)} is answering")
        return (
            _answer(state, A.Answer(action.side, False, 0), events)
            if not _locates(state)
            else _answer(state, A.Answer(action.side, False, _wrong_place(state)), events)
        )
    if pending is None:
        if action.side != state.turn:
            raise IllegalAction("MW-A33", f"it is {_name(state, state.turn)}'s turn")
        events.append(E.TurnPassed(action.side, "time"))
        return _advance(replace(state, current_card=NO_CARD), action.side, events)
    if pending.stage is Stage.WINDOW and action.side == pending.offered_to:
        return _decline(state, A.DeclineChallenge(action.side), events)
    if pending.stage is Stage.RESPONSE and action.side == pending.claimant:
        return _resolve_give_up(state, pending, events)
    if pending.stage is Stage.DECISION and action.side == pending.challenger:
        return _resolve_forsake(state, pending, "forsake", events)
    raise IllegalAction(
        "MW-A33", f"{_name(state, action.side)} has no move to time out ({_waiting_for(state)})"
    )


def _presents(state: State) -> bool:
    return state.phase is Phase.LIGHTNING or _plays_basic(state, state.turn)


def _locates(state: State) -> bool:
    rules = state.setup.rules
    if state.setup.mode is Mode.REVIEW:
        return rules.review_correctness == "PLACE_AND_FACTS"
    return rules.basic_must_locate_place


def _wrong_place(state: State) -> int:
    right = state.setup.place_of[state.current_card]
    return (
        next(p for p in sorted(state.setup.in_play) if p != right)
        if len(state.setup.in_play) > 1
        else right
    )


# ------------------------------------------------------------- pieces and places
def _set_place(state: State, number: int, place: Place) -> State:
    places = state.places
    return replace(state, places=(*places[:number], place, *places[number + 1 :]))


def _set_side(state: State, index: int, side: Side) -> State:
    sides = state.sides
    return replace(state, sides=(*sides[:index], side, *sides[index + 1 :]))


def _take_piece(state: State, side: int, events: Events, *, strict: bool = True) -> State:
    """One of the side's crystals leaves its supply (MW-A45 when there is none).

    `strict=False` is for a piece the rules owe rather than a move the side makes (a claim
    diamond): it is issued as a virtual piece even where an empty supply bars moves.
    """
    me = state.sides[side]
    if me.supply > 0:
        return _set_side(state, side, replace(me, supply=me.supply - 1))
    if strict and state.setup.rules.supply_exhaustion == "SKIP_SIDE":
        raise IllegalAction("MW-A45", f"{_name(state, side)} has no pieces left")
    if me.virtual_pieces == 0:
        events.append(E.SupplyExhausted(side, True))
    return _set_side(state, side, replace(me, virtual_pieces=me.virtual_pieces + 1))


def _capture(state: State, by: int, colour: int, rule: str, events: Events) -> State:
    me = state.sides[by]
    state = _set_side(state, by, replace(me, captures=(*me.captures, Capture(colour, rule))))
    events.append(E.PieceCaptured(by, colour, rule))
    return state


def _lose_turn(state: State, side: int, events: Events) -> State:
    me = state.sides[side]
    events.append(E.TurnLost(side))
    return _set_side(state, side, replace(me, lost_turns=me.lost_turns + 1, sitting_out=True))


def _replace_challenge_piece(state: State, side: int, events: Events) -> State:
    """A successful challenger draws a challenge piece from the pool (MW-GU4, MW-A12)."""
    me = state.sides[side]
    if state.pool > 0:
        state = replace(state, pool=state.pool - 1)
        events.append(E.ChallengePieceReplaced(side, False))
    elif state.setup.rules.empty_pool_replacement == "VIRTUAL":
        state = replace(state, virtual_challenge_pieces=state.virtual_challenge_pieces + 1)
        events.append(E.ChallengePieceReplaced(side, True))
    else:
        events.append(E.ReplacementUnavailable(side))
        return state
    return _set_side(state, side, replace(me, challenge_pieces=me.challenge_pieces + 1))


def _put_marker(state: State, side: int) -> tuple[State, int]:
    """A challenge piece marks a missed card's place (MW-BM3, MW-A21)."""
    me = state.sides[side]
    if state.setup.rules.basic_challenge_markers == "FROM_OWN_13" and me.challenge_pieces > 0:
        return _set_side(state, side, replace(me, challenge_pieces=me.challenge_pieces - 1)), side
    if state.pool > 0:
        return replace(state, pool=state.pool - 1), NOBODY
    return replace(state, virtual_challenge_pieces=state.virtual_challenge_pieces + 1), NOBODY


def _return_challenge_piece(state: State, owner: int) -> State:
    if owner >= 0:
        me = state.sides[owner]
        return _set_side(state, owner, replace(me, challenge_pieces=me.challenge_pieces + 1))
    if state.virtual_challenge_pieces > 0:
        return replace(state, virtual_challenge_pieces=state.virtual_challenge_pieces - 1)
    return replace(state, pool=state.pool + 1)


def _take_counters(state: State, number: int, events: Events) -> State:
    """The holder of a won place takes its counters, which turn face up (MW-T7)."""
    place = state.places[number]
    holder = place.holder
    if holder < 0 or not place.counters:
        return state
    counters = tuple(replace(c, face_up=True) for c in place.counters)
    events.append(E.CountersTaken(holder, number, tuple(c.value for c in counters)))
    return _set_place(state, number, replace(place, counters=counters, counters_taken=True))


def _check_quadrant(state: State, number: int, events: Events) -> State:
    """Scores a quadrant once, when its last place fills (MW-Q1..Q4)."""
    quadrant = quadrant_of(number)
    if quadrant not in state.setup.quadrants:
        return state
    if any(r.quadrant == quadrant for r in state.quadrant_results):
        return state
    if not all(state.places[p].occupied for p in quadrant_places(quadrant)):
        return state
    return _score_quadrant(state, quadrant, events)


def _score_quadrant(state: State, quadrant: int, events: Events) -> State:
    setup = state.setup
    totals = tuple(quadrant_total(setup, state, i, quadrant) for i in range(len(state.sides)))
    best = max(totals)
    leaders = tuple(i for i, t in enumerate(totals) if t == best) if best > 0 else ()
    winners: tuple[int, ...] = ()
    rank = -1
    if len(leaders) == 1 or (leaders and setup.rules.quadrant_tie == "SHARED"):
        winners, rank = leaders, state.ranks_used
    elif leaders and setup.rules.quadrant_tie == "NO_WINNER_RANK_CONSUMED":
        rank = state.ranks_used
    if rank >= 0:
        state = replace(state, ranks_used=state.ranks_used + 1)
    for winner in winners:
        state = _take_piece(state, winner, events, strict=False)
        me = state.sides[winner]
        state = _set_side(state, winner, replace(me, diamonds=(*me.diamonds, quadrant)))
    result = QuadrantResult(quadrant, totals, winners, rank)
    events.append(E.QuadrantCompleted(quadrant, totals, winners, rank))
    return replace(state, quadrant_results=(*state.quadrant_results, result))


def _end_game(
    state: State, reason: str, events: Events, winners: tuple[int, ...] | None = None
) -> State:
    if state.setup.mode is Mode.BASIC and state.setup.rules.basic_quadrant_bonus == "AT_END":
        for quadrant in state.setup.quadrants:
            if all(state.places[p].occupied for p in quadrant_places(quadrant)):
                state = _score_quadrant(state, quadrant, events)
    state = replace(
        state, phase=Phase.OVER, pending=None, current_card=NO_CARD, turn=NOBODY, round_cards=()
    )
    if winners is None:
        winners = score(state).leaders
    events.append(E.GameEnded(winners, reason))
    return replace(state, outcome=Outcome(winners, reason))


# ------------------------------------------------------------------ what's next
def expected(state: State) -> Expectation | None:
    phase = state.phase
    if phase is Phase.OVER:
        return None
    if phase is Phase.ROLL_FIRST:
        return Expectation(
            TABLE, ("roll_for_first",), (), "Every player rolls the D8 for first turn."
        )
    if phase is Phase.ORIENT:
        second = state.second_player
        return Expectation(
            second, ("orient_board",), (), f"{_name(state, second)} chooses where North faces."
        )
    if phase is Phase.ROLL_DEPTH:
        return Expectation(TABLE, ("roll_depth",), (), "Roll the D8 for the depth.")
    if phase is Phase.SHUFFLE:
        last = state.last_player
        return Expectation(last, ("shuffle_deck",), (), f"{_name(state, last)} shuffles the deck.")
    if phase is Phase.PLACE_COUNTERS:
        side = state.counter_turn
        free = tuple(
            p
            for p in sorted(state.setup.in_play)
            if all(c.owner != side for c in state.places[p].counters)
        )
        return Expectation(
            side,
            ("place_counter",),
            free,
            f"{_name(state, side)} places a topology counter face down.",
        )
    timer = ("time_expired",) if state.setup.timer else ()
    pending = state.pending
    if pending is not None:
        place = (pending.place,)
        if pending.stage is Stage.WINDOW:
            who = pending.offered_to
            return Expectation(
                who,
                ("challenge", "decline_challenge", *timer),
                place,
                f"{_name(state, who)} may challenge the claim on place {pending.place}.",
                timed=who,
            )
        if pending.stage is Stage.RESPONSE:
            who = pending.claimant
            return Expectation(
                who,
                ("give_up", "contest", *timer),
                place,
                f"{_name(state, who)} gives up or contests place {pending.place}.",
                timed=who,
            )
        if pending.stage is Stage.DECISION:
            who = pending.challenger
            return Expectation(
                who,
                ("forsake", "maintain", *timer),
                place,
                f"{_name(state, who)} forsakes or maintains the challenge.",
                timed=who,
            )
        if pending.stage is Stage.JUDGEMENT:
            return Expectation(
                TABLE,
                ("judge",),
                place,
                f"Check card {state.setup.card_at[pending.place]}: who was right?",
                cards=(state.setup.card_at[pending.place],),
            )
        return Expectation(
            TABLE,
            ("answer",),
            place,
            f"Check {_name(state, pending.claimant)}'s claim on place "
            f"{pending.place} against its card.",
            cards=(state.setup.card_at[pending.place],),
        )
    side = state.turn
    if state.setup.mode is Mode.STUDY:
        return Expectation(
            side,
            ("study_card",),
            (state.setup.place_of[state.current_card],),
            f"Read card {state.current_card} and place its crystal.",
            timed=side,
            cards=(state.current_card,),
        )
    if _presents(state):
        card_place = state.setup.place_of[state.current_card]
        places = tuple(sorted(state.setup.in_play)) if _locates(state) else (card_place,)
        speaker = _speaker(state, side)
        # When finding the place is part of the answer, the card's number would give it away.
        shown = "the card shown" if _locates(state) else f"card {state.current_card}"
        return Expectation(
            TABLE,
            ("answer", *timer),
            places,
            f"{speaker} answers {shown}; was the answer right?",
            timed=side,
            cards=(state.current_card,),
        )
    if state.current_card != NO_CARD:
        places = (state.setup.place_of[state.current_card],)
    else:
        places = tuple(p for p in sorted(state.setup.in_play) if not state.places[p].occupied)
    allowed = ("claim", "pass", *timer) if state.setup.rules.allow_pass else ("claim", *timer)
    return Expectation(
        side,
        allowed,
        places,
        f"{_speaker(state, side)} claims a place and states its facts.",
        timed=side,
        cards=(state.current_card,) if state.current_card != NO_CARD else (),
    )


_WINDOW_ACTIONS = frozenset({"challenge", "decline_challenge", "time_expired"})


def implied(state: State, action: Action) -> Action | None:
    """The decline a hand-written record may leave out (docs/game-record.md).

    While a claim is offered for challenge, any line but a challenge, a decline or a time-out
    shows that the side offered it did not challenge: that side's decline is implied. It is
    exactly the decline the record could have written, whatever the house rules; under
    mw.challenge.offer=ROUND_ROBIN the reader asks again and declines for each side still
    offered the claim in turn.
    """
    pending = state.pending
    if state.phase is Phase.OVER or pending is None or pending.stage is not Stage.WINDOW:
        return None
    if action.kind in _WINDOW_ACTIONS:
        return None
    return A.DeclineChallenge(pending.offered_to)


def _speaker(state: State, side: int) -> str:
    team = state.setup.sides[side]
    if len(team.members) > 1 and state.setup.rules.team_answering == "ROTATE":
        return f"{team.members[state.sides[side].speaker]} ({team.name})"
    return team.name


def _name(state: State, side: int) -> str:
    if side == TABLE:
        return "the table"
    if 0 <= side < len(state.setup.sides):
        return state.setup.sides[side].name
    return "nobody"


def _check_actor(state: State, side: int, wanted: int, rule: str, role: str) -> None:
    if side != wanted:
        raise IllegalAction(rule, f"{_name(state, wanted)} {role}, not {_name(state, side)}")


# --------------------------------------------------------------- serialisation
_STATE_SKIP = {"setup"}


def state_to_dict(state: State) -> JSON:
    from companion.games.codec import _plain

    out: JSON = {"setup": state.setup.to_dict()}
    for name in State.__dataclass_fields__:
        if name not in _STATE_SKIP:
            out[name] = _plain(getattr(state, name))
    return out


def state_from_dict(data: Mapping[str, Any]) -> State:
    import typing

    if not isinstance(data, Mapping) or not isinstance(data.get("setup"), Mapping):
        raise BadData("state", "expected an object with a setup")
    setup = parse_setup(data["setup"])
    hints = typing.get_type_hints(State)
    values: dict[str, Any] = {"setup": setup}
    for name in State.__dataclass_fields__:
        if name in _STATE_SKIP:
            continue
        if name not in data:
            raise BadData(f"state.{name}", "is missing")
        values[name] = parse_value(data[name], hints[name], f"state.{name}")
    return State(**values)


def summary(state: State) -> JSON:
    breakdown = score(state)
    return {
        "game": "memwars",
        "mode": state.setup.mode.value,
        "phase": state.phase.value,
        "move": state.move,
        "sides": [s.name for s in state.setup.sides],
        "scores": breakdown.to_dict(),
        "quadrants": [
            {
                "quadrant": r.quadrant,
                "totals": list(r.totals),
                "winners": list(r.winners),
                "rank": r.rank,
            }
            for r in state.quadrant_results
        ],
        "review": {
            "first_pass_answers": state.first_pass_answers,
            "first_pass_correct": state.first_pass_correct,
            "lightning_rounds": state.lightning_rounds,
        },
        "outcome": None
        if state.outcome is None
        else {"winners": list(state.outcome.winners), "reason": state.outcome.reason},
    }


_HANDLERS: dict[type, Any] = {
    A.RollForFirst: _roll_for_first,
    A.OrientBoard: _orient,
    A.RollDepth: _roll_depth,
    A.ShuffleDeck: _shuffle,
    A.PlaceCounter: _place_counter,
    A.Claim: _claim,
    A.Pass: _pass,
    A.Challenge: _challenge,
    A.DeclineChallenge: _decline,
    A.GiveUp: _give_up,
    A.Contest: _contest,
    A.Forsake: _forsake,
    A.Maintain: _maintain,
    A.Judge: _judge,
    A.Answer: _answer,
    A.StudyCard: _study,
    A.TimeExpired: _time_expired,
}
