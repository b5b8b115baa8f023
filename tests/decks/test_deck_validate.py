from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from companion.decks import Problem, schema, validate_deck_file
from companion.decks.locate import Locator
from companion.decks.validate import check_structure

from .helpers import card_data, card_line, deck_data, line_of, render, write_deck

Data = dict[str, Any]


def _problems(tmp_path: Path, data: Data | str) -> list[str]:
    path = write_deck(tmp_path, data)
    return [str(p).removeprefix(f"{path}:") for p in validate_deck_file(path)]


def test_a_good_deck_has_no_problems(deck_file: Path) -> None:
    assert validate_deck_file(deck_file) == []


def test_the_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(schema())


def test_problem_text() -> None:
    assert (
        str(Problem("d.toml", 212, "cards[12].points", "bad"))
        == "d.toml:212: cards[12].points: bad"
    )
    assert (
        str(Problem("d.toml", 3, "", "not valid TOML: x", column=9))
        == "d.toml:3:9: not valid TOML: x"
    )
    assert str(Problem("d.toml", None, "format", "missing")) == "d.toml: format: missing"
    assert str(Problem("d.toml", None, "", "no such file")) == "d.toml: no such file"


def test_the_example_from_the_brief(tmp_path: Path) -> None:
    data = deck_data()
    data["cards"][12]["points"] = -1
    path = write_deck(tmp_path, data)
    line = card_line(path.read_text(), 12, "points")
    assert [str(p) for p in validate_deck_file(path)] == [
        f"{path}:{line}: cards[12].points: -1 is less than the minimum of 0"
    ]
    [problem] = validate_deck_file(path)
    assert (problem.file, problem.line, problem.field) == (str(path), line, "cards[12].points")


def _set(*path: str | int, value: Any) -> Callable[[Data], None]:
    def change(data: Data) -> None:
        target: Any = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return change


def _drop(*path: str | int) -> Callable[[Data], None]:
    def change(data: Data) -> None:
        target: Any = data
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]

    return change


# (change, expected field, expected message, where the line is: a key in a table)
STRUCTURE: list[tuple[str, Callable[[Data], None], str, str, tuple[str | int, ...]]] = [
    (
        "wrong format",
        _set("format", value="memdeck/2"),
        "format",
        "unsupported format 'memdeck/2'; this companion reads 'memdeck/1'",
        ("format",),
    ),
    ("missing title", _drop("deck", "title"), "deck.title", "missing (required)", ("[deck]",)),
    (
        "bad id",
        _set("deck", "id", value="Test Deck"),
        "deck.id",
        "'Test Deck' must be lowercase letters, digits and single hyphens, "
        'e.g. "mythologies-of-earth"',
        ("deck", "id"),
    ),
    (
        "version as a number",
        _set("deck", "version", value=1.5),
        "deck.version",
        "1.5 is not of type 'string'",
        ("deck", "version"),
    ),
    (
        "three quadrants",
        _set("deck", "quadrants", value=["Greek", "Roman", "Norse"]),
        "deck.quadrants",
        "needs 4 names (NW, NE, SW, SE), got 3",
        ("deck", "quadrants"),
    ),
    (
        "a quadrant named twice",
        _set("deck", "quadrants", value=["Greek", "Roman", "Greek", "Norse"]),
        "deck.quadrants",
        "'Greek' appears twice",
        ("deck", "quadrants"),
    ),
    (
        "bad language",
        _set("deck", "language", value="English"),
        "deck.language",
        '\'English\' must be a language tag such as "en" or "pt-BR"',
        ("deck", "language"),
    ),
    (
        "unknown deck field",
        _set("deck", "colour", value="red"),
        "deck.colour",
        "unknown field (known: author, description, id, language, levels, mapping, prompts, "
        "quadrants, subject, title, version)",
        ("deck", "colour"),
    ),
    (
        "unknown card field",
        _set("cards", 4, "fact", value="x"),
        "cards[4].fact",
        "unknown field (known: facts, front, image, name, number, place, points, rfid)",
        ("cards", 4, "fact"),
    ),
    (
        "missing facts",
        _drop("cards", 3, "facts"),
        "cards[3].facts",
        "missing (required)",
        ("cards", 3),
    ),
    (
        "number too big",
        _set("cards", 9, "number", value=101),
        "cards[9].number",
        "101 is greater than the maximum of 100",
        ("cards", 9, "number"),
    ),
    (
        "points as text",
        _set("cards", 9, "points", value="3"),
        "cards[9].points",
        "'3' is not of type 'integer'",
        ("cards", 9, "points"),
    ),
    (
        "fractional points",
        _set("cards", 9, "points", value=1.5),
        "cards[9].points",
        "1.5 is not of type 'integer'",
        ("cards", 9, "points"),
    ),
    (
        "blank name",
        _set("cards", 7, "name", value="  "),
        "cards[7].name",
        "'  ' must not be blank",
        ("cards", 7, "name"),
    ),
    (
        "blank fact",
        _set("cards", 7, "facts", value=["ok", ""]),
        "cards[7].facts[1]",
        "'' must not be blank",
        ("cards", 7, "facts"),
    ),
    (
        "facts as text",
        _set("cards", 7, "facts", value="one fact"),
        "cards[7].facts",
        "'one fact' is not of type 'array'",
        ("cards", 7, "facts"),
    ),
    (
        "lower-case tag",
        _set("cards", 2, "rfid", value=["04a224b2c12a81"]),
        "cards[2].rfid[0]",
        "'04a224b2c12a81' must be upper-case hex of 8, 14 or 20 digits (a 4, 7 or 10-byte UID) "
        "or 10 digits (EM4100); write it as '04A224B2C12A81'",
        ("cards", 2, "rfid"),
    ),
    (
        "short tag",
        _set("cards", 2, "rfid", value=["04A2"]),
        "cards[2].rfid[0]",
        "'04A2' must be upper-case hex of 8, 14 or 20 digits (a 4, 7 or 10-byte UID) "
        "or 10 digits (EM4100)",
        ("cards", 2, "rfid"),
    ),
]


