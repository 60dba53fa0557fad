"""``apokalypse loadtest``: many games played at once against real server processes.

K four-player Apokalypse games, every seat a person's (``human``), each seat played by a computer
client over a real WebSocket, as a browser would: it waits for a state that offers it ``legal``
actions, "thinks" for a while, sends one (chosen at random, seeded) and times the answer (the
next state message that connection is sent). A game that ends is replaced by a new one, so K
stay in flight. What is measured after a warm-up: actions per second, the answer's latency
(p50/p90/p99/max), the hand-over (from an action to the next deciding seat's state: with two
processes that state crossed the Redis fan-out whenever that seat is on the other process),
refusals and errors (both must be 0), and, sampled every few seconds, each server's resident
memory (VmRSS) and CPU, the clients' own CPU and the whole machine's, so that a run on a busy
machine says so.

The think time is uniform in ``think·(1 ± jitter)``: 1 s ± 50 % by default. People take
several seconds over a card; one second is a deliberately hard load (about K actions per second)
that still leaves each game's pace human, not a flood from a script.

Servers: started here (one on a fresh SQLite file; ``scaled``: two over a fresh PostgreSQL
schema and Redis, each game's seats split across both, so every hand-over between the two
halves crosses the fan-out), or given by URL (then no memory or CPU is sampled).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import multiprocessing
import os
import random
import secrets
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from apokalypse.sim.provenance import commit

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
CLIENT_YOUNG = 50_000  # allocations between the load client's young collections
REDIS = "redis://127.0.0.1:6379/0"
START_SECONDS = 60.0  # a server's start, migrations included
CLOSE_RESTART = 1012  # the server rebuilt the game: connect again (app.CLOSE_RESTART)
FLAT_MB_PER_10MIN = 5.0  # a slope under this over the measured window counts as flat memory
CLIENT_BOUND_CORES = 0.8  # a client process busier than this may be slowing its own timings
STOP_SECONDS = 15.0  # the clients' wait for their games to stop at the end
LAG_TICK = 0.05  # the event-loop lag probe's period
LATE_MS = 20.0  # a client loop waking later than this (p99) adds that much to its timings


@dataclass(frozen=True)
class LoadOptions:
    games: int = 200
    duration: float = 60.0
    warmup: float = 10.0
    think: float = 1.0
    jitter: float = 0.5
    seed: int = 0
    scaled: bool = False
    urls: tuple[str, ...] = ()
    sample: float = 5.0
    timeout: float = 30.0  # an action unanswered this long is an error
    client_processes: int = 1
    postgres_url: str = POSTGRES
    redis_url: str = REDIS
    scenario: str = "play"  # or one of bench.scenarios' (idle, computers, race)
    proxy: bool = False  # the clients reach the servers through nginx with TLS (bench.proxy)
    server_src: str | None = None  # run the servers from this source tree (PYTHONPATH)
    # The clients answer the questions the server answers for them too, as a person clicking
    # "decline" just as the automatic answer comes: one of the two is refused (counted, not an
    # error), and no connection may be closed for it.
    race_answers: bool = False


@dataclass(frozen=True)
class Target:
    """One server process: its base URL and, when started here, its pid; behind the TLS
    proxy, the proxy's URL and the certificate its clients trust."""

    url: str
    pid: int | None = None
    cafile: str | None = None

    def ws(self, game_id: str, token: str) -> str:
        return f"{self.url.replace('http', 'ws', 1)}/ws/games/{game_id}?token={token}"

    def tls(self) -> ssl.SSLContext | None:
        """The TLS context that trusts this target's certificate (None: plain HTTP)."""
        return trusting(self.cafile) if self.cafile is not None else None


@functools.cache
def trusting(cafile: str) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=cafile)


# --------------------------------------------------------------------------- servers


def apokalypse_program() -> Path:
    return Path(sys.executable).with_name("apokalypse")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def free_ports(count: int) -> list[int]:
    """``count`` different free ports (a port just closed may be handed out again)."""
    ports: list[int] = []
    while len(ports) < count:
        port = free_port()
        if port not in ports:
            ports.append(port)
    return ports


def answers(url: str) -> bool:
    try:
        urllib.request.urlopen(f"{url}/api/games/none", timeout=1)
    except urllib.error.HTTPError as exc:
        return exc.code == 404  # the app is up and says "no such game"
    except OSError:
        return False
    return False


