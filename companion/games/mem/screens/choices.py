"""What the new-game wizard asks for a MeM game, and the engine setup it makes.

    choices = MemChoices(game="mini", names=("Ada", "Bo"), seed=4711, hints=False)
    mem_setup_for(choices)      # {"game": "mini", "sides": [...], "seed": 4711}
    mem_title(choices)          # 'Ada vs Bo, Mini-MEM, deal 4711, rated'

Whether hints are allowed is not part of the rules, so the engine's setup cannot hold it;
it is kept in the game's title, as "against the companion" is for MemWars, so that a
resumed game keeps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.config import Config
from companion.games.options import apply_options
from companion.table.choices import RGBA, ChoiceRow, Players

MEM_GAMES: tuple[tuple[str, str], ...] = (
    ("MEM-Solitaire", "solitaire"),
    ("Mini-MEM", "mini"),
    ("MEM game", "mem"),
)
"""(name on the screen, the setup's "game") for each of the three games."""
GAME_TITLES = {value: title for title, value in MEM_GAMES}
RATED = ", rated"
"""The end of a rated game's title: no hints."""


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
    rules = dict(choices.house_rules)
    if choices.options.get("first_player") is not None:
        # Naming who goes first is agreeing it: the house rule that lets the players agree.
        rules.setdefault("mem.firstPlayer", "AGREED")
    if rules:
        setup["house_rules"] = rules
    return apply_options(setup, choices.options)


def mem_title(setup: dict[str, Any], hints: bool) -> str:
    """The title Home shows to resume the game by."""
    names = " vs ".join(side["name"] for side in setup["sides"])
    title = f"{names}, {GAME_TITLES[setup['game']]}, deal {setup['seed']}"
    return title if hints else title + RATED


def hints_allowed(title: str) -> bool:
    return not title.endswith(RATED)


class MemForm:
    """MeM on the New game screen: which of its three games, hints, and the deal."""

    colours: Mapping[str, RGBA] = {}
    companion = False
    deal = True

    def rows(self, config: Config) -> tuple[ChoiceRow, ...]:
        defaults = MemChoices()
        return (
            ChoiceRow("MeM game", "mem_game", MEM_GAMES, defaults.game),
            ChoiceRow("Hints", "hints", (("Allowed", True), ("Off (rated)", False)), True),
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
        first, second = players.names
        return MemChoices(
            game=options.get("game", picks["mem_game"]),
            names=(first or "Player 1", second or "Player 2"),
            seed=seed,
            hints=picks["hints"],
            house_rules=dict(house_rules),
            options=dict(options),
        )
