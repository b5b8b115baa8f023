"""The touchscreen app: Home, New game, the live game, its end, and settings.

    app = CompanionApp(controller, page_url="http://127.0.0.1:8080/")
    app.run()

Screens draw what the controller says (companion/ui/controller.py) and hand it every touch.
A clock event steps the game five times a second: the simulated opponent's moves (one at a
time, so a person can follow them), the game clock and its flags.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.errors import UserError
from companion.games import find_plugin, plugin_names
from companion.remote.at_table import RemoteChoice
from companion.table.assignment import Assignment
from companion.table.play import Play
from companion.table.setups import GameSetup
from companion.table.views import AlertView
from companion.ui.controller import Controller
from companion.ui.drawing_view import DrawingView
from companion.ui.plot import ScorePlot
from companion.ui.screens.all_options import AllOptionsScreen
from companion.ui.screens.base import PlayScreen
from companion.ui.screens.camera import CameraScreen
from companion.ui.screens.end import EndScreen
from companion.ui.screens.enroll import EnrollScreen
from companion.ui.screens.home import HomeScreen
from companion.ui.screens.new_game import NewGameScreen
from companion.ui.screens.phones import PhonesScreen
from companion.ui.screens.settings import SettingsScreen
from companion.ui.screens.study import StudyScreen

log = logging.getLogger(__name__)

KV_DIR = Path(__file__).parent / "kv"
KV_FILES = (
    "common.kv",
    "home.kv",
    "new_game.kv",
    "all_options.kv",
    "phones.kv",
    "end.kv",
    "study.kv",
    "camera.kv",
    "enroll.kv",
    "settings.kv",
)
STEP_SECONDS = 0.2
OPPONENT_PAUSE = 0.8
"""Seconds between two of the simulated opponent's moves."""

Factory.register("ScorePlot", cls=ScorePlot)
Factory.register("DrawingView", cls=DrawingView)


def play_screens() -> dict[str, type[PlayScreen]]:
    """Every game's live screen, by game (games may share one)."""
    screens: dict[str, type[PlayScreen]] = {}
    for game in plugin_names():
        module, _, name = find_plugin(game).screen.partition(":")
        screens[game] = getattr(import_module(module), name)
    return screens


def _load_layout(path: Path) -> None:
    # Loaded once per process: a second app (a test's) must not apply rules twice.
    Builder.unload_file(str(path))
    Builder.load_file(str(path))


