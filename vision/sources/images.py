"""Frames from still images: a folder of them, or a list of files.

    ImageFolderSource("shots/")                 # every png/jpg/.../heic, in name order
    ImageFolderSource("shots/", "game-*")       # those whose names match the pattern
    ImageFolderSource(["a.png", "b.png"])       # these, in this order

Names sort as people count ("frame-2" before "frame-10"). Each is loaded as `vision read`
loads a photo (vision/photo.py): turned upright as its EXIF says, HEIC too, brought down
once to the reader's working size. An image that cannot be read is skipped with one line
naming it and why; times are index / fps, as if filmed at that rate.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Sequence
from pathlib import Path

from vision.common.errors import UserError
from vision.photo import PhotoError, load_photo
from vision.sources.frame import Frame, Source, as_bgr

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".heic", ".heif")
DEFAULT_FPS = 10.0

PathLike = str | os.PathLike[str]


class ImageFolderSource(Source):
    def __init__(
        self,
        paths: PathLike | Sequence[PathLike],
        pattern: str = "*",
        *,
        fps: float = DEFAULT_FPS,
        loop: bool = False,
    ) -> None:
        if fps <= 0:
            raise ValueError("the frame rate of a folder of images must be more than 0")
        self.files, self.where, self.name = _files(paths, pattern)
        self.fps = fps
        self.loop = loop
        self._next_file = 0
        self._index = 0
        self._read_this_pass = 0
        self._closed = False

    def read(self) -> Frame | None:
        while not self._closed:
            if self._next_file == len(self.files):
                if self._read_this_pass == 0:
                    raise UserError(
                        f"none of the {_images(len(self.files))} can be read", where=self.where
                    )
                if not self.loop:
                    return None
                self._next_file = 0
                self._read_this_pass = 0
            path = self.files[self._next_file]
            self._next_file += 1
            try:
                image = load_photo(path)
            except PhotoError as error:
                log.warning("skipping %s", error)
                continue
            self._read_this_pass += 1
            frame = Frame(as_bgr(image), round(self._index * 1_000_000_000 / self.fps), self._index)
            self._index += 1
            return frame
        return None

    def close(self) -> None:
        self._closed = True


def _files(paths: PathLike | Sequence[PathLike], pattern: str) -> tuple[list[Path], str, str]:
    """The images to show, where they are (for a message) and what to call them."""
    if isinstance(paths, str | os.PathLike):
        path = Path(paths)
        if path.is_dir():
            files = sorted(
                (
                    p
                    for p in path.glob(pattern)
                    if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()
                ),
                key=_natural,
            )
            if not files:
                suffixes = "/".join(s.lstrip(".") for s in IMAGE_SUFFIXES)
                matching = f" matching {pattern!r}" if pattern != "*" else ""
                raise UserError(f"no {suffixes} images{matching} in the folder", where=str(path))
            return files, str(path), f"images in {path}"
        if not path.exists():
            raise UserError("no such image file or folder", where=str(path))
        return [path], str(path), f"image {path}"
    files = [Path(p) for p in paths]
    if not files:
        raise UserError("no images given")
    if len(files) == 1:
        return files, str(files[0]), f"image {files[0]}"
    return files, str(files[0].parent), f"{len(files)} images from {files[0].parent}"


def _natural(path: Path) -> list[int | str]:
    """'frame-10' after 'frame-2': digit runs compare as numbers."""
    parts = re.split(r"(\d+)", path.name)
    return [int(part) if i % 2 else part.lower() for i, part in enumerate(parts)]


def _images(count: int) -> str:
    return f"{count} image" if count == 1 else f"{count} images"
