"""The display page, the overlay and the wall name no game: what they show of a game beyond
names, scores and clocks comes from the game's own page module (`GamePlugin.page`, served
from its package) or from the shapes its state sends. A page whose game module does not load
still comes up, and shows that game without its board."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from companion.games import find_plugin, plugin_names
from companion.web.server import STATIC_DIR
from tests.web.conftest import Publisher
from tests.web.mem_payloads import MemGame
from tests.web.payloads import Game
from tests.web.test_pages import board_url, open_page

TEXT = (".js", ".html", ".css", ".svg")


def static_files() -> list[Path]:
    files = sorted(p for p in STATIC_DIR.rglob("*") if p.is_file() and p.suffix in TEXT)
    assert any(p.name == "display.js" for p in files)
    return files


def test_no_generic_page_file_names_a_game() -> None:
    """Not as a string ("mem"), not in a class name (.mem-board), not in a comment."""
    words = {word for name in plugin_names() for word in (name, find_plugin(name).title)}
    pattern = re.compile(
        r"(?<![\w])(" + "|".join(re.escape(word) for word in words) + r")(?![\w])", re.IGNORECASE
    )
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in static_files()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


# What a page or a module loads: `import ... from "x"`, `import "x"`, `import("x")`, and an
# HTML page's src= and href=.
LOADS = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']|\b(?:src|href)="([^"]+)\"""")


def test_the_generic_pages_load_only_generic_files() -> None:
    """A game's drawing is no static file: the pages reach it through /games.json alone."""
    loaded = {
        (path.name, target)
        for path in static_files()
        if path.suffix in (".js", ".html")
        for match in LOADS.finditer(path.read_text())
        for target in match.groups()
        if target
    }
    assert ("display.js", "./game-board.js") in loaded
    assert ("index.html", "display.js") in loaded
    # "/side.js" is the server's root: the static folder (a private page lives at /side/...).
    elsewhere = {
        (name, target)
        for name, target in loaded
        if not (STATIC_DIR / target.lstrip("/")).resolve().is_relative_to(STATIC_DIR)
        or not (STATIC_DIR / target.lstrip("/")).is_file()
    }
    assert elsewhere == set()


def test_a_game_whose_module_does_not_load_is_shown_without_its_board(
    page: Any, display: Any, publisher: Publisher, board_id: str
) -> None:
    errors: list[str] = []

    def console(message: Any) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", console)
    page.route("**/games/memwars/page.js", lambda route: route.abort())
    topic = f"tabletop/{board_id}"
    game = Game()
    game.claim()
    publisher.send(f"{topic}/state", game.state_payload(board_id), retain=True)
    open_page(page, board_url(display, board_id))
    page.wait_for_selector('.side[data-side="1"] .total')
    assert any("memwars" in text and "did not load" in text for text in errors), errors
    assert "no-board" in (page.get_attribute("body", "class") or "")
    assert page.locator("#board .place").count() == 0
    totals = game.view()["scores"]["sides"]
    for side, name in enumerate(game.names):
        assert page.inner_text(f'.side[data-side="{side}"] .name') == name
        total = page.inner_text(f'.side[data-side="{side}"] .total')
        assert total == str(totals[side]["total"])
    assert page.inner_text("#prompt") == game.view()["expected"]["prompt"]

    # The other games' modules came: a MeM game on the same board is drawn.
    mem = MemGame()
    mem.play(3)
    publisher.send(f"{topic}/state", mem.state_payload(board_id), retain=True)
    page.wait_for_selector("#board .square .stone")
    assert "no-board" not in (page.get_attribute("body", "class") or "")


def test_without_the_list_of_games_every_page_still_comes_up(
    page: Any, display: Any, publisher: Publisher, board_id: str
) -> None:
    page.route("**/games.json", lambda route: route.abort())
    prefix = f"wall-{board_id}"
    game = Game(title="Round 1, table 1")
    game.claim()
    publisher.send(f"{prefix}/table-1/state", game.state_payload("table-1"), retain=True)
    page.goto(f"{display.url}wall?prefix={prefix}")
    page.wait_for_selector('.card[data-board="table-1"].no-board .card-side .total')
    assert page.inner_text('.card[data-board="table-1"] .card-title') == "Round 1, table 1"
    page.goto(f"{display.url}?board=table-1&prefix={prefix}&overlay=1")
    page.wait_for_selector(".ov-side .total")
    assert page.locator("#overlay-board .place").count() == 0
