"""What the touchscreen app does, without the touchscreen: starting, resuming and playing
games. The screens call this and draw the `LiveView`s it gives; nothing here imports Kivy,
so the whole app can be driven by tests and scripts too.

    app = Controller(config, store)
    app.resumable()                  # games a power cut interrupted
    live = app.start(GameChoices(names=("Ann", "Bo"), opponent=True))
    app.decide("claim", 17)          # a touch
    app.step()                       # often: the simulated opponent, the game clock

A simulated opponent (companion/games/memwars/players.py) plays the second side when asked
for: its decisions go through the same referee as the player's touches.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.clock.display import format_time
from companion.clock.presses import ButtonPress
from companion.config import Config
from companion.decks import find_deck
from companion.decks.model import Deck
from companion.devices.keyboard import KeyboardButtons
from companion.errors import UserError
from companion.games import find_plugin, plugin_names
from companion.games.contract import TABLE, BadSetup
from companion.games.mem.play.game import MemPlay
from companion.games.mem.play.virtual_table import VirtualMemTable, camera_stones
from companion.games.mem.screens.choices import (
    MemChoices,
    hints_allowed,
    mem_setup_for,
    mem_title,
    new_seed,
)
from companion.games.mem.table import rules_board, table_board
from companion.games.memwars.board_pieces import PieceColours
from companion.games.memwars.play.live import LiveGame, LiveView
from companion.games.memwars.play.virtual_table import VirtualTable
from companion.games.memwars.players import SimulatedTable
from companion.session import Referee
from companion.store import GameRow, Store
from companion.study.log import StudyLog
from companion.study.session import StudySession
from companion.table.camera_setup import CameraSetup, camera_games, profile_of
from companion.table.camera_watch import CameraWatch
from companion.table.card_reading import (
    CardReading,
    EmulatedReader,
    ReaderChoice,
    ReaderUnavailable,
    SerialReader,
)
from companion.table.game_clock import GameClock
from companion.table.not_started import NotStarted
from companion.table.observations import ScanDesk
from companion.table.touch_play import TouchPlay
from companion.table.views import AlertView
from companion.table.wiring import OnGame, parts_of
from companion.ui.enrolling import Enrolling

log = logging.getLogger(__name__)

MODES = ("standard", "basic", "hybrid", "review", "study")
TOPOLOGIES = ("flat", "competitive")
TIME_CONTROLS = ("", "5+3", "15+10", "30+30", "-!60")
"""Offered in the wizard: none, blitz, rapid, classical, one minute a move."""
COLOURS = ("red", "blue", "green", "purple", "orange")
"""Crystal colours a side may take; the virtual camera can render them all."""
PATHS = ("none", "forward", "backward", "random")
PATTERN_POINTS = {"quincunx": 5, "quadrant": 10, "minor_diagonal": 5, "major_diagonal": 10}
"""The app's preset pattern bonuses; the rule book leaves the values to the players."""
CHALLENGE_COLOUR = "yellow"
OPPONENT_RECALL = 0.7
AGAINST_THE_COMPANION = ", against the companion"


@dataclass(frozen=True)
class GameChoices:
    """What the new-game wizard asks; every field has the default a first game wants."""

    mode: str = "standard"
    names: tuple[str, ...] = ("Player 1", "Player 2")
    colours: tuple[str, ...] = ("red", "blue")
    sides: int = 2
    """How many sides (2 to 4); sides past the names given are 'Player 3', ... in colours
    nobody has taken."""
    quadrants: int = 4
    depth: int = 1
    topology: str = "flat"
    centre_multipliers: bool = False
    time_control: str = ""
    """'' for none, else clock notation (companion clock --help), the same for every side."""
    opponent: bool = False
    """The last side is played by the companion."""
    path: str = "none"
    """none, forward, backward or random (MW-P)."""
    patterns: bool = False
    """Pattern bonuses at the app's preset values (PATTERN_POINTS)."""
    handicap: int = -1
    """The side that plays one level deeper than the agreed depth, or -1 for nobody."""
    basic_side: int = 1
    """In Hybrid, the side that plays Basic (the other plays Standard)."""
    deck: str = ""
    """'' for the configured deck."""
    seed: int | None = None

    @property
    def solitaire(self) -> bool:
        return self.mode in ("review", "study")


