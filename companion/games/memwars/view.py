"""What each viewer may see of a MemWars game.

Built from what each viewer may know, field by field, never by copying the state and
blanking what looks secret. Hidden from spectators and players:
- the values of face-down topology counters (their owner sees them only under house rule
  mw.counters.ownerCanPeek), and which values a side still holds in hand (its owner sees);
- the order of the cards still in the deck;
- the card being answered while finding its place is part of the answer (Review by
  default, Basic under mw.basic.mustLocatePlace): the deck's map from card to place is
  public, so the card's number would tell its place. It is named nowhere (neither as
  `current_card` nor among the cards the rules expect) until it has been judged.
The 'table' viewer (the referee itself) sees everything. tests/memwars/test_view_secrets.py
checks, over random games in every mode, that twins differing only in a hidden fact look
alike to every other viewer.
"""

from __future__ import annotations

from companion.games.contract import JSON, Expectation, Viewer
from companion.games.memwars.scoring import score
from companion.games.memwars.state import NO_CARD, State


def view_state(state: State, viewer: Viewer, expectation: Expectation | None) -> JSON:
    setup = state.setup
    table = viewer == "table"
    peek = setup.rules.owner_can_peek
    places = []
    for number in sorted(setup.in_play):
        place = state.places[number]
        counters = []
        for counter in place.counters:
            visible = counter.face_up or table or (peek and viewer == counter.owner)
            counters.append(
                {
                    "owner": counter.owner,
                    "face_up": counter.face_up,
                    "value": counter.value if visible else None,
                }
            )
        places.append(
            {
                "place": number,
                "card": setup.card_at[number],
                "crystals": list(place.crystals),
                "holder": place.holder,
                "counters": counters,
            }
        )
    sides = []
    for i, (info, side) in enumerate(zip(setup.sides, state.sides, strict=True)):
        own = table or viewer == i
        sides.append(
            {
                "name": info.name,
                "colour": info.colour,
                "members": list(info.members),
                "mode": info.mode.value,
                "depth": setup.depth_of(i, state.depth),
                "supply": side.supply,
                "challenge_pieces": side.challenge_pieces,
                "captured": len(side.captures),
                "board_retained": side.board_retained,
                "lost_turns": side.lost_turns,
                "sitting_out": side.sitting_out,
                "diamonds": list(side.diamonds),
                "counters_in_hand": len(side.counters_left),
                "counter_values_in_hand": sorted(side.counters_left, reverse=True) if own else None,
            }
        )
    secret = frozenset() if table else _secret_cards(state)
    card = NO_CARD if state.current_card in secret else state.current_card
    presenting = state.phase.value == "lightning" or (
        state.turn >= 0 and setup.sides[state.turn].mode.value in ("basic", "review")
    )
    # Basic-style play shows the card's front to the answerer; a Standard path shows only
    # the place unless house rule mw.standardPath.showFront says otherwise (MW-A40).
    front_shown = bool(card) and (presenting or setup.rules.standard_path_show_front)
    pending = state.pending
    return {
        "game": "memwars",
        "viewer": viewer,
        "mode": setup.mode.value,
        "phase": state.phase.value,
        "quadrants": list(setup.quadrants),
        "quadrant_names": list(setup.quadrant_names),
        "north": state.north or None,
        "depth": state.depth or None,
        "topology": setup.topology.value,
        "first_player": state.first_player,
        "turn": state.turn,
        "move": state.move,
        "current_card": card or None,
        "card_front_shown": front_shown,
        "prompts": setup.basic_prompts,
        "pending": None
        if pending is None
        else {
            "place": pending.place,
            "claimant": pending.claimant,
            "challenger": pending.challenger,
            "stage": pending.stage.value,
            "offered_to": pending.offered_to,
        },
        "expected": _expected(expectation, secret),
        "sides": sides,
        "places": places,
        "pool": state.pool,
        "deck_count": len(state.deck),
        "deck": list(state.deck) if table else None,
        "discard": list(state.discard),
        "lightning": list(state.lightning),
        "round_cards": list(state.round_cards),
        "lightning_rounds": state.lightning_rounds,
        "quadrant_results": [
            {
                "quadrant": r.quadrant,
                "totals": list(r.totals),
                "winners": list(r.winners),
                "rank": r.rank,
            }
            for r in state.quadrant_results
        ],
        "scores": score(state).to_dict(),
        "outcome": None
        if state.outcome is None
        else {"winners": list(state.outcome.winners), "reason": state.outcome.reason},
    }


def _secret_cards(state: State) -> frozenset[int]:
    """The cards no viewer but the table may be told of now: the card being answered when
    its place is part of the answer."""
    rules = state.setup.rules
    locating = rules.basic_must_locate_place or (
        state.setup.mode.value == "review" and rules.review_correctness == "PLACE_AND_FACTS"
    )
    if locating and state.current_card != NO_CARD:
        return frozenset({state.current_card})
    return frozenset()


def _expected(expectation: Expectation | None, secret: frozenset[int]) -> JSON | None:
    """What the rules await, as a viewer may know it: the cards expected leave out the
    secret ones (a card reader's scan is checked by the table, which sees them all)."""
    if expectation is None:
        return None
    return {
        "actor": expectation.actor,
        "actions": list(expectation.actions),
        "places": list(expectation.places),
        "prompt": expectation.prompt,
        "timed": expectation.timed,
        "cards": [card for card in expectation.cards if card not in secret],
    }
