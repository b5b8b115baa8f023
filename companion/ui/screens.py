"""The app's screens. Layout is in kv/*.kv; here are the properties the layouts show and the
handlers the buttons call. Every decision goes to the controller; no rule is decided here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton

from companion.games import find_plugin, plugin_names
from companion.games.mem.play.game import MemView
from companion.games.mem.screens.board import side_rgb
from companion.games.mem.screens.choices import MEM_GAMES, MemChoices, new_seed, parse_seed
from companion.games.memwars.play.live import LiveView
from companion.games.memwars.screens.board import colour_rgb
from companion.table.touch_play import TouchView
from companion.ui.buttons import button_for
from companion.ui.controller import (
    COLOURS,
    MODES,
    PATHS,
    TIME_CONTROLS,
    GameChoices,
    TouchChoices,
)

if TYPE_CHECKING:
    from companion.ui.app import CompanionApp

PREVIEW_SECONDS = 0.4


class AppScreen(Screen):
    """A screen of the companion app; `companion` is set when the app builds it."""

    companion: CompanionApp


class HomeScreen(AppScreen):
    """Offers the most recent interrupted game to resume, or to delete; once one is
    deleted, the next one is offered."""

    DELETE = "Delete"
    DELETE_AGAIN = "Delete? Tap again"
    DELETE_SECONDS = 5.0
    """How long Delete waits for the second tap that confirms it."""

    subtitle = StringProperty("")
    resume_text = StringProperty("Nothing to resume")
    can_resume = BooleanProperty(False)
    delete_text = StringProperty(DELETE)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.offered: int | None = None
        """The id of the game the Resume and Delete buttons are for."""
        self._doomed: int | None = None
        """The game a first tap on Delete asked about: a second tap deletes it."""
        self._calm_down: Any = None

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def on_leave(self, *_: Any) -> None:
        self._disarm()

    def refresh(self) -> None:
        app = self.companion
        games = app.controller.resumable()
        self.resume_text = (
            f"Resume: {games[0].title} (move {games[0].actions})" if games else "Nothing to resume"
        )
        self.can_resume = bool(games)
        self.offered = games[0].id if games else None
        self.subtitle = f"Display page: {app.page_url}" if app.page_url else ""
        if self._doomed != self.offered:
            self._disarm()

    def resume(self) -> None:
        games = self.companion.controller.resumable()
        if games:
            self.companion.resume_game(games[0].id)

    def delete(self) -> None:
        """The first tap asks; a second one, on the same game and soon after, deletes it."""
        if self.offered is None:
            return
        if self._doomed != self.offered:
            self._doomed = self.offered
            self.delete_text = self.DELETE_AGAIN
            # A forgotten first tap must not turn a much later tap into a deletion.
            self._calm_down = Clock.schedule_once(lambda _dt: self._disarm(), self.DELETE_SECONDS)
            return
        from contextlib import suppress

        from companion.store import UnknownGame

        self._disarm()
        # Gone already (`companion games delete` on the same store): Home shows what is left.
        with suppress(UnknownGame):
            self.companion.controller.delete_game(self.offered)
        self.refresh()

    def _disarm(self) -> None:
        if self._calm_down is not None:
            self._calm_down.cancel()
            self._calm_down = None
        self._doomed = None
        self.delete_text = self.DELETE


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


class LiveScreen(AppScreen):
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
        self.side_labels: list[Label] = []

    def show(self, view: LiveView) -> None:
        reading = self.companion.controller.reading
        self.has_reader = reading is not None and reading.emulated is not None
        table = self.companion.controller.table
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
        if view.camera.startswith("lost"):
            self.alerts = (self.alerts + "\n" if self.alerts else "") + "Camera " + view.camera
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
        self.companion.controller.table_tap(str(number), self.table_colour)

    def decide(self, key: str) -> None:
        live = self.companion.controller.live
        if key.startswith("agree-"):
            live.agree_take_back(int(key.removeprefix("agree-")))
        elif key == "refuse":
            live.refuse_take_back()
        else:
            self.companion.decide(key, int(self.ids.board.chosen))

    def scan_card(self) -> None:
        text = self.ids.card_number.text.strip()
        problem = self.companion.controller.scan_card(int(text)) if text else "type a card's number"
        if problem:
            self.message = problem.capitalize() + "."

    def ask_take_back(self) -> None:
        self.companion.controller.live.ask_take_back()

    def override(self) -> None:
        self.companion.controller.live.override_all()

    def pause(self) -> None:
        self.companion.controller.pause()
        self.show_clocks()

    def leave(self) -> None:
        # The game stays in the store, playing: Home offers to resume it.
        self.companion.controller.close()
        self.manager.current = "home"


def _mark_chosen(chip: ToggleButton, state: str) -> None:
    chip.text = "X" if state == "down" else ""


class StudyScreen(AppScreen):
    """Spaced repetition over the deck: recall the card of the ringed place (put a crystal
    on it and say its answers), look, and rate the recall; the board shows how well every
    card is known now."""

    title = StringProperty("")
    prompt = StringProperty("")
    answers = StringProperty("")
    counts = StringProperty("")
    studying = BooleanProperty(False)

    def on_pre_enter(self, *_: Any) -> None:
        study = self.companion.controller.study()
        self.title = f"Study: {study.deck.title}"
        self.refresh()

    def refresh(self) -> None:
        study = self.companion.controller.study()
        card = study.card
        self.studying = card is not None
        self.answers = ""
        if card is None:
            next_due = study.next_due()
            when = f" The next card is due {next_due:%d %b %H:%M} UTC." if next_due else ""
            self.prompt = "Nothing to study now." + when
        else:
            self.prompt = (
                f"Place {card.place}: put a crystal on it and recall its card "
                f"({card.depth} answers), then look and rate yourself."
            )
        due, new, learnt = study.counts()
        self.counts = f"Due now {due} · new {new} · learnt {learnt}"
        self.ids.board.show_heat(study.strengths(), card.place if card is not None else 0)

    def show_answers(self, shown: bool) -> None:
        card = self.companion.controller.study().card
        if not shown or card is None:
            self.answers = ""
            return
        self.answers = "\n".join(
            f"{level}. {card.fact(level)}" for level in range(1, card.depth + 1)
        )

    def rate(self, rating: str) -> None:
        self.companion.controller.study().rate(rating)
        self.refresh()

    def leave(self) -> None:
        self.manager.current = "home"


class CameraScreen(AppScreen):
    """The camera's picture with the markers and places drawn over it, the board to calibrate
    for (MemWars or MeM), the pieces to lay, and the calibration; the preview refreshes while
    the screen is shown. What it says comes from companion/table/camera_setup.py."""

    status = StringProperty("")
    instructions = StringProperty("")
    result = StringProperty("")
    result_colour = ListProperty([1, 1, 1, 1])
    simulated = BooleanProperty(False)
    board = StringProperty("memwars")
    """The board calibrated for: 'memwars' or 'mem'."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._refresh: Any = None

    def on_pre_enter(self, *_: Any) -> None:
        self.board = self.companion.controller.camera_board
        if self._set_up(self.board):
            self._refresh = Clock.schedule_interval(lambda _dt: self.refresh(), PREVIEW_SECONDS)

    def choose(self, game: str) -> None:
        """A tap on the board row: the plan and the preview become that board's."""
        self.board = game
        self._set_up(game)

    def _set_up(self, game: str) -> bool:
        from companion.errors import UserError

        try:
            setup = self.companion.controller.choose_camera_board(game)
        except UserError as err:  # the camera given cannot be opened
            self.status, self.instructions, self.result = str(err), "", ""
            return False
        self.instructions = setup.instructions
        self.simulated = self.companion.controller.simulated_camera is not None
        self.result = ""
        self.refresh()
        return True

    def on_leave(self, *_: Any) -> None:
        if self._refresh is not None:
            self._refresh.cancel()
            self._refresh = None
        self.companion.controller.close_camera_setup()

    def refresh(self) -> None:
        from companion.errors import UserError

        try:
            picture, self.status = self.companion.controller.camera_setup().preview()
        except UserError as err:  # the camera stopped (unplugged, say)
            self.status = str(err)
            return
        if picture is not None:
            self.ids.preview.texture = texture_of(picture)

    def lay_plan(self) -> None:
        self.companion.controller.lay_calibration_plan()
        self.refresh()

    def calibrate(self) -> None:
        from companion.table.camera_setup import outcome_text

        setup = self.companion.controller.camera_setup()
        outcome = setup.calibrate()
        if outcome.picture is not None:
            self.ids.preview.texture = texture_of(outcome.picture)
        self.result = outcome_text(outcome, setup.game)
        self.result_colour = [0.5, 1, 0.5, 1] if outcome.saved else [1, 0.45, 0.4, 1]

    def leave(self) -> None:
        self.manager.current = "home"


