"""A game at the table, whatever the game: what the app starts, shows, steps and puts down.

Each game's plugin names the module whose `SEAT` (a `Seat`) begins a game of it from the
New game screen's choices and takes a game up at the table (`GamePlugin.table`). The app's
controller (companion/ui/controller.py) opens what every game shares (the card reader, the
camera's calibration, the stream) and hands it over as an `AtTheTable`; the seat builds the
game's own play on it: its live game, its simulated opponent, its virtual table.

    seat = seat_of("mem")
    referee = seat.begin(choices, store, config)
    play = seat.take_up(referee, at)
    play.subscribe(show); play.step(); play.close()
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from companion.games import find_plugin
from companion.table.camera_watch import CameraWatch
from companion.table.not_started import NotStarted

if TYPE_CHECKING:
    from companion.config import Config
    from companion.session import Notification, Referee
    from companion.store import Store
    from companion.table.card_reading import CardReading
    from companion.table.choices import NewGameForm
    from companion.table.views import AlertView, EndView

AGAINST_THE_COMPANION = ", against the companion"
"""How a game's title says its last side is played by the companion: a resumed game is
played against it again."""

Board = Mapping[str, tuple[str, ...]]
"""What a camera reads: the pieces on each zone, by colour."""

CallSoon = Callable[[Callable[[], None]], None]
"""Runs a job on the thread that plays the game (the app's clock, in the app)."""


def companion_side(title: str, sides: int) -> int | None:
    """The side the companion plays in a game with this title, if it plays one."""
    return sides - 1 if title.endswith(AGAINST_THE_COMPANION) and sides > 1 else None


class Play(Protocol):
    """A game taken up at the table."""

    @property
    def referee(self) -> Referee: ...

    def view(self) -> Any:
        """What its live screen draws now; every view has `over`."""
        ...

    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        """`listener` gets each new view; returns what stops it."""
        ...

    def end_view(self) -> EndView:
        """The end screen's account of the finished game."""
        ...

    def step(self) -> bool:
        """Lets the companion or a simulated opponent move when the rules wait on it; True
        when it did. Called a few times a second."""
        ...

    def close(self) -> None:
        """Stops what the play runs (a virtual table, a camera watch, a search)."""
        ...


@runtime_checkable
class Mirrors(Protocol):
    """A play that can tell the players at its table what another table's move changed on
    the board (remote play, companion/remote/at_table.py), and whether its camera sees the
    board as the rules have it. A play without it: the move is narrated, and a touch says
    the pieces are laid."""

    def mirror_instruction(self, before: Any, note: Notification) -> str:
        """What to lay, take or turn at this table for the move `note` made elsewhere from
        the state `before`, in words ("Basil claims place 12: put a red crystal on place
        12."); '' when the move changes nothing on the board. Names no hidden value."""
        ...

    def table_matches(self) -> bool | None:
        """Whether the camera sees the board as the rules have it (a player's override
        counting as the rules' contents); None when no camera watches the board."""
        ...


@dataclass(frozen=True, kw_only=True)
class AtTheTable:
    """What the controller offers a game taken up at its table."""

    store: Store
    call_soon: CallSoon
    on_alert: Callable[[tuple[AlertView, ...]], None]
    virtual_table: bool = False
    """Play on a simulated table filmed by the virtual camera."""
    camera_spec: str | None = None
    """A real camera watches the board."""
    camera: bool = False
    """The live screen shows the camera's state (a camera is expected)."""
    calibration_path: Callable[[str], Path]
    """Where a game's board calibration is kept (by game name)."""
    release_camera: Callable[[], None]
    """Lets go of the camera the setup screen holds, before a game watches it."""
    reading: CardReading | None = None
    """The card reader, for a game played with cards when one is configured."""

    @property
    def watched(self) -> bool:
        """A camera, real or virtual, reads the board."""
        return self.camera or self.virtual_table or self.camera_spec is not None

    def watch_board(
        self,
        game: str,
        *,
        seen: Callable[[Board], None],
        lost: Callable[[str], None],
        unsure: Callable[[frozenset[str]], None] | None = None,
        counters: Callable[[dict[str, tuple[int | None, ...]]], None] | None = None,
        initial: Board | None = None,
        colours: Sequence[str] = (),
    ) -> CameraWatch | None:
        """The real camera (`camera_spec`) over `game`'s board, with the calibration made for
        it: what it reads is handed to `seen`, `lost`, `unsure` and `counters` (the
        topology counters committed, for a board that has them) on the game's thread.
        None, `lost` told why at once, when it cannot watch: a calibration that has not
        learnt one of the game's `colours` is one such."""
        if self.camera_spec is None:
            return None
        self.release_camera()  # one user of the camera at a time
        calibration = self.calibration_path(game)
        if not calibration.is_file():
            title = find_plugin(game).title
            lost(
                f"the camera is not calibrated for {title} yet ({calibration}): "
                f"Set up the camera, board {title}, makes it"
            )
            return None
        call_soon = self.call_soon
        watch = CameraWatch.start(
            self.camera_spec,
            calibration,
            on_seen=lambda board: call_soon(lambda: seen(board)),
            on_lost=lambda why: call_soon(lambda: lost(why)),
            initial=initial,
            on_unsure=(lambda zones: call_soon(lambda: unsure(zones))) if unsure else None,
            on_counters=((lambda board: call_soon(lambda: counters(board))) if counters else None),
            colours=colours,
        )
        if isinstance(watch, NotStarted):
            lost(watch.why)
            return None
        return watch


class Seat(Protocol):
    """How a game is begun and taken up at the table."""

    def form(self, game: str) -> NewGameForm:
        """What the New game screen asks to begin a game of `game`."""
        ...

    def begin(self, choices: Any, store: Store, config: Config) -> Referee:
        """A new game in the store from the New game screen's choices; ValueError when they
        make no game."""
        ...

    def take_up(self, referee: Referee, at: AtTheTable, choices: Any = None) -> Play:
        """The game's play at this table: a new game with the choices it was begun with, or
        one resumed (`choices` None)."""
        ...


def seat_of(game: str) -> Seat:
    """The seat of a registered game (UserError for an unknown one)."""
    seat: Seat = import_module(find_plugin(game).table).SEAT
    return seat