def _expected_line(text: str, where: tuple[str | int, ...]) -> int:
    if where == ("[deck]",):
        return line_of(text, "[deck]")
    if where[0] == "cards":
        index = where[1]
        assert isinstance(index, int)
        key = where[2] if len(where) > 2 else None
        assert key is None or isinstance(key, str)
        return card_line(text, index, key)
    found = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith(f"{where[-1]} = ")]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize(
    ("change", "field", "message", "where"),
    [case[1:] for case in STRUCTURE],
    ids=[case[0] for case in STRUCTURE],
)
def test_structure_problems(
    tmp_path: Path,
    change: Callable[[Data], None],
    field: str,
    message: str,
    where: tuple[str | int, ...],
) -> None:
    data = deck_data()
    change(data)
    path = write_deck(tmp_path, data)
    line = _expected_line(path.read_text(), where)
    assert [str(p) for p in validate_deck_file(path)] == [f"{path}:{line}: {field}: {message}"]


def test_whole_floats_are_not_problems(tmp_path: Path) -> None:
    data = deck_data()
    data["cards"][0]["number"] = 1.0
    assert _problems(tmp_path, data) == []


def test_duplicate_number(tmp_path: Path) -> None:
    data = deck_data()
    data["cards"][5]["number"] = 3
    text = write_deck(tmp_path, data).read_text()
    assert _problems(tmp_path, data) == [
        f"{card_line(text, 5, 'number')}: cards[5].number: 3 is already the number of cards[2]"
    ]


def test_duplicate_place_also_leaves_a_place_empty(tmp_path: Path) -> None:
    data = deck_data(quadrants=(2,))
    orphaned = data["cards"][6]["place"]
    data["cards"][6]["place"] = data["cards"][2]["place"]
    text = write_deck(tmp_path, data).read_text()
    assert _problems(tmp_path, data) == [
        f"{card_line(text, 0)}: cards[0]: quadrant 2 (NE, Roman) is incomplete: no card for "
        f"place {orphaned} (a deck fills whole quadrants: 25, 50, 75 or 100 cards)",
        f"{card_line(text, 6, 'place')}: cards[6].place: {data['cards'][2]['place']} "
        "is already the place of cards[2]",
    ]


@pytest.mark.parametrize("count", [1, 24])
def test_a_quadrant_must_be_whole(tmp_path: Path, count: int) -> None:
    data = deck_data(quadrants=(1, 3))
    data["cards"] = [c for c in data["cards"] if c["place"] > 25 or c["place"] <= count]
    problems = _problems(tmp_path, data)
    assert len(problems) == 1
    assert ": quadrant 1 (NW, Greek) is incomplete: " in problems[0]
    if count == 24:
        assert "is incomplete: no card for place 25 (" in problems[0]
    else:
        assert "no card for places 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 14 more (" in problems[0]


def test_a_stray_card_in_another_quadrant(tmp_path: Path) -> None:
    data = deck_data(quadrants=(1,))
    data["cards"].append(card_data(26, 100))
    problems = _problems(tmp_path, data)
    assert len(problems) == 1
    assert ": cards[25]: quadrant 4 (SE, Norse) is incomplete" in problems[0]


