"""The [pins] and [clock] sections of the configuration file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import ClockConfig, PinsConfig, load_config, parse_config
from companion.errors import UserError


def test_defaults() -> None:
    config = parse_config({}, "test")
    assert config.pins == PinsConfig(
        players=[17, 27], pause=22, leds=[5, 6], buzzer=13, debounce_ms=30
    )
    assert config.clock == ClockConfig(
        tenths_below_s=20, warning_s=10, beep_warning=True, beep_countdown=True, beep_flag=True
    )


def test_defaults_are_not_shared_between_configs() -> None:
    first, second = PinsConfig(), PinsConfig()
    first.players.append(4)
    assert second.players == [17, 27]


def test_a_file_with_both_sections(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        "[pins]\nplayers = [23, 24, 25]\npause = 0\nleds = []\nbuzzer = 0\ndebounce_ms = 50\n"
        "[clock]\nwarning_s = 30\nbeep_countdown = false\n"
    )
    config = load_config(path)
    assert config.pins == PinsConfig(
        players=[23, 24, 25], pause=0, leds=[], buzzer=0, debounce_ms=50
    )
    assert config.clock.warning_s == 30 and not config.clock.beep_countdown
    assert config.clock.beep_flag and config.clock.tenths_below_s == 20
    assert config.to_dict()["pins"]["players"] == [23, 24, 25]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"pins": {"players": 17}}, "pins.players must be list, got 17"),
        ({"pins": {"players": [17, "27"]}}, "pins.players must be a list of int, got [17, '27']"),
        ({"pins": {"leds": [5, True]}}, "pins.leds must be a list of int"),
        ({"pins": {"leds": [5.0]}}, "pins.leds must be a list of int"),
        ({"pins": {"pause": True}}, "pins.pause must be int, got True"),
        ({"pins": {"buzzer": "13"}}, "pins.buzzer must be int"),
        ({"pins": {"debounce_ms": 30.5}}, "pins.debounce_ms must be int"),
        ({"pins": {"button": 4}}, "unknown key pins.button (known: buzzer, debounce_ms, leds,"),
        ({"clock": {"beep_flag": 1}}, "clock.beep_flag must be bool, got 1"),
        ({"clock": {"warning_s": False}}, "clock.warning_s must be int, got False"),
        ({"clock": {"beeps": True}}, "unknown key clock.beeps"),
        ({"pins": [17]}, "[pins] must be a table"),
    ],
)
def test_bad_values_name_the_key(raw: dict[str, object], message: str) -> None:
    with pytest.raises(UserError) as caught:
        parse_config(raw, "config.toml")
    assert message in str(caught.value)
    assert caught.value.where == "config.toml"


def test_unknown_sections_list_the_new_ones() -> None:
    with pytest.raises(UserError, match=r"known: broker, camera, clock, game, pins, reader, store"):
        parse_config({"lights": {}}, "config.toml")


def test_config_show_includes_the_new_sections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))
    (tmp_path / "config.toml").write_text("[pins]\nplayers = [4, 18]\n")
    assert main(["config", "show"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["pins"]["players"] == [4, 18] and shown["pins"]["leds"] == [5, 6]
    assert shown["clock"]["beep_warning"] is True
