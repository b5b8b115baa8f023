"""The PDF: pages, what each side shows, fonts, and `companion print cards`."""

from __future__ import annotations

import dataclasses
import math
import os
import re
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.decks import Deck, find_deck, load_deck
from companion.errors import UserError
from companion.printing import fonts as fonts_module
from companion.printing import write_cards_pdf
from companion.printing.cards import draw_page
from companion.printing.fonts import Fonts, Labelled, choose_fonts, find_dejavu
from companion.printing.layout import PAPERS, plan_pages
from tests.decks.helpers import deck_data, write_deck

Output = pytest.CaptureFixture[str]
BUNDLED = "mythologies-of-earth"


def _page_count(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.fixture(scope="module")
def bundled() -> Deck:
    return find_deck(BUNDLED)


def test_the_bundled_deck(tmp_path: Path, bundled: Deck) -> None:
    out = tmp_path / "cards.pdf"
    report = write_cards_pdf(bundled, out)
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert _page_count(data) == len(report.pages) == 2 * math.ceil(100 / 9) == 24
    assert (report.cards, report.sheets, report.paper.name) == (100, 12, "A4")
    assert report.warnings == ()  # Latin text, everything fits
    assert report.fonts == Fonts("Helvetica", "Helvetica-Bold")
    payloads = [s.qr.payload for p in report.pages for s in p.slots if s.qr]
    assert payloads == [f"memdeck:{BUNDLED}:{n}" for n in range(1, 101)]
    assert [p.name for p in tmp_path.iterdir()] == ["cards.pdf"]  # no temp file left


def test_letter_and_quadrants(tmp_path: Path, bundled: Deck) -> None:
    out = tmp_path / "norse.pdf"
    report = write_cards_pdf(bundled, out, paper="letter", quadrants=(4,))
    assert report.paper == PAPERS["Letter"] and report.cards == 25
    assert _page_count(out.read_bytes()) == 6
    assert [s.number for s in report.pages[0].slots] == list(range(76, 85))
    assert b"/MediaBox [ 0 0 612 792 ]" in out.read_bytes()


class RecordingCanvas:
    """Stands in for a reportlab Canvas: keeps the strings drawn, ignores the rest."""

    def __init__(self) -> None:
        self.strings: list[tuple[str, float]] = []
        self.fonts: set[str] = set()
        self.font = ("", 0.0)

    def setFont(self, name: str, size: float) -> None:
        self.font = (name, size)
        self.fonts.add(name)

    def drawString(self, x: float, y: float, text: str) -> None:
        self.strings.append((text, self.font[1]))

    drawCentredString = drawString

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None

    @property
    def text(self) -> str:
        return "\n".join(text for text, _ in self.strings)


def _draw(deck: Deck, side: int, numbers: list[int]) -> RecordingCanvas:
    canvas = RecordingCanvas()
    page = plan_pages(deck.id, numbers, PAPERS["A4"])[side]
    draw_page(canvas, deck, page, PAPERS["A4"], Fonts("Helvetica", "Helvetica-Bold"), [], sheets=1)
    return canvas


def test_a_front_never_gives_the_answer_away(bundled: Deck) -> None:
    for start in range(1, 101, 9):
        numbers = list(range(start, min(start + 9, 101)))
        canvas = _draw(bundled, 0, numbers)
        words = set(re.findall(r"\w+", canvas.text))
        for number in numbers:
            card = bundled.card(number)
            assert card is not None
            assert card.name not in words, card.name
            assert card.facts[0] not in canvas.text
            assert set(re.findall(r"\w+", card.front)) <= words  # the front text is there


def test_a_front_shows_points_quadrant_and_title(bundled: Deck) -> None:
    canvas = _draw(bundled, 0, [1])
    drawn = [text for text, _ in canvas.strings]
    assert "3" in drawn and "points" in drawn  # Zeus: 3 points
    assert "Greek" in drawn and "quadrant 1 · NW" in drawn
    assert bundled.title in drawn


def test_a_back_has_number_name_and_labelled_facts(bundled: Deck) -> None:
    canvas = _draw(bundled, 1, [17])
    card = bundled.card(17)
    assert card is not None
    drawn = [text for text, _ in canvas.strings if "sheet 1 of 1" not in text]
    assert drawn[:3] == ["17", "1 · Name", card.name]
    for level in range(2, card.depth + 1):
        assert f"{level} · {bundled.level_label(level)}" in drawn
        assert " ".join(card.fact(level).split()) in " ".join(drawn)
    body = [size for text, size in canvas.strings if text in drawn[3:-1]]
    assert min(body) >= 5 and max(body) <= 7.5  # small but readable


def test_text_too_long_is_cut_short_with_a_warning(tmp_path: Path) -> None:
    data = deck_data(quadrants=(1,))
    data["cards"][0]["facts"][0] = "very long fact " * 200
    data["cards"][1]["front"] = "a riddle " * 200
    report = write_cards_pdf(load_deck(write_deck(tmp_path, data)), tmp_path / "c.pdf")
    assert report.warnings == (
        "card 2: the front text does not fit; it is cut short",
        "card 1: the facts do not fit on the back; cut short",
    )


# ---- fonts -------------------------------------------------------------------------------


def _greek_deck(tmp_path: Path) -> Deck:
    data = deck_data(quadrants=(1,))
    data["cards"][4]["front"] = "Ἀθηνᾶ Παλλάς: who is she?"
    return load_deck(write_deck(tmp_path, data))


def test_helvetica_for_latin_text() -> None:
    helvetica = Fonts("Helvetica", "Helvetica-Bold")
    assert choose_fonts([Labelled("card 1", "Þórr, “Æsir” – Ǫ")]) != helvetica
    assert choose_fonts([Labelled("card 1", "Þórr, “Æsir” – 1€")]) == helvetica


@pytest.mark.skipif(find_dejavu() is None, reason="DejaVu Sans is not installed")
def test_dejavu_for_other_scripts(tmp_path: Path) -> None:
    report = write_cards_pdf(_greek_deck(tmp_path), tmp_path / "c.pdf")
    assert report.fonts == Fonts("DejaVuSans", "DejaVuSans-Bold") and report.warnings == ()
    assert b"DejaVuSans" in (tmp_path / "c.pdf").read_bytes()


def test_without_dejavu_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts_module, "FONT_DIRS", [tmp_path / "no-fonts"])
    report = write_cards_pdf(_greek_deck(tmp_path), tmp_path / "c.pdf")
    assert report.fonts.regular == "Helvetica"
    (warning,) = report.warnings
    assert warning.startswith("card 5: Helvetica cannot print ")
    assert "DejaVu Sans was not found" in warning and "\n" not in warning
    assert "Ἀθηνᾶ" not in warning  # characters, never the text


