"""The command line every benchmark shares: `--help` prints what it measures (its module's
docstring) instead of starting the work.

    parser = options(__doc__)          # add a benchmark's own options to it, then
    args = parser.parse_args(argv)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def options(doc: str | None) -> argparse.ArgumentParser:
    return argparse.ArgumentParser(
        prog=f"bench/{Path(sys.argv[0]).name}",
        description=doc,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