def test_duplicate_tags(tmp_path: Path) -> None:
    data = deck_data()
    data["cards"][10]["rfid"] = ["00000001"]
    data["cards"][20]["rfid"] = ["0011223344", "0011223344"]
    text = write_deck(tmp_path, data).read_text()
    assert _problems(tmp_path, data) == [
        f"{card_line(text, 10, 'rfid')}: cards[10].rfid[0]: tag 00000001 is already on cards[0]",
        f"{card_line(text, 20, 'rfid')}: cards[20].rfid[1]: tag 0011223344 is already on this card",
    ]


@pytest.mark.parametrize("key", ["levels", "prompts"])
def test_more_labels_than_levels(tmp_path: Path, key: str) -> None:
    data = deck_data(facts=2)
    data["deck"].update(levels=["a", "b", "c"], prompts=["a?"])
    data["deck"][key] = ["a", "b", "c", "d"]
    text = write_deck(tmp_path, data).read_text()
    assert _problems(tmp_path, data) == [
        f"{line_of(text, f'{key} = ')}: deck.{key}: 4 entries, but the deepest card has "
        "3 levels (its name and 2 facts)"
    ]


def test_labels_may_reach_the_deepest_card(tmp_path: Path) -> None:
    data = deck_data(facts=2)
    data["cards"][0]["facts"].append("a third fact")
    data["deck"]["levels"] = ["a", "b", "c", "d"]
    data["deck"]["prompts"] = ["a?"]
    assert _problems(tmp_path, data) == []


@pytest.mark.parametrize(
    ("name", "front", "gives_away"),
    [
        ("Zeus", "Who is Zeus?", True),
        ("Zeus", "King of the gods, zeus to his friends", True),
        ("Zeus", "Whose temple is the Zeus's-", True),
        ("Thor", "Thorough and thunderous", False),
        ("Ra", "Ravens are not his bird", False),
        ("Set", "Brother of Osiris", False),
        ("Tyr", "Who lost a hand to Fenrir?", False),
    ],
)
def test_a_front_must_not_give_the_name_away(
    tmp_path: Path, name: str, front: str, gives_away: bool
) -> None:
    data = deck_data()
    data["cards"][30].update(name=name, front=front)
    text = write_deck(tmp_path, data).read_text()
    expected = [
        f"{card_line(text, 30, 'front')}: cards[30].front: gives the answer away: "
        f"it contains the name {name!r}"
    ]
    assert _problems(tmp_path, data) == (expected if gives_away else [])


def test_images_must_exist(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "001.png").write_bytes(b"png")
    data = deck_data()
    data["cards"][0]["image"] = "images/001.png"
    data["cards"][1]["image"] = "images/002.png"
    data["cards"][2]["image"] = "images"
    text = write_deck(tmp_path, data).read_text()
    assert _problems(tmp_path, data) == [
        f"{card_line(text, 1, 'image')}: cards[1].image: 'images/002.png' not found "
        f"(looked for {tmp_path / 'images' / '002.png'})",
        f"{card_line(text, 2, 'image')}: cards[2].image: 'images' is a directory, not an image "
        f"(looked for {tmp_path / 'images'})",
    ]


def test_every_problem_is_reported_in_file_order(tmp_path: Path) -> None:
    data = deck_data()
    data["cards"][40]["points"] = -3
    data["cards"][12]["front"] = "Figure013, of course"
    del data["deck"]["author"]
    data["cards"][99]["rfid"] = ["nothex"]
    data["cards"][50]["number"] = 1
    problems = validate_deck_file(write_deck(tmp_path, data))
    assert [p.field for p in problems] == [
        "deck.author",
        "cards[12].front",
        "cards[40].points",
        "cards[50].number",
        "cards[99].rfid[0]",
    ]
    lines = [p.line or 0 for p in problems]
    assert lines == sorted(lines)
    assert all(lines)


def test_an_empty_file_lacks_everything(tmp_path: Path) -> None:
    assert _problems(tmp_path, "") == [
        " format: missing (required)",
        " deck: missing (required)",
        " cards: missing (required)",
    ]


def test_wrong_shapes_of_tables(tmp_path: Path) -> None:
    text = 'format = "memdeck/1"\ndeck = 5\ncards = []\n'
    assert _problems(tmp_path, text) == [
        "2: deck: 5 is not of type 'object'",
        "3: cards: a deck has 1 to 100 cards, got 0",
    ]


def test_toml_syntax_errors_give_line_and_column(tmp_path: Path) -> None:
    text = 'format = "memdeck/1"\n[deck]\ntitle = \n'
    assert _problems(tmp_path, text) == ["3:9: not valid TOML: Invalid value"]


def test_an_unterminated_string_points_at_the_end(tmp_path: Path) -> None:
    text = 'format = "memdeck/1"\n[deck]\ntitle = """never closed\n\n'
    assert _problems(tmp_path, text) == ["4: not valid TOML: Unterminated string"]