@dataclass
class Started:
    """A server process started here and the URL it listens at."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path


# The server's bounds on what one client may do (``apokalypse serve``'s options, when it has
# them), loosened: every client of a benchmark comes from one address, and the games it keeps in
# flight must not be evicted for being many.
LOOSE_LIMITS = {
    "--create-per-minute": "1000000",
    "--create-burst": "100000",
    "--max-games": "1000000",
    "--computer-delay": "0",  # the computers at full speed: a benchmark measures the server
    # … and its automatic answers after a short pause (0.8-2.5 s by default, so that nobody can
    # tell them from a person's): in a short window, a game would otherwise idle on them.
    "--answer-delay": "0.05 0.3",
}


def server_env(options: LoadOptions) -> dict[str, str] | None:
    """The environment of the servers started here: ``server_src`` first on PYTHONPATH (to
    measure another version of the server, a copy of ``src/``), or None (this one's)."""
    if options.server_src is None:
        return None
    return {**os.environ, "PYTHONPATH": str(Path(options.server_src).resolve())}


def serve_flags(wanted: dict[str, str], env: dict[str, str] | None = None) -> list[str]:
    """Those of ``wanted`` (option → its value, or its values apart by spaces) that ``apokalypse
    serve`` takes, as arguments: a server older than an option is started without it."""
    taken = serve_options((env or {}).get("PYTHONPATH"))
    return [
        part
        for option, value in wanted.items()
        if option in taken
        for part in (option, *value.split())
    ]


@functools.cache
def serve_options(pythonpath: str | None) -> frozenset[str]:
    """The words of ``apokalypse serve --help`` (its options among them), once per source."""
    env = {**os.environ, "COLUMNS": "400", "NO_COLOR": "1"}
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    shown = subprocess.run(
        [str(apokalypse_program()), "serve", "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    ).stdout
    return frozenset(word.strip(",.;:()[]│") for word in shown.split())


@contextlib.contextmanager
def server_process(
    database_url: str,
    log: Path,
    redis_url: str | None = None,
    prefix: str | None = None,
    extra: Sequence[str] = (),
    env: dict[str, str] | None = None,
    port: int | None = None,
) -> Iterator[Started]:
    port = free_port() if port is None else port
    command = [str(apokalypse_program()), "serve", "--port", str(port)]
    command += ["--database-url", database_url]
    if redis_url is not None and prefix is not None:
        command += ["--redis-url", redis_url, "--channel-prefix", prefix]
    command += extra
    # stderr into a file, never a pipe: an unread pipe that fills up would stall the server.
    with log.open("wb") as errors:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, env=env)
    try:
        yield Started(process, f"http://127.0.0.1:{port}", log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_ready(started: Sequence[Started]) -> None:
    deadline = time.monotonic() + START_SECONDS
    for server in started:
        while not answers(server.url):
            if server.process.poll() is not None:
                log = server.log.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"the server ended: {log}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not answer within {START_SECONDS} s")
            time.sleep(0.1)
    for server in started:  # answered, but by itself? (another process may hold its port)
        if server.process.poll() is not None:
            log = server.log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"the server ended, another answers at {server.url}: {log}")


@contextlib.contextmanager
def servers(options: LoadOptions, extra: dict[str, str] | None = None) -> Iterator[list[Target]]:
    """The servers to load: those of ``options.urls``, or one (two when scaled) started here,
    with the loose limits and ``extra`` options (those the server takes: :func:`serve_flags`)."""
    if options.urls:
        yield [Target(url.rstrip("/")) for url in options.urls]
        return
    env = server_env(options)
    flags = serve_flags({**LOOSE_LIMITS, **(extra or {})}, env)
    with (
        tempfile.TemporaryDirectory(prefix="apokalypse-load-") as folder,
        contextlib.ExitStack() as stack,
    ):
        logs = [Path(folder, f"server{i}.log") for i in range(2 if options.scaled else 1)]
        if options.scaled:
            # SQLAlchemy only when a database is made here
            from apokalypse.server.tables import fresh_schema

            database = stack.enter_context(fresh_schema(options.postgres_url, "load"))
            prefix = f"apokalypse-load:{secrets.token_hex(6)}:"
            started = [
                stack.enter_context(
                    server_process(database, log, options.redis_url, prefix, flags, env, port)
                )
                for log, port in zip(logs, free_ports(len(logs)), strict=True)
            ]
        else:
            database = f"sqlite:///{Path(folder, 'load.sqlite3')}"
            started = [stack.enter_context(server_process(database, logs[0], extra=flags, env=env))]
        wait_ready(started)
        yield [Target(server.url, server.process.pid) for server in started]


@contextlib.contextmanager
def behind_proxy(targets: Sequence[Target], each: bool = False) -> Iterator[list[Target]]:
    """A real nginx with TLS in front of ``targets`` (:mod:`.proxy`, the deployed site file,
    a self-signed certificate for 127.0.0.1): one in front of them all, balancing as deployed
    (``each``: one in front of each), as the targets the clients reach then."""
    from apokalypse.engine.errors import ConfigError

    from .proxy import ProxyError, nginx, self_signed

    with (
        tempfile.TemporaryDirectory(prefix="apokalypse-proxy-") as folder,
        contextlib.ExitStack() as stack,
    ):
        try:
            cert, key = self_signed(Path(folder), "127.0.0.1")
            reached = []
            for group in [[t] for t in targets] if each else [list(targets)]:
                upstreams = [t.url.removeprefix("http://") for t in group]
                https, http = free_ports(2)
                proxy = stack.enter_context(
                    nginx(upstreams, "127.0.0.1", https, http, cert, key, "127.0.0.1")
                )
                pid = group[0].pid if len(group) == 1 else None
                reached.append(Target(proxy.url, pid, str(cert)))
        except ProxyError as exc:
            raise ConfigError(f"--proxy: {exc}") from None
        yield reached


def reach(
    options: LoadOptions, targets: Sequence[Target]
) -> contextlib.AbstractContextManager[list[Target]]:
    """The targets the clients reach: through the proxy when asked for, else the servers."""
    if options.proxy:
        return behind_proxy(targets)
    return contextlib.nullcontext(list(targets))


# --------------------------------------------------------------------------- sampling


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy() -> tuple[float, float]:
    """Busy and total CPU seconds of the whole machine so far (all cores, /proc/stat)."""
    with open("/proc/stat") as stat:
        numbers = [int(x) for x in stat.readline().split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    idle = numbers[3] + numbers[4]  # idle and iowait
    return (sum(numbers) - idle) / ticks, sum(numbers) / ticks


class Sampler(threading.Thread):
    """Every ``period`` seconds: each server's RSS and CPU, the clients' CPU, the machine's.

    A thread reading /proc, so it works whether the clients run in this process or in others."""

    def __init__(
        self, servers: Sequence[int], clients: Sequence[int], period: float, start: float
    ) -> None:
        super().__init__(daemon=True)
        self.servers = list(servers)
        self.clients = list(clients)
        self.period = period
        self.start_time = start
        self.samples: list[dict[str, Any]] = []
        self.stopping = threading.Event()

    def cpu(self, pids: Sequence[int]) -> list[float]:
        values = []
        for pid in pids:
            try:
                values.append(cpu_seconds(pid))
            except OSError:  # a client process already gone
                values.append(0.0)
        return values

    def run(self) -> None:
        last_time = time.time()
        last_servers, last_clients = self.cpu(self.servers), self.cpu(self.clients)
        last_busy, last_total = machine_busy()
        while not self.stopping.wait(self.period):
            now = time.time()
            servers, clients = self.cpu(self.servers), self.cpu(self.clients)
            busy, total = machine_busy()
            wall = now - last_time
            self.samples.append(
                {
                    "t": round(now - self.start_time, 2),
                    "rss_mb": [round(rss_mb(pid), 1) for pid in self.servers],
                    "server_cpu": [
                        round((a - b) / wall, 3) for a, b in zip(servers, last_servers, strict=True)
                    ],
                    "client_cpu": round(
                        sum(max(0.0, a - b) for a, b in zip(clients, last_clients, strict=True))
                        / wall,
                        3,
                    ),
                    # cores busy on the whole machine, ours included
                    "machine_cpu": round((busy - last_busy) / (total - last_total) * cores(), 3),
                    "loadavg": os.getloadavg()[0],
                }
            )
            last_time, last_servers, last_clients = now, servers, clients
            last_busy, last_total = busy, total


def cores() -> int:
    return os.cpu_count() or 1


# --------------------------------------------------------------------------- clients


@dataclass
class Tally:
    """What one client process saw. Times are wall-clock (``time.time()``) so that several
    client processes' tallies line up; latencies are from ``time.perf_counter()``."""

    action_times: array[float] = field(default_factory=lambda: array("d"))
    latencies: array[float] = field(default_factory=lambda: array("d"))
    action_slots: array[int] = field(default_factory=lambda: array("i"))  # whose action
    handoffs: array[float] = field(default_factory=lambda: array("d"))
    crossings: array[float] = field(default_factory=lambda: array("d"))  # via the fan-out
    lags: array[float] = field(default_factory=lambda: array("d"))
    refusals: int = 0
    refusal_reasons: Counter[str] = field(default_factory=Counter)
    raced: Counter[str] = field(default_factory=Counter)  # refusals of --race-answers, by reason
    errors: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    started: int = 0
    finished: int = 0
    game_actions: list[int] = field(default_factory=list)  # measured actions of each game
    cpu_seconds: float = 0.0


@dataclass
class Game:
    """One game being played: shared by its four seats' clients."""

    id: str
    tokens: list[str]
    slot: int
    sent_at: float = 0.0  # perf_counter of the last action sent
    sent_move: int = -1  # the move that action was sent for
    sent_where: int = 0  # the server process that action was sent to
    actions: int = 0  # measured actions
    over: bool = False


class Failed(Exception):
    """A game's client met an error (counted); the game is abandoned and replaced."""


@dataclass
class Run:
    """One client process's part of the load."""

    options: LoadOptions
    targets: list[Target]
    measure_from: float  # time.time() when the warm-up ends
    stop_at: float  # time.time() when the run ends
    tally: Tally = field(default_factory=Tally)

    def measuring(self) -> bool:
        return time.time() >= self.measure_from

    def think(self, rng: random.Random) -> float:
        spread = self.options.think * self.options.jitter
        return max(0.0, rng.uniform(self.options.think - spread, self.options.think + spread))


def post_json(
    url: str, body: dict[str, Any], timeout: float, context: ssl.SSLContext | None = None
) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout, context=context) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


async def create_game(run: Run, target: Target, slot: int) -> Game:
    body = {"game": "apokalypse", "players": 4, "seats": ["human"] * 4}
    try:
        # urllib in a thread: creating games is rare next to playing them
        data = await asyncio.to_thread(
            post_json, f"{target.url}/api/games", body, run.options.timeout, target.tls()
        )
    except (OSError, ValueError) as exc:
        run.tally.errors[f"create: {type(exc).__name__}"] += 1
        raise Failed from None
    return Game(data["id"], [seat["token"] for seat in data["seats"]], slot)


async def receive(ws: ClientConnection, timeout: float | None) -> dict[str, Any]:
    # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a cancellation that
    # meets a message arriving, and a client that ignores the end of the run hangs it.
    async with asyncio.timeout(timeout):
        raw = await ws.recv()
    data: dict[str, Any] = json.loads(raw)
    return data


async def play_seat(run: Run, game: Game, seat: int, target: Target, rng: random.Random) -> None:
    """One seat's client until the game ends; reconnects when the server rebuilt the game."""
    while not game.over:
        try:
            url = target.ws(game.id, game.tokens[seat])
            async with connect(url, max_size=None, ssl=target.tls()) as ws:
                await play_connection(run, game, run.targets.index(target), ws, rng)
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            if code != CLOSE_RESTART:
                run.tally.errors[f"closed {code}"] += 1
                raise Failed from None
            run.tally.reconnects += 1
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            run.tally.errors[f"connect: {type(exc).__name__}"] += 1
            raise Failed from None


async def play_connection(
    run: Run, game: Game, where: int, ws: ClientConnection, rng: random.Random
) -> None:
    """Play one connection of a seat (to server ``where``) until the game ends."""
    state = await receive(ws, run.options.timeout)
    while True:
        if state.get("type") == "refused":
            reason = str(state.get("rule") or state.get("reason"))[:120]
            if run.options.race_answers:  # expected: counted apart, the client goes on
                run.tally.raced[reason] += 1
                state = await receive(ws, None)
                continue
            run.tally.refusals += 1
            run.tally.refusal_reasons[reason] += 1
            raise Failed
        if state.get("type") != "state":
            run.tally.errors[f"message {state.get('type')!r}"] += 1
            raise Failed
        observation = state["observation"]
        if "result" in observation:
            game.over = True
            return
        forced = answered_for_me(state)
        if forced:  # the server's own pause lies ahead: no hand-off to time
            game.sent_move = -1
        if not state["legal"] or (forced and not run.options.race_answers):
            state = await receive(ws, None)  # others decide: wait as long as they take
            continue
        handoff(run, game, observation["move"], where)
        await asyncio.sleep(run.think(rng))
        action = rng.choice(state["legal"])["text"]  # its notation, as sent back
        sent = time.perf_counter()
        game.sent_at, game.sent_move, game.sent_where = sent, observation["move"], where
        await ws.send(json.dumps({"type": "action", "action": action, "move": observation["move"]}))
        state = await answer(run, ws, observation["move"])
        if run.measuring() and state.get("type") == "state":
            run.tally.action_times.append(time.time())
            run.tally.latencies.append(time.perf_counter() - sent)
            run.tally.action_slots.append(game.slot)
            game.actions += 1


ANSWERS = frozenset({"decline", "allow"})  # the verbs that answer a window's question


def answered_for_me(state: dict[str, Any]) -> bool:
    """Whether the server answers this question for the seat (as the browser's page leaves it
    to: a window's question it cannot but decline, its automatic answers on). A client that
    answered it too would race the server's answer, and be refused when it came second."""
    legal = state["legal"]
    return state.get("auto") is True and len(legal) == 1 and legal[0].get("verb") in ANSWERS


async def answer(run: Run, ws: ClientConnection, move: int) -> dict[str, Any]:
    """The server's answer to an action sent at ``move``: a refusal, or the state after it,
    the first state that moved past ``move``, brought events, or no longer asks this seat. Not
    simply "the first past ``move``": in a defence window the players not asked, the one who just
    declined included, see the move frozen where the window opened and nothing new (R-INFO-3).
    A state sent because another seat connected (same move, no events, still asking) is none."""
    deadline = time.monotonic() + run.options.timeout
    while True:
        try:
            state = await receive(ws, max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            run.tally.errors["no answer"] += 1
            raise Failed from None
        if state.get("type") != "state" or state["observation"]["move"] > move:
            return state
        if state["events"] or not state["legal"]:
            return state


def handoff(run: Run, game: Game, move: int, where: int) -> None:
    """A seat is offered a decision after an action: time from that action's sending. When
    that seat is on another process than the action's, the state came through the fan-out."""
    if game.sent_move >= 0 and move > game.sent_move and run.measuring():
        delay = time.perf_counter() - game.sent_at
        run.tally.handoffs.append(delay)
        if where != game.sent_where:
            run.tally.crossings.append(delay)
        game.sent_move = -1  # once per action: the first seat offered a decision


async def keep_playing(run: Run, slot: int, delay: float) -> None:
    """One of the K game slots: a game, and when it ends (or fails) the next one."""
    await asyncio.sleep(delay)
    number = 0
    while time.time() < run.stop_at:
        first = (slot + number) % len(run.targets)  # scaled: creation alternates too
        game: Game | None = None
        try:
            game = await create_game(run, run.targets[first], slot)
            run.tally.started += 1
            await play_game(run, game, first, number)
            run.tally.finished += 1
        except Failed:
            await asyncio.sleep(1.0)  # an error: do not hammer a failing server
        finally:
            if game is not None:
                run.tally.game_actions.append(game.actions)
        number += 1


async def play_game(run: Run, game: Game, first: int, number: int) -> None:
    """The four seats of a game, seat i on server ``first + i``; when one fails, the others
    are stopped too (a task group), so that a slot never has more than one game going."""
    failed = False
    try:
        async with asyncio.TaskGroup() as group:
            for seat in range(4):
                target = run.targets[(first + seat) % len(run.targets)]
                rng = random.Random(hash((run.options.seed, game.slot, number, seat)))
                group.create_task(play_seat(run, game, seat, target, rng))
    except* Failed:
        failed = True
    except* Exception as problems:  # a slip of the client's own: counted, the slot goes on
        for problem in problems.exceptions:
            run.tally.errors[f"client: {type(problem).__name__}: {problem}"[:120]] += 1
        failed = True
    if failed:
        raise Failed


async def probe_lag(run: Run) -> None:
    """How late the client's event loop wakes up: a busy client delays its own timings."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        if run.measuring():
            run.tally.lags.append(time.perf_counter() - before - LAG_TICK)


async def drive(run: Run, slots: Sequence[int]) -> Tally:
    """Play the given game slots until the run's end; what was seen."""
    # The client's own collector pauses would be timed as the server's answers (its loop lag
    # told them: p99 40-71 ms with Python's defaults under 200 games). Its memory is no figure
    # of the benchmark, so its collector runs rarely: what exists now is frozen out of its walks
    # and young objects are collected every 50,000 allocations, not 700 (loop lag p99 ~3 ms).
    gc.collect()
    gc.freeze()
    gc.set_threshold(CLIENT_YOUNG, *gc.get_threshold()[1:])
    ramp = min(run.options.warmup / 2, 0.02 * len(slots) * run.options.client_processes)
    step = ramp / max(1, len(slots))
    cpu_before = time.process_time()
    lag = asyncio.create_task(probe_lag(run))
    tasks = [
        asyncio.create_task(keep_playing(run, slot, index * step))
        for index, slot in enumerate(slots)
    ]
    await asyncio.sleep(max(0.0, run.stop_at - time.time()))
    for task in [*tasks, lag]:
        task.cancel()
    # A bounded wait: the report matters more than a client that will not stop.
    _, stuck = await asyncio.wait([*tasks, lag], timeout=STOP_SECONDS)
    if stuck:
        run.tally.errors["client: did not stop"] += len(stuck)
    run.tally.cpu_seconds = time.process_time() - cpu_before
    return run.tally


def drive_in_process(run: Run, slots: list[int]) -> Tally:
    return asyncio.run(drive(run, slots))


@contextlib.contextmanager
def client_processes(count: int) -> Iterator[ProcessPoolExecutor | None]:
    """``count`` client processes, started and ready (None: the clients run in this one)."""
    if count <= 1:
        yield None
        return
    # spawn, not fork: forking a process that runs threads (asyncio's, the sampler) is unsafe
    with ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("spawn")) as pool:
        # one sleeping task each starts every worker now, before the clock: a spawned
        # process takes a second or two to import, which must not eat the warm-up
        list(pool.map(time.sleep, [0.5] * count))
        yield pool


def client_pids(pool: ProcessPoolExecutor | None) -> list[int]:
    if pool is None:
        return [os.getpid()]
    return list(pool._processes)  # the pool offers no public list of its pids


def play_all(run: Run, pool: ProcessPoolExecutor | None) -> list[Tally]:
    """All K slots, in this process or split over the pool's processes."""
    slots = list(range(run.options.games))
    if pool is None:
        return [drive_in_process(run, slots)]
    count = run.options.client_processes
    futures = [pool.submit(drive_in_process, run, slots[i::count]) for i in range(count)]
    return [future.result() for future in futures]


# --------------------------------------------------------------------------- report


def percentiles(values: Sequence[float]) -> dict[str, float | int]:
    """Count, p50/p90/p99, max and mean in milliseconds (nearest-rank percentiles)."""
    if not values:
        return {"count": 0}
    ordered = sorted(values)

    def rank(p: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, round(p * len(ordered)) - 1))]

    return {
        "count": len(ordered),
        "p50_ms": round(rank(0.50) * 1000, 2),
        "p90_ms": round(rank(0.90) * 1000, 2),
        "p99_ms": round(rank(0.99) * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 2),
    }


