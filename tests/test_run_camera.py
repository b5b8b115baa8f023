"""`companion run --simulate` films the board with the virtual camera and reads it back."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from companion.cli import build_parser, main

SHORT_GAME = ["run", "--simulate", "--no-app", "--no-stream", "--quadrants", "1"]
# The figures only: the median read time is the machine's, not the behaviour under test.
SUMMARY = re.compile(
    r"Camera: (\d+) frames read, (\d+) changes committed, (\d+) mismatch(?:es)?, median read "
)


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps what it prints at 80 columns when it is not printing to a terminal; a
    wide one keeps each line whole (the assertions do not count on it: see `flat`)."""
    monkeypatch.setenv("COLUMNS", "1000")


def flat(out: str) -> str:
    """The output with every run of whitespace one space: the same words wherever rich
    wrapped the lines."""
    return " ".join(out.split())


def _summary(out: str) -> tuple[int, int, int]:
    found = SUMMARY.search(flat(out))
    assert found, out[-2000:]
    frames, committed, mismatches = (int(n) for n in found.groups())
    return frames, committed, mismatches


def test_every_change_to_the_board_is_filmed_read_and_matches_the_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(SHORT_GAME) == 0
    out = flat(capsys.readouterr().out)
    frames, committed, mismatches = _summary(out)
    assert committed > 0 and frames > committed
    assert mismatches == 0 and "camera alert" not in out
    first_claim = re.search(r"claims place (\d+)\.", out)
    assert first_claim is not None
    assert f"camera: place {first_claim.group(1)} red" in out
    assert "camera: claim diamond 1 " in out  # the quadrant's winner claims it
    assert "Winner:" in out


def test_a_crystal_in_the_wrong_colour_is_one_alert_naming_its_place(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = build_parser().parse_args(SHORT_GAME)
    args.camera_wrong_colour_at = 1
    assert args.run(args) == 0
    out = flat(capsys.readouterr().out)
    first_claim = re.search(r"Ada claims place (\d+)\.", out)
    assert first_claim is not None
    place = first_claim.group(1)
    assert out.count("camera alert") == 1
    assert f"camera alert: place {place}: the camera sees blue, the rules expect red" in out
    assert _summary(out)[2] == 1


def test_without_a_calibration_the_game_goes_on_without_the_camera(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import vision.calibrate
    from vision.calibration import Calibration, CalibrationResult

    def failing(*args: object, **kwargs: object) -> CalibrationResult:
        problem = "no red crystal was seen on place 13"
        return CalibrationResult(Calibration(board_file="", colours=()), (problem,), {})

    monkeypatch.setattr(vision.calibrate, "calibrate", failing)
    assert main(SHORT_GAME) == 0
    out = flat(capsys.readouterr().out)
    assert "Camera: not calibrated (no red crystal was seen on place 13); the game goes on" in out
    assert "Winner:" in out and "frames read" not in out


def test_no_camera_plays_the_game_without_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SHORT_GAME, "--no-camera"]) == 0
    out = flat(capsys.readouterr().out)
    assert "Winner:" in out and "Camera" not in out and "camera:" not in out


def test_the_command_line_does_not_import_opencv() -> None:
    # vision/common (UserError, the file readers) and vision/card_code.py (a printed card's
    # code, as text) are the parts of vision companion always imports: neither needs OpenCV
    # nor numpy.
    probe = (
        "import sys; from companion.cli import build_parser; build_parser(); "
        "print(sorted(name for name in sys.modules if name in ('cv2', 'numpy') or "
        "name.startswith('vision.') and not name.startswith(('vision.common', "
        "'vision.card_code'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
