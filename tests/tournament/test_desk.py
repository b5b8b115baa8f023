"""Withdrawals and corrected results at the desk: a withdrawn player is never paired and
their results stand; a correction keeps the result as recorded and is what the standings,
ratings, exports and payloads use; refusals are one line with exit code 2."""

from __future__ import annotations

import csv
import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import UserError
from companion.publish.wire import validate
from companion.tournament.event_store import EventStore
from companion.tournament.messages import pairings_payload, standings_payload
from companion.tournament.model import Outcome
from companion.tournament.ratings import replay
from companion.tournament.rounds import next_round, planned_rounds
from companion.tournament.standings import standings
from tests.tournament.commands import refused, run

HASH = "9f2c6d0e4b8a71f35c2e9d1a0b7c4e6f8a3d5b2c1e0f9a8b7c6d5e4f3a2b1c0d"


def make(path: Path, names: tuple[str, ...], **division: object) -> None:
    with EventStore.create(path, name="Club night") as store:
        for name in names:
            store.add_player(name, "Open")
        store.set_division("Open", game="memwars", **division)  # type: ignore[arg-type]


def pair(path: Path) -> None:
    with EventStore.open(path) as store:
        store.add_round(next_round(store.event(), "Open"))


def seated(path: Path, round_number: int) -> list[tuple[str, ...]]:
    with EventStore.open(path) as store:
        return [p.seats for p in store.event().pairings_of("Open", round_number)]


def results_csv(path: Path) -> list[dict[str, str]]:
    results_text = path.read_text().split("\n\n")[1]
    return list(csv.DictReader(results_text.splitlines()))


# -- withdrawals ---------------------------------------------------------------------------


def test_a_withdrawn_player_is_not_paired_and_their_results_stand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = tmp_path / "event.sqlite3"
    make(event, ("Ann", "Bo", "Cy", "Di", "Ed"), rounds=4)
    e = str(event)
    run(capsys, "pair", e)  # Ann v Cy, Bo v Di, Ed a bye
    run(capsys, "result", e, "table-1", "30", "20")
    run(capsys, "result", e, "table-2", "10", "25")
    out = run(capsys, "withdraw", e, "di")
    assert out.strip() == (
        "Di withdraws from Open: not paired from round 2 on; the results so far stand"
    )
    # Four left: no bye.
    out = run(capsys, "pair", e)
    assert "Di" not in out and "bye" not in out
    assert sorted(p for t in seated(event, 2) for p in t) == ["Ann", "Bo", "Cy", "Ed"]

    # Di's win counts for Di, and in Bo's tie-breaks; Di is marked withdrawn.
    payload = json.loads(run(capsys, "standings", e, "--json", "--division", "Open"))
    validate("standings", payload)
    rows = {row["name"]: row for row in payload["standings"]}
    assert rows["Di"]["points"] == 1 and rows["Di"]["withdrawn"] == 2
    assert rows["Bo"]["buchholz"] == 1 and rows["Ann"]["withdrawn"] is None
    lines = run(capsys, "standings", e).splitlines()
    assert next(line for line in lines if "withdrawn" in line).split()[1] == "Di"
    assert sum("withdrawn from round 2" in line for line in lines) == 1

    run(capsys, "export", e, "--csv", str(tmp_path / "e.csv"), "--pdf", str(tmp_path / "e.pdf"))
    standings_text = (tmp_path / "e.csv").read_text().split("\n\n")[0]
    marked = {r["name"]: r["withdrawn"] for r in csv.DictReader(standings_text.splitlines())}
    assert marked == {"Ann": "", "Bo": "", "Cy": "", "Di": "2", "Ed": ""}

    refused(capsys, "Di has already withdrawn (from round 2)", "withdraw", e, "Di")
    refused(capsys, "no player called Zed", "withdraw", e, "Zed")
    refused(capsys, "no player called Zed", "reinstate", e, "Zed")
    refused(capsys, "Ann has not withdrawn", "reinstate", e, "Ann")
    refused(capsys, "Ann plays in Open, not Juniors", "withdraw", e, "Ann", "--division", "Juniors")
    refused(
        capsys,
        "round 2 of Open is already paired: withdraw Ann from round 3 or later",
        "withdraw",
        e,
        "Ann",
        "--from-round",
        "2",
    )
    refused(capsys, "Open plays 4 rounds, not 5", "withdraw", e, "Ann", "--from-round", "5")

    # Back for the rounds not yet paired: five again, so a bye.
    out = run(capsys, "reinstate", e, "Di")
    assert out.strip() == "Di is back in Open: paired again from round 3"
    for board in ("table-1", "table-2"):
        run(capsys, "result", e, board, "--draw")
    out = run(capsys, "pair", e)
    assert "bye: " in out
    assert sorted(p for t in seated(event, 3) for p in t) == ["Ann", "Bo", "Cy", "Di", "Ed"]
    # Withdrawn again, and reinstated: each one a row of its own in the file.
    run(capsys, "withdraw", e, "Di")
    run(capsys, "reinstate", e, "Di")
    conn = sqlite3.connect(event)
    assert conn.execute("SELECT from_round FROM withdrawals").fetchall() == [(2,), (4,)]
    with pytest.raises(sqlite3.IntegrityError, match="never changed"):
        conn.execute("DELETE FROM reinstatements")
    conn.close()


