"""memento ludis on the board page and the wall in headless Chromium: a real game refereed
and streamed through a real mosquitto by the companion's own stream, drawn from the shapes
its plugin sends (no drawing code of the game's own on the pages)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from companion.games import find_plugin
from companion.publish.mosquitto import Mosquitto
from companion.publish.publisher import Publisher as CompanionPublisher
from companion.publish.stream import GameStream
from companion.session import Referee
from companion.store import Store
from tests.web.test_pages import board_url, open_page

PLUGIN = find_plugin("memento")


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "games.sqlite3") as opened:
        yield opened


@contextmanager
def streamed_game(
    store: Store, broker: Mosquitto, board: str, actions: int, prefix: str = "tabletop"
) -> Iterator[Referee]:
    """A game of memento ludis between two people, `actions` random legal actions in,
    streamed to `board` by the companion's own stream (online until the block ends)."""
    publisher = CompanionPublisher(broker.url, board_id=board, prefix=prefix)
    setup = {"sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": 4}
    referee = Referee.start(store, "memento", setup, {}, title="memento at the club")
    stream = GameStream(referee, publisher, board_id=board)
    try:
        rng = random.Random(6)
        for _ in range(actions):
            if referee.expected() is None:
                break
            referee.submit(PLUGIN.random_action(referee.state, rng))
        yield referee
    finally:
        stream.close()
        publisher.close(timeout=5)


def drawn(page: Any, svg: str = "#board") -> dict[str, str]:
    """Point key -> the colour of the figure drawn on it."""
    found: list[list[str]] = page.eval_on_selector_all(
        f"{svg} .spot",
        "spots => spots.map(s => [s.dataset.key, s.querySelector('circle:last-of-type')"
        ".getAttribute('fill')])",
    )
    return {key: fill for key, fill in found if fill != "#ffffff"}


def test_the_board_page_draws_a_streamed_game_from_its_shapes(
    page: Any, display: Any, broker: Mosquitto, store: Store, board_id: str, shots: Path
) -> None:
    with streamed_game(store, broker, board_id, actions=9) as referee:
        view = referee.engine.view(referee.state, "spectator")
        shown(page, display, board_id, view, shots)


def shown(page: Any, display: Any, board_id: str, view: dict[str, Any], shots: Path) -> None:
    drawing = PLUGIN.drawing(view)
    assert drawing is not None
    figures = {s.key: s.fill for s in drawing.spots if s.fill}
    assert figures, "the game put no figure down"
    for width, height in ((1920, 1080), (800, 480)):
        page.set_viewport_size({"width": width, "height": height})
        open_page(page, board_url(display, board_id))
        page.wait_for_selector("#board .spot")
        assert page.locator("#board .spot").count() == len(drawing.spots)
        assert drawn(page) == figures
        assert page.locator("#board .place").count() == 0
        assert "Ada" in page.inner_text("body") and "Bo" in page.inner_text("body")
        # Each side's panel says what it holds, from the drawing's legend.
        for i, entry in enumerate(drawing.legend):
            assert page.inner_text(f'.side[data-side="{i}"] .legend') == entry.text
        page.screenshot(path=str(shots / f"memento-board-{width}x{height}.png"))


def test_the_wall_draws_a_finished_game_with_its_winner(
    page: Any, display: Any, broker: Mosquitto, store: Store, board_id: str, shots: Path
) -> None:
    prefix = f"wall-{board_id}"
    with streamed_game(store, broker, "table-1", actions=400, prefix=prefix) as referee:
        assert referee.is_over, "the random game did not end"
        summary = referee.engine.summary(referee.state)
        wall(page, display, prefix, summary, shots)


def wall(page: Any, display: Any, prefix: str, summary: dict[str, Any], shots: Path) -> None:
    winner = summary["sides"][summary["outcome"]["winners"][0]]["name"]
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{display.url}wall?prefix={quote(prefix)}")
    page.wait_for_selector('.card[data-board="table-1"] svg .spot')
    assert page.locator('.card[data-board="table-1"] svg .spot').count() > 0
    page.goto(f"{display.url}?board=table-1&prefix={quote(prefix)}")
    page.wait_for_selector("#outcome:not([hidden])")
    assert winner in page.inner_text("#outcome")
    page.screenshot(path=str(shots / "memento-wall-end.png"))
    assert json.dumps(summary)
