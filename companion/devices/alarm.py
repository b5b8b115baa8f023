"""The table's alarm: three short beeps when the referee holds the game over a mismatch.

    alarm = AlertBuzzer(13)          # an active buzzer on BCM 13 (gpiozero)
    alarm.sound()                    # beep beep beep, in the background
    alarm.close()

`TerminalAlarm` is its twin (the terminal bell) for a machine with no buzzer.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from vision.common.closing import Closing

BEEPS = 3
ON_S = 0.12
OFF_S = 0.08


class AlertBuzzer(Closing):
    def __init__(self, pin: int, *, pin_factory: Any = None) -> None:
        from gpiozero import Buzzer  # lazily: `companion` imports on machines without GPIO

        self._buzzer: Any = Buzzer(pin, pin_factory=pin_factory)

    def sound(self) -> None:
        # background=True: the alert is raised on the app's thread, which must not wait.
        self._buzzer.beep(on_time=ON_S, off_time=OFF_S, n=BEEPS, background=True)

    def close(self) -> None:
        if self._buzzer is not None:
            self._buzzer.off()
            self._buzzer.close()
            self._buzzer = None


class TerminalAlarm:
    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = sys.stdout if stream is None else stream

    def sound(self) -> None:
        self._stream.write("\a")
        self._stream.flush()

    def close(self) -> None:
        pass
