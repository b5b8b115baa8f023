"""What the new-game wizard asks for a MeM game, and the engine setup it makes.

    choices = MemChoices(game="mini", names=("Ada", "Bo"), seed=4711, hints=False)
    mem_setup_for(choices, 4711)  # {"game": "mini", "sides": [...], "seed": 4711}
    mem_title(setup, hints=False) # 'Ada vs Bo, Mini-MEM, deal 4711, rated'
    mem_title(setup, True, "hard")  # 'Ada vs Bo, Mini-MEM, deal 4711, hard, against the companion'

Whether hints are allowed, and whether (and how strongly) the companion plays the second
side, are not part of the rules, so the engine's setup cannot hold them; they are kept in
the game's title, as "against the companion" is for MemWars, so that a resumed game keeps
them. The clock is the setup's `timer` and the game's clock (Referee.start).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.config import Config
from companion.games.mem.play.opponent import DEFAULT_STRENGTH, STRENGTHS
from companion.games.options import apply_options, clock_controls
from companion.table.choices import CLOCK_OPTIONS, RGBA, ChoiceRow, Players
from companion.table.play import AGAINST_THE_COMPANION

MEM_GAMES: tuple[tuple[str, str], ...] = (
    ("MEM-Solitaire", "solitaire"),
    ("Mini-MEM", "mini"),
    ("MEM game", "mem"),
)
"""(name on the screen, the setup's "game") for each of the three games."""
GAME_TITLES = {value: title for title, value in MEM_GAMES}
RATED = ", rated"
"""Ends a rated game's title (before what says the companion plays): no hints."""
STRENGTH_OPTIONS: tuple[tuple[str, str], ...] = tuple(
    (name.capitalize(), name) for name in STRENGTHS
)


@dataclass(frozen=True)
class MemChoices:
    """Every field has the default a first game wants."""

    game: str = "mem"
    """solitaire, mini or mem."""
    names: tuple[str, ...] = ("Player 1", "Player 2")
    seed: int | None = None
    """The deal; None for a random one."""
    hints: bool = True
    """False for a rated game: no hint button."""
    time_control: str = ""
    """'' for no clock, else clock notation, the same for both players (never in
    MEM-Solitaire: a clock needs two)."""
    companion: bool = False
    """The companion plays the second side (never in MEM-Solitaire)."""
    strength: str = DEFAULT_STRENGTH
    """How strongly it plays: a key of STRENGTHS."""
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    """Only those that differ from the book's (`companion rules mem`)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The options set apart from the rows (companion/games/mem/options.py): they have the
    last word."""

    @property
    def players(self) -> int:
        return 1 if self.game == "solitaire" else 2


def parse_seed(text: str) -> int | None:
    """The deal typed in the wizard; None when it is not a whole number (a random one is
    dealt then)."""
    text = text.strip()
    return int(text) if text.isdigit() and int(text) < 2**63 else None


def mem_setup_for(choices: MemChoices, seed: int) -> dict[str, Any]:
    """The engine's setup (companion/games/mem/setup.py) for the wizard's choices."""
    names = [*choices.names[: choices.players]]
    names += [f"Player {i + 1}" for i in range(len(names), choices.players)]
    setup: dict[str, Any] = {
        "game": choices.game,
        "sides": [{"name": name.strip() or f"Player {i + 1}"} for i, name in enumerate(names)],
        "seed": seed,
    }
    controls = clock_controls(choices.options, choices.players, choices.time_control)
    if choices.players > 1 and any(controls):
        setup["timer"] = True  # a clock needs two: never in MEM-Solitaire
    rules = dict(choices.house_rules)
    if choices.options.get("first_player") is not None:
        # Naming who goes first is agreeing it: the house rule that lets the players agree.
        rules.setdefault("mem.firstPlayer", "AGREED")
    if rules:
        setup["house_rules"] = rules
    return apply_options(setup, choices.options)


def mem_title(setup: dict[str, Any], hints: bool, companion: str | None = None) -> str:
    """The title Home shows to resume the game by; `companion` is the companion's strength
    when it plays the second side."""
    names = " vs ".join(side["name"] for side in setup["sides"])
    title = f"{names}, {GAME_TITLES[setup['game']]}, deal {setup['seed']}"
    if not hints:
        title += RATED
    if companion is not None and len(setup["sides"]) > 1:
        title += f", {companion}{AGAINST_THE_COMPANION}"
    return title


def _without_companion(title: str) -> tuple[str, str | None]:
    """The title without what says the companion plays, and its strength (None when it does
    not play)."""
    if not title.endswith(AGAINST_THE_COMPANION):
        return title, None
    rest = title.removesuffix(AGAINST_THE_COMPANION)
    head, _, strength = rest.rpartition(", ")
    if head and strength in STRENGTHS:
        return head, strength
    return rest, DEFAULT_STRENGTH


def hints_allowed(title: str) -> bool:
    return not _without_companion(title)[0].endswith(RATED)


def companion_strength(title: str) -> str | None:
    """How strongly the companion plays the game with this title; None when it does not."""
    return _without_companion(title)[1]


class MemForm:
    """MeM on the New game screen: which of its three games, the clock, hints, how strongly
    the companion plays (when the Opponent row says it does), and the deal."""

    colours: Mapping[str, RGBA] = {}
    companion = True
    deal = True

    def rows(self, config: Config) -> tuple[ChoiceRow, ...]:
        defaults = MemChoices()
        return (
            ChoiceRow("MeM game", "mem_game", MEM_GAMES, defaults.game),
            ChoiceRow("Clock", "mem_time_control", CLOCK_OPTIONS, defaults.time_control),
            ChoiceRow("Hints", "hints", (("Allowed", True), ("Off (rated)", False)), True),
            ChoiceRow("Strength", "mem_strength", STRENGTH_OPTIONS, defaults.strength),
        )

    def solitaire(self, picks: Mapping[str, Any]) -> bool:
        return MemChoices(game=picks["mem_game"]).players == 1

    def sides(self, picks: Mapping[str, Any]) -> int:
        return MemChoices(game=picks["mem_game"]).players

    def options_of(self, picks: Mapping[str, Any], config: Config) -> Mapping[str, Any]:
        return {"game": picks["mem_game"]}

    def choices(
        self,
        picks: Mapping[str, Any],
        players: Players,
        house_rules: Mapping[str, Any],
        options: Mapping[str, Any],
    ) -> MemChoices:
        seed = parse_seed(players.deal)
        if seed is None and players.deal.strip():
            raise ValueError(f"the deal must be a whole number, not {players.deal.strip()!r}")
        game = options.get("game", picks["mem_game"])
        companion = players.companion and MemChoices(game=game).players > 1
        first, second = players.names
        if companion and not second:
            second = "Companion"
        return MemChoices(
            game=game,
            names=(first or "Player 1", second or "Player 2"),
            seed=seed,
            hints=picks["hints"],
            time_control=picks["mem_time_control"],
            companion=companion,
            strength=picks["mem_strength"],
            house_rules=dict(house_rules),
            options=dict(options),
        )
