"""What the touchscreen app does, without the touchscreen: starting, resuming and playing
games. The screens call this and draw the views of the play it gives; nothing here imports
Kivy, so the whole app can be driven by tests and scripts too.

    app = Controller(config, store)
    app.resumable()                  # games a power cut interrupted
    play = app.start("memwars", MemWarsChoices(names=("Ann", "Bo"), opponent=True))
    play.decide("claim", 17)         # a touch
    app.step()                       # often: a simulated opponent, the game clock

    app.host_remote(broker, match="ada-basil", host_sides={0}, guest_sides={1})
    play = app.join_remote(broker, match="ada-basil")   # at the other companion
    app.remote.view().line           # 'Remote: connected to Basil's table'

Every game is begun and taken up by its seat (companion/table/play.py), which its plugin
names; what every game shares (the card reader, the camera's calibration, the clock, the
stream) is opened here.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.clock.display import format_time
from companion.clock.presses import ButtonPress
from companion.config import Config
from companion.decks import find_deck
from companion.devices.keyboard import KeyboardButtons
from companion.games import find_plugin, plugin_names
from companion.games.contract import IllegalAction
from companion.remote.at_table import (
    RemoteBroker,
    RemoteChoice,
    RemoteTable,
    guest_table,
    host_table,
    invitation_of,
    side_count,
)
from companion.remote.errors import RemoteError
from companion.remote.shared import join
from companion.session import Referee
from companion.store import GameRow, Store
from companion.study.from_play import learn_from_games
from companion.study.log import StudyLog
from companion.study.session import StudySession
from companion.table.camera_setup import CameraSetup, camera_games, profile_of
from companion.table.card_reading import (
    CardReading,
    EmulatedReader,
    ReaderChoice,
    ReaderUnavailable,
    SerialReader,
)
from companion.table.game_clock import GameClock
from companion.table.observations import ScanDesk
from companion.table.play import AtTheTable, Play, Seat, seat_of
from companion.table.views import AlertView
from companion.table.wiring import OnGame, parts_of
from companion.ui.enrolling import Enrolling

log = logging.getLogger(__name__)


@dataclass
class ClockFace:
    texts: tuple[str, ...] = ()
    running: int | None = None
    paused: bool = False
    details: tuple[str, ...] = ()
    """Under each time: `delay 3.5` while a simple delay runs (the time stands still),
    byo-yomi periods, `flag` once a flag has fallen; mostly ''."""
    delaying: int | None = None
    """The player whose simple delay is running, if one is."""


class Controller:
    def __init__(
        self,
        config: Config,
        store: Store,
        *,
        camera: bool = False,
        on_alert: Callable[[tuple[AlertView, ...]], None] | None = None,
        on_game: OnGame | None = None,
        virtual_table: bool = False,
        call_soon: Callable[[Callable[[], None]], None] | None = None,
    ) -> None:
        """`on_game` is called with each game taken up, with its clock and its card scans
        (to stream it, say), and returns what to call when the game is put down. With
        `virtual_table`, each game is played on a simulated table filmed by the virtual
        camera: the camera is on, and `call_soon` carries what it reads over to the thread
        that plays the game."""
        self.config = config
        self.store = store
        self.camera = camera
        self.on_alert = on_alert
        self.on_game = on_game
        self.play: Play | None = None
        """The game being played, if one is."""
        self.clock: GameClock | None = None
        """Its game clock, when it is timed (and kept here: not at a remote game's guest,
        which shows the host's)."""
        self.remote: RemoteTable | None = None
        """The link to the other table, while the game is played remotely."""
        self.config_path: Path | None = None
        """Where Settings saves; None for the usual place (`companion config path`)."""
        self._put_down: Callable[[], None] | None = None
        self.virtual_table = virtual_table
        self.call_soon = call_soon or (lambda job: job())
        self._keys: KeyboardButtons | None = None
        self._study: StudySession | None = None
        self.simulated_camera: Any = None
        """The setup screen's camera when no real one is given: a simulated table."""
        self._camera_setup: CameraSetup | None = None
        self.camera_board = camera_games()[0][1]
        """The game whose board the setup screen calibrates the camera for."""
        self.camera_colours: tuple[str, ...] | None = None
        """The colours chosen to calibrate among those the board allows; None: the board's
        own set."""
        self._camera_source: Any = None
        self.camera_spec: str | None = None
        """A real camera (`companion app --camera SPEC`): it watches every game."""
        self.reading: CardReading | None = None
        """The game's card reader and scan desk, while a game with one is played."""
        self.reader_port = ""
        """A real card reader: [reader] port and protocol (`companion app` uses it when the
        port is set)."""
        self.enrolling: Enrolling | None = None

    # -- games -----------------------------------------------------------------------------

    def resumable(self) -> list[GameRow]:
        """Games still being played: interrupted, most recent first."""
        games = plugin_names()
        rows = [g for g in self.store.games() if g.status == "playing" and g.game in games]
        return sorted(rows, key=lambda g: g.id, reverse=True)

    def delete_game(self, game_id: int) -> None:
        """Deletes a game and its whole record from the store, for good (Home asks first).
        The game being played, if it is this one, is put down first."""
        if self.play is not None and self.play.referee.game_id == game_id:
            self.close()
        self.store.delete_game(game_id)

    def start(self, game: str, choices: Any) -> Play:
        """A new game of `game` from the New game screen's choices (its seat says which)."""
        seat = seat_of(game)
        referee = seat.begin(choices, self.store, self.config)
        with self._forgotten_if_not_taken_up(referee):
            return self._take_up(seat, referee, choices)

    def resume(self, game_id: int) -> Play:
        referee = Referee.resume(self.store, game_id)
        return self._take_up(seat_of(referee.engine.name), referee, None)

    def host_remote(
        self,
        broker: RemoteBroker,
        *,
        match: str,
        host_sides: Sequence[int],
        guest_sides: Sequence[int] | None = None,
    ) -> RemoteTable:
        """Shares the game being played (just started, or resumed) with another companion,
        which joins it as `match` (docs/remote-play.md): this table plays `host_sides`, the
        other `guest_sides` (by default every other side), and this table's game clock is
        the game's. RemoteError when no game is played, or the sides do not fit."""
        if self.play is None:
            raise RemoteError("no game is being played here to share")
        count = side_count(self.play.referee)
        if any(not 0 <= side < count for side in host_sides):
            raise RemoteError(f"this game's sides are 0 to {count - 1}, not {list(host_sides)}")
        if guest_sides is None:
            guest_sides = [side for side in range(count) if side not in host_sides]
        self._close_remote()
        self.remote = host_table(
            self.play.referee,
            self.play,
            broker,
            match=match,
            host_sides=host_sides,
            guest_sides=guest_sides,
            game_clock=self.clock,
        )
        return self.remote

    def join_remote(self, broker: RemoteBroker, *, match: str, timeout_s: float = 30.0) -> Play:
        """Joins the game another companion hosts as `match`, and takes it up at this table
        (again, after a restart, where the store left it). RemoteError when no invitation
        comes within `timeout_s`, or the game cannot be recorded here."""
        invitation = invitation_of(broker, match=match, timeout_s=timeout_s)
        referee = join(self.store, invitation)
        play = self._take_up(seat_of(referee.engine.name), referee, None, timed=False)
        self.remote = guest_table(play, broker, match=match, invitation=invitation)
        return play

    def begin_remote(self, choice: RemoteChoice) -> Play | None:
        """What `companion remote` asks at the app's start: joins the game hosted, or takes
        up and shares the game to resume. None when the game to host is still to be begun
        (New game): `share_started` shares it then."""
        broker = RemoteBroker.of(self.config.broker, choice.broker)
        if choice.role == "join":
            return self.join_remote(broker, match=choice.match, timeout_s=choice.timeout_s)
        if choice.resume is None:
            return None
        play = self.resume(choice.resume)
        self.host_remote(broker, match=choice.match, host_sides=choice.sides)
        return play

    def share_started(self, choice: RemoteChoice) -> None:
        """A game just begun at the host of `companion remote host`: shared."""
        if choice.role == "host" and self.play is not None and self.remote is None:
            broker = RemoteBroker.of(self.config.broker, choice.broker)
            self.host_remote(broker, match=choice.match, host_sides=choice.sides)

    def _take_up(self, seat: Seat, referee: Referee, choices: Any, *, timed: bool = True) -> Play:
        """`timed` False: the game's clock runs elsewhere (at a remote game's host: this is
        its guest), so none is kept or recorded here."""
        self.close()
        if find_plugin(referee.engine.name).deck:
            self._open_reader(referee)
        at = AtTheTable(
            store=self.store,
            call_soon=self.call_soon,
            on_alert=self._alerted,
            virtual_table=self.virtual_table,
            camera_spec=self.camera_spec,
            camera=self.camera,
            calibration_path=self.calibration_path_for,
            release_camera=self.close_camera_setup,
            reading=self.reading,
        )
        # The clock first: it follows each action before the play draws it, so a view
        # drawn after an action shows the clock as that action left it.
        parts = parts_of(referee, self.reading, self.call_soon, timed=timed)
        self.clock = parts.clock
        self.play = seat.take_up(referee, at, choices)
        if self.on_game is not None:
            self._put_down = self.on_game(parts)
        return self.play

    @contextmanager
    def _forgotten_if_not_taken_up(self, referee: Referee) -> Iterator[None]:
        """A new game that cannot be taken up (a device that fails, say) is deleted again:
        Home must not offer to resume a game that never began."""
        try:
            yield
        except BaseException:
            self.close()
            self.store.delete_game(referee.game_id)
            raise

    def _reader_choice(self) -> ReaderChoice | None:
        """The emulated reader on the simulated table, the configured one when [reader] port
        is set, or none."""
        if self.virtual_table:
            return EmulatedReader()
        if self.reader_port:
            reader = self.config.reader
            return SerialReader(
                port=self.reader_port, protocol=reader.protocol, silence_ms=reader.silence_ms
            )
        return None

    def _open_reader(self, referee: Referee) -> None:
        choice = self._reader_choice()
        if choice is None:
            return
        try:
            self.reading = CardReading.open(choice, referee, deliver=self.call_soon)
        except ReaderUnavailable as err:
            if not isinstance(choice, EmulatedReader):
                raise
            log.warning("no emulated card reader: %s", err)

    @property
    def desk(self) -> ScanDesk | None:
        """Where the game's card scans are checked, when it has a reader."""
        return self.reading.desk if self.reading is not None else None

    def scan_card(self, number: int) -> str | None:
        """The simulated reader: lays card `number` on it (the scan comes back through the
        reader's real protocol); None, or why not."""
        reading = self.reading
        twin = reading.emulated if reading is not None else None
        if reading is None or twin is None:
            return "no simulated card reader"
        if number not in twin.tags:
            return f"the deck has no card {number}"

        def scan() -> None:
            event = reading.lay(number)
            if event is not None:
                self.call_soon(lambda: _scan_into(reading.desk, event))

        threading.Thread(target=scan, name="card-scan", daemon=True).start()
        return None

    def calibration_path_for(self, game: str) -> Path:
        """Where the camera's calibration for `game`'s board is kept: beside the store, under
        the name its camera profile gives (Set up the camera, or `companion vision
        calibrate --board FILE --out ...`)."""
        return self.config.store.resolved_path().with_name(profile_of(game).calibration_file)

    def camera_setup(self) -> CameraSetup:
        """Setting the camera up for the board chosen (`camera_board`): on the camera given,
        else on a simulated one (whose table `lay_calibration_plan` lays)."""
        if self._camera_setup is None:
            grab = self._setup_grab()
            # A real camera meters on the paper and holds its exposure before calibrating.
            from vision.sources.controls import controls_of

            controls = controls_of(self._camera_source)
            game = self.camera_board
            self._camera_setup = CameraSetup.for_game(
                game,
                grab,
                out=self.calibration_path_for(game),
                controls=controls,
                colours=self.camera_colours,
            )
        return self._camera_setup

    def choose_camera_board(self, game: str) -> CameraSetup:
        """The game whose board the setup screen calibrates (the first game's by default). The
        camera stays open; a simulated one films the new board."""
        if game not in {value for _, value in camera_games()}:
            raise ValueError(f"no board {game!r} to calibrate")
        if game != self.camera_board:
            self.camera_board = game
            self.camera_colours = None
            self._camera_setup = None
        return self.camera_setup()

    def choose_camera_colours(self, colours: Sequence[str]) -> CameraSetup:
        """The colours the setup screen calibrates, among those the board allows (those
        every game of it has are calibrated too): a new plan, the camera kept open."""
        self.camera_colours = tuple(colours)
        self._camera_setup = None
        return self.camera_setup()

    def _setup_grab(self) -> Callable[[], Any]:
        """The setup screen's frames: the camera given (opened once), else the simulated
        table, over the board chosen."""
        if self.camera_spec is not None:
            source = self._camera_source
            if source is None:
                from vision.sources import open_source

                source = open_source(self.camera_spec)
                self._camera_source = source

            def grab() -> Any:
                frame = source.read()
                return None if frame is None else frame.image

            return grab
        from vision.geometry import BOARDS_DIR, load_board
        from vision.synth import SyntheticCamera
        from vision.synth.conditions import Conditions

        board_file = find_plugin(self.camera_board).board_file
        board = load_board(BOARDS_DIR / board_file if board_file else None)
        self.simulated_camera = SyntheticCamera(board, Conditions.easy(), seed=1)
        read: Callable[[], Any] = self.simulated_camera.read
        return read

    def close_camera_setup(self) -> None:
        """Lets go of the camera the setup screen used (a game needs it)."""
        if self._camera_source is not None:
            self._camera_source.close()
            self._camera_source = None
        self._camera_setup = None

    def lay_calibration_plan(self) -> None:
        """On the simulated camera: puts the plan's crystals (or MeM's stones) on the
        table."""
        if self.simulated_camera is None:
            return
        from vision.synth import Scene

        plan = self.camera_setup().plan
        self.simulated_camera.set_scene(
            Scene(crystals={str(p): (name,) for name, places in plan.items() for p in places})
        )

    def start_enrollment(self, on_change: Callable[[], None]) -> Enrolling:
        """Enrolls the configured deck's tags (companion/ui/enrolling.py); `on_change` is
        called on the app's thread after every scan."""
        self.stop_enrollment()
        self.enrolling = Enrolling.start(
            self.config, call_soon=self.call_soon, on_change=on_change, simulated=self.virtual_table
        )
        return self.enrolling

    def scan_next_for_enrollment(self) -> str | None:
        if self.enrolling is None:
            return "no deck is being enrolled"
        return self.enrolling.scan_next()

    def stop_enrollment(self) -> None:
        if self.enrolling is not None:
            self.enrolling.close()
            self.enrolling = None

    def study(self) -> StudySession:
        """The study session over the configured deck (opened on first use)."""
        if self._study is None:
            log = StudyLog.open(self.config.store.resolved_path().with_name("study.sqlite3"))
            self._study = StudySession(find_deck(self.config.game.deck), log)
        return self._study

    def study_as(self, player: str) -> StudySession:
        """The study session of `player` ('' for the table's own study), with the verdicts
        of the games finished since learnt (companion/study/from_play.py)."""
        current = self.study()
        learn_from_games(self.store, current.log, current.deck)
        self._study = StudySession(current.deck, current.log, player=player)
        return self._study

    def study_players(self) -> list[str]:
        """The players with verdicts of play to study, by name."""
        study = self.study()
        return study.log.players(study.deck.id)

    def close(self) -> None:
        """Puts the game down (it stays in the store: Home offers to resume it)."""
        self._close_remote()
        if self.play is not None:
            self.play.close()
            self.play = None
        if self.reading is not None:
            self.reading.close()
            self.reading = None
        if self._keys is not None:
            self._keys.close()
            self._keys = None
        if self.clock is not None:
            self.clock.close()
            self.clock = None
        if self._put_down is not None:
            self._put_down()
            self._put_down = None

    def _close_remote(self) -> None:
        if self.remote is not None:
            self.remote.close()
            self.remote = None

    # -- play ------------------------------------------------------------------------------

    def step(self) -> bool:
        """Ticks the game clock and lets the companion or a simulated opponent move, if the
        rules wait on it. True when it moved."""
        self.tick()
        return self.play is not None and self.play.step()

    def tick(self) -> None:
        """Takes in the other table's moves (a remote game), and ticks the game clock (a
        flag falls, a delay runs out)."""
        if self.remote is not None:
            self.remote.pump()
        if self.clock is not None:
            try:
                self.clock.tick()
            except IllegalAction as refused:
                # A flag fallen while remote play's link is down: the game is paused.
                log.info("the game clock's flag is not played now: %s", refused.explanation)

    def confirm_mirrored(self) -> str | None:
        """Done: the other table's pieces are laid here (no camera checks them). None, or
        why not."""
        if self.remote is None:
            return "This game is not played remotely."
        return self.remote.confirm_mirrored()

    def clock_face(self) -> ClockFace:
        clock = self.clock
        if clock is None:
            return self._remote_clock_face()
        display = clock.display()
        return ClockFace(
            tuple(format_time(p.remaining_ns) for p in display.players),
            display.running,
            display.paused,
            tuple("flag" if p.flagged else p.detail for p in display.players),
            next((i for i, p in enumerate(display.players) if p.delay_ns), None),
        )

    def _remote_clock_face(self) -> ClockFace:
        """At a remote game's guest: the host's clock, from its latest reading, counted on
        since it came."""
        heard = self.remote.clock_reading() if self.remote is not None else None
        if heard is None:
            return ClockFace()
        reading, age_s = heard
        running = reading.get("running")
        paused = bool(reading.get("paused"))
        texts, details = [], []
        for i, player in enumerate(reading.get("players", [])):
            spent_ms = round(age_s * 1000) if i == running and not paused else 0
            spent_ms = max(0, spent_ms - int(player.get("delay_ms", 0)))
            remaining_ms = max(0, int(player.get("remaining_ms", 0)) - spent_ms)
            texts.append(format_time(remaining_ms * 1_000_000))
            details.append("flag" if player.get("flagged") else str(player.get("detail", "")))
        return ClockFace(tuple(texts), running, paused, tuple(details))

    def key(self, char: str) -> bool:
        """A key typed on the app's keyboard: the clock's buttons ('1', '2', ... one per
        side, 'p' or space to pause), as on `companion clock --keys`. True when it was one."""
        if self.clock is None or not char:
            return False
        if self._keys is None:
            self._keys = KeyboardButtons(on_press=self._pressed)
        return self._keys.feed(char) is not None

    def _pressed(self, press: ButtonPress) -> None:
        if self.clock is not None:
            self.clock.press(press)

    def button_pressed(self, press: ButtonPress) -> None:
        """A clock button on GPIO (from gpiozero's thread): pressed on the game's thread."""
        self.call_soon(lambda: self._pressed(press))

    def show_lights(self, lights: Any) -> None:
        """The players' LEDs follow the game clock (who runs, who flagged)."""
        if self.clock is not None:
            lights.show(self.clock.display())

    def pause(self) -> None:
        if self.clock is not None:
            self.clock.resume() if self.clock.clock.paused else self.clock.pause()

    def _alerted(self, alerts: tuple[AlertView, ...]) -> None:
        if self.on_alert is not None:
            self.on_alert(alerts)


def _scan_into(desk: ScanDesk, event: Any) -> None:
    desk.scanned(event)
