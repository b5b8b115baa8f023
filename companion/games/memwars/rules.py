"""House rules: every gap or contradiction of the rule book as a named switch with a default.

Each switch settles one open question of the rule book, MW-A01 .. MW-A45 (docs/memwars-rules.md).
A ruleset is data:
the engine reads `rules.give_up_points` and never asks which variant it is playing.

    rules = HouseRules.from_dict({"mw.giveUp.points": "ALL_PIECES"})
    rules.give_up_points            # 'ALL_PIECES'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from companion.games.house_rules import HouseRule as HouseRule
from companion.games.house_rules import HouseRuleSet, house_rule, rules_of


def _whole_1_to_24(value: Any) -> str | None:
    """mw.counters.perValueTotal takes any whole number 1..24, not a list of choices; a bool
    is refused although Python counts True as 1."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 24:
        return f"must be a whole number 1..24, got {value!r}"
    return None


@dataclass(frozen=True, slots=True)
class HouseRules(HouseRuleSet):
    GAME: ClassVar[str] = "memwars"

    place1_mapping: Literal["Z_ORDER", "DECK_PERMUTATION"] = house_rule(
        "Z_ORDER",
        "mw.place1Mapping",
        "MW-A01",
        "card n must lie on place n (place 1 is the north-west corner) / the deck's own "
        "card-to-place table is used as printed",
    )

    both_wrong_on_turn_loses_turn: bool = house_rule(
        False,
        "mw.maintainBothWrong.onTurnLosesTurn",
        "MW-A02",
        "when both are wrong nobody loses a turn / the player on turn loses their next turn",
    )

    sides_max: Literal[4, 2] = house_rule(
        4,
        "mw.sides.max",
        "MW-A03",
        "up to 4 sides with virtual colour sets / 2 sides only (teams for more players)",
    )

    challenge_pieces_per_side: Literal["CAPPED", "VIRTUAL_POOL"] = house_rule(
        "CAPPED",
        "mw.challengePiecesPerSide",
        "MW-A04",
        "13 each, or 50 // sides when 13 each would exceed the 50 / 13 each with a virtual pool",
    )

    counters_per_value: int = house_rule(
        12,
        "mw.counters.perValueTotal",
        "MW-A05",
        "counters of each value (5, 3, 2) in the box",
        validate=_whole_1_to_24,
        span="any whole number 1..24",
    )

    counters_abbreviated_scaling: Literal["FORMULA", "ALL"] = house_rule(
        "FORMULA",
        "mw.counters.abbreviatedScaling",
        "MW-A06",
        "competitive counters scale with the quadrants in play, max(1, (12/N)(k/4)) per value / "
        "all counters are shared out whatever the board size",
    )

    forsake_challenge_piece: Literal["STAYS_ON_PLACE", "TO_ON_TURN_PLAYER_HAND"] = house_rule(
        "STAYS_ON_PLACE",
        "mw.forsake.challengePiece",
        "MW-A07",
        "after a forsake the challenge piece stays on the place / it goes to the hand of the "
        "player on turn",
    )

    maintain_challenge_piece: Literal["STAYS_ON_PLACE", "RETURN_OR_POOL"] = house_rule(
        "STAYS_ON_PLACE",
        "mw.maintain.challengePiece",
        "MW-A08",
        "after a maintained challenge the challenge piece stays on the place / it returns to a "
        "winning challenger's hand, or to the pool when the challenger was wrong",
    )

    crystal_count: bool = house_rule(
        True,
        "mw.placeScore.crystalCount",
        "MW-A09",
        "a place's points are multiplied by the crystals on it / a place is worth its base value "
        "(a given-up place still scores a point per piece)",
    )

    give_up_points: Literal["CRYSTALS_AFTER_REMOVAL", "ALL_PIECES"] = house_rule(
        "CRYSTALS_AFTER_REMOVAL",
        "mw.giveUp.points",
        "MW-A10",
        "a given-up place counts the 2 pieces left on it / it counts all 3 pieces that were on it",
    )

    give_up_on_turn_piece: Literal[
        "RETURN_TO_SUPPLY", "TO_CHALLENGER", "TO_CHALLENGER_UNSCORED"
    ] = house_rule(
        "RETURN_TO_SUPPLY",
        "mw.giveUp.onTurnPiece",
        "MW-A11",
        "the giving-up player's piece goes back to their supply / the challenger captures it, +2 "
        "at the end / the challenger captures it, worth nothing at the end (the final scoring's "
        "+2 names rule 2.2 only, and a give-up is rule 2.1)",
    )

    empty_pool_replacement: Literal["NONE", "VIRTUAL"] = house_rule(
        "NONE",
        "mw.pool.emptyReplacement",
        "MW-A12",
        "no replacement when the pool is empty / a virtual replacement piece",
    )

    challenge_must_differ: bool = house_rule(
        True,
        "mw.challenge.mustDiffer",
        "MW-A13",
        "a challenger must state facts that differ from the claim / identical statements may "
        "challenge",
    )

    lost_turn_ineligible_until: Literal["NEXT_ACTUAL_TURN", "SKIP_CONSUMED"] = house_rule(
        "NEXT_ACTUAL_TURN",
        "mw.lostTurn.ineligibleUntil",
        "MW-A14",
        "a player who lost a turn may not challenge until their next real turn starts / only "
        "until the skipped turn has passed",
    )

    challenge_offer: Literal["NEXT_ELIGIBLE_ONLY", "ROUND_ROBIN"] = house_rule(
        "NEXT_ELIGIBLE_ONLY",
        "mw.challenge.offer",
        "MW-A15",
        "only the next eligible player clockwise may challenge / the offer goes round until "
        "someone accepts",
    )

    lightning_order: Literal["PATH_ORDER", "PILE_LIFO", "PILE_FIFO"] = house_rule(
        "PATH_ORDER",
        "mw.lightning.order",
        "MW-A16",
        "lightning cards are re-sorted into path order / last missed first / first missed first",
    )

    lightning_answerer: Literal["ROTATION_CONTINUES", "ORIGINAL_MISSER"] = house_rule(
        "ROTATION_CONTINUES",
        "mw.lightning.answerer",
        "MW-A17",
        "the answering rotation simply continues / each card goes back to who missed it",
    )

    plus2_scope: Literal["ALL_2_2_CAPTURES", "CHALLENGER_WINS_ONLY"] = house_rule(
        "ALL_2_2_CAPTURES",
        "mw.final.plus2Scope",
        "MW-A18",
        "+2 for every piece captured under rule 2.2 / only for pieces a winning challenger took",
    )

    lightning_correct: Literal["REPLACE_MARKER", "ADD_PIECE"] = house_rule(
        "REPLACE_MARKER",
        "mw.lightning.correct",
        "MW-A19",
        "a correct lightning answer replaces the challenge marker / the piece joins it",
    )

    minus3_scope: Literal["OWN_PIECES", "ALL_BOARD_PIECES"] = house_rule(
        "OWN_PIECES",
        "mw.final.minus3Scope",
        "MW-A20",
        "-3 for each of a player's own pieces the board holds / -3 for every piece it holds",
    )

    basic_challenge_markers: Literal["NEUTRAL_UNLIMITED", "FROM_OWN_13"] = house_rule(
        "NEUTRAL_UNLIMITED",
        "mw.basic.challengeMarkers",
        "MW-A21",
        "Basic-mode misses are marked with neutral pieces / with the answerer's own challenge "
        "pieces while they last",
    )

    board_score_mode: Literal["HELD_PLACES", "ZERO", "MIRROR"] = house_rule(
        "HELD_PLACES",
        "mw.board.scoreMode",
        "MW-A22",
        "the board scores the base value of places it holds / scores 0 / also +2 per piece it "
        "retains",
    )

    basic_must_locate_place: bool = house_rule(
        False,
        "mw.basic.mustLocatePlace",
        "MW-A23",
        "in Basic mode the card gives the place / the answerer must also find the place",
    )

    quadrant_tie: Literal["NO_WINNER_NO_RANK", "NO_WINNER_RANK_CONSUMED", "SHARED"] = house_rule(
        "NO_WINNER_NO_RANK",
        "mw.quadrant.tie",
        "MW-A24",
        "a tied quadrant has no winner and uses no bonus / no winner but the bonus rank is used "
        "up / every tied player wins it",
    )

    basic_quadrant_bonus: Literal["OFF", "AT_COMPLETION", "AT_END"] = house_rule(
        "OFF",
        "mw.basic.quadrantBonus",
        "MW-A25",
        "no quadrant bonuses in Basic mode / scored when a quadrant fills / scored at the end",
    )

    bonus_ladder: Literal["ORDINAL", "FIRST_5_LAST_1"] = house_rule(
        "ORDINAL",
        "mw.quadrant.bonusLadder",
        "MW-A26",
        "bonuses 5, 3, 2, 1 by the order quadrants are won / the last quadrant won always gets 1",
    )

    challenge_depth_rule: Literal["OWN_DEPTH", "CLAIM_DEPTH"] = house_rule(
        "OWN_DEPTH",
        "mw.challenge.depthRule",
        "MW-A27",
        "in a maintained challenge each party is judged at their own depth / both at the "
        "claimant's depth",
    )

    depth_roll_mapping: Literal["REROLL", "MIN"] = house_rule(
        "REROLL",
        "mw.depth.rollMapping",
        "MW-A28",
        "a depth roll above the deck's depth is rolled again / it counts as the deck's depth",
    )

    maintain_both_correct: Literal["AS_OUTCOME_2", "AS_FORSAKE"] = house_rule(
        "AS_OUTCOME_2",
        "mw.maintain.bothCorrect",
        "MW-A29",
        "both correct is judged as a failed challenge / as a forsake",
    )

    pattern_diagonals: Literal["LATTICE", "QUINCUNX"] = house_rule(
        "LATTICE",
        "mw.patterns.diagonals",
        "MW-A30",
        "diagonals run through places on the lattice (9 and 18 places) / through whole quincunxes "
        "(15 and 30 places)",
    )

    hybrid_standard_claims: Literal["CHALLENGE_PROTOCOL", "CHECKED_AT_ONCE"] = house_rule(
        "CHALLENGE_PROTOCOL",
        "mw.hybrid.standardClaims",
        "MW-A31",
        "in Hybrid mode Standard claims go through the challenge protocol / each is checked "
        "against its card at once, a miss getting a challenge marker",
    )

    allow_pass: bool = house_rule(
        False,
        "mw.standard.allowPass",
        "MW-A32",
        "the move is forced / a player on turn may pass",
    )

    timer_expiry: Literal["PER_MOVE", "FLAG_LOSES"] = house_rule(
        "PER_MOVE",
        "mw.timer",
        "MW-A33",
        "an expired move timer counts as a wrong answer or a turn without a claim / a fallen flag "
        "loses the game",
    )

    player_tie: Literal["SHARED", "TIEBREAK"] = house_rule(
        "SHARED",
        "mw.final.playerTie",
        "MW-A34",
        "players level on points share the win / quadrants won, then captures, break the tie",
    )

    quadrant_totals: Literal["FULL_SCORE", "BASE_ONLY"] = house_rule(
        "FULL_SCORE",
        "mw.quadrant.totalsInclude",
        "MW-A35",
        "a quadrant is won on full place scores / on base place values",
    )

    path_scope: Literal["ANY_MODE", "BASIC_ALWAYS_FORWARD"] = house_rule(
        "ANY_MODE",
        "mw.path",
        "MW-A36",
        "a chosen path applies in every mode / Basic mode always runs forward",
    )

    multiplier_stacking: Literal["MULTIPLY", "MAX", "ADD"] = house_rule(
        "MULTIPLY",
        "mw.multipliers.stacking",
        "MW-A37",
        "centre-place and centre-quincunx multipliers multiply / the larger applies / they add",
    )

    review_correctness: Literal["PLACE_AND_FACTS", "FACTS_ONLY"] = house_rule(
        "PLACE_AND_FACTS",
        "mw.review.correctness",
        "MW-A38",
        "in review the place and the facts must be right / only the facts",
    )

    review_loop: Literal["KEEP_BOARD", "CLEAR_BOARD"] = house_rule(
        "KEEP_BOARD",
        "mw.review.loop",
        "MW-A39",
        "review passes keep the board / each lightning pass starts from a clear board",
    )

    standard_path_show_front: bool = house_rule(
        False,
        "mw.standardPath.showFront",
        "MW-A40",
        "with a path in Standard mode only the place is shown / the card front is shown too",
    )

    team_answering: Literal["CONFER", "ROTATE"] = house_rule(
        "CONFER",
        "mw.team.answering",
        "MW-A41",
        "team-mates confer and one speaks / team-mates answer in turn without conferring",
    )

    take_mode: Literal["ADD", "REPLACE"] = house_rule(
        "ADD",
        "mw.topology.takeMode",
        "MW-A42",
        "a taken counter adds its value to the place / replaces the place's points",
    )

    multiply_two_counters: Literal["SUM", "PRODUCT"] = house_rule(
        "SUM",
        "mw.topology.multiplyTwoCounters",
        "MW-A43",
        "two counters on a place multiply its points by their sum / by their product",
    )

    owner_can_peek: bool = house_rule(
        False,
        "mw.counters.ownerCanPeek",
        "MW-A44",
        "face-down counters are hidden from everyone / their owner may look",
    )

    supply_exhaustion: Literal["VIRTUAL", "SKIP_SIDE"] = house_rule(
        "VIRTUAL",
        "mw.supply.exhaustion",
        "MW-A45",
        "a side out of pieces plays on with virtual pieces / its turns are skipped",
    )


HOUSE_RULES: tuple[HouseRule, ...] = rules_of(HouseRules)
