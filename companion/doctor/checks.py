"""The doctor's checks, in the order they run. Each tries one part of the table the way the
game will use it and returns a Result; what it needs of the hardware it takes through
`Devices` (companion/doctor/devices.py), so that the twins or a test's broken part stand in.

    config_result, config = check_config(path)
    results = examine(("camera", "reader"), config_result, Doctor(config, devices, 30.0))

A check never raises for anything a device, a file or the network can do: the user gets a
FAIL line with what to do, never a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.clock.presses import ButtonPress
from companion.config import Config, default_config_path, load_config
from companion.doctor.devices import Devices
from companion.doctor.report import Result, failed, passed, skipped
from companion.errors import UserError
from companion.games import find_plugin, plugin_names
from companion.render import plain

READER_ANSWER_S = 3.0
"""How long a reader that answers by itself (PN532, Pico) is given: it answers at once."""
CAMERA_FRAMES = 5
"""Frames looked at for the board's markers (a camera's first frames may still be dark)."""
CAMERA_S = 10.0
BROKER_S = 10.0
SHOWN_S = 0.5
"""With --yes: how long each LED stays lit, for whoever happens to look."""
SENTENCE = "The companion is ready to play."
VOICE_TODO = "`espeak-ng -w /tmp/x.wav hello` shows what it says; see docs/voice.md."
USUAL_BROKER_PORTS = (("127.0.0.1", 1883), ("0.0.0.0", 9001))
"""Where the app's embedded broker listens (companion/streaming.py) when they are free."""
APP_UNIT = "tabletop-companion"
STOP_THE_APP = f"stop the app first (`sudo systemctl stop {APP_UNIT}`)"


@dataclass(frozen=True)
class Doctor:
    config: Config
    devices: Devices
    timeout_s: float = 30.0
    """How long a person is waited for: a button, a card, a confirmation."""
    yes: bool = False
    """Drive the LEDs and the buzzer without asking anyone to confirm them."""
    say: Callable[[str], None] = field(default=print)
    """Prompts to the person at the table."""


def said(err: object) -> str:
    """An error's message on one line, without its own full stop (the line adds one)."""
    return plain(err, one_line=True).rstrip(".! ")


# ---- the configuration -------------------------------------------------------------------


def check_config(path: Path | None) -> tuple[Result, Config | None]:
    """The configuration file read, and what it sets; None when it cannot be read."""
    shown = path or default_config_path()
    try:
        config = load_config(path)
    except UserError as err:
        return failed(
            "config",
            f"{said(err)}.",
            "Fix that setting (the README's Configuration section lists them all); "
            "`companion config show` prints what is in force once the file reads.",
        ), None
    where = (
        f"no file at {plain(shown)}, so every default is in force"
        if config.source == "defaults"
        else f"{plain(config.source)} read"
    )
    return passed("config", f"{where}: {in_force(config)}."), config


def in_force(config: Config) -> str:
    """The settings the other checks try, in a few words."""
    pins = config.pins

    def listed(numbers: Sequence[int]) -> str:
        return ", ".join(map(str, numbers)) or "none"

    reader = (
        f"{plain(config.reader.port)} ({config.reader.protocol})" if config.reader.port else "none"
    )
    parts = [
        f"camera {plain(config.camera.source) or 'none'}",
        f"reader {reader}",
        f"buttons {listed(pins.players)}, pause {pins.pause or 'none'}",
        f"LEDs {listed(pins.leds)}, buzzer {pins.buzzer or 'none'}",
        f"broker {plain(config.broker.url) or 'embedded'}",
        f"voice {'on' if config.voice.on else 'off'} ({config.voice.language})",
    ]
    return "; ".join(parts)


# ---- the store -----------------------------------------------------------------------------


