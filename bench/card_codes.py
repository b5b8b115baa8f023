"""Reading printed card codes: how often, and how fast.

1. Detectors compared: a code photographed at a slant (0 to 40 degrees, any direction),
   out of focus (Gaussian sigma 1.0 and 1.4 pixels), JPEG quality 60, at 3, 4 and 5
   pixels a module; 40 pictures each. Read by QRCodeDetector (one code, several codes) and
   QRCodeDetectorAruco, on the picture as it is and enlarged as CardCodeReader enlarges a
   small crop, and by CardCodeReader itself. Floor: the reader reads at least 95 % of the
   codes at 4 pixels a module or more.
2. Time per 1280 x 720 frame, the whole frame against the deck area's crop, with a card
   and without one (most frames have none), median of 30.
3. The virtual camera (vision.synth) filming a card on the board's deck area at several
   camera resolutions, straight down and tilted 25 degrees: how many pixels a module gets,
   and how many of 12 cards the reader reads in the deck area. No floor: this says which
   camera can read printed cards at all.

Exits 1 when a floor is missed. Run with `.venv/bin/python bench/card_codes.py`.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2
import numpy as np
from numpy.typing import NDArray

from bench.options import options
from tests.camera.printed_codes import Placement, photograph
from vision.cards import MAX_UPSCALE, UPSCALE_TO, CardCodeReader
from vision.geometry import load_board

# The virtual camera is optional here (section 3, and a board under section 2).
if importlib.util.find_spec("vision.synth.camera") is not None:
    from vision.synth.camera import SyntheticCamera
    from vision.synth.conditions import Conditions
    from vision.synth.projection import projection
    from vision.synth.scene import Scene

DECK = "mythologies-of-earth"
PICTURES = 40
QR_SIZE_MM = 15.0
QR_MODULES = 29
"""A printed card's code: 15 mm, 29 modules for the bundled deck (docs/cards.md)."""
FLOOR = 0.95
Picture = NDArray[np.uint8]
Decoder = Callable[[Picture], list[str]]


def enlarged(picture: Picture) -> Picture:
    longest = max(picture.shape[:2])
    scale = min(MAX_UPSCALE, UPSCALE_TO / longest) if longest < UPSCALE_TO else 1.0
    return np.asarray(
        cv2.resize(picture, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC), np.uint8
    )


def decoders() -> dict[str, Decoder]:
    classic = cv2.QRCodeDetector()
    aruco = cv2.QRCodeDetectorAruco()
    reader = CardCodeReader()

    def single(picture: Picture) -> list[str]:
        text, _, _ = classic.detectAndDecode(picture)
        return [text] if text else []

    def classic_multi(picture: Picture) -> list[str]:
        ok, texts, _, _ = classic.detectAndDecodeMulti(picture)
        return [t for t in texts if t] if ok else []

    def aruco_multi(picture: Picture) -> list[str]:
        ok, texts, _, _ = aruco.detectAndDecodeMulti(picture)
        return [t for t in texts if t] if ok else []

    return {
        "QRCodeDetector": single,
        "QRCodeDetector multi": classic_multi,
        "QRCodeDetectorAruco": aruco_multi,
        "QRCodeDetector, enlarged": lambda p: single(enlarged(p)),
        "QRCodeDetector multi, enlarged": lambda p: classic_multi(enlarged(p)),
        "QRCodeDetectorAruco, enlarged": lambda p: aruco_multi(enlarged(p)),
        "CardCodeReader": lambda p: [s.tag for s in reader.read(p)],
    }


def compare_detectors() -> bool:
    methods = decoders()
    print(f"1. codes read out of {PICTURES} (slant 0-40 deg, JPEG 60), ms per picture")
    print(
        f"   {'':32}"
        + "".join(f"{f'{m:g} px {b:g} blur':>16}" for m in (3, 4, 5) for b in (1, 1.4))
    )
    cells = [(m, b) for m in (3.0, 4.0, 5.0) for b in (1.0, 1.4)]
    read: dict[str, list[int]] = {name: [] for name in methods}
    spent: dict[str, list[float]] = {name: [] for name in methods}
    for module_px, blur in cells:
        rng = np.random.default_rng(round(module_px * 10 + blur * 100))
        side = round(49 * module_px * 1.6)
        counts = dict.fromkeys(methods, 0)
        seconds = dict.fromkeys(methods, 0.0)
        for picture_number in range(PICTURES):
            payload = f"memdeck:{DECK}:{rng.integers(1, 101)}"
            card = Placement(
                payload,
                (side / 2, side / 2),
                module_px,
                tilt=float(rng.uniform(0, 40)),
                tilt_axis=float(rng.uniform(0, 360)),
                spin=float(rng.uniform(0, 360)),
            )
            picture = photograph([card], (side, side), blur=blur, seed=picture_number)
            for name, decode in methods.items():
                began = time.perf_counter()
                texts = decode(picture)
                seconds[name] += time.perf_counter() - began
                counts[name] += payload in texts
        for name in methods:
            read[name].append(counts[name])
            spent[name].append(1000 * seconds[name] / PICTURES)
    for name in methods:
        pairs = zip(read[name], spent[name], strict=True)
        row = "".join(f"{n:>8} ({ms:2.0f} ms)" for n, ms in pairs)
        print(f"   {name:32}{row}")
    at_four_or_more = [n for (m, _), n in zip(cells, read["CardCodeReader"], strict=True) if m >= 4]
    rate = sum(at_four_or_more) / (len(at_four_or_more) * PICTURES)
    print(f"   reader at 4 px a module or more: {rate:.1%} (floor: {FLOOR:.0%})")
    return rate >= FLOOR


