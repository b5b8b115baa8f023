"""The companion's voice: it says each move and what the rules wait for, as a referee at
the table would, from the same public account of the game as the stream (never a hidden
fact), with espeak-ng, or a Piper voice the user has put on the machine.

    speaker = Speaker.start(voice_for(config.voice), config.voice)
    announcer = Announcer(speaker.say, enabled=lambda: config.voice.on)
    put_down = announcer.attach(parts)      # an OnGame, like the stream's
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from companion.config import VoiceConfig
from companion.voice.announcer import Announcer
from companion.voice.catalogue import catalogue_for
from companion.voice.speaker import Speaker
from companion.voice.voices import voice_for

FINISH_TIMEOUT_S = 120.0
"""At the end, how long the sentences still to render may take when nothing is played
aloud (a recording is finished; a voice on the audio out just stops)."""


@contextmanager
def table_voice(settings: Callable[[], VoiceConfig]) -> Iterator[Announcer]:
    """The voice of a table: an Announcer to attach to each game, speaking while
    `settings().on` (asked at every move, so Settings turns it off at once)."""
    speaker = Speaker.for_config(voice_for(settings()), settings)
    try:
        yield Announcer(
            speaker.say,
            enabled=lambda: settings().on,
            translate=lambda sentence: catalogue_for(settings().language).translate(sentence),
        )
    finally:
        if not speaker.plays:
            speaker.wait_until_quiet(FINISH_TIMEOUT_S)
        speaker.close()
