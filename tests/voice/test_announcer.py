"""The companion says what every viewer may know, and nothing more: each event's sentence as
the stream narrates it, then the prompt of the spectator view; Settings turns it off."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import find_plugin, plugin_names
from companion.publish.stream import narrator_for, spectator_view
from companion.session import Notification, Referee
from companion.store import Store
from companion.table.wiring import parts_of
from companion.voice.announcer import Announcer


def _played(game: str, seed: int, moves: int, tmp: Path) -> tuple[list[str], list[str]]:
    """(what the companion said, the public account: the stream's event sentences and the
    spectator prompts) of a random game."""
    plugin = find_plugin(game)
    said: list[str] = []
    public: list[str] = []
    with Store.open(tmp / f"{game}-{seed}.sqlite3") as store:
        referee = Referee.start(store, game, plugin.example_setups()[0], {}, title="t")
        narrate = narrator_for(referee.engine, referee.state)

        def account(note: Notification) -> None:
            public.extend(narrate(event) for event in note.events)
            expected = spectator_view(referee.engine, note.state).get("expected") or {}
            public.append(expected.get("prompt") or "")

        referee.subscribe(account)
        put_down = Announcer(said.append, enabled=lambda: True).attach(parts_of(referee))
        rng = random.Random(seed)
        for _ in range(moves):
            if referee.is_over:
                break
            referee.submit(plugin.random_action(referee.state, rng))
        put_down()
    return said, public


@settings(max_examples=6, deadline=None)
@given(game=st.sampled_from(plugin_names()), seed=st.integers(0, 10_000))
def test_every_sentence_said_is_in_the_public_account(
    game: str, seed: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    said, public = _played(game, seed, 40, tmp_path_factory.mktemp("voice"))
    assert said, "a game of forty moves says something"
    assert set(said) <= set(public) - {""}


def test_after_each_move_comes_what_the_rules_wait_for(tmp_path: Path) -> None:
    said, _ = _played("memento", 3, 1, tmp_path)
    assert said[0].startswith("Ada opens with a Single")
    assert said[-1].startswith("Bo:")  # the prompt of the next move


def test_a_game_put_down_is_no_longer_heard(tmp_path: Path) -> None:
    plugin = find_plugin("mem")
    said: list[str] = []
    with Store.open(tmp_path / "g.sqlite3") as store:
        referee = Referee.start(store, "mem", plugin.example_setups()[0], {}, title="t")
        put_down = Announcer(said.append, enabled=lambda: True).attach(parts_of(referee))
        put_down()
        referee.submit(plugin.random_action(referee.state, random.Random(1)))
    assert said == []


def test_switched_off_it_says_nothing_and_on_again_it_speaks(tmp_path: Path) -> None:
    plugin = find_plugin("memento")
    said: list[str] = []
    on = [False]
    rng = random.Random(5)
    with Store.open(tmp_path / "g.sqlite3") as store:
        referee = Referee.start(store, "memento", plugin.example_setups()[0], {}, title="t")
        Announcer(said.append, enabled=lambda: on[0]).attach(parts_of(referee))
        referee.submit(plugin.random_action(referee.state, rng))
        assert said == []
        on[0] = True
        referee.submit(plugin.random_action(referee.state, rng))
    assert said


def test_in_german_it_says_the_same_public_account_translated(tmp_path: Path) -> None:
    from companion.voice.catalogue import catalogue_for

    german = catalogue_for("de")
    plugin = find_plugin("memwars")
    said: list[str] = []
    english: list[str] = []
    with Store.open(tmp_path / "de.sqlite3") as store:
        referee = Referee.start(store, "memwars", plugin.example_setups()[1], {}, title="t")
        Announcer(said.append, enabled=lambda: True, translate=german.translate).attach(
            parts_of(referee)
        )
        Announcer(english.append, enabled=lambda: True).attach(parts_of(referee))
        rng = random.Random(4)
        for _ in range(30):
            referee.submit(plugin.random_action(referee.state, rng))
    assert said == [german.translate(sentence) for sentence in english]
    assert said != english and any("ist am Zug" in sentence for sentence in said)


def test_a_move_made_at_the_other_table_is_to_be_laid_here(tmp_path: Path) -> None:
    """In remote play the other table's move comes in with its own time: it is said, then
    that it is to be laid here, then what the rules wait for."""
    from companion.voice.announcer import ELSEWHERE
    from companion.voice.catalogue import catalogue_for

    plugin = find_plugin("memwars")
    said: list[str] = []
    with Store.open(tmp_path / "g.sqlite3") as store:
        referee = Referee.start(store, "memwars", plugin.example_setups()[0], {}, title="t")
        put_down = Announcer(said.append, enabled=lambda: True).attach(parts_of(referee))
        rng = random.Random(2)
        referee.submit(plugin.random_action(referee.state, rng))
        assert ELSEWHERE not in said
        referee.submit(plugin.random_action(referee.state, rng), t=referee.elapsed() + 1.0)
        put_down()
    assert said.count(ELSEWHERE) == 1
    assert said[said.index(ELSEWHERE) - 1] != ELSEWHERE  # the move is said first
    assert catalogue_for("de").knows(ELSEWHERE)
