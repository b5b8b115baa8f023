"""The buzzer's logic, pure: a beep's start and end. The sound itself is given: an object
with `tone(hz)` and `quiet()` (hw.PwmBuzzer on the Pico, a recorder in the tests).

    beeper = Beeper(hw_buzzer)
    beeper.beep(120, 2000, now_us)    # sounds now
    beeper.update(now_us)             # call often; silences it once the 120 ms are over

A new beep replaces one still sounding; a beep of 0 ms stops it.
"""

DEFAULT_HZ = 2000


class Beeper:
    def __init__(self, output, default_hz=DEFAULT_HZ):
        self._output = output
        self.default_hz = default_hz
        self._until = None
        output.quiet()

    @property
    def sounding(self):
        return self._until is not None

    def beep(self, duration_ms, frequency_hz=0, now_us=0):
        if duration_ms <= 0:
            self.stop()
            return
        self._output.tone(frequency_hz or self.default_hz)
        self._until = now_us + duration_ms * 1000

    def update(self, now_us):
        if self._until is not None and now_us >= self._until:
            self.stop()

    def stop(self):
        self._until = None
        self._output.quiet()
