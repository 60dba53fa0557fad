"""``apokalypse loadtest --scenario``: the server's weak spots, each measured against its target.

``play`` (the default) is :mod:`.load`'s load of many games in flight. The others each measure
one way the server used to fail, against a server process (two for ``race``) started here:

- ``idle``: the memory kept by games nobody plays. After start-up and a warm-up (one game played
  to its end over WebSockets, a few created and looked at) the server's RSS is noted; then N
  games (4 seats, every seat ``human``) are created with ``POST /api/games`` and each looked at
  once with ``GET /api/games/{id}``, never opened. The server is given time to release them
  (``--idle-seconds`` shortens its idle release when it takes that option; its own default
  otherwise) and its RSS polled until it is flat for a while, within a deadline. Reported: RSS
  after minus RSS before. Target ≤ 8 MB for 2,000 games.
- ``computers``: a person's answers while the server's computer players think. One 4-player
  game, every seat ``human`` and each played by a client that acts as soon as it is offered a
  decision (all four seats' answers are measured; a finished game is replaced); once it is under
  way, N games with every seat a computer player (``hard``) are created at once. Reported: the
  answers' latency in that window (from the first creation sent until every creation has been
  answered and at least ``--duration`` seconds passed), how long each creation took, and the
  ``GET /api/games/{id}`` probes made meanwhile (every half second, of games their people left,
  which the server no longer holds in memory). Target: every answer within 1 s.
- ``coach``: people asking the coach hard while another plays computers (:mod:`.coach_load`).
- ``race``: a game rebuilt by one process while the other moves it. Two processes (A, B) over a
  fresh PostgreSQL schema and Redis; N two-player games, both seats ``human``. Each is created
  on A and the seat to act connected to A; then, at nearly the same moment, that seat acts on A
  and the other seat connects to B, so that B rebuilds the game from the store while A applies
  the action and publishes it (half the games send the action first, half open B's connection
  first, each after a small random delay). A game is *stalled* when the seat on B is not shown
  what A holds (the same move and the same decisions offered as a connection of that seat to A
  is shown) within ``--stall`` seconds of A's answer. Target: 0 stalled.

Each report states its figure beside the target and the figure measured before the server was
hardened (:data:`TARGETS`), as printed (:func:`.scenario_runs.render`) and in ``--out`` JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import os
import random
import ssl
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .load import (
    CLOSE_RESTART,
    LoadOptions,
    conditions_now,
    cores,
    free_port,
    machine_busy,
    percentiles,
    rss_mb,
    servers,
)

SCENARIOS = ("play", "idle", "computers", "race", "coach")
# What --games means, and its default, for each scenario.
DEFAULT_GAMES = {"play": 200, "idle": 2000, "computers": 6, "race": 100, "coach": 10}
DEFAULT_DURATION = {"play": 60.0, "computers": 30.0, "coach": 60.0}

# The figure each scenario is judged by: its target and what it was before the server was
# hardened (measured on the development machine, as the table of docs/benchmarks.md says).
TARGETS: dict[str, dict[str, Any]] = {
    "idle": {
        "figure": "memory kept by idle games",
        "unit": "MB",
        "target": 8.0,
        "target_text": "≤ 8 MB for 2,000 games",
        "before_text": "18–40 MB for 2,000 games",
    },
    "computers": {
        "figure": "slowest answer to a person while computer games are created",
        "unit": "ms",
        "target": 1000.0,
        "target_text": "every answer within 1 s",
        "before_text": "60 s (and a GET took 65 s)",
    },
    "coach": {
        "figure": "slowest wait beyond the pacing, or for a first message, while the coach is busy",
        "unit": "ms",
        "target": 1000.0,
        "target_text": "every one within 1 s",
        "before_text": "median 3.7–15.6 s for the next decision; 9–28 s for a first message",
    },
    "race": {
        "figure": "games stalled on the rebuilding process",
        "unit": "games",
        "target": 0,
        "target_text": "0 of 100",
        "before_text": "about 1 in 12",
    },
}

HTTP_TIMEOUT = 30.0  # an ordinary request (a GET, a person's game created)
ANSWER_TIMEOUT = 600.0  # an action unanswered this long is an error (before: a minute)
CREATE_TIMEOUT = 900.0  # computers: a creation that plays the whole game may take minutes
WARM_GAMES = 10  # idle: games created and looked at in the warm-up
CREATORS = 8  # idle: creation requests in flight at once
IDLE_SLACK = 15.0  # idle: seconds beyond the idle time before memory is judged (the sweep)
STABLE_SECONDS = 10.0  # idle: RSS within STABLE_MB this long counts as settled
STABLE_MB = 0.5
SETTLE_MORE = 90.0  # idle: the deadline, beyond the earliest moment memory could be judged
POLL = 1.0  # idle: seconds between RSS readings
WARM_ANSWERS = 20  # computers: answers measured before the computer games are created
GET_EVERY = 0.5  # computers: seconds between GET probes …
PROBE_GAMES = 10  # … of these games, in turn
RACE_PARALLEL = 4  # race: games raced at once
RACE_JITTER = 0.005  # race: the other half of the race starts up to this many seconds later
PRELUDE_MOVES = 60  # race: moves played before the race, at most (a longer rebuild on B)


@dataclass(frozen=True)
class ScenarioOptions:
    """What a scenario other than ``play`` takes beyond :class:`LoadOptions`."""

    idle_seconds: float | None = 10.0  # idle: the server's idle release (if it takes the option)
    settle: float | None = None  # idle: the longest wait for memory to settle (None: enough)
    computer: str = "hard"  # computers: the seat kind of the computer games
    stall: float = 5.0  # race: seconds after A's answer for B to show the same


@dataclass(frozen=True)
class Server:
    """A server the clients reach: its address (through the proxy, when there is one), its
    process id (its memory is read from /proc) and the TLS context that trusts it."""

    url: str
    pid: int | None = None
    context: ssl.SSLContext | None = None

    def ws(self, game_id: str, token: str) -> str:
        return f"{self.url.replace('http', 'ws', 1)}/ws/games/{game_id}?token={token}"


class Failed(Exception):
    """A client met an error (counted in the report)."""


# --------------------------------------------------------------------------- requests


def request(
    server: Server, path: str, body: dict[str, Any] | None = None, timeout: float = HTTP_TIMEOUT
) -> Any:
    """GET (or POST ``body`` as JSON to) ``path`` of ``server``; the decoded answer."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if body is not None else {}
    call = urllib.request.Request(f"{server.url}{path}", data, headers)
    with urllib.request.urlopen(call, timeout=timeout, context=server.context) as response:
        return json.loads(response.read())


