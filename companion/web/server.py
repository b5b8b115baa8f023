"""Serves the display page, the OBS overlay and the tournament wall: static files,
/config.json, and each game's own files for the pages, with the standard library only.

    server, thread = serve("127.0.0.1", 8080, DisplayConfig(broker="ws://127.0.0.1:9001"))
    server.url                  # 'http://127.0.0.1:8080/'
    ...
    server.shutdown(); server.server_close()

The pages talk MQTT over WebSockets to the broker themselves; this server only hands them
their files and where the broker is. The pages name no game: /games.json lists the games and
the module each brings (`GamePlugin.page`), served from /games/<name>/ out of the game's own
package (its web/ folder). See docs/display.md.

Each side of the game in play has a private page at /side/<token>
(companion/table/private_pages.py): /side/<token>/view.json is that side's view, and a POST
of an action to /side/<token>/action plays it for that side; any other token is not found.

A request is answered only when its Host names this machine (or one of the extra names the
server is given): a page on another site whose name has been pointed at this machine (DNS
rebinding) cannot read /config.json. A client that sends nothing for REQUEST_TIMEOUT_S is
dropped.
"""

from __future__ import annotations

import inspect
import json
import socket
import threading
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from companion.games import find_plugin, plugin_names
from companion.lan import is_this_machine, lan_address
from companion.table.private_pages import PrivateDesk

STATIC_DIR = Path(__file__).resolve().with_name("static")
DEFAULT_PREFIX = "tabletop"
DEFAULT_BOARD = "table-1"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
REQUEST_TIMEOUT_S = 10.0
WAIT_S = 15.0
"""How long a private page's request for its next view is held open, waiting for a move."""

ROUTES = {"/": "index.html", "/wall": "wall.html", "/wall/": "wall.html"}
GAMES_PATH = "/games/"
REPLAYS_PATH = "/replays/"
SIDE_PATH = "/side/"
SIDE_PAGE = "side.html"
MAX_ACTION_BYTES = 4096
"""An action is a few fields: a phone that sends more is not sending an action."""
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
}


@dataclass(frozen=True)
class DisplayConfig:
    """What /config.json tells the pages; each page's query can override broker and board."""

    broker: str = ""
    """The broker's MQTT-over-WebSockets URL (ws:// or wss://); empty means the page's own
    host on port 9001."""
    prefix: str = DEFAULT_PREFIX
    board: str = DEFAULT_BOARD
    username: str | None = None
    password: str | None = None
    """Given to every page that asks: use a broker user that may only read the stream."""

    def problems(self) -> list[str]:
        """What is wrong with these settings, one sentence each; empty when all is well."""
        found = []
        if self.broker and not self.broker.startswith(("ws://", "wss://")):
            found.append(f"the broker must be a ws:// or wss:// URL, not {self.broker!r}")
        if "" in self.prefix.split("/") or any(c in self.prefix for c in "+#"):
            found.append(
                f"the prefix {self.prefix!r} is not a topic prefix (levels split by /, no + or #)"
            )
        if not self.board or any(c in self.board for c in "/+#"):
            found.append(f"the board id {self.board!r} may not be empty or hold /, + or #")
        if self.password is not None and self.username is None:
            found.append("a password needs a username")
        return found

    def for_page(self) -> dict[str, Any]:
        page: dict[str, Any] = {"broker": self.broker, "prefix": self.prefix, "board": self.board}
        if self.username is not None:
            page["username"] = self.username
        if self.password is not None:
            page["password"] = self.password
        return page


def games_for_pages() -> dict[str, Any]:
    """/games.json: each registered game's title and the URL of its own module for the pages,
    relative to them (null for a game the pages draw from the shapes it sends). In the
    registry's order, the flagship first: the pages draw its empty board while no game has
    come."""
    games: dict[str, Any] = {}
    for name in plugin_names():
        plugin = find_plugin(name)
        page = f"{GAMES_PATH.lstrip('/')}{name}/{plugin.page}" if plugin.page else None
        games[name] = {"title": plugin.title, "page": page}
    return games


