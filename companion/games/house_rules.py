"""House rules, for every game: each gap or contradiction of a rule book as a named switch
with a default, and a game's switches as one frozen dataclass.

A game declares its switches once, as a frozen dataclass deriving from `HouseRuleSet`: one
field per switch, its values in its type (a `Literal` of them, or bool), its default the
field's, and its key, the ambiguity it settles and what each value means given with
`house_rule`. The list of switches (`HouseRule`s, for `companion rules` and the checks) is
read from those fields; reading a setup's "house_rules" object and writing it back are the
same for every game and live here.

    @dataclass(frozen=True, slots=True)
    class HouseRules(HouseRuleSet):
        GAME: ClassVar[str] = "mem"
        tie: Literal["DRAW", "MORE_CAPTURED"] = house_rule(
            "DRAW", "mem.tie", "MEM-A13", "equal stones is a draw / more captured wins"
        )

    HOUSE_RULES = rules_of(HouseRules)
    HouseRules.from_dict({"mem.tie": "MORE_CAPTURED"}).tie      # 'MORE_CAPTURED'
"""

from __future__ import annotations

import dataclasses
import re
import typing
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

    @property
    def title(self) -> str:
        """The switch's name for people, from its key: ``ml.bringIn.points`` is "Bring in
        points"."""
        words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", " ".join(self.key.split(".")[1:]))
        words = words.lower() or self.key
        return words[0].upper() + words[1:]

    def meaning_of(self, value: Any) -> str:
        """The sentence that says what `value` means ('' for a value of a range)."""
        sentences = self.meaning.split(" / ")
        if value in self.choices and len(sentences) == len(self.choices):
            return sentences[self.choices.index(value)].strip()
        return ""

    def problem(self, value: Any) -> str | None:
        """What is wrong with `value` for this switch, or None."""
        if self.validate is not None:
            return self.validate(value)
        # The type check keeps True from passing for 1 (and 1 for True): True == 1 in Python.
        if value not in self.choices or type(value) is not type(self.default):
            choices = ", ".join(repr(c) for c in self.choices)
            return f"must be one of {choices}, got {value!r}"
        return None


def value_text(value: object) -> str:
    """A house rule's value on a button: ``STARTER_ONLY`` is "Starter only"."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    text = str(value).replace("_", " ").lower()
    return text[:1].upper() + text[1:]


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


_RULE = "house_rule"
"""The key of a field's metadata that makes it a house rule."""


@dataclass(frozen=True, slots=True)
class _Declared:
    key: str
    settles: str
    meaning: str
    validate: Validator | None
    span: str


def house_rule(
    default: Any,
    key: str,
    settles: str,
    meaning: str,
    *,
    validate: Validator | None = None,
    span: str = "",
) -> Any:
    """A house-rule field: its default, its key in a setup's "house_rules", the ambiguity it
    settles, what each value means (default first, joined by ' / '). A field whose values
    are not a short list (an int in a range) names its `validate` and its `span` in words."""
    declared = _Declared(key, settles, meaning, validate, span)
    return dataclasses.field(default=default, metadata={_RULE: declared})


def rules_of(rules: type[HouseRuleSet]) -> tuple[HouseRule, ...]:
    """The switches of a game's HouseRules dataclass, in the order of its fields, each with
    the values its type allows; sets the class's RULES to them by key."""
    types = typing.get_type_hints(rules)
    out: list[HouseRule] = []
    for field in dataclasses.fields(rules):
        declared = field.metadata.get(_RULE)
        if not isinstance(declared, _Declared):
            raise TypeError(f"{rules.__name__}.{field.name} is not declared with house_rule")
        kind = types[field.name]
        default: Any = field.default
        if typing.get_origin(kind) is typing.Literal:
            values = typing.get_args(kind)
        elif kind is bool:
            values = (False, True)
        else:
            values = ()
        if default not in values and declared.validate is None:
            raise TypeError(f"{rules.__name__}.{field.name}: the default is not a value of it")
        # A bool is an int to Python (True == 1): compare types too.
        alternatives = tuple(v for v in values if v != default or type(v) is not type(default))
        out.append(
            HouseRule(
                declared.key,
                field.name,
                declared.settles,
                default,
                alternatives,
                declared.meaning,
                declared.validate,
                declared.span,
            )
        )
    rules.RULES = {rule.key: rule for rule in out}
    return tuple(out)
