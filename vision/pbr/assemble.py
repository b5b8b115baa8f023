"""The Mitsuba scene for one frame: the table, the bent printed sheet, counters, crystals,
hands, lamps, the room's light and the camera's wide view.

Mitsuba is loaded in its CPU variant (`scalar_rgb`) on first use. Its Python types are
loose, so everything that touches it stays in this module.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.geometry import Board
from vision.pbr.art import counter_texture, print_texture
from vision.pbr.colours import CRYSTAL_IOR, Rgb, crystal_transmittance, kelvin_rgb
from vision.pbr.conditions import Lamp, SetUp
from vision.pbr.gems import gem_height, gem_mesh
from vision.pbr.hands import Capsule, hand_parts
from vision.pbr.layout import COUNTER_THICKNESS, LaidCounter, LaidGem
from vision.pbr.lens import Camera, camera_axes
from vision.pbr.sheet import height_at, sheet_mesh
from vision.pbr.solids import capsule_mesh
from vision.pbr.tables import GLOSSY, SIDE, table_texture
from vision.pbr.world import Table, direction_to_world, on_sheet, to_world
from vision.synth.scene import Scene

VARIANT = "scalar_rgb"
TABLE_SIDE = 6000.0
"""Millimetres: the table reaches beyond any view."""
LAMP_TURN = 20
"""Degrees a lamp in the camera's view is taken round the table at a time."""
MAX_DEPTH = 12
"""Bounces: light through a crystal crosses several facets."""


@lru_cache(maxsize=1)
def mitsuba() -> Any:
    import mitsuba as mi

    mi.set_variant(VARIANT)
    return mi


def _rgb(value: Rgb | NDArray[np.float64]) -> dict[str, Any]:
    return {"type": "rgb", "value": [float(v) for v in value]}


def _bitmap(texture: NDArray[np.float32], **extra: Any) -> dict[str, Any]:
    mi = mitsuba()
    return {
        "type": "bitmap",
        "bitmap": mi.Bitmap(np.array(texture, np.float32, order="C", copy=True)),
        "raw": True,
        "filter_type": "bilinear",
        **extra,
    }


def _mesh(
    name: str,
    positions: NDArray[np.float32],
    faces: NDArray[np.uint32],
    bsdf: dict[str, Any],
    normals: NDArray[np.float32] | None = None,
    texcoords: NDArray[np.float32] | None = None,
) -> Any:
    mi = mitsuba()
    props = mi.Properties()
    props["bsdf"] = mi.load_dict(bsdf)
    mesh = mi.Mesh(
        name, len(positions), len(faces), props,
        has_vertex_normals=normals is not None, has_vertex_texcoords=texcoords is not None,
    )  # fmt: skip
    params = mi.traverse(mesh)
    params["vertex_positions"] = np.asarray(positions, np.float32).ravel().tolist()
    params["faces"] = np.asarray(faces, np.uint32).ravel().tolist()
    if normals is not None:
        params["vertex_normals"] = np.asarray(normals, np.float32).ravel().tolist()
    if texcoords is not None:
        params["vertex_texcoords"] = np.asarray(texcoords, np.float32).ravel().tolist()
    params.update()
    return mesh


def scene_dict(
    board: Board,
    scene: Scene,
    setup: SetUp,
    camera: Camera,
    gems: tuple[LaidGem, ...],
    counters: tuple[LaidCounter, ...],
    spp: int,
) -> dict[str, Any]:
    mi = mitsuba()
    transform = mi.ScalarTransform4f
    table = Table.of(board, setup.sheet)
    fov, (width, height) = camera.wide_view()
    items: dict[str, Any] = {
        "type": "scene",
        "integrator": {"type": "path", "max_depth": MAX_DEPTH, "rr_depth": 6},
        "sensor": {
            "type": "perspective",
            "fov": fov,
            "fov_axis": "x",
            "near_clip": 5.0,
            "far_clip": 50_000.0,
            "to_world": transform().look_at(
                origin=list(camera.origin), target=list(camera.target), up=list(camera.up)
            ),
            "film": {
                "type": "hdrfilm",
                "width": width,
                "height": height,
                "rfilter": {"type": "gaussian"},
                "pixel_format": "rgb",
            },
            "sampler": {"type": "multijitter", "sample_count": spp},
        },
        "room": {
            "type": "constant",
            "radiance": _rgb(np.array(kelvin_rgb(setup.ambient_kelvin)) * setup.ambient / math.pi),
        },
        "table": _table(setup, transform),
        "sheet": _sheet(board, setup, table),
    }
    for index, lamp in enumerate(setup.lamps):
        items[f"lamp-{index}"] = _lamp(lamp, table, camera, transform)
    for index, gem in enumerate(gems):
        base = on_sheet(table, np.array([gem.centre[0]]), np.array([gem.centre[1]]), gem.base)[0]
        items[f"gem-{index}"] = _gem(gem.colour, gem.size, gem.turn, gem.tint, base, board, setup)
    for index, counter in enumerate(counters):
        items.update(_counter(index, counter, board, table, transform))
    for index, hand in enumerate(scene.hands):
        parts, held = hand_parts(hand, gem_height(board.crystal_diameter))
        for number, part in enumerate(parts):
            items.update(_capsule(f"hand-{index}-{number}", part, setup, table))
        if held is not None:
            x, y = held.centre
            base = to_world(table, np.array([x]), np.array([y]), np.array([held.base]))[0]
            plain = (1.0, 1.0, 1.0)
            items[f"held-{index}"] = _gem(held.colour, 1.0, 0.4, plain, base, board, setup)
    return items


