"""The tabletop companion: a referee, clock and live stream for physical board games."""

__version__ = "0.1.0"
