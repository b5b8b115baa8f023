"""The `companion` command: bad input gives one line and exit code 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cli import main

GOLDEN = Path(__file__).parent / "golden" / "standard-challenge-outcomes.jsonl"


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))


def _record_lines() -> list[str]:
    return GOLDEN.read_text().splitlines()


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda lines: [], "the record is empty"),
        (lambda lines: ["{not json", *lines[1:]], ":1: not valid JSON"),
        (lambda lines: [lines[0].replace("game-record", "other"), *lines[1:]], "not a game record"),
        (lambda lines: [lines[0].replace('"memwars"', '"chess"'), *lines[1:]], "unknown game"),
        (lambda lines: [lines[0], lines[2]], ":2: 'seq' must be 1, got 2"),
        (
            lambda lines: [*lines[:3], lines[3].replace('"claim"', '"surrender"')],
            ":4: action.type: unknown type 'surrender'",
        ),
        (
            lambda lines: [*lines[:3], lines[3].replace('"side":1', '"side":"one"')],
            ":4: claim.side: expected a whole number",
        ),
        (
            lambda lines: [*lines[:3], lines[3].replace('"side":1', '"side":0')],
            ":4: action 3 is illegal: MW-SM1",
        ),
        (
            lambda lines: [lines[0].replace('"seed":1', '"seed":"x"'), *lines[1:]],
            ":1: bad setup: seed",
        ),
    ],
)
def test_bad_records(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mutate: Callable[[list[str]], list[str]],
    message: str,
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(mutate(_record_lines())) + "\n")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "/nonexistent/game.jsonl"]) == 2
    assert "/nonexistent/game.jsonl: no such file" in capsys.readouterr().err


def test_partial_record_replays_and_says_what_is_awaited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "partial.jsonl"
    path.write_text("\n".join(_record_lines()[:4]) + "\n")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Waiting for:" in out and "not over" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[store\npath = 1", "not valid TOML"),
        ("[camera]\nindex = 0", "unknown key camera.index"),
        ("[lights]\non = true", "unknown section [lights]"),
        ("[store]\nfile = 'x'", "unknown key store.file"),
        ("[store]\npath = 3", "store.path must be str"),
        ("store = 3", "[store] must be a table"),
        (
            "[reader]\nprotocol = 'rdm6301'",
            "reader.protocol must be one of rdm6300, pn532, pico, not 'rdm6301'",
        ),
        ("[pins]\ndebounce_ms = 5000", "pins.debounce_ms must be 0 to 1000, not 5000"),
    ],
)
def test_bad_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    (tmp_path / "config.toml").write_text(text)
    assert main(["config", "show"]) == 2
    err = capsys.readouterr().err
    assert message in err and "config.toml" in err


def test_config_defaults_and_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "path"]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "config.toml")
    assert main(["config", "show"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["source"] == "defaults" and shown["game"]["deck"] == "mythologies-of-earth"
    (tmp_path / "config.toml").write_text("[game]\nboard_id = 'club-3'\n")
    assert main(["config", "show"]) == 0
    assert json.loads(capsys.readouterr().out)["game"]["board_id"] == "club-3"


@pytest.mark.parametrize("command", [["config", "show"], ["config", "path"], ["games", "list"]])
def test_a_config_file_named_on_the_command_line_must_exist(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    missing = tmp_path / "mistyped.toml"
    assert main(["--config", str(missing), *command]) == 2
    err = capsys.readouterr().err
    assert err == f"companion: error: {missing}: no such configuration file\n"
    # The default place (here $COMPANION_CONFIG) holds no file until settings are saved.
    assert main(["config", "show"]) == 0
    assert json.loads(capsys.readouterr().out)["source"] == "defaults"
    (tmp_path / "named.toml").write_text("[game]\nboard_id = 'club-4'\n")
    assert main(["--config", str(tmp_path / "named.toml"), "config", "show"]) == 0
    assert json.loads(capsys.readouterr().out)["game"]["board_id"] == "club-4"


def test_rules_lists_every_house_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "memwars", "--json"]) == 0
    rules = json.loads(capsys.readouterr().out)
    assert len(rules) == 45
    give_up = next(r for r in rules if r["key"] == "mw.giveUp.points")
    assert give_up["default"] == "CRYSTALS_AFTER_REMOVAL" and give_up["settles"] == "MW-A10"
    assert main(["rules", "memwars"]) == 0
    assert "mw.supply.exhaustion" in capsys.readouterr().out


def test_simulate_plays_a_whole_game_with_every_kind_of_challenge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "sim.jsonl"
    assert main(["simulate", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    for phrase in (
        "claims place",
        "gives up place",
        "forsakes the challenge",
        "the challenger was right",
        "the challenger was wrong",
        "both were wrong",
        "puts a counter face down",
        "takes the counters",
        "is complete",
        "Score breakdown",
        "Winner:",
        "Stored as game 1",
    ):
        assert phrase in out, phrase
    assert main(["replay", str(record), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["phase"] == "over"
    assert main(["games", "list"]) == 0
    assert "memwars" in capsys.readouterr().out


@pytest.mark.parametrize("mode", ["basic", "hybrid", "review", "study"])
def test_simulate_every_mode(mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--mode", mode, "--no-store", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert ("Winner:" in out) or ("first pass" in out)


def test_a_real_process_exits_2_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("nonsense\n")
    done = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("companion: error:") and "Traceback" not in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "companion", "replay"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr


@pytest.mark.parametrize("reader", ["rdm6300", "pn532", "pico"])
def test_simulate_scans_cards_on_an_emulated_reader(
    reader: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--no-store", "--reader", reader]) == 0
    out = capsys.readouterr().out
    assert f"{reader} reader: card" in out and ": the card expected" in out
    assert "is not the card the rules expect now" in out
    assert f"Card reader ({reader}, emulated):" in out and "Winner:" in out


def test_run_is_the_simulated_main_job(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--simulate", "--no-app", "--no-camera"]) == 0
    out = capsys.readouterr().out
    assert "rdm6300 reader:" in out and "Stored as game" in out


def test_config_show_hides_passwords(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "config.toml").write_text("[broker]\nurl = 'mqtt://h:1883'\npassword = 's3cret'\n")
    assert main(["config", "show"]) == 0
    out = capsys.readouterr().out
    assert "s3cret" not in out and "********" in out


def test_run_streams_the_game_to_the_configured_broker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from companion.publish.mosquitto import Mosquitto

    with Mosquitto() as broker:
        (tmp_path / "config.toml").write_text(
            f"[broker]\nurl = '{broker.url}'\n[game]\nboard_id = 'club-7'\n"
        )
        assert (
            main(
                [
                    "run",
                    "--simulate",
                    "--no-app",
                    "--no-camera",
                    "--linger",
                    "0",
                    "--display-port",
                    "0",
                ]
            )
            == 0
        )
        assert "Streaming to the configured broker" in capsys.readouterr().out
        received: list[dict[str, object]] = []
        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        client.on_message = lambda c, u, m: received.append(json.loads(m.payload))
        client.connect("127.0.0.1", broker.port)
        client.subscribe("tabletop/club-7/state", qos=1)
        client.loop_start()
        try:
            deadline = time.monotonic() + 5
            while not received and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            client.loop_stop()
            client.disconnect()
    assert received, "no retained state"
    state = received[-1]
    assert state["board"] == "club-7"
    view = state["view"]
    assert isinstance(view, dict) and view["phase"] == "over"
