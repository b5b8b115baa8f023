"""The real product, run as its users run it: a real window on a virtual X screen, the
stream on, a second device on the network. Kivy's offscreen set-up (the twin that tells
where every button is) comes from tests/ui."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ui.conftest import SCREENSHOTS, screen  # noqa: F401  (the twin's fixture)

from .room import Room

WIDTH, HEIGHT = 800, 480


@pytest.fixture()
def x_screen() -> Iterator[str]:
    """A virtual X screen the size of the Pi's display, on a display number Xvfb picks
    itself among the free ones (tests in parallel each have their own)."""
    for tool in ("Xvfb", "xdotool"):
        assert shutil.which(tool), f"{tool} is missing: run scripts/install-system-deps.sh"
    readable, writable = os.pipe()
    with os.fdopen(readable, "rb") as told:
        try:
            size = f"{WIDTH}x{HEIGHT}x24"
            server = subprocess.Popen(
                ["Xvfb", "-displayfd", str(writable), "-screen", "0", size, "-nolisten", "tcp"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(writable,),
            )
        finally:
            os.close(writable)
        # Xvfb writes its display number once it accepts connections.
        ready, _, _ = select.select([told], [], [], 20)
        number = told.readline().decode().strip() if ready else ""
    try:
        assert number.isdigit(), "Xvfb did not start"
        yield f":{number}"
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
