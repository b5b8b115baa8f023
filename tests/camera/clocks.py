"""A clock the test moves by hand: sources read it and sleep on it."""

from __future__ import annotations


class HandClock:
    def __init__(self, now_ns: int = 0) -> None:
        self.now_ns = now_ns
        self.slept_ns: list[int] = []

    def __call__(self) -> int:
        return self.now_ns

    def sleep(self, seconds: float) -> None:
        """Time passes exactly as long as asked."""
        step = round(seconds * 1e9)
        self.slept_ns.append(step)
        self.now_ns += step

    def advance(self, ns: int) -> None:
        self.now_ns += ns
