"""A bounded first-in-first-out queue that drops its oldest item when full, and counts what
it dropped. Pure: no hardware imports; allocation-free once made (a ring of slots).

    q = EventQueue(3)
    q.push("a"); q.push("b"); q.push("c"); q.push("d")   # "a" is dropped
    q.dropped                                            # 1
    q.pop()                                              # "b"

Events wait here while the host is not reading (USB not open, or slow). When it comes
back, the newest events matter most (the card on the reader now, the last presses), and
the count of dropped ones goes out in every heartbeat so the host knows some are missing.
"""


class EventQueue:
    def __init__(self, capacity=32):
        if capacity < 1:
            raise ValueError("an event queue holds at least one event")
        self.capacity = capacity
        self.dropped = 0
        """Items pushed out by newer ones since the queue was made (never reset by clear)."""
        self._slots = [None] * capacity
        self._head = 0
        self._size = 0

    def __len__(self):
        return self._size

    def push(self, item):
        """Adds `item` (not None) at the back; False if the oldest item had to go for it."""
        if item is None:
            raise ValueError("None cannot be queued")
        tail = (self._head + self._size) % self.capacity
        self._slots[tail] = item
        if self._size < self.capacity:
            self._size += 1
            return True
        self._head = (self._head + 1) % self.capacity
        self.dropped += 1
        return False

    def peek(self):
        """The oldest item, left in place; None when empty."""
        return self._slots[self._head] if self._size else None

    def pop(self):
        """Removes and returns the oldest item; None when empty."""
        if not self._size:
            return None
        item = self._slots[self._head]
        self._slots[self._head] = None
        self._head = (self._head + 1) % self.capacity
        self._size -= 1
        return item

    def clear(self):
        for index in range(self.capacity):
            self._slots[index] = None
        self._head = 0
        self._size = 0
