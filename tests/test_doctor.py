"""`companion doctor` on the simulated twins: the whole doctor passes, and each part broken
fails in its own line with what to do, without a traceback."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import Config, ReaderConfig, load_config, parse_config
from companion.doctor.checks import Doctor, run_one
from companion.doctor.devices import PersonAtTable, real_devices
from companion.doctor.report import NAMES, TITLES, chosen, line_of
from companion.doctor.twins import TwinAtTable, simulated_devices
from companion.errors import UserError
from vision.sources.frame import FrameSource

ROOT = Path(__file__).resolve().parents[1]
GENEROUS_S = 20.0
"""Long enough for anything a twin does on a busy machine; waited out only by failures
that are meant to wait (and those use SHORT_S)."""
SHORT_S = 0.3

needs_socat = pytest.mark.skipif(shutil.which("socat") is None, reason="needs socat")


def config_of(**sections: dict[str, object]) -> Config:
    return parse_config(dict(sections), "test")


@pytest.fixture()
def twins() -> Iterator[Doctor]:
    config = Config()
    with simulated_devices(config) as devices:
        yield Doctor(config, devices, GENEROUS_S, say=lambda text: None)


def lines_of(text: str) -> list[str]:
    """The result lines, without the prompts between them."""
    return [line for line in text.splitlines() if line.split(":")[0] in TITLES.values()]


# ---- the whole doctor ----------------------------------------------------------------------


@needs_socat
def test_the_whole_doctor_on_the_twins_passes_and_prints_every_check(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["doctor", "--simulate", "--timeout", str(GENEROUS_S)]) == 0
    out = capsys.readouterr().out
    lines = lines_of(out)
    assert [line.split(":")[0] for line in lines] == list(TITLES.values())
    assert all(": PASS: " in line for line in lines), out
    assert "the MemWars board found" in out
    assert "Press Player 1's button" in out and "Press the pause button" in out
    assert "http://127.0.0.1:" in out


@needs_socat
def test_the_real_process_runs_the_simulated_doctor_end_to_end() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "doctor", "--simulate", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [result["check"] for result in results] == list(NAMES)
    assert {result["status"] for result in results} == {"pass"}


@needs_socat
@pytest.mark.parametrize("protocol", ["pn532", "pico"])
def test_the_twin_reader_speaks_the_configured_protocol(protocol: str) -> None:
    config = config_of(reader={"protocol": protocol})
    with simulated_devices(config) as devices:
        result = run_one("reader", Doctor(config, devices, GENEROUS_S, say=lambda text: None))
    assert result.status == "pass", line_of(result)


def test_with_yes_the_leds_and_buzzer_are_driven_without_a_button(twins: Doctor) -> None:
    result = run_one(
        "leds", replace(twins, yes=True, devices=replace(twins.devices, table=PersonAtTable()))
    )
    assert result.status == "pass", line_of(result)
    assert "--yes" in result.found


# ---- each part broken ----------------------------------------------------------------------


def test_a_camera_that_does_not_open_fails_in_its_own_line(twins: Doctor) -> None:
    broken = replace(twins, devices=replace(twins.devices, camera="/dev/video99"))
    line = line_of(run_one("camera", broken))
    assert line.startswith("Camera: FAIL: /dev/video99 did not open")
    assert "`ls /dev/video*`" in line and "[camera] source" in line


def test_a_camera_that_sees_no_board_says_so(twins: Doctor, tmp_path: Path) -> None:
    import cv2
    import numpy as np

    cv2.imwrite(str(tmp_path / "table.png"), np.full((720, 1280, 3), 90, np.uint8))
    broken = replace(twins, devices=replace(twins.devices, camera=str(tmp_path)))
    line = line_of(run_one("camera", broken))
    assert line.startswith("Camera: FAIL: ") and "1280×720 frames" in line
    assert "board was not found" in line and "companion vision show" in line


@needs_socat
def test_a_port_where_nothing_answers_fails_in_its_own_line() -> None:
    from companion.devices.cardreader.ptypair import PtyPair

    config = Config(reader=ReaderConfig(protocol="pn532"))
    with PtyPair() as pair:  # a cable with nothing at its other end
        devices = replace(real_devices(config), reader_port=pair.host_path)
        result = run_one("reader", Doctor(config, devices, 1.0, say=lambda text: None))
    line = line_of(result)
    assert line.startswith(f"Card reader: FAIL: nothing answered as pn532 on {pair.host_path}")
    assert "companion reader detect" in line


def test_no_reader_port_is_skipped_not_failed() -> None:
    config = Config()
    result = run_one("reader", Doctor(config, real_devices(config), 1.0))
    assert line_of(result) == "Card reader: SKIP: no [reader] port: cards are entered by touch."


def test_a_missing_reader_port_says_to_plug_it_in() -> None:
    config = config_of(reader={"port": "/dev/no-such-reader", "protocol": "pico"})
    line = line_of(run_one("reader", Doctor(config, real_devices(config), 1.0)))
    assert "No such file or directory" in line and "Is the reader plugged in?" in line


def test_a_button_never_pressed_fails_with_its_name_and_pin() -> None:
    config = Config()
    prompts: list[str] = []
    # The mock pins, with nobody at the table to press them.
    with simulated_devices(config, table=PersonAtTable()) as devices:
        result = run_one("buttons", Doctor(config, devices, SHORT_S, say=prompts.append))
    assert prompts[0] == "Press Player 1's button (pin 17)."
    line = line_of(result)
    assert line.startswith("Buttons: FAIL: Player 1's button (pin 17) was not pressed")
    assert "the pause button (pin 22) was not pressed" in line
    assert "hardware/clock-wiring.md" in line


class SwappedWires(TwinAtTable):
    """Pressing the button asked for closes the other player's contact."""

    def press(self, pin: int) -> None:
        super().press({17: 27, 27: 17}.get(pin, pin))