def game_folders() -> dict[str, Path]:
    """Each registered game with a module for the pages: its package's web/ folder, whose
    files are served under /games/<name>/."""
    folders = {}
    for name in plugin_names():
        plugin = find_plugin(name)
        if plugin.page is not None:
            package = Path(inspect.getfile(type(plugin))).resolve().parent
            folders[name] = package / "web"
    return folders


class DisplayServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        config: DisplayConfig,
        static_dir: Path = STATIC_DIR,
        *,
        names: frozenset[str] = frozenset(),
        store: Path | None = None,
        private: PrivateDesk | None = None,
    ) -> None:
        """`names`: more host names the page may be opened by (a name the router's DNS
        gives this machine, say), besides this machine's own names and addresses. `store`:
        the games store whose games the pages may step through (/replays.json). `private`:
        the sides' private pages of the game in play."""
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.config = config
        self.names = frozenset(name.lower() for name in names)
        self.static_dir = static_dir.resolve()
        self.games_json = json.dumps(games_for_pages()).encode()
        self.game_folders = game_folders()
        self.store = store
        self.private = private
        super().__init__(address, _Handler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        host = str(self.server_address[0])
        if host in ("0.0.0.0", "::", ""):
            # Every interface: the address other devices on the network can open.
            host = lan_address() or socket.gethostname()
        elif ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that goes away mid-answer is no error worth a traceback."""


class _Handler(BaseHTTPRequestHandler):
    server: DisplayServer
    server_version = "companion-display"
    timeout = REQUEST_TIMEOUT_S

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def _answer(self, *, send_body: bool) -> None:
        if not self._meant_for_us():
            self.send_error(HTTPStatus.MISDIRECTED_REQUEST, "not a name of this display")
            return
        path = unquote(urlsplit(self.path).path)
        if path == "/config.json":
            body = json.dumps(self.server.config.for_page()).encode()
            content_type = CONTENT_TYPES[".json"]
        elif path == "/games.json":
            body = self.server.games_json
            content_type = CONTENT_TYPES[".json"]
        elif path == "/replays.json" or path.startswith(REPLAYS_PATH):
            answer = self._replays(path)
            if isinstance(answer, HTTPStatus):
                self.send_error(answer)
                return
            body, content_type = answer, CONTENT_TYPES[".json"]
        elif path.startswith(SIDE_PATH):
            side = self._side_page(path)
            if isinstance(side, HTTPStatus):
                self.send_error(side)
                return
            body, content_type = side
        else:
            file = self._file(path)
            if file is None:
                self.send_error(HTTPStatus.NOT_FOUND)
                return
            body = file.read_bytes()
            content_type = CONTENT_TYPES[file.suffix]
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def _replays(self, path: str) -> bytes | HTTPStatus:
        """/replays.json: the stored games; /replays/<id>.json: one game, a state payload
        after each action (companion/publish/replays.py)."""
        from companion.errors import UserError
        from companion.publish.replays import replay_frames, stored_games
        from companion.store import Store

        store_path = self.server.store
        if store_path is None or not store_path.is_file():
            return HTTPStatus.NOT_FOUND
        game_id: int | None = None
        if path != "/replays.json":
            name = path.removeprefix(REPLAYS_PATH)
            if not (name.endswith(".json") and name[:-5].isdigit() and len(name) < 16):
                return HTTPStatus.NOT_FOUND
            game_id = int(name[:-5])
        try:
            with Store.open(store_path) as store:
                if game_id is None:
                    return json.dumps(stored_games(store)).encode()
                board = self.server.config.board
                return json.dumps(replay_frames(store, game_id, board=board)).encode()
        except UserError:
            # No such game, or one the store will not vouch for: nothing to step through.
            return HTTPStatus.NOT_FOUND

    def _side_page(self, path: str) -> tuple[bytes, str] | HTTPStatus:
        """/side/<token>: the side's page; /side/<token>/view.json[?after=SEQ]: its view,
        waiting for the next move past SEQ."""
        desk = self.server.private
        token, _, rest = path.removeprefix(SIDE_PATH).partition("/")
        if desk is None or not desk.known(token):
            return HTTPStatus.NOT_FOUND
        if rest == "":
            file = file_inside(self.server.static_dir, SIDE_PAGE)
            return (
                HTTPStatus.NOT_FOUND
                if file is None
                else (file.read_bytes(), CONTENT_TYPES[".html"])
            )
        if rest != "view.json":
            return HTTPStatus.NOT_FOUND
        query = parse_qs(urlsplit(self.path).query)
        after = query.get("after", [""])[0]
        seq = int(after) if after.isdigit() and len(after) < 12 else None
        page = desk.page(token, after=seq, wait=WAIT_S if seq is not None else 0.0)
        if page is None:
            return HTTPStatus.NOT_FOUND
        return json.dumps(page).encode(), CONTENT_TYPES[".json"]

    def do_POST(self) -> None:
        """A side's action from its private page."""
        length = self.headers.get("Content-Length", "")
        if not length.isdigit() or int(length) > MAX_ACTION_BYTES:
            self.close_connection = True
            self.send_error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
            return
        # Read whole before any answer, so that the client hears the answer.
        body = self.rfile.read(int(length))
        if not self._meant_for_us() or not self._same_origin():
            self.send_error(HTTPStatus.FORBIDDEN, "not from this display's own page")
            return
        path = unquote(urlsplit(self.path).path)
        token, _, rest = path.removeprefix(SIDE_PATH).partition("/")
        desk = self.server.private
        if not path.startswith(SIDE_PATH) or rest != "action" or desk is None:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        if not desk.known(token):
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict):
            problem: str | None = "an action is a JSON object"
        else:
            problem = desk.submit(token, data)
        answer = json.dumps({"ok": problem is None, "problem": problem}).encode()
        self.send_response(HTTPStatus.OK if problem is None else HTTPStatus.CONFLICT)
        self.send_header("Content-Type", CONTENT_TYPES[".json"])
        self.send_header("Content-Length", str(len(answer)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(answer)

    def _same_origin(self) -> bool:
        """A POST from a page of this display (or a client that sends no Origin: a script
        that holds the token)."""
        origin = self.headers.get("Origin")
        if origin is None:
            return True
        return host_of(urlsplit(origin).netloc) == host_of(self.headers.get("Host", ""))

    def _meant_for_us(self) -> bool:
        host = host_of(self.headers.get("Host", ""))
        return host.lower() in self.server.names or is_this_machine(host)

    def _file(self, path: str) -> Path | None:
        """The file a path names: a page or a static file, or a file of a registered game's
        own (/games/<name>/<file>)."""
        if path.startswith(GAMES_PATH):
            name, _, rest = path.removeprefix(GAMES_PATH).partition("/")
            folder = self.server.game_folders.get(name)
            return None if folder is None else file_inside(folder, rest)
        return file_inside(self.server.static_dir, ROUTES.get(path, path.lstrip("/")))

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a display is not a web server's access log."""


def file_inside(folder: Path, name: str) -> Path | None:
    """The file `name` (parts split by /) inside `folder`, of a type the pages use; None for
    anything else: a missing file, a hidden one, or a name that climbs out of the folder."""
    parts = name.split("/")
    if not name or any(not part or part.startswith(".") for part in parts):
        return None
    folder = folder.resolve()
    file = (folder / name).resolve()
    if not file.is_relative_to(folder) or not file.is_file():
        return None
    return file if file.suffix in CONTENT_TYPES else None


def host_of(header: str) -> str:
    """The host of a Host header or an Origin's authority: 'pi.local:8080' -> 'pi.local',
    '[::1]:8080' -> '::1'."""
    header = header.strip()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else ""
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def serve(
    host: str,
    port: int,
    config: DisplayConfig,
    *,
    names: frozenset[str] = frozenset(),
    store: Path | None = None,
    private: PrivateDesk | None = None,
) -> tuple[DisplayServer, threading.Thread]:
    """Starts serving in a daemon thread; raises OSError when it cannot listen. Port 0 picks
    a free port (server.port says which). Stop with server.shutdown(); server.server_close()."""
    server = DisplayServer((host, port), config, names=names, store=store, private=private)
    thread = threading.Thread(target=server.serve_forever, name="companion-display", daemon=True)
    thread.start()
    return server, thread
