"""Private views on players' phones: each side of the game in play has a page of its own on
the display server, opened from a QR code on the touchscreen, at an address holding a
secret token. Only that address gets the side's view (`engine.view(state, side)`: its own
hidden facts, such as a secret word or the counters still in hand), and only it may send
that side's private inputs. The stream and every other page get the spectator view as
before.

    desk = PrivateDesk(secret)          # one per table; the secret is the table's own
    put_down = desk.attach(parts)       # an OnGame: the game whose sides it serves
    desk.links("http://pi.local:8080/") # [("Ada", "http://pi.local:8080/side/9f2c..."), ...]
    desk.page(token)                    # the side's view, or None for any other token
    desk.submit(token, {"type": ...})   # an action of that side, played on the game's thread

A token is an HMAC of the game (its id and when it started) and the side under the table's
secret: a new one for every game, the same after a power cut (the game is the same), and no
page can work out another side's or another game's from its own.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games import find_plugin, plugin_names
from companion.games.contract import JSON, BadData, IllegalAction
from companion.table.views import names_in
from companion.table.wiring import GameParts, PutDown

log = logging.getLogger(__name__)

SECRET_FILE = "private-pages.key"
SUBMIT_TIMEOUT_S = 5.0
"""How long a phone waits for the game's thread to take its action."""
WAIT_LIMIT_S = 20.0
"""The longest a page's request for the next view is held open (a long poll)."""


def table_secret(folder: Path) -> bytes:
    """The table's secret for side tokens, made once and kept in `folder` (the user data
    directory), readable by its owner only."""
    path = folder / SECRET_FILE
    try:
        secret = path.read_bytes()
        if len(secret) >= 32:
            return secret
    except FileNotFoundError:
        pass
    folder.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_bytes(32)
    partial = path.with_suffix(".partial")
    partial.write_bytes(secret)
    os.chmod(partial, 0o600)
    partial.replace(path)
    return secret