def test_a_withdrawal_from_a_later_round(tmp_path: Path) -> None:
    event = tmp_path / "event.sqlite3"
    make(event, ("Ann", "Bo", "Cy", "Di"))
    pair(event)
    with EventStore.open(event) as store:
        assert store.withdraw("Bo", from_round=3) == ("Bo", "Open", 3)
        for p in store.event().pairings:
            store.add_result(p.id, Outcome((2.0, 1.0), (0,)), source="hand")
    pair(event)
    assert "Bo" in {p for t in seated(event, 2) for p in t}
    with EventStore.open(event) as store:
        for p in store.event().pairings_of("Open", 2):
            store.add_result(p.id, Outcome((2.0, 1.0), (0,)), source="hand")
    pair(event)
    round_3 = seated(event, 3)
    assert "Bo" not in {p for t in round_3 for p in t}
    assert [t for t in round_3 if len(t) == 1], "three left: one has a bye"
    # Reinstated before round 4: back from round 4.
    with EventStore.open(event) as store:
        assert store.reinstate("BO") == ("Bo", "Open", 4)


def test_a_round_robin_keeps_its_schedule_and_the_withdrawn_players_opponent_has_a_bye(
    tmp_path: Path,
) -> None:
    event = tmp_path / "event.sqlite3"
    names = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
    make(event, names, system="round-robin")
    with tempfile.TemporaryDirectory() as other:
        # The same round robin, nobody withdrawn: the schedule to keep.
        whole = Path(other) / "whole.sqlite3"
        make(whole, names, system="round-robin")
        for number in range(1, 6):
            for path in (event, whole):
                if number == 3 and path == event:
                    with EventStore.open(path) as store:
                        store.withdraw("Cy")
                pair(path)
                with EventStore.open(path) as store:
                    for p in store.event().pairings_of("Open", number):
                        if not p.is_bye:
                            store.add_result(p.id, Outcome(None, (0,)), source="hand")
            kept = seated(whole, number)
            got = seated(event, number)
            if number < 3:
                assert got == kept
            else:
                assert all("Cy" not in t for t in got)
                opponent = next(p for t in kept if "Cy" in t for p in t if p != "Cy")
                assert (opponent,) in got
                assert [t for t in got if len(t) == 2] == [t for t in kept if "Cy" not in t]


