"""A hall's broker network as docs/mosquitto/ gives it, on two real mosquitto processes bridged
over TLS on loopback: every table publishes to the hall's broker, whose bridge sends the
public topics (and nothing else) out to the spectators' broker; nothing comes back. The
bridge section and the spectators' ACL are read from the documentation itself."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.publish import wire
from companion.publish.mosquitto import Mosquitto, find_mosquitto
from companion.publish.publisher import Publisher
from tests.broker.clients import Client

pytestmark = pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed")

DOCS = Path(__file__).resolve().parents[2] / "docs" / "mosquitto"
HALL_PASSWORD = "hall-secret"
SPECTATOR = ("display", "shown-to-all")


def documented_acl() -> str:
    """The ACL the spectators' broker's documentation gives, as lines of a file."""
    text = (DOCS / "internet.conf").read_text(encoding="utf-8")
    acl = text.split("# /etc/mosquitto/acl:", 1)[1]
    return "\n".join(line.removeprefix("#").strip() for line in acl.splitlines() if line.strip())


def documented_bridge(port: int, ca: Path) -> tuple[str, ...]:
    """The bridge section of docs/mosquitto/hall-bridge.conf, pointed at `port` with `ca`
    and the test's password: every other line as documented."""
    lines = []
    for line in (DOCS / "hall-bridge.conf").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        line = re.sub(r"^address .*", f"address 127.0.0.1:{port}", line)
        line = re.sub(r"^bridge_cafile .*", f"bridge_cafile {ca}", line)
        line = re.sub(r"^remote_password .*", f"remote_password {HALL_PASSWORD}", line)
        lines.append(line)
    return tuple(lines)


@pytest.fixture(scope="module")
def hall() -> Iterator[tuple[Mosquitto, Mosquitto]]:
    """(the hall's broker, the spectators'), bridged."""
    with Mosquitto(
        tls=True, acl=documented_acl(), users=(("hall", HALL_PASSWORD), SPECTATOR)
    ) as spectators:
        assert spectators.tls_port is not None and spectators.ca_file is not None
        bridge = documented_bridge(spectators.tls_port, spectators.ca_file)
        with Mosquitto(bridge=bridge) as hall_broker:
            yield hall_broker, spectators


def test_the_public_topics_go_out_and_nothing_else(hall: tuple[Mosquitto, Mosquitto]) -> None:
    hall_broker, spectators = hall
    assert spectators.tls_port is not None and spectators.ca_file is not None
    online = Client("online-page", spectators.tls_port, login=SPECTATOR, trust=spectators.ca_file)
    try:
        online.subscribe("#")
        table = Client("table-7", hall_broker.port)
        try:
            # The bridge may still be connecting: the first public message is retried.
            for attempt in range(50):
                table.publish(f"tabletop/table-7/status/{attempt}", b"x")  # not public
                table.publish("tabletop/table-7/state", b'{"seq": 1}', retain=True)
                got = online.quiet_for(0.2)
                if any(topic == "tabletop/table-7/state" for topic, *_ in got):
                    break
            else:
                pytest.fail("nothing crossed the bridge")
            public = {
                "tabletop/table-7/event": b"{}",
                "tabletop/table-7/clock": b"{}",
                "tabletop/table-7/alert": b"{}",
                "tabletop/table-7/status": b"online",
                "tabletop/tournament/standings/Open": b"{}",
            }
            hidden = {
                "homeassistant/sensor/tabletop_table-7/config": b"{}",
                "tabletop/table-7/remote/moves": b"{}",
                "tabletop/table-7/state/private": b"{}",
            }
            for topic, payload in {**hidden, **public}.items():
                table.publish(topic, payload)
            seen = {topic for topic, *_ in online.quiet_for(1.5)}
            assert set(public) <= seen
            assert not seen & set(hidden), seen & set(hidden)
            assert not any("/status/" in topic for topic in seen)
        finally:
            table.close()
    finally:
        online.close()


def test_nothing_comes_back_into_the_hall(hall: tuple[Mosquitto, Mosquitto]) -> None:
    hall_broker, spectators = hall
    assert spectators.tls_port is not None and spectators.ca_file is not None
    inside = Client("hall-listener", hall_broker.port)
    outside = Client(
        "bridge-impostor",
        spectators.tls_port,
        login=("hall", HALL_PASSWORD),
        trust=spectators.ca_file,
    )
    try:
        inside.subscribe("#")
        inside.quiet_for(0.5)  # whatever was retained in the hall before
        outside.publish("tabletop/table-7/state", b'{"seq": 99}')
        assert not [m for m in inside.quiet_for(1.0) if m[1] == b'{"seq": 99}']
    finally:
        inside.close()
        outside.close()


def test_a_companion_publishes_to_the_hall_and_a_spectator_online_gets_its_state(
    hall: tuple[Mosquitto, Mosquitto],
) -> None:
    """The product's own publisher, unchanged, on the hall's broker: its retained state
    reaches a spectator who connects to the other broker later."""
    hall_broker, spectators = hall
    assert spectators.tls_port is not None and spectators.ca_file is not None
    publisher = Publisher(hall_broker.url, board_id="table-9")
    try:
        assert publisher.wait_connected(10.0)
        state = wire.state_payload(
            board="table-9",
            t=3.0,
            game="toy",
            game_id=1,
            title="",
            seq=3,
            names=["Ada", "Bo"],
            view={"pile": 3},
            clock=None,
            last=None,
        )
        publisher.publish(publisher.topics.message("state", state))
        assert publisher.wait_idle(5.0)
        for _ in range(50):
            late = Client(
                "late-spectator", spectators.tls_port, login=SPECTATOR, trust=spectators.ca_file
            )
            try:
                late.subscribe("tabletop/table-9/state")
                got = late.quiet_for(0.3)
            finally:
                late.close()
            if got:
                break
        assert got and got[0][2], "the retained state, kept retained across the bridge"
    finally:
        publisher.close(timeout=2)
