"""What a side may send from its own private page (companion/table/private_pages.py): the
actions that carry something the others must not see (a counter's value, a secret word),
each with the fields the player fills in. A game gives them through its plugin
(`private_inputs`); the page draws a form for each, and sends the action it makes:
``{"type": action, "side": side, **fields}``.

    PrivateInput("place_counter", "Lay a counter face down", (
        InputField("place", "Place", (("12", 12), ("13", 13))),
        InputField("value", "Value", (("5", 5), ("3", 3))),
    ))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.contract import JSON


@dataclass(frozen=True, slots=True)
class InputField:
    name: str
    """The action's field it fills."""
    label: str
    choices: tuple[tuple[str, Any], ...] = ()
    """(text, value) to choose from; empty for a text the player types."""

    def to_dict(self) -> JSON:
        return {
            "name": self.name,
            "label": self.label,
            "choices": [{"text": text, "value": value} for text, value in self.choices],
        }


@dataclass(frozen=True, slots=True)
class PrivateInput:
    action: str
    """The action's kind."""
    label: str
    """What the button that sends it says."""
    fields: tuple[InputField, ...] = ()

    def to_dict(self) -> JSON:
        return {
            "action": self.action,
            "label": self.label,
            "fields": [field.to_dict() for field in self.fields],
        }
