"""The Settings screen, driven by touch: choices are chosen from lists, and Save runs the
configuration file's own checks, writing nothing when one refuses a value."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.config import VoiceConfig, load_config
from companion.voice.announcer import Announcer
from tests.plays import live_of

from .screen import Screen


def open_settings(screen: Screen, path: Path) -> Any:
    screen.app.controller.config_path = path
    screen.tap_text("Settings and display page")
    assert screen.current == "settings"
    return screen.screen()


def choose(screen: Screen, spinner: Any, value: str) -> None:
    """Opens the list of a Spinner and taps `value` in it, as a finger would."""
    screen.tap(spinner)
    options = [w for w in spinner._dropdown.walk() if getattr(w, "text", None) == value]
    assert options, f"{value!r} is not among {spinner.values}"
    screen.tap(options[0])
    assert spinner.text == value
    # The list closes a moment later; until then it takes every touch on the window.
    assert screen.until(lambda: spinner._dropdown.parent is None, timeout=5)


def test_a_value_the_file_would_refuse_is_not_saved_and_the_reason_shown(
    screen: Screen, tmp_path: Path
) -> None:
    path = tmp_path / "settings" / "config.toml"
    settings = open_settings(screen, path)
    inputs = settings.inputs
    inputs[("pins", "pause")].text = "40"
    screen.tap(settings.ids.save)
    assert settings.result == "Not saved: pins.pause must be 0 (none) or a BCM pin 1 to 27, not 40"
    assert not path.exists()
    inputs[("pins", "pause")].text = "22"
    inputs[("pins", "players")].text = "5, 26"  # 5 is the first LED's
    screen.tap(settings.ids.save)
    assert settings.result == "Not saved: pins.leds uses pin 5, which pins.players uses too"
    inputs[("pins", "players")].text = "17, 27"
    inputs[("game", "board_id")].text = "club 3"
    screen.tap(settings.ids.save)
    assert settings.result.startswith("Not saved: game.board_id must be one MQTT topic level")
    inputs[("game", "board_id")].text = "table-1"
    inputs[("broker", "url")].text = "http://broker.lan"
    screen.tap(settings.ids.save)
    assert settings.result.startswith("Not saved: broker.url must start with mqtt://")
    assert not path.exists()
    screen.shot("settings-refused")


def test_choices_are_chosen_from_lists_and_saved(screen: Screen, tmp_path: Path) -> None:
    path = tmp_path / "settings" / "config.toml"
    settings = open_settings(screen, path)
    protocol = settings.inputs[("reader", "protocol")]
    assert protocol.text == "rdm6300" and list(protocol.values) == ["rdm6300", "pn532", "pico"]
    choose(screen, protocol, "pn532")
    home_assistant = settings.inputs[("broker", "home_assistant")]
    assert home_assistant.text == "no"
    choose(screen, home_assistant, "yes")
    language = settings.inputs[("voice", "language")]
    assert list(language.values) == ["en", "de"]
    choose(screen, language, "de")
    settings.inputs[("broker", "url")].text = "wss://broker.lan/mqtt"
    screen.tap(settings.ids.save)
    assert settings.result.startswith("Saved to"), settings.result
    saved = load_config(path)
    assert (saved.reader.protocol, saved.broker.home_assistant) == ("pn532", True)
    assert saved.broker.url == "wss://broker.lan/mqtt"
    assert saved.voice.language == "de"
    assert screen.app.controller.config.reader.protocol == "pn532"
    screen.shot("settings-chosen")


def test_numbers_are_typed_with_digits_only(screen: Screen, tmp_path: Path) -> None:
    settings = open_settings(screen, tmp_path / "config.toml")
    pause = settings.inputs[("pins", "pause")]
    pause.text = ""
    for typed in "2x2":
        pause.insert_text(typed)
    assert pause.text == "22"
    players = settings.inputs[("pins", "players")]
    players.text = ""
    players.insert_text("17; 27")
    assert players.text == "17 27"


def test_settings_turn_the_voice_off_in_the_middle_of_a_game(
    screen: Screen, tmp_path: Path
) -> None:
    """The app's voice asks the controller's configuration at every move, as the app wires
    it (companion/launch/app.py): Save in Settings silences it at once."""
    controller = screen.app.controller
    controller.config = replace(controller.config, voice=VoiceConfig(on=True))
    said: list[str] = []
    controller.on_game = Announcer(said.append, enabled=lambda: controller.config.voice.on).attach
    screen.tap_text("New game")
    screen.tap_text("Start the game")
    live = live_of(controller)
    screen.decide(live.view().buttons[0].key)
    assert said, "the voice said nothing of the first move"
    screen.screen("live").leave()
    screen.frames(2)
    settings = open_settings(screen, tmp_path / "config.toml")
    choose(screen, settings.inputs[("voice", "on")], "no")
    screen.tap(settings.ids.save)
    assert settings.result.startswith("Saved to")
    assert load_config(tmp_path / "config.toml").voice.on is False
    heard = len(said)
    screen.tap_text("Back")
    screen.tap(screen.screen("home").ids.resume)
    screen.decide(live_of(controller).view().buttons[0].key)
    assert len(said) == heard
