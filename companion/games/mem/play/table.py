"""MeM at the table: the game, the companion when it plays the second side, the game clock
when one runs, and what films its board (the virtual table, or a real camera with a MeM
calibration of its own).

The companion plays the last side when the New game screen's Opponent row says so; that and
its strength are kept in the game's title (mem_title), so that a resumed game is played
against it again. Its actions go through the same referee as the players' touches, so on
the virtual table its stones are laid as the rules say, like everyone's.
"""

from __future__ import annotations

from typing import Any

from companion.config import Config
from companion.games.contract import BadSetup
from companion.games.mem.play.game import MemPlay
from companion.games.mem.play.opponent import DEFAULT_STRENGTH
from companion.games.mem.play.virtual_table import VirtualMemTable, camera_stones
from companion.games.mem.screens.choices import (
    MemChoices,
    MemForm,
    companion_strength,
    hints_allowed,
    mem_setup_for,
    mem_title,
)
from companion.games.mem.table import rules_board, table_board
from companion.games.options import clock_controls
from companion.session import Referee
from companion.store import Store
from companion.table.camera_watch import CameraWatch
from companion.table.choices import game_clock, new_deal
from companion.table.not_started import NotStarted
from companion.table.play import AtTheTable, Seat, companion_side


class MemAtTable(MemPlay):
    """A MeM game, with the simulated table or the camera watch that feeds it; `step` lets
    the companion move when it plays a side (MemPlay.step)."""

    def __init__(self, referee: Referee, **kwargs: Any) -> None:
        super().__init__(referee, **kwargs)
        self.table: VirtualMemTable | None = None
        """The simulated table, when the game is played on one."""
        self.watch: CameraWatch | None = None

    def table_tap(self, square: int) -> None:
        """A tap on the simulated table: a hand takes the stone on `square` off, or puts
        back the one it took."""
        if self.table is not None:
            self.table.tap(square)

    def close(self) -> None:
        if self.table is not None:
            self.table.stop()
            self.table = None
        if self.watch is not None:
            self.watch.stop()
            self.watch = None
        super().close()

    def lay_table(self, at: AtTheTable) -> None:
        """A simulated MeM table: the rules' stones dealt on it, filmed by the virtual camera;
        what it commits goes to the game on the game's thread."""

        def seen(board: dict[str, tuple[str, ...]]) -> None:
            at.call_soon(lambda: self.table_seen(board))

        def unsure(zones: frozenset[str]) -> None:
            at.call_soon(lambda: self.table_unsure(zones))

        def failed(why: str) -> None:
            at.call_soon(lambda: self.camera_lost(why))

        table = VirtualMemTable.start(rules_board(self.state), on_seen=seen, on_unsure=unsure)
        if isinstance(table, NotStarted):
            self.camera_lost(f"the virtual camera did not start: {table.why}")
            return
        table.on_failure = failed
        self.table = table
        # After every action the players do the table work the rules ask for (a captured
        # group taken off, a stone a takeback returns put back), at once; a stone held for
        # the other player's block or allow stays in its player's hand.
        self.referee.subscribe(lambda _note: table.follow(table_board(self.state)))

    def watch_camera(self, at: AtTheTable) -> None:
        """The real camera over a MeM board: it needs a MeM calibration of its own."""
        self.watch = at.watch_board(
            "mem",
            seen=self.table_seen,
            lost=self.camera_lost,
            unsure=self.table_unsure,
            initial=camera_stones(rules_board(self.state)),
        )


class MemSeat:
    def form(self, game: str) -> MemForm:
        return MemForm()

    def begin(self, choices: MemChoices, store: Store, config: Config) -> Referee:
        """A new MeM game: dealt from the choices' seed, or from a random one; with a clock
        when the choices have a time control (not in MEM-Solitaire), against the companion
        when they say so."""
        seed = choices.seed if choices.seed is not None else new_deal()
        setup = mem_setup_for(choices, seed)
        sides = len(setup["sides"])
        strength = choices.strength if choices.companion and sides > 1 else None
        title = mem_title(setup, choices.hints, strength)
        controls = clock_controls(choices.options, sides, choices.time_control)
        clock = game_clock(controls) if setup.get("timer") else None
        try:
            return Referee.start(store, "mem", setup, {}, title=title, game_clock=clock)
        except BadSetup as err:
            raise ValueError(f"cannot set up this game: {err}") from None

    def take_up(
        self, referee: Referee, at: AtTheTable, choices: MemChoices | None = None
    ) -> MemAtTable:
        title = at.store.game(referee.game_id).title
        strength = companion_strength(title)
        side = companion_side(title, len(referee.state.sides)) if strength is not None else None
        play = MemAtTable(
            referee,
            title=title,
            hints=hints_allowed(title),
            companion_side=side,
            strength=strength or DEFAULT_STRENGTH,
            call_soon=at.call_soon,
            camera=at.watched,
            on_alert=at.on_alert,
        )
        if at.virtual_table:
            play.lay_table(at)
        elif at.camera_spec is not None:
            play.watch_camera(at)
        return play


SEAT: Seat = MemSeat()
