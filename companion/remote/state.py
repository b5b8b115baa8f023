"""Where a remote link stands, for a screen to show."""

from __future__ import annotations

from enum import StrEnum


class LinkState(StrEnum):
    WAITING = "waiting"
    """Connected, but the other companion has not been heard yet (it has not joined)."""
    CONNECTED = "connected"
    """Both companions are on the broker: moves go across as they are made."""
    PAUSED = "paused"
    """The link dropped (this companion's connection, or the other's Last Will): the game
    clock is paused; moves made meanwhile are sent when the link is back."""
    DISAGREED = "disagreed"
    """The companions' games differ (a move refused, a chain that does not match): the link
    stopped for good, and `RemoteLink.disagreement` says why."""