class EnrollScreen(AppScreen):
    """Enrolling the deck's RFID tags, card by card, on the configured reader (or the
    simulated one): resumable, a tag already on another card refused."""

    title = StringProperty("")
    prompt = StringProperty("")
    last = StringProperty("")
    reader_text = StringProperty("")
    total = NumericProperty(1)
    done_count = NumericProperty(0)
    simulated = BooleanProperty(False)
    finished = BooleanProperty(False)

    def on_pre_enter(self, *_: Any) -> None:
        enrolling = self.companion.controller.start_enrollment(on_change=self.refresh)
        self.title = f"Enroll: {enrolling.deck_title}"
        self.simulated = enrolling.simulated
        self.reader_text = enrolling.reader_text
        self.last = ""
        self.refresh()

    def on_leave(self, *_: Any) -> None:
        self.companion.controller.stop_enrollment()

    def refresh(self) -> None:
        enrolling = self.companion.controller.enrolling
        if enrolling is None:
            return
        enrollment = enrolling.desk.enrollment
        self.finished = enrollment.done
        at, total = enrollment.progress()
        self.total = max(1, total)
        self.done_count = total if enrollment.done else at - 1
        card = enrollment.expected()
        self.prompt = (
            f"Scan card {card.number}: {card.name}"
            if card is not None
            else "Every card has been visited."
        )
        self.last = enrolling.desk.last

    def scan_next(self) -> None:
        problem = self.companion.controller.scan_next_for_enrollment()
        if problem:
            self.last = problem

    def leave(self) -> None:
        self.manager.current = "home"


