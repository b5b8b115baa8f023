"""`companion doctor`: the check a user runs on their Pi after installing.

    companion doctor                    # every check, prompting for each button
    companion doctor --only camera,reader
    companion doctor --simulate --json  # every device's simulated twin; one JSON object a check

Each check prints one line, PASS, FAIL with what to do, or SKIP; the exit code is 0 when
nothing failed, 1 when a check failed, 2 for bad input. docs/pi.md describes the checks.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.errors import UserError

DEFAULT_TIMEOUT_S = 30.0


def register(commands: Any) -> None:
    from companion.doctor.report import NAMES

    parser: argparse.ArgumentParser = commands.add_parser(
        "doctor",
        help="check the table after installing: camera, reader, buttons, LEDs, broker, page",
        description="Try every part of the table the way a game uses it and say, a line "
        "each, PASS, FAIL with what to do, or SKIP. The buttons are pressed once each when "
        f"asked; the LEDs and the buzzer are confirmed with a button. Checks: {', '.join(NAMES)}. "
        "See docs/pi.md.",
    )
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="every device's simulated twin (virtual camera, emulated reader, mock pins, "
        "embedded broker): the doctor on any machine",
    )
    parser.add_argument("--only", metavar="NAME,...", help="run only these checks")
    parser.add_argument("--skip", metavar="NAME,...", help="leave these checks out")
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        metavar="S",
        help="how long to wait for each button, card or confirmation "
        f"(default: {DEFAULT_TIMEOUT_S:g} s)",
    )
    parser.add_argument(
        "--yes",
        action="store_true",
        help="drive the LEDs and the buzzer without asking for a button to confirm them",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object a check, a line each")
    parser.set_defaults(run=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    from companion.doctor.checks import Doctor, check_config, examine
    from companion.doctor.report import chosen, exit_code, line_of

    if not args.timeout > 0:
        raise UserError(f"--timeout must be more than 0, got {args.timeout}")
    names = chosen(args.only, args.skip)
    # Prompts go beside the results, or out of the way of the JSON on standard output.
    prompts = sys.stderr if args.json else sys.stdout

    def say(text: str) -> None:
        print(text, file=prompts, flush=True)

    config_result, config = check_config(Path(args.config) if args.config else None)
    results = []
    with _devices(config, args.simulate) as devices:
        doctor = (
            None
            if config is None or devices is None
            else Doctor(config, devices, args.timeout, args.yes, say)
        )
        for result in examine(names, config_result, doctor):
            results.append(result)
            if args.json:
                print(json.dumps(result.to_dict()), flush=True)
            else:
                print(line_of(result), flush=True)
    return exit_code(results)


@contextmanager
def _devices(config: Any, simulate: bool) -> Iterator[Any]:
    from companion.doctor.devices import real_devices
    from companion.doctor.twins import simulated_devices

    if config is None:
        yield None
    elif simulate:
        with simulated_devices(config) as devices:
            yield devices
    else:
        yield real_devices(config)
