"""Photos as a phone takes them: turned upright, brought to the reader's working size.

    image = load_photo("IMG_0412.jpg")      # BGR, upright, long side at most 1280 pixels
    image = load_photo("IMG_0413.heic")     # with pillow-heif installed

A phone stores a picture the way its sensor was held and says in the EXIF Orientation tag
how to turn it; the picture is turned as the tag says (all eight ways), whatever the
OpenCV version would do. A 12 MP photo holds ten times the pixels the reader looks at: it
is decoded once, a JPEG straight at a reduced scale (its DCT scaled down, a fraction of
the full decode's time), and shrunk to WORKING_SIDE by area averaging, the size the
reader's calibration and thresholds were made at. Anything that cannot be read is a
PhotoError: one line saying why, never a traceback.
"""

from __future__ import annotations

import math
import os
import warnings
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.common.errors import UserError

Image = NDArray[np.uint8]

WORKING_SIDE = 1280
"""The longest side a photo is brought down to: the reader is tuned on 1280 x 720 camera
frames (the board's zones sampled at 1.5 pixels a millimetre, counters at 2.5), and a
photo framing the A3 sheet at this size still gives about 3 pixels a millimetre."""
MAX_PIXELS = 120_000_000
"""The most pixels a picture may hold (a 108 MP phone photo is within): beyond, it is
refused before anything is decoded."""
HEIF_BRANDS = frozenset({b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"})
"""The ISO base media 'ftyp' brands of HEIC/HEIF photos."""
ORIENTATION = 0x0112


class PhotoError(UserError):
    """A photo that cannot be read, with why, as one line."""


def load_photo(path: str | os.PathLike[str], working_side: int = WORKING_SIDE) -> Image:
    """The photo at `path` as BGR uint8, upright, its longest side at most `working_side`."""
    from PIL import Image as Pil
    from PIL import ImageOps, UnidentifiedImageError

    file = Path(path)
    where = str(file)
    if not file.is_file():
        raise PhotoError("no such picture", where=where)
    with file.open("rb") as stream:
        head = stream.read(32)
    if not head:
        raise PhotoError("an empty file, not a picture", where=where)
    if is_heif(head):
        _register_heif(where)
    with warnings.catch_warnings():
        # Pillow warns of pictures over 89 MP; the size is judged here instead.
        warnings.simplefilter("ignore", Pil.DecompressionBombWarning)
        try:
            picture = Pil.open(file)
        except Pil.DecompressionBombError:
            raise PhotoError(_too_big(None), where=where) from None
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
            raise PhotoError("not a picture that can be read", where=where) from None
        with picture:
            width, height = picture.size
            if width * height > MAX_PIXELS:
                raise PhotoError(_too_big((width, height)), where=where)
            scale = working_side / max(width, height)
            if scale < 1:
                # A JPEG decodes at 1/2, 1/4 or 1/8 scale, still no smaller than asked.
                picture.draft("RGB", (math.ceil(width * scale), math.ceil(height * scale)))
            try:
                picture.load()
                upright = ImageOps.exif_transpose(picture)
                rgb = upright.convert("RGB")
            except (OSError, ValueError, SyntaxError, Pil.DecompressionBombError):
                raise PhotoError(
                    "the picture is damaged or cut short (an unfinished copy?)", where=where
                ) from None
    image = np.asarray(rgb, np.uint8)[..., ::-1]
    return shrink(image, working_side)


def shrink(image: Image, working_side: int = WORKING_SIDE) -> Image:
    """The picture with its longest side at most `working_side`, averaged by area."""
    height, width = image.shape[:2]
    scale = working_side / max(width, height)
    if scale >= 1:
        return np.ascontiguousarray(image)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)


def is_heif(head: bytes) -> bool:
    """Whether a file's first bytes are those of a HEIC/HEIF picture."""
    return head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS


def _register_heif(where: str) -> None:
    try:
        import pillow_heif
    except ImportError:
        raise PhotoError(
            "cannot read HEIC photos: the pillow-heif package is not installed "
            "(pip install pillow-heif); or convert the photo to JPEG",
            where=where,
        ) from None
    pillow_heif.register_heif_opener()


def _too_big(size: tuple[int, int] | None) -> str:
    what = f"a picture of {size[0]} x {size[1]} pixels" if size else "the picture"
    return (
        f"{what} is too big to read (at most {MAX_PIXELS // 1_000_000} million pixels): "
        "take it at a lower resolution"
    )
