"""The benchmarks, in one layer just below the commands: the engine's speed in both builds
(:mod:`.engine`, ``apokalypse bench``, with a game's own figures in its own module:
:mod:`.apokerlypse`), the lab's (:mod:`.lab`, ``bench-lab``), the learning interfaces'
(:mod:`.rl`, ``bench-rl``) and the online server's under load (:mod:`.load`, ``loadtest``).

They measure the layers below and change nothing in them; what a game adds to them is named by
its registry entry (``engine/registry.py``)."""

from __future__ import annotations

import json
import platform

from apokalypse._build import build_info


def printed_as_json(data: dict[str, object], json_out: bool) -> bool:
    """Stamp a benchmark's figures with the Python and the build of the rules that made them,
    and print them as JSON when asked (True: printed, the tables are not wanted)."""
    data["python"] = platform.python_version()
    data["build"] = build_info()["build"]
    if json_out:
        print(json.dumps(data, indent=2))
    return json_out