def side_token(secret: bytes, game_id: int, started: str, side: int) -> str:
    digest = hmac.new(secret, f"{game_id}|{started}|{side}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


@dataclass(frozen=True, slots=True)
class SidePage:
    side: int
    name: str
    token: str


class PrivateDesk:
    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        self._parts: GameParts | None = None
        self._pages: dict[str, SidePage] = {}
        self._changed = threading.Condition()
        self._seq = 0
        self.opened: set[int] = set()
        """The sides whose page a phone has opened, for the touchscreen to say so."""

    # -- the game --------------------------------------------------------------------------

    def attach(self, parts: GameParts) -> PutDown:
        """Serves the sides of `parts`' game until the returned function is called."""
        referee = parts.referee
        names = names_in(referee.engine.view(referee.state, "spectator"))
        header = referee.store.header(referee.game_id)
        pages = {
            token: SidePage(side, name, token)
            for side, name in enumerate(names)
            if (token := side_token(self._secret, referee.game_id, header.started, side))
        }
        with self._changed:
            self._parts, self._pages, self.opened = parts, pages, set()
            self._seq = referee.seq

        def moved(_note: Any) -> None:
            with self._changed:
                self._seq = referee.seq
                self._changed.notify_all()

        unsubscribe = referee.subscribe(moved)

        def put_down() -> None:
            unsubscribe()
            with self._changed:
                if self._parts is parts:
                    self._parts, self._pages = None, {}
                self._changed.notify_all()

        return put_down

    def sides(self) -> list[SidePage]:
        with self._changed:
            return sorted(self._pages.values(), key=lambda page: page.side)

    def links(self, base_url: str) -> list[tuple[str, str]]:
        """(side's name, its page's address) for each side of the game in play."""
        base = base_url.rstrip("/")
        return [(page.name, f"{base}/side/{page.token}") for page in self.sides()]

    # -- what a phone asks -----------------------------------------------------------------

    def known(self, token: str) -> bool:
        with self._changed:
            return token in self._pages

    def page(self, token: str, after: int | None = None, wait: float = 0.0) -> JSON | None:
        """The side's view, with what the page draws it with; None for a token of no side of
        the game in play. With `after`, waits up to `wait` seconds for a move past it."""
        deadline_wait = min(wait, WAIT_LIMIT_S)
        with self._changed:
            if after is not None and deadline_wait > 0:
                self._changed.wait_for(
                    lambda: self._parts is None or self._seq != after, timeout=deadline_wait
                )
            page = self._pages.get(token)
            parts = self._parts
            if page is None or parts is None:
                return None
            self.opened.add(page.side)
        referee = parts.referee
        state = referee.state  # one frozen state, read once: the view is of one moment
        engine = referee.engine
        view = engine.view(state, page.side)
        public = engine.view(state, "spectator")
        plugin = find_plugin(engine.name) if engine.name in plugin_names() else None
        drawing = plugin.drawing(view) if plugin is not None else None
        expected = engine.expected(state)
        return {
            "game": plugin.title if plugin is not None else engine.name,
            "side": page.side,
            "name": page.name,
            "seq": referee.seq,
            "view": view,
            "secrets": only_yours(view, public),
            "board": list(plugin.text_board(view)) if plugin is not None else [],
            "drawing": drawing.to_dict() if drawing is not None else None,
            "yours": expected is not None and expected.actor == page.side,
            "inputs": (
                [i.to_dict() for i in plugin.private_inputs(state, page.side)] if plugin else []
            ),
            "prompt": expected.prompt if expected is not None else "The game is over.",
        }

    def submit(self, token: str, data: Mapping[str, Any]) -> str | None:
        """Plays an action of the token's side on the game's thread; what is wrong with it in
        one sentence, or None when the rules took it."""
        with self._changed:
            page = self._pages.get(token)
            parts = self._parts
        if page is None or parts is None:
            return "this page belongs to no side of the game in play"
        if data.get("side") != page.side:
            return f"this page sends {page.name}'s moves only"
        referee = parts.referee
        engine = referee.engine
        offered = {
            i.action: i
            for i in (
                find_plugin(engine.name).private_inputs(referee.state, page.side)
                if engine.name in plugin_names()
                else ()
            )
        }
        wanted = offered.get(str(data.get("type")))
        if wanted is None:
            return "the rules do not ask this side for that now"
        # Only the fields its form offers: a page cannot slip in more (a word's facts, say,
        # which the rules look up themselves).
        fields = {field.name for field in wanted.fields}
        sent = {"type": wanted.action, "side": page.side}
        sent |= {name: value for name, value in data.items() if name in fields}
        try:
            action = engine.action_from_dict(sent)
        except BadData as err:
            return f"not an action: {err}"
        outcome: list[str | None] = []
        done = threading.Event()

        def play() -> None:
            try:
                referee.submit(action)
                outcome.append(None)
            except IllegalAction as err:
                # The refusal may name a hidden value of this side's: said to this page only.
                outcome.append(f"{err.rule}: {err.explanation}")
            finally:
                done.set()

        if parts.call_soon is None:
            # The game's store and referee belong to its own thread, which is not here.
            return "this table takes no moves from phones"
        parts.call_soon(play)
        if not done.wait(SUBMIT_TIMEOUT_S):
            return "the table did not answer in time: try again"
        return outcome[0]


def only_yours(
    view: Any, public: Any, items: tuple[str, ...] = (), key: str = ""
) -> list[dict[str, str]]:
    """What a side's view holds that the spectator view does not, each as a line the page
    shows: what it is (the items it is in and its key's name: "Place 8 · value", "Ada ·
    counter values in hand") and its value. Of an object the spectators lack altogether (a
    side's secret word), its plain fields are listed, not the lists of objects inside it:
    the page's board shows those."""
    if isinstance(view, Mapping):
        theirs = public if isinstance(public, Mapping) else None
        found: list[dict[str, str]] = []
        for name, value in view.items():
            if name in ("viewer", "side"):
                continue  # who is looking: the page says so already
            if theirs is None and _objects(value):
                continue
            found += only_yours(value, theirs.get(name) if theirs else None, items, str(name))
        return found
    if _objects(view):
        others: list[Any] = public if isinstance(public, list) and len(public) == len(view) else []
        found = []
        for index, mine in enumerate(view):
            label = _item(mine)
            theirs_item = others[index] if others else None
            found += only_yours(mine, theirs_item, (*items, label) if label else items, key)
        return found
    if view == public or view is None:
        return []
    what = " · ".join([*items, key.replace("_", " ")] if key else items) or "value"
    if isinstance(view, bool):
        shown = "yes" if view else "no"
    else:
        shown = ", ".join(map(str, view)) if isinstance(view, list) else str(view)
    return [{"what": what[:1].upper() + what[1:], "value": shown}]


def _objects(value: Any) -> bool:
    return isinstance(value, list) and any(isinstance(item, Mapping) for item in value)


def _item(item: Any) -> str:
    """How an item of a list is called: by its name, or its place or number ('' when it
    has none)."""
    if isinstance(item, Mapping):
        if isinstance(item.get("name"), str):
            return str(item["name"])
        for key in ("place", "number"):
            if isinstance(item.get(key), int | str):
                return f"{key} {item[key]}"
    return ""
