"""A live game: camera readings, touches and overrides, all through the referee and store."""

from __future__ import annotations

from pathlib import Path

from companion.games.memwars.board_pieces import PieceColours
from companion.games.memwars.play.live import LiveGame, LiveView
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
