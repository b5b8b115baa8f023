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
            "pins": {"players": [5, 6, 13]},
            "camera": {"source": "picamera"},
        },
    )
    save_config(config, path)
    text = path.read_text()
    assert "[store]" not in text  # only what differs from the defaults
    again = load_config(path)
    assert again.to_dict() == config.to_dict()
    assert again.camera.source == "picamera" and again.pins.players == [5, 6, 13]


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
