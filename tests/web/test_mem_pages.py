"""MeM on the board page, the overlay and the wall in headless Chromium, fed by a real
mosquitto: the 32 squares with their stones in their colours, both playing spaces, names,
scores, the turn, a held move and the outcome; the page picks the drawing by the game the
state names."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.games.mem.colours import COLOURS
from tests.web.conftest import Publisher
from tests.web.mem_payloads import MemGame
from tests.web.payloads import Game, clock_reading
from tests.web.test_pages import board_url, open_page


def stones(page: Any, svg: str = "#board") -> dict[int, str]:
    """Square -> the colour of the stone drawn on it."""
    found: list[list[Any]] = page.eval_on_selector_all(
        f"{svg} .square .stone",
        "dots => dots.map(d => [Number(d.closest('.square').dataset.square), d.dataset.colour])",
    )
    return {square: colour for square, colour in found}


def drawn_stones(view: dict[str, Any]) -> dict[int, str]:
    return {s["square"]: s["colour_name"] for s in view["squares"] if s["colour_name"]}


def test_the_board_page_draws_a_mem_game(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    game = MemGame()
    game.play_until("move_announced")  # a move held while the other player may block it
    view = game.view()
    topic = f"tabletop/{board_id}"
    reading = clock_reading(game.t, [274_000, 251_500], view["expected"]["timed"])
    publisher.send(f"{topic}/status", "online", retain=True)
    publisher.send(f"{topic}/state", game.state_payload(board_id, reading), retain=True)
    for width, height in ((1920, 1080), (800, 480)):
        page.set_viewport_size({"width": width, "height": height})
        open_page(page, board_url(display, board_id), live=True)
        page.wait_for_selector("#board .square .stone")
        assert page.locator("#board .square").count() == 32
        assert page.locator("#board .place").count() == 0
        assert stones(page) == drawn_stones(view)
        # Both playing spaces, stone for stone, with names and totals.
        for side, data in enumerate(view["sides"]):
            panel = f'.side[data-side="{side}"]'
            assert page.inner_text(f"{panel} .name") == data["name"]
            assert page.inner_text(f"{panel} .total") == str(data["total"])
            cells = page.eval_on_selector_all(
                f"{panel} .pattern-cell",
                "cells => cells.map(c => [c.dataset.cell, c.querySelector('.stone')"
                ".dataset.colour])",
            )
            assert cells == [[f"{p['row']},{p['col']}", p["colour_name"]] for p in data["pattern"]]
        # The held move: its square ringed, the blocker to decide, the mover on turn.
        pending = view["pending"]
        assert "held" in page.get_attribute(f'#board [data-square="{pending["square"]}"]', "class")
        mover, blocker = pending["side"], 1 - pending["side"]
        assert page.inner_text(f'.side[data-side="{mover}"] .turn').lower() == "to play"
        assert page.inner_text(f'.side[data-side="{blocker}"] .turn').lower() == "to decide"
        assert page.inner_text("#prompt") == view["expected"]["prompt"]
        assert page.inner_text("#last-event") == game.last_event["text"]  # type: ignore[index]
        assert "The MEM game" in page.inner_text("#meta")
        page.screenshot(path=str(shots / f"mem-board-{width}x{height}.png"))


def test_the_page_follows_a_mem_game_and_shows_its_end(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    game = MemGame(names=("Chen", "Dana"), play_seed=1)
    topic = f"tabletop/{board_id}"
    publisher.send(f"{topic}/state", game.state_payload(board_id), retain=True)
    open_page(page, board_url(display, board_id))
    page.wait_for_selector("#board .square .stone")
    assert len(stones(page)) == 32
    assert page.locator(".side .space.empty").count() == 2

    moved = game.play_until("stone_moved")
    for event in game.events:  # as the stream does: the events, then the state
        publisher.send(f"{topic}/event", {**event, "board": board_id})
    publisher.send(f"{topic}/state", game.state_payload(board_id), retain=True)
    square = moved.square  # type: ignore[attr-defined]
    page.wait_for_selector(f'#board [data-square="{square}"].empty.last')
    assert stones(page) == drawn_stones(game.view())

    game.play_to_end()
    publisher.send(f"{topic}/state", game.state_payload(board_id), retain=True)
    page.wait_for_selector("#outcome:not([hidden])")
    view = game.view()
    outcome = page.inner_text("#outcome")
    scores = view["outcome"]["scores"]
    if view["outcome"]["winners"]:
        winner = view["outcome"]["winners"][0]
        assert outcome == (
            f"Game over: {game.names[winner]} wins, {scores[winner]} to {scores[1 - winner]}"
        )
        assert page.inner_text(f'.side[data-side="{winner}"] .turn').lower() == "winner"
    else:
        assert outcome.startswith("Game over: A draw")
    assert stones(page) == drawn_stones(view)
    page.screenshot(path=str(shots / "mem-board-over.png"))


def test_a_solitaire_game_has_one_playing_space(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    game = MemGame(names=("Ada",), game="solitaire")
    game.play(6)
    publisher.send(f"tabletop/{board_id}/state", game.state_payload(board_id), retain=True)
    open_page(page, board_url(display, board_id))
    page.wait_for_selector(".side .pattern-cell")
    assert page.locator(".side").count() == 1
    assert page.locator(".side .pattern-cell").count() == 6
    assert "MEM-Solitaire" in page.inner_text("#meta")
    assert len(stones(page)) == 26
    page.screenshot(path=str(shots / "mem-solitaire.png"))


def test_the_page_picks_the_drawing_by_the_game(
    page: Any, display: Any, publisher: Publisher, board_id: str
) -> None:
    topic = f"tabletop/{board_id}"
    memwars = Game()
    memwars.claim()
    publisher.send(f"{topic}/state", memwars.state_payload(board_id), retain=True)
    open_page(page, board_url(display, board_id))
    page.wait_for_selector("#board .place")
    assert page.locator("#board .place").count() == 100

    mem = MemGame()
    mem.play(3)
    publisher.send(f"{topic}/state", mem.state_payload(board_id), retain=True)
    page.wait_for_selector("#board .square")
    assert page.locator("#board .place").count() == 0
    assert page.locator("#board .square").count() == 32
    assert page.locator(".side .breakdown dt").all_inner_texts()[:2] == [
        "In the pattern",
        "Captured",
    ]

    publisher.send(f"{topic}/state", memwars.state_payload(board_id), retain=True)
    page.wait_for_selector("#board .place")
    assert page.locator("#board .square").count() == 0
    assert page.locator(".side .breakdown dt").first.inner_text() == "Places"


def test_the_overlay_draws_a_small_mem_board(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    game = MemGame()
    game.play(8)
    publisher.send(f"tabletop/{board_id}/state", game.state_payload(board_id), retain=True)
    page.set_viewport_size({"width": 1920, "height": 1080})
    open_page(page, board_url(display, board_id, "&overlay=1"))
    page.wait_for_selector("#overlay-board .square .stone")
    assert stones(page, "#overlay-board") == drawn_stones(game.view())
    assert page.locator("#overlay-board .number").count() == 0
    assert page.locator(".ov-side").count() == 2
    page.screenshot(path=str(shots / "mem-overlay.png"), omit_background=True)


def test_the_wall_shows_a_mem_board_next_to_a_memwars_one(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    prefix = f"wall-{board_id}"
    memwars = Game(title="Round 2, table 1")
    for _ in range(10):
        memwars.play_until("place_claimed")
    mem = MemGame(names=("Eve", "Finn"), title="MeM, table 2")
    mem.play(9)
    publisher.send(f"{prefix}/table-1/state", memwars.state_payload("table-1"), retain=True)
    publisher.send(f"{prefix}/table-2/state", mem.state_payload("table-2"), retain=True)
    publisher.send(f"{prefix}/table-2/status", "online", retain=True)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{display.url}wall?prefix={quote(prefix)}")
    card = '.card[data-board="table-2"]'
    page.wait_for_selector(f"{card} svg .square .stone")
    page.wait_for_selector('.card[data-board="table-1"] svg .crystal')
    assert page.locator(f"{card} svg .square").count() == 32
    assert stones(page, f"{card} svg") == drawn_stones(mem.view())
    view = mem.view()
    totals = page.locator(f"{card} .card-side .total").all_inner_texts()
    assert totals == [str(s["total"]) for s in view["sides"]]
    assert "The MEM game" in page.inner_text(f"{card} .card-meta")
    rows = page.eval_on_selector_all(
        "#standings tbody tr",
        "rows => rows.map(r => [r.cells[1].textContent, r.cells[4].textContent])",
    )
    assert {name: int(points) for name, points in rows if name in ("Eve", "Finn")} == {
        "Eve": view["sides"][0]["total"],
        "Finn": view["sides"][1]["total"],
    }
    page.screenshot(path=str(shots / "mem-wall.png"))


def test_every_stone_colour_has_a_colour_on_the_page(page: Any, display: Any) -> None:
    page.goto(f"{display.url}?board=colour-check")
    palette = page.evaluate(
        "async () => { const m = await import('./games/mem/board.js'); return m.STONE_COLOURS; }"
    )
    assert set(palette) == {colour.name for colour in COLOURS}
    assert len(set(palette.values())) == len(COLOURS)
