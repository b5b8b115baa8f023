"""From reader polls to card arrivals and removals, pure.

    presence = CardPresence(misses=3)
    presence.update(b"\\x04\\xa2...", 1000)   # [(True, uid, 1000)]: arrived
    presence.update(b"\\x04\\xa2...", 51000)  # []: still there
    presence.update(None, 101000)           # []: one missed read is not a removal
    ...                                     # after 3 misses in a row:
    presence.update(None, 201000)           # [(False, uid, 51000)]: removed, last read

A card at the edge of the field, or one being slid, fails a read now and then; only
`misses` failed polls in a row mean it has gone. A different UID means the first card was
swapped for another: its removal, then the arrival. Arrivals are stamped with their first
read, removals with the card's last read (`last_read_us` is also what refreshes carry).
"""


class CardPresence:
    def __init__(self, misses=3):
        if misses < 1:
            raise ValueError("misses must be at least 1")
        self.misses = misses
        self.uid = None
        """The card present now, or None."""
        self.last_read_us = 0
        self._missed = 0

    def update(self, uid, now_us):
        """One poll's result (a UID, or None for no card) at `now_us`: a list of
        (present, uid, stamp_us) events, often empty."""
        events = []
        if uid is not None:
            uid = bytes(uid)
            if self.uid is not None and self.uid != uid:
                events.append((False, self.uid, self.last_read_us))
            if self.uid != uid:
                events.append((True, uid, now_us))
            self.uid = uid
            self.last_read_us = now_us
            self._missed = 0
            return events
        if self.uid is not None:
            self._missed += 1
            if self._missed >= self.misses:
                events.append((False, self.uid, self.last_read_us))
                self.uid = None
                self._missed = 0
        return events

    def forget(self):
        """No card, without a removal event (after a reset of the reader)."""
        self.uid = None
        self._missed = 0
