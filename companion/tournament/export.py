"""An event on paper: standings and results as CSV, and as a PDF report.

`tables(event)` is pure: the rows of each table. `csv_text` and `pdf_bytes` lay them out;
the command writes the files (companion/printing/output.py: atomically, one line on error).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from html import escape

from companion.tournament.messages import game_title
from companion.tournament.model import Event, Result
from companion.tournament.ratings import replay
from companion.tournament.standings import as_number, standings

STANDINGS_COLUMNS = (
    "division",
    "rank",
    "name",
    "points",
    "buchholz",
    "sonneborn_berger",
    "score",
    "played",
    "byes",
    "rating_mu",
    "rating_sigma",
    "rating_ordinal",
    "withdrawn",
)
"""`withdrawn`: the first round a withdrawn player is not paired in; empty while they play."""
RESULTS_COLUMNS = (
    "division",
    "round",
    "board",
    "players",
    "scores",
    "winners",
    "source",
    "game_id",
    "record_hash",
    "recorded",
    "corrected",
    "why",
    "note",
)
"""`scores`, `winners`: the result in force. A result corrected at the desk has the time of
the correction in force, its reason, and a note saying what was first recorded (a table's
record hash stays: the desk overrode the table)."""


@dataclass(frozen=True, slots=True)
class Tables:
    standings: list[tuple[str, ...]]
    results: list[tuple[str, ...]]


def _number(value: float) -> str:
    return f"{value:g}"


def tables(event: Event) -> Tables:
    """Every division's standings, and every game and bye, in the order they were paired."""
    standing_rows: list[tuple[str, ...]] = []
    for division in event.divisions:
        ratings = replay(event.results(division.name), division.players)
        rows = standings(division.players, event.pairings_of(division.name))
        for rank, row in enumerate(rows, start=1):
            rating = ratings[row.name]
            standing_rows.append(
                (
                    division.name,
                    str(rank),
                    row.name,
                    _number(as_number(row.points)),
                    _number(as_number(row.buchholz)),
                    _number(as_number(row.sonneborn_berger)),
                    _number(row.score),
                    str(row.played),
                    str(row.byes),
                    f"{rating.mu:.3f}",
                    f"{rating.sigma:.3f}",
                    f"{rating.ordinal:.3f}",
                    str(division.withdrawn_from(row.name) or ""),
                )
            )
    result_rows: list[tuple[str, ...]] = []
    for p in event.pairings:
        result = p.result
        outcome = result.outcome if result else None
        corrected = result.corrected if result else None
        scores = (
            ""
            if outcome is None or outcome.scores is None
            else " ".join(_number(s) for s in outcome.scores)
        )
        if p.is_bye:
            winners, source = p.seats[0], "bye"
        else:
            winners = "" if outcome is None else " ".join(p.seats[w] for w in outcome.winners)
            source = result.source if result else "waiting"
        result_rows.append(
            (
                p.division,
                str(p.round),
                p.board or "",
                " vs ".join(p.seats),
                scores,
                winners,
                source,
                "" if result is None or result.game_id is None else str(result.game_id),
                "" if result is None or result.record_hash is None else result.record_hash,
                "" if result is None else result.recorded,
                "" if corrected is None else corrected.recorded,
                "" if corrected is None else corrected.why,
                "" if result is None else correction_note(p.seats, result),
            )
        )
    return Tables(standing_rows, result_rows)


def correction_note(seats: tuple[str, ...], result: Result) -> str:
    """What a corrected result was first recorded as, and who changed it; empty for a
    result never corrected."""
    if not result.corrections:
        return ""
    first = result.as_recorded
    won = " ".join(seats[w] for w in first.winners) or "nobody"
    scores = "" if first.scores is None else " ".join(_number(s) for s in first.scores) + ", "
    times = "" if len(result.corrections) == 1 else f" ({len(result.corrections)} corrections)"
    if result.source == "table":
        return (
            f"the desk overrode the table's result{times}: the table reported {scores}"
            f"won by {won} (record hash kept)"
        )
    return f"corrected at the desk{times}: first recorded {scores}won by {won}"


def csv_text(event: Event) -> str:
    """The standings, a blank line, then the results: two CSV tables with their headers."""
    found = tables(event)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STANDINGS_COLUMNS)
    writer.writerows(found.standings)
    writer.writerow(())
    writer.writerow(RESULTS_COLUMNS)
    writer.writerows(found.results)
    return out.getvalue()


def pdf_bytes(event: Event) -> tuple[bytes, tuple[str, ...]]:
    """A report: per division its game, standings and results. Returns the PDF and any
    warning about characters the fonts cannot print."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    from companion.printing.fonts import Labelled, choose_fonts

    found = tables(event)
    cells = [cell for row in (*found.standings, *found.results) for cell in row]
    fonts = choose_fonts([Labelled("the report", " ".join([event.name, *cells]))])
    styles = getSampleStyleSheet()
    for style in styles.byName.values():
        style.fontName = (
            fonts.bold if "Heading" in style.name or "Title" in style.name else (fonts.regular)
        )
    grid = TableStyle(
        [
            ("FONTNAME", (0, 0), (-1, -1), fonts.regular),
            ("FONTNAME", (0, 0), (-1, 0), fonts.bold),
            ("FONTSIZE", (0, 0), (-1, -1), 8),
            ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
        ]
    )
    story: list[object] = [Paragraph(event.name, styles["Title"])]
    for division in event.divisions:
        title = f"{division.name}: {game_title(division.game) or 'no game set'}"
        if division.setup:
            title += f", {division.setup} setup"
        story += [Paragraph(title, styles["Heading2"]), Spacer(1, 4)]
        rows = [
            (*row[1:9], f"from round {row[12]}" if row[12] else "")
            for row in found.standings
            if row[0] == division.name
        ]
        table = Table([(*STANDINGS_COLUMNS[1:9], "withdrawn"), *rows], repeatRows=1)
        table.setStyle(grid)
        story += [table, Spacer(1, 8)]
        note = styles["BodyText"].clone("note", fontSize=7, leading=8)
        games = [
            (
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                r[6],
                Paragraph(escape(f"{r[12]}; why: {r[11]}", quote=False), note) if r[12] else "",
            )
            for r in found.results
            if r[0] == division.name
        ]
        if games:
            heading = ("round", "board", "players", "scores", "winners", "source", "correction")
            table = Table([heading, *games], colWidths=(None,) * 6 + (260,))
            table.setStyle(grid)
            story += [table, Spacer(1, 12)]
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=landscape(A4), title=event.name).build(story)
    return out.getvalue(), fonts.warnings
