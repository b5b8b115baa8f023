"""Printing a deck: card fronts and backs on A4 or Letter, ready for double-sided printing.

    from companion.printing import write_cards_pdf
    report = write_cards_pdf(deck, "cards.pdf", paper="A4", quadrants=(1, 2))

See docs/cards.md; the geometry is in `layout`, the drawing in `cards`.
"""

from __future__ import annotations

from companion.printing.cards import PrintedCards, paper_named, write_cards_pdf
from companion.printing.layout import PAPERS, Paper, plan_pages, qr_payload

__all__ = [
    "PAPERS",
    "Paper",
    "PrintedCards",
    "paper_named",
    "plan_pages",
    "qr_payload",
    "write_cards_pdf",
]