def setup_for(choices: GameChoices, deck: Deck, seed: int) -> dict[str, Any]:
    """The engine's setup for the wizard's choices."""
    count = 1 if choices.solitaire else choices.sides
    names = [*choices.names[:count]] + [f"Player {i + 1}" for i in range(len(choices.names), count)]
    colours = [*choices.colours[:count]]
    colours += [c for c in COLOURS if c not in colours][: count - len(colours)]
    sides: list[dict[str, Any]] = [
        {"name": name, "colour": colour} for name, colour in zip(names, colours, strict=True)
    ]
    if choices.mode == "hybrid":
        for index, side in enumerate(sides):
            side["mode"] = "basic" if index == choices.basic_side else "standard"
    depth = min(choices.depth, deck.depth)
    if 0 <= choices.handicap < len(sides) and depth < deck.depth:
        sides[choices.handicap]["depth"] = depth + 1
    setup: dict[str, Any] = {
        "sides": sides,
        "mode": choices.mode,
        "depth": depth,
        "path": choices.path,
        "max_depth": deck.depth,
        "cards": deck.board_map(),
        "quadrant_names": list(deck.quadrants),
        "quadrants": list(range(1, choices.quadrants + 1)),
        "topology": {"kind": "flat" if choices.solitaire else choices.topology},
        "lightning_rounds": None if choices.mode == "review" else 2,
        "seed": seed,
        "timer": bool(choices.time_control),
    }
    if choices.centre_multipliers:
        setup["multipliers"] = {"centre_place": 2, "centre_quincunx": 2}
    if choices.patterns:
        setup["patterns"] = dict(PATTERN_POINTS)
    return setup


@dataclass(frozen=True)
class TouchChoices:
    """A new game of a game played by touch on its drawn board (companion/games/touch.py)."""

    game: str
    names: tuple[str, ...] = ("Player 1", "Player 2")
    players: int = 2
    """How many players; those past the names given are 'Player 3', ..."""
    companion: bool = False
    """The last player is the companion."""
    strength: int | None = None
    """The companion's strength; None for the game's default."""
    seed: int | None = None


def touch_names(choices: TouchChoices) -> list[str]:
    names = [*choices.names[: choices.players]]
    names += [f"Player {i + 1}" for i in range(len(names), choices.players)]
    if choices.companion and names[-1].startswith("Player "):
        names[-1] = "Companion"
    return names


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


