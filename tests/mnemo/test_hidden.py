"""No public output of MnemoGame depends on what a face-down chip is: for random games, two
states that differ only in the contents of face-down chips give the same spectator view
(and the same view to every other side), and an action applied to both gives the same
events and the same sentences, up to the end of the game (where every word is shown).

The laying phase too: the example setups include one whose players lay their words in play,
and a word laid is told by its chips alone: another word of as many chips, laid instead,
gives the same events, sentences, spectator view and other sides' views."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import find_plugin
from companion.games.contract import IllegalAction, Viewer
from companion.games.mnemo import actions as A
from companion.games.mnemo.letters import HYPHEN, KIND_AHA, LETTERS, NO_VALUE
from companion.games.mnemo.setup import Chip
from companion.games.mnemo.state import State
from tests.games.play import play, seeded

PLUGIN = find_plugin("mnemo")
ENGINE = PLUGIN.engine
PLAIN = [c for c in LETTERS if c not in NO_VALUE]


def _with_rows(state: State, rows: dict[int, tuple[Chip, ...]]) -> State:
    return replace(state, chips=tuple(rows.get(s, row) for s, row in enumerate(state.chips)))


def shuffled(state: State, side: int, rng: random.Random) -> State:
    """`side`'s face-down chips moved about and given other letters: decoys, JOALs and
    letters may change places."""
    row = list(state.chips[side])
    down = list(state.face_down(side))
    contents = [row[j] for j in down]
    rng.shuffle(contents)
    for j, chip in zip(down, contents, strict=True):
        row[j] = chip if chip.kind == KIND_AHA else replace(chip, shows=rng.choice(LETTERS))
    return _with_rows(state, {side: tuple(row)})


def relettered(before: State, after: State, action: object, rng: random.Random) -> State:
    """Every chip still face down after `action` given another letter, keeping what the
    rules act on by their nature: decoys stay decoys, V, W, X, Z and hyphens stay, and a
    chip guessed at is never given the letter guessed (a wrong guess stays wrong)."""
    guessed: dict[tuple[int, int], set[str]] = {}
    if isinstance(action, A.Guess):
        guessed.setdefault((action.owner, action.chip), set()).add(action.guess)
    if before.pair is not None:
        guessed.setdefault(before.pair[:2], set()).add(before.pair[2])
    rows: dict[int, tuple[Chip, ...]] = {}
    for side in range(before.side_count):
        row = list(before.chips[side])
        for j in after.face_down(side):
            if j >= len(row):
                continue  # the word `action` lays: tested apart (another word laid instead)
            chip = row[j]
            if chip.kind == KIND_AHA or chip.shows in NO_VALUE or chip.shows == HYPHEN:
                continue
            choices = [c for c in PLAIN if c not in guessed.get((side, j), set())]
            row[j] = replace(chip, shows=rng.choice(choices))
        rows[side] = tuple(row)
    return _with_rows(before, rows)


@settings(max_examples=12, deadline=None)
@given(example=st.sampled_from(list(PLUGIN.example_setups())), seed=st.integers(0, 2**32 - 1))
def test_nothing_public_depends_on_face_down_chips(example: dict[str, Any], seed: int) -> None:
    game = play(PLUGIN, seeded(example, seed), seed, 160)
    rng = random.Random(seed)
    say = PLUGIN.narrator(game.start)
    for before, step in zip(game.states, game.steps, strict=False):
        if step.state.outcome is not None:
            break
        sides = before.side_count
        side = rng.randrange(sides)
        other = shuffled(before, side, rng)
        viewers: list[Viewer] = ["spectator", *(s for s in range(sides) if s != side)]
        for viewer in viewers:
            assert ENGINE.view(other, viewer) == ENGINE.view(before, viewer), viewer
        assert ENGINE.summary(other) == ENGINE.summary(before)
        twin = relettered(before, step.state, step.action, rng)
        _, events = ENGINE.apply(twin, step.action)
        assert events == step.events, step.action
        assert [say(e) for e in events] == [say(e) for e in step.events]


def other_word(action: A.LayWord, rng: random.Random) -> A.LayWord:
    """Another word of the same length, decoys and JOALs, other letters and other facts."""
    letters = [c for c in PLAIN if c not in action.word.upper()]
    word = "".join(rng.choice(letters) for _ in action.word.strip())
    facts = replace(action.facts, noun=not action.facts.noun, spelt=not action.facts.spelt)
    return replace(action, word=word, facts=facts, spell_from=rng.choice(("left", "right")))


LAYING = [e for e in PLUGIN.example_setups() if any("word" not in s for s in e["sides"])]


def test_an_example_setup_has_words_laid_in_play() -> None:
    assert LAYING


@settings(max_examples=12, deadline=None)
@given(example=st.sampled_from(LAYING), seed=st.integers(0, 2**32 - 1))
def test_a_word_laid_is_told_by_its_chips_alone(example: dict[str, Any], seed: int) -> None:
    game = play(PLUGIN, seeded(example, seed), seed, 12)
    rng = random.Random(seed)
    say = PLUGIN.narrator(game.start)
    laid = 0
    for before, step in zip(game.states, game.steps, strict=False):
        if not isinstance(step.action, A.LayWord):
            continue
        laid += 1
        side = step.action.side
        for _ in range(100):  # another word the box has the letters for (MN-S5)
            try:
                after, events = ENGINE.apply(before, other_word(step.action, rng))
                break
            except IllegalAction:
                continue
        else:
            raise AssertionError(f"no other word of {len(step.action.word)} letters fits")
        assert events == step.events
        assert [say(e) for e in events] == [say(e) for e in step.events]
        for event in events:  # nothing of the word in any event
            written = ENGINE.event_to_dict(event)
            fields = json.dumps([v for k, v in written.items() if k != "type"]).upper()
            assert step.action.word.upper() not in fields
        viewers: list[Viewer] = ["spectator", *(s for s in range(before.side_count) if s != side)]
        for viewer in viewers:
            assert ENGINE.view(after, viewer) == ENGINE.view(step.state, viewer), viewer
        assert ENGINE.summary(after) == ENGINE.summary(step.state)
        # Its player's own view shows it, as a word given by the setup is shown.
        assert ENGINE.view(step.state, side)["secret"][0]["word"] == step.action.word.upper()
    assert laid == sum(1 for s in example["sides"] if "word" not in s)


def test_a_spectator_sees_no_letter_of_a_face_down_chip() -> None:
    state, _ = ENGINE.start(PLUGIN.example_setups()[0])
    view = ENGINE.view(state, "spectator")
    assert "secret" not in view
    for side in view["sides"]:
        assert side["word"] is None and side["facts"] is None
        assert all(
            c == {"chip": c["chip"], "up": False, "shows": None, "kind": None}
            for c in side["chips"]
        )
    own = ENGINE.view(state, 0)
    assert [s["side"] for s in own["secret"]] == [0]
    assert own["secret"][0]["word"] == "STAR"
    assert len(ENGINE.view(state, "table")["secret"]) == 2
