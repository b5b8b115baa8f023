"""What turns a sentence into speech: a WAV file rendered by espeak-ng (a Debian package,
the voice that always works) or by Piper (a neural voice, when the user has put a model on
the machine). Both are programs run with the text on their command line or input, so a
voice that is missing or fails costs one line in the log, never the game."""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from companion.config import VoiceConfig

log = logging.getLogger(__name__)

RENDER_TIMEOUT_S = 30.0


class VoiceFailed(Exception):
    """A sentence could not be rendered: the program is missing or failed."""


class Voice(Protocol):
    @property
    def name(self) -> str:
        """For the log and Settings: "espeak-ng en", "Piper en_GB-alan"."""
        ...

    def render(self, text: str, out: Path, volume: int) -> None:
        """Writes `text` spoken at `volume` (0..100) to the WAV file `out`."""
        ...


@dataclass(frozen=True)
class EspeakVoice:
    language: str = "en"
    program: str = "espeak-ng"

    @property
    def name(self) -> str:
        return f"espeak-ng {self.language}"

    def render(self, text: str, out: Path, volume: int) -> None:
        # espeak-ng's amplitude runs 0..200, 100 being its normal loudness.
        amplitude = str(round(max(0, min(100, volume)) * 1.5))
        _run([self.program, "-v", self.language, "-a", amplitude, "-w", str(out), "--", text])


@dataclass(frozen=True)
class PiperVoice:
    model: Path
    program: str = "piper"

    @property
    def name(self) -> str:
        return f"Piper {self.model.stem}"

    def render(self, text: str, out: Path, volume: int) -> None:
        _run(
            [
                self.program,
                "--model",
                str(self.model),
                "--output_file",
                str(out),
                "--volume",
                f"{max(0, min(100, volume)) / 100:.2f}",
            ],
            stdin=text,
        )


def voice_for(config: VoiceConfig) -> Voice:
    """Piper when its model and program are both on the machine; espeak-ng otherwise."""
    if config.piper_model:
        model = Path(config.piper_model).expanduser()
        if not model.is_file():
            log.warning("no Piper voice model at %s: speaking with espeak-ng", model)
        elif shutil.which("piper") is None:
            log.warning("the piper program is not installed: speaking with espeak-ng")
        else:
            return PiperVoice(model)
    languages = espeak_languages()
    if languages and config.language not in languages:
        log.warning("espeak-ng has no voice for %r: speaking English", config.language)
        return EspeakVoice("en")
    return EspeakVoice(config.language)


def espeak_languages() -> frozenset[str]:
    """The languages espeak-ng speaks here (empty when it is not installed)."""
    try:
        done = subprocess.run(
            ["espeak-ng", "--voices"], capture_output=True, text=True, timeout=10, check=False
        )
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return frozenset()
    # "Pty Language Age/Gender VoiceName File Other Languages", one voice a line; "en"
    # stands for "en-gb", "en-us"... and may be named only among the other languages.
    languages: set[str] = set()
    for line in done.stdout.splitlines()[1:]:
        parts = line.split()
        if len(parts) > 1:
            languages |= {parts[1], parts[1].split("-")[0]}
        languages |= set(re.findall(r"\(([a-z]{2,3}(?:-[a-z0-9]+)*) \d+\)", line))
    return frozenset(languages)


def _run(command: list[str], stdin: str | None = None) -> None:
    try:
        done = subprocess.run(
            command,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=RENDER_TIMEOUT_S,
            check=False,
        )
    except FileNotFoundError:
        raise VoiceFailed(f"{command[0]} is not installed") from None
    except subprocess.TimeoutExpired:
        raise VoiceFailed(f"{command[0]} took more than {RENDER_TIMEOUT_S:g} s") from None
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise VoiceFailed(f"{command[0]}: {why}")
