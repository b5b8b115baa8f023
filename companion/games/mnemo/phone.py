"""What a MnemoGame player sends from their own phone's page (companion/games/
private_inputs.py): their secret word, while the words are laid (MN-S2), and a guess of a
whole word, when it is their guess (MN-SC4): typed, for a word is any text.

    private_inputs(state, 1)    # (PrivateInput("lay_word", ...),) while Bo has no word
"""

from __future__ import annotations

from typing import Any

from companion.games.mnemo.engine import accepted, actor, targets
from companion.games.mnemo.letters import MAX_AHAS
from companion.games.mnemo.state import State
from companion.games.private_inputs import InputField, PrivateInput

MOST_LETTERS = 12
"""The JOAL choices offered in open play: a letter of the first twelve."""


def private_inputs(state: State, side: int) -> tuple[PrivateInput, ...]:
    if state.outcome is not None:
        return ()
    if state.phase == "lay":
        # Any player still without a word may lay it, in whatever order they are ready.
        return (laying(state),) if state.words[side] is None else ()
    if actor(state) == side and "guess_word" in accepted(state):
        owners = tuple(o for o in targets(state, side) if not state.word_guessed[o])
        return (word_guess(state, owners),) if owners else ()
    return ()


def laying(state: State) -> PrivateInput:
    division = state.setup.division_rules
    most = division.ahas if division is not None else MAX_AHAS
    decoys = tuple((str(n), n) for n in range(most + 1))
    letters = division.most if division is not None and division.most else MOST_LETTERS
    joal: tuple[tuple[str, Any], ...] = (
        ("None", []),
        *((f"Letter {i + 1}", [i]) for i in range(letters)),
    )
    return PrivateInput(
        "lay_word",
        "Lay it face down",
        (
            InputField("word", "Your secret word"),
            InputField("aha_before", "AHA decoys before it", decoys),
            InputField("aha_after", "AHA decoys after it", decoys),
            InputField(
                "spell_from", "Spelt from", (("Your left", "left"), ("Your right", "right"))
            ),
            InputField("joal", "A JOAL chip for (a letter the box has run out of)", joal),
        ),
    )


def word_guess(state: State, owners: tuple[int, ...]) -> PrivateInput:
    """The whole word of an opponent, typed: the companion checks it against the word laid
    (a wrong one ends the turn)."""
    return PrivateInput(
        "guess_word",
        "Guess the whole word",
        (
            InputField("owner", "Whose word", tuple((state.setup.names[o], o) for o in owners)),
            InputField("word", "The word"),
        ),
    )
