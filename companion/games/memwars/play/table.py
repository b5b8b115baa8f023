"""MemWars at the table: the live game, the simulated opponent when one plays, and what
films the board (the virtual table, or a real camera).

A simulated opponent (companion/games/memwars/players.py) plays the last side when asked
for: its decisions go through the same referee as the player's touches.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.config import Config
from companion.decks import find_deck
from companion.decks.model import Deck
from companion.errors import UserError
from companion.games.contract import TABLE, BadSetup
from companion.games.memwars.board_pieces import PieceColours, counters_on_board
from companion.games.memwars.palette import CHALLENGE_COLOUR
from companion.games.memwars.play.choices import MemWarsChoices, MemWarsForm, setup_for
from companion.games.memwars.play.live import LiveGame, LiveView
from companion.games.memwars.play.mirror import mirror_instruction
from companion.games.memwars.play.virtual_table import VirtualTable
from companion.games.memwars.players import SimulatedTable
from companion.games.memwars.state import State
from companion.games.options import clock_controls
from companion.session import Notification, Referee
from companion.store import Store
from companion.table.camera_watch import CameraWatch
from companion.table.choices import game_clock, new_deal
from companion.table.not_started import NotStarted
from companion.table.play import AGAINST_THE_COMPANION, AtTheTable, Seat, companion_side
from companion.table.views import EndView

OPPONENT_RECALL = 0.7
"""How often the simulated opponent remembers a card right."""


class MemWarsPlay:
    """A MemWars game at the table."""

    def __init__(self, live: LiveGame, opponent_side: int | None) -> None:
        self.live = live
        self.opponent_side = opponent_side
        setup = live.state.setup
        self.opponent = (
            SimulatedTable(setup, tuple(OPPONENT_RECALL for _ in setup.sides), seed=setup.seed)
            if opponent_side is not None
            else None
        )
        self.table: VirtualTable | None = None
        """The simulated table, when the game is played on one."""
        self.watch: CameraWatch | None = None

    @property
    def referee(self) -> Referee:
        return self.live.referee

    def view(self) -> LiveView:
        return self.live.view()

    def subscribe(self, listener: Callable[[LiveView], None]) -> Callable[[], None]:
        return self.live.subscribe(listener)

    def end_view(self) -> EndView:
        return self.live.end_view()

    def decide(self, key: str, place: int = 0) -> str | None:
        return self.live.decide(key, place)

    def mirror_instruction(self, before: State, note: Notification) -> str:
        """What to lay here for a move of the other table (remote play)."""
        return mirror_instruction(before, note, self.live.colours)

    def table_matches(self) -> bool | None:
        return self.live.table_matches()

    def table_tap(self, zone: str, colour: str) -> None:
        """A tap on the simulated table: puts a crystal of `colour` on `zone`, or takes one
        off when one lies there already."""
        if self.table is None:
            return
        if colour in self.table.contents().get(zone, ()):
            self.table.take(zone, colour)
        else:
            self.table.put(zone, colour)

    def step(self) -> bool:
        """The simulated opponent's move, if the rules wait on it. True when it moved."""
        if self.opponent is None or self.opponent_side is None:
            return False
        live = self.live
        # Five times a second: ask the live game only what it knows at once, not for a view.
        waiting = live.takeback_waiting
        if self.opponent_side in waiting:
            # The companion agrees to a takeback: it is a friendly opponent.
            live.agree_take_back(self.opponent_side)
            return True
        if live.held or waiting:
            return False
        expectation = live.referee.expected()
        if expectation is None or not self._opponents_turn(expectation.actor, expectation.actions):
            return False
        live.referee.submit(self.opponent.next_action(live.state, expectation))
        return True

    def _opponents_turn(self, actor: int, actions: tuple[str, ...]) -> bool:
        if actor == self.opponent_side:
            return True
        # The companion answers its own card in Basic play; every other verdict is the
        # players' to give.
        return actor == TABLE and "answer" in actions and self.live.state.turn == self.opponent_side

    def close(self) -> None:
        if self.table is not None:
            self.table.stop()
            self.table = None
        if self.watch is not None:
            self.watch.stop()
            self.watch = None

    def lay_table(self, at: AtTheTable, colours: PieceColours) -> None:
        live = self.live

        def seen(board: dict[str, tuple[str, ...]]) -> None:
            at.call_soon(lambda: live.table_seen(board))

        def counters_seen(counters: dict[str, tuple[int | None, ...]]) -> None:
            at.call_soon(lambda: live.counters_seen(counters))

        def failed(why: str) -> None:
            at.call_soon(lambda: live.camera_lost(why))

        table = VirtualTable.start(
            len(colours.sides), on_seen=seen, colours=colours, on_counters=counters_seen
        )
        if isinstance(table, NotStarted):
            live.camera_lost(f"the virtual camera did not start: {table.why}")
            return
        table.on_failure = failed
        self.table = table
        # The pieces already down (a resumed game), then every move the rules make: the
        # simulated players put their pieces (and lay, turn or take the counters) where the
        # rules say, at once. A move made at another table (remote play) is laid here by a
        # player's hand, as the screen tells them (`table_tap`).
        table.follow(live.view().board, counters_on_board(live.state))

        def follow(note: Notification) -> None:
            if not note.elsewhere:
                table.follow(live.view().board, counters_on_board(live.state))

        live.referee.subscribe(follow)

    def watch_camera(self, at: AtTheTable, colours: PieceColours) -> None:
        self.watch = at.watch_board(
            "memwars",
            seen=self.live.table_seen,
            lost=self.live.camera_lost,
            counters=self.live.counters_seen,
            colours=(*colours.sides, colours.challenge),
        )


