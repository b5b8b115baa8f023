"""Speaks sentences one after another on a thread of its own, so that the referee never
waits for a voice: each is rendered to a WAV file and played on the audio out (aplay, as on
the Pi), and kept when the configuration says where.

A table that moves faster than the voice speaks does not build a backlog on the audio out:
a sentence with more than a few others waiting behind it is not played, as a referee skips
what is no longer news. It is still kept when a recording is asked for (`keep_dir`)."""

from __future__ import annotations

import itertools
import logging
import queue
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from companion.config import VoiceConfig
from companion.voice.voices import Voice, VoiceFailed

log = logging.getLogger(__name__)

WAITING = 4
"""Sentences that may wait to be spoken; older ones are dropped."""
PLAYERS = (("aplay", "-q"), ("paplay",), ("pw-play",))
"""Programs that play a WAV file on the audio out, the first found used."""


class Speaker:
    def __init__(
        self,
        voice: Voice,
        *,
        volume: Callable[[], int],
        keep_dir: Path | None = None,
        play: bool = True,
    ) -> None:
        """`volume` is asked at each sentence (Settings may change it); with `keep_dir`,
        every sentence is kept there as NNNN.wav; `play` False renders without playing."""
        self.voice = voice
        self._volume = volume
        self.keep_dir = keep_dir
        self._player = _player() if play else None
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._count = itertools.count(1)
        self._told: set[str] = set()
        self.spoken = 0
        """Sentences rendered so far."""
        self._pending = 0
        """Sentences said and not yet spoken or dropped."""
        self._quiet = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    @classmethod
    def for_config(cls, voice: Voice, config: Callable[[], VoiceConfig]) -> Speaker:
        """A speaker that follows the configuration (`config` is asked each time)."""
        keep = config().keep_dir
        return cls(
            voice,
            volume=lambda: config().volume,
            keep_dir=Path(keep).expanduser() if keep else None,
        )

    @property
    def plays(self) -> bool:
        """The sentences are played aloud (an audio player was found)."""
        return self._player is not None

    def say(self, text: str) -> None:
        """Queues `text`; returns at once."""
        text = " ".join(text.split())
        if not text:
            return
        with self._quiet:
            self._pending += 1
        self._queue.put(text)

    def wait_until_quiet(self, timeout: float) -> bool:
        """True once everything said so far has been spoken (for tests and shutdown)."""
        with self._quiet:
            return self._quiet.wait_for(lambda: self._pending == 0, timeout)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            text = self._queue.get()
            if text is None:
                return
            try:
                self._speak(text)
            except Exception:  # a voice must never take the game down
                log.warning("the voice failed", exc_info=True)
            with self._quiet:
                self._pending -= 1
                self._quiet.notify_all()

    def _speak(self, text: str) -> None:
        number = next(self._count)
        stale = self._player is not None and self._queue.qsize() >= WAITING
        if stale and self.keep_dir is None:
            return  # no longer news, and no recording wants it
        with tempfile.TemporaryDirectory(prefix="companion-voice-") as scratch:
            wav = Path(scratch) / "say.wav"
            try:
                self.voice.render(text, wav, self._volume())
            except VoiceFailed as err:
                self._tell_once(str(err))
                return
            self.spoken += 1
            if self.keep_dir is not None:
                self.keep_dir.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(wav, self.keep_dir / f"{number:04d}.wav")
            if self._player is not None and not stale:
                done = subprocess.run(
                    [*self._player, str(wav)], capture_output=True, text=True, check=False
                )
                if done.returncode != 0:
                    why = (done.stderr.strip().splitlines() or ["no audio out"])[-1]
                    self._tell_once(f"{self._player[0]} could not play the voice: {why}")

    def _tell_once(self, why: str) -> None:
        """Each reason a voice fails is logged once, not at every sentence."""
        if why not in self._told:
            self._told.add(why)
            log.warning("the companion cannot speak: %s", why)


def _player() -> tuple[str, ...] | None:
    for command in PLAYERS:
        if shutil.which(command[0]):
            return command
    return None
