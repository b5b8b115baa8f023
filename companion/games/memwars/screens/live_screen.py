"""The MemWars live screen: the board, the sides with their scores and clocks, the decisions
the rules offer now, the alerts of the camera, and on the simulated table the crystals a tap
lays."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton

from companion.games.memwars.palette import colour_rgb
from companion.games.memwars.play.live import LiveView
from companion.games.memwars.play.table import MemWarsPlay
from companion.games.memwars.screens.board import BoardView
from companion.ui.buttons import button_for
from companion.ui.screens.base import PlayScreen


class LiveScreen(PlayScreen):
    NAME = "live"
    layout = Path(__file__).with_name("live.kv")
    widgets = (BoardView,)

    has_table = BooleanProperty(False)
    """A simulated table is being filmed: taps can lay crystals on it."""
    has_reader = BooleanProperty(False)
    """A simulated card reader: any card can be scanned from the screen."""
    table_colour = StringProperty("")
    prompt = StringProperty("")
    alerts = StringProperty("")
    table_work = StringProperty("")
    """The rules' last move, still to be laid on the table (the game waits for it)."""
    message = StringProperty("")
    held = BooleanProperty(False)
    timed = BooleanProperty(False)
    card_front = StringProperty("")
    has_check = BooleanProperty(False)
    """The table is judging a card: the verifier panel can show its answers."""
    card_text = StringProperty("")
    said = StringProperty("")
    """What the last move did, in plain words."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: LiveView | None = None
        self.play: MemWarsPlay | None = None
        self.side_labels: list[Label] = []

    def follow(self, play: MemWarsPlay) -> None:
        """Plays `play` from now on: touches go to it."""
        self.play = play

    def show(self, view: LiveView) -> None:
        reading = self.companion.controller.reading
        self.has_reader = reading is not None and reading.emulated is not None
        table = self.play.table if self.play is not None else None
        if self.has_table != (table is not None):
            self.has_table = table is not None
            self._show_table_colours(table.colours if table is not None else ())
        self.view = view
        self.prompt = view.prompt
        # Laying the rules' own move on the table is work to do, not a mistake: said calmly,
        # apart from what the table got wrong.
        work = [a.text for a in view.alerts if a.put_right]
        self.table_work = "Lay it on the table: " + "; ".join(work) if work else ""
        self.alerts = "\n".join(a.text for a in view.alerts if not a.put_right)
        if view.camera.lost:
            self.alerts = (self.alerts + "\n" if self.alerts else "") + f"Camera {view.camera}"
        self.message = view.message
        self.said = view.said
        self.card_front = view.card_front
        self.held = view.held
        self.has_check = view.check is not None
        if view.check is None:
            self.card_text = ""
        choosing = any(b.needs_place for b in view.buttons) and not view.held
        self.ids.board.show(view, choosing)
        self._show_sides(view)
        self._show_buttons(view)

    def _show_sides(self, view: LiveView) -> None:
        box = self.ids.sides
        if len(self.side_labels) != len(view.side_names):
            box.clear_widgets()
            self.side_labels = []
            for colour in view.side_colours:
                label = Label(font_size="17sp", halign="center", markup=True)
                label.color = (*colour_rgb(colour), 1) if colour != "black" else (0.9, 0.9, 0.9, 1)
                box.add_widget(label)
                self.side_labels.append(label)
        self.show_clocks()

    def show_clocks(self) -> None:
        view = self.view
        if view is None:
            return
        face = self.companion.controller.clock_face()
        self.timed = bool(face.texts)
        self.ids.pause.text = "Resume" if face.paused else "Pause"
        for i, label in enumerate(self.side_labels):
            clock = ""
            if i < len(face.texts):
                clock = f"\n[b]{face.texts[i]}[/b]" if face.running == i else f"\n{face.texts[i]}"
                detail = face.details[i] if i < len(face.details) else ""
                if detail:
                    # A running delay in the accent colour: it counts down, not the time.
                    colour = "ffcf4a" if face.delaying == i else "aaaaaa"
                    clock += f"  [size=14sp][color={colour}]{detail}[/color][/size]"
            turn = "> " if view.actor == view.side_names[i] else ""
            label.text = f"{turn}{view.side_names[i]}: {view.scores[i]}{clock}"

    def _show_buttons(self, view: LiveView) -> None:
        grid = self.ids.buttons
        grid.clear_widgets()
        if view.takeback is not None:
            self.prompt = f"Take back the last move ({view.takeback.move})? Every side must agree."
            for side in view.takeback.waiting:
                grid.add_widget(self._choice(f"{view.side_names[side]} agrees", f"agree-{side}"))
            grid.add_widget(self._choice("No", "refuse", danger=True))
            return
        for button in view.buttons:
            widget = self._choice(button.label, button.key, button.danger)
            widget.disabled = view.held
            grid.add_widget(widget)

    def _choice(self, text: str, key: str, danger: bool = False) -> Button:
        widget = Button(
            text=text,
            font_size="17sp",
            size_hint_y=None,
            height="54dp",
            halign="center",
            valign="middle",
            background_normal="",
            background_color=(0.72, 0.22, 0.2, 1) if danger else (0.2, 0.42, 0.72, 1),
        )
        # Two to a row, a long label ("Claim right, challenge wrong") wraps.
        widget.bind(size=lambda button, size: setattr(button, "text_size", size))
        widget.decision = key
        widget.bind(on_release=self._decider(key))
        return widget

    def _decider(self, key: str) -> Callable[[Any], None]:
        return lambda _widget: self.decide(key)

    def button(self, key: str) -> Button | None:
        """The decision button for `key` (tests and keyboards find them by key)."""
        return button_for(self.ids.buttons, key)

    def show_card(self, shown: bool) -> None:
        """The verifier panel: the card's answers while the button is held, so that only
        whoever judges, looking at the screen then, sees them."""
        check = self.view.check if self.view is not None else None
        if not shown or check is None:
            self.card_text = ""
            return
        lines = [f"Card {check.number} (place {check.place}):"]
        lines += [f"{level}. {answer}" for level, answer in enumerate(check.answers, start=1)]
        self.card_text = "\n".join(lines)

    def _show_table_colours(self, colours: Sequence[str]) -> None:
        box = self.ids.table_colours
        box.clear_widgets()
        for colour in colours:
            chip = ToggleButton(
                group="table-colour",
                allow_no_selection=False,
                background_normal="",
                background_down="",
                background_color=(*colour_rgb(colour), 1),
                font_size="20sp",
                bold=True,
            )
            chip.colour = colour
            chip.bind(state=_mark_chosen, on_release=self._table_colour_picker(colour))
            box.add_widget(chip)
        if colours:
            self.table_colour = colours[0]
            box.children[-1].state = "down"

    def _table_colour_picker(self, colour: str) -> Callable[[Any], None]:
        def pick(_chip: Any) -> None:
            self.table_colour = colour

        return pick

    def lay_table(self, on: bool) -> None:
        """While on, taps on the board put crystals of the chosen colour on the simulated
        table (or take one off): the camera reads them, as it would a player's hand."""
        board = self.ids.board
        board.on_table = self._table_tap if on else None

    def _table_tap(self, number: int) -> None:
        if self.play is not None:
            self.play.table_tap(str(number), self.table_colour)

    def decide(self, key: str) -> None:
        if self.play is None:
            return
        live = self.play.live
        if key.startswith("agree-"):
            live.agree_take_back(int(key.removeprefix("agree-")))
        elif key == "refuse":
            live.refuse_take_back()
        else:
            live.decide(key, int(self.ids.board.chosen))

    def scan_card(self) -> None:
        text = self.ids.card_number.text.strip()
        problem = self.companion.controller.scan_card(int(text)) if text else "type a card's number"
        if problem:
            self.message = problem.capitalize() + "."

    def ask_take_back(self) -> None:
        if self.play is not None:
            self.play.live.ask_take_back()

    def override(self) -> None:
        if self.play is not None:
            self.play.live.override_all()

    def pause(self) -> None:
        self.companion.controller.pause()
        self.show_clocks()

    def leave(self) -> None:
        # The game stays in the store, playing: Home offers to resume it.
        self.companion.controller.close()
        self.manager.current = "home"


def _mark_chosen(chip: ToggleButton, state: str) -> None:
    chip.text = "X" if state == "down" else ""
