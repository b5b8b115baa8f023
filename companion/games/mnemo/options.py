"""Every option of a MnemoGame game (companion/games/options.py). House rules are listed
apart (companion/games/mnemo/rules.py)."""

from __future__ import annotations

from companion.games.mnemo.letters import DIVISIONS
from companion.games.options import GameOption

OPTIONS: tuple[GameOption, ...] = (
    GameOption(
        "words",
        "Setup",
        "Who lays the secret words: dealt by the companion, or laid by each player on their "
        "own phone?",
        "MN-S2",
        "dealt",
        (("Dealt by the companion", "dealt"), ("Laid on the players' phones", "phones")),
    ),
    GameOption(
        "icecq",
        "Setup",
        "Play the ICECQ questions along with the vocabulary game?",
        "MN-S1",
        False,
        (("No", False), ("Yes", True)),
    ),
    GameOption(
        "division",
        "Setup",
        "Open play, or a tournament division's word lengths and AHA chips?",
        "MN-S4",
        None,
        (("Open", None), *((f"{d} {DIVISIONS[d].name}", d) for d in DIVISIONS)),
    ),
    GameOption(
        "numbers",
        "Components",
        "A 12-sided die, or 12 number cards?",
        "MN-C3",
        "die",
        (("Die", "die"), ("Number cards", "cards")),
    ),
    GameOption(
        "first_player",
        "Setup",
        "Who rolls first: drawn by the companion, or agreed?",
        "MN-S6",
        None,
        (("Drawn", None), ("Player 1", 0), ("Player 2", 1), ("Player 3", 2), ("Player 4", 3)),
    ),
    GameOption(
        "guess_seconds",
        "Guessing",
        "A time limit for each guess?",
        "MN-T4",
        0,
        (("None", 0), ("30 seconds", 30)),
    ),
)
