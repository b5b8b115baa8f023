"""Photos as a phone takes them: EXIF orientation, 12 MP, HEIC, damaged files, and one
registration kept across photos from one camera position (`companion vision read`)."""

from __future__ import annotations

import json
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray
from PIL import Image as Pil

import vision.registration
from companion.cli import main
from tests.vision.helpers import BLUE, EASY, RED, YELLOW
from vision.calibration import Calibration
from vision.geometry import Board
from vision.photo import MAX_PIXELS, WORKING_SIDE, load_photo
from vision.reader import BoardReader
from vision.synth import Scene, render

POSITION = Scene(crystals={"17": (BLUE, YELLOW), "42": (RED,), "diamond-2": (RED,)})
HELD = {"17": [BLUE, YELLOW], "42": [RED], "diamond-2": [RED]}

# Pillow's transpose that, applied to the upright picture, gives what a camera stores with
# each EXIF orientation (the inverse of what the tag says to do).
STORED = {
    1: None,
    2: Pil.Transpose.FLIP_LEFT_RIGHT,
    3: Pil.Transpose.ROTATE_180,
    4: Pil.Transpose.FLIP_TOP_BOTTOM,
    5: Pil.Transpose.TRANSPOSE,
    6: Pil.Transpose.ROTATE_90,
    7: Pil.Transpose.TRANSVERSE,
    8: Pil.Transpose.ROTATE_270,
}


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))


@pytest.fixture()
def calibration_file(tmp_path: Path, easy_calibration: Calibration) -> Path:
    path = tmp_path / "cal.json"
    easy_calibration.save(path)
    return path


def upright_marker() -> NDArray[np.uint8]:
    """A wide picture whose top-left corner is red: any turn or mirror shows."""
    image = np.full((60, 90, 3), 255, np.uint8)
    image[:20, :30] = (0, 0, 255)
    return image


def save_as_phone(image: NDArray[np.uint8], path: Path, orientation: int) -> Path:
    """Store `image` as a phone held `orientation` would: turned, with the tag to undo it."""
    picture = Pil.fromarray(np.ascontiguousarray(image[..., ::-1]))
    turn = STORED[orientation]
    if turn is not None:
        picture = picture.transpose(turn)
    exif = Pil.Exif()
    exif[0x0112] = orientation
    picture.save(path, exif=exif.tobytes(), quality=95)
    return path


def phone_photo(board: Board, scene: Scene, seed: int) -> Any:
    """A 12 MP-sized photo (4000 x 3000) of the board: the frame enlarged, with table round
    it to make it 4:3."""
    image = render(board, scene, EASY, seed).image
    big = cv2.resize(image, (4000, 2250), interpolation=cv2.INTER_CUBIC)
    return cv2.copyMakeBorder(big, 375, 375, 0, 0, cv2.BORDER_REPLICATE)


