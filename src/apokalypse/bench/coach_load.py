"""``apokalypse loadtest --scenario coach``: the coach asked hard, and nobody else kept waiting.

N one-person games (a person against three ``medium`` computers; the coach is there in a game
against computers only), each open in three tabs of its person, every tab asking the coach
("what would the expert do?") whenever the person decides and the server lets it (one question
per seat at a time, a pace per connection: a refusal is waited out). The person never plays: the
coach is asked the same question again and again, as a worried newcomer would.

Meanwhile, on the same server with the computers paced as people see them (``--computer-delay``
0.6 s):

- *elsewhere*: another person plays three ``medium`` computers, acting as soon as asked. Its
  figure is the wait for its next decision beyond the pacing: from the answer to its action to
  its next decision, less 0.6 s for each computer decision in between;
- *opened*: every ``OPEN_EVERY`` seconds a new tab of that person opens the game; its figure is
  the time to the first message.

Target: both within 1 s, every one; before the coach had a pool of its own, the first took a
median 3.7–15.6 s and an opened game waited 9–28 s for its first message.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from apokalypse.i18n import text

from .load import LoadOptions, percentiles
from .scenarios import (
    TARGETS,
    Machine,
    ScenarioOptions,
    Server,
    headline,
    new_game,
    receive,
    scenario_options,
    started_servers,
    threads,
    timed,
    tokens,
)

PACE = 0.6  # seconds before each computer decision, as people follow the play
TABS = 3  # tabs of each coached person, every one asking
OPEN_EVERY = 2.0  # seconds between two tabs opened on the person playing elsewhere
RETRY = 0.5  # seconds a tab waits after the coach said "busy" or "not so fast"
OPPONENTS = ["medium"] * 3
WARM = 5.0  # seconds of coaching before the window opens (a quarter of a shorter window)
# The refusal of a question that arrived after the decision moved on: the server gives the one
# answer a person asked in a window can give for them (the person never plays), and a tab may
# ask between that question's view and its answer. The server is right; the tab was late.
MOVED_ON = text("server.coach-not-deciding", "en")


@dataclass
class Figures:
    """What the clients saw, each wait in seconds."""

    beyond: list[float] = field(default_factory=list)  # elsewhere: next decision past the pace
    gaps: list[float] = field(default_factory=list)  # elsewhere: the raw wait
    first: list[float] = field(default_factory=list)  # a tab opened: its first message
    advice: list[float] = field(default_factory=list)  # a coach question to its answer
    refused: Counter[str] = field(default_factory=Counter)  # the coach's refusals, by reason
    crossed: int = 0  # questions that crossed the decision moving on (:data:`MOVED_ON`)
    errors: Counter[str] = field(default_factory=Counter)
    decisions: int = 0  # elsewhere: the person's decisions taken
    # Waits not over when the window closes (perf_counter when each began): they count with the
    # time waited so far, as "beyond the pacing" (elsewhere) and "first message" (a tab).
    waiting: dict[str, float] = field(default_factory=dict)
    still: list[float] = field(default_factory=list)  # first messages still awaited at the end
    paced: int = 0  # elsewhere: computer decisions seen since my last answer (each paced)
    unfinished: int = 0  # elsewhere: a wait for the next decision still going at the end


async def coached_tab(server: Server, game_id: str, token: str, figures: Figures) -> None:
    """One tab of a coached person: ask whenever the seat decides and no answer is awaited."""
    async with connect(server.ws(game_id, token), max_size=None) as ws:
        deciding = False
        asked: float | None = None
        while True:
            if deciding and asked is None:
                await ws.send(json.dumps({"type": "advise"}))
                asked = time.perf_counter()
            message = await receive(ws, None)
            kind = message.get("type")
            if kind == "state":
                deciding = bool(message["legal"])
            elif kind == "advice" and asked is not None:
                figures.advice.append(time.perf_counter() - asked)
                asked = None
            elif kind == "refused":
                reason = str(message.get("reason", "?"))
                if reason == MOVED_ON:
                    figures.crossed += 1
                else:
                    figures.refused[reason[:40]] += 1
                await asyncio.sleep(RETRY)  # busy (another tab asked) or a pace: wait it out
                asked = None


async def coached_game(server: Server, figures: Figures) -> None:
    _, created = await timed(
        figures.errors, "create", lambda: new_game(server, ["human", *OPPONENTS])
    )
    if created is None:
        return
    token = tokens(created)[0]
    async with asyncio.TaskGroup() as tabs:
        for _ in range(TABS):
            tabs.create_task(coached_tab(server, str(created["id"]), token, figures))


async def decide(ws: ClientConnection, figures: Figures, window: list[float]) -> None:
    """Play the seat of ``ws`` to its game's end, measuring each wait for the next decision."""
    state = await receive(ws, None)  # however long: a wait past the window counts as it is
    answered: tuple[float, int] | None = None  # when my action was answered, at which move
    while "result" not in state.get("observation", {"result": True}):
        if state.get("type") != "state":
            figures.errors[f"elsewhere: {state.get('type')}"] += 1
            state = await receive(ws, None)
            continue
        move = state["observation"]["move"]
        if state["legal"]:
            figures.waiting.pop("elsewhere", None)
            if answered is not None:
                gap = time.perf_counter() - answered[0]
                computers = max(0, move - answered[1])  # the computers' decisions in between
                if window[0] <= time.monotonic() <= window[1]:
                    figures.gaps.append(gap)
                    figures.beyond.append(max(0.0, gap - PACE * computers))
            await ws.send(
                json.dumps({"type": "action", "action": state["legal"][0]["text"], "move": move})
            )
            figures.decisions += 1
            figures.waiting["elsewhere"] = time.perf_counter()
            while True:  # the answer: the first state past my move
                state = await receive(ws, None)
                if state.get("type") != "state" or state["observation"]["move"] > move:
                    break
            answered = (time.perf_counter(), state["observation"]["move"])
            figures.waiting["elsewhere"] = answered[0]  # … and then for my next decision
            figures.paced = 0
            continue
        if answered is not None:  # the computers' decisions so far, each paced
            figures.paced = max(0, move - answered[1])
        state = await receive(ws, None)


