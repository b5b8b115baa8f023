"""Turning action and event dataclasses into JSON-safe dicts and back, with checks.

Each engine registers its classes in a `Codec`; a dict carries its class in "type".
Field types allowed: int, bool, str, float, None unions, tuples of those, and enums.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Generic, TypeVar

from companion.games.contract import JSON, BadData

T = TypeVar("T")


class Codec(Generic[T]):
    """A family of dataclasses, each with a ClassVar `kind`, encoded with a "type" key."""

    def __init__(self, family: str, classes: Iterable[type[T]]) -> None:
        self.family = family
        self.by_kind: dict[str, type[T]] = {}
        self.hints: dict[str, dict[str, Any]] = {}
        for cls in classes:
            kind = cls.kind  # type: ignore[attr-defined]
            self.by_kind[kind] = cls
            self.hints[kind] = {
                f.name: typing.get_type_hints(cls)[f.name]
                for f in dataclasses.fields(cls)  # type: ignore[arg-type]
            }

    def to_dict(self, obj: T) -> JSON:
        out: JSON = {"type": obj.kind}  # type: ignore[attr-defined]
        for f in dataclasses.fields(obj):  # type: ignore[arg-type]
            out[f.name] = _plain(getattr(obj, f.name))
        return out

    def from_dict(self, data: Mapping[str, Any]) -> T:
        if not isinstance(data, Mapping):
            raise BadData(self.family, f"expected an object, got {type(data).__name__}")
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in self.by_kind:
            known = ", ".join(sorted(self.by_kind))
            raise BadData(f"{self.family}.type", f"unknown type {kind!r} (known: {known})")
        hints = self.hints[kind]
        unknown = set(data) - set(hints) - {"type"}
        if unknown:
            raise BadData(f"{kind}.{sorted(unknown)[0]}", "is not a field of this type")
        values: dict[str, Any] = {}
        cls = self.by_kind[kind]
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name in data:
                values[f.name] = parse_value(data[f.name], hints[f.name], f"{kind}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise BadData(f"{kind}.{f.name}", "is missing")
        return cls(**values)


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def parse_value(raw: Any, hint: Any, where: str) -> Any:
    """Checks `raw` against a type hint and converts lists to tuples and strings to enums."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if raw is None and type(None) in options:
            return None
        problems = []
        for option in options:
            if option is type(None):
                continue
            try:
                return parse_value(raw, option, where)
            except BadData as err:
                problems.append(err.problem)
        raise BadData(where, " or ".join(problems))
    if origin is tuple:
        if not isinstance(raw, list | tuple):
            raise BadData(where, f"expected a list, got {_describe(raw)}")
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(parse_value(v, args[0], f"{where}[{i}]") for i, v in enumerate(raw))
        if len(args) != len(raw):
            raise BadData(where, f"expected {len(args)} items, got {len(raw)}")
        return tuple(
            parse_value(v, a, f"{where}[{i}]")
            for i, (v, a) in enumerate(zip(raw, args, strict=True))
        )
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(raw, Mapping):
            raise BadData(where, f"expected an object, got {_describe(raw)}")
        hints = _type_hints(hint)
        values = {}
        for f in dataclasses.fields(hint):
            if f.name in raw:
                values[f.name] = parse_value(raw[f.name], hints[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise BadData(f"{where}.{f.name}", "is missing")
        return hint(**values)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(raw)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in hint)
            raise BadData(where, f"expected one of {allowed}, got {raw!r}") from None
    if hint is bool:
        if not isinstance(raw, bool):
            raise BadData(where, f"expected true or false, got {_describe(raw)}")
        return raw
    if hint is int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise BadData(where, f"expected a whole number, got {_describe(raw)}")
        return raw
    if hint is float:
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise BadData(where, f"expected a number, got {_describe(raw)}")
        return float(raw)
    if hint is str:
        if not isinstance(raw, str):
            raise BadData(where, f"expected text, got {_describe(raw)}")
        return raw
    if hint is type(None):
        if raw is not None:
            raise BadData(where, f"expected null, got {_describe(raw)}")
        return None
    raise TypeError(f"{where}: unsupported field type {hint!r}")  # a programming error


@functools.cache
def _type_hints(cls: type) -> dict[str, Any]:
    """A dataclass's field types, worked out once: a state holds thousands of nested records
    and working them out again for each one made reading a state slow."""
    return typing.get_type_hints(cls)


def _describe(raw: Any) -> str:
    if raw is None:
        return "null"
    text = repr(raw)
    return text if len(text) <= 40 else text[:37] + "..."