def check_store(doctor: Doctor) -> Result:
    from companion.store import Store

    path = doctor.config.store.resolved_path()
    todo = (
        f"Is the folder yours and writable? `ls -ld {plain(path.parent)}`; "
        "or set [store] path to a file you may write."
    )
    try:
        with Store.open(path) as store:
            games = len(store.game_ids())
    except UserError as err:
        return failed("store", f"{said(err)}.", todo)
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".doctor-"):
            pass
    except OSError as err:
        return failed("store", f"{plain(path.parent)} cannot be written: {err.strerror}.", todo)
    if not os.access(path, os.W_OK):
        return failed("store", f"{plain(path)} is read-only.", todo)
    kept = f"{games} game{'s' * (games != 1)} kept"
    return passed("store", f"{plain(path)} opens and can be written ({kept}).")


# ---- the camera ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CameraBoard:
    game: str
    title: str
    board: Any
    """vision.geometry.Board"""


def camera_boards() -> list[CameraBoard]:
    """The boards the camera reads, one per game whose plugin says how (the flagship first)."""
    from vision.geometry import BOARDS_DIR, load_board

    boards = []
    for game in plugin_names():
        plugin = find_plugin(game)
        if plugin.camera is not None and plugin.board_file:
            board = load_board(BOARDS_DIR / plugin.board_file)
            boards.append(CameraBoard(game, plugin.title, board))
    return boards


def camera_todo(spec: str) -> str:
    if spec.lower() == "picamera":
        where = (
            "Is the ribbon seated, contacts to the contacts? `rpicam-hello --list-cameras` "
            "lists the modules the Pi sees"
        )
    elif spec.isdigit() or spec.startswith("/dev/"):
        where = "Is the camera plugged in? `ls /dev/video*`"
    else:
        where = "Is the path right?"
    return f"{where}; set [camera] source. Only one program can use a camera: {STOP_THE_APP}."


def check_camera(doctor: Doctor) -> Result:
    spec = doctor.devices.camera
    if not spec:
        return skipped("camera", "no [camera] source: moves are taken by touch.")
    from vision.sources.frame import CameraLost

    try:
        source = doctor.devices.open_camera(spec)
    except UserError as err:
        return failed("camera", f"{plain(spec)} did not open ({said(err)}).", camera_todo(spec))
    try:
        with source:
            return _look_at_board(doctor, source)
    except CameraLost as err:
        return failed("camera", f"{said(err)}.", camera_todo(spec))


def _look_at_board(doctor: Doctor, source: Any) -> Result:
    from vision.registration import RegistrationTracker, not_found_reason

    spec = doctor.devices.camera
    boards = camera_boards()
    trackers = [RegistrationTracker(board.board) for board in boards]
    deadline = time.monotonic() + min(doctor.timeout_s, CAMERA_S)
    image = None
    for _ in range(CAMERA_FRAMES):
        frame = source.read()
        if frame is None:
            break
        image = frame.image
        pairs = zip(trackers, boards, strict=True)
        fits = [(tracker.update(image), board) for tracker, board in pairs]
        found = [(fit, board) for fit, board in fits if fit is not None]
        if found:
            fit, board = max(found, key=lambda pair: pair[0].registration.markers_seen)
            return _board_found(doctor, source, image, fit, board)
        if time.monotonic() > deadline:
            break
    if image is None:
        no_frame = f"{plain(source.name)} opened but gave no frame."
        return failed("camera", no_frame, camera_todo(spec))
    height, width = image.shape[:2]
    why = not_found_reason(image, boards[0].board) if boards else "no board to look for"
    return failed(
        "camera",
        f"{plain(source.name)} gives {width}×{height} frames, but {why}.",
        "Lay the printed board flat under the camera, its whole border in view "
        f"(docs/pi.md, the camera mount); `companion vision show --source {plain(spec)} "
        "--out view.png` shows what it sees.",
    )