async def timed(
    errors: Counter[str], what: str, work: Callable[[], Any]
) -> tuple[float, Any | None]:
    """Run blocking ``work`` in a thread: (seconds it took, its result or None on an error)."""
    start = time.perf_counter()
    try:
        result = await asyncio.to_thread(work)
    except urllib.error.HTTPError as exc:
        errors[f"{what}: HTTP {exc.code}"] += 1
        result = None
    except (OSError, ValueError) as exc:
        errors[f"{what}: {type(exc).__name__}"] += 1
        result = None
    return time.perf_counter() - start, result


def new_game(server: Server, seats: list[str], timeout: float = HTTP_TIMEOUT) -> dict[str, Any]:
    body = {"game": "apokalypse", "players": len(seats), "seats": seats}
    created: dict[str, Any] = request(server, "/api/games", body, timeout)
    return created


def tokens(created: dict[str, Any]) -> list[str]:
    return [str(seat.get("token", "")) for seat in created["seats"]]


def games_in_memory(metrics_port: int | None) -> float | None:
    """The server's own count of the games it holds (its Prometheus metrics, served on
    ``127.0.0.1:<metrics_port>`` when it takes ``--metrics-port``); None where it has none."""
    if metrics_port is None:
        return None
    try:
        url = f"http://127.0.0.1:{metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=HTTP_TIMEOUT) as answer:
            text = answer.read().decode(errors="replace")
    except (OSError, ValueError):
        return None
    for line in text.splitlines():
        if line.startswith("apokalypse_games_in_memory "):
            return float(line.split()[1])
    return None


