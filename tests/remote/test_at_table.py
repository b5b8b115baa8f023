"""Two companions' tables play one MemWars game remotely, each board filmed by the virtual
camera: each move of the other table is laid at this one by a simulated player's hand, and
the game waits until the camera has read it there; a cut link pauses both, and loses
nothing."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import BrokerConfig, Config
from companion.games import find_plugin
from companion.games.contract import IllegalAction
from companion.games.memwars.board_pieces import counters_on_board
from companion.games.memwars.play.choices import MemWarsChoices
from companion.games.memwars.play.live import LiveGame
from companion.games.memwars.play.table import MemWarsPlay
from companion.games.memwars.play.virtual_table import VirtualTable
from companion.publish.mosquitto import Mosquitto
from companion.remote.at_table import REMOTE_RULE, RemoteBroker, RemoteChoice, RemoteTable
from companion.remote.errors import RemoteError
from companion.remote.state import LinkState
from companion.session import Referee
from companion.store import Store, verify_game
from companion.ui.controller import Controller
from tests.plays import memwars_of
from tests.publish.gate import Gate
from tests.remote.conftest import DEADLINE_S

CUT_AT = 7
"""The guest's link is cut once this many actions are played (the setup's rolls, then
claims and verdicts of both tables), just after a move of its own; the game is then played
to its end."""


@dataclass
class Table:
    """One companion: its controller on a virtual table, and the hands of its players."""

    name: str
    controller: Controller
    jobs: list[Callable[[], None]]
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    laid_at: int = -1
    """The seq at which the hands last laid the other table's move."""
    instructions: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    @property
    def play(self) -> MemWarsPlay:
        return memwars_of(self.controller)

    @property
    def live(self) -> LiveGame:
        return self.play.live

    @property
    def table(self) -> VirtualTable:
        table = self.play.table
        assert table is not None, self.live.view().camera
        return table

    @property
    def remote(self) -> RemoteTable:
        remote = self.controller.remote
        assert remote is not None
        return remote

    @property
    def referee(self) -> Referee:
        return self.live.referee

    def step(self) -> None:
        """The app's clock: what the camera read, then the controller's step."""
        while self.jobs:
            self.jobs.pop(0)()
        self.controller.step()

    def camera_caught_up(self) -> bool:
        """The camera has read the board as the rules have it, and the game has heard."""
        live, table = self.live, self.table
        rules = {z: tuple(sorted(c)) for z, c in live.view().board.items() if c}
        return (
            not self.jobs
            and table.committed() == rules
            and table.committed_counters() == counters_on_board(live.state)
            and not live.held
        )

    def hands(self, moves: bool = True) -> None:
        """The players here: they lay the other table's move as the screen says, and (with
        `moves`) make their own sides' decisions once the camera has read the board."""
        remote, referee = self.remote, self.referee
        if remote.state is LinkState.CONNECTED and remote.mirroring:
            if self.laid_at != referee.seq:
                view = remote.view()
                assert view.instruction and not view.confirm  # the camera checks it
                self.instructions.append(view.instruction)
                if remote.link.local_turn():
                    self.refused.append(self.try_to_move())
                self.laid_at = referee.seq
                self.table.follow(self.live.view().board, counters_on_board(self.live.state))
            return
        if not moves or not remote.link.local_turn() or not self.camera_caught_up():
            return
        if remote.state is not LinkState.CONNECTED:
            return
        action = find_plugin("memwars").random_action(referee.state, self.rng)
        referee.submit(action)

    def try_to_move(self) -> str:
        """A decision made here now; the refusal."""
        action = find_plugin("memwars").random_action(self.referee.state, self.rng)
        with pytest.raises(IllegalAction) as refused:
            self.referee.submit(action)
        assert refused.value.rule == REMOTE_RULE
        return refused.value.explanation


def until(
    tables: tuple[Table, ...], done: Callable[[], bool], *, hands: bool = False, moves: bool = True
) -> None:
    """The app's clock at both tables (and the players' hands) until `done()`."""
    deadline = time.monotonic() + DEADLINE_S * 4
    while not done():
        assert time.monotonic() < deadline, "the condition did not come true in time"
        for table in tables:
            table.step()
            if hands and not done():
                table.hands(moves)
        time.sleep(0.005)


