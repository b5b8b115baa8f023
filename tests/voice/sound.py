"""What sox measures of a WAV file: its length and loudness."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Sound:
    seconds: float
    rms: float
    """Root-mean-square amplitude, 0..1."""


def measure(wav: Path) -> Sound:
    done = subprocess.run(["sox", str(wav), "-n", "stat"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    figures = dict(re.findall(r"^(.+?):\s+(\S+)$", done.stderr, re.MULTILINE))
    return Sound(float(figures["Length (seconds)"]), float(figures["RMS     amplitude"]))
