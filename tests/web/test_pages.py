"""The board page, the overlay and the wall in headless Chromium, fed by a real mosquitto.

Payloads come from a real simulated MemWars game (tests/web/payloads.py), published with
paho as the companion's publisher does; the pages read them over MQTT-over-WebSockets.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

from PIL import Image

from companion.clock.display import format_time
from companion.games.memwars.board import lattice
from companion.publish.mosquitto import Mosquitto
from companion.publish.wire import validate
from companion.web.server import DisplayConfig, serve
from tests.web.conftest import Publisher, need_mosquitto
from tests.web.payloads import Game, alert_payload, clock_payload, clock_reading


def open_page(page: Any, url: str, *, live: bool = False) -> None:
    page.goto(url)
    states = '"live"' if live else '"connected"], #status[data-state="live"'
    page.wait_for_selector(f"#status[data-state={states}]", state="attached")


def board_url(display: Any, board: str, extra: str = "") -> str:
    return f"{display.url}?board={quote(board)}{extra}"


def clock_ms(text: str) -> int:
    """'1:02:05' / '4:57' / '9.3' -> milliseconds."""
    if ":" not in text:
        return round(float(text) * 1000)
    seconds = 0
    for part in text.split(":"):
        seconds = seconds * 60 + int(part)
    return seconds * 1000


def clock_text(page: Any, side: int) -> str:
    text: str = page.locator(f'.side[data-side="{side}"] .clock').first.inner_text()
    return text.strip()


def crystals(page: Any, place: int, svg: str = "#board") -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        f'{svg} [data-place="{place}"] .crystal', "dots => dots.map(d => d.dataset.side)"
    )
    return found


# -- the board page -------------------------------------------------------------------------


def test_a_new_crystal_shows_when_its_state_arrives(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    # That it shows, and where; not how soon, which a busy machine stretches.
    game = Game()
    first = game.claim()
    topic = f"tabletop/{board_id}"
    publisher.send(f"{topic}/status", "online", retain=True)
    publisher.send(f"{topic}/state", game.state_payload(board_id), retain=True)
    open_page(page, board_url(display, board_id), live=True)
    page.wait_for_selector(f'#board [data-place="{first.place}"] .crystal')
    assert crystals(page, first.place) == [str(first.side)]

    claim = game.claim()
    assert crystals(page, claim.place) == []
    publisher.send(f"{topic}/state", game.state_payload(board_id), retain=True)
    page.wait_for_selector(
        f'#board [data-place="{claim.place}"] .crystal[data-side="{claim.side}"]', timeout=15000
    )
    assert page.get_attribute(f'#board [data-place="{claim.place}"]', "class").count("last")
    assert page.inner_text("#last-event") == f"{game.names[claim.side]} claims place {claim.place}."
    # quadrant names from the view; the side panels with names and totals
    assert page.text_content('#board [data-quadrant-name="1"]') == "Greek"
    totals = game.view()["scores"]["sides"]
    assert page.inner_text('#sides-left .side[data-side="0"] .name') == "Ada"
    assert page.inner_text('#sides-right .side[data-side="1"] .total') == str(totals[1]["total"])


def test_a_game_in_full_at_two_screen_sizes(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    game = Game()
    for _ in range(30):
        game.play_until("place_claimed")
    game.play_until("challenge_declared")
    topic = f"tabletop/{board_id}"
    reading = clock_reading(game.t, [247_000, 181_500], game.view()["expected"]["timed"])
    publisher.send(f"{topic}/status", "online", retain=True)
    publisher.send(f"{topic}/state", game.state_payload(board_id, reading), retain=True)
    view = game.view()
    pending = view["pending"]["place"]
    for width, height in ((1920, 1080), (800, 480)):
        page.set_viewport_size({"width": width, "height": height})
        open_page(page, board_url(display, board_id), live=True)
        page.wait_for_selector(".side .total")
        publisher.send(
            f"{topic}/alert",
            alert_payload(board_id, game.t, "Card 44 was shown, but the rules expect card 48."),
        )
        page.wait_for_selector(".alert")
        # the place under challenge is both expected and the last event's place
        place_class = page.get_attribute(f'#board [data-place="{pending}"]', "class")
        assert "expected" in place_class and "last" in place_class
        assert page.inner_text("#prompt") == view["expected"]["prompt"]
        assert page.locator(".side.to-play").count() == 1
        counters = page.locator("#board .counter").count()
        assert counters == sum(len(p["counters"]) for p in view["places"])
        page.screenshot(path=str(shots / f"board-{width}x{height}.png"))
    # an alert fades after some seconds (8 s); not waited for here


def test_the_outcome_shows_when_the_game_is_over(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    game = Game(names=("Chen", "Dana"), colours=("green", "yellow"), seed=5)
    game.play_to_end()
    publisher.send(f"tabletop/{board_id}/state", game.state_payload(board_id), retain=True)
    open_page(page, board_url(display, board_id))
    page.wait_for_selector("#outcome:not([hidden])")
    winners = game.view()["outcome"]["winners"]
    assert page.inner_text("#outcome").startswith("Game over: ")
    assert game.names[winners[0]] in page.inner_text("#outcome")
    page.screenshot(path=str(shots / "board-over.png"))


def test_clocks_count_down_between_updates(
    page: Any, display: Any, publisher: Publisher, board_id: str
) -> None:
    game = Game()
    game.play_until("place_claimed")
    topic = f"tabletop/{board_id}"
    reading = clock_reading(game.t, [65_000, 30_000], 0)
    publisher.send(f"{topic}/state", game.state_payload(board_id, reading), retain=True)
    open_page(page, board_url(display, board_id))
    page.wait_for_selector('.side[data-side="0"].has-clock')
    first = clock_ms(clock_text(page, 0))
    assert 63_000 <= first <= 65_000
    time.sleep(1.3)
    later = clock_ms(clock_text(page, 0))
    assert first - 2_500 <= later < first, (first, later)
    assert clock_text(page, 1) == "0:30"  # not running: as read

    # A clock message: player 1 runs now, in tenths below 20 s; player 0 stands still.
    game.t += 1
    publisher.send(
        f"{topic}/clock", clock_payload(board_id, clock_reading(game.t, [61_000, 12_000], 1))
    )
    page.wait_for_function(
        """() => document.querySelector('.side[data-side="0"] .clock').textContent === "1:01" """
    )
    tenths = [clock_text(page, 1)]
    for _ in range(3):
        time.sleep(0.25)
        tenths.append(clock_text(page, 1))
    values = [clock_ms(text) for text in tenths]
    assert all("." in text for text in tenths), tenths
    assert values == sorted(values, reverse=True) and values[0] > values[-1], tenths
    assert clock_text(page, 0) == "1:01"

    # Paused: nobody's time runs.
    game.t += 1
    publisher.send(
        f"{topic}/clock",
        clock_payload(board_id, clock_reading(game.t, [61_000, 9_000], 1, paused=True)),
    )
    page.wait_for_function(
        """() => document.querySelector('.side[data-side="1"] .clock').textContent === "9.0" """
    )
    time.sleep(0.4)
    assert clock_text(page, 1) == "9.0"


def test_offline_shows_from_the_status_topic(
    page: Any, display: Any, publisher: Publisher, board_id: str
) -> None:
    topic = f"tabletop/{board_id}"
    publisher.send(f"{topic}/status", "online", retain=True)
    open_page(page, board_url(display, board_id), live=True)
    assert page.is_hidden("#offline-banner")
    publisher.send(f"{topic}/status", "offline", retain=True)
    page.wait_for_selector('#status[data-state="offline"]')
    assert page.inner_text("#status").lower() == "offline"
    assert page.inner_text("#offline-banner") == f"{board_id} is offline"


def test_offline_when_the_broker_goes_and_back_when_it_returns(
    page: Any, display: Any, board_id: str
) -> None:
    need_mosquitto()
    with Mosquitto(websockets=True) as own:
        open_page(page, board_url(display, board_id, f"&broker={quote(own.ws_url)}"))
        own.stop()
        page.wait_for_selector('#status[data-state="offline"]')
        assert "No connection to the broker" in page.inner_text("#offline-banner")
        own.start()
        page.wait_for_selector('#status[data-state="connected"]', timeout=8000)
        sender = Publisher(own.port)
        try:
            sender.send(f"tabletop/{board_id}/status", "online", retain=True)
            page.wait_for_selector('#status[data-state="live"]')
        finally:
            sender.close()


# -- the overlay ----------------------------------------------------------------------------


def test_the_overlay_is_transparent_and_compact(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    game = Game()
    for _ in range(12):
        game.play_until("place_claimed")
    topic = f"tabletop/{board_id}"
    publisher.send(f"{topic}/status", "online", retain=True)
    reading = clock_reading(game.t, [200_000, 145_000], game.view()["expected"]["timed"])
    publisher.send(f"{topic}/state", game.state_payload(board_id, reading), retain=True)
    page.set_viewport_size({"width": 1920, "height": 1080})
    open_page(page, board_url(display, board_id, "&overlay=1"), live=True)
    page.wait_for_selector(".ov-side .total")
    backgrounds = page.evaluate(
        "() => [document.documentElement, document.body]"
        ".map(e => getComputedStyle(e).backgroundColor)"
    )
    assert backgrounds == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]
    assert page.is_hidden("#screen")
    assert page.is_visible("#overlay-board")
    assert page.locator(".ov-side").count() == 2
    assert page.inner_text(".ov-event") == game.last_event["text"]  # type: ignore[index]
    place = next(p["place"] for p in game.view()["places"] if p["crystals"])
    assert crystals(page, place, "#overlay-board")
    path = shots / "overlay.png"
    page.screenshot(path=str(path), omit_background=True)
    with Image.open(path) as image:
        rgba = image.convert("RGBA")
        box = page.locator(".ov-panel").bounding_box()
        middle = rgba.getpixel((960, 540))  # the middle of the picture: see-through
        inside = rgba.getpixel((int(box["x"] + 10), int(box["y"] + 10)))
    assert isinstance(middle, tuple) and middle[3] == 0
    assert isinstance(inside, tuple) and inside[3] > 0


# -- the wall -------------------------------------------------------------------------------


def test_the_wall_shows_every_board_and_standings(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    prefix = f"wall-{board_id}"
    playing = Game(title="Round 2, table 1")
    for _ in range(15):
        playing.play_until("place_claimed")
    over = Game(names=("Chen", "Dana"), colours=("green", "yellow"), seed=5, game_id=9)
    over.title = "Round 2, table 2"
    over.play_to_end()
    reading = clock_reading(playing.t, [200_000, 145_000], playing.view()["expected"]["timed"])
    publisher.send(
        f"{prefix}/table-1/state", playing.state_payload("table-1", reading), retain=True
    )
    publisher.send(f"{prefix}/table-1/status", "online", retain=True)
    publisher.send(f"{prefix}/table-2/state", over.state_payload("table-2"), retain=True)
    publisher.send(f"{prefix}/table-2/status", "offline", retain=True)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{display.url}wall?prefix={quote(prefix)}")
    page.wait_for_selector('.card[data-board="table-2"] .card-side .total')
    page.wait_for_selector('.card[data-board="table-1"] .card-side .total')
    assert page.eval_on_selector_all(".card", "cards => cards.map(c => c.dataset.board)") == [
        "table-1",
        "table-2",
    ]
    assert page.locator('.card[data-board="table-2"].offline').count() == 1
    assert page.locator('.card[data-board="table-1"] svg .crystal').count() > 0
    clock = page.inner_text('.card[data-board="table-1"] .card-side[data-side="0"] .clock')
    assert clock_ms(clock) <= 200_000

    rows = page.eval_on_selector_all(
        "#standings tbody tr",
        "rows => rows.map(r => [...r.cells].slice(1).map(c => c.textContent))",
    )
    winner = over.names[over.view()["outcome"]["winners"][0]]
    assert rows[0][0] == winner and rows[0][2] == "1"
    assert sorted(row[0] for row in rows) == ["Ada", "Basil", "Chen", "Dana"]
    totals = {
        game.names[s["side"]]: s["total"]
        for game in (playing, over)
        for s in game.view()["scores"]["sides"]
    }
    assert {row[0]: int(row[3]) for row in rows} == totals
    page.screenshot(path=str(shots / "wall.png"))


def standings(page: Any) -> dict[str, list[str]]:
    rows = page.eval_on_selector_all(
        "#standings tbody tr",
        "rows => rows.map(r => [...r.cells].slice(1).map(c => c.textContent))",
    )
    return {row[0]: row[1:] for row in rows}


def wait_for_games(page: Any, count: int) -> None:
    """Until the top row of the standings counts `count` games."""
    page.wait_for_function(
        "n => document.querySelector('#standings td.games')?.textContent === String(n)", arg=count
    )


def test_the_walls_standings_outlive_a_reload_until_started_afresh(
    page: Any, display: Any, publisher: Publisher, board_id: str
) -> None:
    prefix = f"wall-{board_id}"
    over = Game(names=("Chen", "Dana"), seed=5, game_id=9)
    over.play_to_end()
    winner = over.names[over.view()["outcome"]["winners"][0]]
    publisher.send(f"{prefix}/table-2/state", over.state_payload("table-2"), retain=True)
    wall = f"{display.url}wall?prefix={quote(prefix)}"
    page.goto(wall)
    page.wait_for_selector(f'#standings tr[data-name="{winner}"]')
    # The next game at the same table replaces the retained state: the finished one is
    # only in what the wall saw.
    following = Game(names=("Chen", "Dana"), seed=6, game_id=10)
    following.claim()
    publisher.send(f"{prefix}/table-2/state", following.state_payload("table-2"), retain=True)
    wait_for_games(page, 2)

    page.reload()
    page.wait_for_selector('.card[data-board="table-2"]')
    wait_for_games(page, 2)
    assert standings(page)[winner][:2] == ["2", "1"]

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#afresh")
    wait_for_games(page, 1)
    assert {row[:2] for row in map(tuple, standings(page).values())} == {("1", "0")}
    page.reload()
    page.wait_for_selector('.card[data-board="table-2"]')
    assert {row[:2] for row in map(tuple, standings(page).values())} == {("1", "0")}


# -- the JavaScript matches the Python --------------------------------------------------------


def test_the_lattice_and_format_time_match_the_python(page: Any, display: Any) -> None:
    page.goto(f"{display.url}?board=lattice-check")
    places = page.evaluate(
        "async () => { const m = await import('./games/memwars/board.js');"
        " return Array.from({length: 100}, (_, i) => m.lattice(i + 1)); }"
    )
    assert [tuple(xy) for xy in places] == [lattice(p) for p in range(1, 101)]
    samples = [-5, 0, 99, 100, 9_990, 19_999, 20_000, 59_999, 60_000, 65_432, 3_599_999]
    samples += [3_600_000, 3_725_000, 36_000_000]
    texts = page.evaluate(
        "async (samples) => { const m = await import('./common.js');"
        " return samples.map(ms => m.formatTime(ms)); }",
        samples,
    )
    assert texts == [format_time(ms * 1_000_000) for ms in samples]


# -- the MQTT client ------------------------------------------------------------------------


def test_the_client_acknowledges_qos1_and_keeps_the_connection_alive(
    page: Any, display: Any, publisher: Publisher, broker: Mosquitto, board_id: str
) -> None:
    open_page(page, board_url(display, board_id, "&keepalive=1"))
    client_id = page.evaluate("() => window.companionClient.clientId")
    publisher.send(f"tabletop/{board_id}/status", "online", retain=True)
    page.wait_for_selector('#status[data-state="live"]')
    log = broker.dir / "mosquitto.log"
    deadline = time.monotonic() + 3
    wanted = [f"Received PUBACK from {client_id}", f"Received PINGREQ from {client_id}"]
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if all(line in text for line in wanted):
            break
        time.sleep(0.1)
    text = log.read_text(errors="replace")
    for line in wanted:
        assert line in text
    assert "New client connected from" in text


def test_the_page_logs_in_with_the_configured_user(page: Any, board_id: str) -> None:
    need_mosquitto()
    with Mosquitto(websockets=True, password=("display", "s3cret")) as guarded:
        right = DisplayConfig(broker=guarded.ws_url, username="display", password="s3cret")
        wrong = DisplayConfig(broker=guarded.ws_url, username="display", password="nope")
        servers = [serve("127.0.0.1", 0, config) for config in (right, wrong)]
        try:
            open_page(page, board_url(servers[0][0], board_id))
            page.goto(board_url(servers[1][0], board_id))
            page.wait_for_selector('#status[data-state="offline"]')
            assert "not authorised" in (page.get_attribute("#status", "title") or "")
        finally:
            for server, thread in servers:
                server.shutdown()
                server.server_close()
                thread.join(5)


def clock_detail(page: Any, side: int) -> str:
    text: str = page.locator(f'.side[data-side="{side}"] .clock-detail').first.inner_text()
    return text.strip()


def test_a_simple_delay_counts_down_before_the_time(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    """The page's own clock is Playwright's: time passes only when the test runs it."""
    game = Game()
    game.play_until("place_claimed")
    page.clock.install()
    open_page(page, board_url(display, board_id))
    page.clock.pause_at(datetime.now() + timedelta(seconds=10))
    reading = clock_reading(game.t, [65_000, 30_000], 0, delay_ms=3_000)
    publisher.send(f"tabletop/{board_id}/state", game.state_payload(board_id, reading))
    for _ in range(100):  # until the reading is in: each step is 0.1 s of the page's time
        page.clock.run_for(100)
        if clock_detail(page, 0):
            break
        time.sleep(0.05)
    first = clock_detail(page, 0)
    assert first in ("delay 3.0", "delay 2.9"), first
    assert clock_text(page, 0) == "1:05"
    page.screenshot(path=str(shots / "board-clock-delay.png"))
    page.clock.run_for(1_000)
    later = clock_detail(page, 0)
    assert later == f"delay {float(first.split()[1]) - 1:.1f}", (first, later)
    assert clock_text(page, 0) == "1:05"  # the time stands still while the delay runs
    assert "delay" in (page.get_attribute('.side[data-side="0"] .clock-detail', "class") or "")
    assert clock_detail(page, 1) == "" and clock_text(page, 1) == "0:30"
    page.clock.run_for(2_500)  # the delay is over: the time counts down
    assert clock_detail(page, 0) == ""
    assert clock_text(page, 0) == "1:04"


def test_the_overlay_shows_a_simple_delay_after_the_time(
    page: Any, display: Any, publisher: Publisher, board_id: str
) -> None:
    game = Game()
    game.play_until("place_claimed")
    page.clock.install()
    open_page(page, board_url(display, board_id, "&overlay=1"))
    page.clock.pause_at(datetime.now() + timedelta(seconds=10))
    reading = clock_reading(game.t, [65_000, 30_000], 0, delay_ms=3_000)
    publisher.send(f"tabletop/{board_id}/state", game.state_payload(board_id, reading))
    for _ in range(100):
        page.clock.run_for(100)
        if "d" in clock_text(page, 0):
            break
        time.sleep(0.05)
    assert clock_text(page, 0) in ("1:05 d3.0", "1:05 d2.9")
    page.clock.run_for(3_500)
    assert clock_text(page, 0) == "1:04"


def test_alerts_show_and_fade(page: Any, display: Any, publisher: Publisher, board_id: str) -> None:
    game = Game()
    publisher.send(f"tabletop/{board_id}/state", game.state_payload(board_id), retain=True)
    open_page(page, board_url(display, board_id))
    page.wait_for_selector(".side")
    page.clock.install()
    publisher.send(
        f"tabletop/{board_id}/alert", alert_payload(board_id, 1.0, "Wrong card", "error")
    )
    page.wait_for_selector(".alert.level-error")
    assert "Wrong card" in page.inner_text(".alert")
    page.clock.run_for(10_000)
    page.wait_for_selector(".alert", state="detached")


def test_the_page_works_with_the_embedded_broker(page: Any, display: Any, board_id: str) -> None:
    from companion.publish.broker import EmbeddedBroker

    game = Game()
    claim = game.claim()
    with EmbeddedBroker(port=0, ws_port=0) as embedded:
        sender = Publisher(embedded.port)
        try:
            sender.send(f"tabletop/{board_id}/status", "online", retain=True)
            sender.send(f"tabletop/{board_id}/state", game.state_payload(board_id), retain=True)
            url = board_url(display, board_id, f"&broker={quote(embedded.ws_url)}")
            open_page(page, url, live=True)
            page.wait_for_selector(f'#board [data-place="{claim.place}"] .crystal')
        finally:
            sender.close()


# -- the broker login --------------------------------------------------------------------------


def test_the_login_goes_only_to_the_broker_the_page_was_served_with(page: Any) -> None:
    served = DisplayConfig(broker="ws://127.0.0.1:9", username="display", password="pw")
    server, thread = serve("127.0.0.1", 0, served)
    settings = "async () => (await import('./common.js')).loadSettings()"
    try:
        page.goto(f"{server.url}?board=login-check")
        own = page.evaluate(settings)
        assert (own["username"], own["password"]) == ("display", "pw")
        # A link that points the page at another broker: it connects there without a login.
        page.goto(f"{server.url}?board=login-check&broker={quote('ws://10.9.9.9:1883')}")
        other = page.evaluate(settings)
        assert other["broker"] == "ws://10.9.9.9:1883"
        assert (other["username"], other["password"]) == (None, None)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_the_wall_shows_the_events_standings_from_the_hub_and_keeps_them_on_reload(
    page: Any, display: Any, publisher: Publisher, board_id: str, shots: Path
) -> None:
    """The hub's retained standings and pairings (docs/tournament.md), schema-checked, in
    place of the wall's own tally; a reload shows them again at once."""
    prefix = f"wall-{board_id}"
    header = {
        "schema": 1,
        "hub": "tournament",
        "event": "Spring open",
        "updated": "2026-03-14T16:05:40Z",
    }
    division = {
        "division": "Open",
        "game": "memwars",
        "game_title": "MemWars",
        "setup": "Club rapid",
        "round": 2,
    }
    rating = {"mu": 25.0, "sigma": 8.0, "ordinal": 1.0}
    standings_payload = {
        **header,
        **division,
        "rounds": 3,
        "standings": [
            {
                "rank": i + 1,
                "name": name,
                "points": points,
                "buchholz": 1.0,
                "sonneborn_berger": 0.5,
                "score": 30.0,
                "played": 2,
                "byes": 0,
                "withdrawn": 3 if name == "Bo" else None,
                "rating": {**rating, "ordinal": 3.0 - i},
            }
            for i, (name, points) in enumerate(
                [("Ann", 2.0), ("Di", 1.0), ("Cy", 1.0), ("Bo", 0.0)]
            )
        ],
    }
    pairings_payload = {
        **header,
        **division,
        "tables": [
            {"board": "table-1", "names": ["Di", "Ann"], "result": None},
            {
                "board": "table-2",
                "names": ["Cy", "Bo"],
                "result": {
                    "scores": [31, 44],
                    "winners": [1],
                    "hash": None,
                    "source": "hand",
                    "corrected": None,
                },
            },
        ],
        "byes": [],
    }
    validate("standings", standings_payload)
    validate("pairings", pairings_payload)
    publisher.send(f"{prefix}/tournament/standings/Open", standings_payload, retain=True)
    publisher.send(f"{prefix}/tournament/pairings/Open", pairings_payload, retain=True)
    wall = f"{display.url}wall?prefix={quote(prefix)}"
    for visit in range(2):  # the second visit is a reload: retained, nothing lost
        page.goto(wall)
        page.wait_for_selector('#event tr[data-name="Bo"]')
        names = page.eval_on_selector_all(
            "#event tbody tr", "rows => rows.map(r => r.dataset.name)"
        )
        assert names == ["Ann", "Di", "Cy", "Bo"]
        assert page.is_hidden("#local-standings")
        assert "Club rapid" in page.inner_text("#event h3")
        tables = page.eval_on_selector_all(
            "#event .event-pairings li", "items => items.map(i => i.textContent)"
        )
        assert tables == ["table-1Di vs Ann", "table-2Cy vs Bo ✓"]  # board, then players
        who = page.eval_on_selector_all("#event td.who", "cells => cells.map(c => c.textContent)")
        assert who == ["Ann", "Di", "Cy", "Bo (withdrawn)"]
        if visit == 0:
            page.screenshot(path=str(shots / "wall-event-standings.png"))
