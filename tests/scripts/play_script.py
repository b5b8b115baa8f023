"""Plays a scripted game into a store, picking up wherever the last run was killed.

    python play_script.py STORE SCRIPT [--import MODULE] [--stop-after N]

SCRIPT is JSON: {"game": ..., "setup": {...}, "deck": {...}, "actions": [action dicts]}.
Game 1 of STORE is started if absent, else resumed; the actions from `referee.seq` onward
are submitted. Printed, each line flushed: "resumed N" once the game is rebuilt (N is the
last committed seq), "committed N" after each commit, and "over" when the game is over.
MODULE is imported first (to register a test engine). With --stop-after, at most N actions
are submitted before a clean exit (the kill test uses it to pace the game across its kills).

Kept to the imports it needs: the kill test starts it hundreds of times.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

# The repository root, so that --import can name a test module (tests.support...).
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.session import Referee
from companion.store import Store

GAME_ID = 1


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("store")
    parser.add_argument("script")
    parser.add_argument("--import", dest="modules", action="append", default=[])
    parser.add_argument("--stop-after", type=int, default=None)
    args = parser.parse_args()
    for module in args.modules:
        importlib.import_module(module)
    script = json.loads(Path(args.script).read_text(encoding="utf-8"))
    out = sys.stdout
    with Store.open(args.store) as store:
        if any(row.id == GAME_ID for row in store.games()):
            referee = Referee.resume(store, GAME_ID)
        else:
            referee = Referee.start(store, script["game"], script["setup"], script.get("deck", {}))
        if referee.game_id != GAME_ID or store.header(GAME_ID).setup != script["setup"]:
            print(f"store holds another game than the script: {referee.game_id}", file=sys.stderr)
            return 1
        out.write(f"resumed {referee.seq}\n")
        out.flush()
        engine = referee.engine
        for data in script["actions"][referee.seq :][: args.stop_after]:
            referee.submit(engine.action_from_dict(data))
            out.write(f"committed {referee.seq}\n")
            out.flush()
        if referee.is_over:
            out.write("over\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
