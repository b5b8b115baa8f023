"""One camera set-up over a table, as the physically based scenes draw it: the sheet's shape,
the table, the lamps, the camera and its sensor, the player's skin and sleeve.

These distributions are this package's own, drawn without regard to the hand-written virtual
camera's (vision/synth): the point of a second scene source is that the reader was never
tuned on it.

    setup = random_setup(np.random.default_rng(7))
    setup.camera.tilt, setup.table, [lamp.kelvin for lamp in setup.lamps]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Rgb = tuple[float, float, float]

TABLES = (
    "maple", "oak", "walnut", "cherry", "white-laminate", "grey-laminate",
    "black-laminate", "green-felt", "blue-felt", "black-cloth", "linen", "red-cloth",
)  # fmt: skip
"""Table tops, light and dark, wood grain, plain laminates and cloth."""

SLEEVES: tuple[Rgb, ...] = (
    (0.02, 0.02, 0.025), (0.30, 0.30, 0.32), (0.05, 0.08, 0.25), (0.35, 0.05, 0.05),
    (0.08, 0.20, 0.08), (0.70, 0.68, 0.62), (0.45, 0.35, 0.20), (0.15, 0.22, 0.40),
)  # fmt: skip
"""Sleeve cloths, linear RGB reflectance: black, grey, navy, red, green, cream, tan, denim."""


@dataclass(frozen=True, slots=True)
class Fold:
    """A crease left by folding the sheet: a ridge along a line across it."""

    vertical: bool
    """Along y (a line of constant x) when True, along x otherwise."""
    at: float
    """Where the line crosses the sheet, board millimetres."""
    height: float
    """How high the ridge stands, millimetres (negative: a valley)."""
    width: float
    """Half the ridge's width, millimetres."""


@dataclass(frozen=True, slots=True)
class SheetShape:
    bow: float
    """Millimetres the sheet's middle stands above (or below) its ends."""
    bow_along_x: bool
    lift: float
    """How far one corner is curled up, millimetres."""
    lift_corner: int
    """0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left."""
    lift_reach: float
    """How far from the corner the curl reaches, millimetres."""
    folds: tuple[Fold, ...]
    turn: float
    """The sheet's turn on the table, degrees."""
    shift: tuple[float, float]
    """Where the sheet lies against the camera's aim, millimetres."""
    roughness: float
    """The paper's microfacet roughness (alpha): semi-gloss is low, matte high."""
    gloss: float
    """How strongly the paper's coating mirrors, 0..1 (scales its specular layer)."""
    white: Rgb
    """The paper's own reflectance where nothing is printed."""


@dataclass(frozen=True, slots=True)
class Lamp:
    kelvin: float
    power: float
    """Irradiance it gives the board's middle, in the scene's own units."""
    bearing: float
    """Degrees round the table, from the board's x axis."""
    elevation: float
    """Degrees above the table."""
    distance: float
    """Millimetres from the board's middle."""
    size: float
    """The square emitter's side, millimetres."""
    glare: bool = False
    """Placed where the paper mirrors it into the camera: then `bearing` and `elevation`
    (-1..1) say where on the sheet the glare falls, across and down from its middle, and
    `distance` how much farther than the camera the lamp is from there."""


@dataclass(frozen=True, slots=True)
class CameraPose:
    tilt: float
    """Degrees from looking straight down."""
    azimuth: float
    """Degrees round the table where the camera stands."""
    roll: float
    """Degrees the picture turns about the camera's axis."""
    fill: float
    """How much of the frame the board spans in its tighter direction, 0..1."""
    aim: tuple[float, float]
    """Where in the frame the board lies, as fractions of the room left (-1..1)."""
    fov: float
    """Horizontal field of view, degrees."""
    distortion: tuple[float, float]
    """Radial lens distortion k1, k2: an output point at normalised radius r shows the ideal
    point at r (1 + k1 r^2 + k2 r^4); positive is barrel."""


@dataclass(frozen=True, slots=True)
class Sensor:
    exposure_bias: float
    """Stops above the metered exposure."""
    white_balance: float
    """How much of the light's colour the camera's white balance takes out, 0..1."""
    balance_error: Rgb
    """Its remaining error, a gain per channel."""
    photons: float
    """Photo-electrons collected by a pixel at full white at base gain (shot noise)."""
    read_noise: float
    """Read noise, as a fraction of full white."""
    softness: float
    """Lens and demosaicking blur, pixels (sigma)."""
    shake: float
    """The chance that a frame is smeared by motion."""
    quality: tuple[int, int]
    """JPEG quality range from frame to frame."""


@dataclass(frozen=True, slots=True)
class SetUp:
    sheet: SheetShape
    table: str
    table_seed: int
    ambient: float
    """The room's light from every direction, against the lamps'."""
    ambient_kelvin: float
    lamps: tuple[Lamp, ...]
    camera: CameraPose
    sensor: Sensor
    skin: Rgb
    sleeve: Rgb
    crystal_roughness: float
    """The crystals' surface roughness (alpha): polished to frosted."""


def random_setup(rng: np.random.Generator) -> SetUp:
    return SetUp(
        sheet=_sheet(rng),
        table=str(rng.choice(TABLES)),
        table_seed=int(rng.integers(1 << 30)),
        ambient=float(rng.uniform(0.1, 0.8)),
        ambient_kelvin=float(rng.uniform(4500, 9000)),
        lamps=_lamps(rng),
        camera=_camera(rng),
        sensor=_sensor(rng),
        skin=_skin(rng),
        sleeve=SLEEVES[int(rng.integers(len(SLEEVES)))],
        crystal_roughness=float(rng.choice((0.0, 0.02, 0.05, 0.12, 0.25))),
    )