def _table(setup: SetUp, transform: Any) -> dict[str, Any]:
    repeats = TABLE_SIDE / SIDE
    texture = _bitmap(
        table_texture(setup.table, setup.table_seed),
        to_uv=transform().scale([repeats, repeats, 1.0]),
    )
    bsdf: dict[str, Any]
    if setup.table in GLOSSY:
        bsdf = {"type": "roughplastic", "alpha": 0.2, "diffuse_reflectance": texture}
    else:
        bsdf = {"type": "diffuse", "reflectance": texture}
    return {
        "type": "rectangle",
        "to_world": transform().scale([TABLE_SIDE / 2, TABLE_SIDE / 2, 1.0]),
        "bsdf": bsdf,
    }


def _sheet(board: Board, setup: SetUp, table: Table) -> Any:
    mesh = sheet_mesh(setup.sheet, board.width, board.height)
    corners = mesh.positions.astype(np.float64)
    positions = to_world(table, corners[:, 0], corners[:, 1], corners[:, 2])
    normals = direction_to_world(table, mesh.normals.astype(np.float64))
    paper = print_texture(board) * np.array(setup.sheet.white, np.float32)
    bsdf = {
        "type": "twosided",
        "bsdf": {
            "type": "roughplastic",
            "alpha": setup.sheet.roughness,
            "specular_reflectance": setup.sheet.gloss,
            "diffuse_reflectance": _bitmap(paper),
        },
    }
    # The board's y runs the other way in the world: turn the triangles round to match.
    faces = mesh.faces[:, ::-1].copy()
    return _mesh(
        "sheet", positions.astype(np.float32), faces, bsdf,
        normals.astype(np.float32), mesh.texcoords,
    )  # fmt: skip