def open_table(name: str, store: Store) -> Table:
    jobs: list[Callable[[], None]] = []
    controller = Controller(Config(), store, virtual_table=True, call_soon=jobs.append)
    return Table(name, controller, jobs)


@pytest.mark.long
def test_two_tables_play_remotely_with_the_camera_checking_the_mirrored_crystals(
    tmp_path: Path, broker: Mosquitto
) -> None:
    with (
        Gate(broker.port) as gate,
        Store.open(tmp_path / "host.sqlite3") as host_store,
        Store.open(tmp_path / "guest.sqlite3") as guest_store,
    ):
        gate.open()
        host = open_table("host", host_store)
        guest = open_table("guest", guest_store)
        pair = (host, guest)
        try:
            choices = MemWarsChoices(names=("Ada", "Basil"), quadrants=1, seed=3)
            host.controller.start("memwars", choices)
            host.controller.host_remote(
                RemoteBroker(url=broker.url), match="ada-basil", host_sides=[0], guest_sides=[1]
            )
            assert host.remote.view().line == "Remote: waiting for Basil's table to join"
            # The guest reaches the broker through a gate the test can shut.
            guest.controller.join_remote(RemoteBroker(url=gate.url), match="ada-basil")
            game_id = host.referee.game_id
            assert guest.referee.game_id == game_id
            until(pair, lambda: all(t.remote.state is LinkState.CONNECTED for t in pair))
            assert host.remote.view().line == "Remote: connected to Basil's table"
            assert guest.remote.view().line == "Remote: connected to Ada's table"

            # Part of the game, then the guest's link is cut just after a move of its own.
            until(
                pair,
                lambda: guest.referee.seq >= CUT_AT and guest.remote.link.local_turn(),
                hands=True,
            )
            until(
                pair,
                lambda: guest.camera_caught_up() and not guest.remote.mirroring,
                hands=True,
                moves=False,
            )
            assert guest.remote.link.local_turn()
            guest.hands()
            gate.shut()
            until(pair, lambda: all(t.remote.state is LinkState.PAUSED for t in pair))
            for table in pair:
                assert table.remote.view().line == "Remote link lost: the game is paused"
                if table.remote.link.local_turn() and not table.remote.mirroring:
                    assert "paused" in table.try_to_move()

            gate.open()
            until(pair, lambda: all(t.remote.state is LinkState.CONNECTED for t in pair))
            until(pair, lambda: host.referee.is_over, hands=True)
            # Both tables end where the other is, the last move laid and read here too.
            until(
                pair,
                lambda: (
                    host.referee.seq == guest.referee.seq
                    and all(t.remote.link.peer_seq == t.referee.seq for t in pair)
                    and not any(t.remote.mirroring for t in pair)
                ),
                hands=True,
                moves=False,
            )

            assert guest.referee.is_over and host.referee.seq > 3 * CUT_AT
            assert host_store.game(game_id).status == guest_store.game(game_id).status
            assert host_store.game(game_id).status == "finished"
            assert host_store.head(game_id) == guest_store.head(game_id)
            assert host_store.actions(game_id) == guest_store.actions(game_id)
            assert verify_game(host_store, game_id).ok and verify_game(guest_store, game_id).ok
            # Every move of the other table was said in words, laid by a hand, and read back
            # by the camera before this table went on; a decision tried meanwhile was refused.
            for table, other in ((host, "Basil"), (guest, "Ada")):
                assert table.instructions, table.name
                assert any(f"{other} claims place" in i for i in table.instructions)
                assert all("crystal" in i or "counter" in i for i in table.instructions)
                assert all("to be laid here first" in r for r in table.refused)
                assert table.table.failed == ""
            assert host.refused or guest.refused
        finally:
            for table in pair:
                table.controller.close()