def test_a_division_too_small_once_withdrawn_says_so(tmp_path: Path) -> None:
    event = tmp_path / "event.sqlite3"
    make(event, ("Ann", "Bo"))
    with EventStore.open(event) as store:
        store.withdraw("Bo")
        with pytest.raises(UserError, match="1 player\\(s\\) to pair \\(1 withdrawn\\)"):
            next_round(store.event(), "Open")


# -- corrections ---------------------------------------------------------------------------


def test_a_correction_changes_standings_ratings_and_exports_and_keeps_the_result_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = tmp_path / "event.sqlite3"
    make(event, ("Ann", "Bo", "Cy", "Di"), rounds=3)
    e = str(event)
    run(capsys, "pair", e)  # Ann v Cy on table-1, Bo v Di on table-2
    with EventStore.open(event) as store:
        first = store.event().pairings[0]
        store.add_result(first.id, Outcome((30.0, 20.0), (0,)), source="table", record_hash=HASH)
    run(capsys, "result", e, "table-2", "25", "10")
    before = json.loads(run(capsys, "standings", e, "--json", "--division", "Open"))
    assert [r["name"] for r in before["standings"]][:2] == ["Ann", "Bo"]

    refused(capsys, "say why the result is corrected: --why TEXT", "correct", e, "1", "table-1")
    refused(capsys, "say why", "correct", e, "1", "table-1", "20", "30", "--why", " ")
    refused(capsys, "no game on table-9 in round 1", "correct", e, "1", "table-9", "--why", "x")
    refused(capsys, "no game on table-1 in round 2", "correct", e, "2", "table-1", "--why", "x")
    refused(
        capsys,
        "already has that result",
        "correct",
        e,
        "1",
        "table-1",
        "30",
        "20",
        "--why",
        "nothing changes",
    )
    out = run(capsys, "correct", e, "1", "table-1", "20", "30", "--why", "scores swapped")
    assert out.splitlines() == [
        "table-1, round 1 of Open: Ann vs Cy; now 20-30, won by Cy (was 30-20, won by Ann)",
        f"The desk overrode the table's result; its record {HASH[:12]}... stays in the event",
    ]
    after = json.loads(run(capsys, "standings", e, "--json", "--division", "Open"))
    rows = {r["name"]: r for r in after["standings"]}
    assert [r["name"] for r in after["standings"]][:2] == ["Cy", "Bo"]
    assert rows["Cy"]["points"] == 1 and rows["Ann"]["points"] == 0
    assert rows["Cy"]["rating"]["mu"] > 25 > rows["Ann"]["rating"]["mu"]

    # A second correction supersedes the first; everything is kept in the file.
    run(capsys, "correct", e, "1", "table-1", "25", "25", "--draw", "--why", "a draw after all")
    with EventStore.open(event) as store:
        result = store.event().pairings[0].result
        assert result is not None
        assert result.as_recorded == Outcome((30.0, 20.0), (0,))
        assert [c.why for c in result.corrections] == ["scores swapped", "a draw after all"]
        assert result.outcome == Outcome((25.0, 25.0), ())
        assert result.record_hash == HASH and result.source == "table"
        payload = pairings_payload(store.event(), "Open", "2026-03-14T16:05:40Z")
    validate("pairings", payload)
    table = payload["tables"][0]["result"]
    assert table["hash"] == HASH and table["scores"] == [25.0, 25.0] and table["winners"] == []
    assert table["corrected"]["why"] == "a draw after all"
    assert table["corrected"]["recorded"] == {"scores": [30.0, 20.0], "winners": [0]}
    assert payload["tables"][1]["result"]["corrected"] is None
    conn = sqlite3.connect(event)
    assert conn.execute("SELECT scores, winners, hash FROM results ORDER BY id").fetchall() == [
        ("[30.0, 20.0]", "[0]", HASH),
        ("[25.0, 10.0]", "[0]", None),
    ]
    with pytest.raises(sqlite3.IntegrityError, match="corrections are never changed"):
        conn.execute("UPDATE corrections SET why = 'nothing'")
    conn.close()

    run(capsys, "export", e, "--csv", str(tmp_path / "e.csv"), "--pdf", str(tmp_path / "e.pdf"))
    assert (tmp_path / "e.pdf").read_bytes().startswith(b"%PDF")
    corrected, plain = results_csv(tmp_path / "e.csv")
    assert (corrected["scores"], corrected["winners"], corrected["source"]) == (
        "25 25",
        "",
        "table",
    )
    assert corrected["record_hash"] == HASH and corrected["why"] == "a draw after all"
    assert corrected["note"] == (
        "the desk overrode the table's result (2 corrections): the table reported 30 20, "
        "won by Ann (record hash kept)"
    )
    assert plain["corrected"] == plain["why"] == plain["note"] == ""

    # A desk result corrected says so too; a game still waiting cannot be corrected.
    run(capsys, "correct", e, "1", "table-2", "--winner", "Di", "--why", "Bo conceded")
    run(capsys, "export", e, "--csv", str(tmp_path / "e.csv"))
    assert results_csv(tmp_path / "e.csv")[1]["note"] == (
        "corrected at the desk: first recorded 25 10, won by Bo"
    )
    run(capsys, "pair", e)
    refused(
        capsys,
        "the game on table-1, round 2 of Open has no result yet",
        "correct",
        e,
        "2",
        "table-1",
        "1",
        "0",
        "--why",
        "early",
    )


