"""Cards the camera reads, as the events an RFID reader gives: one CardPresented when a card
appears, one CardRemoved when it has not been read for a while.

    presence = CardPresence()
    for frame in source:
        sightings = reader.read(frame.image, region=deck_corners)
        for event in presence.update((s.tag for s in sightings), frame.t_ns):
            desk.scanned(event) if event.kind == "presented" else ...

Each card has its own PresenceTracker (presence.py), the logic
every RFID reader uses, since a camera, unlike a reader's antenna, may see two cards at
once. And a camera never learns that a card has gone, only that this frame did not read it
(a hand over it, glare, a blurred frame): a card is removed only after a silence, a longer
one than an RFID reader's.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.devices.cardreader.events import CardEvent, NoTag, TagSeen
from companion.devices.cardreader.presence import PresenceTracker

CAMERA_READER = "camera"
CAMERA_SILENCE_NS = 1_000_000_000
"""A card unread for this long is taken away: several frames at any usual rate, so that a
few frames that miss it do not make it leave and come back."""


class CardPresence:
    def __init__(self, silence_ns: int = CAMERA_SILENCE_NS, reader: str = CAMERA_READER) -> None:
        if silence_ns <= 0:
            raise ValueError("the silence before a removal must be more than 0")
        self.silence_ns = silence_ns
        self.reader = reader
        self._trackers: dict[str, PresenceTracker] = {}

    @property
    def present(self) -> tuple[str, ...]:
        """The tags of the cards present now, sorted."""
        return tuple(sorted(self._trackers))

    def update(self, tags: Iterable[str], t_ns: int) -> list[CardEvent]:
        """The events after a frame taken at `t_ns` read `tags` (none, for a frame that read
        no card): removals of cards unread for the silence first, then new cards, each in
        tag order."""
        seen = sorted(set(tags))
        events = self.tick(t_ns)
        for tag in seen:
            tracker = self._trackers.get(tag)
            if tracker is None:
                tracker = self._trackers[tag] = PresenceTracker(self.reader, self.silence_ns)
            events += tracker.observe(TagSeen(tag, t_ns))
        return events

    def tick(self, t_ns: int) -> list[CardEvent]:
        """Removes the cards unread for the silence by `t_ns`, without a frame."""
        events: list[CardEvent] = []
        for tag in sorted(self._trackers):
            tracker = self._trackers[tag]
            events += tracker.tick(t_ns)
            if tracker.current is None:
                del self._trackers[tag]
        return events

    def remove_all(self) -> list[CardEvent]:
        """Removes every card now (the camera was lost: nothing it saw can be vouched for),
        each dated when it was last read."""
        events: list[CardEvent] = []
        for tag in sorted(self._trackers):
            tracker = self._trackers.pop(tag)
            events += tracker.observe(NoTag(tracker.last_seen))
        return events
