"""What the companion says of a game: each event's sentence (the narration the stream
sends with it) and then what the rules wait for (the prompt of the spectator view). Both
are the public account every viewer gets, so nothing hidden is ever said aloud.

    announcer = Announcer(speaker.say, enabled=lambda: config.voice.on)
    put_down = announcer.attach(parts)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games import find_plugin, plugin_names
from companion.session import Notification
from companion.table.wiring import GameParts, PutDown


class Announcer:
    def __init__(
        self,
        say: Callable[[str], None],
        enabled: Callable[[], bool],
        translate: Callable[[str], str] = str,
    ) -> None:
        """`enabled` is asked at every move: Settings turns the voice off or on mid-game;
        `translate` puts each sentence in the player's language (companion/voice/catalogue.py)."""
        self.say = say
        self.enabled = enabled
        self.translate = translate

    def attach(self, parts: GameParts) -> PutDown:
        """Follows the game's moves until the returned function is called."""
        referee = parts.referee
        engine = referee.engine
        known = engine.name in plugin_names()
        narrate = find_plugin(engine.name).narrator(referee.state) if known else None

        def heard(note: Notification) -> None:
            if not self.enabled():
                return
            for sentence in sentences(engine, note, narrate):
                self.say(self.translate(sentence))

        return referee.subscribe(heard)


ELSEWHERE = "That move was made at the other table: lay it here."
"""Said after a move made at the other table of a remote game (companion/remote), whose
pieces a player here must lay before play goes on."""


def sentences(engine: Any, note: Notification, narrate: Callable[[Any], str] | None) -> list[str]:
    """What is said after a move: its events' sentences, then, for a move made at the other
    table of a remote game, that it is to be laid here, then the next prompt."""
    said = [text for event in note.events if narrate is not None and (text := narrate(event))]
    if note.elsewhere and said:
        said.append(ELSEWHERE)
    view = engine.view(note.state, "spectator")
    expected = view.get("expected") if isinstance(view, dict) else None
    prompt = expected.get("prompt") if isinstance(expected, dict) else None
    if isinstance(prompt, str) and prompt.strip() and prompt not in said:
        said.append(prompt)
    return said
