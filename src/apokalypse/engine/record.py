"""Game records: ``(game, version, config, seed, actions)`` — the save file, the replay, the bug
report. A record also carries a digest of every event, so a replay can prove it reproduced them."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .erased import Erased
from .errors import EngineError, RecordError
from .events import Event
from .protocol import Game, GameState
from .registry import get_game
from .text import shown

# 3: the events digest starts with the game, version, config and seed, then the opening (the
# events of new_game before the first decision), then the events of every action.
FORMAT = 3
# Still read, replayed and verified: 1, the digest covers the actions' events only; 2, the header
# and the actions' events, without the opening.
FORMATS = (1, 2, 3)
MAX_RECORD_BYTES = 32 << 20  # far above any real game (a long one is some 100 KB)
MAX_NAME = 200  # the game and version fields
STALE_SECONDS = 5.0  # a save's temporary lives for milliseconds; older ones were left behind
_SHA256 = re.compile(r"[0-9a-f]{64}")
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp")  # tempfile.mkstemp in atomic_write()


class EventDigest:
    """A running SHA-256 over one game: first what defines it (game, version, config, seed),
    then every event's JSON form. ``replay --verify`` recomputes it, so a changed config or
    version is noticed even where it would leave the events equal (a variant that only decides
    the winner, a bonus cap that never bit). ``EventDigest()`` digests events only: the form of
    records of format 1, and of tests that compare two runs of one game."""

    def __init__(self, header: Mapping[str, object] | None = None) -> None:
        self._hash = hashlib.sha256()
        if header is not None:
            self._hash.update(json.dumps(header, sort_keys=True).encode())
            self._hash.update(b"\n")

    @classmethod
    def of(cls, game: str, version: str, config: Mapping[str, object], seed: int) -> EventDigest:
        """The digest of a game record of the current format."""
        return cls({"game": game, "version": version, "config": config, "seed": seed})

    def add(self, events: list[Event]) -> None:
        for event in events:
            self._hash.update(json.dumps(event.digest_form(), sort_keys=True).encode())
            self._hash.update(b"\n")

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


@dataclass
class GameRecord:
    game: str
    version: str
    config: dict[str, object]
    seed: int
    actions: list[str] = field(default_factory=list)
    events_sha256: str | None = None
    result: dict[str, object] | None = None
    # Who played, the language …, as whoever wrote the record put them (its readers check what
    # they read); replay ignores it.
    meta: dict[str, Erased] = field(default_factory=dict)
    format: int = FORMAT

    def start_digest(self, opening: Sequence[Event]) -> EventDigest:
        """The events digest of this record's format as the game starts: its header and, from
        format 3 on, the game's ``opening`` (``state.opening``)."""
        if self.format == 1:
            return EventDigest()
        digest = EventDigest.of(self.game, self.version, self.config, self.seed)
        if self.format >= 3:
            digest.add(list(opening))
        return digest

    def to_json(self) -> dict[str, object]:
        return {
            "format": self.format,
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
    def from_json(cls, data: object) -> GameRecord:
        """A record from its JSON form; every field is checked, so that whatever a file holds,
        the only error is a :class:`RecordError` naming the field."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if type(data.get("format")) is not int or data["format"] not in FORMATS:
            raise RecordError(
                f"unsupported record format {shown(data.get('format'), 40)} (expected 1, 2 or 3)"
            )
        for name, kind in (("game", str), ("version", str), ("config", dict), ("seed", int)):
            value = data.get(name)
            if not isinstance(value, kind) or isinstance(value, bool):
                article = "an" if kind is int else "a"  # "not an int", "not a str"
                raise RecordError(
                    f"record field {name!r} is missing or not {article} {kind.__name__}"
                )
        for name in ("game", "version"):  # shown on screens: no escape sequences, one short line
            if not data[name].isprintable() or len(data[name]) > MAX_NAME:
                raise RecordError(f"record field {name!r} must be one short line of text")
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("record field 'actions' must be a list of action texts")
        digest = data.get("events_sha256")
        if digest is not None and not (isinstance(digest, str) and _SHA256.fullmatch(digest)):
            raise RecordError("record field 'events_sha256' must be 64 hex digits or null")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("record field 'result' must be an object or null")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("record field 'meta' must be an object")
        return cls(
            data["game"],
            data["version"],
            data["config"],
            data["seed"],
            list(actions),
            digest,
            result,
            meta,
            data["format"],
        )

    def save(self, path: str | Path) -> None:
        """Write atomically (:func:`atomic_write`)."""
        atomic_write(Path(path), (json.dumps(self.to_json(), indent=1) + "\n").encode("utf-8"))

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file; anything wrong with it is a one-line :class:`RecordError`."""
        shown = repr(str(path))
        try:
            with open(path, "rb") as fh:
                # Read at most one byte past the limit: a huge file (or /dev/zero) is refused
                # without first being read whole into memory.
                raw = fh.read(MAX_RECORD_BYTES + 1)
        except OSError as exc:
            raise RecordError(f"cannot read {shown}: {exc.strerror}") from None
        if len(raw) > MAX_RECORD_BYTES:
            raise RecordError(f"{shown} is larger than {MAX_RECORD_BYTES >> 20} MiB: not a record")
        return cls.from_bytes(raw, shown)

    @classmethod
    def from_bytes(cls, raw: bytes, shown: str = "the record") -> GameRecord:
        """A record from a file's bytes (a file read, or one sent to the server); anything
        wrong with it is a one-line :class:`RecordError` that calls it ``shown``."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{shown} is not UTF-8 text (byte {exc.start})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{shown} is not valid JSON ({exc.msg}, line {exc.lineno})") from None
        except RecursionError:  # '[' * 100000: json nests by recursion
            raise RecordError(f"{shown} is not a record (JSON nested too deeply)") from None
        except ValueError as exc:  # an integer of more than 4,300 digits
            raise RecordError(f"{shown} is not a record ({exc})") from None
        return cls.from_json(data)


def atomic_write(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically: a crash mid-write never leaves half a file, only
    a temporary ``.NAME.xxxxxxxx.tmp`` beside it (:func:`remove_stale_temporaries`). An error
    names ``path`` (``OSError.filename``), never the temporary file, which the user never gave."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise
    return path


def remove_stale_temporaries(path: str | Path, *, older_than: float = STALE_SECONDS) -> int:
    """Delete what a killed :meth:`GameRecord.save` left behind: its temporary files
    (``.NAME.xxxxxxxx.tmp``, often empty) beside the intact save. ``path`` is a save file (its
    own temporaries go) or a folder of records (every record's go). Only files untouched for
    ``older_than`` seconds count as stale, so a save in progress elsewhere is left alone.
    Best effort: what cannot be removed stays. Returns how many were removed."""
    path = Path(path)
    folder, name = (path, None) if path.is_dir() else (path.parent, path.name)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    now = time.time()
    removed = 0
    for entry in entries:
        match = _TEMPORARY.fullmatch(entry.name)
        if match is None or (name is not None and match["name"] != name):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and now - entry.stat().st_mtime >= older_than:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


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


def apply_recorded(game: Game, state: GameState, number: int, text: str) -> list[Event]:
    """Apply a record's action ``number`` (1, 2, …), given as ``text``; a :class:`RecordError`
    names it when it does not parse or the rules refuse it. Every replay goes through here."""
    try:
        return state.apply(game.parse_action(text))
    except EngineError as exc:
        raise RecordError(f"action #{number} {text!r}: {exc}") from None


def replay(record: GameRecord) -> Replay:
    """Re-apply every action; raises :class:`RecordError` naming the first one that fails."""
    game, state = start(record)
    digest = record.start_digest(state.opening)
    all_events: list[list[Event]] = []
    for i, text in enumerate(record.actions, 1):
        events = apply_recorded(game, state, i, text)
        digest.add(events)
        all_events.append(events)
    return Replay(game, state, all_events, digest.hexdigest())
