"""Writes a whole event into an event file, picking up wherever the last run was killed.

    python event_writer.py EVENT

Sixty players in one division, six Swiss rounds of MemWars, every result typed in (the
scores made from the pairing's id, so that every run writes the same event); the results of
even rounds are recorded in one batch, as the hub records what it heard. Printed, each line
flushed: "open" once the file is open, then "committed player N", "committed round R",
"committed result ID" after each commit (each result of a batch once the batch is
committed), "committed correction ID" for some results of round 1 corrected once round 2
is in, "committed withdrawal 3" when a player is withdrawn from round 3, and "done".
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.tournament.event_store import EventStore, EventStoreError
from companion.tournament.model import Outcome
from companion.tournament.rounds import next_round

PLAYERS = [f"Player {n:02d}" for n in range(60)]
ROUNDS = 6
WITHDRAWN = "Player 07"
"""Withdrawn after round 2: not paired from round 3 on."""


def outcome(pairing_id: int) -> Outcome:
    scores = (float(pairing_id % 7), float(pairing_id * 3 % 5))
    winners = () if scores[0] == scores[1] else ((0,) if scores[0] > scores[1] else (1,))
    return Outcome(scores, winners)


def main() -> int:
    path = Path(sys.argv[1])
    try:
        store = EventStore.create(path, name="Kill test", boards=())
    except EventStoreError as err:
        if "already exists" not in str(err):
            raise
        store = EventStore.open(path)
    with store:
        print("open", flush=True)
        event = store.event()
        known = {p for d in event.divisions for p in d.players}
        for n, name in enumerate(PLAYERS):
            if name not in known:
                store.add_player(name, "Open")
                print(f"committed player {n}", flush=True)
        if store.event().division("Open").game is None:
            store.set_division("Open", game="memwars", rounds=ROUNDS)
        while True:
            event = store.event()
            waiting = [p.id for p in event.current_pairings() if p.is_open]
            if event.current_round("Open") % 2 == 0:
                with store.batch("cannot record the round's results"):
                    for pairing_id in waiting:
                        store.add_result(pairing_id, outcome(pairing_id), source="hand")
                for pairing_id in waiting:
                    print(f"committed result {pairing_id}", flush=True)
            else:
                for pairing_id in waiting:
                    store.add_result(pairing_id, outcome(pairing_id), source="hand")
                    print(f"committed result {pairing_id}", flush=True)
            event = store.event()
            current = event.current_round("Open")
            if current == 2:
                # Corrections at the desk, and a withdrawal, are changes like the others.
                for pairing in event.pairings_of("Open", 1):
                    result = pairing.result
                    if pairing.id % 5 == 0 and result is not None and not result.corrections:
                        scores = result.outcome.scores or (0.0, 0.0)
                        swapped = Outcome(
                            (scores[1], scores[0]), tuple(1 - w for w in result.outcome.winners)
                        )
                        store.correct(pairing.id, swapped, why="scores swapped on the sheet")
                        print(f"committed correction {pairing.id}", flush=True)
                if event.division("Open").withdrawn_from(WITHDRAWN) is None:
                    store.withdraw(WITHDRAWN)
                    print("committed withdrawal 3", flush=True)
            if current == ROUNDS:
                break
            planned = next_round(store.event(), "Open")
            store.add_round(planned)
            print(f"committed round {planned.round}", flush=True)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
