"""The user's configuration: a TOML file in the user config directory.

A missing file means every default; a malformed file, an unknown key or a value that cannot
work (a protocol no reader speaks, a pin the Pi does not have) is a UserError that names the
file, the line where TOML gives one, the key and the reason. A file named with `--config`
must exist: a mistyped name would otherwise quietly mean the defaults.

    config = load_config()           # from COMPANION_CONFIG or the user config directory
    config.store.path                # where games are kept
    config.pins.players              # BCM pin numbers of the clock's player buttons
    config.reader.port               # the card reader's serial port
    config.broker.url                # the MQTT broker the game is streamed to
"""

from __future__ import annotations

import os
import re
import tomllib
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Final, TypedDict

import platformdirs

from companion.errors import UserError
from vision.common.files import parsing, read_input_text

APP_NAME = "tabletop-companion"
CONFIG_ENV = "COMPANION_CONFIG"
DATA_ENV = "COMPANION_DATA"

READER_PROTOCOLS: Final = ("rdm6300", "pn532", "pico")
"""The protocols a card reader may speak, the default first. The reader registry
(companion/devices/cardreader/registry.py) makes them; it is not imported here, so that
reading the configuration does not load every reader's code."""
BROKER_SCHEMES: Final = ("mqtt", "mqtts", "ws", "wss")
"""The schemes of a broker URL, as companion/publish/publisher.py connects to them."""
HIGHEST_PIN: Final = 27
"""The Pi's GPIO header has BCM pins 0 to 27."""


def default_config_path() -> Path:
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def default_data_dir() -> Path:
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir(APP_NAME))


@dataclass(frozen=True)
class StoreConfig:
    path: str = ""
    """SQLite file for games; empty means `games.sqlite3` in the user data directory."""

    def resolved_path(self) -> Path:
        return Path(self.path).expanduser() if self.path else default_data_dir() / "games.sqlite3"


@dataclass(frozen=True)
class GameConfig:
    deck: str = "mythologies-of-earth"
    """A bundled deck id or a path to a deck file."""
    board_id: str = "table-1"
    """This companion's name on the stream and in the store."""


@dataclass(frozen=True)
class PinsConfig:
    """Where the clock's buttons, lights and buzzer are wired: BCM GPIO numbers.

    See hardware/clock-wiring.md for the default wiring.
    """

    players: list[int] = field(default_factory=lambda: [17, 27])
    """One button per player, in seating order: the first is player 0."""
    pause: int = 22
    """The pause button; 0 means there is none."""
    leds: list[int] = field(default_factory=lambda: [5, 6])
    """One LED per player, in the same order as `players`."""
    buzzer: int = 13
    """An active buzzer; 0 means there is none."""
    debounce_ms: int = 30
    """Edges of one button closer together than this are contact chatter and are dropped."""


@dataclass(frozen=True)
class ClockConfig:
    tenths_below_s: int = 20
    """Below this many seconds a player's time shows tenths."""
    warning_s: int = 10
    """Below this many seconds a player's time is in warning (and may beep once)."""
    beep_warning: bool = True
    """A short beep as the running player's time falls below `warning_s`."""
    beep_countdown: bool = True
    """A short beep as the running player's time falls below each of the last 5 seconds."""
    beep_flag: bool = True
    """A long tone when a player's flag falls."""


@dataclass(frozen=True)
class ReaderConfig:
    """The card reader: see docs/card-readers.md and hardware/card-readers.md."""

    port: str = ""
    """Its serial port (/dev/serial0, /dev/ttyUSB0, ...); empty means none is configured."""
    protocol: str = "rdm6300"
    """What talks on the port: rdm6300, pn532 or pico."""
    silence_ms: int = 300
    """A card not seen for this long has been taken away."""


class Login(TypedDict):
    """A broker's login and TLS files, as the companion's MQTT clients take them."""

    username: str
    password: str
    ca_file: str
    cert_file: str
    key_file: str