def slope_per_10min(points: Sequence[tuple[float, float]]) -> float | None:
    """Least-squares slope of (seconds, MB) points, in MB per 10 minutes."""
    if len(points) < 3:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return None
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread
    return round(slope * 600, 2)


def merge(tallies: Sequence[Tally]) -> Tally:
    total = Tally()
    for tally in tallies:
        total.action_times.extend(tally.action_times)
        total.latencies.extend(tally.latencies)
        total.action_slots.extend(tally.action_slots)
        total.handoffs.extend(tally.handoffs)
        total.crossings.extend(tally.crossings)
        total.lags.extend(tally.lags)
        total.refusals += tally.refusals
        total.refusal_reasons.update(tally.refusal_reasons)
        total.raced.update(tally.raced)
        total.errors.update(tally.errors)
        total.reconnects += tally.reconnects
        total.started += tally.started
        total.finished += tally.finished
        total.game_actions.extend(tally.game_actions)
        total.cpu_seconds += tally.cpu_seconds
    return total


def interval_figures(
    samples: list[dict[str, Any]], tally: Tally, start: float, period: float
) -> None:
    """Add each sample's actions/s, games that acted (in flight) and answer p99 over its
    interval: latency over time, to see a slow drift in a soak."""
    actions = sorted(zip(tally.action_times, tally.latencies, tally.action_slots, strict=True))
    index = 0
    for sample in samples:
        end = start + sample["t"]
        window: list[float] = []
        slots: set[int] = set()
        while index < len(actions) and actions[index][0] < end:
            if actions[index][0] >= end - period:
                window.append(actions[index][1])
                slots.add(actions[index][2])
            index += 1
        if window:
            sample["actions_per_s"] = round(len(window) / period, 1)
            sample["in_flight"] = len(slots)
            sample["p99_ms"] = percentiles(window).get("p99_ms")


