"""A stored game stepped through on the display page (/?replay=ID) in headless Chromium:
every frame is the state the stream would have sent after that action, the slider and the
arrow keys go back and forth, and the score breakdown follows; /?replay= lists the games."""

from __future__ import annotations

import json
import random
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games import find_plugin, plugin_names
from companion.publish.replays import replay_frames, stored_games
from companion.publish.stream import spectator_view
from companion.session import Referee
from companion.store import Store
from companion.web.server import DisplayConfig, DisplayServer, serve


def _play(store: Store, game: str, moves: int, seed: int) -> tuple[Referee, list[dict[str, Any]]]:
    """A random game of `moves` actions, and the spectator view after each (0: the start)."""
    plugin = find_plugin(game)
    referee = Referee.start(store, game, plugin.example_setups()[0], {}, title=f"{game} at home")
    views = [spectator_view(referee.engine, referee.state)]
    rng = random.Random(seed)
    for _ in range(moves):
        if referee.is_over:
            break
        referee.submit(plugin.random_action(referee.state, rng))
        views.append(spectator_view(referee.engine, referee.state))
    return referee, views


@pytest.mark.parametrize("game", plugin_names())
def test_each_frame_is_the_spectator_view_after_that_action(game: str, tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite3") as store:
        referee, views = _play(store, game, 25, seed=3)
        frames = replay_frames(store, referee.game_id, board="table-1")
    assert [frame["view"] for frame in frames] == json.loads(json.dumps(views))
    assert [frame["seq"] for frame in frames] == list(range(len(views)))
    assert all(frame["view"]["viewer"] == "spectator" for frame in frames)
    said = [frame["last_event"]["text"] for frame in frames[1:] if frame["last_event"]]
    assert said and all(isinstance(text, str) for text in said)


@pytest.fixture()
def stored(tmp_path: Path) -> Iterator[tuple[DisplayServer, dict[str, int]]]:
    """A display server over a store holding a finished MemWars game, a MeM game and a
    memento ludis game under way."""
    path = tmp_path / "games.sqlite3"
    ids: dict[str, int] = {}
    with Store.open(path) as store:
        for game, moves in (("memwars", 400), ("mem", 12), ("memento", 10)):
            referee, _ = _play(store, game, moves, seed=5)
            ids[game] = referee.game_id
    server, thread = serve("127.0.0.1", 0, DisplayConfig(), store=path)
    yield server, ids
    server.shutdown()
    server.server_close()
    thread.join(5)


def _get(server: DisplayServer, path: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(f"{server.url}{path.lstrip('/')}", timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as err:
        return err.code, None


def test_the_server_lists_the_stored_games_and_serves_their_frames(
    stored: tuple[DisplayServer, dict[str, int]], tmp_path: Path
) -> None:
    server, ids = stored
    status, games = _get(server, "/replays.json")
    assert status == 200
    assert [g["game_id"] for g in games] == sorted(ids.values(), reverse=True)
    with Store.open(tmp_path / "games.sqlite3") as store:
        assert games == stored_games(store)
    status, frames = _get(server, f"/replays/{ids['mem']}.json")
    assert status == 200 and len(frames) == 13
    for path in ("/replays/999.json", "/replays/x.json", "/replays/1", "/replays/-1.json"):
        assert _get(server, path)[0] == 404, path


def test_without_a_store_there_is_nothing_to_step_through() -> None:
    server, thread = serve("127.0.0.1", 0, DisplayConfig())
    try:
        assert _get(server, "/replays.json")[0] == 404
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_a_stored_game_is_stepped_through_on_the_page(
    page: Any, stored: tuple[DisplayServer, dict[str, int]], shots: Path, tmp_path: Path
) -> None:
    server, ids = stored
    game_id = ids["memwars"]
    with Store.open(tmp_path / "games.sqlite3") as store:
        frames = replay_frames(store, game_id, board="table-1")
    last = len(frames) - 1
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{server.url}?replay={game_id}")
    page.wait_for_selector("#replay-bar:not([hidden])")
    assert page.text_content("#status") == "replay"
    assert page.inner_text("#replay-where") == "Start"
    assert page.inner_text("#prompt") == frames[0]["view"]["expected"]["prompt"]
    page.click("#replay-on")
    assert page.inner_text("#replay-where") == f"Step 1 of {last}"
    assert page.inner_text("#prompt") == frames[1]["view"]["expected"]["prompt"]
    # The slider to the middle: the sides' totals are those of that move.
    middle = last // 2
    page.eval_on_selector(
        "#replay-slider",
        f"s => {{ s.value = {middle}; s.dispatchEvent(new Event('input')); }}",
    )
    assert page.inner_text("#replay-where") == f"Step {middle} of {last}"
    totals = [s["total"] for s in frames[middle]["view"]["scores"]["sides"]]
    shown = page.eval_on_selector_all("#screen .side .total", "ts => ts.map(t => t.textContent)")
    assert shown == [str(total) for total in totals]
    page.screenshot(path=str(shots / "replay-middle.png"))
    page.keyboard.press("End")
    assert page.inner_text("#replay-where") == f"Step {last} of {last}"
    assert frames[-1]["view"]["outcome"], "the stored game was played to its end"
    page.wait_for_selector("#outcome:not([hidden])")
    assert page.inner_text("#outcome").startswith("Game over")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#replay-where") == f"Step {last - 1} of {last}"
    page.screenshot(path=str(shots / "replay-end.png"))


def test_the_list_of_stored_games_links_to_each(
    page: Any, stored: tuple[DisplayServer, dict[str, int]], shots: Path
) -> None:
    server, ids = stored
    page.goto(f"{server.url}?replay=")
    page.wait_for_selector("#stored-games:not([hidden])")
    links = page.eval_on_selector_all(
        "#stored-games a", "links => links.map(a => a.getAttribute('href'))"
    )
    assert links == [f"?replay={i}" for i in sorted(ids.values(), reverse=True)]
    assert "MeM" in page.inner_text("#stored-games")
    page.screenshot(path=str(shots / "replay-list.png"))
    page.click(f"a[href='?replay={ids['memento']}']")
    page.wait_for_selector("#replay-bar:not([hidden])")
    page.wait_for_selector("#board .spot")


def test_an_unknown_game_is_said_in_a_sentence(
    page: Any, stored: tuple[DisplayServer, dict[str, int]]
) -> None:
    server, _ = stored
    page.goto(f"{server.url}?replay=4242")
    page.wait_for_function(
        "document.getElementById('waiting').textContent.includes('no stored game 4242')"
    )
