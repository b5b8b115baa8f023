"""The LEDs' logic, pure: modes in, levels out. The outputs are given (machine.Pin.value
on the Pico, a list in the tests).

    bank = LedBank([pin6.value, pin7.value])
    bank.set(0, BLINK, 500, now_us)   # LED 0 blinks: 250 ms on, 250 ms off
    bank.update(now_us)               # call often; writes a pin only when its level changes

Every blinking LED with the same period blinks in step (the phase counts from uptime 0),
so two players' LEDs never flicker against each other.
"""

OFF = 0
ON = 1
BLINK = 2
ALL = 0xFF
DEFAULT_PERIOD_MS = 500


class LedBank:
    def __init__(self, outputs, default_period_ms=DEFAULT_PERIOD_MS):
        self._outputs = list(outputs)
        self.default_period_ms = default_period_ms
        self.modes = [OFF] * len(self._outputs)
        self.periods_ms = [default_period_ms] * len(self._outputs)
        self._levels = [None] * len(self._outputs)
        self.update(0)

    def __len__(self):
        return len(self._outputs)

    def set(self, index, mode, period_ms=0, now_us=0):
        """LED `index` (or ALL) to OFF, ON or BLINK; period_ms 0 is the default."""
        if mode not in (OFF, ON, BLINK):
            raise ValueError("LED mode must be OFF, ON or BLINK")
        indexes = range(len(self._outputs)) if index == ALL else [index]
        for i in indexes:
            if not 0 <= i < len(self._outputs):
                raise ValueError("no LED " + str(i))
            self.modes[i] = mode
            self.periods_ms[i] = period_ms or self.default_period_ms
        self.update(now_us)

    def off(self):
        self.set(ALL, OFF)

    def level(self, index, now_us):
        mode = self.modes[index]
        if mode == BLINK:
            half_us = self.periods_ms[index] * 500
            return 1 if (now_us // half_us) % 2 == 0 else 0
        return 1 if mode == ON else 0

    def update(self, now_us):
        for index, output in enumerate(self._outputs):
            level = self.level(index, now_us)
            if level != self._levels[index]:
                self._levels[index] = level
                output(level)
