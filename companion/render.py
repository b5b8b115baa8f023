"""Terminal rendering of game summaries with rich (score tables)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
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
        name = names[row["side"]]
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
            f"Mode: {summary['mode']}; phase: {summary['phase']}; "
            f"first pass {review['first_pass_correct']}/{review['first_pass_answers']}"
            f" right; lightning rounds: {review['lightning_rounds']}"
        )
        return
    console.print(score_table(summary))
    if outcome:
        names = summary["sides"]
        winners = [("the board" if w == -2 else names[w]) for w in outcome["winners"]]
        console.print(f"Winner: {' and '.join(winners) or 'nobody'} ({outcome['reason']}).")
    else:
        console.print(f"The game is not over (phase: {summary['phase']}).")
