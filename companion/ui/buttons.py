"""Finding a screen's decision buttons by the key they submit (tests and keyboards)."""

from __future__ import annotations

from typing import Any

from kivy.uix.button import Button


def button_for(container: Any, key: str) -> Button | None:
    """The button among `container`'s children whose `decision` is `key`, if any."""
    for widget in container.children:
        if getattr(widget, "decision", None) == key:
            found: Button = widget
            return found
    return None
