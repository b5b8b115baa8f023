"""`companion doctor`: the check a user runs on their Pi after installing. Each part of the
table is tried the way the game will use it (the camera opens and sees the board's
markers, the reader answers, each button is pressed once, the LEDs light and the buzzer
beeps, the voice renders, the broker carries a message, the display page answers) and said
in one line: PASS, FAIL with what to do, or SKIP.

    report.py    the results and how they are printed (pure)
    checks.py    the checks, each taking its devices through devices.py's small interfaces
    devices.py   the real devices behind those interfaces
    twins.py     their simulated twins (`--simulate`), where tests also break one part
"""