def texture_of(picture: Any) -> Any:
    """A Kivy texture of an OpenCV (BGR, top row first) picture."""
    import numpy as np
    from kivy.graphics.texture import Texture

    height, width = picture.shape[:2]
    texture = Texture.create(size=(width, height), colorfmt="bgr")
    # Kivy's rows go bottom up.
    texture.blit_buffer(
        np.ascontiguousarray(picture[::-1]).tobytes(), colorfmt="bgr", bufferfmt="ubyte"
    )
    return texture


class EndScreen(AppScreen):
    result = StringProperty("")
    drawn = BooleanProperty(False)
    """The final board is drawn (a game on a drawn board) instead of the score plot."""

    def show(self, view: LiveView, summary: dict[str, Any]) -> None:
        self.drawn = False
        scores = summary["scores"]
        outcome = summary.get("outcome") or {}
        winners: Sequence[int] = outcome.get("winners", scores.get("leaders", []))
        names = [view.side_names[w] if w >= 0 else "the board" for w in winners]
        self.result = ("Winner: " if len(names) == 1 else "Tied: ") + ", ".join(names)
        grid = self.ids.breakdown
        grid.clear_widgets()
        grid.cols = 1 + len(view.side_names)
        rows = (
            ("", [n for n in view.side_names]),
            ("Places", [s["places"] for s in scores["sides"]]),
            ("Place points", [s["place_points"] for s in scores["sides"]]),
            ("Counters", [s["counter_points"] for s in scores["sides"]]),
            ("Quadrant bonus", [s["quadrant_bonus"] for s in scores["sides"]]),
            ("Captures", [s["capture_points"] for s in scores["sides"]]),
            ("Patterns", [s["pattern_points"] for s in scores["sides"]]),
            ("Board penalty", [-s["board_penalty"] for s in scores["sides"]]),
            ("Total", [s["total"] for s in scores["sides"]]),
        )
        for title, values in rows:
            grid.add_widget(Label(text=title, font_size="15sp", halign="left"))
            for value in values:
                grid.add_widget(Label(text=str(value), font_size="15sp", bold=title == "Total"))
        self.ids.plot.draw_history(view.history, [colour_rgb(c) for c in view.side_colours])

    def show_touch(self, view: TouchView) -> None:
        """The end of a game played on a drawn board: its result, and each side's line."""
        self.result = view.result or "The game is over."
        grid = self.ids.breakdown
        grid.clear_widgets()
        grid.cols = 1
        for line in view.side_lines:
            grid.add_widget(Label(text=line, font_size="15sp", halign="left"))
        self.drawn = True
        self.ids.board.show(view.drawing)

    def show_mem(self, view: MemView, summary: dict[str, Any]) -> None:
        """A MeM game's end: the engine's result line, each player's stones (pattern and
        captured pile), and their stones after every action."""
        self.drawn = False
        lines: list[str] = summary.get("lines", [])
        self.result = lines[-1] if lines else "The game is over."
        sides = summary["scores"]["sides"]
        grid = self.ids.breakdown
        grid.clear_widgets()
        grid.cols = 1 + len(view.names)
        rows = (
            ("", list(view.names)),
            ("Pattern", [s["pattern"] for s in sides]),
            ("Captured pile", [s["pile"] for s in sides]),
            ("Total", [s["total"] for s in sides]),
        )
        for title, values in rows:
            grid.add_widget(Label(text=title, font_size="15sp", halign="left"))
            for value in values:
                grid.add_widget(Label(text=str(value), font_size="15sp", bold=title == "Total"))
        colours = [side_rgb(i) for i in range(len(view.names))]
        self.ids.plot.draw_history(view.history, colours)


