"""Each side's private page (companion/table/private_pages.py, /side/<token>): only its token
gets the side's view, a new token for every game, an action from it plays for that side only,
and no other page, nor the stream, receives what it shows. In headless Chromium, the page of a
MemWars side shows the face-down counters it may look at (house rule mw.counters.ownerCanPeek)
and follows the game move by move."""

from __future__ import annotations

import contextlib
import json
import queue
import random
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import find_plugin, plugin_names
from companion.session import Referee
from companion.store import Store
from companion.table.private_pages import PrivateDesk, only_yours, side_token, table_secret
from companion.table.wiring import parts_of
from companion.web.server import DisplayConfig, DisplayServer, serve

SECRET = b"s" * 32
COMPETITIVE = {
    "sides": [{"name": "Ada"}, {"name": "Bo"}],
    "mode": "standard",
    "quadrants": [1],
    "topology": {"kind": "competitive"},
    "house_rules": {"mw.counters.ownerCanPeek": True},
    "seed": 8,
}


def _get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            body = answer.read()
            kind = answer.headers.get("Content-Type", "")
            return answer.status, json.loads(body) if "json" in kind else body.decode()
    except urllib.error.HTTPError as err:
        return err.code, None


def _post(url: str, data: Any, origin: str | None = None) -> tuple[int, Any]:
    body = json.dumps(data).encode()
    request = urllib.request.Request(url, data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    if origin is not None:
        request.add_header("Origin", origin)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        payload = err.read()
        return err.code, json.loads(payload) if payload.startswith(b"{") else None


class GameThread:
    """The game's own thread, as the app's clock is: jobs a phone's request hands over wait
    in a queue until the test, on the thread that owns the store, runs them."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[Callable[[], None]] = queue.Queue()

    def call_soon(self, job: Callable[[], None]) -> None:
        self.jobs.put(job)

    def run_waiting(self) -> None:
        """Runs the jobs handed over so far."""
        while not self.jobs.empty():
            self.jobs.get()()

    def while_running(self, request: Callable[[], Any]) -> Any:
        """Runs `request` on another thread, playing the jobs it hands over meanwhile."""
        result: list[Any] = []
        asking = threading.Thread(target=lambda: result.append(request()))
        asking.start()
        while asking.is_alive():
            with contextlib.suppress(queue.Empty):
                self.jobs.get(timeout=0.05)()
        return result[0]


@dataclass
class Table:
    referee: Referee
    desk: PrivateDesk
    server: DisplayServer
    game: GameThread


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[Table]:
    """A competitive MemWars game at the counters' placement, its sides' pages served."""
    with Store.open(tmp_path / "games.sqlite3") as store:
        referee = Referee.start(store, "memwars", COMPETITIVE, {}, title="peek")
        plugin = find_plugin("memwars")
        rng = random.Random(2)
        while "place_counter" not in (getattr(referee.expected(), "actions", None) or ()):
            referee.submit(plugin.random_action(referee.state, rng))
        for _ in range(4):  # some counters down, face down
            referee.submit(plugin.random_action(referee.state, rng))
        desk = PrivateDesk(SECRET)
        game_thread = GameThread()
        put_down = desk.attach(parts_of(referee, call_soon=game_thread.call_soon))
        server, thread = serve("127.0.0.1", 0, DisplayConfig(broker=""), private=desk)
        try:
            yield Table(referee, desk, server, game_thread)
        finally:
            put_down()
            server.shutdown()
            server.server_close()
            thread.join(5)


def test_each_sides_page_has_its_view_and_no_other_token_opens_one(
    table: Table,
) -> None:
    referee, desk, server = table.referee, table.desk, table.server
    links = desk.links(server.url)
    assert [name for name, _ in links] == ["Ada", "Bo"]
    engine = referee.engine
    for side, (_name, url) in enumerate(links):
        status, page = _get(url + "/view.json")
        assert status == 200 and page["side"] == side
        assert page["view"] == json.loads(json.dumps(engine.view(referee.state, side)))
        # Another side's face-down counters stay hidden on this side's page.
        for place in page["view"]["places"]:
            for counter in place["counters"]:
                if not counter["face_up"]:
                    assert (counter["value"] is None) == (counter["owner"] != side)
        status, html = _get(url)
        assert status == 200 and "Only you see" in html
    base = server.url.rstrip("/")
    for wrong in ("nothing", links[0][1].rsplit("/", 1)[1][:-1] + "x", ""):
        assert _get(f"{base}/side/{wrong}/view.json")[0] == 404
    assert _get(f"{base}/side/{links[0][1].rsplit('/', 1)[1]}/../config.json")[0] in (404, 200)


def test_tokens_are_new_for_every_game_and_side_and_kept_for_the_same_game() -> None:
    tokens = {
        side_token(SECRET, game, "2026-11-27T10:00:00Z", side) for game in (1, 2) for side in (0, 1)
    }
    assert len(tokens) == 4
    assert side_token(SECRET, 1, "t", 0) == side_token(SECRET, 1, "t", 0)
    assert side_token(SECRET, 1, "t", 0) != side_token(b"o" * 32, 1, "t", 0)
    assert side_token(SECRET, 1, "t", 0) != side_token(SECRET, 1, "u", 0)  # a store made anew


def test_the_tables_secret_is_made_once_and_private(tmp_path: Path) -> None:
    first = table_secret(tmp_path)
    assert table_secret(tmp_path) == first and len(first) >= 32
    assert (tmp_path / "private-pages.key").stat().st_mode & 0o077 == 0


def test_an_action_from_a_page_plays_for_its_side_only(
    table: Table,
) -> None:
    referee, desk, server = table.referee, table.desk, table.server
    (_ada, ada_url), (_bo, bo_url) = desk.links(server.url)
    expected = referee.expected()
    assert expected is not None and "place_counter" in expected.actions
    side = expected.actor
    mine, theirs = (ada_url, bo_url) if side == 0 else (bo_url, ada_url)
    place = expected.places[0]
    in_hand = referee.engine.view(referee.state, side)["sides"][side]["counter_values_in_hand"]
    action = {"type": "place_counter", "side": side, "place": place, "value": in_hand[0]}
    before = referee.seq
    # The other side's page may not play this side's move.
    status, answer = _post(theirs + "/action", action)
    assert status == 409 and "only" in answer["problem"] and referee.seq == before
    # A page of another site may not post at all.
    assert _post(mine + "/action", action, origin="http://evil.example")[0] == 403
    for bad in ([1, 2], {"type": "nonsense", "side": side}):
        status, answer = _post(mine + "/action", bad)
        assert status == 409 and answer["problem"]
    status, answer = table.game.while_running(lambda: _post(mine + "/action", action))
    assert (status, answer) == (200, {"ok": True, "problem": None})
    assert referee.seq == before + 1


def test_a_page_waiting_for_the_next_move_gets_it_when_it_is_made(
    table: Table,
) -> None:
    referee, desk, server = table.referee, table.desk, table.server
    url = desk.links(server.url)[0][1]
    seq = referee.seq
    got: list[Any] = []
    waiter = threading.Thread(target=lambda: got.append(_get(f"{url}/view.json?after={seq}")))
    waiter.start()
    referee.submit(find_plugin("memwars").random_action(referee.state, random.Random(5)))
    waiter.join(30)
    assert got and got[0][0] == 200 and got[0][1]["seq"] == seq + 1


def test_only_yours_lists_what_the_spectator_does_not_see() -> None:
    mine = {"viewer": 0, "sides": [{"name": "Ada", "hand": [5, 3]}, {"name": "Bo", "hand": None}]}
    public = {
        "viewer": "spectator",
        "sides": [{"name": "Ada", "hand": None}, {"name": "Bo", "hand": None}],
    }
    assert only_yours(mine, public) == [{"what": "Ada · hand", "value": "5, 3"}]


@settings(max_examples=8, deadline=None)
@given(game=st.sampled_from(plugin_names()), seed=st.integers(0, 1000), moves=st.integers(0, 30))
def test_no_page_holds_more_than_its_sides_view(
    game: str, seed: int, moves: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Whatever the game and the moment: a side's page is its own view, what it shows alone
    is in that view, and the desk serves no other viewer's."""
    plugin = find_plugin(game)
    with Store.open(tmp_path_factory.mktemp("private") / "games.sqlite3") as store:
        referee = Referee.start(store, game, plugin.example_setups()[0], {}, title="t")
        rng = random.Random(seed)
        for _ in range(moves):
            if referee.is_over:
                break
            referee.submit(plugin.random_action(referee.state, rng))
        desk = PrivateDesk(SECRET)
        put_down = desk.attach(parts_of(referee))
        for page in desk.sides():
            shown = desk.page(page.token)
            assert shown is not None
            view = json.loads(json.dumps(referee.engine.view(referee.state, page.side)))
            assert json.loads(json.dumps(shown["view"])) == view
            flat = json.dumps(view)
            for secret in shown["secrets"]:
                for part in secret["value"].split(","):
                    assert part.strip() in flat or part.strip() in ("yes", "no"), secret
        put_down()
        assert all(desk.page(page.token) is None for page in desk.sides()) and not desk.sides()


def test_a_phone_sees_its_sides_secrets_and_follows_the_game(
    table: Table, page: Any, shots: Path
) -> None:
    """Headless Chromium at a phone's size on Ada's page: her counters still in hand and the
    ones she laid face down, which Bo's page and the spectators never see; a move at the
    table shows without a reload."""
    referee, desk = table.referee, table.desk
    (_name, ada_url), (_other, bo_url) = desk.links(table.server.url)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(ada_url)
    page.wait_for_selector("#secrets dt")
    assert page.inner_text("#title").startswith("Ada")
    mine = referee.engine.view(referee.state, 0)["sides"][0]["counter_values_in_hand"]
    secrets = page.inner_text("#secrets")
    assert ", ".join(map(str, mine)) in secrets
    page.screenshot(path=str(shots / "side-page-phone.png"), full_page=True)
    referee.submit(find_plugin("memwars").random_action(referee.state, random.Random(1)))
    expected = referee.expected()
    assert expected is not None
    # The page hears of the move by itself: no reload.
    page.wait_for_function(
        "prompt => document.getElementById('prompt').textContent.endsWith(prompt)",
        arg=expected.prompt,
    )
    # The counter's value is chosen on the phone, out of the others' sight.
    expected = referee.expected()
    assert expected is not None and expected.actions == ("place_counter",)
    mover_url = ada_url if expected.actor == 0 else bo_url
    page.goto(mover_url)
    page.wait_for_selector("form.side-input select[name=value]")
    values = [o.inner_text() for o in page.query_selector_all("select[name=value] option")]
    in_hand = sorted(set(referee.state.sides[expected.actor].counters_left), reverse=True)
    assert values == [str(v) for v in in_hand]
    page.select_option("select[name=value]", index=len(values) - 1)
    page.screenshot(path=str(shots / "side-page-counter.png"), full_page=True)
    before = referee.seq
    page.click("form.side-input button")
    for _ in range(200):  # the game's thread is this one: it plays what the page sent
        table.game.run_waiting()
        if referee.seq > before:
            break
        page.wait_for_timeout(50)
    assert referee.seq == before + 1
    (_seq, _t, sent), *_ = reversed(referee.store.actions(referee.game_id))
    assert sent["side"] == expected.actor and sent["value"] == in_hand[-1]
    assert page.inner_text("#problem") == ""
    page.goto(bo_url)
    page.wait_for_selector("#secrets dt")
    theirs = referee.engine.view(referee.state, 1)["sides"][1]["counter_values_in_hand"]
    assert page.inner_text("#title").startswith("Bo")
    assert ", ".join(map(str, theirs)) in page.inner_text("#secrets")


WORD_LIST = Path("/usr/share/dict/american-english")


@pytest.mark.skipif(not WORD_LIST.exists(), reason="the Debian word list (wamerican)")
def test_a_mnemo_word_is_laid_from_its_players_page_and_nowhere_else(tmp_path: Path) -> None:
    """The form for a secret word is on its player's page only while the word is awaited; a
    word sent without its facts is recorded with them; a refusal names the rule to that page
    alone; the spectators learn only how many chips were laid."""
    setup = {"sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": 3, "words": "phones"}
    with Store.open(tmp_path / "games.sqlite3") as store:
        referee = Referee.start(store, "mnemo", setup, {}, title="words")
        desk = PrivateDesk(SECRET)
        put_down = desk.attach(parts_of(referee, call_soon=lambda job: job()))
        ada, bo = desk.sides()
        page = desk.page(ada.token)
        assert page is not None and [i["action"] for i in page["inputs"]] == ["lay_word"]
        fields = {field["name"]: field for field in page["inputs"][0]["fields"]}
        assert fields["word"]["choices"] == []  # typed
        assert [c["value"] for c in fields["aha_before"]["choices"]] == [0, 1, 2, 3, 4, 5]
        assert [c["value"] for c in fields["spell_from"]["choices"]] == ["left", "right"]
        assert not page["secrets"]
        word = {"type": "lay_word", "side": 0, "aha_before": 1, "spell_from": "right"}
        assert desk.submit(bo.token, {**word, "word": "kayak"}) == "this page sends Bo's moves only"
        problem = desk.submit(ada.token, {**word, "word": "Paris"})
        assert problem is not None and problem.startswith("MN-S3") and referee.seq == 0
        # Only the fields its form offers go to the rules: the word's facts are looked up,
        # never taken from a page (a misspelling claimed to be spelt right, say).
        lies = {"spelt": True, "noun": True, "verb": True, "reversible": True, "proper": False}
        assert desk.submit(bo.token, {**word, "side": 1, "word": "blorp", "facts": lies}) is None
        assert desk.submit(ada.token, {"type": "roll", "side": 0}) == (
            "the rules do not ask this side for that now"
        )
        assert desk.submit(ada.token, {**word, "word": "kayak"}) is None
        (_s, _t, bos), (_seq, _t2, sent) = store.actions(referee.game_id)
        assert bos["word"] == "blorp" and not bos["facts"]["spelt"]
        assert sent["word"] == "kayak" and sent["facts"]["spelt"] and sent["facts"]["verb"]
        page = desk.page(ada.token)
        assert page is not None and not page["inputs"]
        assert any(s["value"] == "KAYAK" for s in page["secrets"])
        public = json.dumps(referee.engine.view(referee.state, "spectator")).upper()
        assert "KAYAK" not in public and "secret" not in public.lower()
        put_down()


def test_a_mnemo_word_is_guessed_from_the_guessers_page(tmp_path: Path) -> None:
    """While it is Ada's guess (after her first letter), her page offers a whole word, typed;
    Bo's offers nothing; a wrong word ends her turn, as the rules say."""
    noun = {"spelt": True, "noun": True, "verb": False, "reversible": False}
    setup = {
        "sides": [
            {"name": "Ada", "word": "pot", "facts": noun},
            {"name": "Bo", "word": "cab", "facts": noun},
        ],
        "seed": 1,
        "first_player": 0,
    }
    with Store.open(tmp_path / "games.sqlite3") as store:
        referee = Referee.start(store, "mnemo", setup, {}, title="word guess")
        engine = referee.engine
        free = next(
            face
            for face in range(12)
            if engine.apply(
                referee.state, engine.action_from_dict({"type": "roll", "side": 0, "face": face})
            )[0].mode
            == "free"
        )
        referee.submit(engine.action_from_dict({"type": "roll", "side": 0, "face": free}))
        desk = PrivateDesk(SECRET)
        put_down = desk.attach(parts_of(referee, call_soon=lambda job: job()))
        ada, bo = desk.sides()
        page = desk.page(ada.token)
        assert page is not None and page["inputs"] == []  # the first guess is of a letter
        referee.submit(
            engine.action_from_dict(
                {"type": "guess", "side": 0, "owner": 1, "chip": 0, "guess": "C"}
            )
        )
        page = desk.page(ada.token)
        assert page is not None and [i["action"] for i in page["inputs"]] == ["guess_word"]
        fields = {field["name"]: field for field in page["inputs"][0]["fields"]}
        assert [c["value"] for c in fields["owner"]["choices"]] == [1]
        assert fields["word"]["choices"] == []  # typed
        bos = desk.page(bo.token)
        assert bos is not None and bos["inputs"] == []
        guess = {"type": "guess_word", "side": 0, "owner": 1, "word": "cob"}
        assert desk.submit(bo.token, guess) == "this page sends Bo's moves only"
        assert desk.submit(ada.token, guess) is None
        assert referee.state.turn == 1  # a wrong word ends the turn
        put_down()
