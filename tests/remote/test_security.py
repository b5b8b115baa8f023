"""Remote play behind TLS, passwords and the ACL docs/remote-play.md gives: the two
companions play, and a display, which reads the whole stream, hears none of it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.games import find_plugin
from companion.publish.mosquitto import Mosquitto, find_mosquitto
from tests.remote.conftest import DEADLINE_S, agree, close, connected, play, pump_until, share

pytestmark = pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed")

DOCS = Path(__file__).resolve().parents[2] / "docs"
PARIS = ("companion-paris", "p-secret")
LYON = ("companion-lyon", "l-secret")
DISPLAY = ("display", "shown-to-all")
TABLE = ("table-1", "t-secret")


def documented_acl() -> str:
    """The remote play block of docs/remote-play.md, and the display user of docs/mqtt.md."""
    text = (DOCS / "remote-play.md").read_text(encoding="utf-8")
    block = text.split("# Remote play: game", 1)[1].split("```", 1)[0]
    stream = "user display\ntopic read tabletop/#\nuser table-1\ntopic write tabletop/table-1/#\n"
    return block.split("\n", 1)[1] + "\n" + stream


def test_tls_passwords_and_the_documented_acl(tmp_path: Path) -> None:
    with Mosquitto(tls=True, users=(PARIS, LYON, DISPLAY, TABLE), acl=documented_acl()) as broker:
        assert broker.tls_port is not None and broker.ca_file is not None
        heard: list[str] = []
        subscribed = threading.Event()
        display = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="display")
        display.username_pw_set(*DISPLAY)
        display.on_message = lambda client, userdata, message: heard.append(message.topic)
        display.on_subscribe = lambda *args: subscribed.set()
        display.connect("127.0.0.1", broker.port)
        display.loop_start()
        display.subscribe("#", qos=1)
        assert subscribed.wait(DEADLINE_S)
        ca = str(broker.ca_file)
        host, guest = share(
            tmp_path,
            f"mqtts://127.0.0.1:{broker.tls_port}",
            "mem",
            find_plugin("mem").example_setups()[1],
            match="ada-basil",
            host_login={"username": PARIS[0], "password": PARIS[1], "ca_file": ca},
            guest_login={"username": LYON[0], "password": LYON[1], "ca_file": ca},
        )
        try:
            pump_until((host, guest), connected(host, guest))
            play(host, guest, lambda: host.referee.is_over and guest.referee.is_over)
            pump_until((host, guest), agree(host, guest))
            game_id = host.referee.game_id
            assert host.store.head(game_id) == guest.store.head(game_id)
            # The display hears the stream: a table's state comes through, and nothing else.
            table = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="table-1")
            table.username_pw_set(*TABLE)
            table.connect("127.0.0.1", broker.port)
            table.loop_start()
            table.publish("tabletop/table-1/state", b"{}", qos=1).wait_for_publish(DEADLINE_S)
            table.disconnect()
            table.loop_stop()
            deadline = time.monotonic() + DEADLINE_S
            while not heard and time.monotonic() < deadline:
                time.sleep(0.01)
        finally:
            close(host, guest)
            display.disconnect()
            display.loop_stop()
        assert heard == ["tabletop/table-1/state"]
