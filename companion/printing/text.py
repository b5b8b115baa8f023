"""Wrapping text into lines of a given width, and fitting it into a box by shrinking it.

Pure: the width of a string comes from a `measure(text, size)` function, so tests can use
a fixed-width one and the PDF uses reportlab's font metrics.

    wrap("a few words", 50.0, lambda s: 6.0 * len(s))   # ['a few', 'words']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

Width = Callable[[str], float]
"""The printed width of a string at some fixed font and size."""

ELLIPSIS = "\u2026"


def wrap(text: str, width: float, measure: Width) -> list[str]:
    """`text` as lines no wider than `width`, broken at spaces; a newline starts a new line.

    A word wider than a whole line is broken between characters.
    """
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if measure(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            for piece in _break_word(word, width, measure):
                if line:
                    lines.append(line)
                line = piece
        lines.append(line)
    return lines


def _break_word(word: str, width: float, measure: Width) -> list[str]:
    if measure(word) <= width:
        return [word]
    pieces: list[str] = []
    piece = ""
    for char in word:
        if piece and measure(piece + char) > width:
            pieces.append(piece)
            piece = char
        else:
            piece += char
    pieces.append(piece)
    return pieces


def shorten(line: str, width: float, measure: Width) -> str:
    """`line` with an ellipsis at its end, cut so the whole fits in `width`."""
    while line and measure(line.rstrip() + ELLIPSIS) > width:
        line = line[:-1]
    return line.rstrip() + ELLIPSIS


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph to set: an optional heading line, then wrapped text."""

    text: str
    heading: str | None = None


@dataclass(frozen=True, slots=True)
class SetLine:
    text: str
    heading: bool
    y: float
    """Baseline, measured down from the top of the box."""


@dataclass(frozen=True, slots=True)
class Setting:
    size: float
    lines: tuple[SetLine, ...]
    height: float
    fits: bool
    """False when even the smallest size overflowed and lines were cut (ending in '…')."""


LEADING = 1.22
"""Line spacing as a multiple of the font size."""
BLOCK_GAP = 0.55
"""Extra space between blocks, as a multiple of the font size."""


def set_blocks(
    blocks: Sequence[Block],
    width: float,
    height: float,
    sizes: Sequence[float],
    measure: Callable[[str, float, bool], float],
) -> Setting:
    """Sets `blocks` at the first of `sizes` (largest first) at which they fit the box.

    `measure(text, size, heading)` is the width of `text` at `size` in the heading (bold)
    or body font. When nothing fits, the smallest size is used and cut short.
    """
    for size in sizes:
        setting = _set(blocks, width, size, measure)
        if setting.height <= height:
            return setting
    smallest = _set(blocks, width, sizes[-1], measure)
    kept = [line for line in smallest.lines if line.y + 0.25 * sizes[-1] <= height]
    if kept:
        last = kept[-1]
        text = shorten(last.text, width, lambda s: measure(s, sizes[-1], last.heading))
        kept[-1] = SetLine(text, last.heading, last.y)
    used = kept[-1].y + 0.25 * sizes[-1] if kept else 0.0
    return Setting(sizes[-1], tuple(kept), used, fits=False)


def _set(
    blocks: Sequence[Block], width: float, size: float, measure: Callable[[str, float, bool], float]
) -> Setting:
    lines: list[SetLine] = []
    leading = size * LEADING
    y = 0.0
    for index, block in enumerate(blocks):
        if index:
            y += size * BLOCK_GAP
        if block.heading is not None:
            for text in wrap(block.heading, width, lambda s: measure(s, size, True)):
                y += leading
                lines.append(SetLine(text, True, y - 0.22 * size))
        for text in wrap(block.text, width, lambda s: measure(s, size, False)):
            y += leading
            lines.append(SetLine(text, False, y - 0.22 * size))
    # The last baseline plus the descent is how far down the text reaches.
    height = (lines[-1].y + 0.25 * size) if lines else 0.0
    return Setting(size, tuple(lines), height, fits=True)
