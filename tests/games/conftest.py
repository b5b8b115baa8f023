"""Every test of the suite runs once per registered game."""

from __future__ import annotations

import pytest

from companion.games import find_plugin
from companion.games.plugin import GamePlugin

from .play import PLUGINS


@pytest.fixture(params=PLUGINS, scope="session")
def plugin(request: pytest.FixtureRequest) -> GamePlugin:
    """Each game's plugin in turn (session-scoped, so hypothesis may share it)."""
    name: str = request.param
    return find_plugin(name)
