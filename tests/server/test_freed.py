"""A WebSocket leaves no cycle behind it. The served process runs the collector in generations
of time (``server/memory.py``): what lives a second is frozen out of its walks, and a cycle
frozen so waits for the ten-minute sweep. The HTTP protocol that upgraded a connection to a
WebSocket was such a cycle (its parser calls back into it), holding the transport and, once the
WebSocket closed, all it had kept: about 80 KB a connection (``docs/benchmarks.md``)."""

from __future__ import annotations

import gc
from pathlib import Path

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.sync.client import connect

from tests.helpers import create

from .inprocess import WAIT, serving, wait_until

CONNECTIONS = 5


def test_a_websocket_leaves_no_http_protocol_for_the_collector(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'games.sqlite'}") as running:
        created = create(running, seats=["human", "human"])
        game_id, token = created["id"], created["seats"][0]["token"]
        gc.collect()
        gc.disable()  # nothing is collected but by the check below
        try:
            for _ in range(CONNECTIONS):
                with connect(running.ws(game_id, token)) as ws:
                    ws.recv(timeout=WAIT)  # upgraded and served: the room sent its first message
            wait_until(
                lambda: running.call(lambda: running.hub.connection_count() == 0),
                "the server saw every connection close",
            )
            gc.set_debug(gc.DEBUG_SAVEALL)  # keep what a collection finds, to look at it
            gc.collect()
            left = [o for o in gc.garbage if isinstance(o, HttpToolsProtocol)]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
    assert left == [], f"{len(left)} of {CONNECTIONS} upgrading protocols were left in cycles"
