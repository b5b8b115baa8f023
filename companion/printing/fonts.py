"""Choosing a font that can print a deck's text.

reportlab's built-in Helvetica needs no file but only knows the Windows-1252 characters
(Latin-1 and a few more, such as curly quotes and dashes). A deck with other characters
(Greek, Cyrillic, most accents outside Western Europe, ...) is printed in DejaVu Sans when
its files are on the system (Debian: `fonts-dejavu-core`); otherwise in Helvetica, with a
warning naming the characters that will not print.

    fonts = choose_fonts(texts_of_the_deck)
    fonts.regular, fonts.bold, fonts.warnings
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

HELVETICA = ("Helvetica", "Helvetica-Bold")
DEJAVU = ("DejaVuSans", "DejaVuSans-Bold")
DEJAVU_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")

FONT_DIRS: list[Path] = [
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/share/fonts/truetype"),
    Path("/usr/local/share/fonts"),
    Path.home() / ".local/share/fonts",
    Path.home() / ".fonts",
    Path("/Library/Fonts"),
    Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts",
]
"""Where DejaVu Sans is looked for, in order."""


@dataclass(frozen=True, slots=True)
class Fonts:
    regular: str
    bold: str
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Labelled:
    """A text to be printed and what to call it in a warning ('card 17', 'the deck title')."""

    where: str
    text: str


def helvetica_can_print(text: str) -> bool:
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def unprintable(text: str) -> list[str]:
    """The characters of `text` that Helvetica cannot print, each once, in order."""
    seen: list[str] = []
    for char in text:
        if char not in seen and not helvetica_can_print(char):
            seen.append(char)
    return seen


def find_dejavu(dirs: Sequence[Path] | None = None) -> tuple[Path, Path] | None:
    """(regular, bold) DejaVu Sans files; bold falls back to regular; None when not found."""
    for directory in FONT_DIRS if dirs is None else dirs:
        regular = directory / DEJAVU_FILES[0]
        if regular.is_file():
            bold = directory / DEJAVU_FILES[1]
            return regular, bold if bold.is_file() else regular
    return None


def choose_fonts(texts: Iterable[Labelled], dirs: Sequence[Path] | None = None) -> Fonts:
    """Helvetica when it prints every text, else DejaVu Sans (registered), else Helvetica
    with a warning saying which characters of which texts will not print."""
    needing: dict[str, list[str]] = {}
    for item in texts:
        chars = unprintable(item.text)
        if chars:
            have = needing.setdefault(item.where, [])
            have.extend(c for c in chars if c not in have)
    if not needing:
        return Fonts(*HELVETICA)
    found = find_dejavu(dirs)
    if found is not None:
        try:
            return Fonts(*_register_dejavu(*found))
        except Exception as err:  # a broken font file: fall back rather than fail
            reason = f"DejaVu Sans ({found[0]}) could not be loaded: {err}"
    else:
        reason = "DejaVu Sans was not found (Debian: apt-get install fonts-dejavu-core)"
    places = list(needing)
    where = ", ".join(places[:3]) + (f" and {len(places) - 3} more" if len(places) > 3 else "")
    chars = sorted({c for found_chars in needing.values() for c in found_chars})
    shown = " ".join(chars[:10]) + (" ..." if len(chars) > 10 else "")
    return Fonts(
        *HELVETICA,
        warnings=(f"{where}: Helvetica cannot print {shown}; {reason}, so they will be missing",),
    )


def _register_dejavu(regular: Path, bold: Path) -> tuple[str, str]:
    registered = pdfmetrics.getRegisteredFontNames()
    if DEJAVU[0] not in registered:
        pdfmetrics.registerFont(TTFont(DEJAVU[0], str(regular)))
    if DEJAVU[1] not in registered:
        pdfmetrics.registerFont(TTFont(DEJAVU[1], str(bold)))
    return DEJAVU
