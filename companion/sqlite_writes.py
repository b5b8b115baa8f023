"""How the companion's SQLite files (the game store, an event file) are written: one
transaction at a time, holding the write lock from its first statement.

    with immediate(conn):
        conn.execute(...)          # committed when the block ends, undone if it raises
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress


@contextmanager
def immediate(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One transaction. IMMEDIATE takes the write lock before anything is read, so two
    writers cannot both pass the same checks and both write. Whatever leaves the block
    with an exception undoes it all and goes on; SQLite may have rolled back already (a
    full disk), and then the original error is what matters."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