def test_without_a_camera_the_players_say_the_move_is_laid(
    tmp_path: Path, broker: Mosquitto
) -> None:
    with (
        Store.open(tmp_path / "host.sqlite3") as host_store,
        Store.open(tmp_path / "guest.sqlite3") as guest_store,
    ):
        host = Controller(Config(), host_store)
        guest = Controller(Config(), guest_store)
        try:
            choices = MemWarsChoices(
                names=("Ada", "Basil"), quadrants=1, seed=3, time_control="10+5"
            )
            host.start("memwars", choices)
            remote = host.host_remote(
                RemoteBroker(url=broker.url), match="m2", host_sides=[0], guest_sides=[1]
            )
            guest.join_remote(RemoteBroker(url=broker.url), match="m2")
            rng = random.Random(3)
            deadline = time.monotonic() + DEADLINE_S * 4
            said = ""
            while not said:
                assert time.monotonic() < deadline
                for controller in (host, guest):
                    controller.step()
                    at = controller.remote
                    assert at is not None and controller.play is not None
                    referee = controller.play.referee
                    if at.state is LinkState.CONNECTED and at.mirroring:
                        said = at.view().instruction
                        assert at.view().confirm
                        break
                    if at.state is LinkState.CONNECTED and at.link.local_turn():
                        plugin = find_plugin("memwars")
                        referee.submit(plugin.random_action(referee.state, rng))
            laid_here = host if host.remote is not None and host.remote.mirroring else guest
            assert laid_here.remote is not None
            assert laid_here.confirm_mirrored() is None
            assert not laid_here.remote.mirroring
            assert laid_here.confirm_mirrored() == "There is nothing to lay for the other table."
            assert "crystal" in said
            assert remote.view().line.startswith("Remote: connected to")
            # One clock, the host's; the guest's screen shows its readings.
            assert host.clock is not None and guest.clock is None

            def same_clock() -> bool:
                for controller in (host, guest):
                    controller.step()
                mine, theirs = host.clock_face(), guest.clock_face()
                idle = 1 - (mine.running or 0)
                return (
                    mine.running is not None
                    and theirs.running == mine.running
                    and theirs.texts[idle] == mine.texts[idle]
                )

            deadline = time.monotonic() + DEADLINE_S
            while not same_clock():
                assert time.monotonic() < deadline, "the guest never showed the host's clock"
                time.sleep(0.01)
            assert len(guest.clock_face().texts) == 2
        finally:
            host.close()
            guest.close()


def test_a_broker_must_be_named(tmp_path: Path) -> None:
    with pytest.raises(RemoteError, match="broker both companions reach"):
        RemoteBroker.of(BrokerConfig())
    assert RemoteBroker.of(BrokerConfig(username="u"), "mqtt://h:1").login()["username"] == "u"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["remote", "host", "a/b", "--sides", "0"], "match name"),
        (["remote", "host", "m1", "--sides", "-1"], "--sides must be side numbers"),
        (["remote", "join", "m1", "--timeout", "0"], "--timeout must be more than 0"),
        (["remote", "join", "m1"], "broker both companions reach"),
    ],
)
def test_bad_input_to_companion_remote_is_one_line(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("")
    assert main(["--config", str(config), *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1


def test_companion_remote_hosts_a_game_resumed_and_joins_it(
    tmp_path: Path, broker: Mosquitto
) -> None:
    config = replace(Config(), broker=BrokerConfig(url=broker.url))
    with (
        Store.open(tmp_path / "host.sqlite3") as host_store,
        Store.open(tmp_path / "guest.sqlite3") as guest_store,
    ):
        host = Controller(config, host_store)
        guest = Controller(config, guest_store)
        try:
            game_id = host.start("memwars", MemWarsChoices(quadrants=1, seed=3)).referee.game_id
            host.close()
            share = RemoteChoice(role="host", match="m3", sides=(1,), resume=game_id)
            assert host.begin_remote(share) is not None
            assert guest.begin_remote(RemoteChoice(role="join", match="m3")) is not None
            assert guest.remote is not None and guest.remote.link.sides == {0}
            assert guest.clock is None  # the host's clock is the game's
            deadline = time.monotonic() + DEADLINE_S
            while not all(
                c.remote is not None and c.remote.state is LinkState.CONNECTED
                for c in (host, guest)
            ):
                assert time.monotonic() < deadline
                host.step()
                guest.step()
            assert host.remote is not None
            assert host.remote.view().line == "Remote: connected to Player 1's table"
        finally:
            host.close()
            guest.close()
