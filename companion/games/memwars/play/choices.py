"""The New game screen's choices for MemWars, and the engine's setup they make."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.decks import bundled_decks, find_deck
from companion.decks.model import Deck
from companion.games.memwars.options import OPTIONS
from companion.games.memwars.palette import SIDE_COLOURS, colour_rgb
from companion.games.options import TIME_CONTROLS, apply_options, options_in, time_control_text
from companion.table.choices import RGBA, ChoiceRow, Players

MODES = ("standard", "basic", "hybrid", "review", "study")
TOPOLOGIES = ("flat", "competitive")
COLOURS = SIDE_COLOURS
"""Crystal colours a side may take; the virtual camera can render them all."""
PATHS = ("none", "forward", "backward", "random")
PATTERN_POINTS = {"quincunx": 5, "quadrant": 10, "minor_diagonal": 5, "major_diagonal": 10}
"""The app's preset pattern bonuses; the rule book leaves the values to the players."""


@dataclass(frozen=True)
class MemWarsChoices:
    """What the New game screen asks for MemWars; every field has the default a first game
    wants."""

    mode: str = "standard"
    names: tuple[str, ...] = ("Player 1", "Player 2")
    colours: tuple[str, ...] = ("red", "blue")
    sides: int = 2
    """How many sides (2 to 4); sides past the names given are 'Player 3', ... in colours
    nobody has taken."""
    quadrants: int = 4
    depth: int = 1
    topology: str = "flat"
    centre_multipliers: bool = False
    time_control: str = ""
    """'' for none, else clock notation (companion clock --help), the same for every side."""
    opponent: bool = False
    """The last side is played by the companion."""
    path: str = "none"
    """none, forward, backward or random (MW-P)."""
    patterns: bool = False
    """Pattern bonuses at the app's preset values (PATTERN_POINTS)."""
    handicap: int = -1
    """The side that plays one level deeper than the agreed depth, or -1 for nobody."""
    basic_side: int = 1
    """In Hybrid, the side that plays Basic (the other plays Standard)."""
    deck: str = ""
    """'' for the configured deck."""
    seed: int | None = None
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    """Only those that differ from the book's (`companion rules memwars`)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Options set apart from the fields above (companion/games/memwars/options.py): they
    have the last word."""

    @property
    def solitaire(self) -> bool:
        return self.mode in ("review", "study")


def setup_for(choices: MemWarsChoices, deck: Deck, seed: int) -> dict[str, Any]:
    """The engine's setup for the wizard's choices."""
    count = 1 if choices.solitaire else choices.sides
    names = [*choices.names[:count]] + [f"Player {i + 1}" for i in range(len(choices.names), count)]
    colours = [c for c in choices.colours[:count] if c]  # '' where none was picked
    colours += [c for c in COLOURS if c not in colours][: count - len(colours)]
    sides = [_side(name, colour) for name, colour in zip(names, colours, strict=True)]
    if choices.mode == "hybrid":
        for index, side in enumerate(sides):
            side["mode"] = "basic" if index == choices.basic_side else "standard"
    depth = min(choices.depth, deck.depth)
    if 0 <= choices.handicap < len(sides) and depth < deck.depth:
        sides[choices.handicap]["depth"] = depth + 1
    setup: dict[str, Any] = {
        "sides": sides,
        "mode": choices.mode,
        "depth": depth,
        "path": choices.path,
        "max_depth": deck.depth,
        "cards": deck.board_map(),
        "quadrant_names": list(deck.quadrants),
        "quadrants": list(range(1, choices.quadrants + 1)),
        "topology": {"kind": "flat" if choices.solitaire else choices.topology},
        "lightning_rounds": None if choices.mode == "review" else 2,
        "seed": seed,
        "timer": bool(choices.time_control),
    }
    if choices.centre_multipliers:
        setup["multipliers"] = {"centre_place": 2, "centre_quincunx": 2}
    if choices.patterns:
        setup["patterns"] = dict(PATTERN_POINTS)
    if choices.house_rules:
        setup["house_rules"] = dict(choices.house_rules)
    return apply_options(setup, choices.options)


TEAM = "&"
"""Between the names of a team's players, typed as one side's name: "Ann & Bo" (MW-S12)."""


