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
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.errors import UserError
from companion.games.mem.play.game import MemPlay, MemView
from companion.games.mem.screens.board import MemBoardView, MemSpaceView
from companion.games.mem.screens.choices import MemChoices
from companion.games.mem.screens.live_screen import MemLiveScreen
from companion.games.memwars.play.live import LiveView
from companion.games.memwars.screens.board import BoardView
from companion.games.memwars.screens.live_screen import LiveScreen
from companion.table.touch_play import TouchPlay, TouchView
from companion.table.views import AlertView
from companion.ui.controller import Controller, GameChoices, TouchChoices
from companion.ui.drawing_view import DrawingView
from companion.ui.plot import ScorePlot
from companion.ui.screens.camera import CameraScreen
from companion.ui.screens.end import EndScreen
from companion.ui.screens.enroll import EnrollScreen
from companion.ui.screens.home import HomeScreen
from companion.ui.screens.new_game import NewGameScreen
from companion.ui.screens.settings import SettingsScreen
from companion.ui.screens.study import StudyScreen
from companion.ui.touch_screen import TouchLiveScreen

log = logging.getLogger(__name__)

KV_DIR = Path(__file__).parent / "kv"
KV_FILES = (
    "common.kv",
    "home.kv",
    "new_game.kv",
    "live.kv",
    "mem_live.kv",
    "touch_live.kv",
    "end.kv",
    "study.kv",
    "camera.kv",
    "enroll.kv",
    "settings.kv",
)
STEP_SECONDS = 0.2
OPPONENT_PAUSE = 0.8
"""Seconds between two of the simulated opponent's moves."""

Factory.register("BoardView", cls=BoardView)
Factory.register("ScorePlot", cls=ScorePlot)
Factory.register("MemBoardView", cls=MemBoardView)
Factory.register("MemSpaceView", cls=MemSpaceView)
Factory.register("DrawingView", cls=DrawingView)


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
        for name in KV_FILES:
            # Loaded once per process: a second app (a test's) must not apply rules twice.
            path = str(KV_DIR / name)
            Builder.unload_file(path)
            Builder.load_file(path)
        manager = ScreenManager(transition=NoTransition())
        settings = SettingsScreen(name="settings")
        settings.details = self.settings_text
        settings.qr_path = self.qr_path
        for screen in (
            HomeScreen(name="home"),
            NewGameScreen(name="new_game"),
            LiveScreen(name="live"),
            MemLiveScreen(name="mem_live"),
            TouchLiveScreen(name="touch_live"),
            EndScreen(name="end"),
            StudyScreen(name="study"),
            CameraScreen(name="camera"),
            EnrollScreen(name="enroll"),
            settings,
        ):
            screen.companion = self
            manager.add_widget(screen)
        self.manager = manager
        for handler in list(ExceptionManager.handlers):
            if isinstance(handler, _Shown):  # an earlier app's, in the same process
                ExceptionManager.remove_handler(handler)
        ExceptionManager.add_handler(_Shown(self))
        Clock.schedule_interval(self.step, STEP_SECONDS)
        from kivy.core.window import Window

        Window.bind(on_flip=self._flipped, on_key_down=self._key_down)
        return manager

    def _key_down(self, _window: Any, _key: int, _scancode: int, text: str | None, *_: Any) -> bool:
        # Typing into a text field (a player's name) is not a clock press.
        if self.manager is None or self.manager.current != "live":
            return False
        return self.controller.key(text or "")

    def _flipped(self, window: Any) -> None:
        window.unbind(on_flip=self._flipped)
        if self.on_first_frame is not None:
            self.on_first_frame()

    # -- what the screens call -------------------------------------------------------------

    def screen(self, name: str) -> Any:
        assert self.manager is not None
        return self.manager.get_screen(name)

    def start_game(self, choices: GameChoices | MemChoices | TouchChoices) -> None:
        if isinstance(choices, TouchChoices):
            self._follow_touch(self.controller.start_touch(choices))
        elif isinstance(choices, MemChoices):
            self._follow_mem(self.controller.start_mem(choices))
        else:
            self._follow(self.controller.start(choices))

    def resume_game(self, game_id: int) -> None:
        game = self.controller.resume(game_id)
        if isinstance(game, TouchPlay):
            self._follow_touch(game)
        elif isinstance(game, MemPlay):
            self._follow_mem(game)
        else:
            self._follow(game)

    def decide(self, key: str, place: int) -> None:
        self.controller.decide(key, place)

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

    def _follow(self, live: Any) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._unsubscribe = live.subscribe(self._show)
        assert self.manager is not None
        self.manager.current = "live"
        self._show(live.view())

    def _follow_mem(self, play: MemPlay) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._unsubscribe = play.subscribe(self._show_mem)
        assert self.manager is not None
        self.screen("mem_live").follow(play)
        self.manager.current = "mem_live"
        self._show_mem(play.view())

    def _follow_touch(self, play: TouchPlay) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._unsubscribe = play.subscribe(self._show_touch)
        assert self.manager is not None
        self.screen("touch_live").follow(play)
        self.manager.current = "touch_live"
        self._show_touch(play.view())

    def _show_touch(self, view: TouchView) -> None:
        assert self.manager is not None
        play = self.controller.touch
        if view.over and play is not None:
            self.screen("end").show(play.end_view())
            self.manager.current = "end"
            return
        self.screen("touch_live").show(view)

    def _show_mem(self, view: MemView) -> None:
        assert self.manager is not None
        play = self.controller.mem
        if view.over and play is not None:
            self.screen("end").show(play.end_view())
            self.manager.current = "end"
            return
        self.screen("mem_live").show(view)

    def _show(self, view: LiveView) -> None:
        assert self.manager is not None
        if view.over:
            self.screen("end").show(self.controller.live.end_view())
            self.manager.current = "end"
            return
        self.screen("live").show(view)

    def step(self, dt: float) -> None:
        if self.stopping.is_set():
            self.stop()
            return
        if self.manager is None:
            return
        touch = self.controller.touch
        if touch is not None:
            # The companion searches on a thread of its own; its move comes back by itself.
            self._since_opponent += dt
            if self._since_opponent >= self.opponent_pause and touch.step():
                self._since_opponent = 0.0
            return
        if self.controller.game is None:
            return
        self._since_opponent += dt
        if self._since_opponent >= self.opponent_pause:
            if self.controller.step():
                self._since_opponent = 0.0
        else:
            game = self.controller.game
            if game.clock is not None:
                game.clock.tick()
        if self.manager.current == "live":
            self.screen("live").show_clocks()
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
