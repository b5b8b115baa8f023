"""The flat pictures the renderer lays on the table: the printed board, the table top, the
topology counters and a card. Each is drawn once and kept.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import segno
from numpy.typing import NDArray

from vision.board_art import draw_board
from vision.counter_art import draw_counter
from vision.geometry import Board
from vision.synth.conditions import TABLES
from vision.synth.kept import kept

Picture = NDArray[np.uint8]

BOARD_PX_PER_MM = 4.0
TABLE_PX_PER_MM = 1.0
TABLE_SIDE = 1024
"""The table texture's side, pixels; it is mirrored beyond that."""
COUNTER_PX_PER_MM = 8.0
CARD_PX_PER_MM = 8.0
CARD_SIZE = (63.0, 88.0)
QR_SIDE = 15.0
"""The QR symbol's side without its quiet zone, millimetres (as the card printer makes it)."""
QR_BOTTOM = 7.5
"""From the card's bottom edge to the bottom of the symbol, millimetres."""
QR_QUIET_MODULES = 4
QUADRANT_NAMES = {"memwars": ("Greek", "Roman", "Egyptian", "Norse")}


def board_texture(board: Board) -> Picture:
    """The printed sheet at BOARD_PX_PER_MM, as the camera would see it at close range."""
    return _board_texture(board)


@lru_cache(maxsize=4)
def _board_texture(board: Board) -> Picture:
    art = draw_board(board, BOARD_PX_PER_MM, QUADRANT_NAMES.get(board.game))
    # The sheet is never quite flat in tone: a faint paper grain; and a touch of blur, so the
    # texture does not alias when the camera shrinks it. (The ink's and the paper's colours
    # are the conditions' business.)
    rng = np.random.default_rng(20240601)
    grain = cv2.GaussianBlur(rng.normal(0.0, 2.5, art.shape[:2]).astype(np.float32), (0, 0), 1.2)
    paper = art.astype(np.float32) * (1.0 - 0.006 * grain[:, :, None])
    paper = cv2.GaussianBlur(paper, (0, 0), 0.6)
    return kept(np.asarray(np.clip(paper, 0, 255), np.uint8))


@lru_cache(maxsize=8)
def table_texture(kind: str) -> Picture:
    """A table top, TABLE_SIDE square at TABLE_PX_PER_MM; its grain runs along x."""
    if kind not in TABLES:
        raise ValueError(f"no table {kind!r}; known: {', '.join(TABLES)}")
    rng = np.random.default_rng(sum(ord(c) for c in kind))
    n = TABLE_SIDE
    if kind in ("oak", "walnut", "pine"):
        colours = {
            "oak": ((60, 105, 150), (105, 160, 205)),
            "walnut": ((25, 45, 70), (55, 90, 125)),
            "pine": ((90, 150, 200), (135, 195, 230)),
        }[kind]
        tone = _wood(rng, n)
    else:
        colours = {
            "grey-laminate": ((95, 95, 92), (120, 122, 120)),
            "black-cloth": ((18, 18, 20), (40, 40, 44)),
            "green-felt": ((30, 70, 25), (50, 100, 40)),
        }[kind]
        tone = _cloth(rng, n)
    dark = np.array(colours[0], np.float32)
    light = np.array(colours[1], np.float32)
    image = dark + (light - dark) * tone[:, :, None]
    return kept(np.clip(image, 0, 255).astype(np.uint8))


