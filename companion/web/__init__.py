"""The live board page, the OBS overlay and the tournament wall (docs/display.md).

The pages are static files in static/ that subscribe to the MQTT stream over WebSockets in
the browser; server.py serves them and tells them where the broker is.
"""

from __future__ import annotations

from companion.web.server import DisplayConfig, DisplayServer, serve

__all__ = ["DisplayConfig", "DisplayServer", "serve"]
