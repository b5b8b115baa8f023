"""The MnemoGame table as plain text lines, from a spectator view (view.py): each word's row
of chips, '#' for a face-down chip and what it shows for one face up, and the scores.

    Ada   42  [#][E][#][AHA]
"""

from __future__ import annotations

from companion.games.contract import JSON


def chip_text(chip: JSON) -> str:
    if not chip["up"]:
        return "[#]"
    return f"[{chip['shows']}]"


def text_board(view: JSON) -> tuple[str, ...]:
    sides = view["sides"]
    width = max(len(side["name"]) for side in sides)
    lines = []
    for side in sides:
        row = "".join(chip_text(chip) for chip in side["chips"])
        marks = ""
        if side["exposed"]:
            marks += f"  = {side['word']}"
        elif side["word"]:
            marks += f"  (was {side['word']})"
        if side["forfeited"]:
            marks += "  forfeited"
        if not side.get("laid", True):
            marks += "  (laying a word)"
        turn = ">" if side["side"] == view["turn"] and view["outcome"] is None else " "
        lines.append(f"{turn} {side['name']:<{width}} {side['score']:>4}  {row}{marks}")
    codex = view["codex"]
    lines.append(
        f"Round {view['round']}, turn {view['turn_number']}"
        + (f", rolled {view['face']} {codex}" if codex else "")
        + ("; [#] = face down" if any(not c["up"] for s in sides for c in s["chips"]) else "")
    )
    return tuple(lines)
