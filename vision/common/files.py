"""Writing files so that a reader sees the old one or the new one, never half of one; and
reading the files a user names so that no file, however odd, does worse than one line.

    text = read_input_text(path, "deck file")     # UserError: FIFO, device, too big, not UTF-8
    with parsing(str(path), "deck file"):           # RecursionError, ValueError -> UserError
        data = tomllib.loads(text)
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Final

from vision.common.errors import UserError


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


# ---- reading a file a user names -----------------------------------------------------------
# Every input file (deck, record, configuration, calibration, board) is read through these:
# only a regular file, at most a few MB, UTF-8. A FIFO would hang the command, /dev/zero
# would fill the memory, and a stray byte would end in a traceback instead of one line.

MAX_INPUT_BYTES: Final = 8_000_000
"""8 MB: far above any deck, record, configuration or calibration the companion writes."""


def read_input_bytes(path: Path | str, what: str = "file", limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of `path`, a regular file of at most `limit` bytes, or a UserError naming it.

    `what` names the kind of file in messages ("deck file", "game record", ...). A symbolic
    link is followed; one that leads nowhere is an error, never taken for a missing file.
    """
    where = str(path)
    if "\x00" in where:
        raise UserError(f"a {what} name cannot hold a NUL byte", where=repr(where))
    try:
        # O_NONBLOCK: opening a FIFO with no writer would otherwise wait for ever.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        if os.path.islink(path):
            raise UserError(
                f"a symbolic link to {os.readlink(path)!r}, which does not exist", where=where
            ) from None
        raise UserError("no such file", where=where) from None
    except IsADirectoryError:
        raise UserError(f"is a directory, not a {what}", where=where) from None
    except PermissionError:
        raise UserError("cannot read: permission denied", where=where) from None
    except (OSError, ValueError) as err:
        raise UserError(f"cannot read: {_reason(err)}", where=where) from None
    try:
        info = os.fstat(descriptor)
        if stat.S_ISDIR(info.st_mode):
            raise UserError(f"is a directory, not a {what}", where=where)
        if not stat.S_ISREG(info.st_mode):
            raise UserError(f"is {_kind(info.st_mode)}, not a regular file", where=where)
        if info.st_size > limit:
            raise UserError(_too_large(what, f"{info.st_size:,} bytes", limit), where=where)
        with os.fdopen(descriptor, "rb", closefd=False) as file:
            data = file.read(limit + 1)
    except OSError as err:
        raise UserError(f"cannot read: {_reason(err)}", where=where) from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise UserError(_too_large(what, None, limit), where=where)
    return data


def decode_input(data: bytes, where: str, what: str = "file") -> str:
    """`data` as UTF-8 text (a leading byte-order mark dropped), or a UserError saying where
    the first byte that is not UTF-8 is."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UserError(
            f"not UTF-8 text (byte 0x{data[err.start]:02X} at offset {err.start}); "
            f"a {what} is UTF-8 text",
            where=where,
        ) from None


def read_input_text(path: Path | str, what: str = "file", limit: int = MAX_INPUT_BYTES) -> str:
    """read_input_bytes, decoded as UTF-8."""
    return decode_input(read_input_bytes(path, what, limit), str(path), what)


def read_stream_text(stream: IO[bytes], where: str, what: str, limit: int = MAX_INPUT_BYTES) -> str:
    """Standard input or another stream, read as read_input_text reads a file."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise UserError(_too_large(what, None, limit), where=where)
    return decode_input(data, where, what)


@contextlib.contextmanager
def parsing(where: str, what: str = "file") -> Iterator[None]:
    """Turns what a parser raises on hostile input into one line naming the file: nesting
    too deep for the parser (RecursionError), numbers too long or too large (ValueError,
    OverflowError). A UserError, and the parsers' own syntax errors, pass unchanged."""
    try:
        yield
    except (UserError, json.JSONDecodeError, tomllib.TOMLDecodeError):
        raise  # the caller words a syntax error, with its line and column
    except RecursionError:
        raise UserError(f"not a {what}: values nested too deeply", where=where) from None
    except MemoryError:
        raise UserError(f"not a {what}: too large to hold in memory", where=where) from None
    except (ValueError, OverflowError) as err:
        raise UserError(f"not a {what}: {_reason(err)}", where=where) from None


def _reason(err: BaseException) -> str:
    text = getattr(err, "strerror", None) or str(err) or type(err).__name__
    return " ".join(text.split())[:200]


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def _too_large(what: str, size: str | None, limit: int) -> str:
    if size is None:
        return f"too large for a {what} (a {what} may have at most {limit:,} bytes)"
    return f"too large for a {what} ({size}; a {what} may have at most {limit:,} bytes)"