def _side(name: str, colour: str) -> dict[str, Any]:
    """A side; a name with '&' in it is a team of those players."""
    members = [m.strip() for m in name.split(TEAM) if m.strip()]
    side: dict[str, Any] = {"name": name.strip(), "colour": colour}
    if len(members) > 1:
        side["members"] = members
    return side


CHOICE_ROWS: tuple[tuple[str, str, tuple[tuple[str, Any], ...]], ...] = (
    ("Game", "mode", tuple((m.capitalize(), m) for m in MODES)),
    ("Sides", "sides", (("2", 2), ("3", 3), ("4", 4))),
    ("Quadrants", "quadrants", tuple((str(n), n) for n in (1, 2, 3, 4))),
    # Most games are set with the rows above and the clock: all in view without scrolling.
    (
        "Clock",
        "time_control",
        tuple((time_control_text(t), t) for t in TIME_CONTROLS),
    ),
    ("Depth", "depth", tuple((str(n), n) for n in (1, 2, 3))),
    ("Topology", "topology", (("Flat", "flat"), ("Competitive", "competitive"))),
    ("Centre x2", "centre_multipliers", (("No", False), ("Yes", True))),
    ("Path", "path", tuple((p.capitalize(), p) for p in PATHS)),
    ("Patterns", "patterns", (("Off", False), ("Bonus points", True))),
    ("Handicap", "handicap", (("None", -1), ("P1 one deeper", 0), ("P2 one deeper", 1))),
    ("Hybrid: Basic", "basic_side", (("Player 1", 0), ("Player 2", 1))),
)
"""The rows, most used first: label, MemWarsChoices field, (button text, value) for each
option."""


def deck_options(configured: str) -> tuple[tuple[str, str], ...]:
    """The decks a game can be played with: the configured one first ('' stands for it),
    then the other bundled ones."""
    others = tuple((name, name) for name in bundled_decks() if name != configured)
    return ((f"{Path(configured).stem} (set up)", ""), *others)


class MemWarsForm:
    """MemWars on the New game screen."""

    colours: Mapping[str, RGBA] = {name: (*colour_rgb(name), 1.0) for name in COLOURS}
    companion = True
    deal = False

    def rows(self, config: Config) -> tuple[ChoiceRow, ...]:
        defaults = MemWarsChoices()
        decks = deck_options(config.game.deck)
        return tuple(
            ChoiceRow(label, key, options, getattr(defaults, key))
            for label, key, options in (*CHOICE_ROWS, ("Deck", "deck", decks))
        )

    def solitaire(self, picks: Mapping[str, Any]) -> bool:
        return MemWarsChoices(mode=picks["mode"]).solitaire

    def sides(self, picks: Mapping[str, Any]) -> int:
        return 1 if self.solitaire(picks) else int(picks["sides"])

    def options_of(self, picks: Mapping[str, Any], config: Config) -> Mapping[str, Any]:
        choices = self.choices(picks, Players(names=("", "")), {}, {})
        deck = find_deck(choices.deck or config.game.deck)
        sides = self.sides(picks)
        setup = setup_for(choices, deck, seed=0)
        clock = {f"clock.controls.{side}": choices.time_control for side in range(sides)}
        return {**options_in(setup, OPTIONS, sides), **clock}

    def choices(
        self,
        picks: Mapping[str, Any],
        players: Players,
        house_rules: Mapping[str, Any],
        options: Mapping[str, Any],
    ) -> MemWarsChoices:
        first, second = players.names
        if players.companion and not second:
            second = "Companion"
        return MemWarsChoices(
            mode=options.get("mode", picks["mode"]),
            names=(first or "Player 1", second or "Player 2"),
            colours=players.colours,
            path=picks["path"],
            patterns=picks["patterns"],
            handicap=picks["handicap"],
            basic_side=picks["basic_side"],
            sides=picks["sides"],
            deck=picks["deck"],
            quadrants=picks["quadrants"],
            depth=picks["depth"],
            topology=picks["topology"],
            centre_multipliers=picks["centre_multipliers"],
            time_control=picks["time_control"],
            opponent=players.companion,
            house_rules=dict(house_rules),
            options=dict(options),
        )
