"""A whole MemWars game between two simulated players, refereed, stored and narrated in the
terminal; with a card reader emulated behind a pseudo-terminal and the virtual camera
filming the table, when asked. `companion simulate` runs it, and `companion run` without a
screen.

    run_simulation(SimulationOptions(seed=16, camera=True), attach=streaming.attach)
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rich.console import Console

from companion.config import load_config
from companion.decks import find_deck
from companion.errors import UserError
from companion.games.contract import BadSetup
from companion.games.memwars import events as E
from companion.games.memwars.narrate import narrate
from companion.games.memwars.play.simulated_camera import (
    CameraSettings,
    Filmed,
    SimulatedCamera,
)
from companion.games.memwars.players import SimulatedTable
from companion.games.options import apply_options
from companion.render import print_summary, safe
from companion.session import Referee
from companion.store import Store
from companion.table.card_reading import CardReading, EmulatedReader
from companion.table.not_started import NotStarted
from companion.table.wiring import OnGame, parts_of

DEFAULT_SEED = 16


@dataclass(frozen=True)
class SimulationOptions:
    """How to run a simulated game (`companion simulate`, and `companion run` without a
    screen)."""

    config: Path | None = None
    seed: int = DEFAULT_SEED
    mode: str = "standard"
    deck: str | None = None
    recall: tuple[float, ...] = (0.85, 0.6)
    delay: float = 0.0
    record: str | None = None
    no_store: bool = False
    quiet: bool = False
    reader: str | None = None
    """Scan the cards on an emulated reader of this kind ('rdm6300', 'pn532', 'pico')."""
    quadrants: int = 4
    options: Mapping[str, Any] = field(default_factory=dict)
    """Options of a setup (`companion run --setup`): they have the last word."""
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    camera: bool = False
    camera_seed: int | None = None
    camera_hands: str = "short"
    camera_wrong_colour_at: int | None = None
    """Tests set it to see how a mismatch is reported."""

    def play(self, config: Path | None, attach: OnGame | None) -> int:
        """The main job's terminal game (companion/launch/main.py)."""
        return run_simulation(replace(self, config=config), attach=attach)


def demo_setup(
    deck_cards: list[list[int]],
    quadrant_names: list[str],
    max_depth: int,
    mode: str,
    seed: int,
    quadrants: int = 4,
) -> dict[str, Any]:
    solitaire = mode in ("review", "study")
    sides: list[dict[str, Any]] = [{"name": "Ada", "colour": "red"}]
    if not solitaire:
        sides.append({"name": "Basil", "colour": "blue"})
    if mode == "hybrid":
        sides[0]["mode"], sides[1]["mode"] = "standard", "basic"
    setup: dict[str, Any] = {
        "sides": sides,
        "mode": mode,
        "depth": min(2, max_depth),
        "max_depth": max_depth,
        "cards": deck_cards,
        "quadrant_names": quadrant_names,
        "topology": {"kind": "standard" if solitaire else "competitive", "scoring": "take"},
        "multipliers": {"centre_place": 2, "centre_quincunx": 2},
        "lightning_rounds": None if mode == "review" else 2,
        "seed": seed,
    }
    if quadrants < 4:
        setup["quadrants"] = list(range(1, quadrants + 1))
    return setup