class MemWarsSeat:
    def form(self, game: str) -> MemWarsForm:
        return MemWarsForm()

    def begin(self, choices: MemWarsChoices, store: Store, config: Config) -> Referee:
        deck = find_deck(choices.deck or config.game.deck)
        seed = choices.seed if choices.seed is not None else new_deal()
        setup = setup_for(choices, deck, seed)
        count = len(setup["sides"])
        clock = game_clock(clock_controls(choices.options, count, choices.time_control))
        title = " vs ".join(s["name"] for s in setup["sides"]) + f", {choices.mode}"
        if choices.opponent and count > 1:
            title += AGAINST_THE_COMPANION
        try:
            return Referee.start(
                store,
                "memwars",
                setup,
                {"id": deck.id, "hash": deck.hash, "title": deck.title},
                title=title,
                game_clock=clock,
            )
        except BadSetup as err:
            raise ValueError(f"cannot set up this game: {err}") from None

    def take_up(
        self, referee: Referee, at: AtTheTable, choices: MemWarsChoices | None = None
    ) -> MemWarsPlay:
        setup = referee.state.setup
        colours = PieceColours(tuple(s.colour for s in setup.sides), CHALLENGE_COLOUR)
        live = LiveGame(
            referee,
            colours,
            camera=at.watched,
            on_alert=at.on_alert,
            deck=_deck_of(at.store, referee.game_id),
        )
        if at.reading is not None:
            at.reading.desk.subscribe(live.card_scanned)
        title = at.store.game(referee.game_id).title
        play = MemWarsPlay(live, companion_side(title, len(setup.sides)))
        if at.virtual_table:
            play.lay_table(at, colours)
        elif at.camera_spec is not None:
            play.watch_camera(at, colours)
        return play


def _deck_of(store: Store, game_id: int) -> Deck | None:
    """The game's deck, for the verifier panel; None when it is no longer installed."""
    deck_id = store.header(game_id).deck.get("id")
    if not isinstance(deck_id, str):
        return None
    try:
        return find_deck(deck_id)
    except UserError:
        return None


SEAT: Seat = MemWarsSeat()
