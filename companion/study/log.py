"""The reviews of every study deck, kept in SQLite: appended, never changed. Each review is
some player's: '' for the one who studies at the table, a side's name for a verdict of play
(companion/study/from_play.py).

with StudyLog.open(path) as log:
    log.add("mythologies-of-earth", Review(card=17, rating="good", at=now))
    log.reviews("mythologies-of-earth")          # in the order they were made
    log.add("mythologies-of-earth", review, player="Ada")
    log.players("mythologies-of-earth")          # ['Ada']
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from companion.study.schedule import RATINGS, Review

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS reviews (
        id INTEGER PRIMARY KEY,
        deck TEXT NOT NULL,
        card INTEGER NOT NULL,
        rating TEXT NOT NULL,
        at TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS games_learnt (
        game TEXT PRIMARY KEY,
        at TEXT NOT NULL
    )""",
    """CREATE TRIGGER IF NOT EXISTS reviews_kept BEFORE UPDATE ON reviews
       BEGIN SELECT RAISE(ABORT, 'reviews are never changed'); END""",
    """CREATE TRIGGER IF NOT EXISTS reviews_never_deleted BEFORE DELETE ON reviews
       BEGIN SELECT RAISE(ABORT, 'reviews are never deleted'); END""",
)


class StudyLog:
    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path

    @classmethod
    def open(cls, path: Path | str) -> StudyLog:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        with db:
            for statement in SCHEMA:
                db.execute(statement)
            columns = {row[1] for row in db.execute("PRAGMA table_info(reviews)")}
            if "player" not in columns:
                # Logs from before players: every review was the table's own study.
                db.execute("ALTER TABLE reviews ADD COLUMN player TEXT NOT NULL DEFAULT ''")
        return cls(db, path)

    def add(self, deck: str, review: Review, player: str = "") -> None:
        self.add_all(deck, [(player, review)])

    def add_all(
        self, deck: str, reviews: Sequence[tuple[str, Review]], game: str | None = None
    ) -> None:
        """Reviews by player, in one transaction; with `game`, the game they were learnt from
        is marked learnt in the same transaction, so that it is never learnt twice."""
        for _player, review in reviews:
            if review.rating not in RATINGS:
                raise ValueError(f"a rating is one of {', '.join(RATINGS)}, not {review.rating!r}")
        with self._db:
            self._db.executemany(
                "INSERT INTO reviews (deck, card, rating, at, player) VALUES (?, ?, ?, ?, ?)",
                [(deck, r.card, r.rating, r.at.isoformat(), player) for player, r in reviews],
            )
            if game is not None:
                self._db.execute(
                    "INSERT INTO games_learnt (game, at) VALUES (?, ?)",
                    (game, datetime.now(UTC).isoformat()),
                )

    def reviews(self, deck: str, player: str = "") -> list[Review]:
        rows = self._db.execute(
            "SELECT card, rating, at FROM reviews WHERE deck = ? AND player = ? ORDER BY id",
            (deck, player),
        )
        return [Review(card, rating, datetime.fromisoformat(at)) for card, rating, at in rows]

    def players(self, deck: str) -> list[str]:
        """The players with reviews of `deck` from play, by name."""
        rows = self._db.execute(
            "SELECT DISTINCT player FROM reviews WHERE deck = ? AND player != '' ORDER BY player",
            (deck,),
        )
        return [player for (player,) in rows]

    def learnt(self, game: str) -> bool:
        """Whether the verdicts of `game` are in the log already."""
        row = self._db.execute("SELECT 1 FROM games_learnt WHERE game = ?", (game,)).fetchone()
        return row is not None

    def last_review(self, deck: str, player: str) -> datetime | None:
        row = self._db.execute(
            "SELECT at FROM reviews WHERE deck = ? AND player = ? ORDER BY id DESC LIMIT 1",
            (deck, player),
        ).fetchone()
        return datetime.fromisoformat(row[0]) if row else None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> StudyLog:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
