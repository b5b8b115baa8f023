"""Deck files, mutated from the bundled deck: every one loads, or is one clear line."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from companion.decks.load import bundled_decks, load_deck, validate_deck_file
from companion.render import plain
from tests.fuzz.harness import (
    FUZZ,
    FUZZ_SUBPROCESS,
    hostile_scalar,
    mutated,
    run_companion,
    survives,
    write,
)

SEED = bundled_decks()["mythologies-of-earth"].read_bytes()
LINES = SEED.decode("utf-8").splitlines(keepends=True)
VALUE_LINES = [i for i, line in enumerate(LINES) if re.match(r"^\w+ = ", line)]


def toml_value(value: object) -> str:
    """`value` written as TOML, or as text TOML cannot hold (NaN as nan, None as nothing)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(value), repr(value))
    if value is None:
        return ""
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string, but for surrogates
    if isinstance(value, list | dict):
        return "[]" if isinstance(value, list) else "{}"
    return str(value)


def load_both(path: Path) -> None:
    for problem in validate_deck_file(path):
        plain(problem)
    deck = load_deck(path)
    plain(deck.title)


@FUZZ
@given(data=mutated(SEED))
def test_a_mutated_deck_loads_or_is_refused(tmp_path: Path, data: bytes) -> None:
    path = write(tmp_path / "deck.toml", data)
    survives("deck bytes", lambda: load_both(path))


@FUZZ
@given(
    line=st.sampled_from(VALUE_LINES),
    value=st.one_of(hostile_scalar(), st.sampled_from(("[" * 2000, "9" * 4400, '"[/x]"'))),
)
def test_a_deck_with_a_hostile_value_loads_or_is_refused(
    tmp_path: Path, line: int, value: object
) -> None:
    key = LINES[line].split(" = ", 1)[0]
    text = value if isinstance(value, str) and value[:1] in '["9' else toml_value(value)
    lines = [*LINES]
    lines[line] = f"{key} = {text}\n"
    path = write(tmp_path / "deck.toml", "".join(lines).encode("utf-8", "surrogatepass"))
    survives("deck values", lambda: load_both(path))


@FUZZ_SUBPROCESS
@given(data=mutated(SEED), command=st.sampled_from(("show", "validate")))
def test_the_deck_commands_end_in_one_line(tmp_path: Path, data: bytes, command: str) -> None:
    path = write(tmp_path / "deck.toml", data)
    run_companion("deck command", ["deck", command, str(path)])


def test_a_deck_title_that_is_markup_and_escapes_is_shown_as_written(tmp_path: Path) -> None:
    text = SEED.decode().replace(
        'title = "Mythologies of Earth"', 'title = "[/x] \\u001b[2J [bold]"', 1
    )
    path = write(tmp_path / "deck.toml", text.encode())
    shown = run_companion("deck command", ["deck", "show", str(path)]).stdout
    assert shown.startswith("[/x] \\x1b[2J [bold] (") and "\x1b" not in shown
