"""The voice speaks for real: espeak-ng renders each sentence to a WAV file whose length and
loudness sox measures; a missing or failing voice costs a line in the log, never the game."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from companion.config import VoiceConfig
from companion.voice.speaker import Speaker
from companion.voice.voices import EspeakVoice, PiperVoice, VoiceFailed, voice_for

from .sound import measure

SENTENCE = "Ada claims place 13 and states its facts."


def test_espeak_says_a_sentence_out_loud(tmp_path: Path) -> None:
    EspeakVoice("en").render(SENTENCE, tmp_path / "said.wav", 80)
    sound = measure(tmp_path / "said.wav")
    # About two words a second or faster, and well above the noise floor.
    assert 1.0 < sound.seconds < 8.0
    assert sound.rms > 0.02


def test_the_volume_setting_is_heard(tmp_path: Path) -> None:
    levels = {}
    for volume in (0, 20, 100):
        out = tmp_path / f"{volume}.wav"
        EspeakVoice("en").render(SENTENCE, out, volume)
        levels[volume] = measure(out).rms
    assert levels[0] < 0.001 < levels[20] < levels[100]


def test_a_missing_program_is_a_voice_failure_not_a_crash(tmp_path: Path) -> None:
    with pytest.raises(VoiceFailed, match="not installed"):
        EspeakVoice("en", program="no-such-voice").render(SENTENCE, tmp_path / "x.wav", 50)


def test_a_language_espeak_does_not_speak_falls_back_to_english(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert voice_for(VoiceConfig(language="fr")) == EspeakVoice("fr")
    with caplog.at_level(logging.WARNING):
        assert voice_for(VoiceConfig(language="qqq")) == EspeakVoice("en")
    assert "no voice for 'qqq'" in caplog.text


def test_piper_is_used_only_with_its_model_and_program(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    with caplog.at_level(logging.WARNING):
        voice = voice_for(VoiceConfig(piper_model=str(tmp_path / "missing.onnx")))
    assert voice == EspeakVoice("en")
    assert "no Piper voice model" in caplog.text
    model = tmp_path / "en_GB-alan-low.onnx"
    model.write_bytes(b"not read here")
    monkeypatch.setattr("shutil.which", lambda name: None)
    with caplog.at_level(logging.WARNING):
        assert voice_for(VoiceConfig(piper_model=str(model))) == EspeakVoice("en")
    assert "piper program is not installed" in caplog.text
    monkeypatch.setattr("shutil.which", lambda name: f"/usr/bin/{name}")
    voice = voice_for(VoiceConfig(piper_model=str(model)))
    assert voice == PiperVoice(model) and voice.name == "Piper en_GB-alan-low"


def test_the_speaker_keeps_every_sentence_in_order(tmp_path: Path) -> None:
    speaker = Speaker(EspeakVoice("en"), volume=lambda: 80, keep_dir=tmp_path, play=False)
    try:
        for number in range(1, 7):
            speaker.say(f"Move {number}: Ada to play.")
        assert speaker.wait_until_quiet(60)
    finally:
        speaker.close()
    kept = sorted(tmp_path.glob("*.wav"))
    assert [p.name for p in kept] == [f"{n:04d}.wav" for n in range(1, 7)]
    assert all(measure(p).rms > 0.02 for p in kept)


def test_a_failing_voice_is_told_once_and_the_speaker_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    speaker = Speaker(
        EspeakVoice("en", program="no-such-voice"), volume=lambda: 80, keep_dir=tmp_path, play=False
    )
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            speaker.say(SENTENCE)
        assert speaker.wait_until_quiet(30)
    speaker.close()
    assert caplog.text.count("cannot speak") == 1
    assert list(tmp_path.glob("*.wav")) == []


class Held:
    """A voice that speaks only once let go (`gate`): the table runs ahead of it."""

    name = "held"

    def __init__(self) -> None:
        self.said: list[str] = []
        self.gate = threading.Event()

    def render(self, text: str, out: Path, volume: int) -> None:
        assert self.gate.wait(30)
        self.said.append(text)
        out.write_text(text)


def _say_ahead(voice: Held, count: int, played: Path, keep_dir: Path | None = None) -> None:
    """`count` sentences said while the voice is held, then let go; what is played on the
    audio out lands in `played`, a line each."""
    speaker = Speaker(voice, volume=lambda: 80, keep_dir=keep_dir, play=False)
    speaker._player = ("sh", "-c", f'cat "$1" >> {played}; echo >> {played}', "sh")
    try:
        for number in range(1, count + 1):
            speaker.say(f"Move {number}.")
        voice.gate.set()
        assert speaker.wait_until_quiet(30)
    finally:
        speaker.close()


def test_on_the_audio_out_a_backlog_is_skipped_but_the_latest_is_said(tmp_path: Path) -> None:
    voice = Held()
    played = tmp_path / "played.txt"
    _say_ahead(voice, 20, played)
    heard = [line for line in played.read_text().split("\n") if line]
    # The last sentences are said, in order; the backlog before them is not (but for the
    # first, when the voice had taken it up before the others came).
    assert heard[-4:] == ["Move 17.", "Move 18.", "Move 19.", "Move 20."]
    assert set(heard) - {"Move 1."} == {"Move 17.", "Move 18.", "Move 19.", "Move 20."}
    assert voice.said == heard  # what is not played is not even rendered


def test_a_recording_keeps_every_sentence_even_when_the_voice_falls_behind(
    tmp_path: Path,
) -> None:
    voice = Held()
    played = tmp_path / "played.txt"
    _say_ahead(voice, 12, played, keep_dir=tmp_path / "kept")
    kept = sorted((tmp_path / "kept").glob("*.wav"))
    assert [p.read_text() for p in kept] == [f"Move {n}." for n in range(1, 13)]
    heard = [line for line in played.read_text().split("\n") if line]
    assert heard[-4:] == ["Move 9.", "Move 10.", "Move 11.", "Move 12."] and len(heard) <= 5
