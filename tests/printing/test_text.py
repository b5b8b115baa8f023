"""Wrapping and fitting text, with a fixed-width measure: every character is 1 unit wide."""

from __future__ import annotations

from companion.printing.text import ELLIPSIS, Block, set_blocks, shorten, wrap


def _width(text: str) -> float:
    return float(len(text))


def _measure(text: str, size: float, heading: bool) -> float:
    return len(text) * size / 10


def test_wrap_at_spaces() -> None:
    assert wrap("the quick brown fox jumps", 10, _width) == ["the quick", "brown fox", "jumps"]
    assert wrap("  spaced   out  ", 20, _width) == ["spaced out"]


def test_wrap_keeps_newlines_and_breaks_long_words() -> None:
    assert wrap("one\ntwo three", 20, _width) == ["one", "two three"]
    assert wrap("abcdefghijkl xy", 5, _width) == ["abcde", "fghij", "kl xy"]
    assert wrap("", 5, _width) == [""]


def test_every_line_fits() -> None:
    text = "Rhea hid the newborn on Crete and gave Cronus a swaddled stone to swallow instead"
    for width in (8, 11, 17, 40):
        assert all(len(line) <= width for line in wrap(text, width, _width))
        assert " ".join(wrap(text, width, _width)) == text


def test_shorten() -> None:
    assert shorten("abcdefgh", 5, _width) == "abcd" + ELLIPSIS
    assert len(shorten("ab cdefgh", 4, _width)) <= 4


def test_set_blocks_shrinks_until_it_fits() -> None:
    blocks = [Block("word " * 20, heading="2 · Domain"), Block("more " * 10, heading="3 · X")]
    big = set_blocks(blocks, 100, 1000, [10, 8, 6], _measure)
    assert big.size == 10 and big.fits
    small = set_blocks(blocks, 60, 60, [10, 8, 6], _measure)
    assert small.size < 10 and small.fits and small.height <= 60
    assert [line.text for line in small.lines if line.heading] == ["2 · Domain", "3 · X"]
    assert all(_measure(line.text, small.size, line.heading) <= 60 for line in small.lines)


def test_set_blocks_cuts_short_when_nothing_fits() -> None:
    setting = set_blocks([Block("word " * 200)], 50, 30, [10, 8], _measure)
    assert not setting.fits and setting.size == 8
    assert setting.height <= 30 and setting.lines
    assert setting.lines[-1].text.endswith(ELLIPSIS)
