"""memento ludis house rules: every gap or contradiction of the rule book (ML-A01 .. ML-A11)
as a named switch with the default of the rules inventory. Set them in a game's setup
under "house_rules"; `companion rules memento` lists them.

    rules = HouseRules.from_dict({"ml.geometry": "SHARED"})
    rules.geometry              # 'SHARED'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from companion.games.house_rules import HouseRule, HouseRuleSet, house_rule, rules_of


@dataclass(frozen=True, slots=True)
class HouseRules(HouseRuleSet):
    GAME: ClassVar[str] = "memento"

    geometry: Literal["SEPARATE", "SHARED"] = house_rule(
        "SEPARATE",
        "ml.geometry",
        "ML-A01",
        "the four triangles keep their own points, 28 in all, corners meeting in constellations "
        "of three / the triangles share corners and sides, 19 points",
    )

    lines: Literal["MEDIANS", "SPOKES"] = house_rule(
        "MEDIANS",
        "ml.lines",
        "ML-A02",
        "lines are the sides and the three medians, each median straight from corner through the "
        "middle to the opposite median point / the sides and six spokes from the middle, which "
        "bend at the middle",
    )

    wrap_cost: Literal["ONE_STEP", "FREE"] = house_rule(
        "ONE_STEP",
        "ml.wrapCost",
        "ML-A03",
        "leaving the board at a corner and re-entering is one step / it is free: a step may be "
        "taken before or after one transfer",
    )

    opening: Literal["STARTER_ONLY", "EVERYONE"] = house_rule(
        "STARTER_ONLY",
        "ml.opening",
        "ML-A04",
        "only the starting player opens by placing one Single on any point / every player's first "
        "action is to place one Single on any empty point",
    )

    bring_in_points: Literal["OUTER_POINTS", "ENTRY_CORNERS"] = house_rule(
        "OUTER_POINTS",
        "ml.bringIn.points",
        "ML-A05",
        "brought-in Singles go on any empty non-middle point of the outer triangles / only on "
        "empty corner points of the outer triangles (never the inner triangle's)",
    )

    turn_kind: Literal["ROTATE", "FLIP"] = house_rule(
        "ROTATE",
        "ml.turn.kind",
        "ML-A06",
        "turning a triangle rotates it a third of a turn either way about its middle / it "
        "reflects it in one of its three medians",
    )

    overflow: Literal["REMOVE_THREE", "CAP_AT_THREE"] = house_rule(
        "REMOVE_THREE",
        "ml.overflow",
        "ML-A07",
        "a stack of more than 3 stones gives back exactly 3 (4 -> 1, 5 -> 2, 6 -> 3) / it gives "
        "back what is over 3 (4, 5 and 6 all -> 3)",
    )

    corner_stop: Literal["ON_BEND", "BEFORE_BEND"] = house_rule(
        "ON_BEND",
        "ml.double.cornerStop",
        "ML-A08",
        "a sliding Double may stop on the point where its line bends / it must stop before that "
        "point (a one-step move may still go there)",
    )

    elimination: Literal["AFTER_FIRST_FIGURE", "CANNOT_RETURN"] = house_rule(
        "AFTER_FIRST_FIGURE",
        "ml.elimination",
        "ML-A09",
        "a player is out once they have had a figure on the board and have none / a player is out "
        "when they have no figure and cannot bring figures in",
    )

    no_action: Literal["PASS", "OUT"] = house_rule(
        "PASS",
        "ml.noAction",
        "ML-A10",
        "a player with no legal action passes / such a player is out, their figures leave the "
        "board",
    )

    split_reach: Literal["ORIGINAL", "OWN_TYPE"] = house_rule(
        "ORIGINAL",
        "ml.split.reach",
        "ML-A11",
        "each part of a split goes where the original figure could move / each part goes where a "
        "figure of its own type could move from the original point",
    )


HOUSE_RULES: tuple[HouseRule, ...] = rules_of(HouseRules)
