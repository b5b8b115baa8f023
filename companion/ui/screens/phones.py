"""Phones: each side's private page (companion/table/private_pages.py) as a QR code, one
side at a time, for that player alone to scan; the screen says when the page has been
opened, and moves on to the next side."""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty

from companion.ui.screens.base import AppScreen

Links = Callable[[], list[tuple[str, str]]]
Opened = Callable[[], set[int]]


class PhonesScreen(AppScreen):
    who = StringProperty("")
    url = StringProperty("")
    qr = StringProperty("")
    note = StringProperty("")
    shown = BooleanProperty(False)
    """A side's code is on the screen (none when the game has no private pages)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.links: list[tuple[str, str]] = []
        self.side = 0
        self.opened: Opened = set
        self.back_to = "home"
        self._folder: Path | None = None
        self._watch: Any = None

    def show_links(self, links: Links, opened: Opened, back_to: str) -> None:
        """The sides' pages of the game in play, from the first side; Back returns to
        `back_to`."""
        self.links = links()
        self.opened = opened
        self.back_to = back_to
        self.side = 0
        self._show()
        self._watch = Clock.schedule_interval(lambda _dt: self._show_opened(), 0.5)

    def _show(self) -> None:
        self.shown = bool(self.links)
        if not self.links:
            self.who, self.url, self.qr = "", "", ""
            self.note = "No private pages: the stream is off, or the game has no sides."
            return
        name, url = self.links[self.side]
        self.who = f"{name}: scan with your own phone"
        self.url = url
        self.qr = self._code(url)
        self._show_opened()

    def _code(self, url: str) -> str:
        import segno

        if self._folder is None:
            # Made when a code is first shown, and gone with the screen: an app that never
            # shows one leaves nothing behind in the temporary folder.
            self._folder = Path(tempfile.mkdtemp(prefix="companion-phones-"))
            weakref.finalize(self, shutil.rmtree, self._folder, ignore_errors=True)
        # One file per page: Kivy keeps an image it has loaded by its file name.
        path = self._folder / f"side-{self.side}-{abs(hash(url))}.png"
        if not path.exists():
            segno.make(url, error="m").save(str(path), scale=6, border=2)
        return str(path)

    def _show_opened(self) -> None:
        if not self.links:
            return
        name = self.links[self.side][0]
        seen = self.side in self.opened()
        self.note = (
            f"{name}'s page is open. Next side, or back to the game."
            if seen
            else "Only this side's player should see this code."
        )

    def next_side(self) -> None:
        if self.links:
            self.side = (self.side + 1) % len(self.links)
            self._show()

    def back(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        self.manager.current = self.back_to
