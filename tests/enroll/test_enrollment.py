"""The Enrollment state machine and run_enrollment, without a reader."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.decks import load_deck
from companion.decks.enroll import (
    Enrollment,
    cards_in_quadrants,
    parse_quadrants,
    prompt,
    run_enrollment,
    summary,
)
from companion.devices.cardreader.events import CardEvent, CardPresented, CardRemoved
from companion.errors import UserError
from tests.decks.helpers import deck_data, write_deck

from .helpers import em, untagged_data, untagged_deck


def test_walks_the_cards_in_number_order(tmp_path: Path) -> None:
    deck = untagged_deck(tmp_path)
    enrollment = Enrollment(deck)
    seen = []
    while (card := enrollment.expected()) is not None:
        assert enrollment.progress() == (card.number, 25)
        outcome = enrollment.offer(em(card.number))
        assert (outcome.kind, outcome.card, outcome.tag) == ("accepted", card, em(card.number))
        seen.append(card.number)
    assert seen == list(range(1, 26))
    assert enrollment.done and enrollment.progress() == (25, 25)
    assert enrollment.tag_map == {em(n): n for n in range(1, 26)}
    assert enrollment.untagged() == ()


def test_a_tag_already_on_another_card_is_refused(tmp_path: Path) -> None:
    enrollment = Enrollment(untagged_deck(tmp_path))
    enrollment.offer(em(1))
    outcome = enrollment.offer(em(1))
    assert outcome.kind == "duplicate"
    assert outcome.owner is not None and outcome.owner.number == 1
    assert outcome.message() == (f"tag {em(1)} is already card 1 (Figure001); scan card 2")
    expected = enrollment.expected()
    assert expected is not None and expected.number == 2  # still waiting for card 2
    assert enrollment.refused == 1
    assert enrollment.tag_map == {em(1): 1}


def test_a_tag_in_the_deck_file_counts_as_taken(tmp_path: Path) -> None:
    data = untagged_data()
    data["cards"][11]["rfid"] = ["04A224B2C12A81"]  # card 12
    deck = load_deck(write_deck(tmp_path, data))
    enrollment = Enrollment(deck)
    outcome = enrollment.offer("04:A2:24:B2:C1:2A:81")
    assert outcome.kind == "duplicate"
    assert outcome.owner is not None and outcome.owner.number == 12


def test_the_cards_own_tag_is_taken_as_it_is(tmp_path: Path) -> None:
    deck = untagged_deck(tmp_path)
    enrollment = Enrollment(deck, {em(1): 1, em(2): 2}, start=1)
    outcome = enrollment.offer(em(1).lower())
    assert outcome.kind == "same"
    assert outcome.message() == f"card 1 (Figure001): tag {em(1)}, already enrolled"
    assert enrollment.same == 1 and enrollment.accepted == 0
    assert enrollment.tag_map == {em(1): 1, em(2): 2}
    assert enrollment.progress() == (2, 25)


def test_tags_are_normalised(tmp_path: Path) -> None:
    enrollment = Enrollment(untagged_deck(tmp_path))
    outcome = enrollment.offer("04:a2:24:b2:c1:2a:81")
    assert outcome.tag == "04A224B2C12A81"
    assert enrollment.tag_map == {"04A224B2C12A81": 1}


def test_resumes_at_the_first_card_without_a_tag(tmp_path: Path) -> None:
    existing = {em(n): n for n in range(1, 11)} | {em(15): 15}
    enrollment = Enrollment(untagged_deck(tmp_path), existing)
    assert enrollment.progress() == (11, 25)
    assert enrollment.remaining == 14  # 11-14 and 16-25: 15 has its tag already
    numbers = []
    while (card := enrollment.expected()) is not None:
        numbers.append(card.number)
        enrollment.offer(em(card.number))
    assert numbers == [11, 12, 13, 14, *range(16, 26)]


def test_a_deck_with_every_tag_has_nothing_to_do(tmp_path: Path) -> None:
    enrollment = Enrollment(untagged_deck(tmp_path), {em(n): n for n in range(1, 26)})
    assert enrollment.done and enrollment.expected() is None
    assert prompt(enrollment) == "every card has been visited"
    with pytest.raises(RuntimeError, match="over"):
        enrollment.offer(em(99))


def test_from_visits_every_later_card_and_a_new_tag_replaces_the_old(tmp_path: Path) -> None:
    nfc = "04A224B2C12A81"  # a 13.56 MHz UID on card 5 as well: another kind, kept
    existing = {em(n): n for n in range(1, 26)} | {nfc: 5}
    enrollment = Enrollment(untagged_deck(tmp_path), existing, start=5)
    card = enrollment.expected()
    assert card is not None and card.number == 5 and enrollment.remaining == 21
    outcome = enrollment.offer("EE12345678")
    assert outcome.kind == "accepted" and outcome.replaced == (em(5),)
    assert outcome.message() == f"card 5 (Figure005): tag EE12345678 saved (replaces {em(5)})"
    assert enrollment.tags_of(5) == (nfc, "EE12345678")
    assert em(5) not in enrollment.tag_map
    # The old tag is free again.
    assert enrollment.offer(em(5)).kind == "accepted"


def test_from_must_name_a_card(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="has no card 26"):
        Enrollment(untagged_deck(tmp_path), start=26)


def test_quadrants_choose_cards_by_place(tmp_path: Path) -> None:
    deck = load_deck(write_deck(tmp_path, untagged_data(quadrants=(1, 2, 3, 4))))
    enrollment = Enrollment(deck, quadrants=(2,))
    chosen = [card.number for card in enrollment.selected]
    assert len(chosen) == 25 and chosen == sorted(chosen)
    assert all(26 <= card.place <= 50 for card in enrollment.selected)
    first = enrollment.expected()
    assert first is not None and first.number == chosen[0]
    assert enrollment.progress() == (1, 25)
    enrollment.offer(em(first.number))
    assert enrollment.progress() == (2, 25)


def test_from_within_quadrants(tmp_path: Path) -> None:
    deck = load_deck(write_deck(tmp_path, untagged_data(quadrants=(1, 2))))
    enrollment = Enrollment(deck, quadrants=(1,), start=40)
    assert all(card.number >= 40 and card.quadrant == 1 for card in enrollment._queue)


def test_a_quadrant_without_cards(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"no cards in quadrant 3 \(SW, Egyptian\)"):
        Enrollment(untagged_deck(tmp_path), quadrants=(1, 3))


def test_a_bad_tag_is_not_offered(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a tag id"):
        Enrollment(untagged_deck(tmp_path)).offer("XYZ")


@pytest.mark.parametrize(
    ("text", "quadrants"),
    [("1,2", (1, 2)), ("2, 1", (1, 2)), ("nw,SE", (1, 4)), ("3,3", (3,)), ("4", (4,))],
)
def test_parse_quadrants(text: str, quadrants: tuple[int, ...]) -> None:
    assert parse_quadrants(text) == quadrants


@pytest.mark.parametrize("text", ["0", "5", "north", "", "1,,2"])
def test_parse_quadrants_refuses(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="not a quadrant"):
        parse_quadrants(text)


def test_cards_in_quadrants_all_by_default(tmp_path: Path) -> None:
    deck = load_deck(write_deck(tmp_path, deck_data()))
    assert [c.number for c in cards_in_quadrants(deck)] == list(range(1, 101))


# ---- run_enrollment: the loop between the reader and the state machine ---------------------


def _presented(tag: str) -> CardPresented:
    return CardPresented(tag, 0, "rdm6300")


def _removed(tag: str) -> CardRemoved:
    return CardRemoved(tag, 0, "rdm6300")


def test_run_takes_a_card_after_the_last_is_removed(tmp_path: Path) -> None:
    enrollment = Enrollment(untagged_deck(tmp_path), start=23)
    saved: list[dict[str, int]] = []
    lines: list[str] = []
    events: list[CardEvent] = [
        _presented(em(23)),  # card 23
        _presented(em(23)),  # still card 23 (no removal in between): not offered again
        _removed(em(23)),
        _presented(em(23)),  # laid down again: now it is offered for card 24, and refused
        _removed(em(23)),
        _presented(em(24)),  # card 24
        _presented(em(25)),  # a different tag without a removal: taken for card 25
        _presented(em(99)),  # never read: the walk is over
    ]
    run_enrollment(enrollment, iter(events), save=saved.append, say=lines.append)
    assert lines == [
        "[23/25] scan card 23: Figure023",
        f"  card 23 (Figure023): tag {em(23)} saved",
        "[24/25] scan card 24: Figure024",
        f"  tag {em(23)} is already card 23 (Figure023); scan card 24",
        f"  card 24 (Figure024): tag {em(24)} saved",
        "[25/25] scan card 25: Figure025",
        f"  card 25 (Figure025): tag {em(25)} saved",
    ]
    assert saved == [{em(23): 23}, {em(23): 23, em(24): 24}, {em(n): n for n in (23, 24, 25)}]
    assert summary(enrollment) == (
        "3 tags saved, 1 scan refused; 22 of 25 cards have no tag yet "
        "(the first is card 1: Figure001); run again to resume"
    )


def test_run_never_shows_a_fact(tmp_path: Path) -> None:
    deck = untagged_deck(tmp_path)
    enrollment = Enrollment(deck)
    lines: list[str] = []

    def events() -> Iterator[CardEvent]:
        for number in range(1, 26):
            yield _presented(em(number))
            yield _presented(em(1))  # a duplicate now and then
            yield _removed(em(1))

    run_enrollment(enrollment, events(), save=lambda tags: None, say=lines.append)
    assert enrollment.done
    text = "\n".join(lines)
    for card in deck.cards:
        for fact in card.facts:
            assert fact not in text
        assert card.front not in text
    assert summary(enrollment) == "25 tags saved, 23 scans refused; all 25 cards have a tag"


def test_run_stops_when_the_events_end(tmp_path: Path) -> None:
    enrollment = Enrollment(untagged_deck(tmp_path))
    run_enrollment(enrollment, iter([_presented(em(1))]), save=lambda tags: None, say=print)
    assert enrollment.progress() == (2, 25)


def test_run_with_nothing_to_do_reads_nothing(tmp_path: Path) -> None:
    enrollment = Enrollment(untagged_deck(tmp_path), {em(n): n for n in range(1, 26)})

    def events() -> Iterator[CardEvent]:
        raise AssertionError("read")
        yield  # pragma: no cover

    run_enrollment(enrollment, events(), save=lambda tags: None, say=print)
