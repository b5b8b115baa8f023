"""Deciding when a card arrives and leaves, from a stream of sightings.

Readers repeat themselves: an RDM6300 sends the same frame again and again while a card
lies on it, a PN532 answers every poll. One card on the reader must be one
CardPresented, and its removal one CardRemoved after a silence (or at once when the reader
says the field is empty, or another card is seen).

    tracker = PresenceTracker(silence_ns=300_000_000, reader="rdm6300")
    tracker.observe(TagSeen("0A1B2C3D4E", t))   # [CardPresented(...)] the first time
    tracker.tick(t + 400_000_000)               # [CardRemoved(...)] after the silence
"""

from __future__ import annotations

from companion.devices.cardreader.events import (
    CardEvent,
    CardPresented,
    CardRemoved,
    NoTag,
    Observation,
    TagSeen,
)

DEFAULT_SILENCE_NS = 300_000_000


class PresenceTracker:
    def __init__(self, reader: str, silence_ns: int = DEFAULT_SILENCE_NS) -> None:
        if silence_ns <= 0:
            raise ValueError("the silence before a removal must be more than 0")
        self.reader = reader
        self.silence_ns = silence_ns
        self.current: str | None = None
        self.last_seen = 0

    def observe(self, observation: Observation) -> list[CardEvent]:
        if isinstance(observation, TagSeen):
            events: list[CardEvent] = []
            if self.current is not None and self.current != observation.tag:
                events.append(CardRemoved(self.current, self.last_seen, self.reader))
            if self.current != observation.tag:
                events.append(CardPresented(observation.tag, observation.t_ns, self.reader))
            self.current = observation.tag
            self.last_seen = observation.t_ns
            return events
        if isinstance(observation, NoTag) and self.current is not None:
            return self._remove()
        return []

    def tick(self, t_ns: int) -> list[CardEvent]:
        """Removes the card when it has not been seen for the silence."""
        if self.current is not None and t_ns - self.last_seen >= self.silence_ns:
            return self._remove()
        return []

    def _remove(self) -> list[CardEvent]:
        assert self.current is not None
        removed = CardRemoved(self.current, self.last_seen, self.reader)
        self.current = None
        return [removed]
