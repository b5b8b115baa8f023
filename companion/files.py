"""Writing files so that a reader sees the old one or the new one, never half of one."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


def write_atomically(path: Path, data: bytes) -> None:
    """Writes a temp file beside `path`, syncs it and renames it over `path`.

    The temp file is created with the usual permissions (umask), unlike mkstemp's 0600, and
    removed whatever happens (Ctrl-C too). An OSError reaches the caller, who words it.
    """
    temp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(temp, "xb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
