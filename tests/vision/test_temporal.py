"""The temporal filter: changes commit only after holding still, never under a hand."""

from __future__ import annotations

from vision.reading import BoardReading, Registration, ZoneChange, ZoneReading
from vision.temporal import FilterSettings, FilterState, step

MS = 1_000_000
SEEN = Registration(markers_seen=20, markers_total=27, error_mm=0.2)


def frame(
    t_ms: int, hands: bool = False, held: bool = False, **zones: tuple[str, ...]
) -> BoardReading:
    registration = Registration(20, 27, 0.2, held=held)
    readings = {
        key.lstrip("_"): ZoneReading(key.lstrip("_"), crystals) for key, crystals in zones.items()
    }
    return BoardReading(readings, hands=hands, registration=registration, t_ns=t_ms * MS)


def run(frames: list[BoardReading], state: FilterState | None = None):
    state = state or FilterState.start()
    observations = []
    for reading in frames:
        state, observation = step(state, reading)
        if observation is not None:
            observations.append(observation)
    return state, observations


def test_a_change_commits_once_it_has_held_still_for_250_ms() -> None:
    frames = [frame(t, _17=("red",)) for t in range(0, 400, 66)]
    state, observations = run(frames)
    assert len(observations) == 1
    assert observations[0].changes == (ZoneChange("17", (), ("red",)),)
    assert observations[0].t_ns == 0
    assert state.contents("17") == ("red",)


def test_nothing_commits_before_the_wait_is_over() -> None:
    _state, observations = run([frame(t, _17=("red",)) for t in range(0, 240, 20)])
    assert observations == []


def test_a_flickering_reading_never_commits() -> None:
    frames = [frame(t, _17=("red",) if (t // 66) % 2 else ()) for t in range(0, 2000, 66)]
    _state, observations = run(frames)
    assert observations == []


def test_nothing_commits_while_a_hand_is_over_the_board_and_the_wait_restarts_after() -> None:
    frames = [frame(t, _17=("red",)) for t in range(0, 200, 50)]
    frames += [frame(t, hands=True, _17=("red",)) for t in range(200, 1000, 50)]
    frames += [frame(t, _17=("red",)) for t in range(1000, 1200, 50)]
    _state, observations = run(frames)
    assert observations == []
    _state, observations = run([*frames, frame(1250, _17=("red",))])
    assert [o.changes for o in observations] == [(ZoneChange("17", (), ("red",)),)]
    assert observations[0].t_ns == 1000 * MS


def test_a_held_registration_or_no_board_commits_nothing() -> None:
    frames = [frame(t, held=True, _17=("red",)) for t in range(0, 1000, 50)]
    frames += [BoardReading(t_ns=t * MS) for t in range(1000, 2000, 50)]
    assert run(frames)[1] == []


def test_occluded_or_unsure_zones_wait() -> None:
    occluded = {"17": ZoneReading("17", ("red",), occluded=True)}
    unsure = {"17": ZoneReading("17", ("red",), confidence=0.3)}
    for zones in (occluded, unsure):
        frames = [BoardReading(zones, registration=SEEN, t_ns=t * MS) for t in range(0, 1000, 50)]
        assert run(frames)[1] == []


def test_removal_and_replacement_are_changes_too() -> None:
    start = FilterState.start({"17": ("red",), "3": ("blue",)})
    frames = [frame(-100, hands=True)]
    frames += [frame(t, _17=(), _3=("blue", "yellow")) for t in range(0, 300, 50)]
    state, observations = run(frames, start)
    assert observations[0].changes == (
        ZoneChange("3", ("blue",), ("blue", "yellow")),
        ZoneChange("17", ("red",), ()),
    )
    assert state.committed == {"3": ("blue", "yellow")}


def test_the_wait_is_a_setting() -> None:
    settings = FilterSettings(stable_ns=100 * MS)
    state = FilterState.start()
    committed_at = None
    for t in range(0, 300, 20):
        state, observation = step(state, frame(t, _5=("red",)), settings)
        if observation and committed_at is None:
            committed_at = t
    assert committed_at == 100


def test_on_a_known_board_a_reading_that_drifts_with_no_hand_is_never_a_move() -> None:
    start = FilterState.start({"17": ("blue",)})
    frames = [frame(t, _17=()) for t in range(0, 5000, 66)]
    state, observations = run(frames, start)
    assert observations == []
    assert state.contents("17") == ("blue",)


def test_a_change_read_soon_after_a_hand_left_is_committed() -> None:
    start = FilterState.start({"17": ("blue",)})
    frames = [frame(t, _17=("blue",)) for t in range(0, 1000, 66)]
    frames += [frame(t, hands=True) for t in range(1000, 1500, 66)]
    frames += [frame(t, _17=()) for t in range(1500, 2000, 66)]
    state, observations = run(frames, start)
    assert [o.changes for o in observations] == [(ZoneChange("17", ("blue",), ()),)]
    assert state.contents("17") == ()


def test_a_reading_that_drifted_before_a_hand_came_is_not_that_hand_s_doing() -> None:
    start = FilterState.start({"17": ("blue",)})
    frames = [frame(t, hands=True) for t in range(0, 300, 66)]
    frames += [frame(t, _17=("blue",)) for t in range(300, 4000, 66)]
    frames += [frame(t, _17=()) for t in range(4000, 6000, 66)]
    _state, observations = run(frames, start)
    assert observations == []
    # A hand comes by elsewhere: the zone reads as it did before, which is no move.
    frames += [frame(t, hands=True) for t in range(6000, 6300, 66)]
    frames += [frame(t, _17=()) for t in range(6300, 7000, 66)]
    _state, observations = run(frames, start)
    assert observations == []
    # A hand that does change the zone is told.
    frames += [frame(t, hands=True) for t in range(7000, 7300, 66)]
    frames += [frame(t, _17=("red",)) for t in range(7300, 7700, 66)]
    state, observations = run(frames, start)
    assert [o.changes for o in observations] == [(ZoneChange("17", ("blue",), ("red",)),)]
    assert state.doubted == {}


def test_a_board_found_with_nothing_known_is_read_as_it_is_with_no_hand() -> None:
    frames = [frame(t, _17=("blue",), _3=("red",)) for t in range(0, 400, 66)]
    frames += [frame(t, _17=("blue",), _3=()) for t in range(400, 2000, 66)]
    state, observations = run(frames)
    assert [o.changes for o in observations] == [
        (ZoneChange("3", (), ("red",)), ZoneChange("17", (), ("blue",)))
    ]
    assert state.contents("3") == ("red",)
