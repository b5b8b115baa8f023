"""MeM house rules: every gap or contradiction of the rule book (MEM-A01 .. MEM-A16) as a
named switch with the default of the rules inventory. Set them in a game's setup under
"house_rules"; `companion rules mem` lists them.

    rules = HouseRules.from_dict({"mem.tie": "MORE_CAPTURED"})
    rules.tie                   # 'MORE_CAPTURED'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from companion.games.house_rules import HouseRule, HouseRuleSet, house_rule, rules_of


@dataclass(frozen=True, slots=True)
class HouseRules(HouseRuleSet):
    GAME: ClassVar[str] = "mem"

    board_align: Literal["CENTRED", "FLUSH_LEFT"] = house_rule(
        "CENTRED",
        "mem.board.align",
        "MEM-A01",
        "the 4-square rows are centred (a 6 x 6 board without its corners) / they start at the "
        "left edge (columns 0..3)",
    )

    orientation_frame: Literal["BOARD", "OWNER"] = house_rule(
        "BOARD",
        "mem.orientationFrame",
        "MEM-A02",
        "every pattern is read in the board's frame / the second player's pattern is read from "
        "their side of the table, turned half a circle",
    )

    colour_map_persistent: bool = house_rule(
        False,
        "mem.colourMapPersistent",
        "MEM-A03",
        "what a pattern colour stands for may change from move to move / once every match agrees "
        "that pattern colour X stands for board colour Y, it must do so until the next capture",
    )

    isolation_edge: Literal["EDGE_ISOLATES", "EMPTY_SQUARES_ONLY"] = house_rule(
        "EDGE_ISOLATES",
        "mem.isolation.edge",
        "MEM-A04",
        "the board's rim and cut corners count as empty for isolation / a group touching the rim "
        "is never isolated",
    )

    isolation_connected: bool = house_rule(
        True,
        "mem.isolation.connected",
        "MEM-A05",
        "an isolated group is one connected piece / rule 6 to the letter (each stone next to "
        "another of the set); captures are the same either way",
    )

    dead_pattern_exempt: bool = house_rule(
        True,
        "mem.deadPatternExempt",
        "MEM-A06",
        "a pattern that already matches nothing does not stop the other player's moves / rule 3 "
        "to the letter: nobody may move once a pattern is dead",
    )

    pair_selection: Literal["PAIR", "FIRST_THEN_UNDO"] = house_rule(
        "PAIR",
        "mini.pairSelection",
        "MEM-A07",
        "a Mini-MEM first move is allowed only if a second move can follow it / the first move is "
        "made; if no second can follow it is taken back and the turn is lost",
    )

    cannot_move: Literal["FULL_TURN", "ANY_MOVE"] = house_rule(
        "FULL_TURN",
        "mini.cannotMove",
        "MEM-A08",
        "a Mini-MEM player who cannot make two moves is out and the other plays on / such a "
        "player is skipped turn by turn and is out only when no single move is left (same scores, "
        "different events)",
    )

    block_scope: Literal["GROUP_LOCK", "STONE_THIS_MOVE"] = house_rule(
        "GROUP_LOCK",
        "mem.block.scope",
        "MEM-A09",
        "a block locks the blocker's pattern onto the protected group until their next capture / "
        "a block protects only the pointed-at stone, for this one move",
    )

    block_vs_capture: Literal["MOVES_ONLY", "PROTECTS_GROUP"] = house_rule(
        "MOVES_ONLY",
        "mem.block.vsCapture",
        "MEM-A10",
        "a lock stops moves only; the locked group may still be captured / a locked group cannot "
        "be captured by the other player",
    )

    after_block: Literal["MUST_MOVE_OTHER", "MAY_PASS"] = house_rule(
        "MUST_MOVE_OTHER",
        "mem.block.afterBlock",
        "MEM-A11",
        "a blocked player must make another move if one is legal (else capture or pass as usual) "
        "/ a blocked player may pass instead",
    )

    first_player: Literal["RANDOM", "AGREED"] = house_rule(
        "RANDOM",
        "mem.firstPlayer",
        "MEM-A12",
        "the first player is drawn from the game's seed / the setup names the first player",
    )

    tie: Literal["DRAW", "MORE_CAPTURED"] = house_rule(
        "DRAW",
        "mem.tie",
        "MEM-A13",
        "equal stone counts are a draw / the player with more captured stones wins, and a draw "
        "only if those are equal too",
    )

    capture_then_move: bool = house_rule(
        False,
        "mem.turn.captureThenMove",
        "MEM-A14",
        "a turn is a move, a capture, or a move then a capture / a capture may also be followed "
        "by a move",
    )

    variant_captures: bool = house_rule(
        False,
        "mem.variants.captures",
        "MEM-A15",
        "MEM-Solitaire and Mini-MEM have no captures or blocks / both have them as in the MEM "
        "game (a capture after the turn's moves or instead of them)",
    )

    timeout: Literal["LOSS", "SCORE"] = house_rule(
        "LOSS",
        "mem.timeout",
        "MEM-A16",
        "in a game with a clock, the player whose time runs out loses and the other wins / the "
        "game ends when a time runs out and is scored as it stands, as if nobody could act",
    )


HOUSE_RULES: tuple[HouseRule, ...] = rules_of(HouseRules)
