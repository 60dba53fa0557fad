"""``apokalypse replay``: show a recorded game as one seat (or a spectator) saw it, or verify that
it replays exactly (same events digest, same result).

The log shows events only, each through ``Event.view(seat)``: action texts are not shown because
some name cards that others may not see (``play m/hp good`` tells which front a face-down
populace has; ``defend`` tells who held a defence card; ``discard 7h`` in a hidden hand). Events
are rendered by the game's terminal adapter (:mod:`.ui`), whichever game the record holds; what
happened before the first decision (an Apokerlypse deal) is numbered #0.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import typer

from apokalypse.engine.errors import ConfigError, EngineError, RecordError
from apokalypse.engine.events import Event
from apokalypse.engine.record import GameRecord, apply_recorded, replay, start
from apokalypse.engine.registry import get_game

from .safe import printable
from .ui import make_ui

LANGS = ("en", "de")
SEAT_KEYS = frozenset({"actor", "seat", "target", "dest", "attacker", "startup", "owner", "dealer"})
SIDES = ("good", "evil")
PLANES = ("heaven", "earth", "nether")

# render(events, seat, lang, names) -> lines: the game's catalogue text.
Renderer = Callable[[list[Event], int | None, str, list[str]], list[str]]


def run_replay(file: Path, verify: bool, seat: int | None, lang: str) -> None:
    if lang not in LANGS:
        raise ConfigError(f"--lang must be one of {', '.join(LANGS)}, not {lang!r}")
    record = GameRecord.load(file)
    if verify:
        _verify(file, record)
    else:
        _log(record, seat, lang)


def _verify(file: Path, record: GameRecord) -> None:
    problem = _difference(record)
    if problem is not None:
        where = printable(str(file))
        print(f"error: {where}: replay differs from the record: {printable(problem)}",
              file=sys.stderr)  # fmt: skip
        raise typer.Exit(1)
    print(f"ok: {printable(str(file))}: {len(record.actions)} actions replay exactly"
          " (events and result match)")  # fmt: skip


def _difference(record: GameRecord) -> str | None:
    """What differs between the record and its replay, in one line (None: nothing)."""
    older = _older_rules(record)
    try:
        rep = replay(record)
    except RecordError as exc:
        return f"{exc}{older}"
    except Exception as exc:  # a hostile record must not crash --verify: it differs, say how
        return f"it does not replay ({type(exc).__name__}: {exc})"
    if record.events_sha256 is None:
        return "the record has no events digest to compare with"
    if rep.digest != record.events_sha256:
        ours = rep.digest[:12]
        return f"events digest {ours}… instead of {record.events_sha256[:12]}…{older}"
    result = rep.state.result
    got = result.to_json() if result is not None else None
    if got != record.result:
        return f"result {_short(got)} instead of {_short(record.result)}"
    return None


def _older_rules(record: GameRecord) -> str:
    """A note when the record was written by another version of the game's rules, which may
    play out differently (the version is part of the digest)."""
    try:
        version = get_game(record.game).version
    except EngineError:
        return ""
    if record.version == version:
        return ""
    return f" (recorded with version {printable(record.version)} of the rules, this is {version})"


def _short(result: Mapping[str, object] | None) -> str:
    """A result in one line, whatever the game puts in it."""
    if result is None:
        return "none (game not over)"
    return " ".join(f"{key} {value}" for key, value in result.items())


def _log(record: GameRecord, seat: int | None, lang: str) -> None:
    game, state = start(record)
    players = state.observation(None)["players"]
    if seat is not None and not 1 <= seat <= players:
        raise ConfigError(f"--seat must be 1–{players} in this {players}-player game, not {seat}")
    viewer = None if seat is None else seat - 1
    names = [f"p{q + 1}" for q in range(players)]
    ui = make_ui(record.game, record.config, lang)

    def render(batch: list[Event], who: int | None, _lang: str, labels: list[str]) -> list[str]:
        return ui.render_events(batch, who, labels)  # the adapter was made for ``lang``

    who = "spectator" if viewer is None else names[viewer]
    # No seed here: it rebuilds every hand and the deck order, and a record may be a save of
    # a game still running. A finished game shows it at the end.
    print(f"{record.game} v{printable(record.version)}, {players} players, seen by {who}")
    if record.meta.get("error"):  # written by `simulate` for a game that failed
        print(f"note: the game stopped early: {printable(str(record.meta['error']))}")
    # Event texts come from the record (a custom deck's card names): escaped like the rest.
    for line in _lines(list(state.opening), viewer, lang, names, render):
        print(f"#{0:<4} {printable(line)}")
    digest = record.start_digest(state.opening)
    for i, text in enumerate(record.actions, 1):
        events = apply_recorded(game, state, i, text)
        digest.add(events)
        for line in _lines(events, viewer, lang, names, render):
            print(f"#{i:<4} {printable(line)}")
    result = state.result
    if result is None:
        print("(the record ends before the game does)")
    else:
        print(f"result: {printable(ui.result_line(result.to_json(), names))}")
        print(f"seed: {record.seed}")
    if record.events_sha256 is not None and digest.hexdigest() != record.events_sha256:
        print("warning: the events differ from the record (see --verify)")


def _lines(events: list[Event], viewer: int | None, lang: str, names: list[str],
           render: Renderer | None) -> list[str]:  # fmt: skip
    if render is not None and events:
        try:
            return render(events, viewer, lang, names)
        except Exception:  # a catalogue gap must not stop a replay: fall back to plain text
            pass
    lines: list[str] = []
    deals: dict[int, list[str]] = {}  # a round's deal is one line, not one per card
    for event in events:
        view = event.view(viewer)
        if view.kind == "deal" and "back" in view.args:  # an Apokalypse deal: one card
            deals.setdefault(view.args["target"], []).append(
                view.args.get("card", view.args["back"])
            )
            continue
        if deals:
            lines.append(_deal_line(deals, names))
            deals = {}
        lines.append(
            " ".join([view.kind, *(f"{k}={_plain(k, v, names)}" for k, v in view.args.items())])
        )
    if deals:
        lines.append(_deal_line(deals, names))
    return lines


def _deal_line(deals: dict[int, list[str]], names: list[str]) -> str:
    return "deal " + "; ".join(f"{names[q]} {' '.join(cards)}" for q, cards in deals.items())


def _plain(key: str, value: object, names: list[str]) -> str:
    if key in SEAT_KEYS and isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    if key == "side" and value in (0, 1):
        return SIDES[value]
    if key == "plane" and value in (0, 1, 2):
        return PLANES[value]
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)