def server_figures(
    targets: Sequence[Target], samples: list[dict[str, Any]], warmup: float
) -> list[dict[str, Any]]:
    figures = []
    for index, target in enumerate(targets):
        entry: dict[str, Any] = {"url": target.url, "pid": target.pid}
        if target.pid is not None and samples:
            measured = [s for s in samples if s["t"] > warmup] or samples
            rss = [(s["t"], s["rss_mb"][index]) for s in measured]
            entry["rss_mb"] = {
                "start": rss[0][1],
                "end": rss[-1][1],
                "max": max(r for _, r in rss),
                "slope_mb_per_10min": slope_per_10min(rss),
            }
            entry["cpu_cores"] = round(
                statistics.fmean(s["server_cpu"][index] for s in measured), 3
            )
        figures.append(entry)
    return figures


def build_report(
    options: LoadOptions,
    targets: Sequence[Target],
    tally: Tally,
    samples: list[dict[str, Any]],
    conditions: dict[str, Any],
) -> dict[str, Any]:
    measured = [s for s in samples if s["t"] > options.warmup] or samples
    client_cpu = statistics.fmean(s["client_cpu"] for s in measured) if measured else None
    measured_seconds = options.duration
    answer = percentiles(tally.latencies)
    errors = sum(tally.errors.values())
    servers = server_figures(targets, samples, options.warmup)
    slopes = [
        s["rss_mb"]["slope_mb_per_10min"]
        for s in servers
        if "rss_mb" in s and s["rss_mb"]["slope_mb_per_10min"] is not None
    ]
    lag = percentiles(tally.lags)
    flights = [s["in_flight"] for s in measured if "in_flight" in s]
    per_process_cpu = (client_cpu or 0.0) / max(1, options.client_processes)
    return {
        "options": {**asdict(options), "urls": list(options.urls)},
        "conditions": conditions,
        "games": {
            "concurrent": options.games,
            "in_flight_avg": round(statistics.fmean(flights), 1) if flights else None,
            "started": tally.started,
            "finished": tally.finished,
            "without_progress": sum(1 for n in tally.game_actions if n == 0),
            "min_actions": min(tally.game_actions, default=0),
        },
        "actions": {
            "count": len(tally.latencies),
            "per_s": round(len(tally.latencies) / measured_seconds, 1),
        },
        "answer": answer,
        "handoff": percentiles(tally.handoffs),
        "crossing": percentiles(tally.crossings),
        "refusals": tally.refusals,
        "refusal_reasons": dict(tally.refusal_reasons.most_common(10)),
        "errors": dict(tally.errors),
        "errors_total": errors,
        "reconnects": tally.reconnects,
        "raced_refusals": dict(tally.raced.most_common(10)),
        "servers": servers,
        "clients": {
            "processes": options.client_processes,
            "cpu_cores": round(client_cpu, 3) if client_cpu is not None else None,
            "loop_lag": lag,
            # a client process near a full core delays its own reading of the answers
            # Busy itself: the clients compete with the server for the cores.
            "bound": per_process_cpu > CLIENT_BOUND_CORES,
            # Woken late though not busy: the machine is (other work), and every latency
            # measured here may carry that lateness too.
            "late": float(lag.get("p99_ms", 0)) > LATE_MS,
        },
        "samples": samples,
        "verdict": {
            "p99_under_50ms": float(answer.get("p99_ms", float("inf"))) <= 50.0,
            "no_refusals_or_errors": tally.refusals == 0 and errors == 0,
            "memory_flat": bool(slopes) and max(slopes) <= FLAT_MB_PER_10MIN,
        },
    }


