"""`companion vision calibrate|read|show`: set the camera up and see what it reads.

    companion vision calibrate --colours red,blue,yellow --source 0
    companion vision calibrate --colours red,blue,yellow photo.jpg
    companion vision calibrate --colours red,blue,yellow --plan plan.toml photo.jpg
    companion vision calibrate --colours red,blue,yellow --anywhere --empty bare.jpg photo.jpg
    companion vision read photo.jpg --calibration cal.json --json
    companion vision show photo.jpg --out annotated.png

OpenCV is imported inside the commands, never when the CLI starts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.config import default_data_dir
from companion.errors import UserError

if TYPE_CHECKING:
    from vision.calibration import Calibration
    from vision.geometry import Board
    from vision.plans import Plan

DEFAULT_NAME = "calibration.json"


def default_calibration_path() -> Path:
    return default_data_dir() / DEFAULT_NAME


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "vision", help="the camera: calibrate it, read the board, see what it sees"
    )
    actions = parser.add_subparsers(dest="vision_action", metavar="ACTION")
    actions.required = True

    calibrate = actions.add_parser(
        "calibrate",
        help="learn the crystals' colours from the camera or from pictures",
        description="Lay the board out empty, then put one crystal of each colour on the "
        "places named (use --show-plan to see them first), on the places a plan file names "
        "(--plan FILE), or anywhere (--anywhere). From a camera (--source) the command "
        "says where and waits; from pictures it reads them. Every colour is checked "
        "against every other and against the bare board before the result is saved.",
    )
    calibrate.add_argument("images", nargs="*", metavar="IMAGE", help="pictures to learn from")
    calibrate.add_argument(
        "--colours",
        required=True,
        metavar="NAME,NAME",
        help="the crystal colours, e.g. red,blue,yellow",
    )
    calibrate.add_argument(
        "--roles",
        default="",
        metavar="ROLE=NAME,...",
        help="what each colour is in the game, e.g. side-1=red,side-2=blue,challenge=yellow "
        "(default: the colours in order are side-1, side-2, ..., the last is challenge)",
    )
    _source_options(calibrate)
    calibrate.add_argument("--out", metavar="FILE", help="where to save (default: data dir)")
    calibrate.add_argument("--picture", metavar="PNG", help="write the annotated view here")
    calibrate.add_argument(
        "--plan",
        nargs="?",
        const="",
        metavar="FILE",
        help='a plan file (TOML) saying which crystals lie where: [places] 17 = ["red"]',
    )
    calibrate.add_argument(
        "--show-plan", action="store_true", help="only say where to put crystals"
    )
    calibrate.add_argument(
        "--anywhere",
        action="store_true",
        help="crystals lie on any places, one a place, at least 2 of each colour: find them",
    )
    calibrate.add_argument(
        "--empty",
        metavar="IMAGE",
        help="with --anywhere: a picture of the same board empty, from the same camera",
    )
    calibrate.add_argument(
        "--wait",
        type=float,
        metavar="SECONDS",
        help="with --source and no terminal: wait this long instead of for Enter",
    )
    calibrate.add_argument("--force", action="store_true", help="save even if checks fail")
    calibrate.set_defaults(run=_calibrate)

    read = actions.add_parser(
        "read",
        help="read pictures of the board: every place, the claim diamonds, hands",
        description="Reads each picture (JPEG, PNG, HEIC; turned upright as the phone "
        "says) and prints what is on the board. The board found in one picture is used for "
        "the next while its markers are still there; --json prints the format documented "
        "in docs/vision.md.",
    )
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--calibration", metavar="FILE", help="default: the saved calibration")
    read.add_argument("--json", action="store_true", help="one JSON document for all pictures")
    read.set_defaults(run=_read)

    show = actions.add_parser(
        "show",
        help="the camera's view with what was read drawn over it",
        description="Annotates a picture (or the camera's current frame) with the places "
        "outlined, the crystals read, confidences, found markers and hands.",
    )
    show.add_argument("image", nargs="?", metavar="IMAGE")
    _source_options(show)
    show.add_argument("--calibration", metavar="FILE", help="default: the saved calibration")
    show.add_argument("--out", metavar="PNG", help="write the picture here")
    show.add_argument("--window", action="store_true", help="show it live in a window")
    show.set_defaults(run=_show)


def _source_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--source",
        metavar="SPEC",
        help="a camera (0, /dev/video2, picamera), a video file, a folder or 'synthetic'",
    )
    parser.add_argument("--board", metavar="FILE", help="a board file (default: MemWars)")


def parse_roles(text: str, colours: list[str]) -> dict[str, str]:
    if not text:
        roles = {f"side-{i}": name for i, name in enumerate(colours[:-1], start=1)}
        if len(colours) > 1:
            roles["challenge"] = colours[-1]
        else:
            roles["side-1"] = colours[0]
        return roles
    roles = {}
    for item in text.split(","):
        role, _, name = item.partition("=")
        role, name = role.strip(), name.strip()
        if not role or not name:
            raise UserError(f"--roles: {item!r} is not ROLE=COLOUR")
        if name not in colours:
            raise UserError(f"--roles: {name!r} is not one of the colours {', '.join(colours)}")
        roles[role] = name
    return roles


def _calibrate(args: argparse.Namespace) -> int:
    from vision.calibrate import calibrate
    from vision.crystal_groups import anywhere_instructions
    from vision.geometry import load_board
    from vision.plans import plan_instructions

    board = load_board(args.board)
    colours = [c.strip() for c in args.colours.split(",") if c.strip()]
    plan = _plan(args, board, colours)
    roles = parse_roles(args.roles, colours)
    if plan is None:
        instructions = anywhere_instructions(colours)
    else:
        instructions = plan_instructions(board, plan)
    if args.show_plan:
        print(f"Lay the board out empty, then put {instructions}.")
        return 0
    if args.images and args.source:
        raise UserError("give pictures or --source, not both")
    if args.images:
        frames = [_load_image(Path(p)) for p in args.images]
    elif args.source:
        frames = _frames_after_setup(args, instructions)
    else:
        raise UserError("give pictures of the board, or --source for a camera")
    if plan is None:
        plan = _found_plan(board, frames, colours, args.empty)
    result = calibrate(board, frames, plan, roles=roles, board_file=args.board or "")
    out = Path(args.out) if args.out else default_calibration_path()
    picture = Path(args.picture) if args.picture else out.with_name(out.stem + "-view.png")
    if any(picture.resolve() == Path(name).resolve() for name in _pictures(args)):
        raise UserError(
            "the annotated view would overwrite a picture being read", where=str(picture)
        )
    if result.calibration.colours:
        _write_annotated(frames[-1], result.calibration, picture)
    for problem in result.problems:
        print(f"problem: {problem}", file=sys.stderr)
    if result.problems and not args.force:
        print(
            f"Not saved: fix the problems above and calibrate again (the annotated view is in "
            f"{picture}).",
            file=sys.stderr,
        )
        return 2
    out.parent.mkdir(parents=True, exist_ok=True)
    result.calibration.save(out)
    names = ", ".join(model.name for model in result.calibration.colours)
    print(
        f"Calibrated {names} from {len(frames)} frame{'s' * (len(frames) != 1)}; the board's "
        f"North is at the {result.calibration.north} of the picture. Saved to {out}; "
        f"annotated view in {picture}."
    )
    for notice in result.notices:
        print(f"note: {notice}", file=sys.stderr)
    return 0


def _plan(args: argparse.Namespace, board: Board, colours: list[str]) -> Plan | None:
    """The plan the command line asks for; None when the crystals are to be found."""
    from vision.crystal_groups import check_findable
    from vision.plans import load_plan

    if args.plan == "":
        raise UserError(
            "--plan takes a plan file (--plan FILE); to see where the crystals go, use --show-plan"
        )
    if args.plan is not None and args.anywhere:
        raise UserError("give --plan FILE or --anywhere, not both")
    if args.empty is not None and not args.anywhere:
        raise UserError("--empty goes with --anywhere: the crystals are found against it")
    if args.anywhere:
        check_findable(board, colours)
        return None
    if args.plan is not None:
        return load_plan(Path(args.plan), board, colours)
    from vision.plans import calibration_plan_for

    return calibration_plan_for(board, colours)


def _found_plan(board: Board, frames: list[Any], colours: list[str], empty: str | None) -> Plan:
    """The crystals found on the board (against its empty picture, when given), said."""
    from vision.anywhere import find_plan
    from vision.plans import found_words

    reference = _load_image(Path(empty)) if empty is not None else None
    plan = find_plan(board, frames, colours, reference)
    print(f"Found {found_words(plan)}.")
    return plan


def _pictures(args: argparse.Namespace) -> list[str]:
    return [*args.images, *([args.empty] if args.empty else [])]


def _frames_after_setup(args: argparse.Namespace, instructions: str) -> list[Any]:
    from vision.sources import open_source

    print(f"Lay the board out empty, then put {instructions}.")
    with open_source(args.source) as source:
        if args.wait is not None:
            time.sleep(max(0.0, args.wait))
        elif sys.stdin.isatty():
            input("Press Enter when the crystals are in place... ")
        else:
            raise UserError("no terminal to wait on: give --wait SECONDS")
        _set_exposure(source, args.board)
        frames = []
        for _ in range(8):
            frame = source.read()
            if frame is None:
                break
            frames.append(frame.image)
    if not frames:
        raise UserError(f"no frame came from {args.source}")
    return frames[-3:]


def _set_exposure(source: Any, board_file: str | None) -> None:
    """The camera's exposure set from the board's paper and held, with its white balance
    (vision/exposure.py); a camera that cannot set its exposure is left as it is."""
    from vision.exposure import meter_exposure
    from vision.geometry import load_board
    from vision.sources.controls import controls_of

    def grab() -> Any:
        frame = source.read()
        return None if frame is None else frame.image

    metering = meter_exposure(controls_of(source), grab, load_board(board_file))
    if metering is not None:
        print(metering.line)


def _load_image(path: Path) -> Any:
    """A photo, upright and at the reader's working size, decoded once (vision/photo.py)."""
    from vision.photo import load_photo

    return load_photo(path)


