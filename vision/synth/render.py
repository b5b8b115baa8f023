"""Film a Scene: the printed board on a table, with everything on it, through a virtual
camera under the given conditions, down to a decoded JPEG frame.

    shot = render(board, scene, Conditions.easy(), seed=1)
    shot.image          # BGR uint8, what a webcam would have delivered
    shot.homography     # board millimetres on the table -> pixels of `image`
    shot.to_image(pts)  # board millimetres on the sheet as it lies (bowed, curled) -> pixels
    shot.jpeg           # the encoded frame, for timing a decoder

The seed fixes everything that is not the sensor: where pieces lie, the hands' skin. The
frame number only changes the sensor noise, as between two exposures of a still scene.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import Board
from vision.synth import crystals, flats, hands, sensor
from vision.synth.arrangement import (
    COUNTER_THICKNESS,
    LaidCounter,
    lay_card,
    lay_counters,
    lay_crystals,
    random_stream,
)
from vision.synth.conditions import Conditions
from vision.synth.kept import kept
from vision.synth.light import Light, light
from vision.synth.lighting import LOWRES, lighting
from vision.synth.projection import Projection, projection
from vision.synth.scene import Scene
from vision.synth.textures import (
    BOARD_PX_PER_MM,
    CARD_SIZE,
    TABLE_PX_PER_MM,
    TABLE_SIDE,
    board_texture,
    card_texture,
    counter_texture,
    table_texture,
)

Image = NDArray[np.uint8]
CARD_THICKNESS = 0.3
CARD_EDGE = (215, 215, 215)
COUNTER_EDGE = (12, 12, 12)


@dataclass(frozen=True, slots=True)
class Rendered:
    image: Image
    """BGR, the decoded JPEG."""
    homography: NDArray[np.float64]
    """3 x 3: board millimetres (on the table) -> image pixels."""
    jpeg: bytes
    hand_mask: NDArray[np.bool_]
    """True where a hand or forearm covers the picture."""
    hand_over_board: bool
    """Whether any hand covers part of the sheet."""
    view: Projection
    """The camera, and the sheet's shape under it."""

    def to_image(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Board points (N x 2) on the sheet as it lies -> image pixels (N x 2): where they
        are seen, the sheet's bow, curl and folds included (`homography` takes it flat)."""
        flat = np.asarray(points, np.float64).reshape(-1, 2)
        return self.view.project(np.column_stack([flat, np.zeros(len(flat))]))


def render(
    board: Board, scene: Scene, conditions: Conditions, seed: int, frame: int = 0
) -> Rendered:
    view = projection(board, conditions)
    lamp = light(conditions)
    width, height = conditions.size
    image = _table_and_board(board, conditions).copy()

    # Bottom up: what lies flat on the paper, the crystals standing on it, the hands above.
    counters = lay_counters(board, scene, seed)
    _draw_flats(image, board, scene, seed, counters, view, lamp)
    laid = lay_crystals(board, scene, seed, counters)
    diameter = board.crystal_diameter
    if conditions.paper_shape.flat:
        crystals.draw_shadows(image, laid, view, lamp, diameter)
    else:
        # Each crystal's shadow falls on the paper around it, at the sheet's height there.
        for crystal in laid:
            crystals.draw_shadows(image, [crystal], view.resting_at(crystal.centre), lamp, diameter)
    crystals.draw_crystals(
        image, laid, view, lamp, conditions.shine, diameter, seed, conditions.clarity
    )
    hand_mask = np.zeros((height, width), bool)
    # Hands are held well above the board: the paper's shape under them does not move them.
    _draw_hands(image, scene, seed, conditions, board, view.flat, lamp, hand_mask)

    # Then the camera: lens, exposure under the room's light, sensor noise, processing.
    frame_rng = random_stream(seed, "frame", frame)
    exposed = sensor.expose(
        sensor.blur(image, conditions), lighting(board, conditions), conditions.exposure
    )
    noisy = sensor.add_noise(exposed, conditions, frame_rng)
    jpeg = sensor.encode(sensor.sharpen(noisy, conditions.sharpen), conditions.jpeg_quality)
    homography = view.homography()
    return Rendered(
        image=sensor.decode(jpeg),
        homography=homography,
        jpeg=jpeg,
        hand_mask=hand_mask,
        hand_over_board=bool(scene.hands) and _covers_board(hand_mask, board, homography),
        view=view,
    )


def _draw_flats(
    image: Image,
    board: Board,
    scene: Scene,
    seed: int,
    counters: tuple[LaidCounter, ...],
    view: Projection,
    lamp: Light,
) -> None:
    size = board.counter_size
    for counter in counters:
        texture = counter_texture(counter.value, size)
        flats.lay_flat(
            image, texture, (size, size), counter.centre, counter.angle,
            COUNTER_THICKNESS, COUNTER_EDGE, view.resting_at(counter.centre), lamp,
        )  # fmt: skip
    card = lay_card(board, scene, seed)
    if card is not None:
        texture = card_texture(card.deck, card.number)
        flats.lay_flat(
            image, texture, CARD_SIZE, card.centre, card.angle,
            CARD_THICKNESS, CARD_EDGE, view.resting_at(card.centre), lamp,
        )  # fmt: skip


def _draw_hands(
    image: Image,
    scene: Scene,
    seed: int,
    conditions: Conditions,
    board: Board,
    view: Projection,
    lamp: Light,
    mask: NDArray[np.bool_],
) -> None:
    """The hands' shadows on everything below them, the hands, and any crystal they hold."""
    if not scene.hands:
        return
    diameter = board.crystal_diameter
    shapes = [
        hands.shape(hand, seed, index, diameter * crystals.HEIGHT_RATIO)
        for index, hand in enumerate(scene.hands)
    ]
    height, width = image.shape[:2]
    shade = np.ones((height // LOWRES, width // LOWRES), np.float32)
    hands.draw_shadows(shade, 1.0 / LOWRES, shapes, view, lamp)
    _darken(image, shade)
    hands.draw_hands(image, shapes, view, lamp, mask, seed)
    held = [s.held for s in shapes if s.held is not None]
    crystals.draw_crystals(image, held, view, lamp, conditions.shine, diameter, seed + 1)


@lru_cache(maxsize=4)
def _table_and_board(board: Board, conditions: Conditions) -> Image:
    """The table top (worked out at half size: it is only ever background), then the sheet
    over it at full resolution. The same for every frame a fixed camera takes."""
    view = projection(board, conditions)
    width, height = conditions.size
    half = np.diag([0.5, 0.5, 1.0])
    # The table texture is centred under the board.
    texture_to_table = np.array(
        [
            [1 / TABLE_PX_PER_MM, 0, board.width / 2 - TABLE_SIDE / (2 * TABLE_PX_PER_MM)],
            [0, 1 / TABLE_PX_PER_MM, board.height / 2 - TABLE_SIDE / (2 * TABLE_PX_PER_MM)],
            [0, 0, 1.0],
        ]
    )
    table = cv2.warpPerspective(
        table_texture(conditions.table),
        half @ view.table_homography() @ texture_to_table,
        (width // 2, height // 2),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )
    image = np.asarray(cv2.resize(table, (width, height), interpolation=cv2.INTER_LINEAR), np.uint8)
    texture = cv2.transform(
        board_texture(board), _print_tones(conditions.paper_tint, conditions.ink)
    )
    # Texture pixel centres are half a pixel in from the sheet's edges.
    step = 1 / BOARD_PX_PER_MM
    texture_to_board = np.array([[step, 0, step / 2], [0, step, step / 2], [0, 0, 1.0]])
    # Only the sheet's bounding box needs warping; the table shows everywhere else.
    outline = view.flat.project(
        np.array(
            [[0, 0, 0], [board.width, 0, 0], [board.width, board.height, 0], [0, board.height, 0.0]]
        )
    )
    # A sheet lifted off the table is seen further out from the picture's middle.
    grow = 0 if conditions.paper_shape.flat else 40
    left, top = np.maximum(np.floor(outline.min(axis=0)).astype(int) - 1 - grow, 0)
    right, bottom = np.minimum(np.ceil(outline.max(axis=0)).astype(int) + 2 + grow, (width, height))
    if right <= left or bottom <= top:
        return kept(image)
    if not conditions.paper_shape.flat:
        box = (int(left), int(top), int(right), int(bottom))
        printed = np.asarray(texture, np.uint8)
        _lay_shaped_sheet(image, printed, board, view, light(conditions), box)
        return kept(image)
    shift = np.array([[1, 0, -left], [0, 1, -top], [0, 0, 1.0]])
    cv2.warpPerspective(
        texture,
        shift @ view.homography() @ texture_to_board,
        (int(right - left), int(bottom - top)),
        dst=image[top:bottom, left:right],
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )
    return kept(image)


SHAPE_GRID_MM = 2.0
"""Spacing of the board points at which a shaped sheet's lift and shading are worked out."""
SHAPE_MARGIN_MM = 30.0


def _lay_shaped_sheet(
    image: Image,
    texture: Image,
    board: Board,
    view: Projection,
    lamp: Light,
    box: tuple[int, int, int, int],
) -> None:
    """The printed sheet, lifted off the table by its shape, over the picture's `box`.

    Each pixel shows the board point whose lifted self projects onto it. Seen through the
    flat sheet's homography, lifting shifts a point by a few millimetres, smoothly: so the
    board point is found by fixed-point steps from the flat guess, taking away the shift
    at the current guess (read off a grid). The paper is shaded by how each bit of it faces
    the lamp."""
    left, top, right, bottom = box
    inverse = np.linalg.inv(view.homography())
    step, margin = SHAPE_GRID_MM, SHAPE_MARGIN_MM
    xs = np.arange(-margin, board.width + margin + step, step)
    ys = np.arange(-margin, board.height + margin + step, step)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    seen = view.project(np.column_stack([grid, np.zeros(len(grid))]))
    as_flat = cv2.perspectiveTransform(seen.reshape(-1, 1, 2), inverse).reshape(-1, 2)
    shift = (as_flat - grid).reshape(len(ys), len(xs), 2).astype(np.float32)
    lift = view.lift(grid).reshape(len(ys), len(xs))
    slope_y, slope_x = np.gradient(lift, step)
    slopes = np.stack([slope_x, slope_y], axis=-1) @ view.placement[:2, :2].T
    normals = np.concatenate([-slopes, -np.ones((*lift.shape, 1))], axis=-1)
    normals /= np.linalg.norm(normals, axis=-1, keepdims=True)
    shade = lamp.shade(normals.reshape(-1, 3)).reshape(lift.shape).astype(np.float32)

    us, vs = np.meshgrid(np.arange(left, right, dtype=np.float64), np.arange(top, bottom))
    pixels = np.stack([us, vs], axis=-1).reshape(-1, 1, 2).astype(np.float64)
    guess = cv2.perspectiveTransform(pixels, inverse).reshape(bottom - top, right - left, 2)
    point = guess.astype(np.float32)
    for _ in range(6):
        map_x = (point[..., 0] + margin) / step
        map_y = (point[..., 1] + margin) / step
        moved = cv2.remap(shift, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        point = (guess - moved).astype(np.float32)
    texture_x = point[..., 0] * BOARD_PX_PER_MM - 0.5
    texture_y = point[..., 1] * BOARD_PX_PER_MM - 0.5
    region = image[top:bottom, left:right]
    printed = cv2.remap(
        texture, texture_x, texture_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
    )
    lit = cv2.remap(
        shade,
        (point[..., 0] + margin) / step,
        (point[..., 1] + margin) / step,
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    on_sheet = (
        (point[..., 0] >= 0)
        & (point[..., 0] <= board.width)
        & (point[..., 1] >= 0)
        & (point[..., 1] <= board.height)
    )
    shaded = np.clip(printed.astype(np.float32) * lit[..., None], 0, 255).astype(np.uint8)
    region[on_sheet] = shaded[on_sheet]


def _print_tones(tint: tuple[float, float, float], ink: float) -> NDArray[np.float32]:
    """The per-channel affine map (3 x 4, for cv2.transform) turning the drawn board into this
    print on this paper: white to the paper's colour, black to the ink's darkest."""
    black = 12.0 + 60.0 * ink
    tones = np.zeros((3, 4), np.float32)
    for channel, factor in enumerate(tint):
        tones[channel, channel] = (255.0 * factor - black) / 255.0
        tones[channel, 3] = black
    return tones


def _darken(image: Image, shade: NDArray[np.float32]) -> None:
    """Multiply `image` by `shade` (a light map at 1 / LOWRES size), only where it darkens."""
    rows, columns = np.nonzero(shade < 0.995)
    if len(rows) == 0:
        return
    top, bottom = max(0, rows.min() - 1), min(shade.shape[0], rows.max() + 2)
    left, right = max(0, columns.min() - 1), min(shade.shape[1], columns.max() + 2)
    height, width = image.shape[:2]
    box = (
        slice(top * LOWRES, min(height, bottom * LOWRES)),
        slice(left * LOWRES, min(width, right * LOWRES)),
    )
    region = image[box]
    factor = cv2.resize(
        shade[top:bottom, left:right],
        (region.shape[1], region.shape[0]),
        interpolation=cv2.INTER_LINEAR,
    )
    image[box] = cv2.multiply(region, cv2.merge([factor, factor, factor]), dtype=cv2.CV_8U)


def _covers_board(mask: NDArray[np.bool_], board: Board, homography: NDArray[np.float64]) -> bool:
    corners = np.array([[0, 0], [board.width, 0], [board.width, board.height], [0, board.height]])
    outline = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float64), homography)
    sheet = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(sheet, np.round(outline.reshape(-1, 2)).astype(np.int32), 1)
    return int(np.count_nonzero(mask & (sheet > 0))) > 30
