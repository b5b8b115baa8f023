"""All options: every option of the game chosen on New game, grouped as its rule book groups
them, each with its question and rule, then every house rule with what its value means.
Named setups are loaded and saved here (companion/table/setups.py).

What is chosen here has the last word over New game's rows: the page opens on what the rows
say, and keeps only what differs from it. A game starts with the book's rules and options
(the inventory's defaults) otherwise; `companion setup new GAME` lists the same."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput

from companion.errors import UserError
from companion.games import find_plugin
from companion.games.house_rules import HouseRule, value_text
from companion.games.options import GameOption, option_for
from companion.table.setups import GameSetup, save_setup, saved_setups
from companion.ui.screens.base import AppScreen


def switches(game: str) -> tuple[HouseRule, ...]:
    """The house rules a touch can set: those with a short list of values."""
    return tuple(rule for rule in find_plugin(game).house_rules if len(rule.choices) > 1)


@dataclass
class Agreed:
    """What the page hands back: the options and house rules that differ from New game's
    rows and the book, and the named setup they came from, if any."""

    options: dict[str, Any] = field(default_factory=dict)
    house_rules: dict[str, Any] = field(default_factory=dict)
    setup_name: str = ""


class AllOptionsScreen(AppScreen):
    title = StringProperty("")
    said = StringProperty("")
    """What the last save or load did, or why it could not."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = ""
        self.sides = 2
        self.implied: dict[str, Any] = {}
        """What New game's rows say, by option key."""
        self.agreed = Agreed()
        self.toggles: dict[str, dict[Any, Any]] = {}
        """Per key (an option for one side, or a house rule): its buttons by value."""
        self.texts: dict[str, TextInput] = {}
        self.meanings: dict[str, Label] = {}
        self.on_done: Callable[[Agreed], None] | None = None

    # -- showing ---------------------------------------------------------------------------

    def show_for(
        self,
        game: str,
        sides: int,
        implied: Mapping[str, Any],
        agreed: Agreed,
        on_done: Callable[[Agreed], None],
    ) -> None:
        """Lists `game`'s options for `sides` sides (as the rows say, `implied`, with `agreed`
        over them) and its house rules; Done hands back what differs."""
        self.game = game
        self.sides = sides
        self.implied = dict(implied)
        self.agreed = Agreed(dict(agreed.options), dict(agreed.house_rules), agreed.setup_name)
        self.on_done = on_done
        self.said = ""
        self.title = f"{find_plugin(game).title}: all options"
        self._fill()

    def _fill(self) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        self.toggles, self.texts, self.meanings = {}, {}, {}
        presets = saved_setups(self.game)
        if presets:
            rows.add_widget(self._heading("Saved setups"))
            rows.add_widget(self._presets(presets))
        group = ""
        for option in find_plugin(self.game).options:
            if option.group != group:
                group = option.group
                rows.add_widget(self._heading(group))
            keys = (
                [(option.for_side(s), f"Side {s + 1}: ") for s in range(self.sides)]
                if option.per_side
                else [(option.key, "")]
            )
            for key, who in keys:
                rows.add_widget(self._option_row(option, key, who))
        if switches(self.game):
            rows.add_widget(self._heading("House rules"))
            for rule in switches(self.game):
                rows.add_widget(self._rule_row(rule))
        rows.parent.scroll_y = 1

    def value(self, key: str, option: GameOption) -> Any:
        """An option's value as the game would start: chosen here, else the rows', else
        the book's."""
        if key in self.agreed.options:
            return self.agreed.options[key]
        return self.implied.get(key, option.default)

    def _heading(self, text: str) -> Label:
        label = Factory.Heading(text=text, font_size="17sp", size_hint_y=None, height="30dp")
        label.halign = "left"
        label.bind(size=lambda widget, size: setattr(widget, "text_size", size))
        return label

    def _presets(self, presets: list[GameSetup]) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height="40dp", spacing="6dp")
        for setup in presets[:6]:
            button = Factory.BigButton(text=setup.name, height="40dp", font_size="15sp")
            button.background_color = (0.3, 0.4, 0.55, 1)
            button.bind(on_release=lambda _b, chosen=setup: self.load(chosen))
            row.add_widget(button)
        return row

    def _question(self, text: str) -> Label:
        label = Label(text=text, font_size="15sp", halign="left", valign="middle", size_hint_y=None)
        label.bind(
            width=lambda widget, width: setattr(widget, "text_size", (width, None)),
            texture_size=lambda widget, size: setattr(widget, "height", size[1]),
        )
        return label

    def _option_row(self, option: GameOption, key: str, who: str) -> BoxLayout:
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing="2dp")
        rule = f"  [size=12sp]{option.rule}[/size]" if option.rule else ""
        question = self._question(f"{who}{option.question}{rule}")
        question.markup = True
        box.add_widget(question)
        buttons = BoxLayout(size_hint_y=None, height="40dp", spacing="6dp")
        value = self.value(key, option)
        if option.typed:
            field_ = TextInput(text=value or "", multiline=False, font_size="16sp")
            field_.bind(text=lambda _w, text, k=key, o=option: self.pick(k, o, text))
            self.texts[key] = field_
            buttons.add_widget(field_)
        else:
            self.toggles[key] = {}
            chosen = set(value) if option.many and isinstance(value, list) else {value}
            for text, choice in option.choices:
                if option.many:
                    button = Factory.ToggleButton(text=text, font_size="15sp")
                else:
                    button = Factory.Choice(text=text, group=f"option-{key}", font_size="15sp")
                button.state = "down" if _in(choice, chosen) else "normal"
                button.bind(on_release=lambda _b, k=key, o=option, c=choice: self.tap(k, o, c))
                self.toggles[key][_hashable(choice)] = button
                buttons.add_widget(button)
        box.add_widget(buttons)
        box.bind(minimum_height=box.setter("height"))
        return box

    def _rule_row(self, rule: HouseRule) -> BoxLayout:
        value = self.agreed.house_rules.get(rule.key, rule.default)
        box = BoxLayout(orientation="vertical", size_hint_y=None, height="84dp", spacing="2dp")
        buttons = BoxLayout(size_hint_y=None, height="40dp", spacing="6dp")
        label = Factory.RowLabel(text=f"{rule.title}  [size=12sp]{rule.settles}[/size]")
        label.markup = True
        label.width = "240dp"
        label.font_size = "15sp"
        buttons.add_widget(label)
        self.toggles[rule.key] = {}
        for choice in rule.choices:
            button = Factory.Choice(text=value_text(choice), group=f"rule-{rule.key}")
            button.font_size = "15sp"
            button.bind(on_release=lambda _b, r=rule, c=choice: self.pick_rule(r.key, c))
            button.state = "down" if choice == value else "normal"
            self.toggles[rule.key][choice] = button
            buttons.add_widget(button)
        meaning = Label(
            text=_sentence(rule.meaning_of(value)),
            font_size="14sp",
            color=(0.8, 0.8, 0.8, 1),
            halign="left",
        )
        meaning.bind(size=lambda widget, size: setattr(widget, "text_size", (size[0], None)))
        self.meanings[rule.key] = meaning
        box.add_widget(buttons)
        box.add_widget(meaning)
        return box

    # -- choosing --------------------------------------------------------------------------

    def tap(self, key: str, option: GameOption, choice: Any) -> None:
        """A button of an option: picks it, or for a `many` option, puts it in or out (one
        is always left in)."""
        if not option.many:
            self.pick(key, option, choice)
            return
        current = list(self.value(key, option))
        if _in(choice, current):
            if len(current) > 1:
                current = [c for c in current if c != choice]
        else:
            current.append(choice)
        order = [_hashable(c) for _t, c in option.choices]
        self.pick(key, option, sorted(current, key=lambda c: order.index(_hashable(c))))

    def pick(self, key: str, option: GameOption, value: Any) -> None:
        if value == self.implied.get(key, option.default):
            self.agreed.options.pop(key, None)
        else:
            self.agreed.options[key] = value
        self.agreed.setup_name = ""
        self._show(key, option)

    def _show(self, key: str, option: GameOption) -> None:
        value = self.value(key, option)
        if option.typed:
            if self.texts[key].text != (value or ""):
                self.texts[key].text = value or ""
            return
        chosen = value if option.many else [value]
        for choice, button in self.toggles[key].items():
            button.state = "down" if _in(choice, [_hashable(c) for c in chosen]) else "normal"

    def pick_rule(self, key: str, value: Any) -> None:
        rule = next(r for r in switches(self.game) if r.key == key)
        self.toggles[key][value].state = "down"
        if value == rule.default:
            self.agreed.house_rules.pop(key, None)
        else:
            self.agreed.house_rules[key] = value
        self.agreed.setup_name = ""
        self.meanings[key].text = _sentence(rule.meaning_of(value))

    def book(self) -> None:
        """Every option as the rows say and every house rule as the book says."""
        self.agreed = Agreed()
        self._fill()

    def load(self, setup: GameSetup) -> None:
        """A named setup's options and house rules, in place of what was chosen here."""
        self.agreed = Agreed(dict(setup.options), dict(setup.house_rules), setup.name)
        self._fill()
        self.said = f"Loaded {setup.name}."

    def save(self) -> None:
        """Keeps what is chosen here under the name typed."""
        name = self.ids.setup_name.text.strip()
        if not name:
            self.said = "Type a name to save these options under."
            return
        # What the game would start with, rows included, less what the book says anyway:
        # a named setup stands on its own, whatever the rows say when it is loaded.
        options = find_plugin(self.game).options
        effective = {**self.implied, **self.agreed.options}
        kept = {
            key: value
            for key, value in effective.items()
            if (option := option_for(key, options)) is not None and value != option.default
        }
        setup = GameSetup(self.game, kept, dict(self.agreed.house_rules))
        try:
            save_setup(setup, name)
        except (UserError, OSError) as err:
            self.said = f"Not saved: {err}"
            return
        self.agreed.setup_name = name
        self.said = f"Saved as {name}."
        self._fill()

    def done(self) -> None:
        if self.on_done is not None:
            self.on_done(
                Agreed(
                    dict(self.agreed.options),
                    dict(self.agreed.house_rules),
                    self.agreed.setup_name,
                )
            )
        self.manager.current = "new_game"


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _in(choice: Any, values: Any) -> bool:
    # True == 1 in Python: a bool matches only a bool.
    return any(choice == v and type(choice) is type(v) for v in values)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("." if text and not text.endswith(".") else "")
