"""Fixtures for the broker tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.broker.clients import Client


@pytest.fixture()
def clients() -> Iterator[list[Client]]:
    """The clients a test makes, closed after it."""
    made: list[Client] = []
    yield made
    for client in made:
        client.close()