def _board_found(doctor: Doctor, source: Any, image: Any, fit: Any, found: CameraBoard) -> Result:
    registration = fit.registration
    height, width = image.shape[:2]
    seen = (
        f"{plain(source.name)}: {width}×{height} frames; the {found.title} board found, "
        f"{registration.markers_seen} of {registration.markers_total} markers, "
        f"{registration.error_mm:.1f} mm off"
    )
    calibrated, problem = calibration_of(doctor.config, found.game)
    if problem:
        return failed(
            "camera",
            f"{seen}; but {problem}.",
            "Calibrate again: Set up the camera in the app, or `companion vision calibrate`.",
        )
    return passed("camera", f"{seen}; {calibrated}.")


def calibration_of(config: Config, game: str) -> tuple[str, str]:
    """(what the calibration of `game`'s board is, what is wrong with it or '')."""
    from vision.calibration_file import load_calibration

    profile = find_plugin(game).camera
    if profile is None:
        return "its game is not read by the camera", ""
    # Where the app keeps it: beside the store (companion/ui/controller.py).
    path = config.store.resolved_path().with_name(profile.calibration_file)
    if not path.exists():
        return (
            "not calibrated yet (Set up the camera in the app, or `companion vision calibrate`)",
            "",
        )
    try:
        calibration = load_calibration(path)
    except UserError as err:
        return "", f"its calibration cannot be read: {said(err)}"
    colours = ", ".join(model.name for model in calibration.colours) or "no colours"
    return f"calibrated for {colours} ({plain(path)})", ""


# ---- the card reader -----------------------------------------------------------------------


def check_reader(doctor: Doctor) -> Result:
    from companion.devices.cardreader.probe import SPEAKS_WITH_A_CARD

    devices = doctor.devices
    protocol = doctor.config.reader.protocol
    if devices.reader_problem:
        return failed(
            "reader",
            f"the simulated reader could not be made: {devices.reader_problem}.",
            "Install socat (`sudo apt install socat`).",
        )
    port = devices.reader_port
    if not port:
        return skipped("reader", "no [reader] port: cards are entered by touch.")
    wait_s = min(doctor.timeout_s, READER_ANSWER_S)
    if protocol in SPEAKS_WITH_A_CARD:
        doctor.say(f"Lay a card on the card reader ({protocol} speaks only when it sees one).")
        doctor.devices.table.lay_card()
        wait_s = doctor.timeout_s
    found, what = devices.probe(port, protocol, wait_s)
    if found:
        return passed("reader", f"{plain(port)}: {what}.")
    return failed(
        "reader",
        f"nothing answered as {protocol} on {plain(port)} within {wait_s:g} s ({what}).",
        reader_todo(what),
    )


def reader_todo(what: str) -> str:
    if "Permission denied" in what:
        return (
            "Join the dialout group (`sudo usermod -aG dialout $USER`) and log in again; "
            "`groups` shows yours."
        )
    if "No such file" in what:
        return (
            "Is the reader plugged in? `ls /dev/serial* /dev/ttyUSB* /dev/companion-*`; "
            "set [reader] port."
        )
    if "busy" in what:
        return f"Another program holds the port: {STOP_THE_APP}."
    return (
        "Is it wired and powered, and is [reader] protocol right? `companion reader detect` "
        "tries every protocol on every port (docs/card-readers.md)."
    )


# ---- buttons, LEDs and buzzer --------------------------------------------------------------


def gpio_todo(err: BaseException) -> str:
    name = type(err).__name__
    if name == "GPIOPinInUse":
        return f"Another program holds the pin: {STOP_THE_APP}."
    if isinstance(err, PermissionError):
        return "Join the gpio group (`sudo usermod -aG gpio $USER`) and log in again."
    if name in ("BadPinFactory", "PinFactoryFallback"):
        return "Run the doctor on the Pi (with python3-lgpio installed), or try --simulate."
    return "Check the [pins] section and the wiring (hardware/clock-wiring.md)."


def _gpio_failure(check: str, err: BaseException) -> Result:
    return failed(check, f"the GPIO pins cannot be used: {said(err)}.", gpio_todo(err))


