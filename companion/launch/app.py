"""The touchscreen app put together: the store, the controller, the stream and the display
page, the card reader, the camera, the GPIO buttons, LEDs and buzzer, as the options ask.
`companion app` and `companion run` start it.

    run_app(AppOptions(simulate=True, stream=True))
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from companion.config import Config, load_config
from companion.errors import UserError
from companion.remote.at_table import RemoteBroker, RemoteChoice
from companion.stopping import restore_sigterm, stop_on_sigterm
from companion.streaming import DISPLAY_PORT, Streaming
from companion.table.setups import find_setup
from companion.table.wiring import together
from companion.voice import table_voice

if TYPE_CHECKING:
    from companion.publish.wire import Level
    from companion.table.views import AlertView
    from companion.table.wiring import OnGame


@dataclass(frozen=True)
class AppOptions:
    """How to run the app (`companion app`, and `companion run` with a screen)."""

    config: Path | None = None
    fullscreen: bool = False
    size: tuple[int, int] = (800, 480)
    simulate: bool = False
    """Play on a simulated table filmed by the virtual camera."""
    camera: str | None = None
    """A camera over the table (a source spec), or None for the configured one."""
    reader: bool = True
    """Read cards on the reader in [reader] port, when one is set."""
    stream: bool = True
    local: bool = False
    gpio: bool = False
    check: bool = False
    """Start, draw the first frame, say how long it took, and exit."""
    display_port: int = DISPLAY_PORT
    setup: str | None = None
    """A named setup or a setup file New game opens with (companion/table/setups.py)."""
    remote: RemoteChoice | None = None
    """`companion remote`: a game hosted here for another companion, or joined."""


def run_app(args: AppOptions) -> int:
    """Runs the app until it is closed (or, with `check`, until its first frame)."""
    started = time.monotonic()
    config = load_config(args.config)
    width, height = args.size
    if args.remote is not None:
        RemoteBroker.of(config.broker, args.remote.broker)  # a broker to reach, or one line
    if not args.check and not has_screen():
        raise UserError(
            "no screen to draw on: run it on the Pi's display or a desktop (DISPLAY or "
            "WAYLAND_DISPLAY set); without a screen, `companion run --simulate --no-app` plays "
            "a game in the terminal"
        )
    setup = find_setup(args.setup) if args.setup else None
    _configure_kivy(width, height, args.fullscreen)
    from companion.store import Store
    from companion.ui.app import CompanionApp
    from companion.ui.controller import Controller

    with ExitStack() as stack:
        store = stack.enter_context(Store.open(config.store.resolved_path()))
        page_url = ""
        on_game: OnGame | None = None
        streaming: Streaming | None = None
        if args.stream:
            streaming = stack.enter_context(Streaming(config, args.display_port, local=args.local))
            page_url = streaming.shown_url
            on_game = streaming.attach
        controller = Controller(config, store, virtual_table=args.simulate)
        # Settings changes the voice mid-game: it reads the controller's configuration.
        voice = stack.enter_context(table_voice(lambda: controller.config.voice))
        controller.on_game = voice.attach if on_game is None else together(on_game, voice.attach)
        controller.config_path = args.config
        controller.camera_spec = args.camera or config.camera.source or None
        if args.reader:
            controller.reader_port = config.reader.port
        stack.callback(controller.close)
        stack.callback(controller.close_camera_setup)
        stack.callback(controller.stop_enrollment)
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        app = CompanionApp(
            controller,
            page_url=page_url,
            settings_text=settings_text(config, page_url),
            qr_path=_qr(page_url, scratch) if page_url else "",
        )
        app.setup = setup
        app.remote = args.remote
        if streaming is not None:
            on_air = streaming
            app.private_links = on_air.private_links
            app.private_opened = lambda: set(on_air.private.opened)
            on_air.follow_assignments(
                lambda given: controller.call_soon(lambda: app.assigned(given))
            )
            app.on_alerts.append(lambda alerts: stream_alerts(on_air.stream, alerts))
        if args.gpio:
            wire_gpio(config, app, controller, stack)
        if args.check:

            def first_frame() -> None:
                print(f"First frame drawn {time.monotonic() - started:.2f} s after start.")
                app.stopping.set()

            app.on_first_frame = first_frame
        previous = stop_on_sigterm(app.stopping)
        try:
            app.run()
        finally:
            restore_sigterm(previous)
    return 0


class AlertSink(Protocol):
    def alert(self, text: str, level: Level = "warning", rule: str | None = None) -> None: ...


def stream_alerts(stream: AlertSink | None, alerts: tuple[AlertView, ...]) -> None:
    """The table's alerts on the stream's alert topic: places, colours and rules are public;
    a wrong card is said without naming the card expected (it could give a place away).
    Table work the rules ask for (the companion's crystal still to be laid, a captured one
    to take off) is no news to spectators: it is left off."""
    if stream is None:
        return
    for alert in alerts:
        if alert.put_right:
            continue
        if alert.zone == "card":
            stream.alert("a card that is not the one expected was shown", "warning", alert.rule)
        elif alert.zone == "camera":
            stream.alert(alert.text, "warning", None)
        else:
            stream.alert(alert.text, "warning", alert.rule)


def wire_gpio(config: Config, app: Any, controller: Any, stack: ExitStack) -> None:
    from companion.devices.alarm import AlertBuzzer
    from companion.devices.buttons import ClockButtons
    from companion.devices.lights import ClockLights

    pins = config.pins
    try:
        if pins.buzzer:
            app.alarm = stack.enter_context(AlertBuzzer(pins.buzzer))
        stack.enter_context(
            ClockButtons(
                pins.players,
                pause_pin=pins.pause or None,
                on_press=controller.button_pressed,
                debounce_ns=pins.debounce_ms * 1_000_000,
            )
        )
        if pins.leds:
            app.lights = stack.enter_context(ClockLights(pins.leds))
    except Exception as err:  # no GPIO here, or a pin taken: say which, plainly
        raise UserError(f"--gpio: cannot use the pins in [pins]: {err}") from None


def settings_text(config: Config, page_url: str) -> str:
    broker = config.broker.url or "embedded (started by the app)"
    lines = [
        f"Configuration: {config.source}",
        f"Games are kept in: {config.store.resolved_path()}",
        f"Deck: {config.game.deck}",
        f"Board id: {config.game.board_id}",
        f"Broker: {broker}",
        f"Card reader: {config.reader.protocol} on {config.reader.port or 'no port set'}",
        f"Display page: {page_url or 'not served'}",
        "",
        "Change these in the configuration file (`companion config path`).",
    ]
    return "\n".join(lines)


def _qr(url: str, folder: Path) -> str:
    import segno

    path = folder / "display-page.png"
    segno.make(url, error="m").save(str(path), scale=6, border=2)
    return str(path)


def _configure_kivy(width: int, height: int, fullscreen: bool) -> None:
    # Kivy reads these once, at its first import: they must be set before it.
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    # SDL's own clipboard: Kivy otherwise looks for xclip and xsel and logs tracebacks.
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm" if _has_kms() else "offscreen")
    from kivy.config import Config as KivyConfig

    # Kivy reports every provider it tried and did not find (clipboards, cut buffers) with
    # tracebacks, some as critical; the app's own messages are enough for a user. (Kivy
    # sets its level as it is imported, hence after the import.)
    logging.getLogger("kivy").setLevel(logging.CRITICAL + 1)

    KivyConfig.set("graphics", "width", str(width))
    KivyConfig.set("graphics", "height", str(height))
    KivyConfig.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    KivyConfig.set("input", "mouse", "mouse,multitouch_on_demand")
    KivyConfig.set("kivy", "exit_on_escape", "0" if fullscreen else "1")


def has_screen() -> bool:
    """Whether there is a screen to draw on: a desktop, the Pi's display (KMS), or a video
    driver chosen on purpose."""
    return bool(
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.environ.get("SDL_VIDEODRIVER")  # chosen on purpose (kmsdrm, offscreen)
        or _has_kms()
    )


def _has_kms() -> bool:
    return any(Path("/dev/dri").glob("card*")) if Path("/dev/dri").exists() else False
