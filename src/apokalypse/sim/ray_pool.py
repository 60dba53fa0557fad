"""A run's games on a Ray cluster: the same chunks as local worker processes (:mod:`.runner`),
handed to Ray tasks, one CPU each.

``address`` is what ``ray.init`` takes: ``None`` starts a Ray instance on this machine with
``jobs`` CPUs (and stops it at the end); ``"auto"`` joins the cluster started on this machine with
``ray start``; ``"HOST:PORT"`` or ``"ray://HOST:PORT"`` joins a cluster elsewhere, whose nodes must
have this package installed (the same version: the games are played there).
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any, TypeVar

from apokalypse.engine.errors import ConfigError

from .runner import IN_FLIGHT_PER_JOB, POLL_SECONDS, Outcome, Stop, Task, chunks, lost, run_chunk

CONNECT_SECONDS = 5.0
T = TypeVar("T")
R = TypeVar("R")


def _ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "--ray needs Ray, an optional part: pip install 'apokalypse[ray]'"
        ) from None
    return ray


def _reachable(address: str) -> None:
    """Refuse an address nobody answers at in seconds, with its reason; ``ray.init`` itself
    would wait a minute or more before it gives up."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ConfigError(f"--ray {address!r}: give HOST:PORT, ray://HOST:PORT, auto or local")
    try:
        socket.create_connection((host.strip("[]"), int(port)), CONNECT_SECONDS).close()
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise ConfigError(f"--ray {address}: cannot reach a Ray cluster there ({why})") from None


def connect(address: str | None, jobs: int) -> tuple[ModuleType, bool]:
    """Ray, connected; True when this call started the Ray instance (and so must stop it)."""
    ray = _ray()
    if ray.is_initialized():
        return ray, False
    options: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,  # the workers' prints are not the run's output
        "logging_level": logging.ERROR,
    }
    if address is None:
        ray.init(address="local", num_cpus=jobs, **options)  # a new instance, never a found one
        return ray, True
    if address != "auto":
        _reachable(address)
    try:
        ray.init(address=address, **options)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ConfigError(f"--ray {address}: cannot join the Ray cluster ({line})") from None
    return ray, False


@contextmanager
def connected(address: str | None, jobs: int) -> Iterator[ModuleType]:
    """Ray, connected for a run (:func:`connect`); a Ray instance started here is stopped when
    the run ends, however it ends."""
    ray, started = connect(address, jobs)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def ray_outcomes(
    ray: ModuleType, tasks: Iterator[Task], jobs: int, stop: Stop, chunk: int
) -> Iterator[Outcome]:
    """Every game's outcome as soon as its chunk is finished on the cluster (``ray``, connected
    by :func:`connect`; in any order), until the tasks run out or a stop is requested; then the
    chunks under way finish."""
    cpus = max(1, int(ray.cluster_resources().get("CPU", jobs)))
    play = ray.remote(num_cpus=1, max_retries=0)(run_chunk)
    hand_outs = chunks(tasks, chunk)
    pending: dict[Any, tuple[Task, ...]] = {}
    while True:
        while not stop.requested and len(pending) < cpus * IN_FLIGHT_PER_JOB:
            next_chunk = next(hand_outs, None)
            if next_chunk is None:
                break
            pending[play.remote(next_chunk)] = next_chunk
        if not pending:
            break
        done, _ = ray.wait(list(pending), num_returns=1, timeout=POLL_SECONDS)
        for ref in done:
            finished = pending.pop(ref)
            try:
                yield from ray.get(ref)
            except ray.exceptions.RayError as exc:  # a worker or node died with the chunk
                why = f"Ray worker failed ({type(exc).__name__})"
                yield from (lost(task, why) for task in finished)


def ray_map(
    ray: ModuleType, work: Callable[[T], R], items: Iterator[T], jobs: int, stop: Stop
) -> Iterator[R]:
    """``work(item)`` of every item as Ray tasks (one CPU each), each result as soon as it is
    done (in any order), until the items run out or a stop is requested. A task that fails
    fails the run: unlike a game of a study, a result left out would change what is learned."""
    cpus = max(1, int(ray.cluster_resources().get("CPU", jobs)))
    remote = ray.remote(num_cpus=1, max_retries=1)(work)
    pending: list[Any] = []
    while True:
        while not stop.requested and len(pending) < cpus * IN_FLIGHT_PER_JOB:
            item = next(items, None)
            if item is None:
                break
            pending.append(remote.remote(item))
        if not pending:
            return
        done, pending = ray.wait(pending, num_returns=1, timeout=POLL_SECONDS)
        for ref in done:
            yield ray.get(ref)
