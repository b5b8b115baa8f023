"""Every option of a MeM game (companion/games/options.py), as its rule book's setup gives
them. House rules are listed apart (companion/games/mem/rules.py)."""

from __future__ import annotations

from companion.games.options import TIME_CONTROLS, GameOption, time_control_text

OPTIONS: tuple[GameOption, ...] = (
    GameOption(
        "game",
        "Game",
        "Which game: MEM-Solitaire, Mini-MEM or the MEM game?",
        "",
        "mem",
        (("MEM-Solitaire", "solitaire"), ("Mini-MEM", "mini"), ("MEM game", "mem")),
    ),
    GameOption(
        "board",
        "Deal",
        "The stones as dealt by hand on the table, row by row (a BOARD text), or dealt by "
        "the companion when left empty?",
        "",
        "",
        (),
    ),
    GameOption(
        "first_player",
        "Deal",
        "Who goes first: drawn from the deal, or agreed by the players?",
        "MEM-A12",
        None,
        (("Drawn", None), ("Player 1", 0), ("Player 2", 1)),
    ),
    GameOption(
        "clock.controls.*",
        "Time",
        "This player's time on the game clock (a handicap in time when they differ)?",
        "",
        "",
        tuple((time_control_text(t), t) for t in TIME_CONTROLS),
    ),
)
