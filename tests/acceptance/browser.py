"""A phone in the room: headless Chromium, phone-sized, inside the room's phone namespace,
so that it reaches the table only over the room's network."""

from __future__ import annotations

import os
import stat
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, need_chromium

from .room import Room

PHONE_VIEWPORT = {"width": 390, "height": 844}


class Phone:
    def __init__(self, room: Room, shots: Path) -> None:
        self.room = room
        self.shots = shots
        self.pages: dict[str, Any] = {}
        self.errors: list[str] = []
        self._scratch = tempfile.TemporaryDirectory(prefix="companion-phone-")
        self._playwright: Any = None
        self._browser: Any = None

    def __enter__(self) -> Phone:
        need_chromium()
        from playwright.sync_api import sync_playwright

        # Playwright starts the browser itself; this launcher starts it in the phone's
        # network namespace, keeping the pipes Playwright talks to it through.
        launcher = Path(self._scratch.name) / "chromium-on-the-phone"
        launcher.write_text(
            f'#!/bin/sh\nexec {" ".join(self.room.on_phone([CHROMIUM]))} "$@"\n',
            encoding="utf-8",
        )
        launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(
            executable_path=str(launcher), args=CHROMIUM_ARGS, env=dict(os.environ)
        )
        self._context = self._browser.new_context(viewport=PHONE_VIEWPORT, is_mobile=True)
        return self

    def open(self, url: str, name: str, *, own: bool = False) -> Any:
        """A page at `url`; with `own`, in a browser context of its own: another phone, with
        nothing shared with the others (cookies, storage, cache)."""
        context = self._context
        if own:
            context = self._browser.new_context(viewport=PHONE_VIEWPORT, is_mobile=True)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"{name}: {error}"))
        page.set_default_timeout(15_000)
        page.goto(url)
        self.pages[name] = page
        return page

    def shot(self, page: Any, name: str) -> Path:
        path = self.shots / f"{name}.png"
        page.screenshot(path=str(path))
        return path

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            if self._browser is not None:
                self._browser.close()
            if self._playwright is not None:
                self._playwright.stop()
        finally:
            self._scratch.cleanup()
        if kind is None:
            assert not self.errors, f"script errors on the phone's pages: {self.errors}"


def clock_runs(page: Any) -> bool:
    """Whether a side's clock on the page counts down."""
    page.wait_for_selector(".side.has-clock .clock", timeout=20_000)
    before = [c.inner_text() for c in page.query_selector_all(".side.has-clock .clock")]
    time.sleep(1.5)
    after = [c.inner_text() for c in page.query_selector_all(".side.has-clock .clock")]
    return before != after