def test_swiss_pairs_on_the_corrected_results(tmp_path: Path) -> None:
    event = tmp_path / "event.sqlite3"
    make(event, ("Ann", "Bo", "Cy", "Di"))
    pair(event)
    with EventStore.open(event) as store:
        ann_cy, bo_di = store.event().pairings
        assert (ann_cy.seats, bo_di.seats) == (("Ann", "Cy"), ("Bo", "Di"))
        store.add_result(ann_cy.id, Outcome((3.0, 1.0), (0,)), source="hand")
        store.add_result(bo_di.id, Outcome((3.0, 1.0), (0,)), source="hand")
        assert {p for t in next_round(store.event(), "Open").tables[:1] for p in t[1]} == {
            "Ann",
            "Bo",
        }
        store.correct(ann_cy.id, Outcome((1.0, 3.0), (1,)), why="the sheet was misread")
    pair(event)
    top, bottom = seated(event, 2)
    assert set(top) == {"Bo", "Cy"} and set(bottom) == {"Ann", "Di"}


def test_a_correction_in_another_division_on_the_same_board_asks_which(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = tmp_path / "event.sqlite3"
    make(event, ("Ann", "Bo"))
    with EventStore.open(event) as store:
        for name in ("Cy", "Di"):
            store.add_player(name, "Juniors")
        store.set_division("Juniors", game="memwars")
        for division in ("Open", "Juniors"):
            (pairing,) = store.add_round(next_round(store.event(), division))
            store.add_result(pairing, Outcome((2.0, 1.0), (0,)), source="hand")
    e = str(event)
    refused(
        capsys,
        "table-1 had a game in round 1 of Open and of Juniors: say which with --division D",
        "correct",
        e,
        "1",
        "table-1",
        "1",
        "2",
        "--why",
        "swapped",
    )
    out = run(capsys, "correct", e, "1", "table-1", "1", "2", "--why", "x", "--division", "juniors")
    assert out.startswith("table-1, round 1 of Juniors: Cy vs Di; now 1-2, won by Di")


# -- any results and corrections: the standings of the final outcomes -------------------------

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")
outcomes = st.tuples(st.integers(0, 3), st.integers(0, 3)).map(
    lambda s: Outcome(
        (float(s[0]), float(s[1])), () if s[0] == s[1] else ((0,) if s[0] > s[1] else (1,))
    )
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 7),
    rounds=st.lists(
        st.lists(st.tuples(outcomes, st.lists(outcomes, max_size=3)), min_size=4, max_size=4),
        min_size=1,
        max_size=3,
    ),
)
def test_standings_and_ratings_are_those_of_the_final_outcomes(
    players: int, rounds: list[list[tuple[Outcome, list[Outcome]]]]
) -> None:
    """Whatever results are recorded and however often they are corrected, the standings,
    ratings and next pairing are those of an event where the final outcomes were recorded
    at once."""
    with tempfile.TemporaryDirectory() as folder:
        corrected, direct = Path(folder) / "corrected.sqlite3", Path(folder) / "direct.sqlite3"
        for path in (corrected, direct):
            make(path, NAMES[:players])
        for games in rounds:
            for path in (corrected, direct):
                pair(path)
            with EventStore.open(corrected) as one, EventStore.open(direct) as other:
                waiting = [p for p in one.event().current_pairings() if p.is_open]
                twins = [p for p in other.event().current_pairings() if p.is_open]
                assert [p.seats for p in waiting] == [p.seats for p in twins]
                for pairing, twin, (first, later) in zip(waiting, twins, games, strict=False):
                    one.add_result(pairing.id, first, source="hand")
                    final = first
                    for n, outcome in enumerate(later):
                        if outcome != final:
                            one.correct(pairing.id, outcome, why=f"correction {n}")
                            final = outcome
                    other.add_result(twin.id, final, source="hand")
        with EventStore.open(corrected) as one, EventStore.open(direct) as other:
            a, b = one.event(), other.event()
        division = a.division("Open")
        assert standings(division.players, a.pairings_of("Open")) == standings(
            division.players, b.pairings_of("Open")
        )
        assert replay(a.results("Open"), division.players) == replay(
            b.results("Open"), division.players
        )
        now = "2026-03-14T16:05:40Z"
        assert standings_payload(a, "Open", now) == standings_payload(b, "Open", now)
        if all(p.result or p.is_bye for p in a.current_pairings()):
            assert next_round(a, "Open") == next_round(b, "Open")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 7),
    system=st.sampled_from(["swiss", "round-robin", "pods"]),
    changes=st.lists(st.lists(st.integers(0, 6), max_size=2), min_size=1, max_size=5),
)
def test_every_round_pairs_exactly_the_players_not_withdrawn(
    players: int, system: str, changes: list[list[int]]
) -> None:
    """Before each round some players withdraw, or come back if withdrawn: the round seats
    exactly the others, once each; a round robin still has no rematch."""
    names = NAMES[:players]
    chosen: dict[str, dict[str, Any]] = {
        "swiss": {},
        "round-robin": {"system": "round-robin"},
        "pods": {"sides": 3},
    }
    settings_of = chosen[system]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "event.sqlite3"
        make(path, names, **settings_of)
        with EventStore.open(path) as store:
            for toggles in changes:
                event = store.event()
                limit = planned_rounds(event, "Open")
                if limit is not None and event.current_round("Open") >= limit:
                    break  # every round paired: nothing left to withdraw from
                for n in toggles:
                    name = names[n % players]
                    if store.event().division("Open").withdrawn_from(name) is None:
                        store.withdraw(name)
                    else:
                        store.reinstate(name)
                event = store.event()
                division = event.division("Open")
                number = event.current_round("Open") + 1
                playing = division.playing(number)
                if len(playing) < division.sides:
                    continue
                store.add_round(next_round(event, "Open"))
                paired = store.event().pairings_of("Open", number)
                seated = sorted(p for game in paired for p in game.seats)
                assert seated == sorted(playing)
                for game in paired:
                    if not game.is_bye:
                        scores = tuple(float(i) for i in range(len(game.seats)))
                        store.add_result(
                            game.id, Outcome(scores, (len(game.seats) - 1,)), source="hand"
                        )
            if system == "round-robin":
                met = [frozenset(p.seats) for p in store.event().pairings if not p.is_bye]
                assert len(met) == len(set(met))
