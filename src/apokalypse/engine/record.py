"""Game records: ``(game, version, config, seed, actions)`` — the save file, the replay, the bug
report. A record also carries a digest of every event, so a replay can prove it reproduced them."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import EngineError, RecordError
from .events import Event
from .protocol import Game, GameState
from .registry import get_game

FORMAT = 1


class EventDigest:
    """A running SHA-256 over the events' JSON forms."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()

    def add(self, events: list[Event]) -> None:
        for event in events:
            self._hash.update(json.dumps(event.to_json(), sort_keys=True).encode())
            self._hash.update(b"\n")

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


@dataclass
class GameRecord:
    game: str
    version: str
    config: dict[str, Any]
    seed: int
    actions: list[str] = field(default_factory=list)
    events_sha256: str | None = None
    result: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)  # who played, language…; replay ignores it

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "version": self.version,
            "config": self.config,
            "seed": self.seed,
            "actions": self.actions,
            "events_sha256": self.events_sha256,
            "result": self.result,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"unsupported record format {data.get('format')!r} (expected 1)")
        for name, kind in (("game", str), ("version", str), ("config", dict), ("seed", int)):
            if not isinstance(data.get(name), kind):
                raise RecordError(f"record field {name!r} is missing or not a {kind.__name__}")
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("record field 'actions' must be a list of action texts")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("record field 'meta' must be an object")
        return cls(
            data["game"],
            data["version"],
            data["config"],
            data["seed"],
            list(actions),
            data.get("events_sha256"),
            data.get("result"),
            meta,
        )

    def save(self, path: str | Path) -> None:
        """Write atomically: a crash mid-write never leaves half a file."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(self.to_json(), fh, indent=1)
                fh.write("\n")
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text("utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {str(path)!r}: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"{str(path)!r} is not valid JSON ({exc.msg}, line {exc.lineno})"
            ) from None
        return cls.from_json(data)


@dataclass
class Replay:
    game: Game
    state: GameState
    events: list[list[Event]]
    digest: str


def start(record: GameRecord) -> tuple[Game, GameState]:
    game = get_game(record.game)
    try:
        config = game.config_from_json(record.config)
        return game, game.new_game(config, record.seed)
    except EngineError as exc:
        raise RecordError(f"record config: {exc}") from None


def replay(record: GameRecord) -> Replay:
    """Re-apply every action; raises :class:`RecordError` naming the first one that fails."""
    game, state = start(record)
    digest = EventDigest()
    all_events: list[list[Event]] = []
    for i, text in enumerate(record.actions):
        try:
            events = state.apply(game.parse_action(text))
        except EngineError as exc:
            raise RecordError(f"action #{i + 1} {text!r}: {exc}") from None
        digest.add(events)
        all_events.append(events)
    return Replay(game, state, all_events, digest.hexdigest())