@contextlib.contextmanager
def threads(count: int) -> Iterator[None]:
    """Enough threads for the blocking requests of this event loop: the default pool (a few
    threads on a small machine) would queue a probe behind slow creations and time the queue."""
    pool = ThreadPoolExecutor(count, thread_name_prefix="scenario")
    asyncio.get_running_loop().set_default_executor(pool)
    try:
        yield
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


# --------------------------------------------------------------------------- eager seats


async def receive(ws: ClientConnection, timeout: float | None) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        raw = await ws.recv()
    data: dict[str, Any] = json.loads(raw)
    return data


async def answer_to(ws: ClientConnection, move: int, timeout: float) -> dict[str, Any]:
    """The answer to an action sent at ``move`` (as :func:`.load.answer` judges it: the first
    state past ``move``, bringing events, or no longer asking this seat; or a refusal)."""
    deadline = time.monotonic() + timeout
    while True:
        state = await receive(ws, max(0.0, deadline - time.monotonic()))
        if state.get("type") != "state" or state["observation"]["move"] > move:
            return state
        if state["events"] or not state["legal"]:
            return state


@dataclass
class Answers:
    """The answers a client was given: when each came (``time.time()``) and how long it took;
    and the actions sent but not answered yet (``perf_counter`` when sent), so that an answer
    still awaited when the window ends counts with the time it has waited so far."""

    times: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    pending: dict[tuple[str, int], float] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    refusals: int = 0
    reconnects: int = 0
    games: int = 0
    finished: int = 0


async def eager_seat(
    server: Server, game_id: str, seat: int, token: str, answers: Answers, rng: random.Random
) -> None:
    """Play one seat until its game ends, acting as soon as offered a decision."""
    while True:
        try:
            async with connect(server.ws(game_id, token), max_size=None, ssl=server.context) as ws:
                if await eager_connection(ws, game_id, seat, answers, rng):
                    return
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            if code != CLOSE_RESTART:
                answers.errors[f"closed {code}"] += 1
                raise Failed from None
            answers.reconnects += 1
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            answers.errors[f"connect: {type(exc).__name__}"] += 1
            raise Failed from None


async def eager_connection(
    ws: ClientConnection, game_id: str, seat: int, answers: Answers, rng: random.Random
) -> bool:
    """One connection of an eager seat; True when the game is over."""
    state = await receive(ws, HTTP_TIMEOUT)
    while True:
        if state.get("type") != "state":
            if state.get("type") == "refused":
                answers.refusals += 1
            answers.errors[f"message {state.get('type')!r}"] += 1
            raise Failed
        observation = state["observation"]
        if "result" in observation:
            return True
        if not state["legal"]:
            state = await receive(ws, None)  # the others decide: as long as they take
            continue
        move = observation["move"]
        action = rng.choice(state["legal"])["text"]
        sent = time.perf_counter()
        answers.pending[(game_id, seat)] = sent
        await ws.send(json.dumps({"type": "action", "action": action, "move": move}))
        try:
            state = await answer_to(ws, move, ANSWER_TIMEOUT)
        except TimeoutError:
            answers.errors["no answer"] += 1
            raise Failed from None
        finally:
            answers.pending.pop((game_id, seat), None)
        answers.times.append(time.time())
        answers.latencies.append(time.perf_counter() - sent)


async def eager_game(server: Server, answers: Answers, rng: random.Random) -> str:
    """Create a 4-player game of people and play it to its end with eager seats; its id."""
    _, created = await timed(answers.errors, "create", lambda: new_game(server, ["human"] * 4))
    if created is None:
        raise Failed
    answers.games += 1
    keys = tokens(created)
    async with asyncio.TaskGroup() as group:
        for seat in range(4):
            group.create_task(eager_seat(server, created["id"], seat, keys[seat], answers, rng))
    answers.finished += 1
    return str(created["id"])


async def keep_eager(server: Server, answers: Answers, seed: int) -> None:
    """Games of eager seats, one after another, until cancelled."""
    rng = random.Random(seed)
    while True:
        try:
            await eager_game(server, answers, rng)
        except* Failed:
            await asyncio.sleep(1.0)  # counted; do not hammer a failing server
        except* Exception as problems:  # a slip of the client's own: counted, it goes on
            for problem in problems.exceptions:
                answers.errors[f"client: {type(problem).__name__}: {problem}"[:120]] += 1
            await asyncio.sleep(1.0)


