"""memento ludis house rules: every gap or contradiction of the rule book (ML-A01 .. ML-A11)
as a named switch with the default of the rules inventory. Set them in a game's setup
under "house_rules"; `companion rules memento` lists them.

    rules = HouseRules.from_dict({"ml.geometry": "SHARED"})
    rules.geometry              # 'SHARED'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from companion.games.house_rules import HouseRule, HouseRuleSet, check_registry

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "ml.geometry",
        "geometry",
        "ML-A01",
        "SEPARATE",
        ("SHARED",),
        "the four triangles keep their own points, 28 in all, corners meeting in "
        "constellations of three / the triangles share corners and sides, 19 points",
    ),
    HouseRule(
        "ml.lines",
        "lines",
        "ML-A02",
        "MEDIANS",
        ("SPOKES",),
        "lines are the sides and the three medians, each median straight from corner through "
        "the middle to the opposite median point / the sides and six spokes from the middle, "
        "which bend at the middle",
    ),
    HouseRule(
        "ml.wrapCost",
        "wrap_cost",
        "ML-A03",
        "ONE_STEP",
        ("FREE",),
        "leaving the board at a corner and re-entering is one step / it is free: a step may "
        "be taken before or after one transfer",
    ),
    HouseRule(
        "ml.opening",
        "opening",
        "ML-A04",
        "STARTER_ONLY",
        ("EVERYONE",),
        "only the starting player opens by placing one Single on any point / every player's "
        "first action is to place one Single on any empty point",
    ),
    HouseRule(
        "ml.bringIn.points",
        "bring_in_points",
        "ML-A05",
        "OUTER_POINTS",
        ("ENTRY_CORNERS",),
        "brought-in Singles go on any empty non-middle point of the outer triangles / only on "
        "empty corner points of the outer triangles (never the inner triangle's)",
    ),
    HouseRule(
        "ml.turn.kind",
        "turn_kind",
        "ML-A06",
        "ROTATE",
        ("FLIP",),
        "turning a triangle rotates it a third of a turn either way about its middle / it "
        "reflects it in one of its three medians",
    ),
    HouseRule(
        "ml.overflow",
        "overflow",
        "ML-A07",
        "REMOVE_THREE",
        ("CAP_AT_THREE",),
        "a stack of more than 3 stones gives back exactly 3 (4 -> 1, 5 -> 2, 6 -> 3) / it "
        "gives back what is over 3 (4, 5 and 6 all -> 3)",
    ),
    HouseRule(
        "ml.double.cornerStop",
        "corner_stop",
        "ML-A08",
        "ON_BEND",
        ("BEFORE_BEND",),
        "a sliding Double may stop on the point where its line bends / it must stop before "
        "that point (a one-step move may still go there)",
    ),
    HouseRule(
        "ml.elimination",
        "elimination",
        "ML-A09",
        "AFTER_FIRST_FIGURE",
        ("CANNOT_RETURN",),
        "a player is out once they have had a figure on the board and have none / a player "
        "is out when they have no figure and cannot bring figures in",
    ),
    HouseRule(
        "ml.noAction",
        "no_action",
        "ML-A10",
        "PASS",
        ("OUT",),
        "a player with no legal action passes / such a player is out, their figures leave "
        "the board",
    ),
    HouseRule(
        "ml.split.reach",
        "split_reach",
        "ML-A11",
        "ORIGINAL",
        ("OWN_TYPE",),
        "each part of a split goes where the original figure could move / each part goes "
        "where a figure of its own type could move from the original point",
    ),
)

RULES_BY_KEY = {rule.key: rule for rule in HOUSE_RULES}


@dataclass(frozen=True, slots=True)
class HouseRules(HouseRuleSet):
    GAME: ClassVar[str] = "memento"
    RULES: ClassVar[Mapping[str, HouseRule]] = RULES_BY_KEY

    geometry: str = "SEPARATE"
    lines: str = "MEDIANS"
    wrap_cost: str = "ONE_STEP"
    opening: str = "STARTER_ONLY"
    bring_in_points: str = "OUTER_POINTS"
    turn_kind: str = "ROTATE"
    overflow: str = "REMOVE_THREE"
    corner_stop: str = "ON_BEND"
    elimination: str = "AFTER_FIRST_FIGURE"
    no_action: str = "PASS"
    split_reach: str = "ORIGINAL"


check_registry(HouseRules)
