"""The phones screen's QR codes live in a temporary folder of their own: made when a code is
first shown, gone with the screen, so starting the app again and again leaves nothing."""

from __future__ import annotations

import gc
import tempfile
from pathlib import Path

import pytest
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from companion.ui.screens.phones import PhonesScreen


def test_a_screen_that_never_shows_a_code_makes_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    screen = PhonesScreen(name="phones")
    screen.show_links(list, set, back_to="home")
    assert "No private pages" in screen.note
    del screen
    gc.collect()
    assert list(tmp_path.iterdir()) == []


def test_the_codes_folder_goes_with_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    screen = PhonesScreen(name="phones")
    screen.show_links(lambda: [("Ann", "http://table.local:8080/side/1")], set, "home")
    assert Path(screen.qr).is_file() and Path(screen.qr).parent.parent == tmp_path
    manager = ScreenManager(transition=NoTransition())
    manager.add_widget(Screen(name="home"))
    manager.add_widget(screen)
    manager.current = "phones"
    screen.back()
    manager.clear_widgets()
    del screen, manager
    gc.collect()
    assert list(tmp_path.iterdir()) == []
