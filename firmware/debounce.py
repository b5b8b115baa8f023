"""Button debouncing, pure: level samples in, confirmed edges out. No hardware imports, so
it runs under CPython and the MicroPython unix port as well as on the Pico.

    d = Debouncer()               # released at first
    d.sample(True, 1000)          # None: one sample is not an edge yet
    d.sample(True, 1250)          # (True, 1000): pressed, stamped when the contact moved

The rules, chosen for a game clock (a press must count fast, at the right time, once):

- An edge is confirmed once the new level has been read on `confirm` samples in a row
  (default 2): a spike shorter than the time between two samples is not a press.
- It is stamped with the first sample that left the old level, even if the contact bounced
  back in between, as long as it did not settle back for `confirm` samples: the stamp is
  when the player hit the button, not when the bouncing stopped.
- For `lockout_us` after an edge (20 ms) nothing is reported: that is the contact's
  chatter. Whatever the level is afterwards counts; a tap shorter than the lock-out gives
  its release when the lock-out ends, stamped when the level last changed.

Samples must come in time order, as often as possible (the firmware samples between every
few register reads of the card reader, well under a millisecond apart).
"""

DEFAULT_LOCKOUT_US = 20000
DEFAULT_CONFIRM = 2


class Debouncer:
    def __init__(self, lockout_us=DEFAULT_LOCKOUT_US, confirm=DEFAULT_CONFIRM, pressed=False):
        if lockout_us < 0 or confirm < 1:
            raise ValueError("lockout_us must be >= 0 and confirm >= 1")
        self.lockout_us = lockout_us
        self.confirm = confirm
        self.pressed = bool(pressed)
        """The confirmed level."""
        self._run_level = self.pressed
        self._run_len = 0
        self._run_start = 0
        self._departed = None
        self._locked_until = None

    def sample(self, level, now_us):
        """One reading of the contact (True: pressed) at `now_us`: None, or an edge as
        (pressed, stamp_us)."""
        level = bool(level)
        if level != self._run_level:
            self._run_level = level
            self._run_len = 1
            self._run_start = now_us
        else:
            self._run_len += 1
        if self._locked_until is not None:
            if now_us < self._locked_until:
                return None
            self._locked_until = None
        if level == self.pressed:
            if self._run_len >= self.confirm:
                self._departed = None  # it settled back: that was a glitch
            return None
        if self._departed is None:
            self._departed = self._run_start
        if self._run_len < self.confirm:
            return None
        self.pressed = level
        stamp = self._departed
        self._departed = None
        self._locked_until = now_us + self.lockout_us
        return (level, stamp)
