"""A live game: camera readings, touches and overrides, all through the referee and store."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.games.memwars.board_pieces import PieceColours, counters_on_board
from companion.games.memwars.play.live import LiveGame, LiveView
from companion.games.memwars.state import Phase
from companion.launch.app import stream_alerts
from companion.session import Referee
from companion.store import Store
from companion.table.views import AlertView

from .memwars.helpers import setup

COLOURS = PieceColours(("red", "blue"), "yellow")
DECK = {"id": "none", "hash": "0"}


def start(store: Store, camera: bool = True, **changes: object) -> tuple[LiveGame, list[object]]:
    referee = Referee.start(store, "memwars", setup(**changes), DECK, title="test")
    buzzed: list[object] = []
    live = LiveGame(referee, COLOURS, camera=camera, on_alert=buzzed.append)
    return live, buzzed


def test_a_crystal_put_down_by_the_player_on_turn_is_committed(game_store: Store) -> None:
    live, buzzed = start(game_store)
    live.table_seen({"13": ("red",)})
    assert game_store.actions(live.referee.game_id)[-1][2] == {
        "type": "claim",
        "side": 0,
        "place": 13,
    }
    view = live.view()
    assert not view.held and view.board == {"13": ("red",)}
    assert [b.key for b in view.buttons] == ["challenge", "decline"]
    assert buzzed == []


def test_a_wrong_crystal_holds_the_game_until_taken_off(game_store: Store) -> None:
    live, buzzed = start(game_store)
    live.table_seen({"13": ("blue",)})
    view = live.view()
    assert view.held
    (alert,) = view.alerts
    assert alert.zone == "13" and alert.rule == "MW-SM1"
    assert len(buzzed) == 1
    # A touch cannot move the game on meanwhile; nothing reaches the store.
    assert live.decide("claim", 20) is not None
    assert game_store.actions(live.referee.game_id) == []
    live.table_seen({})
    assert not live.view().held
    assert live.decide("claim", 20) is None
    assert live.view().board == {"20": ("red",)}


def test_an_override_lets_the_game_go_on_until_the_camera_changes_its_mind(
    game_store: Store,
) -> None:
    live, _ = start(game_store)
    live.table_seen({"13": ("blue",)})
    live.override("13")
    assert not live.view().held
    assert live.decide("claim", 20) is None
    # The table then shows the claim on 20 with the stray blue still on 13: still ignored.
    live.table_seen({"13": ("blue",), "20": ("red",)})
    assert not live.view().held
    # The camera reads 13 differently: the override is over and the new reading counts.
    live.table_seen({"13": ("blue", "blue"), "20": ("red",)})
    assert live.view().held


def test_table_work_after_a_touch_decision_is_an_alert_that_names_its_rule(
    game_store: Store,
) -> None:
    live, _ = start(game_store)
    live.table_seen({"5": ("red",)})
    live.table_seen({"5": ("blue", "red", "yellow")})  # the challenge, by hand
    assert live.referee.state.pending is not None
    assert live.decide("give-up") is None
    view = live.view()
    (alert,) = view.alerts
    assert alert.put_right and alert.rule == "MW-CH6" and "take a red crystal off" in alert.text
    live.table_seen({"5": ("blue", "yellow")})
    assert not live.view().held


def test_the_camera_lost_mid_game_leaves_the_game_to_touch(game_store: Store) -> None:
    live, buzzed = start(game_store)
    live.table_seen({"13": ("blue",)})
    assert live.view().held
    live.camera_lost("no frames for 2 s")
    view = live.view()
    assert not view.held and view.camera.lost and view.camera.why == "no frames for 2 s"
    assert isinstance(buzzed[-1], tuple) and isinstance(buzzed[-1][0], AlertView)
    live.table_seen({"14": ("blue",)})  # a late frame changes nothing
    assert live.decide("claim", 20) is None


def test_without_a_camera_every_move_is_a_touch(game_store: Store) -> None:
    live, _ = start(game_store, camera=False)
    heard: list[LiveView] = []
    live.subscribe(heard.append)
    assert live.decide("claim") == "Choose a place on the board first."
    assert live.decide("challenge") == "That decision is not awaited now."
    assert live.decide("claim", 13) is None
    assert live.decide("decline") is None
    assert heard[-1].board == {"13": ("red",)} and heard[-1].actor == "Bo"
    assert len(heard[-1].history) == 2


def test_a_resumed_game_plots_from_its_first_move(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Store.open(path) as store:
        live, _ = start(store, camera=False)
        live.decide("claim", 13)
        live.decide("decline")
        game_id = live.referee.game_id
    with Store.open(path) as store:
        resumed = LiveGame(Referee.resume(store, game_id), COLOURS)
        assert resumed.view().history == live.view().history
        assert resumed.referee.state.places[13].crystals == (0,)


def test_a_refused_move_names_the_rule(game_store: Store) -> None:
    live, _ = start(game_store, camera=False)
    refusal = live.decide("claim", 80)
    assert refusal is not None and "MW-B13" in refusal
    assert live.view().message == refusal
    assert live.referee.state.places[80].crystals == ()
    assert game_store.actions(live.referee.game_id) == []


def test_a_takeback_needs_every_side_and_the_table_follows(game_store: Store) -> None:
    live, _ = start(game_store)
    assert live.ask_take_back() == "There is no move to take back."
    live.table_seen({"13": ("red",)})  # Ann's claim, by the camera
    assert live.view().seq == 1
    assert live.ask_take_back() is None
    view = live.view()
    assert view.takeback is not None and view.takeback.move == "claim on place 13"
    assert view.takeback.waiting == (0, 1)
    # Nothing else moves while it is asked.
    assert live.decide("decline") is not None
    assert live.agree_take_back(0) is None
    asked = live.view().takeback
    assert asked is not None and asked.waiting == (1,)
    assert live.view().seq == 1
    assert live.agree_take_back(1) is None
    view = live.view()
    assert view.takeback is None and view.board == {} and view.history == ()
    assert game_store.taken_back(live.referee.game_id) == [1]
    # The crystal is still on the table: the rules took it back, so it must come off.
    (alert,) = view.alerts
    assert alert.zone == "13" and alert.put_right and alert.rule == "takeback"
    live.table_seen({})
    assert not live.view().held and [b.key for b in live.view().buttons] == ["claim"]


def test_a_refused_takeback_changes_nothing(game_store: Store) -> None:
    live, _ = start(game_store, camera=False)
    live.decide("claim", 13)
    live.ask_take_back()
    live.agree_take_back(0)
    live.refuse_take_back()
    view = live.view()
    assert view.takeback is None and view.board == {"13": ("red",)}
    assert view.message == "The takeback was refused."
    assert live.decide("decline") is None


class SentAlerts:
    def __init__(self, sent: list[tuple[str, str, str | None]]) -> None:
        self.sent = sent

    def alert(self, text: str, level: str = "warning", rule: str | None = None) -> None:
        self.sent.append((text, level, rule))


def placed(live: LiveGame) -> None:
    """Competitive placement by touch, one counter a place: each side lays its next counter
    on the first free place."""
    while live.state.phase is Phase.PLACE_COUNTERS:
        expectation = live.referee.expected()
        assert expectation is not None
        side = expectation.actor
        place = next(p for p in expectation.places if not live.state.places[p].counters)
        value = live.state.sides[side].counters_left[0]
        assert live.decide(f"counter-{value}", place) is None


def test_a_face_down_counter_turned_up_holds_the_game_without_saying_its_value(
    game_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    live, buzzed = start(game_store, topology={"kind": "competitive"})
    placed(live)
    laid = counters_on_board(live.state)
    live.counters_seen(laid)
    assert not live.view().held
    zone = next(iter(laid))
    value = live.state.places[int(zone)].counters[0].value
    with caplog.at_level(logging.INFO):
        live.counters_seen({**laid, zone: (value,)})
    view = live.view()
    assert view.held
    (alert,) = view.alerts
    assert (alert.zone, alert.rule, alert.put_right) == (zone, "MW-T5", False)
    assert alert.text == (
        f"place {zone}: a face-down counter was turned face up: face-down counters stay "
        "hidden until the place is won; turn it back (MW-T5)"
    )
    # Nothing said anywhere names the value: the alert buzzed, and one log line that names
    # the place and the rule only.
    assert buzzed == [view.alerts]
    game = live.referee.game_id
    assert [r.getMessage() for r in caplog.records if "alert" in r.getMessage()] == [
        f"game {game}: table alert on {zone} (MW-T5)"
    ]
    # The stream, spectator-safe, gets the same words.
    sent: list[tuple[str, str, str | None]] = []
    stream_alerts(SentAlerts(sent), view.alerts)
    assert sent == [(alert.text, "warning", "MW-T5")]
    assert live.decide("claim", 20) is not None  # held
    live.counters_seen(laid)  # turned back
    assert not live.view().held
    assert live.decide("claim", 20) is None


def test_counters_the_holder_took_are_table_work_until_taken_off(game_store: Store) -> None:
    live, _ = start(game_store, topology={"kind": "competitive"})
    placed(live)
    laid = counters_on_board(live.state)
    live.counters_seen(laid)
    zone = next(iter(laid))
    live.table_seen({zone: ("red",)})  # the claim, by the camera
    assert live.decide("decline") is None
    (alert,) = live.view().alerts
    assert (alert.zone, alert.rule, alert.put_right) == (zone, "MW-T7", True)
    assert alert.text == f"place {zone}: the rules took the counters off: take them off (MW-T7)"
    live.counters_seen({z: v for z, v in laid.items() if z != zone})
    assert not live.view().held
    # Taken off another place, not won: against the rules.
    other = next(z for z in laid if z != zone)
    live.counters_seen({z: v for z, v in laid.items() if z not in (zone, other)})
    (alert,) = live.view().alerts
    assert (alert.zone, alert.rule, alert.put_right) == (other, "MW-T7", False)
    live.override_all()
    assert not live.view().held


def test_a_review_answer_is_located_by_the_crystal_put_down(game_store: Store) -> None:
    live, buzzed = start(game_store, mode="review", sides=[{"name": "Ann"}])
    state = live.state
    right = state.setup.place_of[state.current_card]
    live.table_seen({str(right): ("red",)})
    view = live.view()
    assert view.located == right and view.places == (right,) and not view.held
    assert {b.key: b.needs_place for b in view.buttons} == {"right": False, "wrong": False}
    assert live.decide("right") is None
    answer = game_store.actions(live.referee.game_id)[-1][2]
    assert answer == {"type": "answer", "side": 0, "correct": True, "place": right}
    assert live.view().board[str(right)] == ("red",) and not live.view().held
    assert buzzed == []
