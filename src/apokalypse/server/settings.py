"""What an operator may set of a server (``apokalypse serve``'s options), in one place.

Every bound a client could otherwise push on (games in memory, games created per client,
connections per game) is here with a default meant for a server among friends on a small machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from apokalypse.bots.levels import EXPERT_ITERATIONS

# The push services of the browsers people use (Chrome and its kin, Firefox, Safari, Edge), as
# origins ("*." any name under a domain): a subscription's endpoint must be at one of these.
PUSH_SERVICES = (
    "https://fcm.googleapis.com",
    "https://updates.push.services.mozilla.com",
    "https://web.push.apple.com",
    "https://*.notify.windows.com",
)


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
    # Seconds before each computer decision in a game somebody is connected to, so that people
    # can follow the computers' play: every computer decision alike, shown or in a window (a
    # pause before some only would tell which). 0 in the lab and the tests.
    computer_delay: float = 0.6
    # An automatic answer (a window's question a person cannot but decline, answered for
    # them) comes after a delay drawn uniformly from this range: when it comes looks like a
    # quick person's answer.
    answer_delay: tuple[float, float] = (0.8, 2.5)
    # "My games" asks where its person is awaited (POST /api/seats): requests per client address
    # at once, and per minute after that (a stored game asked about is replayed).
    seats_burst: int = 10
    seats_per_minute: float = 12.0
    # The coach ("what would the expert do?", coach.py): the expert level's iterations, capped
    # in seconds, and how often one connection may ask (at once, and per minute after that).
    coach_iterations: int = EXPERT_ITERATIONS
    coach_seconds: float = 5.0
    coach_burst: int = 3
    coach_per_minute: float = 10.0
    # The coach thinks on a thread of its own, never the computer players' (a question takes
    # seconds: ten of them ahead of a computer's decision kept its people waiting that long).
    # Questions waiting or thought about at once: in all, and from one client address.
    coach_threads: int = 1
    coach_in_flight: int = 6
    coach_per_address: int = 2
    # The largest replay made, in bytes unzipped (replays.py): a 600-action 6-player game's is
    # some 250 KB, a 3,000-action one of a deck at its bounds (2,000 cards a back under
    # 24-character codes) some 2 MB. A larger one is refused as it passes the bound.
    replay_bytes: int = 4 << 20

    # Web Push (pushes.py): the seconds a decision must wait before its person is pushed (a game
    # played live, in its tab, never buzzes); the push services a browser's subscription may
    # name (endpoints starting with one of these: the server sends requests there and nowhere
    # else), and the contact the server's VAPID signature names (RFC 8292: mailto: or https:).
    push_grace: float = 60.0
    push_services: tuple[str, ...] = PUSH_SERVICES
    push_contact: str = "mailto:apokalypse@localhost"

    def answer_after(self) -> float:
        """Seconds before an automatic answer (drawn from the system's randomness: no seed of
        the game's, nothing a player could predict)."""
        low, high = self.answer_delay
        return _chance.uniform(low, high)


_chance = random.SystemRandom()