SETTINGS_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("Board id", "game", "board_id"),
    ("Deck", "game", "deck"),
    ("Camera", "camera", "source"),
    ("Reader port", "reader", "port"),
    ("Reader protocol", "reader", "protocol"),
    ("Broker URL", "broker", "url"),
    ("Topic prefix", "broker", "prefix"),
    ("Broker user", "broker", "username"),
    ("Broker password", "broker", "password"),
    ("Broker CA file", "broker", "ca_file"),
    ("Client cert", "broker", "cert_file"),
    ("Client key", "broker", "key_file"),
    ("Home Assistant", "broker", "home_assistant"),
    ("Button pins", "pins", "players"),
    ("Pause pin", "pins", "pause"),
    ("LED pins", "pins", "leds"),
    ("Buzzer pin", "pins", "buzzer"),
)
"""The settings the screen edits: label, configuration section and key."""

YES_NO = ("yes", "no")
"""How the screen shows a setting that is on or off."""


class SettingsScreen(AppScreen):
    """The settings a table needs, edited and saved to the configuration file (checked as
    the file would be); the display page's address as text and as a QR code.

    A setting with a few possible values (the reader's protocol, on or off) is chosen from
    a list, so it cannot be mistyped; every other one is typed and checked at Save."""

    details = StringProperty("")
    qr_path = StringProperty("")
    page_url = StringProperty("")
    result = StringProperty("")
    result_colour = ListProperty([1, 1, 1, 1])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.inputs: dict[tuple[str, str], Any] = {}
        """Each setting's widget, by section and key: a TextInput, or a Spinner of choices.
        Both hold the setting as `text`."""

    def on_pre_enter(self, *_: Any) -> None:
        config = self.companion.controller.config
        values = config.to_dict()
        grid = self.ids.fields
        if not self.inputs:
            for label, section, key in SETTINGS_FIELDS:
                grid.add_widget(Factory.RowLabel(text=label, height="40dp", size_hint_y=None))
                field = _setting_input(section, key, values[section][key])
                self.inputs[(section, key)] = field
                grid.add_widget(field)
        for (section, key), field in self.inputs.items():
            field.text = _setting_text(values[section][key])
        self.page_url = self.companion.page_url
        self.result = ""

    def save(self) -> None:
        """Saves the settings if the configuration's own checks pass them; otherwise
        writes nothing and says which setting is wrong and why."""
        from companion.config import save_config, with_changes
        from companion.errors import UserError

        controller = self.companion.controller
        current = controller.config.to_dict()
        changes: dict[str, dict[str, Any]] = {}
        try:
            for (section, key), field in self.inputs.items():
                changes.setdefault(section, {})[key] = _setting_value(
                    field.text, current[section][key], f"{section}.{key}"
                )
            config = with_changes(controller.config, changes)
            path = save_config(config, controller.config_path)
        except UserError as err:
            # The reason alone: the file's name is in "Saved to" once it is written.
            self._refused(err.message)
            return
        except (ValueError, OSError) as err:
            self._refused(str(err))
            return
        controller.config = config
        self.result = f"Saved to {path}. The camera, reader and broker change at the next start."
        self.result_colour = [0.5, 1, 0.5, 1]

    def _refused(self, reason: str) -> None:
        self.result, self.result_colour = f"Not saved: {reason}", [1, 0.45, 0.4, 1]


