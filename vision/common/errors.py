"""Errors a user can cause, each worth one clear line and exit code 2."""

from __future__ import annotations


class UserError(Exception):
    """Bad input from a user: a file, a command line, a record. Printed as one line."""

    exit_code = 2

    def __init__(self, message: str, *, where: str | None = None) -> None:
        self.message = message
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)
