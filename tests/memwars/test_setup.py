"""Setups that cannot start a game are refused with the field at fault."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.contract import BadSetup
from companion.games.memwars.rules import HOUSE_RULES, HouseRules
from companion.games.memwars.setup import parse_setup

from .helpers import ENGINE, setup


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"sides": []}, "sides"),
        ({"sides": [{"name": "Ada"}]}, "sides"),
        ({"sides": [{"name": n} for n in "ABCDE"]}, "sides"),
        ({"sides": [{"name": "Ada"}, {"name": "Ada"}]}, "sides"),
        ({"sides": [{"name": "Ada"}, {"name": ""}]}, "sides[1].name"),
        ({"sides": [{"name": "Ada", "mode": "basic"}, {"name": "Bo"}]}, "sides[0].mode"),
        ({"mode": "blitz"}, "mode"),
        ({"quadrants": [0]}, "quadrants"),
        ({"quadrants": [1, 1]}, "quadrants"),
        ({"depth": 9, "max_depth": 4}, "depth"),
        ({"path": "sideways"}, "path"),
        ({"topology": {"kind": "hilly"}}, "topology.kind"),
        ({"topology": {"kind": "standard", "counters": [[1, 4]]}}, "topology.counters[0]"),
        ({"multipliers": {"centre_quincunx": 4}}, "multipliers.centre_quincunx"),
        ({"patterns": {"spiral": 3}}, "patterns.spiral"),
        ({"cards": [[1, 2, 1]]}, "cards[0]"),
        ({"cards": [[n, n, 1] for n in range(1, 25)]}, "cards"),
        ({"house_rules": {"mw.giveUp.points": "SOME"}}, "house_rules.mw.giveUp.points"),
        ({"house_rules": {"mw.nonsense": True}}, "house_rules.mw.nonsense"),
        ({"lightning_rounds": -1}, "lightning_rounds"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_setups_name_the_field(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(BadSetup) as err:
        ENGINE.new_game(setup(**changes))
    assert err.value.field == field


def test_the_deck_table_is_kept_under_deck_permutation() -> None:
    cards = [[n, 26 - n, 1] for n in range(1, 26)]
    rules = {"mw.place1Mapping": "DECK_PERMUTATION"}
    parsed = parse_setup(setup(cards=cards, house_rules=rules))
    assert parsed.place_of[1] == 25 and parsed.card_at[25] == 1


def test_setup_round_trips() -> None:
    raw = setup(
        topology={"kind": "standard", "scoring": "multiply"},
        path="random",
        depth="roll",
        max_depth=5,
        house_rules={"mw.timer": "FLAG_LOSES"},
    )
    parsed = parse_setup(raw)
    assert parse_setup(parsed.to_dict()) == parsed


def test_every_house_rule_has_an_ambiguity_and_unique_key() -> None:
    assert len(HOUSE_RULES) == 45
    assert sorted(r.settles for r in HOUSE_RULES) == [f"MW-A{i:02d}" for i in range(1, 46)]
    assert len({r.key for r in HOUSE_RULES}) == 45
    changed = HouseRules.from_dict({"mw.placeScore.crystalCount": False})
    assert changed.to_dict() == {"mw.placeScore.crystalCount": False}


def test_four_sides_share_the_fifty_challenge_pieces() -> None:
    sides = [{"name": n} for n in ("Ada", "Bo", "Cy", "Di")]
    state = ENGINE.new_game(setup(sides=sides))
    assert [s.challenge_pieces for s in state.sides] == [12] * 4 and state.pool == 2
    virtual = ENGINE.new_game(
        setup(sides=sides, house_rules={"mw.challengePiecesPerSide": "VIRTUAL_POOL"})
    )
    assert [s.challenge_pieces for s in virtual.sides] == [13] * 4 and virtual.pool == 0