class CompanionApp(App):
    title = "Tabletop companion"

    def __init__(
        self,
        controller: Controller,
        *,
        page_url: str = "",
        settings_text: str = "",
        qr_path: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.page_url = page_url
        self.settings_text = settings_text
        self.qr_path = qr_path
        self.manager: ScreenManager | None = None
        self._since_opponent = 0.0
        self.opponent_pause = OPPONENT_PAUSE
        """Seconds between the simulated opponent's moves (a test that plays for it sets
        this to infinity)."""
        self._unsubscribe: Any = None
        self._play_screens = play_screens()
        controller.on_alert = self.alerted
        # The virtual camera reads on its own thread; the game is played on Kivy's.
        controller.call_soon = lambda job: Clock.schedule_once(lambda _dt: job())
        self.alerts_heard: list[tuple[AlertView, ...]] = []
        self.notices: list[str] = []
        """Every message shown with `notify`, oldest first."""
        self.on_alerts: list[Any] = []
        """Called with every new alert (the stream's alert topic, say)."""
        self.alarm: Any = None
        """Something with `sound()` (the GPIO buzzer) to call on every new alert."""
        self.lights: Any = None
        """Something with `show(clock display)` (the players' LEDs) to keep up to date."""
        self.stopping = threading.Event()
        """Set (by SIGTERM, say) to close the app at its next step."""
        self.on_first_frame: Any = None
        """Called once, with no arguments, when the window has drawn its first frame."""
        self.setup: GameSetup | None = None
        self.remote: RemoteChoice | None = None
        """`companion remote`: the game begun or resumed here is shared, or one is joined."""
        """A setup New game opens with (`companion app --setup`)."""
        self.private_links: Callable[[], list[tuple[str, str]]] = list
        """Each side's private page of the game in play (the stream's), for Phones."""
        self.private_opened: Callable[[], set[int]] = set
        """The sides whose private page a phone has opened."""
        self.assignment: Assignment | None = None
        """The game a tournament hub says this table plays next, if one does."""

    def assigned(self, assignment: Assignment | None) -> None:
        """A tournament hub's word on this table's next game (or None: no word): Home offers
        to set it up."""
        self.assignment = assignment
        if self.manager is not None and self.manager.current == "home":
            self.screen("home").refresh()

    def game_menu(self, leave: Callable[[], None]) -> None:
        """The live screens' Menu: each side's private page for its phone, or Home (the
        game stays to be resumed), or back to the game."""
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.button import Button
        from kivy.uix.popup import Popup

        content = BoxLayout(orientation="vertical", spacing="8dp")
        popup = Popup(title="Menu", content=content, size_hint=(0.7, 0.7), auto_dismiss=True)
        phones = Button(text="Phones: each side's own page", font_size="18sp")
        phones.disabled = not self.private_links()
        home = Button(text="Home (the game can be resumed)", font_size="18sp")
        back = Button(text="Back to the game", font_size="18sp")

        def to_phones(_button: Any) -> None:
            popup.dismiss(animation=False)
            assert self.manager is not None
            screen = self.screen("phones")
            screen.show_links(self.private_links, self.private_opened, self.manager.current)
            self.manager.current = "phones"

        def to_home(_button: Any) -> None:
            popup.dismiss(animation=False)
            leave()

        phones.bind(on_release=to_phones)
        home.bind(on_release=to_home)
        back.bind(on_release=lambda _button: popup.dismiss(animation=False))
        for button in (phones, home, back):
            content.add_widget(button)
        popup.open()
        self.menu: Any = popup
        """The menu open now (tests tap its buttons)."""

    def notify(self, text: str) -> None:
        """A message over whatever screen is up, until Close (or a touch outside it)."""
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.button import Button
        from kivy.uix.label import Label
        from kivy.uix.popup import Popup

        label = Label(text=text, font_size="18sp", halign="center", valign="middle")
        label.bind(size=lambda widget, size: setattr(widget, "text_size", size))
        close = Button(text="Close", font_size="18sp", size_hint_y=None, height="50dp")
        content = BoxLayout(orientation="vertical", spacing="8dp")
        content.add_widget(label)
        content.add_widget(close)
        popup = Popup(
            title="The companion says", content=content, size_hint=(0.8, 0.6), auto_dismiss=True
        )
        close.bind(on_release=lambda *_: popup.dismiss())
        popup.open()
        self.notices.append(text)

    def build(self) -> ScreenManager:
        play_screens = self._play_screens
        for name in KV_FILES:
            _load_layout(KV_DIR / name)
        for kind in dict.fromkeys(play_screens.values()):
            for widget in kind.widgets:
                Factory.register(widget.__name__, cls=widget)
            _load_layout(kind.layout)
        manager = ScreenManager(transition=NoTransition())
        settings = SettingsScreen(name="settings")
        settings.details = self.settings_text
        settings.qr_path = self.qr_path
        for screen in (
            HomeScreen(name="home"),
            NewGameScreen(name="new_game"),
            AllOptionsScreen(name="all_options"),
            PhonesScreen(name="phones"),
            *(kind(name=kind.NAME) for kind in dict.fromkeys(play_screens.values())),
            EndScreen(name="end"),
            StudyScreen(name="study"),
            CameraScreen(name="camera"),
            EnrollScreen(name="enroll"),
            settings,
        ):
            screen.companion = self
            manager.add_widget(screen)
        self.manager = manager
        if self.setup is not None:
            manager.get_screen("new_game").use_setup(self.setup)
            manager.current = "new_game"
        for handler in list(ExceptionManager.handlers):
            if isinstance(handler, _Shown):  # an earlier app's, in the same process
                ExceptionManager.remove_handler(handler)
        ExceptionManager.add_handler(_Shown(self))
        Clock.schedule_interval(self.step, STEP_SECONDS)
        if self.remote is not None:
            Clock.schedule_once(lambda _dt: self._begin_remote())
        from kivy.core.window import Window

        Window.bind(on_flip=self._flipped, on_key_down=self._key_down)
        return manager

    def _key_down(self, _window: Any, _key: int, _scancode: int, text: str | None, *_: Any) -> bool:
        # Typing into a text field (a player's name) is not a clock press.
        if self.manager is None or self.manager.current not in self._screen_names():
            return False
        return self.controller.key(text or "")

    def _screen_names(self) -> set[str]:
        return {kind.NAME for kind in self._play_screens.values()}

    def _flipped(self, window: Any) -> None:
        window.unbind(on_flip=self._flipped)
        if self.on_first_frame is not None:
            self.on_first_frame()

    # -- what the screens call -------------------------------------------------------------

    def screen(self, name: str) -> Any:
        assert self.manager is not None
        return self.manager.get_screen(name)

    def start_game(self, game: str, choices: Any) -> None:
        """A new game of `game` from the New game screen's choices (shared with the other
        table under `companion remote host`)."""
        play = self.controller.start(game, choices)
        if self.remote is not None:
            self.controller.share_started(self.remote)
        self._follow(play)

    def mirrored_done(self) -> None:
        """The Done touch: the other table's move is laid here."""
        self.controller.confirm_mirrored()
        play = self.controller.play
        if play is not None and self.manager is not None:
            remote = self.controller.remote
            self.play_screen(play).show_remote(remote.view() if remote is not None else None)

    def _begin_remote(self) -> None:
        assert self.remote is not None
        play = self.controller.begin_remote(self.remote)
        if play is not None:
            self._follow(play)

    def resume_game(self, game_id: int) -> None:
        self._follow(self.controller.resume(game_id))

    def alerted(self, alerts: tuple[AlertView, ...]) -> None:
        # The screen shows the alerts from the view; the buzzer makes the table look.
        self.alerts_heard.append(alerts)
        if self.alarm is not None and not all(alert.put_right for alert in alerts):
            self.alarm.sound()  # not for the rules' own move still to be laid
        for hand_on in self.on_alerts:
            try:
                hand_on(alerts)
            except Exception:
                log.warning("an alert listener failed", exc_info=True)
        log.info("alert on %s", ", ".join(a.zone for a in alerts))

    # -- inside ----------------------------------------------------------------------------

    def play_screen(self, play: Play) -> PlayScreen:
        """The live screen that draws `play`."""
        screen: PlayScreen = self.screen(self._play_screens[play.referee.engine.name].NAME)
        return screen

    def _follow(self, play: Play) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._unsubscribe = play.subscribe(self._show)
        assert self.manager is not None
        screen = self.play_screen(play)
        screen.follow(play)
        self.manager.current = screen.name
        self._show(play.view())

    def _show(self, view: Any) -> None:
        assert self.manager is not None
        play = self.controller.play
        if play is None:
            return
        if view.over:
            self.screen("end").show(play.end_view())
            self.manager.current = "end"
            return
        self.play_screen(play).show(view)

    def step(self, dt: float) -> None:
        if self.stopping.is_set():
            self.stop()
            return
        play = self.controller.play
        if self.manager is None or play is None:
            return
        # The companion and a simulated opponent move one move at a time, so that a person
        # can follow them (the companion searches on a thread of its own).
        self._since_opponent += dt
        if self._since_opponent >= self.opponent_pause:
            if self.controller.step():
                self._since_opponent = 0.0
        else:
            self.controller.tick()
        screen = self.play_screen(play)
        if self.manager.current == screen.name:
            screen.show_clocks()
            remote = self.controller.remote
            screen.show_remote(remote.view() if remote is not None else None)
        if self.lights is not None:
            self.controller.show_lights(self.lights)


UNEXPECTED = (
    "Something went wrong inside the companion. The game is safe: every move is kept. "
    "Try again; if it happens again, restart the companion and resume the game (the log "
    "has the details)."
)
"""What a person is told of an error nobody foresaw: what to do, not a Python name."""


class _Shown(ExceptionHandler):
    """What goes wrong behind a touch is said on the screen, and the app goes on: a
    UserError (a bad deck, a camera that will not open) in its own words, anything else
    logged with its traceback and named. Nothing a game holds is lost: it is in the store."""

    def __init__(self, app: CompanionApp) -> None:
        super().__init__()
        self.app = app

    def handle_exception(self, inst: BaseException) -> Any:
        if isinstance(inst, KeyboardInterrupt | SystemExit):
            return ExceptionManager.RAISE
        if isinstance(inst, UserError):
            self.app.notify(str(inst))
        else:
            log.error("the app hit an unexpected error", exc_info=inst)
            self.app.notify(UNEXPECTED)
        return ExceptionManager.PASS
