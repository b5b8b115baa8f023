"""House rules: every gap or contradiction of the rule book as a named switch with a default.

Each switch settles one open question of the rule book, MW-A01 .. MW-A45 (docs/memwars-rules.md).
A ruleset is data:
the engine reads `rules.give_up_points` and never asks which variant it is playing.

    rules = HouseRules.from_dict({"mw.giveUp.points": "ALL_PIECES"})
    rules.give_up_points            # 'ALL_PIECES'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.games.house_rules import HouseRule as HouseRule
from companion.games.house_rules import HouseRuleSet, Validator, check_registry


def _r(
    key: str,
    attribute: str,
    settles: str,
    default: Any,
    alternatives: tuple[Any, ...],
    meaning: str,
    validate: Validator | None = None,
    span: str = "",
) -> HouseRule:
    return HouseRule(key, attribute, settles, default, alternatives, meaning, validate, span)


def _whole_1_to_24(value: Any) -> str | None:
    """mw.counters.perValueTotal takes any whole number 1..24, not a list of choices; a bool
    is refused although Python counts True as 1."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 24:
        return f"must be a whole number 1..24, got {value!r}"
    return None


HOUSE_RULES: tuple[HouseRule, ...] = (
    _r(
        "mw.place1Mapping",
        "place1_mapping",
        "MW-A01",
        "Z_ORDER",
        ("DECK_PERMUTATION",),
        "card n must lie on place n (place 1 is the north-west corner) / the deck's own "
        "card-to-place table is used as printed",
    ),
    _r(
        "mw.maintainBothWrong.onTurnLosesTurn",
        "both_wrong_on_turn_loses_turn",
        "MW-A02",
        False,
        (True,),
        "when both are wrong nobody loses a turn / the player on turn loses their next turn",
    ),
    _r(
        "mw.sides.max",
        "sides_max",
        "MW-A03",
        4,
        (2,),
        "up to 4 sides with virtual colour sets / 2 sides only (teams for more players)",
    ),
    _r(
        "mw.challengePiecesPerSide",
        "challenge_pieces_per_side",
        "MW-A04",
        "CAPPED",
        ("VIRTUAL_POOL",),
        "13 each, or 50 // sides when 13 each would exceed the 50 / 13 each with a virtual pool",
    ),
    _r(
        "mw.counters.perValueTotal",
        "counters_per_value",
        "MW-A05",
        12,
        (),
        "counters of each value (5, 3, 2) in the box",
        _whole_1_to_24,
        "any whole number 1..24",
    ),
    _r(
        "mw.counters.abbreviatedScaling",
        "counters_abbreviated_scaling",
        "MW-A06",
        "FORMULA",
        ("ALL",),
        "competitive counters scale with the quadrants in play, max(1, (12/N)(k/4)) per value "
        "/ all counters are shared out whatever the board size",
    ),
    _r(
        "mw.forsake.challengePiece",
        "forsake_challenge_piece",
        "MW-A07",
        "STAYS_ON_PLACE",
        ("TO_ON_TURN_PLAYER_HAND",),
        "after a forsake the challenge piece stays on the place / it goes to the hand of the "
        "player on turn",
    ),
    _r(
        "mw.maintain.challengePiece",
        "maintain_challenge_piece",
        "MW-A08",
        "STAYS_ON_PLACE",
        ("RETURN_OR_POOL",),
        "after a maintained challenge the challenge piece stays on the place / it returns to "
        "a winning challenger's hand, or to the pool when the challenger was wrong",
    ),
    _r(
        "mw.placeScore.crystalCount",
        "crystal_count",
        "MW-A09",
        True,
        (False,),
        "a place's points are multiplied by the crystals on it / a place is worth its base "
        "value (a given-up place still scores a point per piece)",
    ),
    _r(
        "mw.giveUp.points",
        "give_up_points",
        "MW-A10",
        "CRYSTALS_AFTER_REMOVAL",
        ("ALL_PIECES",),
        "a given-up place counts the 2 pieces left on it / it counts all 3 pieces that were on it",
    ),
    _r(
        "mw.giveUp.onTurnPiece",
        "give_up_on_turn_piece",
        "MW-A11",
        "RETURN_TO_SUPPLY",
        ("TO_CHALLENGER", "TO_CHALLENGER_UNSCORED"),
        "the giving-up player's piece goes back to their supply / the challenger captures it, "
        "+2 at the end / the challenger captures it, worth nothing at the end (the final "
        "scoring's +2 names rule 2.2 only, and a give-up is rule 2.1)",
    ),
    _r(
        "mw.pool.emptyReplacement",
        "empty_pool_replacement",
        "MW-A12",
        "NONE",
        ("VIRTUAL",),
        "no replacement when the pool is empty / a virtual replacement piece",
    ),
    _r(
        "mw.challenge.mustDiffer",
        "challenge_must_differ",
        "MW-A13",
        True,
        (False,),
        "a challenger must state facts that differ from the claim / identical statements may "
        "challenge",
    ),
    _r(
        "mw.lostTurn.ineligibleUntil",
        "lost_turn_ineligible_until",
        "MW-A14",
        "NEXT_ACTUAL_TURN",
        ("SKIP_CONSUMED",),
        "a player who lost a turn may not challenge until their next real turn starts / only "
        "until the skipped turn has passed",
    ),
    _r(
        "mw.challenge.offer",
        "challenge_offer",
        "MW-A15",
        "NEXT_ELIGIBLE_ONLY",
        ("ROUND_ROBIN",),
        "only the next eligible player clockwise may challenge / the offer goes round until "
        "someone accepts",
    ),
    _r(
        "mw.lightning.order",
        "lightning_order",
        "MW-A16",
        "PATH_ORDER",
        ("PILE_LIFO", "PILE_FIFO"),
        "lightning cards are re-sorted into path order / last missed first / first missed first",
    ),
    _r(
        "mw.lightning.answerer",
        "lightning_answerer",
        "MW-A17",
        "ROTATION_CONTINUES",
        ("ORIGINAL_MISSER",),
        "the answering rotation simply continues / each card goes back to who missed it",
    ),
    _r(
        "mw.final.plus2Scope",
        "plus2_scope",
        "MW-A18",
        "ALL_2_2_CAPTURES",
        ("CHALLENGER_WINS_ONLY",),
        "+2 for every piece captured under rule 2.2 / only for pieces a winning challenger took",
    ),
    _r(
        "mw.lightning.correct",
        "lightning_correct",
        "MW-A19",
        "REPLACE_MARKER",
        ("ADD_PIECE",),
        "a correct lightning answer replaces the challenge marker / the piece joins it",
    ),
    _r(
        "mw.final.minus3Scope",
        "minus3_scope",
        "MW-A20",
        "OWN_PIECES",
        ("ALL_BOARD_PIECES",),
        "-3 for each of a player's own pieces the board holds / -3 for every piece it holds",
    ),
    _r(
        "mw.basic.challengeMarkers",
        "basic_challenge_markers",
        "MW-A21",
        "NEUTRAL_UNLIMITED",
        ("FROM_OWN_13",),
        "Basic-mode misses are marked with neutral pieces / with the answerer's own challenge "
        "pieces while they last",
    ),
    _r(
        "mw.board.scoreMode",
        "board_score_mode",
        "MW-A22",
        "HELD_PLACES",
        ("ZERO", "MIRROR"),
        "the board scores the base value of places it holds / scores 0 / also +2 per piece "
        "it retains",
    ),
    _r(
        "mw.basic.mustLocatePlace",
        "basic_must_locate_place",
        "MW-A23",
        False,
        (True,),
        "in Basic mode the card gives the place / the answerer must also find the place",
    ),
    _r(
        "mw.quadrant.tie",
        "quadrant_tie",
        "MW-A24",
        "NO_WINNER_NO_RANK",
        ("NO_WINNER_RANK_CONSUMED", "SHARED"),
        "a tied quadrant has no winner and uses no bonus / no winner but the bonus rank is "
        "used up / every tied player wins it",
    ),
    _r(
        "mw.basic.quadrantBonus",
        "basic_quadrant_bonus",
        "MW-A25",
        "OFF",
        ("AT_COMPLETION", "AT_END"),
        "no quadrant bonuses in Basic mode / scored when a quadrant fills / scored at the end",
    ),
    _r(
        "mw.quadrant.bonusLadder",
        "bonus_ladder",
        "MW-A26",
        "ORDINAL",
        ("FIRST_5_LAST_1",),
        "bonuses 5, 3, 2, 1 by the order quadrants are won / the last quadrant won always gets 1",
    ),
    _r(
        "mw.challenge.depthRule",
        "challenge_depth_rule",
        "MW-A27",
        "OWN_DEPTH",
        ("CLAIM_DEPTH",),
        "in a maintained challenge each party is judged at their own depth / both at the "
        "claimant's depth",
    ),
    _r(
        "mw.depth.rollMapping",
        "depth_roll_mapping",
        "MW-A28",
        "REROLL",
        ("MIN",),
        "a depth roll above the deck's depth is rolled again / it counts as the deck's depth",
    ),
    _r(
        "mw.maintain.bothCorrect",
        "maintain_both_correct",
        "MW-A29",
        "AS_OUTCOME_2",
        ("AS_FORSAKE",),
        "both correct is judged as a failed challenge / as a forsake",
    ),
    _r(
        "mw.patterns.diagonals",
        "pattern_diagonals",
        "MW-A30",
        "LATTICE",
        ("QUINCUNX",),
        "diagonals run through places on the lattice (9 and 18 places) / through whole "
        "quincunxes (15 and 30 places)",
    ),
    _r(
        "mw.hybrid.standardClaims",
        "hybrid_standard_claims",
        "MW-A31",
        "CHALLENGE_PROTOCOL",
        ("CHECKED_AT_ONCE",),
        "in Hybrid mode Standard claims go through the challenge protocol / each is checked "
        "against its card at once, a miss getting a challenge marker",
    ),
    _r(
        "mw.standard.allowPass",
        "allow_pass",
        "MW-A32",
        False,
        (True,),
        "the move is forced / a player on turn may pass",
    ),
    _r(
        "mw.timer",
        "timer_expiry",
        "MW-A33",
        "PER_MOVE",
        ("FLAG_LOSES",),
        "an expired move timer counts as a wrong answer or a turn without a claim / a fallen "
        "flag loses the game",
    ),
    _r(
        "mw.final.playerTie",
        "player_tie",
        "MW-A34",
        "SHARED",
        ("TIEBREAK",),
        "players level on points share the win / quadrants won, then captures, break the tie",
    ),
    _r(
        "mw.quadrant.totalsInclude",
        "quadrant_totals",
        "MW-A35",
        "FULL_SCORE",
        ("BASE_ONLY",),
        "a quadrant is won on full place scores / on base place values",
    ),
    _r(
        "mw.path",
        "path_scope",
        "MW-A36",
        "ANY_MODE",
        ("BASIC_ALWAYS_FORWARD",),
        "a chosen path applies in every mode / Basic mode always runs forward",
    ),
    _r(
        "mw.multipliers.stacking",
        "multiplier_stacking",
        "MW-A37",
        "MULTIPLY",
        ("MAX", "ADD"),
        "centre-place and centre-quincunx multipliers multiply / the larger applies / they add",
    ),
    _r(
        "mw.review.correctness",
        "review_correctness",
        "MW-A38",
        "PLACE_AND_FACTS",
        ("FACTS_ONLY",),
        "in review the place and the facts must be right / only the facts",
    ),
    _r(
        "mw.review.loop",
        "review_loop",
        "MW-A39",
        "KEEP_BOARD",
        ("CLEAR_BOARD",),
        "review passes keep the board / each lightning pass starts from a clear board",
    ),
    _r(
        "mw.standardPath.showFront",
        "standard_path_show_front",
        "MW-A40",
        False,
        (True,),
        "with a path in Standard mode only the place is shown / the card front is shown too",
    ),
    _r(
        "mw.team.answering",
        "team_answering",
        "MW-A41",
        "CONFER",
        ("ROTATE",),
        "team-mates confer and one speaks / team-mates answer in turn without conferring",
    ),
    _r(
        "mw.topology.takeMode",
        "take_mode",
        "MW-A42",
        "ADD",
        ("REPLACE",),
        "a taken counter adds its value to the place / replaces the place's points",
    ),
    _r(
        "mw.topology.multiplyTwoCounters",
        "multiply_two_counters",
        "MW-A43",
        "SUM",
        ("PRODUCT",),
        "two counters on a place multiply its points by their sum / by their product",
    ),
    _r(
        "mw.counters.ownerCanPeek",
        "owner_can_peek",
        "MW-A44",
        False,
        (True,),
        "face-down counters are hidden from everyone / their owner may look",
    ),
    _r(
        "mw.supply.exhaustion",
        "supply_exhaustion",
        "MW-A45",
        "VIRTUAL",
        ("SKIP_SIDE",),
        "a side out of pieces plays on with virtual pieces / its turns are skipped",
    ),
)

