"""The figures a printing command is given, read from its arguments: one clear line for
anything else. Shared by `companion print` and the games' own printables."""

from __future__ import annotations

import argparse

from companion.errors import UserError
from companion.printing.layout import PAPERS


def paper_name(text: str) -> str:
    """An argparse type: 'a4' or 'letter' in any case, as the paper is named."""
    for name in PAPERS:
        if name.lower() == text.lower():
            return name
    raise argparse.ArgumentTypeError(f"{text!r} is not a paper size: use A4 or Letter")


def whole_number(text: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UserError(f"{option} must be a whole number, not {text!r}") from None


def length_mm(text: str, option: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UserError(f"{option} must be a length in millimetres, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise UserError(f"{option} must be a positive length in millimetres, not {text!r}")
    return value
