"""The hub at work: hears every table's result over MQTT, records it, and publishes the
standings, the pairings and each table's assignment, retained (docs/tournament.md).

    hub = Hub.from_config(config.broker, store, url=None)
    hub.run(stopping)                    # until stopping is set (Ctrl-C, SIGTERM)
    hub.close()

Two connections to the broker: the publisher's (companion/publish/publisher.py, as the
hub's id: queueing, reconnection, the retained messages sent again on every connection, an
`online`/`offline` status on `<prefix>/<hub>/hub/status`) and a listener's, subscribed to
`<prefix>/+/result`. Messages heard are handled on the thread that runs the hub, the only
one that uses the event store: everything heard so far at once (up to BATCH messages), its
results recorded in one transaction of the event file, then what changed published once.
Another command writing the event file meanwhile (`pair`, a `result` typed at the desk) is
noticed within a second, and what it changed is published. Only topics whose content
changed are published again; the publisher sends the last message of every topic again on
every connection to the broker.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Sequence

from companion.config import BrokerConfig
from companion.errors import UserError
from companion.publish.listener import Listener
from companion.publish.publisher import (
    Publisher,
)
from companion.publish.wire import HubTopics, WireError, encode
from companion.store import utc_now
from companion.tournament.event_store import EventStore, EventStoreError
from companion.tournament.matching import Ignored, TableResult, match
from companion.tournament.messages import all_payloads
from companion.tournament.model import Pairing, names_listed
from vision.common.closing import Closing

log = logging.getLogger(__name__)

POLL_S = 0.5
"""How often the hub looks at the event file for another command's changes."""
BATCH = 1000
"""Messages heard recorded in one transaction, at most."""


class ResultListener(Closing):
    """A subscriber to every table's result (companion/publish/listener.py); what it hears
    waits in `heard`, for the hub's thread. A clean session: its subscription is made
    again on every connection, and the retained results come again with it (those already
    recorded are ignored)."""

    def __init__(
        self,
        url: str,
        *,
        topics: HubTopics,
        username: str = "",
        password: str = "",
        ca_file: str = "",
        cert_file: str = "",
        key_file: str = "",
    ) -> None:
        self.topics = topics
        self.heard: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self._listener = Listener.start(
            url,
            [topics.results],
            lambda topic, payload: self.heard.put((topic, bytes(payload))),
            username=username,
            password=password,
            ca_file=ca_file,
            cert_file=cert_file,
            key_file=key_file,
            name=f"{topics.hub}-listener",
        )
        self.address = self._listener.address
        self.subscribed = self._listener.subscribed

    def close(self) -> None:
        self._listener.close()


class Hub(Closing):
    def __init__(
        self, store: EventStore, publisher: Publisher, listener: ResultListener, prefix: str
    ) -> None:
        self.store = store
        self.publisher = publisher
        self.listener = listener
        self.prefix = prefix
        self.recorded = 0
        """Results recorded since the hub started."""
        self._version = -1
        self._published: dict[str, bytes] = {}
        """What the hub last published on each topic, its `updated` time aside."""

    @classmethod
    def from_config(cls, broker: BrokerConfig, store: EventStore, *, url: str | None = None) -> Hub:
        address = url or broker.url
        if not address:
            raise UserError(
                "the hub needs the broker the tables publish to: set [broker] url in the "
                "configuration, or give --broker URL"
            )
        event = store.event()
        topics = HubTopics(broker.prefix, event.hub)
        publisher = Publisher(
            address,
            board_id=event.hub,
            prefix=broker.prefix,
            **broker.login(),
            status_topic=topics.status,
        )
        try:
            listener = ResultListener(
                address,
                topics=topics,
                **broker.login(),
            )
        except BaseException:
            publisher.close()
            raise
        return cls(store, publisher, listener, broker.prefix)

    def publish_all(self) -> None:
        """Publishes the event as it stands in the file: every topic whose content differs
        from what the hub last published on it. A topic's `updated` time is when its
        content changed, and an unchanged topic is not sent again: the publisher keeps the
        last message of every topic and sends them all again on every connection."""
        self._version = self.store.data_version()
        event = self.store.event()
        topics = HubTopics(self.prefix, event.hub)
        now = utc_now()
        for kind, name, payload in all_payloads(event, now):
            topic = topics.topic(kind, name)
            content = encode({**payload, "updated": None})
            if self._published.get(topic) != content:
                self._published[topic] = content
                self.publisher.publish(topics.message(kind, name, payload))

    def handle(self, topic: str, payload: bytes) -> bool:
        """Records the result in a message if it belongs to a pairing, and publishes what
        changed; True if it did. Every other message is logged in one line at info, and
        ignored."""
        if not self.record([(topic, payload)]):
            return False
        self.publish_all()
        return True

    def record(self, heard: Sequence[tuple[str, bytes]]) -> int:
        """Records the results among the messages `heard` that belong to a pairing, in
        order, in one transaction of the event file; how many it recorded. Each is matched
        against the file as it stands then (another command's writes included) and the
        results before it. Every other message is logged in one line at info, and ignored.
        A result is said recorded (a line at info) once the transaction is on disk."""
        results: list[tuple[str, TableResult]] = []
        for topic, payload in heard:
            if not payload:
                continue  # a retained result cleared
            try:
                results.append((topic, TableResult.parse(payload)))
            except WireError as err:
                log.info("%s: not a result (%s); ignored", topic, err)
        if not results:
            return 0
        recorded: list[tuple[TableResult, Pairing]] = []
        try:
            with self.store.batch("cannot record the results heard"):
                event = self.store.event()
                for _, result in results:
                    decision = match(event, result)
                    if isinstance(decision, Ignored):
                        log.info("%s", decision.reason)
                        continue
                    pairing = decision.pairing
                    try:
                        kept = self.store.add_result(
                            pairing.id,
                            decision.outcome,
                            source="table",
                            record_hash=result.record_hash,
                            game_id=result.game_id,
                        )
                    except EventStoreError as err:
                        log.info("board %s: %s; result ignored", result.board, err.message)
                        continue
                    event = event.with_result(pairing.id, kept)
                    recorded.append((result, pairing))
        except EventStoreError as err:
            log.warning("%s; %d result(s) not recorded", err, len(recorded))
            return 0
        for result, pairing in recorded:
            log.info(
                "board %s: round %d of %s, %s: result recorded (game %d)",
                result.board,
                pairing.round,
                pairing.division,
                names_listed(pairing.seats),
                result.game_id,
            )
        self.recorded += len(recorded)
        return len(recorded)

    def _drain(self, timeout: float) -> list[tuple[str, bytes]]:
        """What the listener has heard: everything waiting (at most BATCH), or else the
        first message heard within `timeout`; nothing if none came."""
        try:
            heard = [self.listener.heard.get(timeout=timeout)]
        except queue.Empty:
            return []
        while len(heard) < BATCH:
            try:
                heard.append(self.listener.heard.get_nowait())
            except queue.Empty:
                break
        return heard

    def step(self, timeout: float = POLL_S) -> None:
        """Records the results heard (waiting up to `timeout` for one), then publishes what
        changed, once, if any was recorded or another command changed the event file."""
        recorded = self.record(self._drain(timeout))
        if recorded or self.store.data_version() != self._version:
            self.publish_all()

    def run(self, stopping: threading.Event) -> None:
        self.publish_all()
        while not stopping.is_set():
            self.step()

    def close(self) -> None:
        self.listener.close()
        self.publisher.close()