def flat_setup() -> SetUp:
    """A plain, even set-up: a flat sheet seen from straight above under one soft lamp."""
    return SetUp(
        sheet=SheetShape(0.0, True, 0.0, 0, 50.0, (), 0.0, (0.0, 0.0), 0.5, 0.1, (0.85,) * 3),
        table="grey-laminate",
        table_seed=1,
        ambient=0.4,
        ambient_kelvin=6500.0,
        lamps=(Lamp(5000.0, 1.0, 30.0, 70.0, 1200.0, 400.0),),
        camera=CameraPose(0.0, 270.0, 0.0, 0.85, (0.0, 0.0), 60.0, (0.0, 0.0)),
        sensor=Sensor(0.0, 0.8, (1.0, 1.0, 1.0), 4000.0, 0.002, 0.4, 0.0, (92, 92)),
        skin=(0.45, 0.30, 0.22),
        sleeve=SLEEVES[2],
        crystal_roughness=0.05,
    )


def _sheet(rng: np.random.Generator) -> SheetShape:
    folds: list[Fold] = []
    # Folded in half or in four for the box; sometimes creased anywhere.
    for _ in range(int(rng.integers(0, 4))):
        vertical = bool(rng.random() < 0.6)
        middle = 210.0 if vertical else 148.5
        at = middle if rng.random() < 0.6 else float(rng.uniform(0.2, 0.8)) * 2 * middle
        sign = 1.0 if rng.random() < 0.7 else -1.0
        folds.append(
            Fold(vertical, at, sign * float(rng.uniform(0.8, 4.0)), float(rng.uniform(5, 18)))
        )
    tint = rng.normal(0.0, 0.012, 3)
    white = float(rng.uniform(0.8, 0.9))
    return SheetShape(
        bow=float(rng.choice((-1.0, 1.0)) * rng.uniform(0.0, 5.0)),
        bow_along_x=bool(rng.random() < 0.5),
        lift=float(rng.uniform(0.0, 14.0)) if rng.random() < 0.6 else 0.0,
        lift_corner=int(rng.integers(4)),
        lift_reach=float(rng.uniform(30.0, 90.0)),
        folds=tuple(folds),
        turn=float(rng.normal(0.0, 4.0)),
        shift=(float(rng.normal(0.0, 10.0)), float(rng.normal(0.0, 10.0))),
        roughness=float(rng.uniform(0.12, 0.45)),
        gloss=float(rng.uniform(0.15, 1.0)),
        white=(white * (1 + tint[0]), white * (1 + tint[1]), white * (1 + tint[2])),
    )


def _lamps(rng: np.random.Generator) -> tuple[Lamp, ...]:
    kinds = (2700.0, 3000.0, 4000.0, 5000.0, 6500.0)
    lamps = [
        Lamp(
            kelvin=float(rng.choice(kinds)) + float(rng.normal(0, 150)),
            power=float(rng.uniform(0.3, 1.0)),
            bearing=float(rng.uniform(0, 360)),
            elevation=float(rng.uniform(35, 88)),
            distance=float(rng.uniform(700, 2000)),
            size=float(rng.uniform(80, 600)),
        )
        for _ in range(int(rng.integers(1, 4)))
    ]
    if rng.random() < 0.3:
        # One strong lamp where the paper's coating mirrors it into the camera.
        lamps.append(
            Lamp(
                kelvin=float(rng.choice(kinds)),
                power=float(rng.uniform(0.6, 1.6)),
                bearing=float(rng.uniform(-1, 1)),
                elevation=float(rng.uniform(-1, 1)),
                distance=float(rng.uniform(1.4, 2.5)),
                size=float(rng.uniform(40, 250)),
                glare=True,
            )
        )
    return tuple(lamps)


def _camera(rng: np.random.Generator) -> CameraPose:
    tilt = float(rng.uniform(0.0, 45.0))
    return CameraPose(
        tilt=tilt,
        azimuth=float(rng.uniform(0, 360)),
        roll=float(rng.normal(0.0, 4.0)),
        fill=float(rng.uniform(0.36, 0.97)),
        aim=(float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))),
        fov=float(rng.uniform(48, 72)),
        distortion=(float(rng.uniform(-0.04, 0.1)), float(rng.uniform(-0.02, 0.04))),
    )


def _sensor(rng: np.random.Generator) -> Sensor:
    low, high = sorted(int(q) for q in rng.integers(60, 96, 2))
    gains = np.exp(rng.normal(0.0, 0.05, 3))
    return Sensor(
        exposure_bias=float(rng.normal(0.1, 0.35)),
        white_balance=float(rng.uniform(0.3, 0.95)),
        balance_error=(float(gains[0]), float(gains[1]), float(gains[2])),
        photons=float(np.exp(rng.uniform(np.log(300), np.log(6000)))),
        read_noise=float(rng.uniform(0.0008, 0.006)),
        softness=float(rng.uniform(0.3, 1.1)),
        shake=float(rng.choice((0.0, 0.1, 0.3))),
        quality=(low, high),
    )


def _skin(rng: np.random.Generator) -> Rgb:
    """A skin reflectance between a pale and a deep tone, linear RGB."""
    pale = np.array([0.62, 0.42, 0.33])
    deep = np.array([0.11, 0.06, 0.045])
    share = float(rng.uniform(0, 1))
    tone = np.exp((1 - share) * np.log(pale) + share * np.log(deep)) * rng.uniform(0.94, 1.06, 3)
    return (float(tone[0]), float(tone[1]), float(tone[2]))