def _calibration(path: str | None) -> Calibration:
    from vision.calibration_file import load_calibration

    file = Path(path) if path else default_calibration_path()
    if not path and not file.is_file():
        raise UserError(
            f"no saved calibration ({file}): run `companion vision calibrate` or give "
            "--calibration FILE"
        )
    return load_calibration(file)


def _read(args: argparse.Namespace) -> int:
    from vision.reader import BoardReader
    from vision.summary import describe

    calibration = _calibration(args.calibration)
    reader = BoardReader(calibration)
    results: list[dict[str, Any]] = []
    failed = False
    for name in args.images:
        try:
            image = _load_image(Path(name))
        except UserError as error:
            print(f"companion: {error}", file=sys.stderr)
            failed = True
            continue
        reader.new_picture()
        reading = reader.read(image)
        if args.json:
            results.append({"image": name, **reading.to_dict()})
        else:
            print(describe(name, reading))
    if args.json:
        print(
            json.dumps(
                {"format": "companion-vision-reading", "version": 1, "images": results}, indent=2
            )
        )
    return 2 if failed else 0


def _show(args: argparse.Namespace) -> int:
    import cv2

    from vision.reader import BoardReader

    calibration = _calibration(args.calibration)
    reader = BoardReader(calibration)
    if not args.out and not args.window:
        raise UserError("say where the picture goes: --out PNG, or --window")
    if args.image:
        picture = _annotated(reader, _load_image(Path(args.image)))
        _deliver(picture, args)
        return 0
    if not args.source:
        raise UserError("give a picture, or --source for a camera")
    from vision.sources import open_source

    with open_source(args.source) as source:
        while True:
            frame = source.read()
            if frame is None:
                return 0
            picture = _annotated(reader, frame.image)
            if not args.window:
                _deliver(picture, args)
                return 0
            cv2.imshow("companion vision", picture)
            if cv2.waitKey(1) & 0xFF in (ord("q"), 27):
                if args.out:
                    _deliver(picture, args)
                return 0


def _annotated(reader: Any, image: Any) -> Any:
    from vision.annotate import annotate_read

    return annotate_read(reader, image)[0]


def _deliver(picture: Any, args: argparse.Namespace) -> None:
    import cv2

    if args.out and not cv2.imwrite(str(args.out), picture):
        raise UserError("cannot write the picture", where=str(args.out))
    if args.window and args.image:
        cv2.imshow("companion vision", picture)
        cv2.waitKey(0)


def _write_annotated(image: Any, calibration: Calibration, path: Path) -> None:
    import cv2

    from vision.reader import BoardReader

    reader = BoardReader(calibration)
    picture = _annotated(reader, image)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), picture)