# --------------------------------------------------------------------------- machine


@dataclass
class Machine:
    """How busy the whole machine was over a scenario (other work on it shows here)."""

    busy: float = 0.0
    total: float = 0.0
    conditions: dict[str, Any] = field(default_factory=conditions_now)

    def __post_init__(self) -> None:
        self.busy, self.total = machine_busy()

    def finish(self) -> dict[str, Any]:
        busy, total = machine_busy()
        self.conditions["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
        spent = total - self.total
        self.conditions["machine_cpu_cores"] = (
            round((busy - self.busy) / spent * cores(), 3) if spent > 0 else None
        )
        return self.conditions


def headline(scenario: str, value: float | int | None, met: bool) -> dict[str, Any]:
    return {**TARGETS[scenario], "value": value, "met": met}


def seconds_since(start: float) -> float:
    return round(time.monotonic() - start, 1)


# --------------------------------------------------------------------------- idle


def settle(pid: int, earliest: float, deadline: float) -> tuple[float, bool, list[list[float]]]:
    """Poll ``pid``'s RSS until it has been flat (within STABLE_MB) for STABLE_SECONDS, judged
    no sooner than ``earliest`` seconds from now and no later than ``deadline``: (the last
    reading, whether it settled, the readings as [seconds, MB])."""
    start = time.monotonic()
    readings: list[list[float]] = []
    while True:
        now = time.monotonic() - start
        readings.append([round(now, 1), round(rss_mb(pid), 2)])
        if now >= earliest:
            window = [mb for t, mb in readings if t >= now - STABLE_SECONDS]
            flat = now - readings[0][0] >= STABLE_SECONDS and max(window) - min(window) <= STABLE_MB
            if flat:
                return readings[-1][1], True, readings
        if now >= deadline:
            return readings[-1][1], False, readings
        time.sleep(POLL)


async def create_and_look(
    server: Server, count: int, errors: Counter[str]
) -> tuple[list[float], list[float]]:
    """Create ``count`` games of four people and GET each once; the seconds each took."""
    creations: list[float] = []
    looks: list[float] = []
    queue = iter(range(count))

    async def worker() -> None:
        for _ in queue:
            seconds, created = await timed(
                errors, "create", lambda: new_game(server, ["human"] * 4)
            )
            creations.append(seconds)
            if created is None:
                continue
            path = f"/api/games/{created['id']}"
            seconds, _ = await timed(errors, "get", functools.partial(request, server, path))
            looks.append(seconds)

    with threads(CREATORS + 4):
        await asyncio.gather(*(worker() for _ in range(CREATORS)))
    return creations, looks


async def idle_warm_up(server: Server, errors: Counter[str], seed: int) -> None:
    """One game played to its end over WebSockets, a few created and looked at."""
    answers = Answers()
    try:
        await eager_game(server, answers, random.Random(seed))
    except* Failed:
        pass
    errors.update({f"warm-up {k}": v for k, v in answers.errors.items()})
    await create_and_look(server, WARM_GAMES, errors)


def run_idle(options: LoadOptions, more: ScenarioOptions) -> dict[str, Any]:
    from apokalypse.server.settings import Settings

    machine = Machine()
    extra = {"--idle-seconds": f"{more.idle_seconds:g}"} if more.idle_seconds is not None else {}
    metrics = free_port()
    extra["--metrics-port"] = str(metrics)
    with started_servers(options, extra) as (targets, flags):
        server = targets[0]
        assert server.pid is not None
        errors: Counter[str] = Counter()
        rss_start = rss_mb(server.pid)
        asyncio.run(idle_warm_up(server, errors, options.seed))
        time.sleep(2.0)  # the warm-up game's release and its threads' last work
        rss_before = rss_mb(server.pid)
        begun = time.monotonic()
        creations, looks = asyncio.run(create_and_look(server, options.games, errors))
        created_s = seconds_since(begun)
        rss_peak = rss_mb(server.pid)
        held_peak = games_in_memory(metrics if "--metrics-port" in flags else None)
        # The server releases a game nobody opened after its idle time: the one it was given
        # when it takes the option, its own default otherwise (this build's default).
        given = more.idle_seconds if "--idle-seconds" in flags else None
        idle = given if given is not None else Settings().idle_seconds
        earliest = idle + IDLE_SLACK
        deadline = more.settle if more.settle is not None else earliest + SETTLE_MORE
        rss_after, settled, readings = settle(server.pid, min(earliest, deadline), deadline)
        held = games_in_memory(metrics if "--metrics-port" in flags else None)
    kept = round(rss_after - rss_before, 2)
    target = TARGETS["idle"]["target"]
    return {
        "scenario": "idle",
        "options": scenario_options(options, more),
        "conditions": machine.finish(),
        "servers": [{"url": server.url, "pid": server.pid, "flags": flags}],
        "figures": {
            "games": options.games,
            "warm_up_games": WARM_GAMES + 1,
            "rss_start_mb": round(rss_start, 2),
            "rss_before_mb": round(rss_before, 2),
            "rss_peak_mb": round(rss_peak, 2),
            "rss_after_mb": round(rss_after, 2),
            "kept_mb": kept,
            "kept_kb_per_game": round(kept * 1024 / max(1, options.games), 2),
            "created_in_s": created_s,
            "create": percentiles(creations),
            "get": percentiles(looks),
            "idle_seconds": idle,
            "idle_seconds_given": "--idle-seconds" in flags,
            "settled": settled,
            "waited_s": readings[-1][0],
            "games_in_memory_peak": held_peak,
            "games_in_memory_after": held,
            "rss_readings": readings,
        },
        "errors": dict(errors),
        "errors_total": sum(errors.values()),
        "headline": headline("idle", kept, kept <= target and not errors and settled),
    }


# --------------------------------------------------------------------------- computers


async def probe_gets(
    server: Server,
    game_ids: list[str],
    seconds: list[float],
    errors: Counter[str],
    pending: dict[str, float],
) -> None:
    """GET the games' summaries in turn, one every GET_EVERY seconds, until cancelled; how long
    each took (``pending["get"]``: when the one under way was sent)."""
    for turn in itertools.count():
        path = f"/api/games/{game_ids[turn % len(game_ids)]}"
        # as long as it takes (a starved server took a minute): the time is the figure
        probe = functools.partial(request, server, path, None, ANSWER_TIMEOUT)
        pending["get"] = time.perf_counter()
        took, _ = await timed(errors, "get", probe)
        del pending["get"]
        seconds.append(took)
        await asyncio.sleep(GET_EVERY)


async def left_games(server: Server, count: int, errors: Counter[str]) -> list[str]:
    """Games of people that one of them opened and left: a GET of one finds it in the store
    (the server dropped it from memory when that connection left, or drops it after its idle
    time), not among the games being played."""
    left = []
    for _ in range(count):
        _, created = await timed(errors, "create", lambda: new_game(server, ["human"] * 4))
        if created is None:
            continue
        url = server.ws(created["id"], tokens(created)[0])
        try:
            async with connect(url, max_size=None, ssl=server.context) as ws:
                await receive(ws, HTTP_TIMEOUT)
        except (OSError, InvalidHandshake, ConnectionClosed) as exc:
            errors[f"probe: {type(exc).__name__}"] += 1
            continue
        left.append(str(created["id"]))
    return left


async def computers_window(
    server: Server, options: LoadOptions, more: ScenarioOptions
) -> dict[str, Any]:
    answers = Answers()
    errors: Counter[str] = Counter()
    gets: list[float] = []
    with threads(options.games + 16):
        person = asyncio.create_task(keep_eager(server, answers, options.seed))
        # games left by their people, looked at meanwhile (as the lobby's "my games" would)
        probes = await left_games(server, PROBE_GAMES, errors)
        waited = time.monotonic()
        while len(answers.latencies) < WARM_ANSWERS and time.monotonic() - waited < HTTP_TIMEOUT:
            await asyncio.sleep(0.05)
        if person.done():
            person.result()  # an error of the client itself: raised here
        window_start, begun = time.time(), time.monotonic()
        probing: dict[str, float] = {}
        prober = (
            asyncio.create_task(probe_gets(server, probes, gets, errors, probing))
            if probes
            else None
        )
        kinds = [more.computer] * 4

        async def computer_game() -> tuple[float, dict[str, Any] | None]:
            return await timed(errors, "create", lambda: new_game(server, kinds, CREATE_TIMEOUT))

        creating = [asyncio.create_task(computer_game()) for _ in range(options.games)]
        done, _ = await asyncio.wait(creating, timeout=CREATE_TIMEOUT)
        rest = options.duration - (time.monotonic() - begun)
        if rest > 0:
            await asyncio.sleep(rest)
        window_end, window_s = time.time(), seconds_since(begun)
        # an answer still awaited counts with the time it has waited so far
        still = [time.perf_counter() - sent for sent in answers.pending.values()]
        gets += [time.perf_counter() - sent for sent in probing.values()]
        for running in [person, *([prober] if prober else [])]:
            running.cancel()
        await asyncio.gather(person, *([prober] if prober else []), return_exceptions=True)
        created = [task.result() for task in creating if task in done]
        for task in creating:
            task.cancel()
        # how far the computer games got (after the window: a GET of each)
        progress = []
        for _, game in created:
            if game is not None:
                path = f"/api/games/{game['id']}"
                _, summary = await timed(errors, "get", functools.partial(request, server, path))
                if summary is not None:
                    progress.append({"move": summary.get("move"), "over": summary.get("over")})
    inside = [
        latency
        for when, latency in zip(answers.times, answers.latencies, strict=True)
        if window_start <= when <= window_end
    ] + still
    before = [
        latency
        for when, latency in zip(answers.times, answers.latencies, strict=True)
        if when < window_start
    ]
    errors.update(answers.errors)
    return {
        "computer_games": options.games,
        "computer": more.computer,
        "person_game": "4 seats human, each an eager client (every seat's answers counted)",
        "window_s": window_s,
        "answer": percentiles(inside),
        "answer_unanswered_at_end": len(still),
        "answer_before_window": percentiles(before),
        "creations_s": [round(seconds, 3) for seconds, _ in created],
        "creations_unanswered": options.games - len(created),
        "get": percentiles(gets),
        "computer_games_after": progress,
        "person_games": {"started": answers.games, "finished": answers.finished},
        "refusals": answers.refusals,
        "reconnects": answers.reconnects,
        "errors": dict(errors),
    }


def run_computers(options: LoadOptions, more: ScenarioOptions) -> dict[str, Any]:
    machine = Machine()
    with started_servers(options, {}) as (targets, flags):
        server = targets[0]
        figures = asyncio.run(computers_window(server, options, more))
    errors = figures.pop("errors")
    answer = figures["answer"]
    slowest = answer.get("max_ms")
    met = (
        slowest is not None
        and float(slowest) <= TARGETS["computers"]["target"]
        and not errors
        and figures["creations_unanswered"] == 0
    )
    return {
        "scenario": "computers",
        "options": scenario_options(options, more),
        "conditions": machine.finish(),
        "servers": [{"url": server.url, "pid": server.pid, "flags": flags}],
        "figures": figures,
        "errors": errors,
        "errors_total": sum(errors.values()),
        "headline": headline("computers", slowest, met),
    }


# --------------------------------------------------------------------------- race


def seen(state: dict[str, Any]) -> tuple[int, tuple[str, ...]]:
    """What a seat is shown of the game, to compare two processes' views: the move and the
    decisions it is offered."""
    return state["observation"]["move"], tuple(sorted(entry["text"] for entry in state["legal"]))


@dataclass
class Watcher:
    """The seat that connects to B: every state B sent it, as (monotonic time, what it saw)."""

    seen: list[tuple[float, tuple[int, tuple[str, ...]]]] = field(default_factory=list)
    news: asyncio.Event = field(default_factory=asyncio.Event)
    reconnects: int = 0
    error: str | None = None


async def watch(server: Server, game_id: str, token: str, watcher: Watcher) -> None:
    """Keep a seat connected to ``server`` and note every state it is sent, until cancelled."""
    while True:
        try:
            async with connect(server.ws(game_id, token), max_size=None, ssl=server.context) as ws:
                while True:
                    state = await receive(ws, None)
                    if state.get("type") == "state":
                        watcher.seen.append((time.monotonic(), seen(state)))
                        watcher.news.set()
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            if code != CLOSE_RESTART:
                watcher.error = f"closed {code}"
                watcher.news.set()
                return
            watcher.reconnects += 1
        except (OSError, InvalidHandshake) as exc:
            watcher.error = f"connect: {type(exc).__name__}"
            watcher.news.set()
            return


async def prelude(
    ws: ClientConnection, state: dict[str, Any], moves: int, rng: random.Random
) -> dict[str, Any] | None:
    """Play a seat eagerly until it is offered a decision at ``moves`` or later: that state
    (this seat acts in the race); None when the game ended first."""
    while True:
        if state.get("type") != "state":
            raise Failed(f"prelude: {state.get('type')}")
        observation = state["observation"]
        if "result" in observation:
            return None
        if state["legal"]:
            move = observation["move"]
            if move >= moves:
                return state
            action = rng.choice(state["legal"])["text"]
            await ws.send(json.dumps({"type": "action", "action": action, "move": move}))
            state = await answer_to(ws, move, HTTP_TIMEOUT)
        else:
            state = await receive(ws, None)


async def race_one(
    a: Server, b: Server, number: int, rng: random.Random, stall: float
) -> dict[str, Any]:
    """One game raced: its outcome (``stalled``, how long B took to show A's state …)."""
    created = await asyncio.to_thread(new_game, a, ["human", "human"])
    game_id, keys = str(created["id"]), tokens(created)
    order = "act first" if number % 2 == 0 else "connect first"
    delay = rng.uniform(0.0, RACE_JITTER)
    moves = rng.randint(0, PRELUDE_MOVES)
    opened: list[ClientConnection] = []
    watching: asyncio.Task[None] | None = None
    watcher = Watcher()

    async def open_seat(server: Server, seat: int) -> tuple[ClientConnection, dict[str, Any]]:
        ws = await connect(server.ws(game_id, keys[seat]), max_size=None, ssl=server.context)
        opened.append(ws)
        return ws, await receive(ws, HTTP_TIMEOUT)

    try:
        # Both seats on A play the game some way in (a longer game takes B longer to rebuild);
        # the one offered a decision then acts in the race, the other leaves A for B.
        seats = [await open_seat(a, seat) for seat in (0, 1)]
        playing = [asyncio.create_task(prelude(ws, state, moves, rng)) for ws, state in seats]
        done, _ = await asyncio.wait(playing, return_when=asyncio.FIRST_COMPLETED)
        first = done.pop()
        actor = playing.index(first)
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        state = first.result()
        if state is None:
            return {"game": game_id, "order": order, "error": "over before the race"}
        other = 1 - actor
        actor_ws = seats[actor][0]
        await seats[other][0].close()
        move = state["observation"]["move"]
        action = rng.choice(state["legal"])["text"]
        message = json.dumps({"type": "action", "action": action, "move": move})

        def watch_b() -> asyncio.Task[None]:
            return asyncio.create_task(watch(b, game_id, keys[other], watcher))

        if order == "act first":
            await actor_ws.send(message)
            await asyncio.sleep(delay)
            watching = watch_b()
        else:
            watching = watch_b()
            await asyncio.sleep(delay)
            await actor_ws.send(message)
        answer = await answer_to(actor_ws, move, HTTP_TIMEOUT)
        answered = time.monotonic()
        if answer.get("type") != "state":
            return {"game": game_id, "order": order, "error": f"refused: {answer}"[:200]}
        # what A holds for the other seat: a connection of that seat to A is shown it
        _, truth = await open_seat(a, other)
        wanted = seen(truth)
        caught: float | None = None
        while caught is None and watcher.error is None:
            caught = next((when for when, view in watcher.seen if view == wanted), None)
            left = answered + stall - time.monotonic()
            if caught is not None or left <= 0:
                break
            watcher.news.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await watcher.news.wait()
    finally:
        if watching is not None:
            watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watching
        for ws in opened:
            with contextlib.suppress(Exception):
                await ws.close()
    first_view = watcher.seen[0][1] if watcher.seen else None
    return {
        "game": game_id,
        "order": order,
        "delay_ms": round(delay * 1000, 2),
        "prelude_moves": moves,
        "move": move,
        "stalled": caught is None,
        # from A's answer (0: B showed it first)
        "caught_up_ms": round(max(0.0, caught - answered) * 1000, 1)
        if caught is not None
        else None,
        # B's first view behind A's: B read the store before A's action was in it (the window)
        "behind_at_first": first_view is not None and first_view != wanted,
        "b_shown_move": watcher.seen[-1][1][0] if watcher.seen else None,
        "a_move": wanted[0],
        "reconnects": watcher.reconnects,
        "error": watcher.error,
    }


async def race_all(
    a: Server, b: Server, options: LoadOptions, more: ScenarioOptions
) -> list[dict[str, Any]]:
    rng = random.Random(options.seed)
    gate = asyncio.Semaphore(RACE_PARALLEL)

    async def one(number: int) -> dict[str, Any]:
        async with gate:
            try:
                return await race_one(a, b, number, random.Random(rng.random()), more.stall)
            except Exception as exc:  # counted as that game's error, the others go on
                return {"game": None, "order": None, "error": f"{type(exc).__name__}: {exc}"[:200]}

    with threads(RACE_PARALLEL * 2 + 4):
        return await asyncio.gather(*(one(number) for number in range(options.games)))


def run_race(options: LoadOptions, more: ScenarioOptions) -> dict[str, Any]:
    machine = Machine()
    scaled = LoadOptions(**{**asdict(options), "scaled": True})
    begun = time.monotonic()
    with started_servers(scaled, {}) as (targets, flags):
        a, b = targets
        games = asyncio.run(race_all(a, b, options, more))
    raced = [game for game in games if game.get("error") is None]
    stalled = [game for game in raced if game["stalled"]]
    errors = Counter(str(game["error"]).split(":")[0] for game in games if game.get("error"))
    caught = [game["caught_up_ms"] / 1000 for game in raced if game["caught_up_ms"] is not None]
    orders = {
        order: {
            "games": sum(1 for g in raced if g["order"] == order),
            "stalled": sum(1 for g in stalled if g["order"] == order),
            "behind_at_first": sum(
                1 for g in raced if g["order"] == order and g["behind_at_first"]
            ),
        }
        for order in ("act first", "connect first")
    }
    return {
        "scenario": "race",
        "options": scenario_options(options, more),
        "conditions": machine.finish(),
        "servers": [
            {"url": server.url, "pid": server.pid, "flags": flags, "role": role}
            for server, role in zip(targets, ("A", "B"), strict=True)
        ],
        "figures": {
            "games": options.games,
            "raced": len(raced),
            "stalled": len(stalled),
            "stalled_share": round(len(stalled) / len(raced), 4) if raced else None,
            "behind_at_first": sum(1 for g in raced if g["behind_at_first"]),
            "caught_up": percentiles(caught),
            "by_order": orders,
            "stall_after_s": more.stall,
            "took_s": seconds_since(begun),
            "stalled_games": [
                {k: g[k] for k in ("game", "order", "delay_ms", "move", "b_shown_move", "a_move")}
                for g in stalled
            ],
            "reconnects": sum(g.get("reconnects", 0) for g in raced),
            "each": games,
        },
        "errors": dict(errors),
        "errors_total": sum(errors.values()),
        "headline": headline("race", len(stalled), not stalled and not errors and bool(raced)),
    }


# --------------------------------------------------------------------------- common


@contextlib.contextmanager
def started_servers(
    options: LoadOptions, extra: dict[str, str]
) -> Iterator[tuple[list[Server], list[str]]]:
    """The scenario's server processes (:func:`.load.servers`, with ``extra`` options where
    they are taken), behind nginx with TLS when ``options.proxy`` (one in front of each, so that
    each process can be reached on its own): as :class:`Server`, and the options they were
    given."""
    from .load import LOOSE_LIMITS, behind_proxy, serve_flags, server_env

    flags = serve_flags({**LOOSE_LIMITS, **extra}, server_env(options))
    with servers(options, extra) as targets, contextlib.ExitStack() as stack:
        reached = (
            stack.enter_context(behind_proxy(targets, each=True)) if options.proxy else targets
        )
        yield (
            [
                Server(there.url, target.pid, there.tls())
                for there, target in zip(reached, targets, strict=True)
            ],
            flags,
        )


def scenario_options(options: LoadOptions, more: ScenarioOptions) -> dict[str, Any]:
    return {**asdict(options), "urls": list(options.urls), **asdict(more)}
