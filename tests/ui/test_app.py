"""The app driven by touches on real widgets, offscreen: wizard, turns, alerts, the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from kivy.tests.common import UnitTestTouch

from companion.games.contract import TABLE
from companion.games.memwars.palette import colour_rgb
from tests.plays import live_of

from .screen import Screen


def start(
    screen: Screen, *, mode: str = "Standard", opponent: bool = False, quadrants: str = "1"
) -> None:
    screen.tap_text("New game")
    assert screen.current == "new_game"
    wizard = screen.screen()
    screen.type_into(wizard.ids.name_1, "Ann")
    screen.type_into(wizard.ids.name_2, "Bo")
    screen.tap_text(mode)
    screen.tap_text(quadrants)
    if opponent:
        screen.tap_text("The companion")
    screen.shot(f"wizard-{mode.lower()}")
    screen.tap_text("Start the game")
    assert screen.current == "live"


def through_setup(screen: Screen) -> None:
    """Rolls, orientation and shuffling, by touch, until the first claim or card."""
    while (keys := [b.key for b in screen.view().buttons]) and keys[0] in (
        "roll",
        "north-top",
        "north-right",
        "north-bottom",
        "north-left",
        "roll-depth",
        "shuffle",
    ):
        screen.decide("north-top" if "north-top" in keys else keys[0])


def test_home_offers_a_new_game_and_nothing_to_resume(screen: Screen) -> None:
    assert screen.current == "home"
    home = screen.screen()
    assert home.ids.resume.disabled
    assert "127.0.0.1:8080" in home.subtitle
    screen.shot("home")


def test_a_standard_claim_with_a_maintained_challenge(screen: Screen) -> None:
    start(screen)
    through_setup(screen)
    view = screen.view()
    first = view.side_names.index(view.actor)  # the roll decided
    assert [b.key for b in view.buttons] == ["claim"]
    # The claim button needs a place: without one, it says so and nothing happens.
    screen.decide("claim")
    assert screen.view().message == "Choose a place on the board first."
    place = view.places[3]
    screen.decide("claim", place)
    assert screen.view().board == {str(place): (view.side_colours[first],)}
    screen.shot("live-claim")
    screen.decide("challenge")
    screen.decide("contest")
    screen.decide("maintain")
    view = screen.view()
    assert view.actor == "the table" and len(view.buttons) == 4
    # The verifier panel: the card's answers only while its button is held.
    live = screen.screen("live")
    assert live.has_check and live.card_text == ""
    assert view.check is not None and view.check.place == place
    button = live.ids.check_card
    x, y = button.to_window(*button.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    screen.frames(2)
    assert view.check.answers[0] in live.card_text
    screen.shot("live-judgement-card")
    touch.touch_up()
    screen.frames(2)
    assert live.card_text == ""
    screen.shot("live-judgement")
    screen.decide("judge-rw")  # the claim right, the challenge wrong
    view = screen.view()
    summary = live_of(screen.app.controller).referee.engine.summary(
        live_of(screen.app.controller).state
    )
    assert summary["scores"]["sides"][first]["captures"] == 1
    # A wrong challenge gives the claimant another turn.
    assert view.actor == view.side_names[first]


def test_a_basic_turn_answered_right(screen: Screen) -> None:
    start(screen, mode="Basic")
    through_setup(screen)
    view = screen.view()
    assert view.actor == "the table" and {b.key for b in view.buttons} >= {"right", "wrong"}
    # The presented card's front is for everyone to see; its answers are not.
    assert view.card_front.startswith("Card ") and screen.screen("live").card_front
    first = live_of(screen.app.controller).state.turn
    (place,) = view.places
    screen.decide("right")
    assert screen.view().board == {str(place): (view.side_colours[first],)}
    assert live_of(screen.app.controller).state.turn == 1 - first
    screen.shot("live-basic")


class Alarm:
    def __init__(self) -> None:
        self.sounded = 0

    def sound(self) -> None:
        self.sounded += 1


def test_a_misplaced_crystal_is_an_alert_until_it_is_put_right(screen: Screen) -> None:
    screen.app.controller.camera = True
    alarm = screen.app.alarm = Alarm()
    start(screen)
    through_setup(screen)
    live = live_of(screen.app.controller)
    view = screen.view()
    wrong = view.places[0]
    first = view.side_names.index(view.actor)
    mine, theirs = view.side_colours[first], view.side_colours[1 - first]
    live.table_seen({str(wrong): (theirs,)})  # the other side's crystal
    screen.frames(2)
    live_screen = screen.screen("live")
    assert live_screen.held and "MW-SM1" in live_screen.alerts
    assert live_screen.button("claim").disabled
    assert not live_screen.ids.override.disabled
    assert screen.app.alerts_heard  # the buzzer's cue
    assert alarm.sounded == 1
    screen.shot("live-alert")
    live.table_seen({})  # taken off again
    screen.frames(2)
    assert not live_screen.held and live_screen.alerts == ""
    live.table_seen({str(wrong): (mine,)})  # the claim, read by the camera
    screen.frames(2)
    assert screen.view().board == {str(wrong): (mine,)}
    assert [b.key for b in screen.view().buttons] == ["challenge", "decline"]


def test_an_alert_overridden_on_the_screen(screen: Screen) -> None:
    screen.app.controller.camera = True
    start(screen)
    through_setup(screen)
    view = screen.view()
    place = view.places[0]
    other = view.side_colours[1 - view.side_names.index(view.actor)]
    live_of(screen.app.controller).table_seen({str(place): (other,)})
    screen.frames(2)
    screen.tap(screen.screen("live").ids.override)
    assert not screen.view().held
    screen.decide("claim", screen.view().places[1])
    assert screen.view().seq > 0


def test_a_whole_game_against_the_companion_ends_on_the_score_screen(screen: Screen) -> None:
    start(screen, opponent=True)
    through_setup(screen)
    for _ in range(400):
        if screen.current == "end":
            break
        view = screen.view()
        expectation = live_of(screen.app.controller).referee.expected()
        assert expectation is not None
        if expectation.actor == 1 or (
            expectation.actor == TABLE and "answer" in expectation.actions
        ):
            assert screen.app.controller.step()
            screen.frames(1)
            continue
        keys = [b.key for b in view.buttons]
        if "claim" in keys:
            screen.decide("claim", view.places[0])
        elif "judge-rr" in keys:
            screen.decide("judge-rw")
        elif "decline" in keys:
            screen.decide("decline")
        else:
            screen.decide(keys[0])
    assert screen.current == "end"
    end = screen.screen()
    assert end.result.startswith(("Winner", "Tied"))
    assert len(screen.view().history) == screen.view().seq
    screen.shot("end")
    screen.tap_text("Home")
    assert screen.current == "home"


def test_crystals_laid_on_the_simulated_table_reach_the_game_through_the_camera(
    screen: Screen,
) -> None:
    screen.app.controller.virtual_table = True
    start(screen)
    through_setup(screen)
    live = screen.screen("live")
    assert live.has_table
    view = screen.view()
    mine = view.side_colours[view.side_names.index(view.actor)]
    theirs = next(c for c in view.side_colours if c != mine)
    screen.tap(live.ids.table_toggle)
    chips = {chip.colour: chip for chip in live.ids.table_colours.children}
    # A crystal of the wrong side first: the camera sees it, the game is held.
    screen.tap(chips[theirs])
    board = live.ids.board
    place = view.places[0]
    screen.tap_at(*board.to_window(*board.place_at(place)))
    assert screen.until(lambda: screen.view().held)
    assert "MW-SM1" in live.alerts
    screen.shot("live-table-alert")
    # Taken off again, then the right colour put down: that is the claim.
    screen.tap_at(*board.to_window(*board.place_at(place)))
    assert screen.until(lambda: not screen.view().held)
    screen.tap(chips[mine])
    before = screen.view().seq
    screen.tap_at(*board.to_window(*board.place_at(place)))
    assert screen.until(lambda: screen.view().seq > before)
    assert screen.view().board == {str(place): (mine,)}
    assert [b.key for b in screen.view().buttons] == ["challenge", "decline"]
    screen.shot("live-table-claim")


def test_a_timed_game_shows_clocks_and_takes_the_clock_keys(screen: Screen) -> None:
    screen.tap_text("New game")
    screen.tap_text("5+3")
    screen.tap_text("Start the game")
    through_setup(screen)
    live = screen.screen("live")
    assert live.timed and not live.ids.pause.disabled
    labels = [label.text for label in live.side_labels]
    assert any("5:00" in text or "4:5" in text for text in labels), labels
    controller = screen.app.controller
    game_id = live_of(controller).referee.game_id
    inputs = len(controller.store.clock_inputs(game_id))
    from kivy.core.window import Window

    Window.dispatch("on_key_down", 112, 0, "p", [])  # 'p': the pause button
    screen.frames(2)
    recorded = controller.store.clock_inputs(game_id)
    assert len(recorded) == inputs + 1 and recorded[-1][2]["type"] == "pause"
    assert screen.until(lambda: live.ids.pause.text == "Resume", timeout=5)
    screen.shot("live-clock-paused")
    screen.tap(live.ids.pause)
    assert controller.store.clock_inputs(game_id)[-1][2]["type"] == "resume"
    assert live.ids.pause.text == "Pause"


def test_a_simple_delay_counts_down_on_the_live_screen(
    screen: Screen, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.session import Referee

    now = [100.0]  # the game's clock, injected: time passes only when the test says
    real_start = Referee.start.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(
        Referee,
        "start",
        classmethod(
            lambda cls, *args, **kw: real_start(cls, *args, **{**kw, "clock": lambda: now[0]})
        ),
    )
    screen.tap_text("New game")
    wizard = screen.screen()
    wizard.picks["time_control"] = "300d5+2"  # five minutes, a 5 s delay, 2 s a move
    screen.tap_text("Start the game")
    through_setup(screen)
    controller = screen.app.controller
    running = controller.clock_face().running
    assert running is not None
    live = screen.screen("live")
    now[0] += 1.5
    assert screen.until(lambda: "delay 3.5" in live.side_labels[running].text, 5)
    assert "5:00" in live.side_labels[running].text
    assert "delay" not in live.side_labels[1 - running].text
    screen.shot("live-clock-delay")
    now[0] += 5.0  # the delay is over: the main time counts down
    assert screen.until(lambda: "4:58" in live.side_labels[running].text, 5)
    assert "delay" not in live.side_labels[running].text


def test_study_quizzes_a_place_records_the_rating_and_colours_the_board(screen: Screen) -> None:
    screen.tap_text("Study the deck")
    assert screen.current == "study"
    study = screen.screen()
    first = screen.app.controller.study().card
    assert first is not None and f"Place {first.place}" in study.prompt
    assert study.ids.board.focus == first.place
    assert study.answers == ""
    button = study.ids.answer
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    screen.frames(2)
    assert first.name in study.answers
    touch.touch_up()
    screen.frames(2)
    assert study.answers == ""
    screen.tap(study.ids.good)
    second = screen.app.controller.study().card
    assert second is not None and second.number != first.number
    heat = study.ids.board.heat
    assert heat[first.place] is not None and heat[first.place] > 0.9
    assert heat[second.place] is None
    screen.tap(study.ids.again)
    assert "learnt 0" not in study.counts
    screen.shot("study")


def test_the_camera_is_set_up_from_the_screen(screen: Screen) -> None:
    screen.tap_text("Set up the camera")
    assert screen.current == "camera"
    camera = screen.screen()
    assert camera.status.startswith("board found:")
    assert camera.ids.preview.texture is not None
    assert "one red crystal on places" in camera.instructions
    screen.tap(camera.ids.calibrate)  # nothing laid yet: refused, with the reason
    assert camera.result.startswith("Not saved:") and "red" in camera.result
    screen.tap(camera.ids.lay)
    screen.tap(camera.ids.calibrate)
    assert camera.result.startswith("Calibrated red, blue, yellow"), camera.result
    screen.shot("camera-calibrated")


def test_a_third_side_colour_is_chosen_and_calibrated_on_the_setup_screen(screen: Screen) -> None:
    screen.tap_text("Set up the camera")
    camera = screen.screen()
    toggles = camera.colour_toggles
    assert list(toggles) == ["red", "blue", "green", "purple", "orange"]
    assert [name for name, button in toggles.items() if button.state == "down"] == ["red", "blue"]
    screen.tap(toggles["green"])
    assert "one green crystal on places" in camera.instructions
    screen.tap(camera.ids.lay)
    screen.tap(camera.ids.calibrate)
    assert camera.result.startswith("Calibrated red, blue, green, yellow"), camera.result
    screen.shot("camera-calibrated-green")
    screen.tap_text("Home")
    assert screen.current == "home"


def test_a_move_taken_back_with_both_sides_consent(screen: Screen) -> None:
    start(screen)
    through_setup(screen)
    view = screen.view()
    place = view.places[0]
    screen.decide("claim", place)
    seq = screen.view().seq
    live = screen.screen("live")
    screen.tap(live.ids.take_back)
    assert "Take back the last move (claim on place" in live.prompt
    first, second = (f"{name} agrees" for name in screen.view().side_names)
    screen.shot("live-takeback")
    screen.tap_text(first)
    assert screen.view().seq == seq and screen.view().takeback is not None
    screen.tap_text(second)
    view = screen.view()
    assert view.takeback is None and view.board == {}
    assert [b.key for b in view.buttons] == ["claim"]
    assert screen.app.controller.store.taken_back(
        live_of(screen.app.controller).referee.game_id
    ) == [seq]


def test_the_companion_agrees_to_a_takeback(screen: Screen) -> None:
    start(screen, opponent=True)
    through_setup(screen)
    controller = screen.app.controller
    # If the companion won the roll, its claim comes first: let it be, then claim.
    while (keys := [b.key for b in screen.view().buttons]) != ["claim"]:
        if not controller.step():
            screen.decide("decline" if "decline" in keys else keys[0])
    screen.decide("claim", screen.view().places[0])
    screen.tap(screen.screen("live").ids.take_back)
    screen.tap_text(f"{screen.view().side_names[0]} agrees")
    assert controller.step()  # the companion's agreement
    assert screen.view().board == {} and screen.view().takeback is None


def test_cards_scanned_on_the_simulated_reader_are_checked_against_the_rules(
    screen: Screen,
) -> None:
    screen.app.controller.virtual_table = True
    start(screen, mode="Basic")
    through_setup(screen)
    live = screen.screen("live")
    assert live.has_reader
    expectation = live_of(screen.app.controller).referee.expected()
    assert expectation is not None and expectation.cards
    (wanted,) = expectation.cards
    other = 1 if wanted != 1 else 2
    screen.type_into(live.ids.card_number, str(other))
    screen.tap(live.ids.scan)
    assert screen.until(lambda: screen.view().held, timeout=20)
    assert f"card {other} is not the card the rules expect now" in live.alerts
    screen.shot("live-wrong-card")
    screen.type_into(live.ids.card_number, str(wanted))
    screen.tap(live.ids.scan)
    assert screen.until(lambda: not screen.view().held, timeout=20)
    assert "the card expected" in live.message


def test_gpio_buttons_press_the_clock_and_leds_show_whose_time_runs(screen: Screen) -> None:
    from contextlib import ExitStack

    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from companion.config import Config
    from companion.launch.app import wire_gpio as _wire_gpio

    saved = Device.pin_factory
    Device.pin_factory = pins = MockFactory()
    try:
        with ExitStack() as stack:
            _wire_gpio(Config(), screen.app, screen.app.controller, stack)
            screen.tap_text("New game")
            screen.tap_text("5+3")
            screen.tap_text("Start the game")
            through_setup(screen)
            controller = screen.app.controller
            game_id = live_of(controller).referee.game_id
            running = controller.clock_face().running
            assert running is not None
            leds = (pins.pin(5), pins.pin(6))
            assert screen.until(lambda: leds[running].state and not leds[1 - running].state, 5)
            before = len(controller.store.clock_inputs(game_id))
            button = pins.pin(22)  # the pause button
            button.drive_low()
            screen.frames(2)
            button.drive_high()
            assert screen.until(lambda: len(controller.store.clock_inputs(game_id)) > before, 5)
            assert controller.store.clock_inputs(game_id)[-1][2]["type"] == "pause"
            assert screen.app.alarm is not None
    finally:
        pins.reset()
        Device.pin_factory = saved


def test_the_wizard_sets_colours_path_patterns_handicap_and_the_hybrid_sides(
    screen: Screen,
) -> None:
    screen.tap_text("New game")
    wizard = screen.screen()
    # Each side's button is drawn in its colour, as the crystals are.
    assert tuple(wizard.ids.colour_2.background_color) == (*colour_rgb("blue"), 1.0)
    screen.tap(wizard.ids.colour_1)  # red -> green (blue is taken)
    assert tuple(wizard.ids.colour_1.background_color) == (*colour_rgb("green"), 1.0)
    screen.tap_text("Hybrid")
    screen.tap(wizard.toggles["quadrants"][2])
    screen.tap_text("Forward")
    screen.tap_text("Bonus points")
    screen.tap_text("P2 one deeper")
    screen.tap(wizard.toggles["basic_side"][0])  # Hybrid: Player 1 plays Basic
    choices = wizard.choices()
    assert choices.colours == ("green", "blue")
    assert (choices.mode, choices.path, choices.patterns) == ("hybrid", "forward", True)
    assert (choices.handicap, choices.basic_side, choices.quadrants) == (1, 0, 2)
    screen.shot("wizard-more")
    screen.tap_text("Start the game")
    setup = live_of(screen.app.controller).state.setup
    assert [s.colour for s in setup.sides] == ["green", "blue"]
    assert [s.mode.value if s.mode else None for s in setup.sides] == ["basic", "standard"]
    assert setup.sides[1].depth == 2 and setup.sides[0].depth is None
    assert setup.path.value == "forward" and setup.patterns.any


def test_settings_are_edited_checked_and_saved(screen: Screen, tmp_path: Path) -> None:
    from companion.config import load_config

    path = tmp_path / "settings" / "config.toml"
    screen.app.controller.config_path = path
    screen.tap_text("Settings and display page")
    settings = screen.screen()
    assert "127.0.0.1:8080" in settings.page_url
    inputs = settings.inputs
    assert inputs[("game", "board_id")].text == "table-1"
    inputs[("pins", "players")].text = "17, twenty-seven"
    screen.tap(settings.ids.save)
    assert settings.result.startswith("Not saved:") and "players" in settings.result
    assert not path.exists()
    inputs[("pins", "players")].text = "23, 24"
    inputs[("game", "board_id")].text = "club-3"
    inputs[("broker", "url")].text = "mqtt://broker.lan:1883"
    screen.tap(settings.ids.save)
    assert settings.result.startswith("Saved to"), settings.result
    saved = load_config(path)
    assert (saved.game.board_id, saved.broker.url, saved.pins.players) == (
        "club-3",
        "mqtt://broker.lan:1883",
        [23, 24],
    )
    screen.shot("settings")


def test_the_deck_is_enrolled_card_by_card_and_resumes(screen: Screen, tmp_path: Path) -> None:
    from companion.decks import find_deck
    from companion.decks.tagmap import load_tag_map

    deck = find_deck("mythologies-of-earth")
    screen.tap(screen.screen("home").ids.enroll)
    assert screen.current == "enroll"
    enroll = screen.screen()
    assert enroll.simulated and enroll.prompt.startswith("Scan card 1:")
    screen.tap(enroll.ids.scan_next)
    assert screen.until(lambda: enroll.prompt.startswith("Scan card 2:"), timeout=20)
    assert "card 1" in enroll.last and "saved" in enroll.last
    screen.tap(enroll.ids.scan_next)
    assert screen.until(lambda: enroll.prompt.startswith("Scan card 3:"), timeout=20)
    screen.shot("enroll")
    assert sorted(load_tag_map(deck).values()) == [1, 2]
    screen.tap_text("Home")
    screen.tap(screen.screen("home").ids.enroll)  # resumes at the first card with no tag
    assert screen.screen().prompt.startswith("Scan card 3:")


def test_a_game_of_three_sides_each_in_its_own_colour(screen: Screen) -> None:
    screen.tap_text("New game")
    wizard = screen.screen()
    screen.tap(wizard.toggles["sides"][3])
    screen.tap(wizard.toggles["quadrants"][1])
    assert wizard.choices().deck == ""  # the configured deck
    screen.tap_text("Start the game")
    setup = live_of(screen.app.controller).state.setup
    assert [(s.name, s.colour) for s in setup.sides] == [
        ("Player 1", "red"),
        ("Player 2", "blue"),
        ("Player 3", "green"),
    ]
    through_setup(screen)
    assert len(screen.screen("live").side_labels) == 3
    screen.shot("live-three-sides")


def test_what_goes_wrong_behind_a_touch_is_said_and_the_app_goes_on(screen: Screen) -> None:
    from kivy.base import ExceptionManager

    from companion.errors import UserError
    from companion.ui.app import UNEXPECTED, _Shown

    (handler,) = [h for h in ExceptionManager.handlers if isinstance(h, _Shown)]
    assert handler.handle_exception(UserError("no deck called 'nope'")) == ExceptionManager.PASS
    assert handler.handle_exception(RuntimeError("boom")) == ExceptionManager.PASS
    assert screen.app.notices == ["no deck called 'nope'", UNEXPECTED]
    assert "RuntimeError" not in screen.app.notices[1]
    screen.shot("notice")
    # The popup closes with its button.
    from kivy.core.window import Window
    from kivy.uix.popup import Popup

    popups = [w for w in Window.children if isinstance(w, Popup)]
    assert popups
    screen.tap_text_in(popups[0], "Close")
    assert screen.until(
        lambda: len([w for w in Window.children if isinstance(w, Popup)]) == len(popups) - 1,
        timeout=10,
    )
    assert handler.handle_exception(KeyboardInterrupt()) == ExceptionManager.RAISE


def test_a_camera_that_cannot_be_opened_is_said_on_the_setup_screen(screen: Screen) -> None:
    screen.app.controller.camera_spec = "/nowhere/frames.mp4"
    screen.tap_text("Set up the camera")
    camera = screen.screen()
    assert camera.status == "/nowhere/frames.mp4: no such video file"
    screen.tap_text("Home")
    assert screen.current == "home"


def test_a_real_reader_on_its_serial_port_checks_the_cards_of_the_game(
    screen: Screen,
) -> None:
    from companion.decks import find_deck
    from companion.decks.tagmap import save_tag_map
    from companion.devices.cardreader.emulators import Rdm6300Emulator
    from companion.devices.cardreader.ptypair import PtyPair

    deck = find_deck("mythologies-of-earth")
    tags = {f"E0{n:08X}": n for n in (c.number for c in deck.cards)}
    save_tag_map(deck, tags)  # enrolled, as `companion deck enroll` would have
    pair = PtyPair()
    emulator = Rdm6300Emulator(pair.device_path, repeat_s=0.03)
    try:
        screen.app.controller.reader_port = pair.host_path
        start(screen, mode="Basic")
        through_setup(screen)
        expectation = live_of(screen.app.controller).referee.expected()
        assert expectation is not None
        (wanted,) = expectation.cards
        other = 1 if wanted != 1 else 2
        emulator.present(f"E0{other:08X}")
        assert screen.until(lambda: screen.view().held, timeout=20)
        emulator.remove()
        emulator.present(f"E0{wanted:08X}")
        assert screen.until(lambda: not screen.view().held, timeout=20)
        assert "the card expected" in screen.screen("live").message
    finally:
        screen.app.controller.close()
        emulator.close()
        pair.close()


def test_the_rules_own_move_still_to_lay_is_asked_calmly(screen: Screen) -> None:
    screen.app.controller.camera = True
    alarm = screen.app.alarm = Alarm()
    start(screen)
    through_setup(screen)
    live = live_of(screen.app.controller)
    live.table_seen({})
    place = screen.view().places[0]
    live.decide("claim", place)  # told on the screen, not yet on the table
    screen.frames(2)
    live_screen = screen.screen("live")
    assert screen.view().held
    assert live_screen.table_work.startswith("Lay it on the table: ")
    assert f"{place}: the rules put a " in live_screen.table_work
    assert live_screen.alerts == "" and alarm.sounded == 0
    screen.shot("live-table-work")


def test_options_and_house_rules_set_on_all_options_are_in_the_games_setup(
    screen: Screen,
) -> None:
    screen.tap_text("New game")
    wizard = screen.screen()
    screen.tap(wizard.toggles["depth"][2])
    wizard.change_options()
    page = screen.screen()
    assert screen.current == "all_options" and page.title == "MemWars: all options"
    # The page opens on what the rows say.
    assert page.toggles["depth"][2].state == "down"
    screen.shot("all-options-memwars-top")
    screen.tap(page.toggles["depth"]["roll"])
    screen.tap(page.toggles["quadrants"][3])  # 1, 2 and 4 left
    screen.tap(page.toggles["quadrants"][4])
    screen.tap(page.toggles["sides.1.depth"][4])  # the second side one deeper
    screen.tap(page.toggles["topology.kind"]["standard"])
    screen.tap(page.toggles["mw.standard.allowPass"][True])
    screen.tap(page.toggles["clock.controls.0"]["15+10"])
    screen.tap(page.toggles["clock.controls.1"]["5+3"])  # a handicap in time
    screen.shot("all-options-memwars")
    page.ids.setup_name.text = "Club handicap"
    screen.tap(page.ids.save)
    assert page.said == "Saved as Club handicap."
    screen.tap(page.ids.done)
    assert screen.current == "new_game"
    assert wizard.options_button.text == "Club handicap (change...)"
    screen.tap_text("Start the game")
    controller = screen.app.controller
    header = controller.store.header(live_of(controller).referee.game_id)
    setup = header.setup
    assert setup["depth"] == "roll"
    assert setup["quadrants"] == [1, 2]
    assert setup["sides"][1]["depth"] == 4 and setup["sides"][0]["depth"] is None
    assert setup["topology"]["kind"] == "standard"
    assert setup["house_rules"] == {"mw.standard.allowPass": True}
    assert header.clock is not None and header.clock["controls"] == ["15+10", "5+3"]
    # The named setup is there for the next game, on the page and on the command line.
    from companion.table.setups import find_setup

    saved = find_setup("Club handicap")
    assert saved.options["sides.1.depth"] == 4 and saved.house_rules == setup["house_rules"]


def test_a_team_counters_that_multiply_one_centre_multiplier_lightning_rounds_and_the_flag(
    screen: Screen,
) -> None:
    screen.tap_text("New game")
    wizard = screen.screen()
    wizard.ids.name_1.text = "Ann & Bo"  # a team playing one side (MW-S12)
    screen.tap(wizard.toggles["mode"]["basic"])
    wizard.change_options()
    page = screen.screen()
    screen.tap(page.toggles["topology.kind"]["competitive"])
    screen.tap(page.toggles["topology.scoring"]["multiply"])
    screen.tap(page.toggles["multipliers.centre_place"][2])  # the quincunx centres only
    screen.tap(page.toggles["lightning_rounds"][3])
    screen.tap(page.toggles["mw.timer"]["FLAG_LOSES"])
    screen.tap(page.toggles["clock.controls.0"]["5+3"])
    screen.tap(page.toggles["clock.controls.1"]["5+3"])
    screen.shot("all-options-memwars-scoring")
    screen.tap(page.ids.done)
    assert wizard.options_button.text == "6 options and 1 house rule set (change...)"
    screen.tap_text("Start the game")
    controller = screen.app.controller
    header = controller.store.header(live_of(controller).referee.game_id)
    setup = header.setup
    assert setup["sides"][0]["members"] == ["Ann", "Bo"]
    assert setup["topology"]["kind"] == "competitive"
    assert setup["topology"]["scoring"] == "multiply"
    assert setup["multipliers"] == {"centre_place": 2, "centre_quincunx": 1}
    assert setup["lightning_rounds"] == 3
    assert setup["house_rules"] == {"mw.timer": "FLAG_LOSES"}
    assert header.clock is not None and header.clock["controls"] == ["5+3", "5+3"]


def test_study_offers_each_player_what_the_table_saw_them_get_wrong(screen: Screen) -> None:
    from companion.games.memwars.play.simulation import SimulationOptions, run_simulation

    # A finished game on the configured deck, in the app's own store.
    assert run_simulation(SimulationOptions(seed=5, quadrants=1, quiet=True)) == 0
    screen.tap_text("Study the deck")
    study = screen.screen()
    names = [button.text for button in study.ids.players.children[::-1]]
    assert names == ["The table", "Ada", "Basil"]
    assert screen.app.controller.study().player == ""
    screen.tap_text("Ada")
    session = screen.app.controller.study()
    assert session.player == "Ada"
    reviews = session.log.reviews(session.deck.id, "Ada")
    assert reviews and session.card is not None
    wrong = {r.card for r in reviews if r.rating == "again"}
    seen = {r.card for r in reviews}
    # What she got wrong comes back first; otherwise a card the table never saw her answer.
    assert session.card.number in wrong if wrong else session.card.number not in seen
    screen.shot("study-from-play")
    screen.tap(study.ids.good)
    assert len(session.log.reviews(session.deck.id, "Ada")) == len(reviews) + 1
    assert session.log.reviews(session.deck.id) == []  # the table's schedule is its own


def test_menu_phones_shows_each_sides_page_as_a_code_for_its_player(screen: Screen) -> None:
    import cv2

    from companion.table.private_pages import PrivateDesk

    desk = PrivateDesk(b"k" * 32)
    screen.app.controller.on_game = desk.attach
    screen.app.private_links = lambda: desk.links("http://192.0.2.7:8080/")
    screen.app.private_opened = lambda: set(desk.opened)
    start(screen)
    screen.tap_text("Menu")
    screen.tap_text_in(screen.app.menu, "Phones: each side's own page")
    phones = screen.screen()
    assert screen.current == "phones"
    (ann, ann_url), (bo, bo_url) = desk.links("http://192.0.2.7:8080/")
    assert (ann, bo) == ("Ann", "Bo")
    assert phones.who.startswith("Ann") and phones.url == ann_url
    # The code on the screen is the page's address.
    image = cv2.imread(phones.qr)
    assert image is not None
    assert cv2.QRCodeDetector().detectAndDecode(image)[0] == ann_url
    assert "Only this side's player" in phones.note
    screen.shot("phones-first-side")
    token = ann_url.rsplit("/", 1)[1]
    assert desk.page(token) is not None  # Ann's phone opens her page
    # The screen looks again twice a second.
    assert screen.until(lambda: "Ann's page is open" in phones.note, timeout=10)
    screen.tap(phones.ids.next)
    assert phones.who.startswith("Bo") and phones.url == bo_url
    screen.tap(phones.ids.back)
    assert screen.current == "live"


def test_home_offers_the_game_a_tournament_hub_assigns_this_table(screen: Screen) -> None:
    from companion.table.assignment import Assignment
    from companion.table.setups import GameSetup, save_setup

    save_setup(GameSetup("memwars", {"depth": 2, "quadrants": [2]}), "Club rapid")
    assignment = Assignment(
        text="Round 2: Cy vs Bo, MemWars, Club rapid setup",
        game="memwars",
        setup="Club rapid",
        names=("Cy", "Bo"),
        played=False,
    )
    screen.app.assigned(assignment)
    home = screen.screen("home")
    assert home.new_game_text == "New game: Round 2: Cy vs Bo, MemWars, Club rapid setup"
    screen.shot("home-assigned")
    screen.tap(home.ids.new_game)
    wizard = screen.screen()
    assert screen.current == "new_game"
    assert (wizard.ids.name_1.text, wizard.ids.name_2.text) == ("Cy", "Bo")
    assert wizard.options_button.text == "Club rapid (change...)"
    screen.tap_text("Start the game")
    setup = live_of(screen.app.controller).state.setup
    assert [s.name for s in setup.sides] == ["Cy", "Bo"] and setup.quadrants == (2,)
    # Played: Home offers a plain New game again.
    screen.app.assigned(Assignment(assignment.text, "memwars", None, ("Cy", "Bo"), played=True))
    assert home.assigned() is None
