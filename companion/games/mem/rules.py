"""MeM house rules: every gap or contradiction of the rule book (MEM-A01 .. MEM-A15) as a
named switch with the default of the rules inventory. Set them in a game's setup under
"house_rules"; `companion rules mem` lists them.

    rules = HouseRules.from_dict({"mem.tie": "MORE_CAPTURED"})
    rules.tie                   # 'MORE_CAPTURED'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from companion.games.house_rules import HouseRule, HouseRuleSet, check_registry

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "mem.board.align",
        "board_align",
        "MEM-A01",
        "CENTRED",
        ("FLUSH_LEFT",),
        "the 4-square rows are centred (a 6 x 6 board without its corners) / they start at "
        "the left edge (columns 0..3)",
    ),
    HouseRule(
        "mem.orientationFrame",
        "orientation_frame",
        "MEM-A02",
        "BOARD",
        ("OWNER",),
        "every pattern is read in the board's frame / the second player's pattern is read "
        "from their side of the table, turned half a circle",
    ),
    HouseRule(
        "mem.colourMapPersistent",
        "colour_map_persistent",
        "MEM-A03",
        False,
        (True,),
        "what a pattern colour stands for may change from move to move / once every match "
        "agrees that pattern colour X stands for board colour Y, it must do so until the next "
        "capture",
    ),
    HouseRule(
        "mem.isolation.edge",
        "isolation_edge",
        "MEM-A04",
        "EDGE_ISOLATES",
        ("EMPTY_SQUARES_ONLY",),
        "the board's rim and cut corners count as empty for isolation / a group touching "
        "the rim is never isolated",
    ),
    HouseRule(
        "mem.isolation.connected",
        "isolation_connected",
        "MEM-A05",
        True,
        (False,),
        "an isolated group is one connected piece / rule 6 to the letter (each stone next to "
        "another of the set); captures are the same either way",
    ),
    HouseRule(
        "mem.deadPatternExempt",
        "dead_pattern_exempt",
        "MEM-A06",
        True,
        (False,),
        "a pattern that already matches nothing does not stop the other player's moves / "
        "rule 3 to the letter: nobody may move once a pattern is dead",
    ),
    HouseRule(
        "mini.pairSelection",
        "pair_selection",
        "MEM-A07",
        "PAIR",
        ("FIRST_THEN_UNDO",),
        "a Mini-MEM first move is allowed only if a second move can follow it / the first "
        "move is made; if no second can follow it is taken back and the turn is lost",
    ),
    HouseRule(
        "mini.cannotMove",
        "cannot_move",
        "MEM-A08",
        "FULL_TURN",
        ("ANY_MOVE",),
        "a Mini-MEM player who cannot make two moves is out and the other plays on / such a "
        "player is skipped turn by turn and is out only when no single move is left (same "
        "scores, different events)",
    ),
    HouseRule(
        "mem.block.scope",
        "block_scope",
        "MEM-A09",
        "GROUP_LOCK",
        ("STONE_THIS_MOVE",),
        "a block locks the blocker's pattern onto the protected group until their next "
        "capture / a block protects only the pointed-at stone, for this one move",
    ),
    HouseRule(
        "mem.block.vsCapture",
        "block_vs_capture",
        "MEM-A10",
        "MOVES_ONLY",
        ("PROTECTS_GROUP",),
        "a lock stops moves only; the locked group may still be captured / a locked group "
        "cannot be captured by the other player",
    ),
    HouseRule(
        "mem.block.afterBlock",
        "after_block",
        "MEM-A11",
        "MUST_MOVE_OTHER",
        ("MAY_PASS",),
        "a blocked player must make another move if one is legal (else capture or pass as "
        "usual) / a blocked player may pass instead",
    ),
    HouseRule(
        "mem.firstPlayer",
        "first_player",
        "MEM-A12",
        "RANDOM",
        ("AGREED",),
        "the first player is drawn from the game's seed / the setup names the first player",
    ),
    HouseRule(
        "mem.tie",
        "tie",
        "MEM-A13",
        "DRAW",
        ("MORE_CAPTURED",),
        "equal stone counts are a draw / the player with more captured stones wins, and a "
        "draw only if those are equal too",
    ),
    HouseRule(
        "mem.turn.captureThenMove",
        "capture_then_move",
        "MEM-A14",
        False,
        (True,),
        "a turn is a move, a capture, or a move then a capture / a capture may also be "
        "followed by a move",
    ),
    HouseRule(
        "mem.variants.captures",
        "variant_captures",
        "MEM-A15",
        False,
        (True,),
        "MEM-Solitaire and Mini-MEM have no captures or blocks / both have them as in the "
        "MEM game (a capture after the turn's moves or instead of them)",
    ),
)

RULES_BY_KEY = {rule.key: rule for rule in HOUSE_RULES}


@dataclass(frozen=True, slots=True)
class HouseRules(HouseRuleSet):
    GAME: ClassVar[str] = "mem"
    RULES: ClassVar[Mapping[str, HouseRule]] = RULES_BY_KEY

    board_align: str = "CENTRED"
    orientation_frame: str = "BOARD"
    colour_map_persistent: bool = False
    isolation_edge: str = "EDGE_ISOLATES"
    isolation_connected: bool = True
    dead_pattern_exempt: bool = True
    pair_selection: str = "PAIR"
    cannot_move: str = "FULL_TURN"
    block_scope: str = "GROUP_LOCK"
    block_vs_capture: str = "MOVES_ONLY"
    after_block: str = "MUST_MOVE_OTHER"
    first_player: str = "RANDOM"
    tie: str = "DRAW"
    capture_then_move: bool = False
    variant_captures: bool = False


check_registry(HouseRules)
