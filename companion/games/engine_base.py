"""The part of the engine contract that is the same for every game: actions and events go
to and from JSON through the game's codecs, and a state keeps the setup that started it.

    class MemEngine(EngineBase[State]):
        actions = A.ACTIONS
        events = E.EVENTS

What differs from game to game (starting, applying, expecting, viewing, ending, a state's
own JSON, the summary) stays in each engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from companion.games.codec import Codec
from companion.games.contract import JSON, Action, Event


class _Setup(Protocol):
    def to_dict(self) -> JSON: ...


class _HasSetup(Protocol):
    @property
    def setup(self) -> _Setup: ...


S = TypeVar("S", bound=_HasSetup)


class EngineBase(Generic[S]):
    actions: ClassVar[Codec[Action]]
    """The game's actions by kind."""
    events: ClassVar[Codec[Event]]
    """The game's events by kind."""

    def setup_of(self, state: S) -> JSON:
        return state.setup.to_dict()

    def action_to_dict(self, action: Action) -> JSON:
        return self.actions.to_dict(action)

    def action_from_dict(self, data: Mapping[str, Any]) -> Action:
        return self.actions.from_dict(data)

    def event_to_dict(self, event: Event) -> JSON:
        return self.events.to_dict(event)

    def implied(self, state: S, action: Action) -> Action | None:
        """By default a record leaves nothing out."""
        return None
