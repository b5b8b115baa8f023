"""Kivy, rendering for real offscreen (no display needed), at the Pi display's 800x480.

The environment must be set before Kivy is first imported, which is why it is set here, at
import time; only these tests import Kivy.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
# Kivy leaves the root logger alone (its own mode would set it to DEBUG for every test).
os.environ["KIVY_LOG_MODE"] = "PYTHON"
for _name in ("KIVY_NO_ARGS", "KIVY_NO_CONSOLELOG", "KIVY_NO_FILELOG", "KIVY_USE_DEFAULTCONFIG"):
    os.environ[_name] = "1"

from kivy.config import Config  # noqa: E402

Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")

from companion.config import Config as CompanionConfig  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.ui.controller import Controller  # noqa: E402

from .screen import Screen  # noqa: E402

SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


@pytest.fixture()
def screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Screen]:
    """The app on the offscreen window, with a fresh store and data directory (the study log
    goes there); screenshots go to build/screenshots/ for people to look at."""
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
    with Store.open(tmp_path / "games.sqlite3") as store:
        controller = Controller(CompanionConfig(), store)
        driver = Screen.open(controller, SCREENSHOTS)
        try:
            yield driver
        finally:
            driver.close()