@contextlib.contextmanager
def _quiet_gpio() -> Iterator[None]:
    """Without gpiozero's warnings as it falls back from one pin library to the next: when
    none works, the failure says so in its own line."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@dataclass(frozen=True)
class Button:
    name: str
    """'Player 1's button', 'the pause button'"""
    pin: int
    kind: str
    player: int | None

    def matches(self, press: ButtonPress) -> bool:
        return press.kind == self.kind and press.player == self.player


def buttons_of(config: Config) -> list[Button]:
    wanted = [
        Button(f"Player {index + 1}'s button", pin, "player", index)
        for index, pin in enumerate(config.pins.players)
    ]
    if config.pins.pause:
        wanted.append(Button("the pause button", config.pins.pause, "pause", None))
    return wanted


@contextlib.contextmanager
def _clock_buttons(doctor: Doctor) -> Iterator[queue.Queue[ButtonPress]]:
    """The clock's own buttons, as the game uses them (debounced), their presses queued."""
    from companion.devices.buttons import ClockButtons

    pins = doctor.config.pins
    presses: queue.Queue[ButtonPress] = queue.Queue()
    with ClockButtons(
        pins.players,
        pins.pause or None,
        on_press=presses.put,
        debounce_ns=pins.debounce_ms * 1_000_000,
        pin_factory=doctor.devices.pin_factory,
    ):
        yield presses


def _await(
    presses: queue.Queue[ButtonPress], button: Button, timeout_s: float, buttons: list[Button]
) -> tuple[bool, list[str]]:
    """Whether `button` was pressed in time, and the other buttons pressed meanwhile."""
    others: list[str] = []
    deadline = time.monotonic() + timeout_s
    while (left := deadline - time.monotonic()) > 0:
        try:
            press = presses.get(timeout=left)
        except queue.Empty:
            break
        if button.matches(press):
            return True, others
        other = next((b.name for b in buttons if b.matches(press)), "another button")
        if other not in others:
            others.append(other)
    return False, others


def check_buttons(doctor: Doctor) -> Result:
    buttons = buttons_of(doctor.config)
    if not buttons:
        return skipped("buttons", "no [pins] players.")
    missed: list[str] = []
    try:
        with _quiet_gpio(), _clock_buttons(doctor) as presses:
            for button in buttons:
                doctor.say(f"Press {button.name} (pin {button.pin}).")
                doctor.devices.table.press(button.pin)
                pressed, others = _await(presses, button, doctor.timeout_s, buttons)
                if not pressed:
                    instead = f", but {' and '.join(others)} was" if others else ""
                    missed.append(f"{button.name} (pin {button.pin}) was not pressed{instead}")
    except Exception as err:  # gpiozero's errors have no common base worth naming
        return _gpio_failure("buttons", err)
    if missed:
        return failed(
            "buttons",
            f"{'; '.join(missed)} within {doctor.timeout_s:g} s.",
            "Check that button's wiring: one leg to its BCM pin, the other to ground "
            "(hardware/clock-wiring.md); swapped buttons: swap the numbers in [pins] players. "
            "`companion clock 5+3 --gpio` tries them on their own.",
        )
    names = ", ".join(f"{button.name} ({button.pin})" for button in buttons)
    return passed("buttons", f"each pressed once: {names}.")


def check_leds(doctor: Doctor) -> Result:
    pins = doctor.config.pins
    if not pins.leds and not pins.buzzer:
        return skipped("leds", "no [pins] leds and no buzzer.")
    if not pins.players and not doctor.yes:
        return skipped("leds", "no button to confirm with: run with --yes to drive them anyway.")
    try:
        with _quiet_gpio():
            if doctor.yes:
                return _drive_outputs(doctor)
            return _confirm_outputs(doctor)
    except Exception as err:  # gpiozero's errors have no common base worth naming
        return _gpio_failure("leds", err)


