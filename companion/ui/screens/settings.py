"""Settings: the configuration a person may change from the screen, saved where it is read."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import ListProperty, StringProperty
from kivy.uix.textinput import TextInput

from companion.ui.screens.base import AppScreen

SETTINGS_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("Board id", "game", "board_id"),
    ("Deck", "game", "deck"),
    ("Camera", "camera", "source"),
    ("Reader port", "reader", "port"),
    ("Reader protocol", "reader", "protocol"),
    ("Broker URL", "broker", "url"),
    ("Topic prefix", "broker", "prefix"),
    ("Broker user", "broker", "username"),
    ("Broker password", "broker", "password"),
    ("Broker CA file", "broker", "ca_file"),
    ("Client cert", "broker", "cert_file"),
    ("Client key", "broker", "key_file"),
    ("Home Assistant", "broker", "home_assistant"),
    ("Button pins", "pins", "players"),
    ("Pause pin", "pins", "pause"),
    ("LED pins", "pins", "leds"),
    ("Buzzer pin", "pins", "buzzer"),
    ("Voice", "voice", "on"),
    ("Voice volume", "voice", "volume"),
    ("Voice language", "voice", "language"),
)
"""The settings the screen edits: label, configuration section and key."""

YES_NO = ("yes", "no")
"""How the screen shows a setting that is on or off."""


class SettingsScreen(AppScreen):
    """The settings a table needs, edited and saved to the configuration file (checked as
    the file would be); the display page's address as text and as a QR code.

    A setting with a few possible values (the reader's protocol, on or off) is chosen from
    a list, so it cannot be mistyped; every other one is typed and checked at Save."""

    details = StringProperty("")
    qr_path = StringProperty("")
    page_url = StringProperty("")
    result = StringProperty("")
    result_colour = ListProperty([1, 1, 1, 1])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.inputs: dict[tuple[str, str], Any] = {}
        """Each setting's widget, by section and key: a TextInput, or a Spinner of choices.
        Both hold the setting as `text`."""

    def on_pre_enter(self, *_: Any) -> None:
        config = self.companion.controller.config
        values = config.to_dict()
        grid = self.ids.fields
        if not self.inputs:
            for label, section, key in SETTINGS_FIELDS:
                grid.add_widget(Factory.RowLabel(text=label, height="40dp", size_hint_y=None))
                field = _setting_input(section, key, values[section][key])
                self.inputs[(section, key)] = field
                grid.add_widget(field)
        for (section, key), field in self.inputs.items():
            field.text = _setting_text(values[section][key])
        self.page_url = self.companion.page_url
        self.result = ""

    def save(self) -> None:
        """Saves the settings if the configuration's own checks pass them; otherwise
        writes nothing and says which setting is wrong and why."""
        from companion.config import save_config, with_changes
        from companion.errors import UserError

        controller = self.companion.controller
        current = controller.config.to_dict()
        changes: dict[str, dict[str, Any]] = {}
        try:
            for (section, key), field in self.inputs.items():
                changes.setdefault(section, {})[key] = _setting_value(
                    field.text, current[section][key], f"{section}.{key}"
                )
            config = with_changes(controller.config, changes)
            path = save_config(config, controller.config_path)
        except UserError as err:
            # The reason alone: the file's name is in "Saved to" once it is written.
            self._refused(err.message)
            return
        except (ValueError, OSError) as err:
            self._refused(str(err))
            return
        controller.config = config
        self.result = f"Saved to {path}. The camera, reader and broker change at the next start."
        self.result_colour = [0.5, 1, 0.5, 1]

    def _refused(self, reason: str) -> None:
        self.result, self.result_colour = f"Not saved: {reason}", [1, 0.45, 0.4, 1]


def _setting_choices(section: str, key: str, like: Any) -> tuple[str, ...]:
    """The values a setting is chosen from; empty when it is typed."""
    from companion.config import READER_PROTOCOLS

    if isinstance(like, bool):
        return YES_NO
    if (section, key) == ("reader", "protocol"):
        return READER_PROTOCOLS
    if (section, key) == ("voice", "language"):
        from companion.voice.catalogue import languages

        # The languages the companion has words for; espeak-ng says each in its own voice.
        return ("en", *languages()) if like in ("en", *languages()) else (like, "en", *languages())
    return ()


def _setting_input(section: str, key: str, like: Any) -> Any:
    """The widget that edits a setting whose current value is `like`."""
    choices = _setting_choices(section, key, like)
    if choices:
        return Factory.SettingChoice(values=choices)
    number_filter: Any = None
    if isinstance(like, int):
        number_filter = "int"
    elif isinstance(like, list):
        number_filter = _pin_list_filter
    return TextInput(
        multiline=False,
        font_size="16sp",
        size_hint_y=None,
        height="40dp",
        password=key == "password",
        input_filter=number_filter,
    )


def _pin_list_filter(typed: str, from_undo: bool) -> str:
    """What a list of pin numbers may be typed with: digits, commas and spaces."""
    return "".join(char for char in typed if char.isdigit() or char in ", ")


def _setting_text(value: Any) -> str:
    if isinstance(value, bool):
        return YES_NO[0] if value else YES_NO[1]
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _setting_value(text: str, like: Any, name: str) -> Any:
    """The typed value of a setting shown on the screen, the type of its current value;
    a ValueError names the setting (`section.key`) when the text is not of that type."""
    text = text.strip()
    if isinstance(like, bool):
        return text.lower() in ("1", "true", "yes", "on")
    if isinstance(like, int):
        if not text.lstrip("-").isdigit():
            raise ValueError(f"{name} must be a whole number, not {text!r}")
        return int(text)
    if isinstance(like, list):
        parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
        if not all(p.isdigit() for p in parts):
            raise ValueError(f"{name} must be pin numbers separated by commas, not {text!r}")
        return [int(p) for p in parts]
    return text
