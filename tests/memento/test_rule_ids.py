"""Every rule id the memento ludis engine can refuse with is explained in
docs/memento-rules.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_refusal_ids_are_documented() -> None:
    source = (ROOT / "companion/games/memento/engine.py").read_text()
    used = set(re.findall(r'IllegalAction\(\s*"(ML-[A-Z]+[0-9.a-z]*)"', source))
    docs = (ROOT / "docs/memento-rules.md").read_text()
    section = docs.split("## Rule ids in refusals", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| (ML-[A-Z]+[0-9.a-z]*) \|", section, flags=re.MULTILINE))
    assert len(used) >= 10
    assert used <= documented, sorted(used - documented)


def test_every_house_rule_key_is_documented() -> None:
    from companion.games.memento.rules import HOUSE_RULES

    docs = (ROOT / "docs/memento-rules.md").read_text()
    for rule in HOUSE_RULES:
        assert f"`{rule.key}`" in docs
        for value in rule.choices:
            assert f"`{value}`" in docs, (rule.key, value)
