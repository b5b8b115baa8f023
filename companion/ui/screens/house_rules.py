"""House rules: every switch of the game chosen on New game, each with what its value means.
A game starts with the book's rules (the inventory's defaults); what is changed here goes
into its setup, and `companion rules GAME` lists the same switches."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.games import find_plugin
from companion.games.house_rules import HouseRule, value_text
from companion.ui.screens.base import AppScreen


def switches(game: str) -> tuple[HouseRule, ...]:
    """The house rules a touch can set: those with a short list of values."""
    return tuple(rule for rule in find_plugin(game).house_rules if len(rule.choices) > 1)


class HouseRulesScreen(AppScreen):
    title = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = ""
        self.chosen: dict[str, Any] = {}
        """The values that differ from the book's, by key."""
        self.toggles: dict[str, dict[Any, Any]] = {}
        self.meanings: dict[str, Label] = {}
        self.on_done: Callable[[dict[str, Any]], None] | None = None

    def show_for(
        self,
        game: str,
        chosen: Mapping[str, Any],
        on_done: Callable[[dict[str, Any]], None],
    ) -> None:
        """Lists `game`'s switches with `chosen` set; Done hands back what differs."""
        self.game = game
        self.chosen = dict(chosen)
        self.on_done = on_done
        self.title = f"{find_plugin(game).title}: house rules"
        rows = self.ids.rows
        rows.clear_widgets()
        self.toggles = {}
        self.meanings = {}
        for rule in switches(game):
            rows.add_widget(self._row(rule))
        rows.parent.scroll_y = 1

    def _row(self, rule: HouseRule) -> BoxLayout:
        value = self.chosen.get(rule.key, rule.default)
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
            button.bind(on_release=self._picker(rule, choice))
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

    def _picker(self, rule: HouseRule, value: Any) -> Callable[[Any], None]:
        return lambda _button: self.pick(rule.key, value)

    def pick(self, key: str, value: Any) -> None:
        rule = next(r for r in switches(self.game) if r.key == key)
        self.toggles[key][value].state = "down"
        if value == rule.default:
            self.chosen.pop(key, None)
        else:
            self.chosen[key] = value
        self.meanings[key].text = _sentence(rule.meaning_of(value))

    def book(self) -> None:
        """Every switch back to the book's rule."""
        for rule in switches(self.game):
            self.pick(rule.key, rule.default)

    def done(self) -> None:
        if self.on_done is not None:
            self.on_done(dict(self.chosen))
        self.manager.current = "new_game"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("." if text and not text.endswith(".") else "")
