"""New game: the game, its players and its options, most used first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from companion.games import find_plugin, plugin_names
from companion.games.mem.screens.choices import MEM_GAMES, MemChoices, new_seed, parse_seed
from companion.ui.controller import (
    COLOURS,
    MODES,
    PATHS,
    TIME_CONTROLS,
    GameChoices,
    TouchChoices,
)
from companion.ui.screens.base import AppScreen

CHOICE_ROWS: tuple[tuple[str, str, tuple[tuple[str, Any], ...]], ...] = (
    ("Game", "mode", tuple((m.capitalize(), m) for m in MODES)),
    ("Sides", "sides", (("2", 2), ("3", 3), ("4", 4))),
    ("Quadrants", "quadrants", tuple((str(n), n) for n in (1, 2, 3, 4))),
    # Most games are set with the rows above and the clock: all in view without scrolling.
    (
        "Clock",
        "time_control",
        tuple(
            (
                {"": "None", "-!60": "1 min/move"}.get(t, t),
                t,
            )
            for t in TIME_CONTROLS
        ),
    ),
    ("Depth", "depth", tuple((str(n), n) for n in (1, 2, 3))),
    ("Topology", "topology", (("Flat", "flat"), ("Competitive", "competitive"))),
    ("Centre x2", "centre_multipliers", (("No", False), ("Yes", True))),
    ("Path", "path", tuple((p.capitalize(), p) for p in PATHS)),
    ("Patterns", "patterns", (("Off", False), ("Bonus points", True))),
    ("Handicap", "handicap", (("None", -1), ("P1 one deeper", 0), ("P2 one deeper", 1))),
    ("Hybrid: Basic", "basic_side", (("Player 1", 0), ("Player 2", 1))),
)
"""The wizard's rows, most used first: label, GameChoices field, (button text, value) for
each option."""


def deck_options(configured: str) -> tuple[tuple[str, str], ...]:
    """The decks a game can be played with: the configured one first ('' stands for it),
    then the other bundled ones."""
    from companion.decks import bundled_decks

    others = tuple((name, name) for name in bundled_decks() if name != configured)
    return ((f"{Path(configured).stem} (set up)", ""), *others)


def game_row() -> tuple[str, str, tuple[tuple[str, Any], ...]]:
    """Which board game, among every game's plugin: the rows below it are that game's."""
    return ("Board game", "game", tuple((find_plugin(n).title, n) for n in plugin_names()))


def touch_rows(game: str) -> tuple[tuple[str, str, tuple[tuple[str, Any], ...]], ...]:
    """The rows of a game played on a drawn board: how many play, how strong the companion
    is (it plays the last seat when Opponent says so)."""
    rules = find_plugin(game).touch
    assert rules is not None
    fewest, most = rules.players
    weakest, _default, strongest = rules.strengths
    return (
        ("How many", f"{game}:players", tuple((str(n), n) for n in range(fewest, most + 1))),
        (
            "Companion",
            f"{game}:strength",
            tuple((str(n), n) for n in range(weakest, strongest + 1)),
        ),
    )


MEM_ROWS: tuple[tuple[str, str, tuple[tuple[str, Any], ...]], ...] = (
    ("MeM game", "mem_game", MEM_GAMES),
    ("Hints", "hints", (("Allowed", True), ("Off (rated)", False))),
)
"""The MeM rows: label, MemChoices field, (button text, value) for each option."""


class NewGameScreen(AppScreen):
    solitaire = BooleanProperty(False)
    mem = BooleanProperty(False)
    """MeM is chosen: only its rows are shown."""
    colours = BooleanProperty(True)
    """The game chosen lets each side pick its colour (the others give each seat its own)."""
    problem = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.picks: dict[str, Any] = {}
        self.toggles: dict[str, dict[Any, Any]] = {}
        self._built = False
        self._memwars_rows: list[Any] = []
        self._mem_rows: list[Any] = []
        self._touch_rows: dict[str, list[Any]] = {}
        """Per game played on a drawn board: its rows."""
        self._top_rows: list[Any] = []
        self.seed_input: TextInput | None = None

    def on_pre_enter(self, *_: Any) -> None:
        if not self._built:
            self._build_rows()
            self._built = True
        self.problem = ""
        if self.seed_input is not None:
            self.new_deal()

    def _build_rows(self) -> None:
        defaults = GameChoices()
        mem_defaults = MemChoices()
        rows = self.ids.rows
        # The players' row and the opponent's row come from the kv file.
        players, opponent = reversed(rows.children)
        rows.clear_widgets()
        decks = deck_options(self.companion.controller.config.game.deck)
        self._top_rows = [self._choice_row(*game_row(), "memwars"), players]
        self._memwars_rows = [opponent] + [
            self._choice_row(label, key, options, getattr(defaults, key))
            for label, key, options in (*CHOICE_ROWS, ("Deck", "deck", decks))
        ]
        self._mem_rows = [
            self._choice_row(label, key, options, getattr(mem_defaults, key.removeprefix("mem_")))
            for label, key, options in MEM_ROWS
        ]
        self._mem_rows.append(self._deal_row())
        self.picks = {key: getattr(defaults, key) for _, key, _ in CHOICE_ROWS}
        self.picks["deck"] = defaults.deck
        self.picks["game"] = "memwars"
        self.picks["mem_game"] = mem_defaults.game
        self.picks["hints"] = mem_defaults.hints
        self._opponent_row = opponent
        for game in plugin_names():
            rules = find_plugin(game).touch
            if rules is None:
                continue
            defaults_here = {
                f"{game}:players": rules.players[0],
                f"{game}:strength": rules.strengths[1],
            }
            self._touch_rows[game] = [
                self._choice_row(label, key, options, defaults_here[key])
                for label, key, options in touch_rows(game)
            ]
            self.picks.update(defaults_here)
        self._arrange()

    def _choice_row(
        self, label: str, key: str, options: tuple[tuple[str, Any], ...], default: Any
    ) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height="40dp", spacing="6dp")
        row.add_widget(Factory.RowLabel(text=label))
        self.toggles[key] = {}
        for text, value in options:
            button = Factory.Choice(text=text, group=f"choice-{key}")
            button.bind(on_release=self._picker(key, value))
            if value == default:
                button.state = "down"
            self.toggles[key][value] = button
            row.add_widget(button)
        return row

    def _deal_row(self) -> BoxLayout:
        """The deal's seed: random, shown, and typed again to repeat a deal."""
        row = BoxLayout(size_hint_y=None, height="40dp", spacing="6dp")
        row.add_widget(Factory.RowLabel(text="Deal"))
        self.seed_input = TextInput(
            multiline=False, font_size="18sp", input_filter="int", hint_text="a whole number"
        )
        row.add_widget(self.seed_input)
        again = Factory.BigButton(text="New deal", height="40dp", font_size="17sp")
        again.size_hint_x = 0.5
        again.bind(on_release=lambda _button: self.new_deal())
        row.add_widget(again)
        self.new_deal()
        return row

    def new_deal(self) -> None:
        if self.seed_input is not None:
            self.seed_input.text = str(new_seed())

    def _arrange(self) -> None:
        """Shows the rows of the game chosen, and only those."""
        rows = self.ids.rows
        rows.clear_widgets()
        game = self.picks.get("game", "")
        if game in self._touch_rows:
            below = [self._opponent_row, *self._touch_rows[game]]
        else:
            below = self._mem_rows if self.mem else self._memwars_rows
        for row in (*self._top_rows, *below):
            rows.add_widget(row)
        rows.parent.scroll_y = 1  # from the top, whichever list was scrolled before

    def _picker(self, key: str, value: Any) -> Callable[[Any], None]:
        return lambda _button: self.pick(key, value)

    def next_colour(self, which: int) -> None:
        """Gives side `which` (1 or 2) the next colour the other side has not taken."""
        mine, other = (
            (self.ids.colour_1, self.ids.colour_2)
            if which == 1
            else (self.ids.colour_2, self.ids.colour_1)
        )
        start = COLOURS.index(mine.colour) if mine.colour in COLOURS else -1
        for step in range(1, len(COLOURS) + 1):
            colour = COLOURS[(start + step) % len(COLOURS)]
            if colour != other.colour:
                mine.colour = colour
                return

    def pick(self, key: str, value: Any) -> None:
        self.picks[key] = value
        self.toggles[key][value].state = "down"
        if key == "game":
            self.mem = value == "mem"
            self.colours = not self.mem and value not in self._touch_rows
            self._arrange()
        self.solitaire = (
            self.picks["mem_game"] == "solitaire"
            if self.mem
            else self.picks["game"] not in self._touch_rows
            and self.picks["mode"] in ("review", "study")
        )

    def choices(self) -> GameChoices | MemChoices | TouchChoices:
        if self.mem:
            return self._mem_choices()
        game = self.picks["game"]
        if game in self._touch_rows:
            return TouchChoices(
                game=game,
                names=(
                    self.ids.name_1.text.strip() or "Player 1",
                    self.ids.name_2.text.strip() or "Player 2",
                ),
                players=self.picks[f"{game}:players"],
                companion=self.ids.opponent_companion.state == "down",
                strength=self.picks[f"{game}:strength"],
            )
        names = (self.ids.name_1.text.strip() or "Player 1", self.ids.name_2.text.strip())
        opponent = self.ids.opponent_companion.state == "down"
        if opponent and not names[1]:
            names = (names[0], "Companion")
        return GameChoices(
            mode=self.picks["mode"],
            names=names if names[1] else (names[0], "Player 2"),
            colours=(self.ids.colour_1.colour, self.ids.colour_2.colour),
            path=self.picks["path"],
            patterns=self.picks["patterns"],
            handicap=self.picks["handicap"],
            basic_side=self.picks["basic_side"],
            sides=self.picks["sides"],
            deck=self.picks["deck"],
            quadrants=self.picks["quadrants"],
            depth=self.picks["depth"],
            topology=self.picks["topology"],
            centre_multipliers=self.picks["centre_multipliers"],
            time_control=self.picks["time_control"],
            opponent=opponent,
        )

    def _mem_choices(self) -> MemChoices:
        text = self.seed_input.text if self.seed_input is not None else ""
        seed = parse_seed(text)
        if seed is None and text.strip():
            raise ValueError(f"the deal must be a whole number, not {text.strip()!r}")
        names = (
            self.ids.name_1.text.strip() or "Player 1",
            self.ids.name_2.text.strip() or "Player 2",
        )
        return MemChoices(
            game=self.picks["mem_game"], names=names, seed=seed, hints=self.picks["hints"]
        )

    def start(self) -> None:
        try:
            self.companion.start_game(self.choices())
        except ValueError as err:
            self.problem = str(err)