def _outputs(doctor: Doctor) -> list[tuple[str, int, Callable[[], Any], str]]:
    """(name, pin, a function that turns it on and returns the device, the prompt) each."""
    from gpiozero import LED

    from companion.devices.alarm import AlertBuzzer

    factory = doctor.devices.pin_factory
    outputs: list[tuple[str, int, Callable[[], Any], str]] = []
    for index, pin in enumerate(doctor.config.pins.leds):

        def lit(pin: int = pin) -> Any:
            led = LED(pin, pin_factory=factory)
            led.on()
            return led

        outputs.append((f"Player {index + 1}'s LED", pin, lit, "is lit"))
    if doctor.config.pins.buzzer:

        def beeping() -> Any:
            buzzer = AlertBuzzer(doctor.config.pins.buzzer, pin_factory=factory)
            buzzer.sound()
            return buzzer

        outputs.append(("the buzzer", doctor.config.pins.buzzer, beeping, "beeps three times"))
    return outputs


def _drive_outputs(doctor: Doctor) -> Result:
    names = []
    for name, pin, turn_on, _shows in _outputs(doctor):
        device = turn_on()
        try:
            time.sleep(SHOWN_S)
        finally:
            device.close()
        names.append(f"{name} ({pin})")
    return passed(
        "leds", f"{', '.join(names)} driven without an error (--yes: nobody confirmed them)."
    )


def _confirm_outputs(doctor: Doctor) -> Result:
    players = doctor.config.pins.players
    buttons = buttons_of(doctor.config)
    unseen: list[str] = []
    confirmed: list[str] = []
    with _clock_buttons(doctor) as presses:
        for index, (name, pin, turn_on, shows) in enumerate(_outputs(doctor)):
            # Each LED is confirmed with its own player's button; the buzzer with the first.
            player = index if index < len(players) and name != "the buzzer" else 0
            button = buttons[player]
            device = turn_on()
            try:
                named = f"{name[0].upper()}{name[1:]} (pin {pin})"
                doctor.say(f"{named} {shows}: press {button.name} if so.")
                doctor.devices.table.look(pin, button.pin)
                seen, _others = _await(presses, button, doctor.timeout_s, buttons)
            finally:
                device.close()
            (confirmed if seen else unseen).append(f"{name} ({pin})")
    if unseen:
        return failed(
            "leds",
            f"not confirmed within {doctor.timeout_s:g} s: {', '.join(unseen)}.",
            "Check its wiring and polarity: the LED's long leg to the pin through its resistor, "
            "the buzzer's + to the pin (hardware/clock-wiring.md).",
        )
    return passed("leds", f"each seen or heard: {', '.join(confirmed)}.")


# ---- the voice -----------------------------------------------------------------------------


def check_voice(doctor: Doctor) -> Result:
    from companion.voice.speaker import PLAYERS
    from companion.voice.voices import EspeakVoice, VoiceFailed, voice_for

    settings = doctor.config.voice
    voice = voice_for(settings)
    if isinstance(voice, EspeakVoice) and shutil.which(voice.program) is None:
        if not settings.on:
            return skipped("voice", "espeak-ng is not installed, and [voice] on is false.")
        return failed(
            "voice", "espeak-ng is not installed.", "`sudo apt install espeak-ng` (docs/voice.md)."
        )
    with tempfile.TemporaryDirectory(prefix="companion-doctor-") as folder:
        wav = Path(folder) / "doctor.wav"
        try:
            voice.render(SENTENCE, wav, settings.volume)
        except VoiceFailed as err:
            return failed(
                "voice", f"{voice.name} could not say a sentence: {said(err)}.", VOICE_TODO
            )
        if not _is_wav(wav):
            return failed("voice", f"{voice.name} wrote no sound for a sentence.", VOICE_TODO)
        rendered = f"{voice.name} renders a sentence to WAV"
        if not doctor.devices.audio_out:
            return passed("voice", f"{rendered}; the audio out is simulated, nothing played.")
        player = next((command for command in PLAYERS if shutil.which(command[0])), None)
        if player is None:
            heard: str | None = "there is no program to play sound (aplay)"
        else:
            heard = _play(player, wav)
            if heard is None:
                return passed("voice", f"{rendered} and said it on the audio out ({player[0]}).")
    if not settings.on:
        return passed("voice", f"{rendered}; {heard}, not needed while [voice] on is false.")
    return failed(
        "voice",
        f"{rendered}, but {heard}.",
        "Connect a speaker (HDMI, USB or the audio jack); `aplay -l` lists the sound cards, "
        "`sudo apt install alsa-utils` brings aplay.",
    )


