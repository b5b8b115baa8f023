"""Every rule id the engine can refuse with is explained in docs/memwars-rules.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_refusal_ids_are_documented() -> None:
    source = (ROOT / "companion/games/memwars/engine.py").read_text()
    used = set(re.findall(r'IllegalAction\(\s*"(MW-[A-Z]+\d+)"', source))
    used |= set(re.findall(r'"(MW-[A-Z]+\d+)",\s*"', source))
    docs = (ROOT / "docs/memwars-rules.md").read_text()
    section = docs.split("## Rule ids in refusals", 1)[1]
    documented = set(re.findall(r"^\| (MW-[A-Z]+\d+) \|", section, flags=re.MULTILINE))
    assert used, "no rule ids found in the engine"
    assert used <= documented, sorted(used - documented)
