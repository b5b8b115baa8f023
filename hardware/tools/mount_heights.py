"""How high the camera must be to see the whole printed board.

    python hardware/tools/mount_heights.py            # the tables in hardware/camera-mount.md
    python hardware/tools/mount_heights.py --tilt 30  # another tilt for the side-stand table
    python hardware/tools/mount_heights.py --margin 50 --width 1920 --height 1080

A pinhole camera (no lens distortion) with the given horizontal and vertical fields of
view, its picture's long side along the board's long side. Two set-ups:

- **Straight down**: the camera centred above the board, looking straight down. The lowest
  lens height at which the sheet plus the margin all round fills the picture exactly.
- **Tilted**: the camera on a stand beside one of the board's long edges, its optical axis
  tilted `tilt` degrees from vertical towards the board. The lowest lens height at which
  the sheet plus margin fits, and the setback: how far the lens is, measured along the
  table, from the near edge of the sheet (negative: the lens is above the sheet).

Heights are from the table top to the lens, in millimetres. `pixels_per_mm` is the
sampling on the far edge of the sheet (the worst place) for a picture of the given size:
the board reader wants at least 1.5 (docs/vision.md).

Pure Python, standard library only; the tests import it by path.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

MARGIN_MM = 30.0
"""Table seen round the sheet on every side."""

MAX_TILT_DEG = 45.0
"""The steepest tilt from vertical the board reader takes (docs/vision.md)."""


@dataclass(frozen=True)
class Board:
    name: str
    width_mm: float
    """The long side."""
    depth_mm: float
    """The short side."""


@dataclass(frozen=True)
class Camera:
    name: str
    hfov_deg: float
    """Across the picture's long side."""
    vfov_deg: float
    """Across the picture's short side."""


BOARDS = (
    Board("Letter", 279.4, 215.9),
    Board("A3", 420.0, 297.0),
    Board("Tabloid", 431.8, 279.4),
    Board("A2", 594.0, 420.0),
)

CAMERAS = (
    Camera("Camera Module 3", 66.0, 41.0),
    Camera("Camera Module 3 Wide", 102.0, 67.0),
    Camera("Logitech C920", 70.42, 43.3),
)


@dataclass(frozen=True)
class Mount:
    height_mm: float
    """Lens above the table."""
    setback_mm: float
    """Along the table, from the lens to the sheet's near edge; for a straight-down camera,
    minus half the sheet's depth (the lens is over the sheet's middle)."""
    pixels_per_mm: float
    """On the sheet's far edge, the smaller of across and along the line of sight."""


def _half_angles(camera: Camera) -> tuple[float, float]:
    return math.radians(camera.hfov_deg) / 2, math.radians(camera.vfov_deg) / 2


def straight_down(
    board: Board,
    camera: Camera,
    margin_mm: float = MARGIN_MM,
    picture: tuple[int, int] = (1280, 720),
) -> Mount:
    """The camera centred above the board, looking straight down."""
    return tilted(board, camera, 0.0, margin_mm, picture)


def tilted(
    board: Board,
    camera: Camera,
    tilt_deg: float,
    margin_mm: float = MARGIN_MM,
    picture: tuple[int, int] = (1280, 720),
) -> Mount:
    """The camera beside a long edge, tilted `tilt_deg` from vertical towards the board.

    Looking along the table away from the lens, a point of the table at distance y (from
    the point under the lens) is seen at an angle atan(y / h) from vertical; the picture
    covers tilt - b to tilt + b (b: half the vertical field of view). So the depth seen is
    h * (tan(tilt + b) - tan(tilt - b)); across, the picture is narrowest at its bottom
    edge, where the distance along the optical axis is smallest. Both conditions are
    linear in h: the height is the larger of the two, with the sheet's far edge at the
    picture's top edge.
    """
    a, b = _half_angles(camera)
    t = math.radians(tilt_deg)
    if not 0 <= tilt_deg < 90 or t + b >= math.pi / 2:
        raise ValueError(f"{camera.name} tilted {tilt_deg} degrees sees the horizon")
    width = board.width_mm + 2 * margin_mm
    depth = board.depth_mm + 2 * margin_mm
    far_factor = math.tan(t + b)
    for_depth = depth / (far_factor - math.tan(t - b))
    # Near edge at y0 = h * far_factor - depth; the distance along the axis there is
    # y0 * sin t + h * cos t, and the half-width seen is that times tan(a).
    for_width = (width / (2 * math.tan(a)) + depth * math.sin(t)) / (
        far_factor * math.sin(t) + math.cos(t)
    )
    height = max(for_depth, for_width)
    near_y = height * far_factor - depth  # the near edge of the margin
    far_y = near_y + depth
    # Sampling at the far edge: focal lengths in pixels, over the distance along the axis.
    fx = picture[0] / 2 / math.tan(a)
    fy = picture[1] / 2 / math.tan(b)
    z_far = far_y * math.sin(t) + height * math.cos(t)
    across = fx / z_far
    along = fy * height / z_far**2
    return Mount(
        height_mm=height,
        setback_mm=near_y + margin_mm,
        pixels_per_mm=min(across, along),
    )


def project(
    camera: Camera, height_mm: float, tilt_deg: float, x_mm: float, y_mm: float
) -> tuple[float, float]:
    """Where a point of the table lands in the picture, as fractions of the half-picture.

    The lens is at (0, 0, height); y runs along the table away from it, x across. The
    result is (u, v) with -1..1 covering the picture's width and height (v = 1 its top).
    """
    a, b = _half_angles(camera)
    t = math.radians(tilt_deg)
    z = y_mm * math.sin(t) + height_mm * math.cos(t)
    if z <= 0:
        raise ValueError("behind the camera")
    u = x_mm / z / math.tan(a)
    v = (y_mm * math.cos(t) - height_mm * math.sin(t)) / z / math.tan(b)
    return u, v


def table(margin_mm: float, picture: tuple[int, int], tilt_deg: float = MAX_TILT_DEG) -> str:
    """Straight down, and tilted on a stand beside a long edge: the markdown table."""
    rows = [
        f"| board (mm) | camera | straight down: height | px/mm | tilted {tilt_deg:g} deg: "
        "height | setback | px/mm |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for board in BOARDS:
        for camera in CAMERAS:
            down = straight_down(board, camera, margin_mm, picture)
            side = tilted(board, camera, tilt_deg, margin_mm, picture)
            size = f"{board.name} {board.width_mm:g} x {board.depth_mm:g}"
            rows.append(
                f"| {size} | {camera.name} | {down.height_mm:.0f} mm | "
                f"{down.pixels_per_mm:.1f} | {side.height_mm:.0f} mm | "
                f"{side.setback_mm:.0f} mm | {side.pixels_per_mm:.1f} |"
            )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--tilt", type=float, default=MAX_TILT_DEG, help="degrees from vertical (default 45)"
    )
    parser.add_argument("--margin", type=float, default=MARGIN_MM, help="mm round the sheet")
    parser.add_argument("--width", type=int, default=1280, help="picture width, pixels")
    parser.add_argument("--height", type=int, default=720, help="picture height, pixels")
    args = parser.parse_args(argv)
    print(table(args.margin, (args.width, args.height), args.tilt))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
