"""MnemoGame with its secret words laid on the players' phones: the real `companion run
--simulate --app` in a real window on a virtual X screen, a New game of three players whose
words are laid on their phones, three headless Chromium phones on the room's network each
opening its side's private page and laying its word there (one refused first, on that page
alone), then the whole game clicked through on the touch screen to its end. Every message
the table publishes is heard by a spectator on its broker, and none gives away what an
unexposed chip is.

The phones' addresses: a side's token is an HMAC under the table's secret, which the real
app keeps in its data folder (`private-pages.key`); the test reads it there and computes
each side's token as the app does (`side_token`), rather than decoding the QR codes on the
Phones screen: a screenshot's code would need a detector and three rounds of clicks
through Menu for the same address, and the address is all the phones need. The touch play
guesses right (the test knows the words it typed), so that words are exposed and the game
ends in a few dozen clicks."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.games import find_plugin
from companion.games.contract import Action
from companion.games.mnemo import actions as A
from companion.games.mnemo.state import State
from companion.games.touch import Press, TouchRules
from companion.table.private_pages import SECRET_FILE, side_token
from companion.table.touch_seat import TouchChoices
from tests.plays import touch_of

from .browser import Phone
from .conftest import WIDTH
from .product import RealApp, at, centre, open_real_app, python_module, start_from_home
from .room import Room

MAKE_RUN = python_module("run", "--simulate", "--app")
PLUGIN = find_plugin("mnemo")
ENGINE = PLUGIN.engine
_TOUCH = PLUGIN.touch
assert _TOUCH is not None
RULES: TouchRules = _TOUCH

WORDS = (
    # (word, AHA before, AHA after, spelt from): letters A to L, whose buttons the touch
    # screen shows without scrolling.
    ("fable", 1, 0, "Your left"),
    ("hedge", 0, 1, "Your right"),
    ("child", 1, 1, "Your left"),
)
LISTENER = """
import json, sys, time
import paho.mqtt.client as mqtt

out = open(sys.argv[1], "a", buffering=1)

def connected(client, userdata, flags, reason, properties=None):
    client.subscribe("tabletop/#", qos=1)

def subscribed(client, userdata, mid, reasons, properties=None):
    out.write(json.dumps({"subscribed": True}) + "\\n")

def heard(client, userdata, message):
    text = message.payload.decode("utf-8", "replace")
    out.write(json.dumps({"topic": message.topic, "payload": text}) + "\\n")

client = mqtt.Client(
    mqtt.CallbackAPIVersion.VERSION2, client_id="spectator-check", protocol=mqtt.MQTTv311
)
client.on_connect, client.on_subscribe, client.on_message = connected, subscribed, heard
while True:
    try:
        client.connect("127.0.0.1", 1883)
        break
    except OSError:
        time.sleep(0.2)
