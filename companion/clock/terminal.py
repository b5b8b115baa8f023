"""The clock on a terminal: large digits per player with rich, a line of state under each.

console.print(clock_panel(display, ["Ada", "Bo"]))
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from companion.clock.display import ClockDisplay, PlayerDisplay

# Five rows per character, drawn with full blocks; 3 columns wide (1 for ':' and '.').
_FONT = {
    "0": ["███", "█ █", "█ █", "█ █", "███"],
    "1": ["  █", "  █", "  █", "  █", "  █"],
    "2": ["███", "  █", "███", "█  ", "███"],
    "3": ["███", "  █", "███", "  █", "███"],
    "4": ["█ █", "█ █", "███", "  █", "  █"],
    "5": ["███", "█  ", "███", "  █", "███"],
    "6": ["███", "█  ", "███", "█ █", "███"],
    "7": ["███", "  █", "  █", "  █", "  █"],
    "8": ["███", "█ █", "███", "█ █", "███"],
    "9": ["███", "█ █", "███", "  █", "███"],
    ":": [" ", "█", " ", "█", " "],
    ".": [" ", " ", " ", " ", "█"],
}


def big_digits(text: str) -> list[str]:
    """Five lines that draw `text` (digits, ':' and '.') in block letters."""
    rows = ["", "", "", "", ""]
    for char in text:
        glyph = _FONT.get(char, [" "] * 5)
        for i in range(5):
            rows[i] += glyph[i] + " "
    return [row.rstrip() for row in rows]


def _style(player: PlayerDisplay) -> str:
    if player.flagged:
        return "bold white on red"
    if player.delay_ns:
        return "bold cyan"  # the delay runs: the time shown is not counting down yet
    if player.warning and player.running:
        return "bold yellow"
    if player.running:
        return "bold green"
    return "dim"


def player_panel(player: PlayerDisplay, name: str, *, big: bool = True) -> Panel:
    style = _style(player)
    digits = "\n".join(big_digits(player.text)) if big else player.text
    state = "FLAG" if player.flagged else ("running" if player.running else "waiting")
    line = Text(f"{state} · moves {player.moves}", style="italic")
    if player.detail:
        # A delay counting down stands out: it is what runs now, not the digits above.
        line.append(f" · {player.detail}", style="bold cyan" if player.delay_ns else "italic")
    body = Group(Text(digits, style=style), line)
    return Panel(body, title=name, border_style=style, expand=True)


def clock_panel(
    display: ClockDisplay, names: Sequence[str], *, big: bool = True, footer: str = ""
) -> RenderableType:
    grid = Table.grid(expand=True, padding=(0, 1))
    for _ in display.players:
        grid.add_column(ratio=1)
    grid.add_row(*(player_panel(p, names[i], big=big) for i, p in enumerate(display.players)))
    lines: list[RenderableType] = [grid]
    if display.paused:
        lines.append(Text("PAUSED", style="bold reverse"))
    if footer:
        lines.append(Text(footer, style="dim"))
    return Group(*lines)