RULES_BY_KEY = {rule.key: rule for rule in HOUSE_RULES}


@dataclass(frozen=True, slots=True)
class HouseRules(HouseRuleSet):
    GAME: ClassVar[str] = "memwars"
    RULES: ClassVar[Mapping[str, HouseRule]] = RULES_BY_KEY

    place1_mapping: str = "Z_ORDER"
    both_wrong_on_turn_loses_turn: bool = False
    sides_max: int = 4
    challenge_pieces_per_side: str = "CAPPED"
    counters_per_value: int = 12
    counters_abbreviated_scaling: str = "FORMULA"
    forsake_challenge_piece: str = "STAYS_ON_PLACE"
    maintain_challenge_piece: str = "STAYS_ON_PLACE"
    crystal_count: bool = True
    give_up_points: str = "CRYSTALS_AFTER_REMOVAL"
    give_up_on_turn_piece: str = "RETURN_TO_SUPPLY"
    empty_pool_replacement: str = "NONE"
    challenge_must_differ: bool = True
    lost_turn_ineligible_until: str = "NEXT_ACTUAL_TURN"
    challenge_offer: str = "NEXT_ELIGIBLE_ONLY"
    lightning_order: str = "PATH_ORDER"
    lightning_answerer: str = "ROTATION_CONTINUES"
    plus2_scope: str = "ALL_2_2_CAPTURES"
    lightning_correct: str = "REPLACE_MARKER"
    minus3_scope: str = "OWN_PIECES"
    basic_challenge_markers: str = "NEUTRAL_UNLIMITED"
    board_score_mode: str = "HELD_PLACES"
    basic_must_locate_place: bool = False
    quadrant_tie: str = "NO_WINNER_NO_RANK"
    basic_quadrant_bonus: str = "OFF"
    bonus_ladder: str = "ORDINAL"
    challenge_depth_rule: str = "OWN_DEPTH"
    depth_roll_mapping: str = "REROLL"
    maintain_both_correct: str = "AS_OUTCOME_2"
    pattern_diagonals: str = "LATTICE"
    hybrid_standard_claims: str = "CHALLENGE_PROTOCOL"
    allow_pass: bool = False
    timer_expiry: str = "PER_MOVE"
    player_tie: str = "SHARED"
    quadrant_totals: str = "FULL_SCORE"
    path_scope: str = "ANY_MODE"
    multiplier_stacking: str = "MULTIPLY"
    review_correctness: str = "PLACE_AND_FACTS"
    review_loop: str = "KEEP_BOARD"
    standard_path_show_front: bool = False
    team_answering: str = "CONFER"
    take_mode: str = "ADD"
    multiply_two_counters: str = "SUM"
    owner_can_peek: bool = False
    supply_exhaustion: str = "VIRTUAL"


check_registry(HouseRules)
