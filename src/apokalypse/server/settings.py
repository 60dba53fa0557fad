"""What an operator may set of a server (``apokalypse serve``'s options), in one place.

Every bound a client could otherwise push on (games in memory, games created per client,
connections per game) is here with a default meant for a server among friends on a small machine.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    # The address people reach the server at (``https://games.example.org``): invite links and
    # redirects use it. None: the address each request came to (behind a trusted proxy, the one
    # its forwarded headers name).
    public_url: str | None = None
    max_games: int = 2000  # games held in memory at once; beyond, the least recently used idle go
    idle_seconds: float = 120.0  # a game with no connection this long is dropped from memory
    create_burst: int = 20  # games one client address may create at once …
    create_per_minute: float = 20.0  # … and per minute after that
    max_connections: int = 64  # connections to one game (seats' tabs and spectators)
    computer_threads: int = 1  # threads the computer players think on (apart from people's)
    # Seconds between the decisions of a game no person is connected to (only computers play,
    # or spectators watch): such a game waits for no one, and should not keep a core busy.
    computer_pace: float = 0.25
