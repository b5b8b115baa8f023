"""hardware/wiring.md against companion/config.py: the pin map's defaults are the
configuration's, no pin is used twice, none on the UART, and the diagram is valid SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from companion.config import PinsConfig

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
# BCM GPIO -> physical header pin on the 40-pin header.
HEADER = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19,
    9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35,
    16: 36, 26: 37, 20: 38, 21: 40,
}  # fmt: skip


def _rows() -> list[tuple[int, int, str]]:
    text = (HARDWARE / "wiring.md").read_text(encoding="utf-8")
    rows = []
    for match in re.finditer(r"^\| (\d+) \| (\d+) \| [^|]+ \| ([^|]+) \|$", text, re.M):
        rows.append((int(match.group(1)), int(match.group(2)), match.group(3)))
    return rows


def test_the_pin_map_matches_the_configuration() -> None:
    pins = PinsConfig()
    rows = _rows()
    by_gpio = {gpio: part for gpio, _, part in rows}
    expected = {
        pins.players[0]: "players[0]",
        pins.players[1]: "players[1]",
        pins.pause: "`pause`",
        pins.leds[0]: "leds[0]",
        pins.leds[1]: "leds[1]",
        pins.buzzer: "`buzzer`",
    }
    for gpio, key in expected.items():
        assert key in by_gpio[gpio], (gpio, key)
    for gpio, header, _ in rows:
        assert HEADER[gpio] == header, gpio
    clock = [gpio for gpio, _, part in rows if "`" in part]
    assert len(clock) == len(set(clock)) == 6
    assert not {14, 15} & set(clock)  # the UART stays for the card reader


def test_the_diagram_is_svg_and_linked() -> None:
    root = ET.parse(HARDWARE / "wiring.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "(wiring.svg)" in (HARDWARE / "wiring.md").read_text(encoding="utf-8")
    text = " ".join(root.itertext())
    for label in ("Player 0 button", "Player 1 LED", "Buzzer", "GPIO17", "GPIO13"):
        assert label in text
