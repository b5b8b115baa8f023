"""What the app's alerts put on the stream: public facts only."""

from __future__ import annotations

import pytest

from companion.launch.app import stream_alerts as _stream_alerts
from companion.table.views import AlertView


class Stream:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str, str | None]] = []

    def alert(self, text: str, level: str = "warning", rule: str | None = None) -> None:
        self.sent.append((text, level, rule))


def test_table_alerts_go_out_with_their_rule_and_a_wrong_card_without_its_number() -> None:
    stream = Stream()
    _stream_alerts(
        stream,
        (
            AlertView("13", "place 13: it is Ann's turn, not Bo's (MW-SM1)", "MW-SM1", False),
            AlertView(
                "card", "card 12 is not the card the rules expect now (card 17)", "cards", False
            ),
        ),
    )
    (table, card) = stream.sent
    assert table == ("place 13: it is Ann's turn, not Bo's (MW-SM1)", "warning", "MW-SM1")
    assert "12" not in card[0] and "17" not in card[0] and card[2] == "cards"


def test_nothing_is_sent_when_no_game_is_streamed() -> None:
    _stream_alerts(None, (AlertView("13", "x", "MW-SM1", False),))


def test_the_app_with_no_screen_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main
    from companion.launch import app as app_cmd

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(app_cmd, "_has_kms", lambda: False)
    assert main(["app"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error: no screen to draw on") and err.count("\n") == 1


def test_table_work_the_rules_ask_for_is_not_news_to_spectators() -> None:
    stream = Stream()
    _stream_alerts(
        stream,
        (AlertView("14", "place 14: the rules put a blue crystal here (MW-SM1)", "MW-SM1", True),),
    )
    assert stream.sent == []