def _square(
    centre: NDArray[np.float64], facing: NDArray[np.float64], size: float
) -> NDArray[np.float64]:
    """The corners and middle of a square `size` across at `centre`, facing `facing`."""
    normal = facing - centre
    normal /= np.linalg.norm(normal)
    side = np.cross(normal, [0.0, 0.0, 1.0] if abs(normal[2]) < 0.99 else [1.0, 0.0, 0.0])
    side /= np.linalg.norm(side)
    other = np.cross(normal, side)
    half = size / 2
    offsets = [(0, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    return np.array([centre + half * (a * side + b * other) for a, b in offsets])


def _in_view(camera: Camera, points: NDArray[np.float64]) -> bool:
    """Whether any of the world points lies in the rendered (wide) view, in front."""
    right, up, forward = camera_axes(camera)
    relative = points - np.array(camera.origin)
    depth = relative @ forward
    fov, (width, height) = camera.wide_view()
    half_x = math.tan(math.radians(fov) / 2)
    half_y = half_x * height / width
    ahead = depth > 1.0
    x = np.abs(relative @ right) / np.maximum(depth, 1.0)
    y = np.abs(relative @ up) / np.maximum(depth, 1.0)
    return bool((ahead & (x <= half_x) & (y <= half_y)).any())


def _lamp(lamp: Lamp, table: Table, camera: Camera, transform: Any) -> dict[str, Any]:
    middle = on_sheet(table, np.array([table.width / 2]), np.array([table.height / 2]))[0]
    if lamp.glare:
        # A lamp where the paper mirrors it into the camera: the camera's view of a point on
        # the sheet, turned about the paper's normal.
        spot = on_sheet(
            table,
            np.array([table.width / 2 * (1 + 0.7 * lamp.bearing)]),
            np.array([table.height / 2 * (1 + 0.7 * lamp.elevation)]),
        )[0]
        view = np.array(camera.origin) - spot
        mirrored = np.array([-view[0], -view[1], view[2]])
        position = spot + mirrored * lamp.distance
        target = spot
    else:
        # Nobody films a game past a lamp hung between the camera and the board: one that
        # would be in the picture is taken further round the table until it is not.
        for turn in range(0, 360, LAMP_TURN):
            bearing = math.radians(lamp.bearing + turn)
            elevation = math.radians(lamp.elevation)
            position = middle + lamp.distance * np.array(
                [
                    math.cos(bearing) * math.cos(elevation),
                    math.sin(bearing) * math.cos(elevation),
                    math.sin(elevation),
                ]
            )
            if not _in_view(camera, _square(position, middle, lamp.size)):
                break
        target = middle
    distance = float(np.linalg.norm(position - target))
    facing = max(0.2, (position - target)[2] / distance)
    radiance = lamp.power * distance**2 / (lamp.size**2 * facing)
    # Any up will do for a square lamp, as long as it is not along the lamp's axis.
    overhead = abs(position[0] - target[0]) + abs(position[1] - target[1]) <= 1
    up = [1.0, 0.0, 0.0] if overhead else [0.0, 1.0, 0.0]
    return {
        "type": "rectangle",
        "to_world": transform()
        .look_at(origin=list(position), target=list(target), up=up)
        .scale([lamp.size / 2, lamp.size / 2, 1.0]),
        "emitter": {"type": "area", "radiance": _rgb(np.array(kelvin_rgb(lamp.kelvin)) * radiance)},
    }


def _gem(
    colour: str,
    size: float,
    turn: float,
    tint: tuple[float, float, float],
    base: NDArray[np.float64],
    board: Board,
    setup: SetUp,
) -> Any:
    positions, faces = gem_mesh(board.crystal_diameter * size, turn)
    transmittance = np.clip(np.array(crystal_transmittance(colour)) * np.array(tint), 0.0, 1.0)
    bsdf: dict[str, Any] = {
        "type": "dielectric",
        "int_ior": CRYSTAL_IOR,
        "ext_ior": 1.0,
        "specular_transmittance": _rgb(transmittance),
    }
    if setup.crystal_roughness > 0:
        bsdf = {**bsdf, "type": "roughdielectric", "alpha": setup.crystal_roughness}
    return _mesh(f"gem-{colour}", (positions + base).astype(np.float32), faces, bsdf)


def _counter(
    index: int, counter: LaidCounter, board: Board, table: Table, transform: Any
) -> dict[str, Any]:
    size = board.counter_size
    x, y = counter.centre
    floor = float(height_at(table.shape, table.width, table.height, np.array(x), np.array(y)))
    centre = to_world(table, np.array([x]), np.array([y]), np.array([floor]))[0]
    # Turned with the sheet, then by the counter's own turn (the world's y runs the other way).
    angle = -(table.turn + counter.turn)
    placed = transform().translate(list(centre)).rotate([0.0, 0.0, 1.0], angle)
    black = {"type": "roughplastic", "alpha": 0.3, "diffuse_reflectance": _rgb((0.015,) * 3)}
    face = counter_texture(counter.value, size)
    return {
        f"counter-{index}": {
            "type": "cube",
            "to_world": placed.translate([0.0, 0.0, COUNTER_THICKNESS / 2]).scale(
                [size / 2, size / 2, COUNTER_THICKNESS / 2]
            ),
            "bsdf": black,
        },
        f"counter-face-{index}": {
            "type": "rectangle",
            "to_world": placed.translate([0.0, 0.0, COUNTER_THICKNESS + 0.02]).scale(
                [size / 2 * 0.98, size / 2 * 0.98, 1.0]
            ),
            "bsdf": {"type": "roughplastic", "alpha": 0.3, "diffuse_reflectance": _bitmap(face)},
        },
    }


def _capsule(name: str, part: Capsule, setup: SetUp, table: Table) -> dict[str, Any]:
    ends = to_world(
        table,
        np.array([part.start[0], part.end[0]]),
        np.array([part.start[1], part.end[1]]),
        np.array([part.start[2], part.end[2]]),
    )
    if part.material == "skin":
        bsdf: dict[str, Any] = {
            "type": "roughplastic", "alpha": 0.35, "diffuse_reflectance": _rgb(setup.skin),
            "specular_reflectance": 0.4,
        }  # fmt: skip
    else:
        bsdf = {"type": "diffuse", "reflectance": _rgb(setup.sleeve)}
    positions, faces = capsule_mesh(ends[0], ends[1], part.radius)
    return {name: _mesh(name, positions, faces, bsdf)}
