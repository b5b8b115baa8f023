"""Everything about a shot that is not the game: camera, table, light, sensor and codec.

    Conditions.easy()                                  # top-down, even light, clean sensor
    random_conditions(rng)                             # anything a living room might offer
    random_conditions(rng, tilt=45.0, brightness=0.3)  # ... with some values pinned

Positions on the table (shadows, glare) are board millimetres, like the board file.
Angles are degrees. A Conditions is a plain value: equal conditions film equal pictures.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from vision.geometry import Point

TABLES = ("oak", "walnut", "grey-laminate", "black-cloth", "green-felt", "pine")
"""The table tops the board may lie on (none of them white, so the sheet's edge shows)."""


@dataclass(frozen=True, slots=True)
class CastShadow:
    """The soft shadow of something off the board: a lamp arm, a shoulder, a mug."""

    centre: Point
    size: tuple[float, float]
    """Semi-axes of the ellipse, millimetres."""
    angle: float
    darkness: float
    """How much of the light it takes away in its core, 0..1."""
    softness: float
    """Width of the blurred edge, millimetres."""


@dataclass(frozen=True, slots=True)
class Glare:
    """The light source mirrored in the semi-gloss paper: a large soft bright patch."""

    centre: Point
    radius: float
    strength: float
    """Added light at the centre, as a fraction of the paper's white."""


# The paper's shape: a printed sheet rarely lies flat.


class Axis(Enum):
    """A direction on the sheet: X along its width (East), Y along its height (South)."""

    X = "x"
    Y = "y"


class Corner(Enum):
    """A corner of the sheet, by the board's compass (North at the top)."""

    NORTH_WEST = "north-west"
    NORTH_EAST = "north-east"
    SOUTH_EAST = "south-east"
    SOUTH_WEST = "south-west"


MAX_BOW = 12.0
MAX_CURL = 15.0
MAX_FOLD = 6.0
"""The most, in millimetres, each part of a sheet's shape may lift it (checked)."""


@dataclass(frozen=True, slots=True)
class Bow:
    """The sheet bent along one axis, as paper kept rolled bends."""

    height: float
    """Millimetres: > 0 the middle lifts in an arch, < 0 the two edges lift (a trough)."""
    axis: Axis
    """Along which the height changes: X bends the sheet over a line running North-South."""


@dataclass(frozen=True, slots=True)
class CurledCorner:
    """One corner lifted off the table, the paper curving up to it."""

    corner: Corner
    height: float
    """How high the corner's tip lifts, millimetres."""
    extent: float
    """How far along each edge from the corner the paper still touches the table, mm."""


@dataclass(frozen=True, slots=True)
class Fold:
    """A fold line flattened again: a ridge along a crease, falling away on both sides."""

    axis: Axis
    """The crease crosses this axis: X puts it at x = `at` x width, running North-South."""
    at: float
    """Where along the axis the crease lies, as a share of the sheet (0.5: folded in half)."""
    height: float
    """How high the crease stands, millimetres."""


@dataclass(frozen=True, slots=True)
class PaperShape:
    """How the sheet lies on the table; flat when nothing is given."""

    bow: Bow | None = None
    corner: CurledCorner | None = None
    folds: tuple[Fold, ...] = ()

    def __post_init__(self) -> None:
        if self.bow is not None and abs(self.bow.height) > MAX_BOW:
            raise ValueError(f"a bow of {self.bow.height} mm is more than {MAX_BOW} mm")
        if self.corner is not None and not (
            0.0 <= self.corner.height <= MAX_CURL and self.corner.extent > 0.0
        ):
            raise ValueError(f"a corner curled {self.corner.height} mm is not 0..{MAX_CURL} mm")
        if any(not (0.0 <= f.height <= MAX_FOLD and 0.0 < f.at < 1.0) for f in self.folds):
            raise ValueError(f"a fold must stand 0..{MAX_FOLD} mm")

    @property
    def flat(self) -> bool:
        return self.bow is None and self.corner is None and not self.folds


FLAT = PaperShape()


@dataclass(frozen=True, slots=True)
class Conditions:
    size: tuple[int, int] = (1280, 720)
    """Image width and height, pixels."""

    # The camera.
    tilt: float = 0.0
    """From looking straight down, 0..45."""
    azimuth: float = 0.0
    """Which side the camera looks from: 0 South (the board upright in the picture), 90 East,
    180 North, 270 West."""
    roll: float = 0.0
    """Rotation about the lens axis."""
    fov: float = 62.0
    """Horizontal field of view."""
    fill: float = 0.88
    """The sheet's extent as a fraction of the picture; sets the camera's distance."""
    aim: tuple[float, float] = (0.0, 0.0)
    """Where the camera points, millimetres from the board's centre on the table."""

    # The board on the table.
    board_offset: tuple[float, float] = (0.0, 0.0)
    """How far the sheet was nudged from where the camera was set up, millimetres."""
    board_rotation: float = 0.0
    table: str = "walnut"
    paper_tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """The paper's colour against bright white, BGR factors (recycled paper is warmer)."""
    ink: float = 0.0
    """How faded the print is: 0 crisp black toner .. 1 a tired inkjet's dark grey."""
    paper_shape: PaperShape = FLAT
    """How the sheet lies: flat, or bowed, a corner curled, folds."""

    # The light.
    brightness: float = 1.0
    """Exposure, linear: 0.25 dim .. 1.6 bright (the paper starts clipping above about 1.2)."""
    colour_temperature: float = 5000.0
    """Of the light, kelvin; the camera is balanced for 5000 K and corrects only part of
    the difference, so 2700 K looks orange and 6500 K blue."""
    gradient: float = 0.0
    """Illumination falling off across the board, 0 even .. 0.6 (one side 60 % brighter)."""
    gradient_direction: float = 0.0
    vignetting: float = 0.1
    light_azimuth: float = 45.0
    """Where the main light is, seen from the board: 0 towards the East edge, 90 South."""
    light_elevation: float = 70.0
    """Of the main light above the table; low light casts long shadows."""
    light_size: float = 0.3
    """Angular size of the light, radians: how blurred shadows get with height."""
    shadows: tuple[CastShadow, ...] = ()
    glare: Glare | None = None
    shine: float = 0.5
    """Strength of the specular highlights on crystals."""
    clarity: float = 0.0
    """How clear the crystals are: the share of their colour that is light passed through
    them from what lies under them. 0 a milky crystal, its colour its own; near 1 clear
    acrylic, dark on a black counter."""

    # The sensor, lens and codec.
    exposure: float = 1.0
    """The camera's exposure (time and gain), linear, on top of the light's `brightness`:
    the light is multiplied by it before the sensor clips (SyntheticCamera's controls and
    automatic exposure set it)."""
    noise: float = 1.0
    """Read noise, standard deviation in 8-bit levels."""
    shot_noise: float = 0.01
    """Photon noise: variance per level of signal."""
    defocus: float = 0.6
    """Gaussian blur sigma, pixels (a real lens and demosaicing never give less than ~0.5)."""
    motion_blur: float = 0.0
    """Length of the camera-shake streak, pixels."""
    motion_angle: float = 0.0
    sharpen: float = 0.0
    """The camera's unsharp masking, 0..1: halos at edges."""
    jpeg_quality: int = 95

    def __post_init__(self) -> None:
        width, height = self.size
        if width < 16 or height < 16:
            raise ValueError(f"a picture of {width} x {height} is too small")
        if not 0.0 <= self.tilt <= 60.0:
            raise ValueError(f"tilt must be 0..60 degrees, got {self.tilt}")
        if not 10.0 <= self.fov <= 120.0:
            raise ValueError(f"fov must be 10..120 degrees, got {self.fov}")
        if not 0.1 <= self.fill < 1.0:
            raise ValueError(f"fill must be 0.1..1 (the sheet in the picture), got {self.fill}")
        if self.table not in TABLES:
            raise ValueError(f"no table {self.table!r}; known: {', '.join(TABLES)}")
        if self.brightness <= 0.0:
            raise ValueError("brightness must be more than 0")
        if not 1000.0 <= self.colour_temperature <= 12000.0:
            raise ValueError("colour_temperature must be 1000..12000 K")
        if not 5.0 <= self.light_elevation <= 90.0:
            raise ValueError("light_elevation must be 5..90 degrees")
        if self.exposure <= 0.0:
            raise ValueError("exposure must be more than 0")
        if not 1 <= self.jpeg_quality <= 100:
            raise ValueError("jpeg_quality must be 1..100")

    @staticmethod
    def easy() -> Conditions:
        """Straight down, even neutral light, a clean sensor: the best case."""
        return Conditions()

    def replace(self, **changes: Any) -> Conditions:
        return dataclasses.replace(self, **changes)


def random_conditions(rng: np.random.Generator, **overrides: Any) -> Conditions:
    """Conditions drawn across everything a living room might offer; `overrides` pin values."""
    brightness = float(np.exp(rng.uniform(np.log(0.25), np.log(1.6))))
    # The sensor's gain rises as the light falls, and its noise with it.
    gain = max(1.0, 0.8 / brightness)
    conditions = Conditions(
        tilt=float(rng.uniform(0.0, 45.0) if rng.random() < 0.85 else 0.0),
        azimuth=float(rng.choice([0.0, 90.0, 180.0, 270.0]) + rng.normal(0.0, 12.0)) % 360.0,
        roll=float(rng.normal(0.0, 3.0)),
        fov=float(rng.uniform(50.0, 80.0)),
        fill=float(rng.uniform(0.72, 0.94)),
        aim=(float(rng.normal(0.0, 10.0)), float(rng.normal(0.0, 10.0))),
        board_offset=(float(rng.normal(0.0, 8.0)), float(rng.normal(0.0, 8.0))),
        board_rotation=float(rng.normal(0.0, 2.5)),
        table=str(rng.choice(TABLES)),
        brightness=brightness,
        colour_temperature=float(rng.uniform(2700.0, 6500.0)),
        gradient=float(rng.uniform(0.0, 0.6)),
        gradient_direction=float(rng.uniform(0.0, 360.0)),
        vignetting=float(rng.uniform(0.0, 0.35)),
        light_azimuth=float(rng.uniform(0.0, 360.0)),
        light_elevation=float(rng.uniform(35.0, 85.0)),
        light_size=float(rng.uniform(0.15, 0.6)),
        shadows=tuple(_random_shadow(rng) for _ in range(rng.choice(4, p=[0.4, 0.3, 0.2, 0.1]))),
        glare=_random_glare(rng) if rng.random() < 0.35 else None,
        shine=float(rng.uniform(0.2, 1.0)),
        noise=float(rng.uniform(0.5, 2.5) * gain),
        shot_noise=float(rng.uniform(0.004, 0.03) * gain),
        defocus=float(rng.uniform(0.5, 1.6) if rng.random() < 0.8 else rng.uniform(1.6, 2.6)),
        motion_blur=float(rng.uniform(2.0, 8.0) if rng.random() < 0.15 else 0.0),
        motion_angle=float(rng.uniform(0.0, 180.0)),
        sharpen=float(rng.uniform(0.0, 0.8)),
        jpeg_quality=int(rng.integers(50, 96)),
        paper_tint=_random_paper(rng),
        ink=float(rng.uniform(0.0, 1.0) ** 2),
    )
    shaped = conditions.replace(
        paper_shape=_random_paper_shape(_shape_stream(conditions)),
        clarity=_random_clarity(_clarity_stream(conditions)),
    )
    return shaped.replace(**overrides)


def _clarity_stream(conditions: Conditions) -> np.random.Generator:
    """A stream of its own for the crystals' clarity (see _shape_stream)."""
    return np.random.default_rng(
        [round(conditions.shine * 1e6), round(conditions.light_size * 1e6), 7]
    )


def _random_clarity(rng: np.random.Generator) -> float:
    # Game crystals range from frosted, almost opaque, to clear acrylic.
    return float(rng.uniform(0.3, 0.85) if rng.random() < 0.5 else rng.uniform(0.0, 0.3))


def _random_paper(rng: np.random.Generator) -> tuple[float, float, float]:
    # Office paper is bluish white; cheaper and recycled paper is warmer and duller.
    warmth = rng.uniform(-0.02, 0.06)
    dull = rng.uniform(0.93, 1.0)
    return (dull * (1 - warmth), dull * (1 - warmth / 3), dull)


def _random_shadow(rng: np.random.Generator) -> CastShadow:
    # Centred anywhere from just off the sheet to over it; at least partly on the board.
    return CastShadow(
        centre=(float(rng.uniform(-60.0, 480.0)), float(rng.uniform(-60.0, 360.0))),
        size=(float(rng.uniform(40.0, 200.0)), float(rng.uniform(30.0, 120.0))),
        angle=float(rng.uniform(0.0, 180.0)),
        darkness=float(rng.uniform(0.15, 0.5)),
        softness=float(rng.uniform(15.0, 60.0)),
    )


def _random_glare(rng: np.random.Generator) -> Glare:
    return Glare(
        centre=(float(rng.uniform(40.0, 380.0)), float(rng.uniform(30.0, 270.0))),
        radius=float(rng.uniform(30.0, 110.0)),
        strength=float(rng.uniform(0.15, 0.7)),
    )


PAPER_SHAPE_SHARE = 0.45
"""The share of set-ups whose sheet does not lie flat."""


def _shape_stream(conditions: Conditions) -> np.random.Generator:
    """A stream of its own for the paper's shape, seeded by what was drawn before it: the
    caller's generator is left as it was, so its later draws (and set-ups) do not shift."""
    return np.random.default_rng(
        [round(conditions.fov * 1e6), round(conditions.fill * 1e6), round(conditions.tilt * 1e6)]
    )


def _random_paper_shape(rng: np.random.Generator) -> PaperShape:
    if rng.random() >= PAPER_SHAPE_SHARE:
        return FLAT
    kind = rng.choice(3, p=[0.4, 0.3, 0.3])
    bow = corner = None
    folds: tuple[Fold, ...] = ()
    if kind == 0 or rng.random() < 0.15:
        height = float(rng.uniform(1.5, 6.0)) * (1.0 if rng.random() < 0.6 else -1.0)
        bow = Bow(height, Axis.X if rng.random() < 0.6 else Axis.Y)
    if kind == 1:
        corner = CurledCorner(
            Corner(str(rng.choice([c.value for c in Corner]))),
            height=float(rng.uniform(3.0, 10.0)),
            extent=float(rng.uniform(40.0, 90.0)),
        )
    if kind == 2:
        # A sheet folded in half (or in quarters) to fit a box, flattened out again.
        axis = Axis.X if rng.random() < 0.6 else Axis.Y
        folds = (Fold(axis, float(rng.normal(0.5, 0.02)), float(rng.uniform(1.0, 3.5))),)
        if rng.random() < 0.3:
            other = Axis.Y if axis is Axis.X else Axis.X
            folds += (Fold(other, float(rng.normal(0.5, 0.02)), float(rng.uniform(0.8, 2.5))),)
    return PaperShape(bow, corner, folds)
