"""The Pico reader-and-buttons board: MFRC522 card reader, 4 buttons, 4 LEDs and a buzzer,
spoken to over USB serial in the picowire protocol (docs/pico-protocol.md).

MicroPython runs this at power-up. Hold button 0 while plugging the board in to stay at
the REPL instead. Ctrl-C (from mpremote or a terminal) stops it as usual: the protocol
never sends that byte. Any other error is reported to the host as a LOG frame, and the
board restarts a second later.
"""

import time

import hw
import machine
import picowire as wire
from app import App
from mfrc522 import MFRC522


def main():
    board = hw.Board()
    if board.safe_mode():
        print("button 0 held at start: firmware not started, REPL here")
        return
    app = App(
        board.port,
        board.clock,
        reader=MFRC522(board.bus),
        buttons=board.buttons.levels,
        count=len(board.buttons.pins),
        leds=[pin.value for pin in board.led_pins],
        buzzer=board.buzzer,
        reboot=machine.reset,
        status=board.status.value if board.status is not None else None,
    )
    try:
        app.run()
    except KeyboardInterrupt:
        board.quiet()
        raise
    except Exception as err:  # whatever it was: report it and start again
        board.quiet()
        try:  # noqa: SIM105 - MicroPython has no contextlib
            board.port.write(app.session.log(wire.LOG_ERROR, "crashed: " + repr(err)))
        except Exception:
            pass
        time.sleep(1)
        machine.reset()


main()
