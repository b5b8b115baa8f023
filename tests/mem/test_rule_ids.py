"""Every rule id the MeM engine can refuse with is explained in docs/mem-rules.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_refusal_ids_are_documented() -> None:
    source = (ROOT / "companion/games/mem/engine.py").read_text()
    used = set(re.findall(r'IllegalAction\(\s*"(MEM-[A-Z]+[0-9.a-z]*)"', source))
    docs = (ROOT / "docs/mem-rules.md").read_text()
    section = docs.split("## Rule ids in refusals", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| (MEM-[A-Z]+[0-9.a-z]*) \|", section, flags=re.MULTILINE))
    assert len(used) >= 10
    assert used <= documented, sorted(used - documented)
