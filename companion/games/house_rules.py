"""House rules, for every game: each gap or contradiction of a rule book as a named switch
with a default, and a game's switches as one frozen dataclass.

A game lists its switches (`HouseRule`) and declares a frozen dataclass with one field per
switch, defaults as in the list, that also derives from `HouseRuleSet`; reading a setup's
"house_rules" object, writing it back and checking that list and fields agree are the same
for every game and live here.

    @dataclass(frozen=True, slots=True)
    class HouseRules(HouseRuleSet):
        GAME: ClassVar[str] = "mem"
        RULES: ClassVar[Mapping[str, HouseRule]] = RULES_BY_KEY
        tie: str = "DRAW"

    check_registry(HouseRules)
    HouseRules.from_dict({"mem.tie": "MORE_CAPTURED"}).tie      # 'MORE_CAPTURED'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from companion.games.contract import BadSetup

Validator = Callable[[Any], str | None]
"""Checks one value of a switch whose values are not a short list: the problem in words
(it follows the field's name in a BadSetup), or None when the value is good."""


@dataclass(frozen=True, slots=True)
class HouseRule:
    key: str
    attribute: str
    settles: str
    """The ambiguity id (MW-Axx, MEM-Axx) this switch settles."""
    default: str | bool | int
    alternatives: tuple[str | bool | int, ...]
    meaning: str
    """One sentence for each value, default first, joined by ' / '."""
    validate: Validator | None = None
    """For a switch that takes a range rather than a list (its `alternatives` empty); None
    checks the value against `choices`."""
    span: str = ""
    """The values a `validate`d switch takes, in words ("any whole number 1..24")."""

    @property
    def choices(self) -> tuple[str | bool | int, ...]:
        return (self.default, *self.alternatives)

    def problem(self, value: Any) -> str | None:
        """What is wrong with `value` for this switch, or None."""
        if self.validate is not None:
            return self.validate(value)
        # The type check keeps True from passing for 1 (and 1 for True): True == 1 in Python.
        if value not in self.choices or type(value) is not type(self.default):
            choices = ", ".join(repr(c) for c in self.choices)
            return f"must be one of {choices}, got {value!r}"
        return None


class HouseRuleSet:
    """The reading and writing shared by every game's HouseRules dataclass.

    A subclass sets GAME (its name in `companion rules <game>`) and RULES (its switches by
    key, in the order they are listed), and is a frozen dataclass whose fields all have
    defaults.
    """

    __slots__ = ()
    # Declared so that type checkers take a subclass for the dataclass it is.
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]
    GAME: ClassVar[str]
    RULES: ClassVar[Mapping[str, HouseRule]]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "house_rules") -> Self:
        """Reads {key: value} by house-rule key; unknown keys and values are BadSetup."""
        if not isinstance(data, Mapping):
            raise BadSetup(where, "must be an object of house-rule keys")
        changes: dict[str, Any] = {}
        for key, value in data.items():
            rule = cls.RULES.get(key)
            if rule is None:
                raise BadSetup(
                    f"{where}.{key}", f"is not a house rule (see `companion rules {cls.GAME}`)"
                )
            problem = rule.problem(value)
            if problem is not None:
                raise BadSetup(f"{where}.{key}", problem)
            changes[rule.attribute] = value
        return dataclasses.replace(cls(), **changes)

    def to_dict(self, changed_only: bool = True) -> dict[str, Any]:
        """The keys that differ from the defaults (or all of them)."""
        defaults = type(self)()
        out: dict[str, Any] = {}
        for rule in self.RULES.values():
            value = getattr(self, rule.attribute)
            if not changed_only or value != getattr(defaults, rule.attribute):
                out[rule.key] = value
        return out


def check_registry(rules: type[HouseRuleSet]) -> None:
    """Asserts that the list of switches and the dataclass fields agree, defaults too: run
    once at import, so that a switch added to one and not the other fails at once."""
    names = {f.name for f in dataclasses.fields(rules)}
    assert names == {r.attribute for r in rules.RULES.values()}, "house-rule registry out of step"
    for rule in rules.RULES.values():
        assert getattr(rules(), rule.attribute) == rule.default, rule.key
