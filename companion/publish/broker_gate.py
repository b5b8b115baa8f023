"""Who may do what on the embedded broker (amqtt plugins; companion/publish/broker.py loads
them by name, and only when a login for the table is given):

- the table logs in as TABLE_USER with its password and may publish and subscribe;
- anyone else (a display page, a phone, anonymous or with any other name) may subscribe and
  receive, and publish nothing: a forged state, a retained message of any size, a will
  under the table's topics all go nowhere;
- TABLE_USER with a wrong password is refused at CONNECT;
- nobody but the table may take over the table's client id (companion/publish/broker.py).

docs/mqtt.md shows the same rules as a mosquitto configuration.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from amqtt.contexts import Action
from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin
from amqtt.session import Session

TABLE_USER = "table"


def is_table(session: Session | None, password: str) -> bool:
    """Whether `session` logged in as the table, with its password."""
    if session is None or session.username != TABLE_USER or not password:
        return False
    given = (session.password or "").encode()
    return hmac.compare_digest(given, password.encode())


class TableLogin(BaseAuthPlugin):  # type: ignore[misc]
    """Lets everyone in, but TABLE_USER only with the table's password."""

    @dataclass
    class Config:
        password: str = ""

    async def authenticate(self, *, session: Session) -> bool:
        if session.username == TABLE_USER:
            return is_table(session, self.config.password)
        # A visitor's Last Will would be published in its name when it drops: none.
        session.will_flag = False
        session.is_anonymous = True
        return True


class ReadOnlyVisitors(BaseTopicPlugin):  # type: ignore[misc]
    """Only the table publishes; everyone may subscribe and receive."""

    @dataclass
    class Config:
        password: str = ""

    async def topic_filtering(
        self,
        *,
        session: Session | None = None,
        topic: str | None = None,
        action: Action | None = None,
    ) -> bool:
        if action == Action.PUBLISH:
            return is_table(session, self.config.password)
        return True
