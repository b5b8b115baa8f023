"""Film a Scene: the printed board on a table, with everything on it, through a virtual
camera under the given conditions, down to a decoded JPEG frame.

    shot = render(board, scene, Conditions.easy(), seed=1)
    shot.image          # BGR uint8, what a webcam would have delivered
    shot.homography     # board millimetres on the table -> pixels of `image`
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
    crystals.draw_shadows(image, laid, view, lamp, diameter)
    crystals.draw_crystals(image, laid, view, lamp, conditions.shine, diameter, seed)
    hand_mask = np.zeros((height, width), bool)
    _draw_hands(image, scene, seed, conditions, board, view, lamp, hand_mask)

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
            COUNTER_THICKNESS, COUNTER_EDGE, view, lamp,
        )  # fmt: skip
    card = lay_card(board, scene, seed)
    if card is not None:
        texture = card_texture(card.deck, card.number)
        flats.lay_flat(
            image, texture, CARD_SIZE, card.centre, card.angle,
            CARD_THICKNESS, CARD_EDGE, view, lamp,
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
    outline = view.project(
        np.array(
            [[0, 0, 0], [board.width, 0, 0], [board.width, board.height, 0], [0, board.height, 0.0]]
        )
    )
    left, top = np.maximum(np.floor(outline.min(axis=0)).astype(int) - 1, 0)
    right, bottom = np.minimum(np.ceil(outline.max(axis=0)).astype(int) + 2, (width, height))
    if right <= left or bottom <= top:
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
