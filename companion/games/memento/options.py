"""Every option of a memento ludis game (companion/games/options.py). House rules are
listed apart (companion/games/memento/rules.py)."""

from __future__ import annotations

from companion.games.options import GameOption

OPTIONS: tuple[GameOption, ...] = (
    GameOption(
        "first_player",
        "Setup",
        "Who goes first: drawn by the companion, or agreed?",
        "",
        None,
        (("Drawn", None), ("Player 1", 0), ("Player 2", 1), ("Player 3", 2), ("Player 4", 3)),
    ),
)
