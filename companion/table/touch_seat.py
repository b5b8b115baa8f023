"""Games played by touch on their drawn board (companion/games/touch.py) at the table: the
New game screen's choices for them, and their seat (companion/table/play.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.config import Config
from companion.games import find_plugin
from companion.games.contract import BadSetup
from companion.games.options import GameOption, apply_options, option_for
from companion.games.touch import TouchRules
from companion.session import Referee
from companion.store import Store
from companion.table.choices import RGBA, ChoiceRow, Players, new_deal
from companion.table.play import AGAINST_THE_COMPANION, AtTheTable, Seat, companion_side
from companion.table.touch_play import TouchPlay


@dataclass(frozen=True)
class TouchChoices:
    """A new game of a game played by touch on its drawn board (companion/games/touch.py)."""

    game: str
    names: tuple[str, ...] = ("Player 1", "Player 2")
    players: int = 2
    """How many players; those past the names given are 'Player 3', ..."""
    companion: bool = False
    """The last player is the companion."""
    strength: int | None = None
    """The companion's strength; None for the game's default."""
    seed: int | None = None
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    """Only those that differ from the book's (`companion rules GAME`)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The game's options set apart from the rows (companion/games/options.py)."""


def touch_names(choices: TouchChoices) -> list[str]:
    names = [*choices.names[: choices.players]]
    names += [f"Player {i + 1}" for i in range(len(names), choices.players)]
    if choices.companion and names[-1].startswith("Player "):
        names[-1] = "Companion"
    return names


def touch_rules(game: str) -> TouchRules:
    """How `game` is played by touch; ValueError for a game with screens of its own."""
    plugin = find_plugin(game)
    if plugin.touch is None:
        raise ValueError(f"{plugin.title} is not played on a drawn board")
    return plugin.touch


def option_rows(game: str) -> tuple[tuple[str, GameOption], ...]:
    """(label, option) of each option the game's touch rules show as a New game row."""
    plugin = find_plugin(game)
    rows = []
    for label, key in touch_rules(game).option_rows:
        option = option_for(key, plugin.options)
        if option is None:
            raise ValueError(f"{plugin.title} has no option {key!r} for a New game row")
        rows.append((label, option))
    return tuple(rows)


class TouchForm:
    """A game played on a drawn board, on the New game screen: how many play, how strong
    the companion is (it plays the last seat when Opponent says so), and the game's own
    options its touch rules put on rows (MnemoGame's Words)."""

    colours: Mapping[str, RGBA] = {}
    companion = True
    deal = False

    def __init__(self, game: str) -> None:
        self.game = game

    def rows(self, config: Config) -> tuple[ChoiceRow, ...]:
        rules = touch_rules(self.game)
        fewest, most = rules.players
        weakest, default, strongest = rules.strengths
        return (
            ChoiceRow(
                "How many",
                f"{self.game}:players",
                tuple((str(n), n) for n in range(fewest, most + 1)),
                fewest,
            ),
            ChoiceRow(
                "Companion",
                f"{self.game}:strength",
                tuple((str(n), n) for n in range(weakest, strongest + 1)),
                default,
            ),
            *(
                ChoiceRow(label, f"{self.game}:{option.key}", option.choices, option.default)
                for label, option in option_rows(self.game)
            ),
        )

    def solitaire(self, picks: Mapping[str, Any]) -> bool:
        return False

    def sides(self, picks: Mapping[str, Any]) -> int:
        return int(picks[f"{self.game}:players"])

    def options_of(self, picks: Mapping[str, Any], config: Config) -> Mapping[str, Any]:
        return self._row_options(picks)

    def _row_options(self, picks: Mapping[str, Any]) -> dict[str, Any]:
        return {
            option.key: picks.get(f"{self.game}:{option.key}", option.default)
            for _label, option in option_rows(self.game)
        }

    def choices(
        self,
        picks: Mapping[str, Any],
        players: Players,
        house_rules: Mapping[str, Any],
        options: Mapping[str, Any],
    ) -> TouchChoices:
        first, second = players.names
        return TouchChoices(
            game=self.game,
            names=(first or "Player 1", second or "Player 2"),
            players=picks[f"{self.game}:players"],
            companion=players.companion,
            strength=picks[f"{self.game}:strength"],
            house_rules=dict(house_rules),
            # The All options page has the last word over the rows.
            options={**self._row_options(picks), **options},
        )


class TouchSeat:
    def form(self, game: str) -> TouchForm:
        return TouchForm(game)

    def begin(self, choices: TouchChoices, store: Store, config: Config) -> Referee:
        """A new game dealt from the choices' seed or a random one; with `companion`, the
        companion plays the last side."""
        plugin = find_plugin(choices.game)
        rules = touch_rules(choices.game)
        seed = choices.seed if choices.seed is not None else new_deal()
        names = touch_names(choices)
        title = " vs ".join(names) + f", {plugin.title}"
        if choices.companion:
            title += AGAINST_THE_COMPANION
        try:
            setup = rules.setup_for(names, seed)
            if choices.house_rules:
                setup = {**setup, "house_rules": dict(choices.house_rules)}
            setup = apply_options(setup, choices.options)
            return Referee.start(
                store, plugin.name, setup, {}, title=title, game_clock=rules.game_clock(setup)
            )
        except BadSetup as err:
            raise ValueError(f"cannot set up this game: {err}") from None

    def take_up(
        self, referee: Referee, at: AtTheTable, choices: TouchChoices | None = None
    ) -> TouchPlay:
        rules = touch_rules(referee.engine.name)
        title = at.store.game(referee.game_id).title
        sides = len(referee.engine.view(referee.state, "table").get("sides", []))
        return TouchPlay(
            referee,
            rules,
            title=title,
            companion_side=companion_side(title, sides),
            strength=choices.strength if choices is not None else None,
            call_soon=at.call_soon,
        )


SEAT: Seat = TouchSeat()