def test_swapped_buttons_are_named() -> None:
    config = Config()
    with simulated_devices(config) as devices:
        table = SwappedWires(devices.pin_factory)
        swapped = replace(devices, table=table)
        result = run_one("buttons", Doctor(config, swapped, SHORT_S, say=lambda text: None))
    assert "Player 1's button (pin 17) was not pressed, but Player 2's button was" in result.found


def test_an_led_nobody_confirms_fails() -> None:
    config = Config()
    with simulated_devices(config, table=PersonAtTable()) as devices:
        result = run_one("leds", Doctor(config, devices, SHORT_S, say=lambda text: None))
    assert line_of(result).startswith("LEDs and buzzer: FAIL: not confirmed within 0.3 s")
    assert "Player 1's LED (5)" in result.found and "the buzzer (13)" in result.found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_broker_where_nothing_listens_fails_in_its_own_line() -> None:
    url = f"mqtt://127.0.0.1:{free_port()}"
    config = config_of(broker={"url": url})
    result = run_one("broker", Doctor(config, real_devices(config), 5.0))
    line = line_of(result)
    assert line.startswith(f"Broker: FAIL: {url}: no connection")
    assert "mosquitto_sub" in line


def test_without_a_broker_url_the_embedded_one_answers(twins: Doctor) -> None:
    result = run_one("broker", twins)
    assert result.status == "pass", line_of(result)
    assert "embedded broker" in result.found


def test_a_store_that_cannot_be_written_fails(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    config = config_of(store={"path": str(blocker / "games.sqlite3")})
    line = line_of(run_one("store", Doctor(config, real_devices(config), 1.0)))
    assert line.startswith("Store: FAIL: ") and "[store] path" in line


def test_a_check_that_breaks_says_so_without_a_traceback(twins: Doctor) -> None:
    def broken_camera(spec: str) -> FrameSource:
        raise RuntimeError("a driver fell over")

    broken = replace(twins, devices=replace(twins.devices, open_camera=broken_camera))
    line = line_of(run_one("camera", broken))
    assert line.startswith("Camera: FAIL: the check itself went wrong: RuntimeError")


# ---- the command line ----------------------------------------------------------------------


def test_only_and_skip_choose_the_checks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--simulate", "--only", "store,config,voice", "--skip", "voice"]) == 0
    lines = lines_of(capsys.readouterr().out)
    assert [line.split(":")[0] for line in lines] == ["Configuration", "Store"]
    assert chosen(None, "camera,reader") == tuple(n for n in NAMES if n not in ("camera", "reader"))


@pytest.mark.parametrize("option", ["--only", "--skip"])
def test_an_unknown_check_is_bad_input(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", option, "config,cammera"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error:") and "'cammera'" in err and len(err.splitlines()) == 1
    with pytest.raises(UserError):
        chosen(",", None)


def test_json_prints_one_object_a_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--simulate", "--json", "--only", "config,reader"]) == 0
    out = capsys.readouterr().out
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["check"] for r in results] == ["config", "reader"]
    assert set(results[0]) == {"check", "title", "status", "found", "todo"}


def test_a_failed_check_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text(f'[broker]\nurl = "mqtt://127.0.0.1:{free_port()}"\n')
    assert (
        main(["--config", str(config), "doctor", "--only", "config,broker", "--timeout", "5"]) == 1
    )
    lines = lines_of(capsys.readouterr().out)
    assert lines[0].startswith("Configuration: PASS: ") and lines[1].startswith("Broker: FAIL: ")
    assert load_config(config).broker.url in lines[1]


def test_a_configuration_that_does_not_read_fails_and_the_rest_are_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[camera\n")
    assert main(["--config", str(config), "doctor", "--only", "config,camera,broker"]) == 1
    lines = lines_of(capsys.readouterr().out)
    assert lines[0].startswith("Configuration: FAIL: ") and "not valid TOML" in lines[0]
    assert lines[1:] == [
        "Camera: SKIP: the configuration could not be read.",
        "Broker: SKIP: the configuration could not be read.",
    ]


def test_a_timeout_must_be_more_than_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--timeout", "0"]) == 2
