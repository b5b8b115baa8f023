"""What a table publishes when its game ends: the result message, for every game, with the
hash that ends the game's chain in the table's store."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, cast

import pytest

from companion.games import find_plugin, plugin_names
from companion.publish.publisher import Publisher
from companion.publish.stream import GameStream
from companion.publish.wire import Message, Topics, validate
from companion.session import Referee
from companion.store import Store, verify_game


class Recorder:
    """Stands in for the publisher: keeps what the stream hands it."""

    def __init__(self, board: str) -> None:
        self.topics = Topics("club", board)
        self.messages: list[Message] = []

    def publish(self, message: Message) -> None:
        self.messages.append(message)

    def results(self) -> list[dict[str, Any]]:
        return [json.loads(m.payload) for m in self.messages if m.kind == "result"]


def two_side_setup(game: str) -> dict[str, Any]:
    plugin = find_plugin(game)
    setup = next(s for s in plugin.example_setups() if len(s.get("sides", ())) == 2)
    return {**setup, "sides": [{"name": "Ann"}, {"name": "Bo"}]}


@pytest.mark.parametrize("game", plugin_names())
def test_a_game_that_ends_publishes_its_result_once(tmp_path: Path, game: str) -> None:
    plugin = find_plugin(game)
    rng = random.Random(5)
    with Store.open(tmp_path / "games.sqlite3") as store:
        referee = Referee.start(store, game, two_side_setup(game), {})
        recorder = Recorder("table-7")
        stream = GameStream(referee, cast(Publisher, recorder), board_id="table-7")
        for _ in range(20_000):
            if referee.is_over:
                break
            referee.submit(plugin.random_action(referee.state, rng))
        assert referee.is_over
        stream.close()
        (result,) = recorder.results()
        validate("result", result)
        message = next(m for m in recorder.messages if m.kind == "result")
        assert message.topic == "club/table-7/result" and message.retain and message.qos == 1
        # After the last state: a reader that has the result has the final state too.
        assert recorder.messages[-1] is message
        assert result["names"] == ["Ann", "Bo"] and result["game"] == game
        assert result["hash"] == store.head(referee.game_id)
        assert verify_game(store, referee.game_id).ok
        summary = referee.engine.summary(referee.state)
        assert result["winners"] == summary["outcome"]["winners"]
        if plugin.scored:
            assert result["scores"] == [s["total"] for s in summary["scores"]["sides"]]
        else:
            assert result["scores"] is None

        # A finished game taken up again (a restart) publishes its result again.
        again = Recorder("table-7")
        GameStream(
            Referee.resume(store, referee.game_id), cast(Publisher, again), board_id="table-7"
        ).close()
        (repeated,) = again.results()
        assert {**repeated, "ended": ""} == {**result, "ended": ""}


def test_a_game_in_play_publishes_no_result(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite3") as store:
        referee = Referee.start(store, "memwars", two_side_setup("memwars"), {})
        recorder = Recorder("table-7")
        GameStream(referee, cast(Publisher, recorder), board_id="table-7").close()
        assert recorder.results() == [] and recorder.messages