@dataclass(frozen=True)
class BrokerConfig:
    """The MQTT broker the game is streamed to: see docs/mqtt.md."""

    url: str = ""
    """mqtt://host:1883, mqtts://host:8883, ws://host:9001 or wss://...; empty means the
    companion's embedded broker."""
    prefix: str = "tabletop"
    """The first level of every topic: <prefix>/<board_id>/state, ..."""
    username: str = ""
    """The user name to connect as; empty means none."""
    password: str = ""
    ca_file: str = ""
    """A CA certificate file to trust the broker by (mqtts:// and wss:// only); empty means
    the system's CAs."""
    cert_file: str = ""
    """A client certificate, for brokers that ask for one; empty means none."""
    key_file: str = ""
    """The client certificate's private key, when it is not in `cert_file`."""
    wss_cert_file: str = ""
    """With `url` empty: a certificate for the embedded broker's WebSockets listener, which
    then speaks TLS to the display pages (wss://); empty means plain ws://."""
    wss_key_file: str = ""
    """The private key of `wss_cert_file`."""
    home_assistant: bool = False
    """Also publish Home Assistant MQTT discovery configs (scores, turn, clocks)."""

    def login(self) -> Login:
        """Its user, password and TLS files, as every connection to it takes them."""
        return {
            "username": self.username,
            "password": self.password,
            "ca_file": self.ca_file,
            "cert_file": self.cert_file,
            "key_file": self.key_file,
        }


@dataclass(frozen=True)
class CameraConfig:
    """The camera over the table: see docs/vision.md."""

    source: str = ""
    """0, /dev/video2, picamera, a video or a folder of pictures; empty means none (the
    touchscreen app then takes moves by touch)."""


@dataclass(frozen=True)
class VoiceConfig:
    """The companion's voice: see docs/voice.md."""

    on: bool = False
    """Say each move and what the rules wait for, as a referee at the table would."""
    volume: int = 80
    """0 to 100."""
    language: str = "en"
    """The voice's language (espeak-ng's name for it)."""
    piper_model: str = ""
    """A Piper voice model (.onnx) put on this machine: a neural voice, used instead of
    espeak-ng when the model and the `piper` program are both there. Never fetched."""
    keep_dir: str = ""
    """Where each announcement is also kept as a WAV file (a recording of the game's
    commentary); empty: none."""


