"""Setting the camera up for MeM on the touchscreen, with the simulated camera: MeM chosen
on the board row, the eleven stones named, refused with the reason on an empty board, then
laid, calibrated and saved where a MeM game with a camera reads it."""

from __future__ import annotations

from companion.table.camera_setup import CameraSetup
from vision.calibration_file import load_calibration
from vision.stone_calibration import StoneCalibration

from .screen import Screen


def test_the_camera_is_calibrated_for_mem_from_the_screen(screen: Screen) -> None:
    controller = screen.app.controller
    screen.tap_text("Set up the camera")
    assert screen.current == "camera"
    camera = screen.screen()
    assert camera.board == "memwars"  # the default, as before
    assert camera.toggles["memwars"].state == "down"
    assert "one red crystal on places" in camera.instructions
    screen.tap(camera.toggles["mem"])
    assert camera.board == "mem" and camera.toggles["mem"].state == "down"
    assert camera.toggles["memwars"].state == "normal"
    assert camera.instructions.startswith(
        "Lay the MeM board out empty, then put one stone of each colour on its square: "
        "white 0, black 31,"
    ), camera.instructions
    assert camera.status.startswith("board found:"), camera.status
    assert camera.ids.preview.texture is not None
    setup = controller.camera_setup()
    assert isinstance(setup, CameraSetup) and setup.game == "mem"
    screen.tap(camera.ids.calibrate)  # nothing laid yet: refused, with the reason
    assert camera.result.startswith("Not saved:\nNo stone was seen on squares 0 (white)")
    assert not controller.calibration_path_for("mem").exists()
    screen.shot("camera-mem-not-saved")
    screen.tap(camera.ids.lay)
    screen.tap(camera.ids.calibrate)
    assert camera.result.startswith("Calibrated white, black, red"), camera.result
    assert str(controller.calibration_path_for("mem")) in camera.result
    saved = load_calibration(controller.calibration_path_for("mem"))
    assert isinstance(saved, StoneCalibration) and len(saved.stones) == 11
    assert not controller.calibration_path_for(
        "memwars"
    ).exists()  # MemWars' calibration is untouched
    screen.shot("camera-mem-calibrated")
    # Back to MemWars: its plan again; leaving and coming back keeps the board chosen.
    screen.tap(camera.toggles["memwars"])
    assert "one red crystal on places" in camera.instructions
    screen.tap_text("Home")
    screen.tap_text("Set up the camera")
    assert screen.screen().board == "memwars"
