"""New game: the game, its players and its options, most used first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from companion.errors import UserError
from companion.games import find_plugin, plugin_names
from companion.table.assignment import Assignment
from companion.table.choices import RGBA, ChoiceRow, NewGameForm, Players, new_deal
from companion.table.play import seat_of
from companion.table.setups import GameSetup, find_setup
from companion.ui.screens.all_options import Agreed
from companion.ui.screens.base import AppScreen


def game_row(default: str) -> ChoiceRow:
    """Which board game, among every game's plugin: the rows below it are that game's."""
    return ChoiceRow(
        "Board game", "game", tuple((find_plugin(n).title, n) for n in plugin_names()), default
    )


class NewGameScreen(AppScreen):
    solitaire = BooleanProperty(False)
    colours = BooleanProperty(False)
    """The game chosen lets each side pick its colour (the others give each seat its own).
    Set once the rows are built: the colour buttons are drawn in the game's colours then."""
    problem = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        # The layout asks for the colour buttons' colours as it is applied, in __init__.
        self.picks: dict[str, Any] = {}
        self._forms: dict[str, NewGameForm] = {}
        super().__init__(**kwargs)
        self.toggles: dict[str, dict[Any, Any]] = {}
        self._built = False
        self._rows: dict[str, list[Any]] = {}
        """Per game: its rows."""
        self._top_rows: list[Any] = []
        self._opponent_row: Any = None
        self._deal_row: Any = None
        self._options_row: Any = None
        self._away = False
        self.agreed: dict[str, Agreed] = {}
        """Per game: the options and house rules chosen on All options."""
        self.seed_input: TextInput | None = None

    @property
    def form(self) -> NewGameForm:
        """The game chosen's."""
        return self._forms[self.picks["game"]]

    def on_pre_enter(self, *_: Any) -> None:
        if not self._built:
            self._build_rows()
            self._built = True
        self.problem = ""
        if self._away:
            self._away = False  # back from the house rules: the deal typed stands
        elif self.seed_input is not None:
            self.new_deal()

    def _build_rows(self) -> None:
        rows = self.ids.rows
        # The players' row and the opponent's row come from the kv file.
        players, opponent = reversed(rows.children)
        rows.clear_widgets()
        self._opponent_row = opponent
        config = self.companion.controller.config
        first = plugin_names()[0]
        self._top_rows = [self._choice_row(game_row(first)), players]
        self.picks["game"] = first
        for game in plugin_names():
            form = self._forms[game] = seat_of(game).form(game)
            self._rows[game] = []
            for row in form.rows(config):
                if row.key in self.picks:
                    raise ValueError(f"two games' New game rows share the key {row.key!r}")
                self._rows[game].append(self._choice_row(row))
                self.picks[row.key] = row.default
            if form.deal:
                self._rows[game].append(self._dealt())
            self._rows[game].append(self._all_options_row())
        self.pick("game", first)

    def _choice_row(self, choice: ChoiceRow) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height="40dp", spacing="6dp")
        row.add_widget(Factory.RowLabel(text=choice.label))
        self.toggles[choice.key] = {}
        for text, value in choice.options:
            button = Factory.Choice(text=text, group=f"choice-{choice.key}")
            button.bind(on_release=self._picker(choice.key, value))
            if value == choice.default:
                button.state = "down"
            self.toggles[choice.key][value] = button
            row.add_widget(button)
        return row

    def _dealt(self) -> BoxLayout:
        """The deal's number: random, shown, and typed again to repeat a deal. One row,
        shared by every game that is dealt."""
        if self._deal_row is not None:
            return self._deal_row
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
        self._deal_row = row
        self.new_deal()
        return row

    def _all_options_row(self) -> BoxLayout:
        """What is set beyond the rows (options, house rules, a named setup), and the button
        to the page that sets them: one row, shared."""
        if self._options_row is not None:
            return self._options_row
        row = BoxLayout(size_hint_y=None, height="40dp", spacing="6dp")
        row.add_widget(Factory.RowLabel(text="All options"))
        button = Factory.BigButton(height="40dp", font_size="17sp")
        button.background_color = (0.33, 0.33, 0.36, 1)
        button.bind(on_release=lambda _button: self.change_options())
        row.add_widget(button)
        self._options_row = row
        self.options_button = button
        return row

    def _show_options(self) -> None:
        if self._options_row is None:
            return
        agreed = self.agreed.get(self.picks["game"], Agreed())
        options, rules = len(agreed.options), len(agreed.house_rules)
        if agreed.setup_name:
            text = f"{agreed.setup_name} (change...)"
        elif options or rules:
            counted = [(options, "option"), (rules, "house rule")]
            said = " and ".join(f"{n} {what}{'s' if n > 1 else ''}" for n, what in counted if n)
            text = f"{said} set (change...)"
        else:
            text = "As the book and the rows say (change...)"
        self.options_button.text = text

    def change_options(self) -> None:
        """Every option and house rule of the game chosen, on a page of their own."""
        game = self.picks["game"]

        def done(agreed: Agreed) -> None:
            self.agreed[game] = agreed
            self._show_options()

        config = self.companion.controller.config
        self.companion.screen("all_options").show_for(
            game,
            self.form.sides(self.picks),
            self.form.options_of(self.picks, config),
            self.agreed.get(game, Agreed()),
            on_done=done,
        )
        self._away = True
        self.manager.current = "all_options"

    def use_assignment(self, assignment: Assignment) -> None:
        """The game a tournament hub assigns this table: its game, its players in seating
        order and its named setup, when this table has it."""
        if not self._built:
            self._build_rows()
            self._built = True
        if assignment.game in plugin_names():
            self.pick("game", assignment.game)
        names = [*assignment.names, "", ""]
        self.ids.name_1.text, self.ids.name_2.text = names[0], names[1]
        self.problem = ""
        if assignment.setup:
            try:
                setup = find_setup(assignment.setup)
            except UserError:
                self.problem = f"No setup {assignment.setup!r} on this table: save it first."
                return
            if setup.game == self.picks["game"]:
                self.use_setup(setup)

    def use_setup(self, setup: GameSetup) -> None:
        """Chooses the setup's game, with its options and house rules (`companion app
        --setup`)."""
        if not self._built:
            self._build_rows()
            self._built = True
        self.agreed[setup.game] = Agreed(
            dict(setup.options), dict(setup.house_rules), setup.name or "a setup file"
        )
        self.pick("game", setup.game)

    def new_deal(self) -> None:
        if self.seed_input is not None:
            self.seed_input.text = str(new_deal())

    def _arrange(self) -> None:
        """Shows the rows of the game chosen, and only those."""
        rows = self.ids.rows
        rows.clear_widgets()
        form = self.form
        below = [self._opponent_row] if form.companion else []
        for row in (*self._top_rows, *below, *self._rows[self.picks["game"]]):
            rows.add_widget(row)
        rows.parent.scroll_y = 1  # from the top, whichever list was scrolled before

    def _picker(self, key: str, value: Any) -> Callable[[Any], None]:
        return lambda _button: self.pick(key, value)

    def colour_rgba(self, name: str) -> RGBA:
        """How a colour button of the game chosen is drawn."""
        if self.picks.get("game") not in self._forms:
            return (0.5, 0.5, 0.5, 1.0)  # not built yet
        return self.form.colours.get(name, (0.5, 0.5, 0.5, 1.0))

    def next_colour(self, which: int) -> None:
        """Gives side `which` (1 or 2) the next colour the other side has not taken."""
        colours = tuple(self.form.colours)
        mine, other = (
            (self.ids.colour_1, self.ids.colour_2)
            if which == 1
            else (self.ids.colour_2, self.ids.colour_1)
        )
        start = colours.index(mine.colour) if mine.colour in colours else -1
        for step in range(1, len(colours) + 1):
            colour = colours[(start + step) % len(colours)]
            if colour != other.colour:
                mine.colour = colour
                return

    def pick(self, key: str, value: Any) -> None:
        self.picks[key] = value
        self.toggles[key][value].state = "down"
        if key == "game":
            self.colours = bool(self.form.colours)
            self._arrange()
            self._show_options()
        self.solitaire = self.form.solitaire(self.picks)

    def choices(self) -> Any:
        """The choices of the game chosen, from every row (ValueError for a bad deal)."""
        players = Players(
            names=(self.ids.name_1.text.strip(), self.ids.name_2.text.strip()),
            colours=(self.ids.colour_1.colour, self.ids.colour_2.colour),
            companion=self.ids.opponent_companion.state == "down",
            deal=self.seed_input.text if self.seed_input is not None else "",
        )
        game = self.picks["game"]
        agreed = self.agreed.get(game, Agreed())
        return self.form.choices(self.picks, players, agreed.house_rules, agreed.options)

    def start(self) -> None:
        try:
            self.companion.start_game(self.picks["game"], self.choices())
        except ValueError as err:
            self.problem = str(err)
