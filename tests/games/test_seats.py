"""Every game comes to the table the same way: its seat's New game rows make choices, the
choices begin a game in the store, and the game is taken up, stepped, put down and resumed."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.config import Config
from companion.games import plugin_names
from companion.games.plugin import GamePlugin
from companion.session import Referee
from companion.store import Store
from companion.table.choices import Players
from companion.table.play import AtTheTable, seat_of
from companion.table.views import AlertView
from companion.ui.screens.all_options import switches


def test_every_games_rows_have_their_own_keys_and_default_options() -> None:
    seen: dict[str, str] = {}
    for game in plugin_names():
        for row in seat_of(game).form(game).rows(Config()):
            assert row.key not in seen, f"{game} and {seen.get(row.key)} share {row.key!r}"
            seen[row.key] = game
            assert row.default in [value for _, value in row.options], row


def _at_the_table(store: Store, jobs: list[Callable[[], None]]) -> AtTheTable:
    """A table without camera or reader; what threads hand over waits in `jobs` for the
    game's thread, as the app's clock would run it."""
    alerts: list[tuple[AlertView, ...]] = []
    return AtTheTable(
        store=store,
        call_soon=jobs.append,
        on_alert=alerts.append,
        calibration_path=lambda game: Path("/nonexistent") / f"{game}.json",
        release_camera=lambda: None,
    )


def _every_pick(plugin: GamePlugin) -> list[dict[str, Any]]:
    """The form's defaults, then each other option of each row with the rest at default."""
    rows = seat_of(plugin.name).form(plugin.name).rows(Config())
    defaults = {row.key: row.default for row in rows}
    picks = [defaults]
    for row in rows:
        picks += [{**defaults, row.key: value} for _, value in row.options if value != row.default]
    return picks


def test_every_pick_of_every_row_begins_a_game_that_is_taken_up(
    plugin: GamePlugin, tmp_path: Path
) -> None:
    seat = seat_of(plugin.name)
    form = seat.form(plugin.name)
    with Store.open(tmp_path / "games.sqlite3") as store:
        jobs: list[Callable[[], None]] = []
        at = _at_the_table(store, jobs)
        for picks in _every_pick(plugin):
            players = Players(
                names=("Ada", ""),
                colours=tuple(form.colours)[:2] if form.colours else ("", ""),  # type: ignore[arg-type]
                companion=form.companion,
                deal="17" if form.deal else "",
            )
            try:
                choices = form.choices(picks, players, {}, {})
                referee = seat.begin(choices, store, Config())
            except ValueError as err:
                # Some picks make no game together; the screen says why in a sentence.
                assert str(err) and "\n" not in str(err), picks
                continue
            play = seat.take_up(referee, at, choices)
            try:
                assert play.referee is referee
                assert not play.view().over
                assert isinstance(play.step(), bool)
            finally:
                play.close()
            put_down_at = referee.seq
            # A move the companion was still searching for is dropped: the game is put down.
            for thread in threading.enumerate():
                if thread.name == "companion-move":
                    thread.join(timeout=120)
            while jobs:
                jobs.pop(0)()
            again = seat.take_up(Referee.resume(store, referee.game_id), at, None)
            try:
                assert again.referee.seq == put_down_at
                assert again.referee.state == referee.state
            finally:
                again.close()


@pytest.mark.parametrize("deal", ["forty", "1.5"])
def test_a_deal_that_is_not_a_number_is_refused_in_a_sentence(deal: str) -> None:
    for game in plugin_names():
        form = seat_of(game).form(game)
        if not form.deal:
            continue
        rows = form.rows(Config())
        with pytest.raises(ValueError, match="whole number"):
            form.choices(
                {r.key: r.default for r in rows}, Players(("Ada", "Bo"), deal=deal), {}, {}
            )


def test_every_house_rule_a_touch_can_set_goes_into_the_games_setup(
    plugin: GamePlugin, tmp_path: Path
) -> None:
    seat = seat_of(plugin.name)
    form = seat.form(plugin.name)
    defaults = {row.key: row.default for row in form.rows(Config())}
    players = Players(
        names=("Ada", "Bo"),
        colours=tuple(form.colours)[:2] if form.colours else ("", ""),  # type: ignore[arg-type]
        deal="17" if form.deal else "",
    )
    with Store.open(tmp_path / "games.sqlite3") as store:
        for rule in switches(plugin.name):
            for value in rule.alternatives:
                choices = form.choices(defaults, players, {rule.key: value}, {})
                try:
                    referee = seat.begin(choices, store, Config())
                except ValueError as err:
                    # A value this variant cannot take (a two-sided rule in a solitaire game,
                    # say) is refused in a sentence naming it.
                    assert rule.key in str(err) or rule.attribute in str(err), err
                    continue
                setup = store.header(referee.game_id).setup
                assert setup["house_rules"] == {rule.key: value}