@dataclass(frozen=True)
class Config:
    store: StoreConfig = field(default_factory=StoreConfig)
    game: GameConfig = field(default_factory=GameConfig)
    pins: PinsConfig = field(default_factory=PinsConfig)
    clock: ClockConfig = field(default_factory=ClockConfig)
    reader: ReaderConfig = field(default_factory=ReaderConfig)
    broker: BrokerConfig = field(default_factory=BrokerConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    source: str = "defaults"
    """Where this configuration came from: a path, or 'defaults' when no file exists."""

    def to_dict(self) -> dict[str, Any]:
        return {
            section.name: {
                f.name: getattr(getattr(self, section.name), f.name)
                for f in fields(getattr(self, section.name))
            }
            for section in fields(self)
            if section.name != "source"
        }


_SECTIONS: dict[str, type] = {
    "store": StoreConfig,
    "game": GameConfig,
    "pins": PinsConfig,
    "clock": ClockConfig,
    "reader": ReaderConfig,
    "broker": BrokerConfig,
    "camera": CameraConfig,
    "voice": VoiceConfig,
}


def require_config_file(path: Path) -> Path:
    """`path`, when it names a file: a configuration named on purpose (`--config`) must
    exist, unlike the default place, which holds no file until settings are saved."""
    if "\x00" in str(path):
        raise UserError("a configuration file name cannot hold a NUL byte", where=repr(str(path)))
    if os.path.islink(path) and not path.exists():
        raise UserError(
            f"a symbolic link to {os.readlink(path)!r}, which does not exist", where=str(path)
        )
    if not path.exists():
        raise UserError("no such configuration file", where=str(path))
    return path


def load_config(path: Path | None = None) -> Config:
    """Reads the configuration; a missing file gives the defaults (but a symbolic link that
    leads nowhere is an error: the file meant is not where it was said to be)."""
    path = path or default_config_path()
    if "\x00" not in str(path) and not os.path.lexists(path):
        return Config()
    text = read_input_text(path, "configuration file")
    try:
        with parsing(str(path), "configuration file"):
            raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise UserError(f"not valid TOML: {err}", where=str(path)) from None
    return parse_config(raw, str(path))


def parse_config(raw: dict[str, Any], source: str) -> Config:
    sections: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in _SECTIONS:
            known = ", ".join(sorted(_SECTIONS))
            raise UserError(f"unknown section [{name}] (known: {known})", where=source)
        if not isinstance(value, dict):
            raise UserError(f"[{name}] must be a table", where=source)
        cls = _SECTIONS[name]
        defaults = cls()
        values: dict[str, Any] = {}
        for key, item in value.items():
            known_fields = {f.name: f for f in fields(cls)}
            if key not in known_fields:
                known = ", ".join(sorted(known_fields))
                raise UserError(f"unknown key {name}.{key} (known: {known})", where=source)
            expected = type(getattr(defaults, key))
            if not isinstance(item, expected) or isinstance(item, bool) != (expected is bool):
                raise UserError(
                    f"{name}.{key} must be {expected.__name__}, got {item!r}", where=source
                )
            # type() of a list default says nothing about its items; every list setting so
            # far is a list of whole numbers (pin numbers), and TOML booleans are not those.
            if expected is list and not all(_is_int(element) for element in item):
                raise UserError(f"{name}.{key} must be a list of int, got {item!r}", where=source)
            values[key] = item
        sections[name] = cls(**values)
    config = Config(**sections, source=source)
    problem = _first_problem(config)
    if problem:
        raise UserError(problem, where=source)
    return config


def with_changes(config: Config, changes: dict[str, dict[str, Any]]) -> Config:
    """`config` with some settings changed ({"broker": {"url": ...}, ...}), checked exactly
    as a file would be: a UserError names the setting at fault."""
    merged = config.to_dict()
    for section, values in changes.items():
        merged.setdefault(section, {}).update(values)
    return parse_config(merged, config.source)


def save_config(config: Config, path: Path | None = None) -> Path:
    """Writes the settings that differ from the defaults as TOML (atomically: a power cut
    leaves the old file or the new one, never half of one); returns the path."""
    path = path or default_config_path()
    defaults = Config().to_dict()
    lines = ["# The companion's settings (companion config show lists them all).", ""]
    for section, values in config.to_dict().items():
        changed = {k: v for k, v in values.items() if v != defaults[section][k]}
        if not changed:
            continue
        lines.append(f"[{section}]")
        lines += [f"{key} = {_toml_value(value)}" for key, value in changed.items()]
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(path.name + ".new")
    scratch.write_text("\n".join(lines), encoding="utf-8")
    os.replace(scratch, path)
    return path


# ---- values that cannot work ---------------------------------------------------------------
# Each check returns why a value is refused, or None. Types are checked before these run.

Check = Callable[[Any], str | None]


def _between(low: int, high: int) -> Check:
    def check(value: int) -> str | None:
        return None if low <= value <= high else f"must be {low} to {high}, not {value}"

    return check


def _at_least(low: int) -> Check:
    def check(value: int) -> str | None:
        return None if value >= low else f"must be {low} or more, not {value}"

    return check


def _one_of(choices: tuple[str, ...]) -> Check:
    def check(value: str) -> str | None:
        return None if value in choices else f"must be one of {', '.join(choices)}, not {value!r}"

    return check


def _pins(value: list[int]) -> str | None:
    wrong = [pin for pin in value if not 0 <= pin <= HIGHEST_PIN]
    if wrong:
        return f"must be BCM pins 0 to {HIGHEST_PIN}, not {wrong[0]}"
    twice = [pin for index, pin in enumerate(value) if pin in value[:index]]
    return f"names pin {twice[0]} twice" if twice else None


def _language(value: str) -> str | None:
    # espeak-ng's voice names: "en", "en-gb", "fr", "pt-br"...
    if re.fullmatch(r"[a-z]{2,3}(-[a-z0-9]{2,8})*", value):
        return None
    return f"must be a language such as en, en-gb or fr, not {value!r}"


def _pin_or_none(value: int) -> str | None:
    if 0 <= value <= HIGHEST_PIN:
        return None
    return f"must be 0 (none) or a BCM pin 1 to {HIGHEST_PIN}, not {value}"


# MQTT gives '/' (between levels), '+' and '#' (wildcards) a meaning in topic names; spaces
# and control characters are legal there but break every command line and URL they meet.
_TOPIC_UNSAFE = "/+#"


def _topic_level(value: str) -> str | None:
    if not value:
        return "must not be empty"
    if any(char in _TOPIC_UNSAFE or char.isspace() or not char.isprintable() for char in value):
        return f"must be one MQTT topic level: no '/', '+', '#' or spaces, not {value!r}"
    return None


def _topic_prefix(value: str) -> str | None:
    """One or more topic levels: a prefix may be `clubs/paris`."""
    if not value:
        return "must not be empty"
    if value.startswith("$"):
        return f"must not start with '$' (brokers keep those topics for themselves), not {value!r}"
    if any(_topic_level(level) for level in value.split("/")):
        return (
            "must be MQTT topic levels split by '/' (no '+', '#', spaces or empty levels), "
            f"not {value!r}"
        )
    return None


def _broker_url(value: str) -> str | None:
    """Empty (the embedded broker) or what companion/publish/publisher.py can connect to."""
    if not value:
        return None
    try:
        parts = urllib.parse.urlsplit(value)
    except ValueError as err:  # 'mqtt://[::1': an IPv6 address left open
        return f"is not a URL ({err}): {value!r}"
    if parts.scheme.lower() not in BROKER_SCHEMES:
        *first, last = (f"{scheme}://" for scheme in BROKER_SCHEMES)
        return f"must start with {', '.join(first)} or {last}, not {value!r}"
    if parts.username or parts.password:
        return "must not hold a user name or password: set broker.username and broker.password"
    try:
        _ = parts.port  # a port that is not a number from 0 to 65535 raises here
    except ValueError:
        return f"has a port that is not a number from 0 to 65535: {value!r}"
    if not parts.hostname or any(char.isspace() for char in parts.hostname):
        return f"names no host: {value!r}"
    if any(not char.isprintable() for char in value):
        return f"must not hold control characters: {value!r}"
    return None


def _store_path(value: str) -> str | None:
    """Empty (the user data directory) or a path; `~user/...` must name a user there is."""
    try:
        Path(value).expanduser()
    except RuntimeError:
        return f"names the home directory of a user there is not: {value!r}"
    return None


_NO_NUL: Final = frozenset(
    {
        ("store", "path"),
        ("game", "deck"),
        ("reader", "port"),
        ("broker", "url"),
        ("broker", "username"),
        ("broker", "ca_file"),
        ("broker", "cert_file"),
        ("broker", "key_file"),
        ("broker", "wss_cert_file"),
        ("broker", "wss_key_file"),
        ("camera", "source"),
        ("voice", "piper_model"),
        ("voice", "keep_dir"),
    }
)
"""Settings that are file names, ports, URLs or MQTT strings: none of these can hold a NUL
byte (a password may: MQTT sends it as bytes)."""


def _no_nul(section: str, key: str, value: Any) -> str | None:
    if (section, key) in _NO_NUL and isinstance(value, str) and "\x00" in value:
        return f"{section}.{key} must not hold a NUL byte: {value!r}"
    return None


_CHECKS: Final[dict[tuple[str, str], Check]] = {
    ("store", "path"): _store_path,
    ("game", "board_id"): _topic_level,
    ("pins", "players"): _pins,
    ("pins", "pause"): _pin_or_none,
    ("pins", "leds"): _pins,
    ("pins", "buzzer"): _pin_or_none,
    ("pins", "debounce_ms"): _between(0, 1000),
    ("clock", "tenths_below_s"): _at_least(0),
    ("clock", "warning_s"): _at_least(0),
    ("reader", "protocol"): _one_of(READER_PROTOCOLS),
    ("reader", "silence_ms"): _between(50, 10_000),
    ("broker", "url"): _broker_url,
    ("broker", "prefix"): _topic_prefix,
    ("voice", "volume"): _between(0, 100),
    ("voice", "language"): _language,
}


def _first_problem(config: Config) -> str | None:
    """Why `config` cannot work, naming the setting at fault; None when it can."""
    values = config.to_dict()
    for section, settings in values.items():
        for key, value in settings.items():
            if reason := _no_nul(section, key, value):
                return reason
    for (section, key), check in _CHECKS.items():
        reason = check(values[section][key])
        if reason:
            return f"{section}.{key} {reason}"
    return _shared_pin(config.pins)


def _shared_pin(pins: PinsConfig) -> str | None:
    """A pin wired to two things: gpiozero refuses to claim it twice, at the clock's start."""
    owners: dict[int, str] = {}
    wired = [("players", pin) for pin in pins.players]
    wired += [("pause", pins.pause), ("buzzer", pins.buzzer)]
    wired += [("leds", pin) for pin in pins.leds]
    for key, pin in wired:
        if key in ("pause", "buzzer") and pin == 0:
            continue  # 0: there is none
        if pin in owners and owners[pin] != key:
            return f"pins.{key} uses pin {pin}, which pins.{owners[pin]} uses too"
        owners.setdefault(pin, key)
    return None


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    # A TOML basic string: backslash, quote and control characters escaped.
    out = []
    for char in str(value):
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
