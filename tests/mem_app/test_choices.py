"""The wizard's MeM choices and the setup and title they make."""

from __future__ import annotations

from companion.games.mem.engine import MemEngine
from companion.games.mem.screens.choices import (
    MemChoices,
    hints_allowed,
    mem_setup_for,
    mem_title,
    parse_seed,
)
from companion.table.choices import new_deal


def test_a_solitaire_game_takes_the_first_name_only() -> None:
    setup = mem_setup_for(MemChoices(game="solitaire", names=("Ada", "Bo")), 12)
    assert setup == {"game": "solitaire", "sides": [{"name": "Ada"}], "seed": 12}
    MemEngine().new_game(setup)


def test_blank_names_are_numbered() -> None:
    setup = mem_setup_for(MemChoices(game="mini", names=(" ", "Bo")), 3)
    assert [s["name"] for s in setup["sides"]] == ["Player 1", "Bo"]


def test_the_title_names_the_game_and_the_deal_and_keeps_a_rated_game_rated() -> None:
    setup = mem_setup_for(MemChoices(game="mem", names=("Ada", "Bo")), 4711)
    assert mem_title(setup, hints=True) == "Ada vs Bo, MEM game, deal 4711"
    rated = mem_title(setup, hints=False)
    assert rated.endswith(", rated") and not hints_allowed(rated)
    assert hints_allowed(mem_title(setup, hints=True))


def test_seeds() -> None:
    assert 0 <= new_deal() < 1_000_000
    assert parse_seed(" 42 ") == 42
    assert parse_seed("forty") is None and parse_seed("") is None and parse_seed("-3") is None
