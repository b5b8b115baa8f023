"""A room of its own for a test: two network namespaces joined by a virtual cable, the
table (where the companion runs) and a phone (where a browser opens the display page).

The phone reaches the table only over that cable, at the table's own address on it, as a
second device on a LAN would; nothing leaves the machine. Both namespaces, and the cable
with them, are removed when the `with` block ends. Needs root (CI runs as root).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from types import TracebackType

NETWORK = "198.18"
"""RFC 2544's range for network tests: never anyone's real address."""


class Room:
    def __init__(self) -> None:
        tag = os.getpid() % 100_000
        self.table = f"ct-table-{tag}"
        self.phone = f"ct-phone-{tag}"
        subnet = f"{NETWORK}.{tag % 250}"
        self.table_address = f"{subnet}.1"
        self.phone_address = f"{subnet}.2"
        self._cable = (f"ctt{tag}", f"ctp{tag}")

    def __enter__(self) -> Room:
        table_end, phone_end = self._cable
        try:
            for space in (self.table, self.phone):
                _ip("netns", "add", space)
                _ip("-n", space, "link", "set", "lo", "up")
            _ip("link", "add", table_end, "type", "veth", "peer", "name", phone_end)
            for end, space, address in (
                (table_end, self.table, self.table_address),
                (phone_end, self.phone, self.phone_address),
            ):
                _ip("link", "set", end, "netns", space)
                _ip("-n", space, "addr", "add", f"{address}/24", "dev", end)
                _ip("-n", space, "link", "set", end, "up")
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        for space in (self.table, self.phone):
            subprocess.run(["ip", "netns", "del", space], capture_output=True, check=False)

    def at_table(self, command: Sequence[str]) -> list[str]:
        return ["ip", "netns", "exec", self.table, *command]

    def on_phone(self, command: Sequence[str]) -> list[str]:
        return ["ip", "netns", "exec", self.phone, *command]


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise OSError(f"ip {' '.join(args)}: {done.stderr.strip()}")