def run_simulation(args: SimulationOptions, attach: OnGame | None = None) -> int:
    """`attach` is called once the game is set up (with its scan desk, if cards are
    scanned) and returns what to call when the game is over: the main job streams it."""
    config = load_config(args.config)
    deck = find_deck(args.deck or config.game.deck)
    if not all(0.0 <= r <= 1.0 for r in args.recall):
        raise UserError("--recall rates must be between 0 and 1")
    mode = str(args.options.get("mode", args.mode))
    setup = demo_setup(
        deck.board_map(), list(deck.quadrants), deck.depth, mode, args.seed, args.quadrants
    )
    setup = apply_options(setup, args.options)
    if args.house_rules:
        setup["house_rules"] = dict(args.house_rules)
    console = Console(highlight=False)
    with tempfile.TemporaryDirectory() as scratch:
        store_path = (
            Path(scratch) / "games.sqlite3" if args.no_store else config.store.resolved_path()
        )
        with Store.open(store_path) as store:
            try:
                referee = Referee.start(
                    store,
                    "memwars",
                    setup,
                    {"id": deck.id, "hash": deck.hash, "title": deck.title},
                    title=f"Simulated {mode} game, seed {args.seed}",
                )
            except BadSetup as err:
                raise UserError(f"cannot set up the game: {err}") from None
            recalls = args.recall[: len(setup["sides"])]
            table = SimulatedTable(referee.state.setup, recalls, args.seed)
            scanner = _Scanner(args.reader, referee, args.seed) if args.reader else None
            parts = parts_of(referee, scanner.reading if scanner else None)
            detach = attach(parts) if attach else None
            camera = _start_camera(args, len(setup["sides"]), console) if args.camera else None
            if not args.quiet:
                console.rule(f"{safe(deck.title)}: a simulated {mode} game")
            while (expectation := referee.expected()) is not None:
                started = time.monotonic()
                if scanner is not None and expectation.cards:
                    for line in scanner.scan(expectation.cards):
                        if not args.quiet:
                            console.print(f"  [dim]{safe(line)}[/dim]")
                action = table.next_action(referee.state, expectation)
                events = referee.submit(action)
                filmed = camera.film(referee.state) if camera is not None else Filmed()
                if not args.quiet:
                    _print_events(console, events, referee, filmed)
                # Moves come at most one per delay; the time spent filming one counts.
                rest = args.delay - (time.monotonic() - started)
                if rest > 0:
                    time.sleep(rest)
            if scanner is not None:
                console.print(scanner.report())
                scanner.close()
            if camera is not None:
                console.print(camera.summary())
            print_summary(console, referee.engine.summary(referee.state))
            if detach is not None:
                detach()
            if args.record:
                with open(args.record, "w", encoding="utf-8") as out:
                    store.export(referee.game_id, out)
                console.print(f"Game record written to {args.record}.")
            if not args.no_store:
                console.print(
                    f"Stored as game {referee.game_id} in {store_path} "
                    f"(`companion games show {referee.game_id}`)."
                )
    return 0


class _Scanner:
    """Lays each card the rules ask for on an emulated reader; now and then the wrong card
    first, as a hurried presenter would, to show that it is reported and not taken."""

    def __init__(self, protocol: str, referee: Referee, seed: int) -> None:
        self.reading = CardReading.open(EmulatedReader(protocol=protocol), referee)
        self.desk = self.reading.desk
        self.protocol = protocol
        self.tags = self.reading.emulated.tags if self.reading.emulated is not None else {}
        self.rng = random.Random(f"scanner:{seed}")
        self.scans = 0
        self.refused = 0

    def scan(self, cards: tuple[int, ...]) -> list[str]:
        lines = []
        others = [c for c in self.tags if c not in cards]
        wanted = [cards[0]]
        if others and self.rng.random() < 0.15:
            wanted.insert(0, self.rng.choice(others))
        for card in wanted:
            event = self.reading.lay(card)
            if event is None:
                lines.append(f"reader: card {card} was not seen")
                continue
            verdict = self.desk.scanned(event)
            self.scans += 1
            self.refused += not verdict.accepted
            lines.append(f"{self.protocol} reader: {verdict.message}")
        return lines

    def report(self) -> str:
        return (
            f"Card reader ({self.protocol}, emulated): {self.scans} scans, "
            f"{self.refused} refused as not the card expected."
        )

    def close(self) -> None:
        self.reading.close()


def _start_camera(args: SimulationOptions, sides: int, console: Console) -> SimulatedCamera | None:
    settings = CameraSettings(args.camera_seed, args.camera_hands, args.camera_wrong_colour_at)
    camera = SimulatedCamera.start(settings, sides, args.seed)
    if isinstance(camera, NotStarted):
        console.print(f"Camera: not calibrated ({camera.why}); the game goes on without it.")
        return None
    if not args.quiet:
        console.print(camera.describe())
    return camera


def _print_events(
    console: Console, events: tuple[Any, ...], referee: Referee, filmed: Filmed
) -> None:
    """The move's events; what the camera made of the move goes before the next turn's."""
    setup = referee.state.setup
    camera_lines = [f"  [dim]camera: {safe(filmed.seen)}[/dim]"] if filmed.seen else []
    camera_lines += [f"  [bold red]camera alert[/bold red]: {safe(a)}" for a in filmed.alerts]
    for event in events:
        if isinstance(event, E.TurnStarted):
            for line in camera_lines:
                console.print(line)
            camera_lines = []
            console.print(f"[bold]Move {event.move}[/bold]: {safe(setup.sides[event.side].name)}")
            continue
        told = narrate(event, setup)
        if told:
            console.print(f"  {safe(told)}")
    for line in camera_lines:
        console.print(line)
