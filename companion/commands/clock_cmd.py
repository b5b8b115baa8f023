"""`companion clock CONTROL...`: a game clock on its own, for any tabletop game.

Keys (also with --gpio): 1..6 end that player's move, p or space pauses and resumes,
u undoes the last press, + and - add or take 10 s from the player whose time runs (or the
last to move while paused), q quits.
"""

from __future__ import annotations

import argparse
import contextlib
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.live import Live

from companion.clock import model
from companion.clock.controls import NS_PER_S
from companion.clock.display import ClockDisplay, format_time
from companion.clock.model import (
    ClockError,
    Events,
    FlagFell,
    MoveLimitExpired,
    Paused,
    PeriodsUsed,
    Pressed,
    PressIgnored,
    PressUndone,
    Resumed,
    StageStarted,
    Started,
    TimeAdjusted,
)
from companion.clock.notation import describe, format_control, parse
from companion.clock.runner import ClockRunner
from companion.clock.terminal import clock_panel
from companion.config import Config, load_config
from companion.devices.buzzer import TerminalBell
from companion.devices.keyboard import PLAYER_KEYS, KeyboardButtons
from companion.errors import UserError
from companion.render import safe

TICK_S = 0.05
ADJUST_NS = 10 * NS_PER_S


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "clock",
        help="run a game clock on its own (any time control; keys or GPIO buttons)",
        description="Run a game clock. CONTROL is a PGN TimeControl (300, 4500+60, 40/9000, "
        "*180, 40/7200:3600), the shorthand 5+3 / 90+30 (minutes + seconds), or the "
        "extension (300d5 delay, 300b5 Bronstein, 300d5+2 delay and increment, 3600|5x30 "
        "byo-yomi, 3600|25/600 Canadian, "
        "-!30 a 30 s limit per move, ^ a stopwatch). Give one CONTROL for everyone or one "
        "per player. See docs/clocks.md.",
    )
    parser.add_argument("controls", nargs="+", metavar="CONTROL")
    parser.add_argument("--players", type=int, help="how many players (2 to 6; default 2)")
    parser.add_argument("--names", help="player names, comma-separated")
    parser.add_argument("--order", help="turn order as player numbers from 1, e.g. 2,1,3")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--keys", action="store_true", help="keys 1..6 are the buttons (default)")
    source.add_argument(
        "--gpio",
        action="store_true",
        help="buttons, LEDs and buzzer on the GPIO pins of the configuration",
    )
    parser.add_argument(
        "--pico",
        metavar="PORT",
        help="the Pico reader-and-buttons board on this serial port: its buttons end moves "
        "(the button after the players' pauses), its LEDs and buzzer follow the clock",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="print a line per event instead of the live big-digit screen",
    )
    parser.set_defaults(run=run)
    _read_controls_that_start_with_a_dash(parser)


SHIELD = "\0"
"""Put before a control that argparse would take for an option; no real argument holds it."""


