"""What a check found, and how the doctor says it: one line a check, or one JSON object.

result = Result("camera", FAIL, "/dev/video0 did not open.",
                "Is the camera plugged in? `ls /dev/video*`; set [camera] source")
line_of(result)     # 'Camera: FAIL: /dev/video0 did not open. Is the camera plugged in? ...'
exit_code(results)  # 1: something failed
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from companion.errors import UserError

Status = Literal["pass", "fail", "skip"]
PASS: Final[Status] = "pass"
FAIL: Final[Status] = "fail"
SKIP: Final[Status] = "skip"

TITLES: Final = {
    "config": "Configuration",
    "store": "Store",
    "camera": "Camera",
    "reader": "Card reader",
    "buttons": "Buttons",
    "leds": "LEDs and buzzer",
    "voice": "Voice",
    "broker": "Broker",
    "display": "Display page",
}
"""Every check by name, in the order they run, with the name a line starts with."""

NAMES: Final = tuple(TITLES)


@dataclass(frozen=True)
class Result:
    check: str
    status: Status
    found: str
    """What the check found, as a sentence or two."""
    todo: str = ""
    """For a FAIL: what to do about it."""

    @property
    def title(self) -> str:
        return TITLES[self.check]

    def to_dict(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "title": self.title,
            "status": self.status,
            "found": self.found,
            "todo": self.todo,
        }


def passed(check: str, found: str) -> Result:
    return Result(check, PASS, found)


def failed(check: str, found: str, todo: str) -> Result:
    return Result(check, FAIL, found, todo)


def skipped(check: str, why: str) -> Result:
    return Result(check, SKIP, why)


def line_of(result: Result) -> str:
    """'Camera: PASS: ...', with what to do after a failure."""
    text = f"{result.title}: {result.status.upper()}: {result.found}"
    return f"{text} {result.todo}" if result.todo else text


def exit_code(results: Iterable[Result]) -> int:
    """0 when nothing failed, 1 when a check failed."""
    return 1 if any(result.status == FAIL for result in results) else 0


def chosen(only: str | None, skip: str | None) -> tuple[str, ...]:
    """The checks `--only` and `--skip` leave, in their order; a UserError names a check
    there is not."""
    wanted = _names(only, "--only") if only is not None else NAMES
    unwanted = _names(skip, "--skip") if skip is not None else ()
    return tuple(name for name in NAMES if name in wanted and name not in unwanted)


def _names(text: str, option: str) -> Sequence[str]:
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    if not names:
        raise UserError(f"{option} takes check names: {', '.join(NAMES)}")
    unknown = [name for name in names if name not in TITLES]
    if unknown:
        raise UserError(f"{option}: no check named {unknown[0]!r} (the checks: {', '.join(NAMES)})")
    return names
