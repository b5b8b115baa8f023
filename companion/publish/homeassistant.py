"""Home Assistant MQTT discovery: a board's scores, whose turn it is and its clocks as sensors.

    for message in discovery_messages(topics, game="memwars", sides=2, clocks=2):
        publisher.publish(message)

A MeM game gets the same sensors: its view scores each side the same way (stones in the
pattern and the pile), and MEM-Solitaire has one side, so one score.

Turned on by `[broker] home_assistant = true`. Each sensor's config is retained on
`homeassistant/sensor/<node>/<object>/config` (node: `companion_<board id>`), and reads the
board's own topics: scores and the turn from the retained state, each clock from the clock
topic (which carries a reading every second while the clock runs; the state's copy of the
clock is only as fresh as the last move). Every sensor is available while the board's
status is `online`. The configs are Home Assistant's format, documented at
https://www.home-assistant.io/integrations/sensor.mqtt/.
"""

from __future__ import annotations

import re
from typing import Any, Final

from companion.games import find_plugin, plugin_names
from companion.publish.wire import (
    DISCOVERY_PREFIX,
    OFFLINE,
    ONLINE,
    QOS,
    RETAIN,
    Message,
    Topics,
    discovery_topic,
    encode,
)

MANUFACTURER: Final = "the tabletop companion"


def node_id(board: str) -> str:
    """The board as a Home Assistant node id: letters, digits, `_` and `-` only."""
    return "companion_" + re.sub(r"[^A-Za-z0-9_-]", "_", board)


def score_template(game: str, side: int) -> str:
    """Where a side's score is in the state payload: `scores.sides[i].total` for a game whose
    plugin says its view has it, a bare list otherwise."""
    if game in plugin_names() and find_plugin(game).scored:
        return f"{{{{ value_json.view.scores.sides[{side}].total }}}}"
    return f"{{{{ value_json.view.scores[{side}] }}}}"


TURN_TEMPLATE: Final = (
    "{% set t = value_json.view.turn %}"
    "{{ value_json.names[t] if t is number and 0 <= t < value_json.names | length "
    "else 'nobody' }}"
)


def clock_template(player: int) -> str:
    return f"{{{{ value_json.players[{player}].text }}}}"


def discovery_configs(
    topics: Topics, *, game: str, sides: int, clocks: int, prefix: str = DISCOVERY_PREFIX
) -> dict[str, dict[str, Any]]:
    """Discovery topic -> config, for `sides` scores, the turn and `clocks` clocks."""
    node = node_id(topics.board)
    device = {
        "identifiers": [node],
        "name": f"Tabletop companion {topics.board}",
        "manufacturer": MANUFACTURER,
        "model": game,
    }

    def sensor(object_id: str, name: str, state_topic: str, template: str, **extra: Any) -> None:
        configs[discovery_topic(node, object_id, prefix)] = {
            "name": name,
            "unique_id": f"{node}_{object_id}",
            "state_topic": state_topic,
            "value_template": template,
            "availability_topic": topics.status,
            "payload_available": ONLINE,
            "payload_not_available": OFFLINE,
            "device": device,
            **extra,
        }

    configs: dict[str, dict[str, Any]] = {}
    for side in range(sides):
        sensor(
            f"score_{side}",
            f"Player {side + 1} score",
            topics.state,
            score_template(game, side),
            state_class="measurement",
            icon="mdi:counter",
        )
    sensor("turn", "Whose turn", topics.state, TURN_TEMPLATE, icon="mdi:account-arrow-right")
    for player in range(clocks):
        sensor(
            f"clock_{player}",
            f"Player {player + 1} clock",
            topics.clock,
            clock_template(player),
            icon="mdi:timer-outline",
        )
    return configs


def discovery_messages(
    topics: Topics, *, game: str, sides: int, clocks: int, prefix: str = DISCOVERY_PREFIX
) -> list[Message]:
    """The retained discovery messages of `discovery_configs`."""
    return [
        Message("discovery", topic, encode(config), QOS["discovery"], RETAIN["discovery"])
        for topic, config in discovery_configs(
            topics, game=game, sides=sides, clocks=clocks, prefix=prefix
        ).items()
    ]