def read_json(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any, str]:
    code = main(["vision", "read", *arguments, "--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out else None, captured.err


def crystals(image: dict[str, Any]) -> dict[str, list[str]]:
    zones: dict[str, dict[str, Any]] = image["zones"]
    return {key: zone["crystals"] for key, zone in zones.items() if zone["crystals"]}


@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_photo_is_turned_upright_as_its_exif_says(tmp_path: Path, orientation: int) -> None:
    path = save_as_phone(upright_marker(), tmp_path / f"o{orientation}.jpg", orientation)
    image = load_photo(path)
    assert image.shape == (60, 90, 3)
    assert np.abs(image.astype(int) - upright_marker()).mean() < 4


def test_a_photo_turned_by_the_phone_reads_the_board_the_right_way_up(
    board: Board, tmp_path: Path, calibration_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = render(board, POSITION, EASY, 60).image
    path = save_as_phone(frame, tmp_path / "turned.jpg", 6)
    code, document, err = read_json([str(path), "--calibration", str(calibration_file)], capsys)
    assert code == 0, err
    (image,) = document["images"]
    assert image["registration"]["north"] == "top"
    assert crystals(image) == HELD


def test_a_12_mp_photo_reaches_the_reader_at_its_working_size_decoded_once(
    board: Board,
    tmp_path: Path,
    calibration_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "IMG_0001.jpg"
    assert cv2.imwrite(str(path), phone_photo(board, POSITION, 61))
    sizes: list[tuple[int, ...]] = []
    read = BoardReader.read

    def reading(self: BoardReader, image: NDArray[np.uint8], t_ns: int = 0) -> Any:
        sizes.append(image.shape)
        return read(self, image, t_ns)

    opened: list[str] = []
    open_picture = Pil.open

    def counted(*args: Any, **kwargs: Any) -> Any:
        opened.append(str(args[0]))
        return open_picture(*args, **kwargs)

    monkeypatch.setattr(BoardReader, "read", reading)
    monkeypatch.setattr(Pil, "open", counted)
    code, document, err = read_json([str(path), "--calibration", str(calibration_file)], capsys)
    assert code == 0, err
    assert sizes == [(960, WORKING_SIDE, 3)]
    assert opened == [str(path)]
    assert crystals(document["images"][0]) == HELD


def test_a_heic_photo_is_read(
    board: Board, tmp_path: Path, calibration_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    frame = render(board, POSITION, EASY, 62).image
    path = save_as_phone(frame, tmp_path / "IMG_0002.jpg", 8).rename(tmp_path / "x")
    # The same turned picture and tag, as HEIC.
    with Pil.open(path) as jpeg:
        jpeg.save(tmp_path / "IMG_0002.HEIC", format="HEIF", exif=jpeg.info["exif"], quality=95)
    heic = tmp_path / "IMG_0002.HEIC"
    code, document, err = read_json([str(heic), "--calibration", str(calibration_file)], capsys)
    assert code == 0, err
    (image,) = document["images"]
    assert image["registration"]["north"] == "top"
    assert crystals(image) == HELD


def test_without_pillow_heif_a_heic_photo_is_refused_in_one_line(
    tmp_path: Path,
    calibration_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    heic = tmp_path / "IMG_0003.heic"
    heic.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(64))
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # as if not installed
    code = main(["vision", "read", str(heic), "--calibration", str(calibration_file)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert f"{heic}: cannot read HEIC photos" in err and "convert" in err and "JPEG" in err


def huge_png(path: Path, width: int, height: int) -> Path:
    """A PNG that says it is width x height (its pixels are never reached)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = zlib.compress(b"\x00" * (1 + 3 * 16))
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )
    return path


def truncated_jpeg(board: Board, path: Path) -> Path:
    ok, data = cv2.imencode(".jpg", render(board, Scene(), EASY, 63).image)
    assert ok
    path.write_bytes(data.tobytes()[: len(data) * 2 // 3])
    return path


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("truncated", "damaged or cut short"),
        ("text", "not a picture"),
        ("empty", "empty file"),
        ("huge", "too big"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    board: Board,
    tmp_path: Path,
    calibration_file: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    says: str,
) -> None:
    path = tmp_path / ("huge.png" if kind == "huge" else f"{kind}.jpg")
    if kind == "truncated":
        truncated_jpeg(board, path)
    elif kind == "text":
        path.write_text("a note, not a photo\n")
    elif kind == "empty":
        path.write_bytes(b"")
    else:
        huge_png(path, 40_000, 40_000)
        assert MAX_PIXELS < 40_000 * 40_000
    out = tmp_path / "new-cal.json"
    for extra in (
        ["read", "--calibration", str(calibration_file)],
        ["calibrate", "--colours", "red,blue,yellow", "--out", str(out)],
    ):
        action = extra[0]
        code = main(["vision", action, str(path), *extra[1:]])
        err = capsys.readouterr().err
        assert code == 2, action
        assert err.count("\n") == 1, err
        assert err.startswith("companion: ") and f"{path}: " in err and says in err, err
        assert "Traceback" not in err
    assert not out.exists()


def test_one_registration_is_kept_across_photos_from_one_camera_position(
    board: Board,
    tmp_path: Path,
    calibration_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searches: list[int] = []
    find = vision.registration.MarkerFinder.find

    def counted(self: Any, grey: Any, effort: int = 0) -> Any:
        searches.append(effort)
        return find(self, grey, effort)

    monkeypatch.setattr(vision.registration.MarkerFinder, "find", counted)
    names = []
    scenes = [POSITION, Scene(), POSITION]
    for number, scene in enumerate(scenes):
        path = tmp_path / f"still-{number}.png"
        assert cv2.imwrite(str(path), render(board, scene, EASY, 64, frame=number).image)
        names.append(str(path))
    code, document, err = read_json([*names, "--calibration", str(calibration_file)], capsys)
    assert code == 0, err
    images = document["images"]
    assert len(searches) == 1  # the first photo's markers were searched for, then checked
    assert [crystals(image) for image in images] == [HELD, {}, HELD]
    assert not any(image["hands"] or image["registration"]["held"] for image in images)


def test_a_photo_from_another_position_is_searched_afresh(
    board: Board,
    tmp_path: Path,
    calibration_file: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = tmp_path / "here.png"
    moved = tmp_path / "moved.png"
    assert cv2.imwrite(str(first), render(board, POSITION, EASY, 65).image)
    nudged = EASY.replace(board_offset=(25.0, -15.0))
    assert cv2.imwrite(str(moved), render(board, POSITION, nudged, 65).image)
    code, document, err = read_json(
        [str(first), str(moved), "--calibration", str(calibration_file)], capsys
    )
    assert code == 0, err
    images = document["images"]
    assert [crystals(image) for image in images] == [HELD, HELD]
    assert images[1]["registration"]["markers_seen"] >= 20
    assert not images[1]["registration"]["held"]


def test_a_photo_without_the_board_after_one_with_it_is_not_found_rather_than_held(
    board: Board,
    tmp_path: Path,
    calibration_file: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = tmp_path / "board.png"
    blank = tmp_path / "table.png"
    assert cv2.imwrite(str(first), render(board, POSITION, EASY, 66).image)
    assert cv2.imwrite(str(blank), np.full((720, 1280, 3), 120, np.uint8))
    code, document, err = read_json(
        [str(first), str(blank), "--calibration", str(calibration_file)], capsys
    )
    assert code == 0, err
    assert [image["found"] for image in document["images"]] == [True, False]
