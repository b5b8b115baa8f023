"""Setting the camera up for MeM from the app, without Kivy: the squares named, the preview,
the eleven colours calibrated from the virtual camera's frames, problems said plainly and
nothing saved until the calibration passes; then a MeM reader reads with what was saved."""

from __future__ import annotations

from pathlib import Path

from companion.config import Config, StoreConfig
from companion.games.mem.camera import PROFILE, stone_problems
from companion.store import Store
from companion.table.camera_setup import CameraSetup, outcome_text
from companion.ui.controller import Controller
from tests.vision_mem.helpers import EASY, MEM_BOARD, mem_board
from vision.calibration_file import load_calibration
from vision.plans import calibration_plan_for
from vision.reader import BoardReader
from vision.stone_calibration import StoneCalibration
from vision.synth import Glare, Scene, SyntheticCamera
from vision.synth.conditions import Conditions
from vision.synth.palette import MEM_STONES

GLARE = EASY.replace(glare=Glare(centre=(270.0, 248.5), radius=50.0, strength=0.3))
"""A lamp's glare over the black stone's square: black cannot be parted from grey."""


def camera(conditions: Conditions = EASY) -> SyntheticCamera:
    return SyntheticCamera(mem_board(), conditions, seed=4)


def lay(cam: SyntheticCamera, setup: CameraSetup) -> None:
    cam.set_scene(
        Scene(crystals={str(p): (name,) for name, places in setup.plan.items() for p in places})
    )


def test_the_mem_setup_names_a_square_for_each_of_the_eleven_colours(tmp_path: Path) -> None:
    setup = CameraSetup.for_game("mem", camera().read, out=tmp_path / "mem-calibration.json")
    assert setup.game == "mem"
    assert setup.plan == calibration_plan_for(mem_board(), list(MEM_STONES))
    assert setup.instructions == (
        "Lay the MeM board out empty, then put one stone of each colour on its square: "
        "white 0, black 31, red 3, blue 28, green 4, yellow 27, orange 9, purple 22, brown 12, "
        "pink 19, grey 14."
    )
    picture, status = setup.preview()
    assert status.startswith("board found:"), status
    assert picture is not None


def test_an_empty_mem_board_says_which_stones_are_missing_in_one_sentence(
    tmp_path: Path,
) -> None:
    out = tmp_path / "mem-calibration.json"
    outcome = CameraSetup.for_game("mem", camera().read, out=out).calibrate()
    assert not outcome.saved and not out.exists()
    assert outcome.problems == (
        "No stone was seen on squares 0 (white), 31 (black), 3 (red), 28 (blue), 4 (green), "
        "27 (yellow), 9 (orange), 22 (purple), 12 (brown), 19 (pink), 14 (grey): lay one "
        "stone of each colour on the square named; a stone that is there cannot be told from "
        "the bare paper under this light.",
    )


def test_colours_the_light_cannot_part_are_said_first_and_nothing_is_saved(
    tmp_path: Path,
) -> None:
    cam = camera(GLARE)
    out = tmp_path / "mem-calibration.json"
    setup = CameraSetup.for_game("mem", cam.read, out=out)
    lay(cam, setup)
    outcome = setup.calibrate()
    assert not outcome.saved and not out.exists()
    assert outcome.problems[0].startswith("black and grey look alike under this light"), (
        outcome.problems
    )
    text = outcome_text(outcome, PROFILE)
    assert text.startswith(
        "Not saved:\nBlack and grey look alike under this light: the camera cannot tell a "
        "black stone from a grey one"
    ), text
    assert all(line.endswith(".") for line in text.splitlines()[1:])


def test_with_the_stones_laid_the_mem_calibration_is_saved_and_reads_the_board(
    tmp_path: Path,
) -> None:
    cam = camera()
    out = tmp_path / "mem-calibration.json"
    setup = CameraSetup.for_game("mem", cam.read, out=out)
    lay(cam, setup)
    outcome = setup.calibrate()
    assert outcome.saved, outcome.problems
    assert outcome.summary.startswith("Calibrated white, black, red, blue, green")
    assert outcome.summary.endswith("MeM games read the board with it from the next one on.")
    saved = load_calibration(out)
    assert isinstance(saved, StoneCalibration)
    assert [s.name for s in saved.stones] == list(MEM_STONES)
    # The board a game's reader loads from the calibration is MeM's.
    assert Path(saved.board_file) == MEM_BOARD
    assert saved.load_board().game == "mem"
    cam.set_scene(Scene(crystals={"5": ("red",), "20": ("white",)}))
    reading = BoardReader(saved).read(cam.read())
    read = {key: zone.crystals for key, zone in reading.zones.items() if zone.crystals}
    assert read == {"5": ("red",), "20": ("white",)}


def test_stone_problems_keep_sentences_they_do_not_know() -> None:
    plan = {"white": (0,), "black": (31,)}
    problems = (
        "square 14 should read grey but reads unsure",
        "no white stone was seen on square 0: if it is there, white cannot be told from the "
        "bare square under this light",
        "white and black look alike under this light: ...",
    )
    said = stone_problems(problems, plan)
    assert said[0] == problems[2]
    assert said[1].startswith("No stone was seen on square 0 (white): lay one stone")
    assert said[2] == problems[0]


def test_the_controller_switches_the_board_and_saves_beside_the_games_store(
    tmp_path: Path,
) -> None:
    games = tmp_path / "games.sqlite3"
    with Store.open(games) as store:
        controller = Controller(Config(store=StoreConfig(path=str(games))), store)
        try:
            assert controller.calibration_path_for("mem") == tmp_path / "mem-calibration.json"
            assert controller.camera_setup().game == "memwars"
            setup = controller.choose_camera_board("mem")
            assert setup.game == "mem" and setup.out == controller.calibration_path_for("mem")
            assert controller.simulated_camera.board.game == "mem"
            controller.lay_calibration_plan()
            assert setup.calibrate().saved
            assert controller.calibration_path_for("mem").is_file()
            assert not controller.calibration_path_for("memwars").exists()
            assert controller.choose_camera_board("memwars").game == "memwars"
        finally:
            controller.close()