def _wood(rng: np.random.Generator, n: int) -> NDArray[np.float32]:
    """Planks along x: long fibre streaks, growth rings drifting slowly across each plank,
    a dark seam between planks, 0..1."""
    y = np.arange(n, dtype=np.float32)[:, None]
    x = np.arange(n, dtype=np.float32)[None, :]
    plank_width = rng.uniform(90, 160)
    plank = np.floor(y / plank_width)
    drift = cv2.resize(
        rng.normal(0, 1, (8, 3)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC
    )
    # Flat-sawn boards show rings as long stripes that slowly wander and converge.
    phase = y / rng.uniform(5, 9) + 2.5 * drift + 0.002 * x * np.sin(plank * 1.7) + plank * 3.1
    rings = (0.5 + 0.5 * np.sin(2 * np.pi * phase)) ** 4
    fibres = _streaks(rng, n, 40.0, 0.6)
    pores = _streaks(rng, n, 6.0, 0.5)
    tone = 0.55 - 0.18 * rings + 0.1 * fibres + 0.05 * pores + 0.08 * np.sin(plank * 2.3)
    seam = np.abs(((y + plank_width / 2) % plank_width) - plank_width / 2) < 0.8
    tone = np.where(seam, tone * 0.5, tone)
    return np.asarray(np.clip(tone, 0, 1), np.float32)


def _streaks(rng: np.random.Generator, n: int, along: float, across: float) -> NDArray[np.float32]:
    """Unit-variance noise smeared `along` x and `across` y (pixels)."""
    noise = rng.normal(0, 1, (n, n)).astype(np.float32)
    smeared = np.asarray(cv2.GaussianBlur(noise, (0, 0), along, None, across), np.float32)
    return np.asarray(smeared / (float(np.std(smeared)) + 1e-6), np.float32)


def _cloth(rng: np.random.Generator, n: int) -> NDArray[np.float32]:
    """A fine weave with blotches, 0..1."""
    fine = cv2.GaussianBlur(rng.normal(0, 1, (n, n)).astype(np.float32), (0, 0), 0.8)
    blotch = cv2.resize(
        rng.normal(0, 1, (12, 12)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC
    )
    tone = 0.5 + 0.18 * fine / (float(np.std(fine)) + 1e-6) + 0.15 * blotch
    return np.asarray(np.clip(tone, 0, 1), np.float32)


@lru_cache(maxsize=8)
def counter_texture(value: int | None, size_mm: float) -> Picture:
    return kept(draw_counter(value, COUNTER_PX_PER_MM, size_mm))


@lru_cache(maxsize=16)
def card_texture(deck: str, number: int) -> Picture:
    """A card's printed front, portrait, CARD_PX_PER_MM: a header with the points badge, lines
    of text, the QR code `memdeck:<deck>:<number>` near the foot, the deck's title."""
    scale = CARD_PX_PER_MM
    width, height = round(CARD_SIZE[0] * scale), round(CARD_SIZE[1] * scale)
    card = np.full((height, width, 3), 250, np.uint8)
    rng = np.random.default_rng(number)
    accent = (122, 74, 41)
    grey = (112, 107, 107)

    def px(mm: float) -> int:
        return round(mm * scale)

    cv2.circle(card, (px(63 - 4 - 4.25), px(4 + 4.25)), px(4.25), accent, -1, cv2.LINE_AA)
    cv2.putText(
        card, str(1 + number % 5), (px(51.5), px(10.2)), cv2.FONT_HERSHEY_SIMPLEX,
        0.09 * scale, (255, 255, 255), max(1, px(0.5)), cv2.LINE_AA,
    )  # fmt: skip
    cv2.rectangle(card, (px(4), px(5)), (px(4 + rng.uniform(18, 36)), px(8.6)), accent, -1)
    cv2.rectangle(card, (px(4), px(10.5)), (px(28), px(12)), grey, -1)
    cv2.line(card, (px(4), px(16)), (px(59), px(16)), (184, 179, 179), max(1, px(0.2)))
    # Body text as word-shaped strokes: the camera never resolves the letters anyway.
    y = 22.0
    while y < 45.0:
        x = 6.0 + rng.uniform(0, 4)
        end = 57.0 - rng.uniform(0, 6)
        while x < end:
            word = rng.uniform(3, 9)
            cv2.rectangle(card, (px(x), px(y)), (px(min(x + word, end)), px(y + 1.6)), grey, -1)
            x += word + 1.4
        y += 3.6
    modules = _qr_modules(f"memdeck:{deck}:{number}")
    module = QR_SIDE / modules.shape[0]
    left = (CARD_SIZE[0] - QR_SIDE) / 2
    top = CARD_SIZE[1] - QR_BOTTOM - QR_SIDE
    quiet = QR_QUIET_MODULES * module
    cv2.rectangle(
        card, (px(left - quiet), px(top - quiet)),
        (px(left + QR_SIDE + quiet), px(top + QR_SIDE + quiet)), (255, 255, 255), -1,
    )  # fmt: skip
    symbol = cv2.resize(
        np.where(modules, 20, 255).astype(np.uint8),
        (px(QR_SIDE), px(QR_SIDE)),
        interpolation=cv2.INTER_NEAREST,
    )
    card[px(top) : px(top) + symbol.shape[0], px(left) : px(left) + symbol.shape[1]] = symbol[
        :, :, None
    ]
    cv2.rectangle(card, (px(22), px(84)), (px(41), px(85.2)), grey, -1)
    return kept(card)


@lru_cache(maxsize=512)
def _qr_modules(payload: str) -> NDArray[np.bool_]:
    code = segno.make(payload, error="m", micro=False, boost_error=False)
    return kept(np.array([[bool(m & 1) for m in row] for row in code.matrix], dtype=bool))
