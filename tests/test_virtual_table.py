"""The simulated table: what a tap puts down reaches the game only through the camera."""

from __future__ import annotations

import threading

from companion.games.memwars.play.virtual_table import VirtualTable


class Seen:
    def __init__(self) -> None:
        self.boards: list[dict[str, tuple[str, ...]]] = []
        self.changed = threading.Condition()

    def __call__(self, board: dict[str, tuple[str, ...]]) -> None:
        with self.changed:
            self.boards.append(board)
            self.changed.notify_all()

    def wait_for(self, board: dict[str, tuple[str, ...]], timeout: float = 60.0) -> bool:
        with self.changed:
            return self.changed.wait_for(
                lambda: bool(self.boards) and self.boards[-1] == board, timeout
            )


def test_crystals_put_and_taken_are_read_back_by_the_camera() -> None:
    seen = Seen()
    table = VirtualTable.start(side_count=2, on_seen=seen)
    assert isinstance(table, VirtualTable), table
    try:
        red, blue, yellow = table.colours
        table.put("13", red)
        assert seen.wait_for({"13": (red,)})
        table.follow({"13": (red,), "40": (blue,), "diamond-1": (red,)})
        assert seen.wait_for({"13": (red,), "40": (blue,), "diamond-1": (red,)})
        table.put("40", yellow)
        table.take("13", red)
        assert seen.wait_for({"40": tuple(sorted((blue, yellow))), "diamond-1": (red,)})
        assert table.contents()["40"] == (blue, yellow)
        assert table.failed == ""
    finally:
        table.stop()