client.loop_forever()
"""


class Twin:
    """The same app offscreen in the real app's game, replaying what the real one commits: it
    knows where every chip and button of the real window is."""

    def __init__(self, screen: Any, real: RealApp, game_id: int) -> None:
        self.screen = screen
        self.real = real
        self.game_id = game_id

    @property
    def play(self) -> Any:
        play = touch_of(self.screen.app.controller)
        assert play is not None
        return play

    @property
    def state(self) -> State:
        state: State = self.play.state
        return state

    def catch_up(self) -> int:
        referee = self.play.referee
        new = self.real.actions(self.game_id)[referee.seq :]
        for data in new:
            referee.submit(referee.engine.action_from_dict(data))
        self.screen.frames(3)
        return len(new)

    def where(self, tap: str | Press) -> tuple[int, int] | None:
        """Where a tap goes on the real window; None for a button below its bottom edge."""
        live = self.screen.screen("touch_live")
        if isinstance(tap, Press):
            button = live.button(tap.label)
            assert button is not None, f"no {tap.label!r} among {live.view.buttons}"
            x, y = centre(button)
            return (x, y) if 0 < y < 480 and 0 < x < WIDTH else None
        return at(live.ids.board.spot_centre(tap))


@pytest.mark.long
def test_three_phones_lay_their_words_and_the_game_is_played_to_its_end(
    screen: Any, x_screen: str, room: Room, tmp_path: Path, shots: Path
) -> None:
    # Where the wizard's buttons are, from the same app laid out offscreen at the same size.
    home = centre(screen.screen("home").ids.new_game)
    screen.tap_text("New game")
    wizard = screen.screen("new_game")
    picks = []
    for text in ("MnemoGame", "3", "Laid on the players' phones"):
        widget = next(w for w in wizard.walk() if getattr(w, "text", "") == text)
        picks.append(centre(widget))
        screen.tap(widget)
    start = centre(wizard.ids.start)
    screen.tap_text("Back")

    heard = tmp_path / "heard.jsonl"
    heard.touch()
    real = open_real_app(room, MAKE_RUN, x_screen, tmp_path)
    listener = subprocess.Popen(
        room.at_table([sys.executable, "-c", LISTENER, str(heard)]),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        real.until(lambda: '"subscribed"' in heard.read_text(), 90, "the spectator to subscribe")
        game_id, status, header = start_from_home(
            real, home, picks, start, shots / "mnemo-real-wizard.png", settle=0.3
        )
        assert status == "playing" and header["game"] == "mnemo"
        assert header["setup"]["words"] == "phones"
        assert all("word" not in side for side in header["setup"]["sides"])
        seed = header["setup"]["seed"]
        choices = TouchChoices(game="mnemo", players=3, seed=seed, options={"words": "phones"})
        screen.app.start_game("mnemo", choices)
        twin = Twin(screen, real, game_id)
        assert ENGINE.setup_of(twin.state) == header["setup"]
        real.shot(shots / "mnemo-real-waiting.png")
        assert twin.play.view().prompt.startswith("Waiting for Player 1, Player 2 and Player 3")

        secret = (real.data / SECRET_FILE).read_bytes()
        base = f"http://{room.table_address}:8080/side/"
        urls = [base + side_token(secret, game_id, header["started"], s) for s in range(3)]
        with Phone(room, shots) as phones:
            # Three phones: a browser context each, sharing nothing.
            pages = [
                phones.open(url, f"mnemo-phone-{side}", own=True) for side, url in enumerate(urls)
            ]
            display = phones.open(f"http://{room.table_address}:8080/", "mnemo-display")
            for side, page in enumerate(pages):
                _lay_on_the_phone(real, twin, page, side, shots)
            assert twin.state.phase == "roll"
            for side, page in enumerate(pages):
                word = WORDS[side][0].upper()
                page.wait_for_selector("#secrets dt")
                assert word in page.inner_text("#secrets")
                others = [WORDS[s][0].upper() for s in range(3) if s != side]
                assert not any(other in page.content().upper() for other in others)
            pages[0].screenshot(path=str(shots / "mnemo-phone-laid.png"), full_page=True)
            real.shot(shots / "mnemo-real-words-laid.png")

            _play_to_the_end(twin, real, shots)
            display.wait_for_selector("#outcome:not([hidden])", timeout=30_000)
            assert display.inner_text("#outcome").startswith("Game over")
            phones.shot(display, "mnemo-display-over")
        real.until(lambda: real.games()[0][1] == "finished", 20, "the game to be finished")
        time.sleep(1.5)  # the last messages reach the spectator
        real.shot(shots / "mnemo-real-end.png")
        checked = _nothing_hidden_was_published(heard, real, game_id, header)
        assert checked["state"] > 10 and checked["word_laid"] == 3, checked
    finally:
        listener.terminate()
        listener.wait(timeout=10)
        code, out, err = real.stop()
    assert code == 0, err
    assert "Traceback" not in out + err, out + err


def _lay_on_the_phone(real: RealApp, twin: Twin, page: Any, side: int, shots: Path) -> None:
    """The player types their word on their own page and lays it: the first player tries a
    proper name first, refused on their page alone."""
    word, before, after, spelt_from = WORDS[side]
    page.wait_for_selector("form.side-input input[name=word]", timeout=30_000)
    committed = len(real.actions(twin.game_id))
    if side == 0:
        page.fill("input[name=word]", "Paris")
        page.click("form.side-input button")
        page.wait_for_function("() => document.getElementById('problem').textContent !== ''")
        assert page.inner_text("#problem").startswith("MN-S3"), page.inner_text("#problem")
        page.screenshot(path=str(shots / "mnemo-phone-refused.png"), full_page=True)
        assert len(real.actions(twin.game_id)) == committed
    page.fill("input[name=word]", word)
    page.select_option("select[name=aha_before]", index=before)
    page.select_option("select[name=aha_after]", index=after)
    page.select_option("select[name=spell_from]", label=spelt_from)
    if side == 2:
        page.screenshot(path=str(shots / "mnemo-phone-form.png"), full_page=True)
    page.click("form.side-input button")
    real.until(_past(real, twin.game_id, committed), 20, f"side {side}'s word")
    twin.catch_up()
    laid = twin.state.word(side)
    assert (laid.word, laid.aha_before, laid.aha_after) == (word.upper(), before, after)
    assert page.inner_text("#problem") == ""
    recorded = real.actions(twin.game_id)[committed]
    assert recorded["type"] == "lay_word" and recorded["facts"]["spelt"] is True


def _right_guess(state: State, action: Action) -> bool:
    if not isinstance(action, A.Guess):
        return False
    chip = state.chips[action.owner][action.chip]
    return chip.is_letter and chip.shows == action.guess


def _choose(state: State, actions: list[Action], rng: random.Random) -> list[Action]:
    """The actions to try, best first: a right guess, else anything but a wrong guess or a
    dealt word; a wrong guess last."""
    right = [a for a in actions if _right_guess(state, a)]
    other = [a for a in actions if not isinstance(a, A.Guess | A.LayWord)]
    wrong = [a for a in actions if isinstance(a, A.Guess) and a not in right]
    rng.shuffle(right)
    rng.shuffle(other)
    rng.shuffle(wrong)
    return right + other + wrong


def _play_to_the_end(twin: Twin, real: RealApp, shots: Path) -> None:
    """Every seat by clicks on the real window: the twin taps along, so that it lays out the
    buttons the next click needs."""
    rng = random.Random(8)
    deadline = time.monotonic() + 420
    shot = False
    while not twin.play.referee.is_over:
        assert time.monotonic() < deadline, "the game did not end in 7 minutes"
        state = twin.state
        before = twin.play.referee.seq
        for action in _choose(state, list(RULES.legal_actions(state)), rng):
            if _click(twin, real, action, before):
                break
        else:
            raise AssertionError(f"no action could be clicked at action {before}")
        twin.catch_up()
        committed = real.actions(twin.game_id)[before]
        assert committed == twin.play.referee.engine.action_to_dict(action), committed
        if not shot and twin.state.phase == "guess":
            real.shot(shots / "mnemo-real-play.png")
            shot = True


def _twin_taps(twin: Twin, tap: str | Press) -> None:
    if isinstance(tap, Press):
        twin.play.press(tap.label)
    else:
        twin.play.tap(tap)
    twin.screen.frames(2)


def _click(twin: Twin, real: RealApp, action: Action, before: int) -> bool:
    """Clicks `action`'s path on the real window, where the twin lays its taps out; False,
    with nothing clicked, when a button it needs lies below the screen's edge (the touch
    screen shows as many buttons as fit)."""
    path = RULES.paths(twin.state, action)[0]
    points = []
    for tap in path:  # first on the twin alone: is every button on the screen?
        point = twin.where(tap)
        if point is None:
            break
        points.append(point)
        if tap is not path[-1]:
            _twin_taps(twin, tap)
    if len(points) < len(path) or len(path) > 1:
        twin.play.press("Clear")
        twin.screen.frames(2)
    if len(points) < len(path):
        return False
    for tap, point in zip(path, points, strict=True):
        real.click(point, settle=0.3)
        if tap is not path[-1]:
            _twin_taps(twin, tap)
    real.until(_past(real, twin.game_id, before), 20, f"{action} clicked")
    return True


def _past(real: RealApp, game_id: int, count: int) -> Callable[[], bool]:
    return lambda: len(real.actions(game_id)) > count


def _nothing_hidden_was_published(
    heard: Path, real: RealApp, game_id: int, header: dict[str, Any]
) -> dict[str, int]:
    """Every state and event message the spectator heard, checked against the game's true
    state at its seq (rebuilt from the table's record): a face-down chip shows nothing, not
    even whether it is a decoy, in the view or the drawing; no word is named before it is
    exposed or shown at the end; a chip is named only once it is face up."""
    states = [ENGINE.new_game(header["setup"])]
    for data in real.actions(game_id):
        states.append(ENGINE.apply(states[-1], ENGINE.action_from_dict(data))[0])
    counts: dict[str, int] = {"state": 0, "event": 0, "word_laid": 0}
    for line in heard.read_text().splitlines():
        message = json.loads(line)
        kind = message.get("topic", "").rsplit("/", 1)[-1]
        if kind not in ("state", "event"):
            continue
        payload = json.loads(message["payload"])
        if kind == "state" and payload.get("game_id") not in (None, game_id):
            continue
        true = states[payload["seq"]]
        text = json.dumps(payload).upper()
        for s in range(true.side_count):
            word = true.words[s]
            if word is not None and not (true.exposed[s] or true.revealed[s]):
                assert word.word not in text, (kind, payload["seq"], word.word)
        if kind == "state":
            counts["state"] += 1
            view = payload["view"]
            assert view["viewer"] == "spectator" and "secret" not in view
            spots = {spot["key"]: spot for spot in (payload["drawing"] or {}).get("spots", [])}
            for side in view["sides"]:
                s = side["side"]
                assert len(side["chips"]) == len(true.chips[s])
                for chip in side["chips"]:
                    j = chip["chip"]
                    if true.up[s][j]:
                        assert chip["shows"] == true.chips[s][j].shows
                    else:
                        assert chip["shows"] is None and chip["kind"] is None, (s, chip)
                        spot = spots.get(f"c{s}-{j}")
                        assert spot is None or not spot.get("label"), (s, j, spot)
        else:
            counts["event"] += 1
            event = payload["event"]
            if event["type"] == "chip_exposed":
                assert true.up[event["owner"]][event["chip"]], event
            if event["type"] == "word_laid":
                counts["word_laid"] += 1
                assert set(event) == {"type", "side", "chips"}, event
    return counts