def conditions_now() -> dict[str, Any]:
    return {
        "commit": commit(),
        "cores": cores(),
        "loadavg_before": [round(x, 2) for x in os.getloadavg()],
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def run_load(options: LoadOptions) -> dict[str, Any]:
    """Start (or reach) the servers, play for warm-up plus duration, and report."""
    conditions = conditions_now()
    with (
        servers(options) as targets,
        reach(options, targets) as reached,
        client_processes(options.client_processes) as pool,
    ):
        start = time.time()
        run = Run(
            options, reached, start + options.warmup, start + options.warmup + options.duration
        )
        pids = [t.pid for t in targets if t.pid is not None]
        sampler = Sampler(pids, client_pids(pool), options.sample, start)
        sampler.start()
        try:
            tallies = play_all(run, pool)
        finally:
            sampler.stopping.set()
            sampler.join()
    tally = merge(tallies)
    conditions["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
    conditions["machine_cpu_cores"] = (
        round(statistics.fmean(s["machine_cpu"] for s in sampler.samples), 3)
        if sampler.samples
        else None
    )
    interval_figures(sampler.samples, tally, start, options.sample)
    report = build_report(options, targets, tally, sampler.samples, conditions)
    if options.proxy:  # one nginx balancing over every server: which one a seat got is unknown
        report["proxy"] = {"url": reached[0].url, "upstreams": [t.url for t in targets]}
    return report


# --------------------------------------------------------------------------- output


def render(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="apokalypse loadtest", show_header=True)
    table.add_column("figure")
    table.add_column("value", justify="right")
    options, games = report["options"], report["games"]
    table.add_row(
        "servers",
        str(len(report["servers"]))
        + (" (scaled)" if options["scaled"] else "")
        + (" behind nginx with TLS" if report.get("proxy") else ""),
    )
    table.add_row(
        "games in flight",
        f"{games['concurrent']} (started {games['started']}, finished {games['finished']})",
    )
    table.add_row("think", f"{options['think']} s ± {options['jitter'] * 100:.0f} %")
    table.add_row("measured", f"{options['duration']} s after {options['warmup']} s warm-up")
    table.add_row("actions/s", str(report["actions"]["per_s"]))
    for name in ("answer", "handoff", "crossing"):
        figures = report[name]
        if figures["count"]:
            table.add_row(
                f"{name} p50/p90/p99/max",
                f"{figures['p50_ms']} / {figures['p90_ms']} / {figures['p99_ms']} /"
                f" {figures['max_ms']} ms",
            )
    table.add_row("refusals / errors", f"{report['refusals']} / {report['errors_total']}")
    table.add_row("connections closed to reconnect (1012)", str(report["reconnects"]))
    if report["options"].get("race_answers"):
        raced = report["raced_refusals"]
        table.add_row("raced answers refused (expected)", str(sum(raced.values())))
        for problem, count in raced.items():
            table.add_row(f"  {problem}", str(count))
    for problem, count in [*report["refusal_reasons"].items(), *report["errors"].items()]:
        table.add_row(f"  {problem}", str(count))
    for index, server in enumerate(report["servers"]):
        if "rss_mb" in server:
            rss = server["rss_mb"]
            table.add_row(
                f"server {index} RSS",
                f"{rss['start']} → {rss['end']} MB (max {rss['max']},"
                f" {rss['slope_mb_per_10min']} MB/10 min)",
            )
            table.add_row(f"server {index} CPU", f"{server['cpu_cores']} cores")
    clients = report["clients"]
    lag = clients["loop_lag"]
    table.add_row(
        "client CPU",
        f"{clients['cpu_cores']} cores in {clients['processes']} process(es),"
        f" loop lag p99 {lag.get('p99_ms', '-')} ms"
        + (" [CLIENT-BOUND]" if clients["bound"] else "")
        + (" [late: machine busy]" if clients["late"] and not clients["bound"] else ""),
    )
    conditions = report["conditions"]
    table.add_row(
        "machine",
        f"{conditions['cores']} cores, {conditions.get('machine_cpu_cores')} busy on average,"
        f" load {conditions['loadavg_before'][0]} → {conditions['loadavg_after'][0]},"
        f" commit {conditions['commit']}",
    )
    verdict = report["verdict"]
    table.add_row(
        "verdict",
        ", ".join(f"{name}: {'yes' if ok else 'NO'}" for name, ok in verdict.items()),
    )
    Console().print(table)


def run_loadtest(options: LoadOptions, out: Path | None) -> None:
    report = run_load(options)
    render(report)
    if out is not None:
        out.write_text(json.dumps(report, indent=1) + "\n")