# ---- writing the file --------------------------------------------------------------------


def test_unwritable_outputs(tmp_path: Path, bundled: Deck) -> None:
    with pytest.raises(UserError, match="no such directory"):
        write_cards_pdf(bundled, tmp_path / "missing" / "c.pdf")
    with pytest.raises(UserError, match="it is a directory"):
        write_cards_pdf(bundled, tmp_path)
    with pytest.raises(UserError, match="unknown paper 'A3'"):
        write_cards_pdf(bundled, tmp_path / "c.pdf", paper="A3")


def test_a_failed_write_leaves_the_old_file(
    tmp_path: Path, bundled: Deck, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "c.pdf"
    out.write_bytes(b"old")

    def failing_replace(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    small = dataclasses.replace(bundled, cards=bundled.cards[:25])
    with pytest.raises(UserError, match=r"cannot write .*: No space left on device"):
        write_cards_pdf(small, out)
    assert out.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["c.pdf"]


# ---- the command -------------------------------------------------------------------------


def test_print_cards_command(tmp_path: Path, capsys: Output) -> None:
    out = tmp_path / "cards.pdf"
    code = main(["print", "cards", BUNDLED, "--out", str(out), "--quadrants", "1,2"])
    stdout, stderr = capsys.readouterr()
    assert (code, stderr) == (0, "")
    assert stdout.splitlines() == [
        f"wrote {out}: 50 cards of Mythologies of Earth on 6 sheets "
        "(12 pages: fronts, backs, ...), A4",
        "print double-sided, flip on the long edge, at actual size (100%, not fit to page)",
    ]
    assert _page_count(out.read_bytes()) == 12


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["no-such-deck", "--out", "{tmp}/c.pdf"], "companion: error: unknown deck"),
        ([BUNDLED, "--out", "{tmp}/none/c.pdf"], "companion: error: cannot write"),
        ([BUNDLED, "--out", "{tmp}"], "companion: error: cannot write"),
        ([BUNDLED, "--out", "{tmp}/c.pdf", "--paper", "A3"], "companion print cards: error:"),
        ([BUNDLED, "--out", "{tmp}/c.pdf", "--quadrants", "5"], "companion print cards: error:"),
    ],
)
def test_print_cards_errors(tmp_path: Path, capsys: Output, argv: list[str], message: str) -> None:
    code = main(["print", "cards", *(a.format(tmp=tmp_path) for a in argv)])
    stdout, stderr = capsys.readouterr()
    assert (code, stdout) == (2, "")
    assert message in stderr.splitlines()[-1]
    if message.startswith("companion: error"):
        assert stderr.count("\n") == 1
