"""Settings changed on the screen are checked like a file and written back as TOML."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.config import Config, load_config, save_config, with_changes
from companion.errors import UserError


def test_changes_are_saved_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    config = with_changes(
        Config(),
        {
            "broker": {"url": "mqtts://broker.example:8883", "ca_file": "/etc/ca.pem"},
            "game": {"board_id": "club-table-3"},
            "pins": {"players": [23, 24, 25]},
            "camera": {"source": "picamera"},
        },
    )
    save_config(config, path)
    text = path.read_text()
    assert "[store]" not in text  # only what differs from the defaults
    again = load_config(path)
    assert again.to_dict() == config.to_dict()
    assert again.camera.source == "picamera" and again.pins.players == [23, 24, 25]


def test_a_bad_setting_is_named_and_nothing_is_written(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"pins\.buzzer must be int"):
        with_changes(Config(), {"pins": {"buzzer": "thirteen"}})
    with pytest.raises(UserError, match=r"unknown key reader\.speed"):
        with_changes(Config(), {"reader": {"speed": 9600}})
    assert not (tmp_path / "config.toml").exists()


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_any_text_survives_the_round_trip(text: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "c.toml"
        save_config(with_changes(Config(), {"broker": {"password": text}}), path)
        assert load_config(path).broker.password == text


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"reader": {"protocol": "rdm6301"}},
            "reader.protocol must be one of rdm6300, pn532, pico, not 'rdm6301'",
        ),
        (
            {"broker": {"url": "http://broker.lan"}},
            "broker.url must start with mqtt://, mqtts://, ws:// or wss://, not 'http://broker.lan'",
        ),
        ({"broker": {"url": "mqtt://"}}, "broker.url names no host: 'mqtt://'"),
        ({"broker": {"url": "mqtt://h:port"}}, "broker.url has a port that is not a number"),
        ({"broker": {"url": "mqtt://me:pw@h"}}, "broker.url must not hold a user name"),
        ({"broker": {"prefix": ""}}, "broker.prefix must not be empty"),
        ({"broker": {"prefix": "clubs/#"}}, "broker.prefix must be MQTT topic levels"),
        ({"broker": {"prefix": "clubs/"}}, "broker.prefix must be MQTT topic levels"),
        ({"broker": {"prefix": "$SYS"}}, "broker.prefix must not start with '$'"),
        ({"game": {"board_id": ""}}, "game.board_id must not be empty"),
        ({"game": {"board_id": "a/b"}}, "game.board_id must be one MQTT topic level"),
        ({"game": {"board_id": "table 1"}}, "game.board_id must be one MQTT topic level"),
        ({"game": {"board_id": "t+"}}, "game.board_id must be one MQTT topic level"),
        ({"pins": {"players": [17, 28]}}, "pins.players must be BCM pins 0 to 27, not 28"),
        ({"pins": {"leds": [-1, 6]}}, "pins.leds must be BCM pins 0 to 27, not -1"),
        ({"pins": {"players": [17, 17]}}, "pins.players names pin 17 twice"),
        ({"pins": {"players": [5, 27]}}, "pins.leds uses pin 5, which pins.players uses too"),
        ({"pins": {"buzzer": 22}}, "pins.buzzer uses pin 22, which pins.pause uses too"),
        ({"pins": {"pause": 28}}, "pins.pause must be 0 (none) or a BCM pin 1 to 27, not 28"),
        ({"pins": {"buzzer": -1}}, "pins.buzzer must be 0 (none) or a BCM pin 1 to 27, not -1"),
        ({"pins": {"debounce_ms": 1001}}, "pins.debounce_ms must be 0 to 1000, not 1001"),
        ({"reader": {"silence_ms": 49}}, "reader.silence_ms must be 50 to 10000, not 49"),
        ({"clock": {"warning_s": -1}}, "clock.warning_s must be 0 or more, not -1"),
        ({"clock": {"tenths_below_s": -5}}, "clock.tenths_below_s must be 0 or more, not -5"),
    ],
)
def test_a_value_that_cannot_work_is_refused_with_its_reason(
    changes: dict[str, dict[str, object]], message: str
) -> None:
    with pytest.raises(UserError) as refused:
        with_changes(Config(), changes)
    assert refused.value.message.startswith(message), refused.value.message
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    "changes",
    [{"reader": {"protocol": protocol}} for protocol in ("rdm6300", "pn532", "pico")]
    + [
        {"broker": {"url": url}}
        for url in (
            "",
            "mqtt://h",
            "MQTTS://broker.lan:8883",
            "ws://10.0.0.5:9001",
            "wss://[::1]/mqtt",
        )
    ]
    + [
        {"broker": {"prefix": "clubs/paris"}},
        {"game": {"board_id": "club-3_table.7"}},
        {"pins": {"players": [0, 1, 2, 3], "pause": 0, "buzzer": 0, "leds": [26, 27]}},
        {"pins": {"debounce_ms": 0}},
        {"reader": {"silence_ms": 10_000}},
        {"clock": {"warning_s": 0, "tenths_below_s": 0}},
        {"camera": {"source": "anything at all: /dev/video2, picamera, ~/clips"}},
    ],
)
def test_values_that_can_work_are_kept(changes: dict[str, dict[str, object]]) -> None:
    config = with_changes(Config(), changes)
    for section, values in changes.items():
        for key, value in values.items():
            assert config.to_dict()[section][key] == value


def test_a_file_with_a_value_that_cannot_work_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[reader]\nprotocol = "rdm6301"\n')
    with pytest.raises(UserError, match=r"reader\.protocol must be one of") as refused:
        load_config(path)
    assert str(refused.value).startswith(f"{path}: ")


def test_the_protocols_allowed_are_those_the_registry_makes() -> None:
    from companion.config import READER_PROTOCOLS
    from companion.devices.cardreader.registry import PROTOCOLS

    assert sorted(READER_PROTOCOLS) == sorted(PROTOCOLS)
    assert Config().reader.protocol == READER_PROTOCOLS[0]
