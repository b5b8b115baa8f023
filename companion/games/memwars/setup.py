"""What the players agree before a game: sides, mode, board extent, depth, topology, scoring
options and house rules. Parsed from JSON-safe data; every problem is a BadSetup naming the
field.

    setup = parse_setup({"sides": [{"name": "Ada"}, {"name": "Bo"}], "mode": "standard",
                         "cards": deck.board_map(), "max_depth": 5, "seed": 7})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from companion.games.contract import JSON, BadSetup
from companion.games.memwars.board import PLACES, QUADRANTS, Edge, quadrant_of
from companion.games.memwars.rules import HouseRules
from companion.games.memwars.topology import STANDARD_TOPOLOGY

CHALLENGE_PIECES_IN_BOX = 50
CHALLENGE_PIECES_EACH = 13
PIECES_PER_SIDE = 100
COUNTER_VALUES = (5, 3, 2)


class Mode(Enum):
    BASIC = "basic"
    STANDARD = "standard"
    HYBRID = "hybrid"
    STUDY = "study"
    REVIEW = "review"


class Path(Enum):
    NONE = "none"
    FORWARD = "forward"
    BACKWARD = "backward"
    RANDOM = "random"


class Topology(Enum):
    FLAT = "flat"
    STANDARD = "standard"
    COMPETITIVE = "competitive"


class CounterScoring(Enum):
    TAKE = "take"
    MULTIPLY = "multiply"


@dataclass(frozen=True, slots=True)
class SideSetup:
    name: str
    colour: str
    members: tuple[str, ...]
    depth: int | None
    """A handicap depth for this side, or None for the agreed depth (MW-G3)."""
    mode: Mode
    """Standard or Basic for this side; only Hybrid games mix them (MW-H1)."""


@dataclass(frozen=True, slots=True)
class CardInfo:
    """What the engine knows of a card: never its facts, only where it lies and its worth."""

    number: int
    place: int
    points: int


@dataclass(frozen=True, slots=True)
class Patterns:
    """Bonus points for completed patterns, agreed in advance (MW-X3); 0 means off."""

    quincunx: int = 0
    quadrant: int = 0
    minor_diagonal: int = 0
    major_diagonal: int = 0

    @property
    def any(self) -> bool:
        return bool(self.quincunx or self.quadrant or self.minor_diagonal or self.major_diagonal)


@dataclass(frozen=True, slots=True)
class Setup:
    sides: tuple[SideSetup, ...]
    mode: Mode
    quadrants: tuple[int, ...]
    path: Path
    depth: int | None
    """The agreed depth, or None when it is to be rolled (MW-S8)."""
    max_depth: int
    cards: tuple[CardInfo, ...]
    quadrant_names: tuple[str, ...]
    topology: Topology
    counter_scoring: CounterScoring
    standard_counters: tuple[tuple[int, int], ...]
    centre_place_multiplier: int
    centre_quincunx_multiplier: int
    patterns: Patterns
    lightning_rounds: int | None
    """How many lightning rounds to play, or None for until the pile is empty (MW-BM7)."""
    basic_prompts: bool
    quadrant_bonuses: tuple[int, ...]
    first_player: int | None
    north: Edge | None
    timer: bool
    seed: int
    rules: HouseRules
    # Derived tables, filled in __post_init__ and never serialised.
    in_play: frozenset[int] = field(init=False, compare=False)
    card_at: tuple[int, ...] = field(init=False, compare=False)
    """card_at[place] is the card number mapped to that place (index 0 unused)."""
    points_at: tuple[int, ...] = field(init=False, compare=False)
    place_of: dict[int, int] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        in_play = frozenset(p for p in PLACES if quadrant_of(p) in self.quadrants)
        card_at = [0] * 101
        points_at = [0] * 101
        place_of: dict[int, int] = {}
        for card in self.cards:
            card_at[card.place] = card.number
            points_at[card.place] = card.points
            place_of[card.number] = card.place
        object.__setattr__(self, "in_play", in_play)
        object.__setattr__(self, "card_at", tuple(card_at))
        object.__setattr__(self, "points_at", tuple(points_at))
        object.__setattr__(self, "place_of", place_of)

    @property
    def side_count(self) -> int:
        return len(self.sides)

    def depth_of(self, side: int, agreed: int | None) -> int | None:
        own = self.sides[side].depth
        return own if own is not None else agreed

    def path_order(self) -> tuple[int, ...]:
        """The in-play cards in the order the deck is set up (before any shuffle)."""
        numbers = sorted(c.number for c in self.cards if c.place in self.in_play)
        backward = self.path is Path.BACKWARD and not (
            self.mode is Mode.BASIC and self.rules.path_scope == "BASIC_ALWAYS_FORWARD"
        )
        return tuple(reversed(numbers)) if backward else tuple(numbers)

    @property
    def uses_path(self) -> bool:
        """True when the deck order forces which place is addressed next."""
        if self.mode is Mode.BASIC and self.rules.path_scope == "BASIC_ALWAYS_FORWARD":
            return False
        return self.path is not Path.NONE

    def challenge_pieces_each(self) -> int:
        n = self.side_count
        if self.rules.challenge_pieces_per_side == "CAPPED" and CHALLENGE_PIECES_EACH * n > 50:
            return CHALLENGE_PIECES_IN_BOX // n
        return CHALLENGE_PIECES_EACH

    def counters_each_per_value(self) -> int:
        """Competitive counters each side places of each value (MW-T3, MW-AB3)."""
        n, k = self.side_count, len(self.quadrants)
        per_side = self.rules.counters_per_value // n
        if k < 4 and self.rules.counters_abbreviated_scaling == "FORMULA":
            return max(1, int(self.rules.counters_per_value / n * k / 4))
        return per_side

    def to_dict(self) -> JSON:
        return {
            "sides": [
                {
                    "name": s.name,
                    "colour": s.colour,
                    "members": list(s.members),
                    "depth": s.depth,
                    "mode": s.mode.value,
                }
                for s in self.sides
            ],
            "mode": self.mode.value,
            "quadrants": list(self.quadrants),
            "path": self.path.value,
            "depth": self.depth if self.depth is not None else "roll",
            "max_depth": self.max_depth,
            "cards": [[c.number, c.place, c.points] for c in self.cards],
            "quadrant_names": list(self.quadrant_names),
            "topology": {
                "kind": self.topology.value,
                "scoring": self.counter_scoring.value,
                "counters": [list(c) for c in self.standard_counters],
            },
            "multipliers": {
                "centre_place": self.centre_place_multiplier,
                "centre_quincunx": self.centre_quincunx_multiplier,
            },
            "patterns": {
                "quincunx": self.patterns.quincunx,
                "quadrant": self.patterns.quadrant,
                "minor_diagonal": self.patterns.minor_diagonal,
                "major_diagonal": self.patterns.major_diagonal,
            },
            "lightning_rounds": self.lightning_rounds,
            "basic_prompts": self.basic_prompts,
            "quadrant_bonuses": list(self.quadrant_bonuses),
            "first_player": self.first_player,
            "north": self.north.value if self.north else None,
            "timer": self.timer,
            "seed": self.seed,
            "house_rules": self.rules.to_dict(),
        }


_SETUP_KEYS = {
    "sides",
    "mode",
    "quadrants",
    "path",
    "depth",
    "max_depth",
    "cards",
    "quadrant_names",
    "topology",
    "multipliers",
    "patterns",
    "lightning_rounds",
    "basic_prompts",
    "quadrant_bonuses",
    "first_player",
    "north",
    "timer",
    "seed",
    "house_rules",
}

_DEFAULT_COLOURS = ("red", "blue", "green", "yellow")


def _int(
    data: Mapping[str, Any],
    key: str,
    where: str,
    default: int | None = None,
    low: int | None = None,
    high: int | None = None,
) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadSetup(f"{where}{key}", f"must be a whole number, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise BadSetup(f"{where}{key}", f"must be between {low} and {high}, got {value}")
    return value


def _enum(cls: type[Enum], value: Any, where: str) -> Any:
    try:
        return cls(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in cls)
        raise BadSetup(where, f"must be one of {allowed}, got {value!r}") from None


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BadSetup(where, "must be an object")
    return value


def parse_setup(data: Mapping[str, Any]) -> Setup:
    if not isinstance(data, Mapping):
        raise BadSetup("setup", "must be an object")
    unknown = set(data) - _SETUP_KEYS
    if unknown:
        raise BadSetup(sorted(unknown)[0], "is not a setup key")
    rules = HouseRules.from_dict(data.get("house_rules", {}))
    mode = _enum(Mode, data.get("mode", "standard"), "mode")
    sides = _parse_sides(data.get("sides"), mode, rules)
    quadrants = _parse_quadrants(data.get("quadrants", [1, 2, 3, 4]))
    max_depth = _int(data, "max_depth", "", 1, 1, 99)
    raw_depth = data.get("depth", 1)
    depth = None if raw_depth == "roll" else _int(data, "depth", "", 1, low=1, high=max_depth)
    for i, side in enumerate(sides):
        if side.depth is not None and side.depth > max_depth:
            raise BadSetup(f"sides[{i}].depth", f"the deck goes {max_depth} levels deep")
    cards = _parse_cards(data.get("cards"), quadrants, rules)
    names = data.get("quadrant_names", ["north-west", "north-east", "south-west", "south-east"])
    if (
        not isinstance(names, Sequence)
        or isinstance(names, str)
        or len(names) != 4
        or not all(isinstance(n, str) for n in names)
    ):
        raise BadSetup("quadrant_names", "must be a list of 4 names")
    topo = _object(data.get("topology", {}), "topology")
    topology = _enum(Topology, topo.get("kind", "flat"), "topology.kind")
    scoring = _enum(CounterScoring, topo.get("scoring", "take"), "topology.scoring")
    counters = _parse_counters(topo, topology, quadrants)
    if topology is Topology.COMPETITIVE and mode in (Mode.STUDY, Mode.REVIEW):
        raise BadSetup("topology.kind", "solitaire modes have no competitive counters")
    multipliers = _object(data.get("multipliers", {}), "multipliers")
    centre_place = _int(multipliers, "centre_place", "multipliers.", 1, 1, 2)
    centre_quincunx = _int(multipliers, "centre_quincunx", "multipliers.", 1, 1, 3)
    pattern_data = _object(data.get("patterns", {}), "patterns")
    unknown_patterns = set(pattern_data) - {
        "quincunx",
        "quadrant",
        "minor_diagonal",
        "major_diagonal",
    }
    if unknown_patterns:
        raise BadSetup(f"patterns.{sorted(unknown_patterns)[0]}", "is not a pattern")
    patterns = Patterns(**{k: _int(pattern_data, k, "patterns.", 0, 0, 1000) for k in pattern_data})
    rounds = data.get("lightning_rounds")
    if rounds is not None:
        rounds = _int(data, "lightning_rounds", "", low=0, high=1000)
    bonuses = data.get("quadrant_bonuses", [5, 3, 2, 1])
    if (
        not isinstance(bonuses, Sequence)
        or len(bonuses) != 4
        or not all(isinstance(b, int) and not isinstance(b, bool) and b >= 0 for b in bonuses)
    ):
        raise BadSetup("quadrant_bonuses", "must be 4 whole numbers, first quadrant won first")
    first = data.get("first_player")
    if first is not None:
        first = _int(data, "first_player", "", low=0, high=len(sides) - 1)
    if len(sides) == 1:
        first = 0
    north = data.get("north")
    if north is not None:
        north = _enum(Edge, north, "north")
    timer = data.get("timer", False)
    if not isinstance(timer, bool):
        raise BadSetup("timer", "must be true or false")
    prompts = data.get("basic_prompts", False)
    if not isinstance(prompts, bool):
        raise BadSetup("basic_prompts", "must be true or false")
    seed = _int(data, "seed", "", 0, 0, 2**63 - 1)
    return Setup(
        sides=sides,
        mode=mode,
        quadrants=quadrants,
        path=_enum(Path, data.get("path", "none"), "path"),
        depth=depth,
        max_depth=max_depth,
        cards=cards,
        quadrant_names=tuple(names),
        topology=topology,
        counter_scoring=scoring,
        standard_counters=counters,
        centre_place_multiplier=centre_place,
        centre_quincunx_multiplier=centre_quincunx,
        patterns=patterns,
        lightning_rounds=rounds,
        basic_prompts=prompts,
        quadrant_bonuses=tuple(bonuses),
        first_player=first,
        north=north,
        timer=timer,
        seed=seed,
        rules=rules,
    )


def _parse_sides(raw: Any, mode: Mode, rules: HouseRules) -> tuple[SideSetup, ...]:
    if not isinstance(raw, Sequence) or isinstance(raw, str) or not raw:
        raise BadSetup("sides", "must be a list of the sides, in clockwise seating order")
    solitaire = mode in (Mode.STUDY, Mode.REVIEW)
    if solitaire and len(raw) != 1:
        raise BadSetup("sides", f"{mode.value} mode is played by exactly one player")
    if not solitaire and not 2 <= len(raw) <= rules.sides_max:
        raise BadSetup(
            "sides",
            f"{mode.value} mode needs 2 to {rules.sides_max} sides (MW-A03), got {len(raw)}",
        )
    sides = []
    for i, item in enumerate(raw):
        where = f"sides[{i}]"
        item = _object(item, where)
        unknown = set(item) - {"name", "colour", "members", "depth", "mode"}
        if unknown:
            raise BadSetup(f"{where}.{sorted(unknown)[0]}", "is not a side key")
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise BadSetup(f"{where}.name", "must be a non-empty name")
        colour = item.get("colour", _DEFAULT_COLOURS[i % 4])
        if not isinstance(colour, str):
            raise BadSetup(f"{where}.colour", "must be a colour name")
        members = item.get("members", [name])
        if (
            not isinstance(members, Sequence)
            or isinstance(members, str)
            or not members
            or not all(isinstance(m, str) and m for m in members)
        ):
            raise BadSetup(f"{where}.members", "must be a non-empty list of names")
        depth = item.get("depth")
        if depth is not None:
            depth = _int(item, "depth", f"{where}.", low=1, high=99)
        side_mode = _enum(
            Mode,
            item.get("mode", mode.value if mode is not Mode.HYBRID else "standard"),
            f"{where}.mode",
        )
        if mode is Mode.HYBRID:
            if side_mode not in (Mode.STANDARD, Mode.BASIC):
                raise BadSetup(f"{where}.mode", "a Hybrid side plays 'standard' or 'basic'")
        elif side_mode is not mode:
            raise BadSetup(f"{where}.mode", "only Hybrid games give sides their own mode")
        sides.append(SideSetup(name.strip(), colour, tuple(members), depth, side_mode))
    if len({s.name for s in sides}) != len(sides):
        raise BadSetup("sides", "two sides have the same name")
    if len({s.colour for s in sides}) != len(sides):
        raise BadSetup("sides", "two sides have the same colour")
    return tuple(sides)


def _parse_quadrants(raw: Any) -> tuple[int, ...]:
    if (
        not isinstance(raw, Sequence)
        or isinstance(raw, str)
        or not raw
        or not all(isinstance(q, int) and not isinstance(q, bool) and q in QUADRANTS for q in raw)
        or len(set(raw)) != len(raw)
    ):
        raise BadSetup("quadrants", "must list 1 to 4 different quadrants, each 1..4 (MW-S4)")
    return tuple(sorted(raw))


def _parse_cards(raw: Any, quadrants: tuple[int, ...], rules: HouseRules) -> tuple[CardInfo, ...]:
    if raw is None:
        # A deck-less game: card n on place n worth 1 point (the flat default, MW-B10).
        return tuple(CardInfo(n, n, 1) for n in PLACES)
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise BadSetup("cards", "must be a list of [number, place, points]")
    cards = []
    places: set[int] = set()
    numbers: set[int] = set()
    for i, item in enumerate(raw):
        if (
            not isinstance(item, Sequence)
            or len(item) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            raise BadSetup(f"cards[{i}]", "must be [number, place, points]")
        number, place, points = item
        if place not in PLACES or number < 1 or points < 0:
            raise BadSetup(f"cards[{i}]", f"place must be 1..100 and points >= 0, got {item}")
        if place in places or number in numbers:
            raise BadSetup(f"cards[{i}]", "repeats a card number or a place")
        if rules.place1_mapping == "Z_ORDER" and number != place:
            raise BadSetup(
                f"cards[{i}]",
                f"card {number} lies on place {place}, but house rule "
                "mw.place1Mapping=Z_ORDER needs card n on place n (MW-A01)",
            )
        places.add(place)
        numbers.add(number)
        cards.append(CardInfo(number, place, points))
    missing = [p for p in PLACES if quadrant_of(p) in quadrants and p not in places]
    if missing:
        raise BadSetup("cards", f"the deck has no card for place {missing[0]}, which is in play")
    return tuple(cards)


def _parse_counters(
    topo: Mapping[str, Any], topology: Topology, quadrants: tuple[int, ...]
) -> tuple[tuple[int, int], ...]:
    unknown = set(topo) - {"kind", "scoring", "counters"}
    if unknown:
        raise BadSetup(f"topology.{sorted(unknown)[0]}", "is not a topology key")
    if topology is not Topology.STANDARD:
        if topo.get("counters"):
            raise BadSetup("topology.counters", "only a standard topology lists counters")
        return ()
    raw = topo.get("counters") or [list(c) for c in STANDARD_TOPOLOGY]
    out = []
    for i, item in enumerate(raw):
        if (
            not isinstance(item, Sequence)
            or len(item) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
            or item[0] not in PLACES
            or item[1] not in COUNTER_VALUES
        ):
            raise BadSetup(f"topology.counters[{i}]", "must be [place 1..100, value 5|3|2]")
        if quadrant_of(item[0]) in quadrants:
            out.append((item[0], item[1]))
    return tuple(out)
