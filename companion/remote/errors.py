"""What remote play refuses, in one line each."""

from __future__ import annotations

from companion.errors import UserError


class RemoteError(UserError):
    """Remote play cannot do what was asked: no invitation, a game that cannot be joined, a
    move that is the other companion's to make, a link that stopped."""