def _is_wav(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            head = file.read(12)
    except OSError:
        return False
    return head[:4] == b"RIFF" and head[8:12] == b"WAVE" and path.stat().st_size > 44


def _play(player: tuple[str, ...], wav: Path) -> str | None:
    """None when `wav` played; else why not."""
    try:
        done = subprocess.run(
            [*player, str(wav)], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"{player[0]} failed ({err})"
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return f"there is no audio out ({player[0]}: {plain(why)})"
    return None


# ---- the broker ----------------------------------------------------------------------------


def check_broker(doctor: Doctor) -> Result:
    from companion.publish.publisher import PublisherError
    from companion.publish.round_trip import round_trip

    config = doctor.config
    topic = f"{config.broker.prefix}/{config.game.board_id}/doctor/{secrets.token_hex(4)}"
    wait_s = min(doctor.timeout_s, BROKER_S)
    url = doctor.devices.broker_url
    if not url:
        return _embedded_broker(doctor, topic, wait_s)
    login = _login(config)
    try:
        problem = round_trip(
            url,
            topic=topic,
            timeout_s=wait_s,
            username=login.username,
            password=login.password,
            ca_file=login.ca_file,
            cert_file=login.cert_file,
            key_file=login.key_file,
        )
    except PublisherError as err:
        return failed("broker", f"{said(err)}.", "Fix [broker] (docs/mqtt.md).")
    if problem is None:
        came_back = "took a connection, and a message published came back"
        return passed("broker", f"{plain(url)} {came_back}.")
    return failed(
        "broker",
        f"{plain(url)}: {plain(problem)}.",
        "Is the broker running and reachable from here? `mosquitto_sub -h HOST -p PORT -t '#' -v` "
        "tries it; check [broker] url, username and password (docs/mqtt.md), or leave url empty "
        "for the embedded broker.",
    )


def _login(config: Config) -> Any:
    """[broker]'s login; the table's kept password for `companion broker` of this machine,
    as the app logs in (companion/streaming.py)."""
    from companion.publish.broker import table_password
    from companion.publish.broker_gate import TABLE_USER

    login = config.broker
    if login.username == TABLE_USER and not login.password:
        folder = config.store.resolved_path().parent
        login = replace(login, password=table_password(folder))
    return login


def _embedded_broker(doctor: Doctor, topic: str, wait_s: float) -> Result:
    from companion.publish.broker import EmbeddedBroker
    from companion.publish.round_trip import round_trip

    # Any free port: the app's own broker may be running on the usual ones.
    try:
        with EmbeddedBroker(port=0, ws_port=None) as broker:
            problem = round_trip(broker.url, topic=topic, timeout_s=wait_s)
    except UserError as err:
        problem = said(err)
    if problem is not None:
        return failed(
            "broker",
            f"no [broker] url, and the embedded broker did not carry a message: {problem}.",
            "Reinstall the project (`sudo scripts/install-pi.sh`), or set [broker] url to a "
            "mosquitto (docs/brokers.md).",
        )
    found = "no [broker] url: the embedded broker starts, and a message published came back"
    if doctor.devices.simulated:
        return passed("broker", f"{found}.")
    taken = [port for host, port in USUAL_BROKER_PORTS if not _free(host, port)]
    if taken:
        ports = " and ".join(map(str, taken))
        return passed(
            "broker",
            f"{found}; port {ports} is taken (a running app, or mosquitto), so the app's "
            "broker will take free ports.",
        )
    return passed("broker", f"{found}; its ports 1883 and 9001 are free.")


def _free(host: str, port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


# ---- the display page ----------------------------------------------------------------------


def check_display(doctor: Doctor) -> Result:
    from companion.lan import lan_address, page_url
    from companion.web.server import DisplayConfig, serve

    config = doctor.config
    devices = doctor.devices
    page = DisplayConfig(prefix=config.broker.prefix, board=config.game.board_id)
    try:
        server, _thread = serve(devices.display_host, devices.display_port, page)
    except OSError as err:
        if err.errno != errno.EADDRINUSE:
            return failed(
                "display",
                f"the page cannot be served on port {devices.display_port}: {err.strerror}.",
                "See docs/display.md.",
            )
        return _port_taken(doctor)
    try:
        port = server.port
        answer = _companion_page(page_url("127.0.0.1", port))
    finally:
        server.shutdown()
        server.server_close()
    if answer is not None:
        return failed(
            "display", f"the page was served but did not answer: {answer}.", "See docs/display.md."
        )
    here = page_url("127.0.0.1", port)
    lan = lan_address()
    if devices.simulated:
        room = f"; on the table, a phone opens {page_url(lan, 8080)}" if lan else ""
        return passed("display", f"the page answers at {here} (simulated{room}).")
    if lan is None:
        return failed(
            "display",
            f"port {port} is free and the page answers at {here}, but this machine is on no "
            "network, so no phone can open it.",
            "Join the network: `sudo nmtui`, or raspi-config → System Options → Wireless LAN; "
            "`hostname -I` shows the address.",
        )
    room = page_url(lan, port)
    return passed("display", f"port {port} is free; a phone on this network opens {room}")


def _port_taken(doctor: Doctor) -> Result:
    from companion.lan import lan_address, page_url

    port = doctor.devices.display_port
    problem = _companion_page(page_url("127.0.0.1", port))
    lan = lan_address()
    if problem is None:
        where = page_url(lan, port) if lan else page_url("127.0.0.1", port)
        return passed(
            "display", f"port {port} is already served by the companion (the app runs): {where}"
        )
    return failed(
        "display",
        f"port {port} is taken by another program ({problem}).",
        f"`sudo ss -ltnp 'sport = :{port}'` names it; stop it, or the app will move the page to "
        "a free port it prints.",
    )


def _companion_page(url: str) -> str | None:
    """None when `url` serves the companion's display page; else what it served."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            body = answer.read(65536).decode("utf-8", "replace")
    except OSError as err:
        return f"no page: {err}"
    return None if "Tabletop companion" in body else "not the companion's page"


# ---- all of them ---------------------------------------------------------------------------

CHECKS: dict[str, Callable[[Doctor], Result]] = {
    "store": check_store,
    "camera": check_camera,
    "reader": check_reader,
    "buttons": check_buttons,
    "leds": check_leds,
    "voice": check_voice,
    "broker": check_broker,
    "display": check_display,
}
"""Every check but the configuration's, which the others depend on."""


def examine(names: Sequence[str], config_result: Result, doctor: Doctor | None) -> Iterator[Result]:
    """The results of the checks `names`, one at a time as each is done. `doctor` is None
    when the configuration could not be read: the other checks are then skipped."""
    for name in names:
        if name == "config":
            yield config_result
        elif doctor is None:
            yield skipped(name, "the configuration could not be read.")
        else:
            yield run_one(name, doctor)


def run_one(name: str, doctor: Doctor) -> Result:
    """One check; whatever it raises becomes its FAIL line, never a traceback."""
    try:
        return CHECKS[name](doctor)
    except UserError as err:
        return failed(name, f"{said(err)}.", "See docs/pi.md, Troubleshooting.")
    except Exception as err:
        return failed(
            name,
            f"the check itself went wrong: {type(err).__name__}: {said(err)}.",
            "This is a fault in the companion: please report this line.",
        )
