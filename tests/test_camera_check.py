"""The camera's board against the rules' board, and the hand moves between two boards."""

from __future__ import annotations

from companion.games.zone_check import (
    HandMove,
    Mismatch,
    check,
    hand_moves,
    on_the_way,
    seen_text,
    zone_order,
)


def test_hand_moves_pick_up_before_putting_down_zone_by_zone_in_board_order() -> None:
    table = {"17": ("red",), "diamond-1": ("blue",), "4": ("blue", "yellow")}
    wanted = {"17": ("blue", "red", "yellow"), "4": ("red",), "100": ("red",)}
    assert hand_moves(table, wanted) == [
        HandMove("4", "blue", puts=False),
        HandMove("4", "yellow", puts=False),
        HandMove("4", "red", puts=True),
        HandMove("17", "blue", puts=True),
        HandMove("17", "yellow", puts=True),
        HandMove("100", "red", puts=True),
        HandMove("diamond-1", "blue", puts=False),
    ]


def test_no_hand_moves_between_equal_boards_in_any_order() -> None:
    assert hand_moves({"17": ("yellow", "red")}, {"17": ("red", "yellow")}) == []


def test_two_crystals_of_one_colour_count_as_two() -> None:
    assert hand_moves({"9": ("red",)}, {"9": ("red", "red")}) == [HandMove("9", "red", True)]


def test_check_names_what_was_seen_and_what_the_rules_expect() -> None:
    assert check("17", ("red",), {"17": ("red",)}) is None
    assert check("5", (), {}) is None
    mismatch = check("17", ("blue",), {"17": ("red",)})
    assert mismatch == Mismatch("17", ("blue",), ("red",))
    assert mismatch.text() == "place 17: the camera sees blue, the rules expect red"
    gone = check("diamond-2", (), {"diamond-2": ("red",)})
    assert gone is not None
    assert gone.text() == "claim diamond 2: the camera sees nothing, the rules expect red"


def test_a_halfway_board_is_on_the_way_and_a_stranger_is_not() -> None:
    assert on_the_way(("red",), before=(), after=("red", "yellow"))
    assert on_the_way(("blue", "red"), before=("blue", "red", "yellow"), after=("blue",))
    assert not on_the_way(("blue",), before=(), after=("red",))
    assert not on_the_way((), before=("red",), after=("red", "yellow"))


def test_seen_text_is_short() -> None:
    assert seen_text([("17", ("red", "yellow")), ("4", ()), ("diamond-1", ("blue",))]) == (
        "place 17 red, yellow; place 4 empty; claim diamond 1 blue"
    )


def test_zones_go_in_board_order() -> None:
    keys = ["diamond-2", "100", "9", "diamond-1", "17"]
    assert sorted(keys, key=zone_order) == ["9", "17", "100", "diamond-1", "diamond-2"]
