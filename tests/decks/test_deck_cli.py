from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main

from .helpers import card_line, deck_data, write_deck

Output = pytest.CaptureFixture[str]


def _run(capsys: Output, *argv: str) -> tuple[int, list[str], list[str]]:
    code = main(["deck", *argv])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def test_validate_a_good_deck(capsys: Output, deck_file: Path) -> None:
    assert _run(capsys, "validate", str(deck_file)) == (
        0,
        [f"{deck_file}: ok (100 cards, depth 5, 25+25+25+25 places)"],
        [],
    )


def test_validate_a_quadrant_deck(capsys: Output, tmp_path: Path) -> None:
    path = write_deck(tmp_path, deck_data(quadrants=(3,), facts=2))
    code, out, _ = _run(capsys, "validate", str(path))
    assert (code, out) == (0, [f"{path}: ok (25 cards, depth 3, 0+0+25+0 places)"])


def test_validate_prints_every_problem(capsys: Output, tmp_path: Path) -> None:
    data = deck_data()
    data["cards"][3]["points"] = -1
    data["cards"][7]["front"] = "Figure008 did it"
    path = write_deck(tmp_path, data)
    text = path.read_text()
    assert _run(capsys, "validate", str(path)) == (
        2,
        [
            f"{path}:{card_line(text, 3, 'points')}: cards[3].points: "
            "-1 is less than the minimum of 0",
            f"{path}:{card_line(text, 7, 'front')}: cards[7].front: gives the answer away: "
            "it contains the name 'Figure008'",
        ],
        [],
    )


def test_validate_several_files(capsys: Output, tmp_path: Path, deck_file: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("format = 'memdeck/1'\n[deck\n")
    missing = tmp_path / "missing.toml"
    code, out, err = _run(capsys, "validate", str(deck_file), str(bad), str(missing), str(tmp_path))
    assert code == 2
    assert out == [
        f"{deck_file}: ok (100 cards, depth 5, 25+25+25+25 places)",
        f"{bad}:2:6: not valid TOML: Expected ']' at the end of a table declaration",
        f"{missing}: no such file",
        f"{tmp_path}: is a directory, not a deck file",
    ]
    assert err == []


def test_validate_garbage_is_one_line(capsys: Output, tmp_path: Path) -> None:
    path = tmp_path / "garbage.toml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    code, out, err = _run(capsys, "validate", str(path))
    assert (code, len(out), err) == (2, 1, [])
    assert "not a text file" in out[0]


def test_validate_a_bundled_deck_by_id(capsys: Output, bundled_dir: Path) -> None:
    write_deck(bundled_dir, deck_data(), name="test-deck.toml")
    assert _run(capsys, "validate", "test-deck") == (
        0,
        ["test-deck: ok (100 cards, depth 5, 25+25+25+25 places)"],
        [],
    )


def test_validate_needs_a_file(capsys: Output) -> None:
    code, _, err = _run(capsys, "validate")
    assert code == 2
    assert any("FILE" in line for line in err)


def test_list(capsys: Output, bundled_dir: Path) -> None:
    write_deck(bundled_dir, deck_data(), name="test-deck.toml")
    small = deck_data(quadrants=(1,), facts=2)
    small["deck"].update(id="small", title="Small", levels=["Name"], prompts=[])
    write_deck(bundled_dir, small, name="small.toml")
    assert _run(capsys, "list") == (
        0,
        [
            "ID         TITLE      CARDS  DEPTH",
            "small      Small      25     3",
            "test-deck  Test Deck  100    5",
        ],
        [],
    )


def test_list_with_nothing_bundled(capsys: Output, bundled_dir: Path) -> None:
    assert _run(capsys, "list") == (0, ["no bundled decks"], [])


def test_list_flags_a_broken_bundled_deck(capsys: Output, bundled_dir: Path) -> None:
    (bundled_dir / "broken.toml").write_text("format = 'memdeck/1'\n")
    code, out, _ = _run(capsys, "list")
    assert code == 2
    assert out[1].startswith("broken  (invalid: ")
    assert "deck: missing (required)" in out[1]


def test_show(capsys: Output, deck_file: Path) -> None:
    code, out, err = _run(capsys, "show", str(deck_file))
    assert (code, err) == (0, [])
    text = "\n".join(out)
    assert out[0] == "Test Deck (test-deck 1.0, en)"
    for expected in (
        "author:    The Test Suite",
        "subject:   Made-up figures",
        "mapping:   Card n sits on place 7n, counted round the covered places.",
        "quadrants: NW Greek, NE Roman, SW Egyptian, SE Norse",
        "cards:     100 cards, depth 5, 25+25+25+25 places",
        "1. Name  (Who is this?)",
        "5. Myth",
        f"file:      {deck_file}",
        "hash:      sha256:",
    ):
        assert expected in text
    assert "Fact 2 of card 1" not in text


def test_show_a_card(capsys: Output, tmp_path: Path) -> None:
    data = deck_data()
    data["cards"][0]["rfid"] = ["04A224B2C12A81", "0011223344"]
    path = write_deck(tmp_path, data)
    code, out, _ = _run(capsys, "show", str(path), "--card", "1")
    assert code == 0
    assert out == [
        "Card 1: Figure001",
        "  place:   8 (quadrant 1 NW 'Greek', quincunx 2, place 3)",
        "  points:  1",
        "  front:   Clue 1: a figure of legend. Who is this?",
        "  1. Name: Figure001",
        "  2. Domain: Fact 2 of card 1",
        "  3. Symbols: Fact 3 of card 1",
        "  4. Family: Fact 4 of card 1",
        "  5. Myth: Fact 5 of card 1",
        "  rfid:    04A224B2C12A81, 0011223344",
    ]


def test_show_an_unknown_card(capsys: Output, tmp_path: Path) -> None:
    path = write_deck(tmp_path, deck_data(quadrants=(2,)))
    assert _run(capsys, "show", str(path), "--card", "26") == (
        2,
        [],
        ["companion: error: deck 'test-deck' has no card 26 (its cards are 1-25)"],
    )


def test_show_an_unknown_deck(capsys: Output, bundled_dir: Path) -> None:
    write_deck(bundled_dir, deck_data(), name="test-deck.toml")
    assert _run(capsys, "show", "nope") == (
        2,
        [],
        [
            "companion: error: unknown deck 'nope': no such file and no bundled deck by that id "
            "(bundled decks: test-deck)"
        ],
    )


def test_show_a_broken_deck_is_one_line(capsys: Output, tmp_path: Path) -> None:
    data = deck_data()
    data["cards"][0]["points"] = -1
    data["cards"][1]["points"] = -1
    path = write_deck(tmp_path, data)
    code, out, err = _run(capsys, "show", str(path))
    assert (code, out, len(err)) == (2, [], 1)
    assert err[0].startswith(f"companion: error: {path}:")
    assert err[0].endswith(f"(and 1 more; run `companion deck validate {path}`)")


@pytest.mark.parametrize("argv", [[], ["show"], ["show", "x", "--card", "one"]])
def test_usage_errors_exit_2(capsys: Output, argv: list[str]) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert out == []
    assert not any("Traceback" in line for line in err)
