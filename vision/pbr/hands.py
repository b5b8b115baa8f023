"""A player's hand and arm as simple solids: fingers, thumb and palm as capsules, the
forearm as a thick capsule rising towards the elbow, and a sleeve over it; sometimes a
crystal pinched between the fingertips.

Built in board millimetres with heights above the table, from the truth's Hand: the
fingertips at `tip`, the arm running off in direction `angle`, the palm `height` above the
board. Sizes scale with the hand's width.

    parts, held = hand_parts(hand, crystal_height=5.6)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.geometry import Board
from vision.synth.scene import Hand

Point3 = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class Capsule:
    start: Point3
    end: Point3
    """Board millimetres and height above the table."""
    radius: float
    material: str
    """'skin' or 'sleeve'."""


@dataclass(frozen=True, slots=True)
class Held:
    colour: str
    centre: tuple[float, float]
    base: float
    """Height of its foot above the table."""


def hand_parts(hand: Hand, crystal_height: float) -> tuple[tuple[Capsule, ...], Held | None]:
    scale = hand.width / 85.0
    angle = math.radians(hand.angle)
    back = np.array([math.cos(angle), math.sin(angle)])
    side = np.array([-back[1], back[0]])
    tip = np.array(hand.tip, np.float64)
    palm_height = hand.height
    tip_height = max(crystal_height + 3.0, 0.35 * palm_height)

    def at(along: float, across: float, height: float) -> Point3:
        x, y = tip + back * along * scale + side * across * scale
        return (float(x), float(y), float(height))

    parts: list[Capsule] = []
    finger = 7.5 * scale
    for across, short in ((-21.0, 10.0), (-7.0, 0.0), (7.0, 2.0), (21.0, 8.0)):
        parts.append(
            Capsule(
                at(short + 2, across * 0.7, tip_height + finger),
                at(38, across, palm_height - 4),
                finger,
                "skin",
            )
        )
    parts.append(
        Capsule(at(14, 30, tip_height + 12), at(52, 30, palm_height - 8), 9 * scale, "skin")
    )
    for across in (-20.0, -7.0, 7.0, 20.0):
        parts.append(
            Capsule(at(40, across, palm_height), at(88, across * 0.9, palm_height + 8), 11 * scale,
                    "skin")
        )  # fmt: skip
    parts.append(
        Capsule(at(95, 0, palm_height + 10), at(300, 0, palm_height + 140), 30 * scale, "skin")
    )
    cuff = 180.0 + 60.0 * ((hand.tip[0] * 7.3 + hand.tip[1]) % 1.0)
    parts.append(
        Capsule(at(cuff, 0, palm_height + 70), at(1000, 0, palm_height + 600), 42 * scale,
                "sleeve")
    )  # fmt: skip
    held = None
    if hand.holding is not None:
        x, y, _ = at(3, 0, 0)
        held = Held(hand.holding, (x, y), max(0.0, tip_height - crystal_height / 2))
    return tuple(parts), held


def over_board(board: Board, hands: tuple[Hand, ...]) -> bool:
    """Whether any hand or arm lies over the sheet (seen from above)."""
    for hand in hands:
        angle = math.radians(hand.angle)
        back = np.array([math.cos(angle), math.sin(angle)])
        for along in np.linspace(0.0, 900.0, 181):
            x, y = np.asarray(hand.tip) + back * along
            if -5 <= x <= board.width + 5 and -5 <= y <= board.height + 5:
                return True
    return False
