"""Playing by touch: taps follow the actions' paths until exactly one action is made."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.contract import Action
from companion.games.drawing import Drawing, Spot
from companion.games.touch import DONE, Options, Press, next_taps


@dataclass(frozen=True, slots=True)
class Go(Action):
    kind: ClassVar[str] = "go"
    source: str
    target: str


@dataclass(frozen=True, slots=True)
class Split(Action):
    kind: ClassVar[str] = "split"
    source: str


@dataclass(frozen=True, slots=True)
class Stay(Action):
    kind: ClassVar[str] = "stay"
    where: str


OPTIONS: Options = {
    Go("a", "b"): (("a", "b"),),
    Go("a", "c"): (("a", "c"),),
    Split("a"): (("a", Press("Split"), "b", "c"), ("a", Press("Split"), "c", "b")),
    Go("d", "b"): (("d", "b"),),
}


def test_a_first_tap_offers_every_way_on() -> None:
    step = next_taps(OPTIONS, ("a",))
    assert step.spots == {"b", "c"}
    assert step.buttons == ("Split",)
    assert step.complete is None and not step.dead


def test_the_tap_that_makes_one_action_completes_it() -> None:
    assert next_taps(OPTIONS, ("a", "c")).complete == Go("a", "c")
    assert next_taps(OPTIONS, ("a", Press("Split"), "c", "b")).complete == Split("a")


def test_taps_that_continue_nothing_are_dead() -> None:
    assert next_taps(OPTIONS, ("b",)).dead
    assert next_taps(OPTIONS, ("a", "d")).dead
    assert not next_taps(OPTIONS, ()).dead


def test_an_action_that_longer_ones_go_on_from_is_made_with_done() -> None:
    options: Options = {Stay("a"): (("a",),), Go("a", "b"): (("a", "b"),)}
    step = next_taps(options, ("a",))
    assert step.complete is None
    assert step.buttons == (DONE,) and step.ready == Stay("a")
    assert step.spots == {"b"}


def test_two_actions_with_the_same_taps_are_never_guessed_between() -> None:
    options: Options = {Go("a", "b"): (("a", "b"),), Go("a", "c"): (("a", "b"),)}
    step = next_taps(options, ("a", "b"))
    assert step.complete is None and step.ready is None


def test_a_tap_names_the_nearest_spot_within_reach() -> None:
    drawing = Drawing(10, 10, spots=(Spot("a", (2, 2), 1.0), Spot("b", (4, 2), 1.0)))
    assert drawing.spot_at((2.2, 2.1)) is not None
    assert drawing.spot_at((2.2, 2.1)).key == "a"  # type: ignore[union-attr]
    assert drawing.spot_at((3.2, 2.0)).key == "b"  # type: ignore[union-attr]
    assert drawing.spot_at((8, 8)) is None
    unnamed = Drawing(10, 10, spots=(Spot("", (2, 2), 1.0),))
    assert unnamed.spot_at((2, 2)) is None
