"""The display server and `companion display`, without a browser."""

from __future__ import annotations

import http.client
import inspect
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.games import find_plugin, plugin_names
from companion.web.server import DisplayConfig, DisplayServer, serve

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def server() -> Iterator[DisplayServer]:
    config = DisplayConfig(
        broker="ws://broker.local:9001", board="table-7", username="display", password="pw"
    )
    running, thread = serve("127.0.0.1", 0, config)
    yield running
    running.shutdown()
    running.server_close()
    thread.join(5)


def get(server: DisplayServer, path: str, method: str = "GET") -> tuple[int, str, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    connection.request(method, path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, response.getheader("Content-Type") or "", body


def test_config_json_tells_the_page_where_the_broker_is(server: DisplayServer) -> None:
    status, kind, body = get(server, "/config.json")
    assert status == 200
    assert kind == "application/json"
    assert json.loads(body) == {
        "broker": "ws://broker.local:9001",
        "prefix": "tabletop",
        "board": "table-7",
        "username": "display",
        "password": "pw",
    }


def test_config_json_leaves_out_credentials_not_given() -> None:
    assert DisplayConfig().for_page() == {"broker": "", "prefix": "tabletop", "board": "table-1"}


@pytest.mark.parametrize(
    ("path", "kind", "marker"),
    [
        ("/", "text/html", b"display.js"),
        ("/?overlay=1&board=x", "text/html", b"display.js"),
        ("/index.html", "text/html", b"display.js"),
        ("/wall", "text/html", b"wall.js"),
        ("/wall?prefix=club", "text/html", b"wall.js"),
        ("/display.js", "text/javascript", b"MqttClient"),
        ("/mqtt-ws.js", "text/javascript", b"PINGREQ"),
        ("/game-board.js", "text/javascript", b"games.json"),
        ("/games/memwars/board.js", "text/javascript", b"lattice"),
        ("/games/mem/page.css", "text/css", b".mem-board"),
        ("/style.css", "text/css", b"overlay"),
        ("/favicon.svg", "image/svg+xml", b"<svg"),
    ],
)
def test_pages_and_their_files_are_served(
    server: DisplayServer, path: str, kind: str, marker: bytes
) -> None:
    status, content_type, body = get(server, path)
    assert status == 200
    assert content_type.startswith(kind)
    assert marker in body


@pytest.mark.parametrize(
    "path",
    ["/nothing", "/../server.py", "/%2e%2e/server.py", "/static/index.html", "/.hidden", "//x"],
)
def test_nothing_else_is_served(server: DisplayServer, path: str) -> None:
    assert get(server, path)[0] == 404


def headers(server: DisplayServer, path: str) -> tuple[int, dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, {name.lower(): value for name, value in response.getheaders()}


def test_games_json_lists_every_game_and_the_module_it_brings(server: DisplayServer) -> None:
    status, kind, body = get(server, "/games.json")
    assert (status, kind) == (200, "application/json")
    games = json.loads(body)
    assert list(games) == plugin_names()  # the flagship first: drawn while no game has come
    for name, game in games.items():
        plugin = find_plugin(name)
        page = f"games/{name}/{plugin.page}" if plugin.page else None
        assert game == {"title": plugin.title, "page": page}
    assert games["memwars"]["page"] == "games/memwars/page.js"
    assert games["memento"]["page"] is None  # drawn from the shapes it sends


GAMES_WITH_A_PAGE = [name for name in plugin_names() if find_plugin(name).page]


@pytest.mark.parametrize("name", GAMES_WITH_A_PAGE)
def test_a_games_page_module_is_served_from_its_package(server: DisplayServer, name: str) -> None:
    plugin = find_plugin(name)
    assert plugin.page is not None
    folder = Path(inspect.getfile(type(plugin))).parent / "web"
    status, kind, body = get(server, f"/games/{name}/{plugin.page}")
    assert (status, kind) == (200, "text/javascript; charset=utf-8")
    assert body == (folder / plugin.page).read_bytes()
    # with the static files' headers: asked again each time, never sniffed
    _, sent = headers(server, f"/games/{name}/{plugin.page}")
    _, static = headers(server, "/display.js")
    for header in ("content-type", "cache-control", "x-content-type-options"):
        assert sent[header] == static[header]
    assert sent["cache-control"] == "no-cache"


@pytest.mark.parametrize(
    "path",
    [
        "/games/chess/page.js",  # no such game
        "/games/memento/page.js",  # drawn from its shapes: it brings no files
        "/games/memwars",
        "/games/memwars/",
        "/games/memwars/nothing.js",
        "/games/memwars/.page.js",
        "/games/memwars//page.js",
        "/games/memwars/web/page.js",
        # out of the game's web/ folder, to files that are there
        "/games/memwars/../../mem/web/page.js",
        "/games/memwars/%2e%2e/%2e%2e/mem/web/page.js",
        "/games/memwars/..%2f..%2fmem%2fweb%2fpage.js",
        "/games/memwars/../../../web/static/common.js",
        "/games/..%2fweb%2fstatic/common.js",
        "/games/memwars/../plugin.py",
    ],
)
def test_nothing_else_of_a_game_is_served(server: DisplayServer, path: str) -> None:
    assert get(server, path)[0] == 404


def test_head_answers_without_a_body(server: DisplayServer) -> None:
    status, kind, body = get(server, "/", method="HEAD")
    assert (status, body) == (200, b"")
    assert kind.startswith("text/html")


def get_as(server: DisplayServer, host: str, path: str = "/config.json") -> tuple[int, bytes]:
    """A request whose Host header names `host`, as a browser sends for the page's address."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    connection.request("GET", path, headers={"Host": host})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


@pytest.mark.parametrize(
    "host",
    ["localhost", "localhost:8080", "127.0.0.1:8080", "[::1]:8080", "LOCALHOST", "table.local"],
)
def test_the_page_answers_to_this_machines_names(server: DisplayServer, host: str) -> None:
    if host == "table.local":
        server.names = frozenset({"table.local"})  # a name given to the server
    status, body = get_as(server, host)
    assert status == 200 and b"password" in body


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8080", "8.8.8.8", "0.0.0.0:8080", "", "[::1"]
)
def test_a_request_meant_for_another_site_is_refused(server: DisplayServer, host: str) -> None:
    """DNS rebinding: a page of evil.example, its name pointed at this machine, asks for
    /config.json; it must not get the broker login."""
    status, body = get_as(server, host)
    assert status == 421 and b"pw" not in body
    assert get_as(server, host, "/")[0] == 421


def test_a_client_that_sends_nothing_is_dropped(server: DisplayServer) -> None:
    import socket

    from companion.web import server as module

    module._Handler.timeout = 0.5  # the real timeout is seconds; the behaviour is the same
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as idle:
            idle.sendall(b"GET / HTTP/1.1\r\n")  # and then nothing
            assert idle.recv(1024) == b""  # closed by the server, not by our timeout
    finally:
        module._Handler.timeout = module.REQUEST_TIMEOUT_S


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--broker", "mqtt://127.0.0.1:1883"], "ws:// or wss://"),
        (["--board", "table/1"], "board id"),
        (["--board", "table+"], "board id"),
        (["--prefix", "a/#"], "prefix"),
        (["--prefix", "a//b"], "prefix"),
        (["--password", "secret"], "needs a username"),
        (["--port", "70000"], "--port"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["display", *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def test_a_port_in_use_is_one_line_and_exit_2(
    server: DisplayServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["display", "--port", str(server.port)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{server.port}" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_display_command_serves_until_stopped_and_exits_0(
    tmp_path: Path, stop: signal.Signals
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[game]\nboard_id = "table-9"\n\n'
        '[broker]\nurl = "ws://10.0.0.5:9001"\nprefix = "clubs/paris"\n'
        'username = "table-9"\npassword = "the board\'s own"\n'
    )
    env = {**os.environ, "COMPANION_CONFIG": str(config), "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "display", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # Run in the background, the suite may have Ctrl-C ignored, and Python then keeps
        # ignoring it in the child: give the child a terminal's default.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith("Display: http://127.0.0.1:")
        port = int(first.rsplit(":", 1)[1].strip().rstrip("/"))
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/config.json")
        page_config = json.loads(connection.getresponse().read())
        connection.close()
        # the board's broker and prefix, never the board's own credentials
        assert page_config == {
            "broker": "ws://10.0.0.5:9001",
            "prefix": "clubs/paris",
            "board": "table-9",
        }
        time.sleep(0.2)
        process.send_signal(stop)
        assert process.wait(10) == 0
        assert process.stderr is not None
        out, err = first + process.stdout.read(), process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
    assert process.returncode == 0
    assert err == ""
    assert "?overlay=1" in out
    assert "/wall" in out


def test_display_command_hears_sigterm_even_when_started_with_it_blocked(tmp_path: Path) -> None:
    # A signal mask survives fork and exec: a parent that had SIGTERM blocked would
    # otherwise leave the display deaf to it.
    config = tmp_path / "config.toml"
    config.write_text("")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "display", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COMPANION_CONFIG": str(config), "PYTHONPATH": str(ROOT)},
        preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM}),
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("Display: http://127.0.0.1:")
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()