def _read_controls_that_start_with_a_dash(parser: argparse.ArgumentParser) -> None:
    """Lets `-!30` (no game clock, 30 s a move) be a CONTROL as docs/clocks.md writes it.

    argparse takes any word that starts with '-' for an option, and a positional cannot opt
    out. So before this parser reads its words, a word that starts with '-' and then neither
    a letter nor a '-' (no option does; '-5' is a number argparse already lets through) is
    shielded so that it reads as a positional, and the shield comes off everything parsed.
    The options, their order and --help are untouched.
    """
    parse_known_args = parser.parse_known_args

    def shielded(
        args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        words = None if args is None else [_shield(word) for word in args]
        parsed, extras = parse_known_args(words, namespace)
        for name, value in vars(parsed).items():
            if isinstance(value, str):
                setattr(parsed, name, _unshield(value))
            elif isinstance(value, list):
                setattr(parsed, name, [_unshield(v) if isinstance(v, str) else v for v in value])
        return parsed, [_unshield(word) for word in extras]

    # The subcommand's parser is made by argparse's subparsers action, so its parsing is
    # wrapped here rather than in a subclass.
    setattr(parser, "parse_known_args", shielded)  # noqa: B010


def _shield(word: str) -> str:
    if len(word) > 1 and word[0] == "-" and not (word[1].isalpha() or word[1] in "-.0123456789"):
        return SHIELD + word
    return word


def _unshield(word: str) -> str:
    return word.removeprefix(SHIELD)


def build_runner(args: argparse.Namespace, now: Callable[[], int]) -> tuple[ClockRunner, list[str]]:
    controls = [parse(text) for text in args.controls]
    count = args.players or (len(controls) if len(controls) > 1 else 2)
    if len(controls) == 1:
        controls *= count
    if len(controls) != count:
        raise UserError(
            f"give one CONTROL for everyone or one per player ({count}), not {len(controls)}"
        )
    order = None
    if args.order:
        try:
            order = [int(part) - 1 for part in args.order.split(",")]
        except ValueError:
            raise UserError(
                f"--order takes player numbers like 2,1,3, not {args.order!r}"
            ) from None
    # Shown by rich: markup and control characters in a name are shown as typed.
    names = [safe(n.strip()) for n in args.names.split(",")] if args.names else []
    names += [f"Player {i + 1}" for i in range(len(names), count)]
    try:
        clock = model.new_clock(controls, order)
    except ClockError as err:
        raise UserError(str(err)) from None
    return ClockRunner(clock, now_ns=now), names[:count]


def run(args: argparse.Namespace) -> int:
    config = load_config(Path(args.config) if args.config else None)
    origin = time.monotonic_ns()

    def now() -> int:
        # Times start at 0 when the command starts, so events read as time into the game.
        return time.monotonic_ns() - origin

    runner, names = build_runner(args, now)
    console = Console(highlight=False)
    count = len(names)
    for i, control in enumerate(runner.clock.controls):
        console.print(f"{names[i]}: {format_control(control)} ({describe(control)})")
    console.print(
        f"Keys: {', '.join(f'{PLAYER_KEYS[i]} {names[i]}' for i in range(count))}; "
        "p pause; u undo; + / - 10 s; q quit. The first press starts the next "
        "player's time."
    )
    log: list[str] = []
    stop = threading.Event()
    runner.subscribe(lambda events, display: log.extend(_lines(events, names)))
    keys = KeyboardButtons(
        PLAYER_KEYS[:count],
        on_press=runner.handle,
        clock_ns=now,
        on_other_key=_arbiter(runner, stop),
    )
    live = not args.plain and console.is_terminal
    # Called with the display on every tick: a buzzer counts down the last seconds as time
    # passes, not only when something happens.
    frames: list[Callable[[ClockDisplay], object]] = []
    with contextlib.ExitStack() as devices:
        if args.gpio:
            _attach_gpio(devices, runner, config, count, now, frames)
        if args.pico:
            _attach_pico(devices, runner, config, args.pico, count, now, frames)
        if not args.gpio and not args.pico and live:
            frames.append(TerminalBell(config.clock).update)
        reader = threading.Thread(target=_read, args=(keys, stop), daemon=True)
        reader.start()
        if live:
            _run_live(console, runner, names, log, stop, config, now, frames)
        else:
            _run_plain(console, runner, log, stop, config, now, frames)
        keys.stop()
    display = runner.display()
    for name, player in zip(names, display.players, strict=True):
        flag = ", flag fallen" if player.flagged else ""
        console.print(f"{name}: {player.text} after {player.moves} moves{flag}")
    return 0


def _read(keys: KeyboardButtons, stop: threading.Event) -> None:
    try:
        keys.read_loop()
    finally:
        stop.set()  # the end of input (a pipe, a closed terminal) ends the clock


def _arbiter(runner: ClockRunner, stop: threading.Event) -> Callable[[str], None]:
    def act(key: str) -> None:
        clock = runner.clock
        target = clock.running
        try:
            if key == "q":
                stop.set()
            elif key == "u":
                runner.undo()
            elif key in "+-" and target is not None:
                runner.adjust(target, ADJUST_NS if key == "+" else -ADJUST_NS)
        except ClockError:
            pass  # nothing to undo: a clock just ignores the key

    return act


def _attach_gpio(
    devices: contextlib.ExitStack,
    runner: ClockRunner,
    config: Config,
    count: int,
    now: Callable[[], int],
    frames: list[Callable[[ClockDisplay], object]],
) -> None:
    try:
        from gpiozero.exc import BadPinFactory

        from companion.devices.buttons import ClockButtons
        from companion.devices.buzzer import ClockBuzzer
        from companion.devices.lights import ClockLights
    except ImportError as err:  # pragma: no cover - gpiozero is a dependency
        raise UserError(f"GPIO support is not installed: {err}") from None
    pins = config.pins
    # Off a Pi gpiozero warns once per pin library it cannot load before it gives up; the
    # one line below says what to do instead.
    devices.enter_context(warnings.catch_warnings())
    warnings.simplefilter("ignore", category=Warning)
    if len(pins.players) < count or len(pins.leds) < count:
        raise UserError(
            f"the configuration's [pins] has buttons or LEDs for fewer than {count} players"
        )
    try:
        buttons = ClockButtons(
            pins.players[:count],
            pins.pause or None,
            on_press=runner.handle,
            clock_ns=now,
            debounce_ns=pins.debounce_ms * 1_000_000,
        )
        devices.callback(buttons.close)
        lights = ClockLights(pins.leds[:count])
        devices.callback(lights.close)
        runner.subscribe(lambda events, display: lights.show(display))
        if pins.buzzer:
            buzzer = ClockBuzzer(pins.buzzer, config.clock)
            devices.callback(buzzer.close)
            frames.append(buzzer.update)
    except BadPinFactory:
        raise UserError(
            "no GPIO pins here: run on the Raspberry Pi, use --keys, or set "
            "GPIOZERO_PIN_FACTORY=mock to try it"
        ) from None


def _attach_pico(
    devices: contextlib.ExitStack,
    runner: ClockRunner,
    config: Config,
    port: str,
    count: int,
    now: Callable[[], int],
    frames: list[Callable[[ClockDisplay], object]],
) -> None:
    """The Pico board's buttons feed the clock; its LEDs and buzzer follow the display."""
    from serial import SerialException

    from companion.devices.buzzer import BeepPlan
    from companion.devices.cardreader.pico import PicoProtocol
    from companion.devices.cardreader.pico_buttons import PicoButtons
    from companion.devices.cardreader.reader import CardReader
    from companion.devices.lights import light_states

    protocol = PicoProtocol()
    buttons = PicoButtons(count, pause=count, on_press=runner.handle, clock=protocol.clock)
    # The reader's clock is the command's: the board's presses land on the clock's timeline.
    reader = CardReader(
        port, protocol, on_event=lambda event: None, on_observation=buttons.observe, clock_ns=now
    )
    try:
        reader.start()
    except (SerialException, OSError) as err:
        raise UserError(f"cannot open the Pico board on {port}: {err}") from None
    devices.callback(reader.close)
    shown_leds: list[str] = []
    beeps = BeepPlan(config.clock)

    def follow(display: ClockDisplay) -> None:
        leds = list(light_states(display, count))
        for index, state in enumerate(leds):
            if index >= len(shown_leds) or shown_leds[index] != state:
                protocol.set_led(index, state)
        shown_leds[:] = leds
        beep = beeps.next(display)
        if beep is not None:
            protocol.beep(round(beep.duration_s * 1000))

    frames.append(follow)


def _run_plain(
    console: Console,
    runner: ClockRunner,
    log: list[str],
    stop: threading.Event,
    config: Config,
    now: Callable[[], int],
    frames: list[Callable[[ClockDisplay], object]],
) -> None:
    while not stop.is_set():
        runner.tick()
        _frame(runner, config, now, frames)
        while log:
            console.print(log.pop(0))
        time.sleep(TICK_S)
    runner.tick()
    while log:
        console.print(log.pop(0))


def _run_live(
    console: Console,
    runner: ClockRunner,
    names: list[str],
    log: list[str],
    stop: threading.Event,
    config: Config,
    now: Callable[[], int],
    frames: list[Callable[[ClockDisplay], object]],
) -> None:
    def screen() -> Any:
        shown = _frame(runner, config, now, frames)
        return clock_panel(shown, names, footer=log[-1] if log else "")

    with Live(screen(), console=console, refresh_per_second=20, transient=False) as live:
        while not stop.is_set():
            runner.tick()
            live.update(screen())
            time.sleep(TICK_S)


def _frame(
    runner: ClockRunner,
    config: Config,
    now: Callable[[], int],
    frames: list[Callable[[ClockDisplay], object]],
) -> ClockDisplay:
    shown = model.display(
        runner.clock,
        now(),
        tenths_below_ns=config.clock.tenths_below_s * NS_PER_S,
        warning_at_ns=config.clock.warning_s * NS_PER_S,
    )
    for frame in frames:
        frame(shown)
    return shown


def _lines(events: Events, names: list[str]) -> list[str]:
    lines = []
    for event in events:
        at = format_time(event.at)
        match event:
            case Pressed(player=p, next_player=n, used_ns=used):
                text = f"{names[p]} moved ({format_time(used)} used); {names[n]} to move"
            case FlagFell(player=p):
                text = f"{names[p]}'s flag fell"
            case MoveLimitExpired(player=p, next_player=n):
                text = f"{names[p]} ran out of time for the move; {names[n]} to move"
            case Started(player=p):
                text = f"{names[p]}'s time starts"
            case PressIgnored(player=p, reason=reason):
                text = f"{names[p]}'s press ignored: {reason}"
            case TimeAdjusted(player=p, delta_ns=delta):
                sign = "+" if delta >= 0 else "-"
                text = f"{names[p]} {sign}{format_time(abs(delta))} by the arbiter"
            case PressUndone(player=p):
                text = f"press undone: {names[p]} to move again"
            case StageStarted(player=p, stage=stage, added_ns=added):
                text = f"{names[p]} starts period {stage + 1} (+{format_time(added)})"
            case PeriodsUsed(player=p, periods_left=left):
                text = f"{names[p]} has {left} byo-yomi period(s) left"
            case Paused():
                text = "paused"
            case Resumed():
                text = "resumed"
            case _:
                text = type(event).__name__
        lines.append(f"{at}  {text}")
    return lines