@dataclass
class _Game:
    live: LiveGame
    clock: GameClock | None
    opponent: SimulatedTable | None
    opponent_side: int


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
        camera (companion/games/memwars/play/virtual_table.py): the camera is on, and
        `call_soon` carries what it reads over to the thread that plays the game."""
        self.config = config
        self.store = store
        self.camera = camera
        self.on_alert = on_alert
        self.on_game = on_game
        self.game: _Game | None = None
        self.mem: MemPlay | None = None
        """The MeM game being played, if one is (`game` is the MemWars one)."""
        self.touch: TouchPlay | None = None
        """The game played by touch on its drawn board, if one is."""
        self.config_path: Path | None = None
        """Where Settings saves; None for the usual place (`companion config path`)."""
        self._put_down: Callable[[], None] | None = None
        self.virtual_table = virtual_table
        self.call_soon = call_soon or (lambda job: job())
        self.table: VirtualTable | None = None
        self.mem_table: VirtualMemTable | None = None
        """The simulated MeM table, when a MeM game is played on one."""
        self._keys: KeyboardButtons | None = None
        self._study: StudySession | None = None
        self.simulated_camera: Any = None
        """The setup screen's camera when no real one is given: a simulated table."""
        self._camera_setup: CameraSetup | None = None
        self.camera_board = "memwars"
        """The game whose board the setup screen calibrates the camera for."""
        self._camera_source: Any = None
        self.camera_spec: str | None = None
        """A real camera (`companion app --camera SPEC`): it watches every game."""
        self.watch: CameraWatch | None = None
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
        held = [self.game.live.referee] if self.game is not None else []
        held += [self.mem.referee] if self.mem is not None else []
        held += [self.touch.referee] if self.touch is not None else []
        if any(referee.game_id == game_id for referee in held):
            self.close()
        self.store.delete_game(game_id)

    def start(self, choices: GameChoices) -> LiveGame:
        deck = find_deck(choices.deck or self.config.game.deck)
        seed = choices.seed if choices.seed is not None else secrets.randbelow(1_000_000)
        setup = setup_for(choices, deck, seed)
        count = len(setup["sides"])
        clock = (
            {"controls": [choices.time_control] * count, "order": list(range(count))}
            if choices.time_control and count > 1
            else None
        )
        title = " vs ".join(s["name"] for s in setup["sides"]) + f", {choices.mode}"
        opponent = choices.opponent and count > 1
        if opponent:
            title += AGAINST_THE_COMPANION
        try:
            referee = Referee.start(
                self.store,
                "memwars",
                setup,
                {"id": deck.id, "hash": deck.hash, "title": deck.title},
                title=title,
                game_clock=clock,
            )
        except BadSetup as err:
            raise ValueError(f"cannot set up this game: {err}") from None
        with self._forgotten_if_not_taken_up(referee):
            return self._take_up(referee, opponent_side=count - 1 if opponent else -1)

    def start_mem(self, choices: MemChoices) -> MemPlay:
        """A new MeM game: dealt from the choices' seed, or from a random one."""
        seed = choices.seed if choices.seed is not None else new_seed()
        setup = mem_setup_for(choices, seed)
        try:
            referee = Referee.start(
                self.store, "mem", setup, {}, title=mem_title(setup, choices.hints)
            )
        except BadSetup as err:
            raise ValueError(f"cannot set up this game: {err}") from None
        with self._forgotten_if_not_taken_up(referee):
            return self._take_up_mem(referee)

    def start_touch(self, choices: TouchChoices) -> TouchPlay:
        """A new game of a game played by touch, dealt from the choices' seed or a random
        one; with `companion`, the companion plays the last side."""
        plugin = find_plugin(choices.game)
        rules = plugin.touch
        if rules is None:
            raise ValueError(f"{plugin.title} is not played on a drawn board")
        seed = choices.seed if choices.seed is not None else secrets.randbelow(1_000_000)
        names = touch_names(choices)
        setup = rules.setup_for(names, seed)
        title = " vs ".join(names) + f", {plugin.title}"
        if choices.companion:
            title += AGAINST_THE_COMPANION
        try:
            referee = Referee.start(self.store, plugin.name, setup, {}, title=title)
        except BadSetup as err:
            raise ValueError(f"cannot set up this game: {err}") from None
        with self._forgotten_if_not_taken_up(referee):
            return self._take_up_touch(referee, strength=choices.strength)

    def _take_up_touch(self, referee: Referee, strength: int | None = None) -> TouchPlay:
        self.close()
        plugin = find_plugin(referee.engine.name)
        assert plugin.touch is not None
        title = self.store.game(referee.game_id).title
        sides = len(referee.engine.view(referee.state, "table").get("sides", []))
        companion = sides - 1 if title.endswith(AGAINST_THE_COMPANION) else None
        play = TouchPlay(
            referee,
            plugin.touch,
            title=title,
            companion_side=companion,
            strength=strength,
            call_soon=self.call_soon,
        )
        self.touch = play
        if self.on_game is not None:
            self._put_down = self.on_game(parts_of(referee))
        return play

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

    def resume(self, game_id: int) -> LiveGame | MemPlay | TouchPlay:
        referee = Referee.resume(self.store, game_id)
        if find_plugin(referee.engine.name).touch is not None:
            return self._take_up_touch(referee)
        if referee.engine.name == "mem":
            return self._take_up_mem(referee)
        # A game played against the companion says so in its title.
        sides = referee.state.setup.sides
        opponent = self.store.game(game_id).title.endswith(AGAINST_THE_COMPANION)
        return self._take_up(referee, opponent_side=len(sides) - 1 if opponent else -1)

    def _take_up_mem(self, referee: Referee) -> MemPlay:
        self.close()
        title = self.store.game(referee.game_id).title
        play = MemPlay(
            referee,
            title=title,
            hints=hints_allowed(title),
            call_soon=self.call_soon,
            camera=self.camera or self.virtual_table or self.camera_spec is not None,
            on_alert=self._alerted,
        )
        self.mem = play
        if self.virtual_table:
            self._lay_mem_table(play)
        elif self.camera_spec is not None:
            self._watch_mem(play, self.camera_spec)
        if self.on_game is not None:
            # Streamed like any game; MeM has no clock and no cards.
            self._put_down = self.on_game(parts_of(referee))
        return self.mem

    def _take_up(self, referee: Referee, opponent_side: int) -> LiveGame:
        self.close()
        setup = referee.state.setup
        colours = PieceColours(tuple(s.colour for s in setup.sides), CHALLENGE_COLOUR)
        live = LiveGame(
            referee,
            colours,
            camera=self.camera or self.virtual_table or self.camera_spec is not None,
            on_alert=self._alerted,
            deck=_deck_of(self.store, referee.game_id),
        )
        self._open_reader(live, referee)
        if self.virtual_table:
            self._lay_table(live, colours)
        elif self.camera_spec is not None:
            self._watch(live, self.camera_spec)
        table = None
        if opponent_side >= 0:
            recalls = tuple(OPPONENT_RECALL for _ in setup.sides)
            table = SimulatedTable(setup, recalls, seed=setup.seed)
        parts = parts_of(referee, self.reading)
        self.game = _Game(live, parts.clock, table, opponent_side)
        if self.on_game is not None:
            self._put_down = self.on_game(parts)
        return live

    def _lay_table(self, live: LiveGame, colours: PieceColours) -> None:
        def seen(board: dict[str, tuple[str, ...]]) -> None:
            self.call_soon(lambda: live.table_seen(board))

        def failed(why: str) -> None:
            self.call_soon(lambda: live.camera_lost(why))

        table = VirtualTable.start(len(colours.sides), on_seen=seen, colours=colours)
        if isinstance(table, NotStarted):
            live.camera_lost(f"the virtual camera did not start: {table.why}")
            return
        table.on_failure = failed
        self.table = table
        # The pieces already down (a resumed game), then every move the rules make: the
        # simulated players put their pieces where the rules say, at once.
        table.follow(live.view().board)
        live.referee.subscribe(lambda _note: table.follow(live.view().board))

    def _lay_mem_table(self, play: MemPlay) -> None:
        """A simulated MeM table: the rules' stones dealt on it, filmed by the virtual camera;
        what it commits goes to the game on the game's thread."""

        def seen(board: dict[str, tuple[str, ...]]) -> None:
            self.call_soon(lambda: play.table_seen(board))

        def unsure(zones: frozenset[str]) -> None:
            self.call_soon(lambda: play.table_unsure(zones))

        def failed(why: str) -> None:
            self.call_soon(lambda: play.camera_lost(why))

        table = VirtualMemTable.start(rules_board(play.state), on_seen=seen, on_unsure=unsure)
        if isinstance(table, NotStarted):
            play.camera_lost(f"the virtual camera did not start: {table.why}")
            return
        table.on_failure = failed
        self.mem_table = table
        # After every action the players do the table work the rules ask for (a captured
        # group taken off, a stone a takeback returns put back), at once; a stone held for
        # the other player's block or allow stays in its player's hand.
        play.referee.subscribe(lambda _note: table.follow(table_board(play.state)))

    def _watch_mem(self, play: MemPlay, spec: str) -> None:
        """The real camera over a MeM board: it needs a MeM calibration of its own."""
        self.close_camera_setup()
        if not self.mem_calibration_path.is_file():
            play.camera_lost(
                f"the camera is not calibrated for MeM yet ({self.mem_calibration_path}): "
                "Set up the camera, board MeM, makes it"
            )
            return
        watch = CameraWatch.start(
            spec,
            self.mem_calibration_path,
            on_seen=lambda board: self.call_soon(lambda: play.table_seen(board)),
            on_lost=lambda why: self.call_soon(lambda: play.camera_lost(why)),
            initial=camera_stones(rules_board(play.state)),
            on_unsure=lambda zones: self.call_soon(lambda: play.table_unsure(zones)),
        )
        if isinstance(watch, NotStarted):
            play.camera_lost(watch.why)
            return
        self.watch = watch

    def mem_table_tap(self, square: int) -> None:
        """A tap on the simulated MeM table: a hand takes the stone on `square` off, or puts
        back the one it took."""
        if self.mem_table is not None:
            self.mem_table.tap(square)

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

    def _open_reader(self, live: LiveGame, referee: Referee) -> None:
        choice = self._reader_choice()
        if choice is None:
            return
        try:
            self.reading = CardReading.open(choice, referee, deliver=self.call_soon)
        except ReaderUnavailable as err:
            if not isinstance(choice, EmulatedReader):
                raise
            log.warning("no emulated card reader: %s", err)
            return
        self.reading.desk.subscribe(live.card_scanned)

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

    def _watch(self, live: LiveGame, spec: str) -> None:
        self.close_camera_setup()  # one user of the camera at a time
        watch = CameraWatch.start(
            spec,
            self.calibration_path,
            on_seen=lambda board: self.call_soon(lambda: live.table_seen(board)),
            on_lost=lambda why: self.call_soon(lambda: live.camera_lost(why)),
        )
        if isinstance(watch, NotStarted):
            live.camera_lost(watch.why)
            return
        self.watch = watch

    def calibration_path_for(self, game: str) -> Path:
        """Where the camera's calibration for `game`'s board is kept: beside the store, under
        the name its camera profile gives (Set up the camera, or `companion vision
        calibrate --board FILE --out ...`)."""
        return self.config.store.resolved_path().with_name(profile_of(game).calibration_file)

    @property
    def calibration_path(self) -> Path:
        return self.calibration_path_for("memwars")

    @property
    def mem_calibration_path(self) -> Path:
        """The MeM board's: eleven stone colours, not the crystals'."""
        return self.calibration_path_for("mem")

    def table_tap(self, zone: str, colour: str) -> None:
        """A tap on the simulated table: puts a crystal of `colour` on `zone`, or takes one
        off when one lies there already."""
        if self.table is None:
            return
        if colour in self.table.contents().get(zone, ()):
            self.table.take(zone, colour)
        else:
            self.table.put(zone, colour)

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
                game, grab, out=self.calibration_path_for(game), controls=controls
            )
        return self._camera_setup

    def choose_camera_board(self, game: str) -> CameraSetup:
        """The game whose board the setup screen calibrates (MemWars' by default). The
        camera stays open; a simulated one films the new board."""
        if game not in {value for _, value in camera_games()}:
            raise ValueError(f"no board {game!r} to calibrate")
        if game != self.camera_board:
            self.camera_board = game
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

    def close(self) -> None:
        """Puts the game down (it stays in the store: Home offers to resume it)."""
        if self.table is not None:
            self.table.stop()
            self.table = None
        if self.mem_table is not None:
            self.mem_table.stop()
            self.mem_table = None
        if self.watch is not None:
            self.watch.stop()
            self.watch = None
        if self.reading is not None:
            self.reading.close()
            self.reading = None
        if self._keys is not None:
            self._keys.close()
            self._keys = None
        if self.game is not None and self.game.clock is not None:
            self.game.clock.close()
        if self.mem is not None:
            self.mem.close()
            self.mem = None
        if self.touch is not None:
            self.touch.close()
            self.touch = None
        if self._put_down is not None:
            self._put_down()
            self._put_down = None
        self.game = None

    # -- play ------------------------------------------------------------------------------

    @property
    def live(self) -> LiveGame:
        if self.game is None:
            raise RuntimeError("no game is being played")
        return self.game.live

    def view(self) -> LiveView:
        return self.live.view()

    def decide(self, key: str, place: int = 0) -> str | None:
        return self.live.decide(key, place)

    def step(self) -> bool:
        """Lets the simulated opponent make its move, if the rules wait on it, and ticks
        the game clock. True when the opponent moved."""
        game = self.game
        if game is None:
            return False
        if game.clock is not None:
            game.clock.tick()
        if game.opponent is None:
            return False
        live = game.live
        # Five times a second: ask the live game only what it knows at once, not for a view.
        waiting = live.takeback_waiting
        if game.opponent_side in waiting:
            # The companion agrees to a takeback: it is a friendly opponent.
            live.agree_take_back(game.opponent_side)
            return True
        if live.held or waiting:
            return False
        expectation = live.referee.expected()
        if expectation is None or not self._opponents_turn(expectation.actor, expectation.actions):
            return False
        action = game.opponent.next_action(live.state, expectation)
        live.referee.submit(action)
        return True

    def _opponents_turn(self, actor: int, actions: tuple[str, ...]) -> bool:
        game = self.game
        assert game is not None
        if actor == game.opponent_side:
            return True
        # The companion answers its own card in Basic play; every other verdict is the
        # players' to give.
        state = game.live.state
        return actor == TABLE and "answer" in actions and state.turn == game.opponent_side

    def clock_face(self) -> ClockFace:
        game = self.game
        if game is None or game.clock is None:
            return ClockFace()
        display = game.clock.display()
        return ClockFace(
            tuple(format_time(p.remaining_ns) for p in display.players),
            display.running,
            display.paused,
            tuple("flag" if p.flagged else p.detail for p in display.players),
            next((i for i, p in enumerate(display.players) if p.delay_ns), None),
        )

    def key(self, char: str) -> bool:
        """A key typed on the app's keyboard: the clock's buttons ('1', '2', ... one per
        side, 'p' or space to pause), as on `companion clock --keys`. True when it was one."""
        if self.game is None or self.game.clock is None or not char:
            return False
        if self._keys is None:
            self._keys = KeyboardButtons(on_press=self._pressed)
        return self._keys.feed(char) is not None

    def _pressed(self, press: ButtonPress) -> None:
        if self.game is not None and self.game.clock is not None:
            self.game.clock.press(press)

    def button_pressed(self, press: ButtonPress) -> None:
        """A clock button on GPIO (from gpiozero's thread): pressed on the game's thread."""
        self.call_soon(lambda: self._pressed(press))

    def show_lights(self, lights: Any) -> None:
        """The players' LEDs follow the game clock (who runs, who flagged)."""
        game = self.game
        if game is not None and game.clock is not None:
            lights.show(game.clock.display())

    def pause(self) -> None:
        if self.game is not None and self.game.clock is not None:
            clock = self.game.clock
            clock.resume() if clock.clock.paused else clock.pause()

    def _alerted(self, alerts: tuple[AlertView, ...]) -> None:
        if self.on_alert is not None:
            self.on_alert(alerts)


def _deck_of(store: Store, game_id: int) -> Deck | None:
    """The game's deck, for the verifier panel; None when it is no longer installed."""
    deck_id = store.header(game_id).deck.get("id")
    if not isinstance(deck_id, str):
        return None
    try:
        return find_deck(deck_id)
    except UserError:
        return None


def _scan_into(desk: ScanDesk, event: Any) -> None:
    desk.scanned(event)