def _setting_choices(section: str, key: str, like: Any) -> tuple[str, ...]:
    """The values a setting is chosen from; empty when it is typed."""
    from companion.config import READER_PROTOCOLS

    if isinstance(like, bool):
        return YES_NO
    if (section, key) == ("reader", "protocol"):
        return READER_PROTOCOLS
    return ()


def _setting_input(section: str, key: str, like: Any) -> Any:
    """The widget that edits a setting whose current value is `like`."""
    choices = _setting_choices(section, key, like)
    if choices:
        return Factory.SettingChoice(values=choices)
    number_filter: Any = None
    if isinstance(like, int):
        number_filter = "int"
    elif isinstance(like, list):
        number_filter = _pin_list_filter
    return TextInput(
        multiline=False,
        font_size="16sp",
        size_hint_y=None,
        height="40dp",
        password=key == "password",
        input_filter=number_filter,
    )


def _pin_list_filter(typed: str, from_undo: bool) -> str:
    """What a list of pin numbers may be typed with: digits, commas and spaces."""
    return "".join(char for char in typed if char.isdigit() or char in ", ")


def _setting_text(value: Any) -> str:
    if isinstance(value, bool):
        return YES_NO[0] if value else YES_NO[1]
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _setting_value(text: str, like: Any, name: str) -> Any:
    """The typed value of a setting shown on the screen, the type of its current value;
    a ValueError names the setting (`section.key`) when the text is not of that type."""
    text = text.strip()
    if isinstance(like, bool):
        return text.lower() in ("1", "true", "yes", "on")
    if isinstance(like, int):
        if not text.lstrip("-").isdigit():
            raise ValueError(f"{name} must be a whole number, not {text!r}")
        return int(text)
    if isinstance(like, list):
        parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
        if not all(p.isdigit() for p in parts):
            raise ValueError(f"{name} must be pin numbers separated by commas, not {text!r}")
        return [int(p) for p in parts]
    return text