def median_ms(action: Callable[[], object], times: int = 30) -> float:
    action()
    spent = []
    for _ in range(times):
        began = time.perf_counter()
        action()
        spent.append(1000 * (time.perf_counter() - began))
    return statistics.median(spent)


def frame_times() -> None:
    reader = CardCodeReader()
    with_card, without, region, what = board_frames()
    print(f"2. ms per 1280 x 720 frame ({what}), median of 30")
    for label, frame in (("with a card", with_card), ("without one", without)):

        def whole(frame: Picture = frame) -> object:
            return reader.read(frame)

        def deck_area(frame: Picture = frame) -> object:
            return reader.read(frame, region)

        print(
            f"   {label:12} whole frame {median_ms(whole):5.1f} ms, "
            f"deck area {median_ms(deck_area):5.1f} ms"
        )


def board_frames() -> tuple[Picture, Picture, list[tuple[float, float]], str]:
    """A frame with a card on the deck area, one without, the deck area's corners in them."""
    if importlib.util.find_spec("vision.synth.camera") is None:
        centre = (1000.0, 300.0)
        card = Placement(f"memdeck:{DECK}:17", centre, 3.5, tilt=20, tilt_axis=60, spin=30)
        half = 75.0
        x, y = centre
        region = [
            (x - half, y - half),
            (x + half, y - half),
            (x + half, y + half),
            (x - half, y + half),
        ]
        with_card = photograph([card], (1280, 720), blur=0.8, seed=1)
        return with_card, photograph([], (1280, 720), blur=0.8, seed=1), region, "a grey field"
    camera, region = filmed((1280, 720), 0.0)
    camera.set_scene(Scene(card=17))
    with_card = camera.read()
    camera.set_scene(Scene())
    return with_card, camera.read(), region, "the virtual camera over the board"


def filmed(size: tuple[int, int], tilt: float) -> tuple[SyntheticCamera, list[tuple[float, float]]]:
    """The virtual camera over the board, and where it sees the deck area."""
    board = load_board()
    conditions = Conditions.easy().replace(size=size, tilt=tilt)
    homography = projection(board, conditions).homography(0.3)
    deck = np.array(board.deck.corners(), np.float64).reshape(-1, 1, 2)
    corners = cv2.perspectiveTransform(deck, homography).reshape(-1, 2)
    region = [(float(x), float(y)) for x, y in corners]
    return SyntheticCamera(board, conditions, seed=2), region


def virtual_camera() -> None:
    if importlib.util.find_spec("vision.synth.camera") is None:
        print("3. skipped: the virtual camera (vision.synth.camera) is not there")
        return
    reader = CardCodeReader()
    cards = 12
    print(f"3. the virtual camera: cards read in the deck area, of {cards}")
    for size in ((1280, 720), (1920, 1080), (2592, 1944), (3840, 2160)):
        for tilt in (0.0, 25.0):
            camera, region = filmed(size, tilt)
            (left, top), (right, top_right) = region[0], region[1]
            px_per_mm = float(np.hypot(right - left, top_right - top)) / load_board().deck.width
            read, spent = 0, 0.0
            for n in range(cards):
                number = 1 + 8 * n
                camera.set_scene(Scene(card=number))
                image = camera.read()
                began = time.perf_counter()
                sightings = reader.read(image, region)
                spent += time.perf_counter() - began
                read += any(s.code.number == number for s in sightings)
            module = px_per_mm * QR_SIZE_MM / QR_MODULES
            print(
                f"   {size[0]} x {size[1]}, tilt {tilt:2.0f}: {module:.1f} px a module, "
                f"{read:2d}/{cards} read, {1000 * spent / cards:.0f} ms a frame"
            )


def main(argv: list[str] | None = None) -> int:
    options(__doc__).parse_args(argv)
    ok = compare_detectors()
    frame_times()
    virtual_camera()
    print("floors met" if ok else "FLOOR MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
