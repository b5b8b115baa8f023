"""`companion deck enroll`: with a stand-in reader, and end to end through the RDM6300
emulator on a socat pseudo-terminal pair."""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.decks import enroll
from companion.decks.tagmap import load_tag_map
from companion.devices.cardreader.events import CardEvent, CardPresented, CardRemoved

from .helpers import em, write_untagged

Output = pytest.CaptureFixture[str]


def _fake_reader(
    monkeypatch: pytest.MonkeyPatch, events: Callable[[], Iterable[CardEvent]]
) -> list[tuple[str, str]]:
    opened: list[tuple[str, str]] = []

    @contextlib.contextmanager
    def reader_events(port: str, protocol: str) -> Iterator[Iterator[CardEvent]]:
        opened.append((port, protocol))
        yield iter(events())

    monkeypatch.setattr(enroll, "reader_events", reader_events)
    return opened


def _scans(*numbers: int) -> list[CardEvent]:
    events: list[CardEvent] = []
    for number in numbers:
        events += [CardPresented(em(number), 0, "pn532"), CardRemoved(em(number), 0, "pn532")]
    return events


def test_enroll_a_deck(tmp_path: Path, capsys: Output, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = write_untagged(tmp_path)
    opened = _fake_reader(monkeypatch, lambda: _scans(*range(1, 26)))
    code = main(["deck", "enroll", str(deck), "--port", "/dev/ttyX", "--protocol", "pn532"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert opened == [("/dev/ttyX", "pn532")]
    lines = out.splitlines()
    assert lines[0] == (
        f"Enrolling Test Deck: 25 cards to scan, from card 1; tags are saved to "
        f"{tmp_path / 'deck.tags.toml'}"
    )
    assert lines[2:4] == [
        "[1/25] scan card 1: Figure001",
        f"  card 1 (Figure001): tag {em(1)} saved",
    ]
    assert lines[-1] == "done: 25 tags saved; all 25 cards have a tag"
    assert "Fact" not in out and "Clue" not in out
    assert load_tag_map(deck) == {em(n): n for n in range(1, 26)}


def test_interrupted_then_resumed(
    tmp_path: Path, capsys: Output, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = write_untagged(tmp_path)
    argv = ["deck", "enroll", str(deck), "--port", "p", "--protocol", "rdm6300"]

    def two_then_ctrl_c() -> Iterator[CardEvent]:
        yield from _scans(1, 2)
        raise KeyboardInterrupt

    _fake_reader(monkeypatch, two_then_ctrl_c)
    assert main(argv) == 130
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == (
        "stopped: 2 tags saved; 23 of 25 cards have no tag yet "
        "(the first is card 3: Figure003); run again to resume"
    )
    assert load_tag_map(deck) == {em(1): 1, em(2): 2}  # saved card by card

    _fake_reader(monkeypatch, lambda: _scans(3))
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "from card 3" in lines[0]
    assert lines[2] == "[3/25] scan card 3: Figure003"
    assert load_tag_map(deck) == {em(1): 1, em(2): 2, em(3): 3}


def test_from_and_quadrants(
    tmp_path: Path, capsys: Output, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = write_untagged(tmp_path, quadrants=(1, 2))
    _fake_reader(monkeypatch, lambda: _scans(1))
    argv = ["deck", "enroll", str(deck), "--port", "p", "--protocol", "rdm6300"]
    assert main([*argv, "--quadrants", "2", "--from", "49"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith("[") and "scan card" in lines[2]
    number = int(lines[2].split("scan card ")[1].split(":")[0])
    assert number >= 49
    assert load_tag_map(deck) == {em(1): number}


def test_nothing_left_to_enroll(
    tmp_path: Path, capsys: Output, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = write_untagged(tmp_path)
    _fake_reader(monkeypatch, lambda: _scans(*range(1, 26)))
    argv = ["deck", "enroll", str(deck), "--port", "p", "--protocol", "rdm6300"]
    assert main(argv) == 0
    capsys.readouterr()
    opened = _fake_reader(monkeypatch, lambda: [])
    assert main(argv) == 0
    assert opened == []  # no reader needed
    assert "every chosen card already has a tag" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--from", "99"], "companion: error: deck 'test-deck' has no card 99"),
        (["--quadrants", "3"], "companion: error: deck 'test-deck' has no cards in quadrant 3"),
    ],
)
def test_bad_choices(tmp_path: Path, capsys: Output, extra: list[str], message: str) -> None:
    deck = write_untagged(tmp_path)
    code = main(["deck", "enroll", str(deck), "--port", "p", "--protocol", "rdm6300", *extra])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(message) and err.count("\n") == 1


def test_a_port_that_cannot_be_opened(tmp_path: Path, capsys: Output) -> None:
    deck = write_untagged(tmp_path)
    port = tmp_path / "no-such-port"
    code = main(["deck", "enroll", str(deck), "--port", str(port), "--protocol", "rdm6300"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == (
        f"companion: error: cannot open the card reader on {port}: No such file or directory\n"
    )


def test_an_unknown_deck(tmp_path: Path, capsys: Output) -> None:
    code = main(["deck", "enroll", str(tmp_path / "x.toml"), "--port", "p", "--protocol", "pn532"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("companion: error: unknown deck") and err.count("\n") == 1


# ---- end to end: the RDM6300 emulator on a pseudo-terminal pair -----------------------------


def _wait(condition: Callable[[], bool], what: str, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


@pytest.mark.skipif(shutil.which("socat") is None, reason="needs socat (make installs it)")
def test_enroll_through_the_rdm6300_emulator(tmp_path: Path, capsys: Output) -> None:
    from companion.devices.cardreader.emulators import Rdm6300Emulator
    from companion.devices.cardreader.ptypair import PtyPair

    deck = write_untagged(tmp_path)
    with PtyPair() as pair, Rdm6300Emulator(pair.device_path, repeat_s=0.05) as card:
        result: list[int] = []
        argv = ["deck", "enroll", str(deck), "--port", pair.host_path, "--protocol", "rdm6300"]
        worker = threading.Thread(
            target=lambda: result.append(main([*argv, "--from", "23"])), daemon=True
        )
        worker.start()

        def saved(number: int) -> Callable[[], bool]:
            path = tmp_path / "deck.tags.toml"
            return lambda: path.exists() and em(number) in path.read_text()

        card.present(em(23))
        _wait(saved(23), "card 23")
        card.remove()  # taken off: the reader removes it after its silence
        time.sleep(0.45)
        card.present(em(24))
        _wait(saved(24), "card 24")
        # Card 23 laid down again in card 25's turn (a different tag, so at once): refused.
        sent = card.frames_sent
        card.present(em(23))
        _wait(lambda: card.frames_sent >= sent + 3, "card 23's frames")
        time.sleep(0.1)
        card.present(em(25))
        worker.join(timeout=10)
        assert not worker.is_alive(), "the enrollment did not finish"
    out = capsys.readouterr().out.splitlines()
    assert result == [0]
    assert out[2:] == [
        "[23/25] scan card 23: Figure023",
        f"  card 23 (Figure023): tag {em(23)} saved",
        "[24/25] scan card 24: Figure024",
        f"  card 24 (Figure024): tag {em(24)} saved",
        "[25/25] scan card 25: Figure025",
        f"  tag {em(23)} is already card 23 (Figure023); scan card 25",
        f"  card 25 (Figure025): tag {em(25)} saved",
        "done: 3 tags saved, 1 scan refused; 22 of 25 cards have no tag yet "
        "(the first is card 1: Figure001); run again to resume",
    ]
    assert load_tag_map(deck) == {em(23): 23, em(24): 24, em(25): 25}