async def elsewhere(server: Server, figures: Figures, window: list[float]) -> None:
    """A person playing computers, game after game, and tabs opened on its game."""
    while True:
        _, created = await timed(
            figures.errors, "create", lambda: new_game(server, ["human", *OPPONENTS])
        )
        if created is None:
            await asyncio.sleep(1.0)
            continue
        game_id, token = str(created["id"]), tokens(created)[0]
        opener = asyncio.create_task(open_tabs(server, game_id, token, figures, window))
        try:
            figures.waiting["elsewhere"] = time.perf_counter()  # for the first decision too
            async with connect(server.ws(game_id, token), max_size=None) as ws:
                await decide(ws, figures, window)
        finally:
            opener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await opener


async def open_tabs(
    server: Server, game_id: str, token: str, figures: Figures, window: list[float]
) -> None:
    for number in itertools.count():
        await asyncio.sleep(OPEN_EVERY)
        began = time.perf_counter()
        key = f"tab {game_id} {number}"
        figures.waiting[key] = began
        try:
            async with connect(server.ws(game_id, token), max_size=None) as ws:
                await receive(ws, None)
        except (OSError, InvalidHandshake, ConnectionClosed) as exc:
            figures.errors[f"open: {type(exc).__name__}"] += 1
            continue
        finally:
            figures.waiting.pop(key, None)
        if window[0] <= time.monotonic() <= window[1]:
            figures.first.append(time.perf_counter() - began)


async def coach_window(server: Server, options: LoadOptions) -> Figures:
    figures = Figures()
    window = [float("inf"), float("inf")]
    with threads(options.games + 8):
        running = [asyncio.create_task(coached_game(server, figures)) for _ in range(options.games)]
        # the coach busy before anything is measured (a short run warms up for less)
        await asyncio.sleep(min(WARM, options.duration / 4))
        window[:] = [time.monotonic(), time.monotonic() + options.duration]
        running.append(asyncio.create_task(elsewhere(server, figures, window)))
        await asyncio.sleep(options.duration)
        window[1] = time.monotonic()
        now = time.perf_counter()
        for key, began in figures.waiting.items():  # still waiting: as long as it waited so far
            if key == "elsewhere":  # less the pacing of the computers' decisions seen meanwhile
                figures.beyond.append(max(0.0, now - began - PACE * figures.paced))
                figures.unfinished += 1
            else:
                figures.still.append(now - began)
        figures.first += figures.still
        for task in running:
            task.cancel()
        for outcome in await asyncio.gather(*running, return_exceptions=True):
            if isinstance(outcome, BaseException) and not isinstance(
                outcome, asyncio.CancelledError
            ):
                figures.errors[f"client: {type(outcome).__name__}"[:80]] += 1
    return figures


def run_coach(options: LoadOptions, more: ScenarioOptions) -> dict[str, Any]:
    machine = Machine()
    with started_servers(options, {"--computer-delay": str(PACE)}) as (targets, flags):
        server = targets[0]
        figures = asyncio.run(coach_window(server, options))
    slowest = max([*figures.beyond, *figures.first], default=None)
    errors = dict(figures.errors)
    met = (
        slowest is not None
        and slowest * 1000 <= TARGETS["coach"]["target"]
        and bool(figures.beyond)
        and bool(figures.first)
        and not errors
    )
    return {
        "scenario": "coach",
        "options": scenario_options(options, more),
        "conditions": machine.finish(),
        "servers": [{"url": server.url, "pid": server.pid, "flags": flags}],
        "figures": {
            "coached_games": options.games,
            "tabs": TABS,
            "pace_s": PACE,
            "beyond_pace": percentiles(figures.beyond),
            "next_decision": percentiles(figures.gaps),
            "first_message": percentiles(figures.first),
            "advice": percentiles(figures.advice),
            "coach_refusals": dict(figures.refused),
            "questions_crossed": figures.crossed,
            "decisions": figures.decisions,
            "unfinished": {"elsewhere": figures.unfinished, "tabs": len(figures.still)},
        },
        "errors": errors,
        "errors_total": sum(errors.values()),
        "headline": headline("coach", None if slowest is None else round(slowest * 1000, 1), met),
    }
