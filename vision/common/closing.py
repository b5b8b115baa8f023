"""`with` support for every device: entering gives the device, leaving closes it."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closing:
    """Base for devices that hold something to release in `close()`."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
