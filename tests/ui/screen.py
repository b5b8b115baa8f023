"""Drives the app like a finger: touches at the widgets' places on the real window."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.base import EventLoop, runTouchApp
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch

from companion.games.memwars.play.live import LiveView
from companion.ui.app import CompanionApp
from companion.ui.controller import Controller
from tests.plays import live_of

_started = False


class Screen:
    def __init__(self, app: CompanionApp, root: Any, shots: Path) -> None:
        self.app = app
        self.root = root
        self.shots = shots

    @classmethod
    def open(cls, controller: Controller, shots: Path) -> Screen:
        global _started
        app = CompanionApp(controller, page_url="http://127.0.0.1:8080/")
        # The tests make the simulated opponent's moves themselves, when they choose: the
        # app's own timer would race them on a busy machine.
        app.opponent_pause = float("inf")
        root = app.build()
        app.root = root
        for child in list(Window.children):
            Window.remove_widget(child)
        if _started:
            Window.add_widget(root)
        else:
            runTouchApp(root, embedded=True)
            _started = True
        driver = cls(app, root, shots)
        driver.frames(3)
        return driver

    def close(self) -> None:
        self.app.controller.close()
        Window.remove_widget(self.root)

    # -- looking ---------------------------------------------------------------------------

    @property
    def current(self) -> str:
        name: str = self.root.current
        return name

    def screen(self, name: str | None = None) -> Any:
        return self.root.get_screen(name or self.current)

    def view(self) -> LiveView:
        return live_of(self.app.controller).view()

    def frames(self, count: int = 2) -> None:
        for _ in range(count):
            EventLoop.idle()

    def until(self, done: Callable[[], bool], timeout: float = 60.0) -> bool:
        """Lets frames pass (and another thread work) until `done()` or the timeout."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.frames(1)
            if done():
                return True
            time.sleep(0.02)
        return done()

    def shot(self, name: str) -> Path:
        """Saves what the screen shows as build/screenshots/<name>.png."""
        self.shots.mkdir(parents=True, exist_ok=True)
        self.frames(2)
        # Kivy numbers the file it writes (name0001.png): a name of this process's own, as a
        # test in another process may save a picture of the same name at the same time.
        saved = Path(Window.screenshot(name=str(self.shots / f".{name}-{os.getpid()}.png")))
        final = self.shots / f"{name}.png"
        saved.replace(final)
        return final

    # -- touching --------------------------------------------------------------------------

    def tap_at(self, x: float, y: float) -> None:
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.frames(1)
        touch.touch_up()
        self.frames(2)

    def tap(self, widget: Any) -> None:
        assert not widget.disabled, f"{getattr(widget, 'text', widget)!r} is disabled"
        self.scroll_to(widget)
        x, y = widget.to_window(*widget.center)
        self.tap_at(x, y)

    def scroll_to(self, widget: Any) -> None:
        """Scrolls the wizard (or any scrolling list) until `widget` is in view, as a finger
        would."""
        from kivy.uix.scrollview import ScrollView

        parent = widget.parent
        while parent is not None and not isinstance(parent, ScrollView):
            # The window is its own parent: the top of the tree.
            parent = parent.parent if parent.parent is not parent else None
        if parent is not None:
            parent.scroll_to(widget, padding=10, animate=False)
            self.frames(2)

    def tap_text(self, text: str) -> None:
        """Taps the button on the current screen that reads `text`."""
        found = [w for w in self.screen().walk() if getattr(w, "text", None) == text]
        assert found, f"no {text!r} on {self.current}"
        self.tap(found[0])

    def tap_text_in(self, widget: Any, text: str) -> None:
        """Taps the button inside `widget` (a popup, say) that reads `text`."""
        found = [w for w in widget.walk() if getattr(w, "text", None) == text]
        assert found, f"no {text!r} in {widget}"
        self.tap(found[0])

    def decide(self, key: str, place: int = 0) -> None:
        """Taps the place (when given) on the board, then the decision's button."""
        live = self.screen("live")
        if place:
            board = live.ids.board
            self.tap_at(*board.to_window(*board.place_at(place)))
            assert board.chosen == place, f"place {place} was not chosen"
        button = live.button(key)
        assert button is not None, f"no {key!r} button among {[b.key for b in self.view().buttons]}"
        self.tap(button)

    def type_into(self, widget: Any, text: str) -> None:
        widget.text = text
        self.frames(1)