def test_a_table_declared_twice(tmp_path: Path) -> None:
    text = "[deck]\nid = 'x'\n[deck]\n"
    [problem] = _problems(tmp_path, text)
    assert problem.startswith("3:") and "not valid TOML" in problem


def test_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    assert [str(p) for p in validate_deck_file(path)] == [f"{path}: no such file"]


def test_a_directory(tmp_path: Path) -> None:
    assert [str(p) for p in validate_deck_file(tmp_path)] == [
        f"{tmp_path}: is a directory, not a deck file"
    ]


def test_binary_garbage(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_bytes(bytes(range(256)) * 4)
    assert [p.message for p in validate_deck_file(path)] == [
        "not a text file (it contains NUL bytes); a deck is UTF-8 TOML text"
    ]


def test_another_encoding(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_bytes('title = "Mythologies of Earth — Héra"\n'.encode("latin-1", "replace"))
    assert [p.message for p in validate_deck_file(path)] == [
        "not UTF-8 text (byte 0xE9 at offset 33); save the deck as UTF-8"
    ]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file(deck_file: Path) -> None:
    deck_file.chmod(0)
    try:
        assert [p.message for p in validate_deck_file(deck_file)] == [
            "cannot read: permission denied"
        ]
    finally:
        deck_file.chmod(0o644)


def test_a_file_too_large_to_be_a_deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.decks import load

    monkeypatch.setattr(load, "MAX_BYTES", 10)
    path = write_deck(tmp_path, "format = 'memdeck/1'\n")
    assert [p.message for p in validate_deck_file(path)] == [
        "too large for a deck file (21 bytes; a deck file may have at most 10 bytes)"
    ]


# --- the line locator ----------------------------------------------------------------------

LOCATOR_TEXT = """\
format = "memdeck/1"
[deck]
"title" = "T"
description = '''
[[cards]]
id = "not this"
'''
id = "x"
  [[ cards ]]   # first
number = 1
[[cards]]
facts = [
  "a",
]
points = 2
"""


@pytest.mark.parametrize(
    ("path", "line"),
    [
        (("format",), 1),
        (("deck",), 2),
        (("deck", "title"), 3),
        (("deck", "id"), 8),
        (("deck", "missing"), 2),
        (("cards",), 9),
        (("cards", 0), 9),
        (("cards", 0, "number"), 10),
        (("cards", 1, "facts", 0), 12),
        (("cards", 1, "points"), 15),
        (("cards", 1, "name"), 11),
        (("cards", 2, "name"), 9),
        (("other",), None),
        ((), None),
    ],
)
def test_locator(path: tuple[str | int, ...], line: int | None) -> None:
    assert Locator(LOCATOR_TEXT).line(path) == line


def test_locator_falls_back_to_a_top_level_key() -> None:
    text = 'format = "memdeck/1"\ncards = [\n  { number = 1 },\n]\ndeck.id = "x"\n'
    locator = Locator(text)
    assert locator.line(("cards", 0, "number")) == 2
    assert locator.line(("deck", "id")) == 5


def test_odd_keys_stay_on_one_line(tmp_path: Path) -> None:
    text = render(deck_data()).replace("[deck]\n", '[deck]\n"two\\nlines" = 1\n')
    assert _problems(tmp_path, text) == [
        '5: deck["two\\nlines"]: unknown field (known: author, description, id, language, '
        "levels, mapping, prompts, quadrants, subject, title, version)"
    ]


@pytest.mark.parametrize("depth", [300, 900, 5000])
def test_deep_nesting_is_a_problem_not_a_crash(tmp_path: Path, depth: int) -> None:
    text = "[[cards]]\nfacts = " + "[" * depth + "]" * depth + "\n"
    problems = _problems(tmp_path, text)
    assert problems
    assert all("\n" not in p for p in problems)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=300))
def test_any_text_gives_problems_not_exceptions(tmp_path: Path, text: str) -> None:
    path = tmp_path / "fuzz.toml"
    path.write_text(text, encoding="utf-8")
    for problem in validate_deck_file(path):
        assert "\n" not in str(problem)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.binary(max_size=300))
def test_any_bytes_give_problems_not_exceptions(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "fuzz.toml"
    path.write_bytes(raw)
    for problem in validate_deck_file(path):
        assert "\n" not in str(problem)


DOC = Path(__file__).parents[2] / "docs" / "deck-format.md"


@pytest.mark.skipif(not DOC.exists(), reason="docs not present")
def test_the_documented_example_has_a_valid_structure() -> None:
    block = DOC.read_text(encoding="utf-8").split("```toml\n", 1)[1].split("```", 1)[0]
    data = tomllib.loads(block)
    assert check_structure(data) == []
    assert len(data["deck"]["levels"]) == 1 + len(data["cards"][0]["facts"])
