"""A real camera's frames (here a folder of pictures) watched during a game."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import cv2
import pytest

from companion.config import Config
from companion.games.memwars.play.choices import MemWarsChoices
from companion.store import Store
from companion.table.camera_setup import CameraSetup
from companion.table.camera_watch import CameraWatch, missing_colours
from companion.table.not_started import NotStarted
from companion.ui.controller import Controller
from tests.plays import memwars_of
from vision.geometry import load_board
from vision.synth import Scene, SyntheticCamera
from vision.synth.conditions import Conditions

COLOURS = ("red", "blue", "yellow")


@pytest.fixture(scope="module")
def filmed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A calibration, and a folder of frames: an empty board, a hand putting a red crystal
    on 13, then the board with it."""
    folder = tmp_path_factory.mktemp("frames")
    camera = SyntheticCamera(load_board(), Conditions.easy(), seed=9)
    calibration = folder.parent / "calibration.json"
    setup = CameraSetup(camera.read, COLOURS, out=calibration)
    camera.set_scene(
        Scene(crystals={str(p): (n,) for n, places in setup.plan.items() for p in places})
    )
    assert setup.calibrate().saved
    camera.set_scene(Scene())
    frames = [camera.read() for _ in range(6)]
    frames += [shot.image for shot in camera.sequence_hand_over("13", put="red")]
    frames += [camera.read() for _ in range(8)]
    for i, image in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:03d}.png"), image)
    return folder, calibration


def test_what_the_camera_commits_is_handed_on_and_its_end_is_said(
    filmed: tuple[Path, Path],
) -> None:
    folder, calibration = filmed
    seen: list[dict[str, tuple[str, ...]]] = []
    lost: list[str] = []
    done = threading.Event()

    def ended(why: str) -> None:
        lost.append(why)
        done.set()

    watch = CameraWatch.start(str(folder), calibration, seen.append, ended)
    assert isinstance(watch, CameraWatch)
    assert done.wait(60)
    watch.stop()
    assert seen[-1] == {"13": ("red",)}
    assert lost == ["the camera sent no more frames"]
    assert watch.frames == len(list(folder.glob("*.png")))


def test_the_topology_counters_it_commits_are_handed_on(
    filmed: tuple[Path, Path], tmp_path: Path
) -> None:
    """A face-down counter on 33 as the board is found; a hand turns it up: a 5."""
    _, calibration = filmed
    board = load_board()
    camera = SyntheticCamera(board, Conditions.easy(), seed=9)
    centre = next(zone.centre for zone in board.zones() if zone.key == "33")
    camera.set_scene(Scene(counters={"33": (None,)}))
    frames = [camera.read() for _ in range(8)]
    camera.set_scene(Scene(counters={"33": (5,)}))
    camera.reach_over(centre)
    frames += [camera.read() for _ in range(2)]
    camera.hand_out()
    frames += [camera.read() for _ in range(8)]
    for i, image in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), image)
    counters: list[dict[str, tuple[int | None, ...]]] = []
    done = threading.Event()
    watch = CameraWatch.start(
        str(tmp_path),
        calibration,
        lambda _board: None,
        lambda _why: done.set(),
        on_counters=counters.append,
    )
    assert isinstance(watch, CameraWatch)
    assert done.wait(60)
    watch.stop()
    assert counters == [{"33": (None,)}, {"33": (5,)}]


def test_an_uncalibrated_camera_says_so(tmp_path: Path) -> None:
    why = CameraWatch.start("0", tmp_path / "none.json", lambda _b: None, lambda _w: None)
    assert isinstance(why, NotStarted) and "not calibrated" in why.why


def test_a_game_watched_by_a_camera_that_stops_goes_on_by_touch(
    filmed: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, calibration = filmed
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    (tmp_path / "calibration.json").write_bytes(calibration.read_bytes())
    jobs: list[Callable[[], None]] = []
    with Store.open(tmp_path / "games.sqlite3") as store:
        controller = Controller(Config(), store, call_soon=jobs.append)
        controller.camera_spec = str(folder)
        controller.start("memwars", MemWarsChoices(quadrants=1, seed=3))
        play = memwars_of(controller)
        live = play.live
        assert play.watch is not None
        play.watch._thread.join(timeout=60)  # the folder runs out
        for job in list(jobs):  # what the camera thread handed over, on the game's thread
            job()
        view = live.view()
        assert str(view.camera) == "lost: the camera sent no more frames"
        assert not view.held
        assert live.decide("roll") is None
        controller.close()


def test_a_calibration_without_a_sides_colour_is_said_in_one_line() -> None:
    assert missing_colours(COLOURS, ("red", "blue", "yellow")) == ""
    assert missing_colours(COLOURS, ("red", "blue", "green", "yellow")) == (
        "the camera is calibrated for red, blue and yellow, not green: Set up the camera with"
        " green chosen, then begin the game again"
    )


def test_a_game_with_a_side_colour_the_camera_never_learnt_is_not_misread(
    filmed: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A third side in green, the camera calibrated for red, blue and yellow only: the watch
    does not start (it could only misread the green crystals) and the game says why, then
    goes on by touch."""
    folder, calibration = filmed
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    (tmp_path / "calibration.json").write_bytes(calibration.read_bytes())
    jobs: list[Callable[[], None]] = []
    with Store.open(tmp_path / "games.sqlite3") as store:
        controller = Controller(Config(), store, call_soon=jobs.append)
        controller.camera_spec = str(folder)
        controller.start("memwars", MemWarsChoices(sides=3, quadrants=1, seed=3))
        play = memwars_of(controller)
        assert play.watch is None
        view = play.live.view()
        assert str(view.camera) == (
            "lost: the camera is calibrated for red, blue and yellow, not green: Set up the"
            " camera with green chosen, then begin the game again"
        )
        assert play.live.decide("roll") is None
        controller.close()
