"""The real product, run as its users run it: a real window on a virtual X screen, the
stream on, a second device on the network. Kivy's offscreen set-up (the twin that tells
where every button is) comes from tests/ui."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ui.conftest import SCREENSHOTS, screen  # noqa: F401  (the twin's fixture)

from .room import Room

WIDTH, HEIGHT = 800, 480


@pytest.fixture()
def x_screen() -> Iterator[str]:
    """A virtual X screen the size of the Pi's display."""
    for tool in ("Xvfb", "xdotool"):
        assert shutil.which(tool), f"{tool} is missing: run scripts/install-system-deps.sh"
    display = f":{100 + os.getpid() % 800}"
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", f"{WIDTH}x{HEIGHT}x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while not Path(f"/tmp/.X11-unix/X{display[1:]}").exists():
            assert time.monotonic() < deadline, "Xvfb did not start"
            time.sleep(0.05)
        yield display
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture()
def room() -> Iterator[Room]:
    """The table and a phone on a network of their own."""
    if os.geteuid() != 0:
        pytest.skip("a network of the test's own (network namespaces) needs root; CI is root")
    with Room() as made:
        yield made


@pytest.fixture()
def shots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
