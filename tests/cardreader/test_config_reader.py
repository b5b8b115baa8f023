"""The [reader] section of the configuration file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import ReaderConfig, load_config, parse_config
from companion.errors import UserError


def test_no_file_means_no_port_an_rdm6300_and_300_ms(tmp_path: Path) -> None:
    config = load_config(tmp_path / "missing.toml")
    assert config.reader == ReaderConfig(port="", protocol="rdm6300", silence_ms=300)


def test_the_section_is_read(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[reader]\nport = "/dev/ttyUSB0"\nprotocol = "pn532"\n')
    config = load_config(path)
    assert config.reader == ReaderConfig("/dev/ttyUSB0", "pn532", 300)
    assert config.to_dict()["reader"] == {
        "port": "/dev/ttyUSB0",
        "protocol": "pn532",
        "silence_ms": 300,
    }


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"reader": {"port": 0}}, "reader.port must be str, got 0"),
        ({"reader": {"silence_ms": "300"}}, "reader.silence_ms must be int, got '300'"),
        ({"reader": {"silence_ms": True}}, "reader.silence_ms must be int, got True"),
        ({"reader": {"baud": 9600}}, "unknown key reader.baud"),
    ],
)
def test_bad_values_name_the_key(raw: dict[str, object], message: str) -> None:
    with pytest.raises(UserError) as caught:
        parse_config(raw, "config.toml")
    assert message in str(caught.value)


def test_config_show_includes_the_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))
    (tmp_path / "config.toml").write_text("[reader]\nsilence_ms = 500\n")
    assert main(["config", "show"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["reader"] == {"port": "", "protocol": "rdm6300", "silence_ms": 500}
