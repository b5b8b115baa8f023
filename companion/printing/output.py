"""The file a print command writes: which kind it is, whether it can be written, writing it.

kind = output_kind(Path("board.pdf"))      # 'pdf'; 'png' for a .png; else UserError
check_dpi(300)                             # UserError outside 50..600
check_writable(path)                       # before the slow drawing, not after
write_output(path, data)                   # atomically; an OSError becomes a UserError
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path
from typing import Literal

from companion.errors import UserError
from vision.common.files import write_atomically

OutputKind = Literal["pdf", "png"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

DEFAULT_DPI = 300
LOWEST_DPI = 50
HIGHEST_DPI = 600
"""An A2 board at 600 dpi is already some 130 million pixels."""


def output_kind(out: Path) -> OutputKind:
    suffix = out.suffix.lower()
    if suffix == ".pdf":
        return "pdf"
    if suffix == ".png":
        return "png"
    raise UserError(f"cannot write {out}: name a .pdf or a .png file")


def check_dpi(dpi: int) -> None:
    if not LOWEST_DPI <= dpi <= HIGHEST_DPI:
        raise UserError(f"--dpi must be {LOWEST_DPI} to {HIGHEST_DPI}, not {dpi}")


def check_writable(out: Path) -> None:
    if out.is_dir():
        raise UserError(f"cannot write {out}: it is a directory")
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise UserError(f"cannot write {out}: no such directory {str(parent)!r}")
    if not os.access(parent, os.W_OK):
        raise UserError(f"cannot write {out}: permission denied")


def write_output(out: Path, data: bytes) -> None:
    try:
        write_atomically(out, data)
    except OSError as err:
        raise UserError(f"cannot write {out}: {err.strerror or err}") from None


def png_with_dpi(png: bytes, dpi: int) -> bytes:
    """`png` with a pHYs chunk saying `dpi`, so viewers and printers know its real size."""
    if not png.startswith(PNG_SIGNATURE):
        raise ValueError("not a PNG")
    # The header chunk comes first and is always 25 bytes; pHYs must precede the image data.
    end_of_header = len(PNG_SIGNATURE) + 25
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
    return png[:end_of_header] + chunk + png[end_of_header:]
