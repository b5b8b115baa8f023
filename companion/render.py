"""Terminal rendering of game summaries with rich (score tables), and making text from
files or the command line safe to show.

    print(plain(deck.title))                  # control characters shown, not obeyed
    console.print(f"[bold]{safe(name)}[/bold]")   # and rich markup in `name` shown as typed
"""

from __future__ import annotations

import io
import re
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from companion.games.contract import JSON

_COLUMNS = (
    ("places", "Places"),
    ("place_points", "Points"),
    ("counter_points", "Ctrs"),
    ("quadrant_bonus", "Quads"),
    ("capture_points", "+2"),
    ("board_penalty", "-3"),
    ("pattern_points", "Patt"),
    ("total", "Total"),
)


# C0 controls but tab and newline, DEL and the C1 controls: a deck title holding ESC [ 2 J
# would clear the screen it is printed on, and one holding CR would overwrite its own line.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROLS_AND_NEWLINES = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return {0x0A: "\\n", 0x0D: "\\r"}.get(code, f"\\x{code:02x}")


def plain(text: object, *, one_line: bool = False) -> str:
    """`text` for a terminal: every control character but tab and newline (and newline too,
    when `one_line`) written as a visible escape such as \\x1b."""
    pattern = _CONTROLS_AND_NEWLINES if one_line else _CONTROLS
    return pattern.sub(_visible, str(text))


def safe(text: object) -> str:
    """`text` for rich's console.print: control characters as plain() shows them, and rich
    markup ('[/x]', '[bold]') shown as typed instead of read as markup."""
    return escape(plain(text))


def score_table(summary: JSON, title: str = "Score breakdown") -> Table:
    """The per-side breakdown of a MemWars summary, a row per side and one for the board."""
    names: list[str] = summary["sides"]
    scores: dict[str, Any] = summary["scores"]
    table = Table(title=title)
    table.add_column("Side")
    for _, header in _COLUMNS:
        table.add_column(header, justify="right")
    leaders = set(scores.get("leaders", []))
    for row in scores["sides"]:
        name = safe(names[row["side"]])
        if row["side"] in leaders:
            name += " *"
        table.add_row(name, *(str(row[key]) for key, _ in _COLUMNS))
    board = scores["board"]
    board_name = "the board *" if -2 in leaders else "the board"
    table.add_row(board_name, str(board["places"]), "", "", "", "", "", "", str(board["total"]))
    return table


def print_summary(console: Console, summary: JSON) -> None:
    outcome = summary.get("outcome")
    if summary.get("mode") in ("study", "review"):
        review = summary["review"]
        console.print(
            f"Mode: {safe(summary['mode'])}; phase: {safe(summary['phase'])}; "
            f"first pass {review['first_pass_correct']}/{review['first_pass_answers']}"
            f" right; lightning rounds: {review['lightning_rounds']}"
        )
        return
    console.print(score_table(summary))
    if outcome:
        names = summary["sides"]
        winners = [("the board" if w == -2 else safe(names[w])) for w in outcome["winners"]]
        reason = safe(outcome["reason"])
        console.print(f"Winner: {' and '.join(winners) or 'nobody'} ({reason}).")
    else:
        console.print(f"The game is not over (phase: {safe(summary['phase'])}).")


def summary_lines(summary: JSON, width: int = 100) -> tuple[str, ...]:
    """What print_summary prints (or the summary's own `lines`, for a game that gives them),
    as plain text lines at most `width` wide: no colour, no markup, no control characters."""
    if "lines" in summary:
        return tuple(plain(line, one_line=True) for line in summary["lines"])
    out = io.StringIO()
    console = Console(
        file=out, width=max(width, 20), color_system=None, force_terminal=False, highlight=False
    )
    print_summary(console, summary)
    return tuple(line.rstrip() for line in out.getvalue().splitlines())
