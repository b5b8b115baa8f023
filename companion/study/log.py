"""The reviews of every study deck, kept in SQLite: appended, never changed.

with StudyLog.open(path) as log:
    log.add("mythologies-of-earth", Review(card=17, rating="good", at=now))
    log.reviews("mythologies-of-earth")          # in the order they were made
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
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
        return cls(db, path)

    def add(self, deck: str, review: Review) -> None:
        if review.rating not in RATINGS:
            raise ValueError(f"a rating is one of {', '.join(RATINGS)}, not {review.rating!r}")
        with self._db:
            self._db.execute(
                "INSERT INTO reviews (deck, card, rating, at) VALUES (?, ?, ?, ?)",
                (deck, review.card, review.rating, review.at.isoformat()),
            )

    def reviews(self, deck: str) -> list[Review]:
        rows = self._db.execute(
            "SELECT card, rating, at FROM reviews WHERE deck = ? ORDER BY id", (deck,)
        )
        return [Review(card, rating, datetime.fromisoformat(at)) for card, rating, at in rows]

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
