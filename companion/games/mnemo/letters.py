"""MnemoGame's chips and tables (MN-C1 .. MN-C5, MN-DIV): the 100-letter distribution, the
AHA decoys and the JOAL wildcards, the Number Codex's names and the Letter Codex.

    SUPPLY["E"]          # 9
    DIVISIONS[1]         # Division(name='Tyros', fewest=3, most=9, ahas=2)
"""

from __future__ import annotations

from dataclasses import dataclass

SUPPLY: dict[str, int] = {
    "A": 6, "B": 3, "C": 3, "D": 3, "E": 9, "F": 3, "G": 3, "H": 2, "I": 7, "J": 2,
    "K": 2, "L": 4, "M": 3, "N": 5, "O": 5, "P": 4, "Q": 1, "R": 7, "S": 7, "T": 7,
    "U": 5, "V": 3, "W": 2, "X": 1, "Y": 2, "Z": 1,
}  # fmt: skip
"""Letter chips of each letter (MN-C2): 100 in all."""

AHA_SUPPLY = 20
"""AHA decoy chips (MN-C1)."""
JOAL_SUPPLY = 5
"""Jack-of-all-letters chips (MN-C1)."""
MAX_AHAS = 5
"""AHA chips one word may use outside a division (MN-S4)."""

LETTERS = tuple(SUPPLY)
HYPHEN = "-"
"""What a JOAL standing for a hyphen shows (MN-C5)."""
AHA = "AHA"
JOAL = "JOAL"
"""A guess that names a chip a JOAL, under mn.joal.guess = JOAL (MN-A18 b)."""

NO_VALUE = frozenset("VWXZ")
"""Letters worth nothing when left unexposed at the end (MN-SC2), nor laid bare by
TAIL-ENDERS (MN-NC4)."""

KIND_LETTER = "letter"
KIND_JOAL = "joal"
KIND_AHA = "aha"

CODEX: dict[int, str] = {
    0: "NEMO",
    1: "MONO",
    2: "TWINNER",
    3: "STRIPPER",
    4: "TAIL-ENDERS",
    5: "HOOPLA",
    6: "EXPO",
    7: "MAGIC SEVEN",
    8: "EIGHT BALL",
    9: "LUCKY NINE",
    10: "MYSTERY WORD",
    11: "I.D.",
}
"""The Number Codex by face of the D12 (MN-C3, MN-NC)."""

FACES = tuple(CODEX)

LETTER_CODEX: dict[str, tuple[str, tuple[str, ...]]] = {
    "A": (
        "Does your word refer to the vegetable, mineral, animal or none of these kingdoms?",
        ("vegetable", "mineral", "animal", "none"),
    ),
    "B": (
        "Does your word refer to the exact science, fine arts, philosophy, psychology, "
        "sociology, economics, politics, history or none of these?",
        (
            "exact science",
            "fine arts",
            "philosophy",
            "psychology",
            "sociology",
            "economics",
            "politics",
            "history",
            "none",
        ),
    ),
    "C": (
        "Is your word abstract; incapable of being numbered, measured or dated?",
        ("yes", "no"),
    ),
    "D": (
        "Is your word highly technical, slightly technical, or non-technical?",
        ("highly technical", "slightly technical", "non-technical"),
    ),
    "E": ("Is your word in current usage (not obsolete)?", ("yes", "no")),
    "F": ("Is your word an adjective or an adverb?", ("adjective", "adverb", "neither")),
    "G": (
        "Does the strongest stress of your word fall on the first, middle or last syllable?",
        ("first", "middle", "last"),
    ),
    "H": (
        "Is the first or last letter of your word already exposed?",
        ("first", "last", "both", "neither"),
    ),
    "I": (
        "Does your word still have a letter face down bearing a letter already laid bare?",
        ("yes", "no"),
    ),
    "J": ("Pantomime the meaning of the whole word.", ("done",)),
    "K": ("Pantomime the first syllable.", ("done",)),
    "L": ("Pantomime the last syllable.", ("done",)),
}
"""The Letter Codex (MN-C4) for 10 and 11: each letter's question and the answers the table
may record."""

CODEX_LETTERS = tuple(LETTER_CODEX)
"""A to L: a D12 roll of n gives the n-th (MN-A10 a)."""


@dataclass(frozen=True, slots=True)
class Division:
    number: int
    name: str
    fewest: int
    """Fewest letter chips in a word."""
    most: int | None
    """Most letter chips in a word; None for no limit."""
    ahas: int
    """AHA chips allowed (a maximum under mn.division.ahaRule = MAXIMUM)."""
    fewest_ahas: int = 0
    """Under mn.division.ahaRule = EXACT, the fewest (Division 7 allows 3 to 5)."""


DIVISIONS: dict[int, Division] = {
    1: Division(1, "Tyros", 3, 9, 2, 2),
    2: Division(2, "Preps", 3, 10, 3, 3),
    3: Division(3, "Varsitarians", 3, 11, 3, 3),
    4: Division(4, "Parnassians", 3, 12, 4, 4),
    5: Division(5, "Olympians", 3, 13, 4, 4),
    6: Division(6, "Masters", 3, None, 5, 5),
    7: Division(7, "Special", 3, None, 5, 3),
}
"""The tournament divisions (MN-DIV)."""
