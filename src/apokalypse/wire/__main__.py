"""``python -m apokalypse.wire [DIR]``: write every game's wire schema (default: ``schema/``)."""

from __future__ import annotations

import sys
from pathlib import Path

from . import write_schemas

if __name__ == "__main__":
    for path in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "schema")):
        print(path)
