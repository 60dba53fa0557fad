"""Replays of finished games for the browser, and the record files they are made from.

- ``GET /api/games/{id}/record``: the finished game's record, the file ``apokalypse replay``
  reads, with its events digest and result (``replay --verify`` checks it) and only the public
  part of its meta: no token hashes. A running game's record would hold every hand (its seed):
  409 until the game is over.
- ``GET /api/games/{id}/replay?viewer=<seat 1…n>|spectator``: the game step by step as that
  viewer saw it. Step 0 is the start (its opening events), step ``i`` the table after action
  ``i``; each frame is the state message the game's seat view makes (:mod:`apokalypse.wire.seat`):
  the observation, that step's events in the viewer's view, their log sentences, the forecast,
  the card facts in the first frame. No frame offers a decision (``legal`` is empty, no
  question): a replay is watched, not played. Once a game is over anybody may see any seat's
  view, as the terminal's ``apokalypse replay --seat`` shows it from the record. The first frame
  is sent whole (``first``), every later one as its change from the one before (``changes``,
  :mod:`.changes`): a tenth of the frames' size.
- ``POST /api/replays?viewer=…&lang=…``: the same frames for a record file sent as the body (the
  page's "open a record file"), up to :data:`MAX_UPLOAD` bytes (:mod:`.edge` lets this path's
  body be that big); a record that does not replay is answered 400 with the engine's one-line
  :class:`~apokalypse.engine.errors.RecordError`.

Making a replay re-applies every action and renders a view per step: done in a worker thread,
at most :data:`BUILDS_AT_ONCE` at a time, each made replay kept gzipped in a small LRU
(:data:`CACHED`). Every replay asked for, made or served from that cache, is drawn from a
per-address token bucket like game creation. A replay shows at most :data:`MAX_STEPS` actions
and is at most :attr:`.Settings.replay_bytes` long unzipped: one that would be longer (a record
at the bounds of its deck and length) is refused as soon as it passes that, naming the bound,
never held whole. It is sent gzipped; to a client that does not take gzip it is unzipped as it
is sent, a piece at a time (:data:`PIECE`), never whole in memory.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, ParamSpec

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import Response, StreamingResponse

from apokalypse.engine.errors import EngineError, RecordError
from apokalypse.engine.events import Event
from apokalypse.engine.record import GameRecord, apply_recorded, replay, start
from apokalypse.i18n import LANGS, check_lang, seat_names
from apokalypse.i18n.texts import texts_for
from apokalypse.wire import seat_views, state_adapter
from apokalypse.wire.seat import Table
from apokalypse.wire.talk import BadText, check_name

from .changes import JSON, change
from .edge import LARGER_BODIES
from .hub import Hub
from .limits import Allowance, client_host
from .precompressed import accepts
from .settings import Settings
from .store import StoreError

MAX_UPLOAD = LARGER_BODIES["/api/replays"]  # bytes of a record file (a long game's: ~30 KB)
MAX_STEPS = 3000  # actions a replay shows (a 6-player Apokalypse game takes some 400)
CACHED = 32  # replays kept, gzipped (a 600-action game's is ~25 KB)
PIECE = 1 << 16  # bytes unzipped at a time for a client that does not take gzip
BUILDS_AT_ONCE = 2  # replays made at the same time, each on a worker thread
# What a downloaded record keeps of the stored meta (its chosen names added: see `finished`).
PUBLIC_META = ("seats", "names", "lang", "timer")
MAX_KIND = 40  # characters of a seat kind taken from an opened record's meta
SPECTATOR = "spectator"
GZIP_LEVEL = 6

P = ParamSpec("P")  # what a replay's maker takes


class Refusal(Exception):
    """A replay not made: the HTTP status and a one-line reason."""

    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.headers = status, detail, headers


def viewer_of(text: str, players: int) -> int | None:
    """The seat (0-based) ``viewer`` names, 1 … ``players`` as the page and ``apokalypse replay
    --seat`` number them, or None for ``spectator``; a 400 :class:`Refusal` naming it else."""
    if text == SPECTATOR:
        return None
    if text.isdigit() and 1 <= int(text) <= players:
        return int(text) - 1
    raise Refusal(
        400,
        f"viewer must be a seat 1–{players} of this {players}-player game or {SPECTATOR!r},"
        f" not {text[:20]!r}",
    )


def public_record(record: GameRecord) -> GameRecord:
    """A finished game's stored record as a file anybody may have: its events digest and result
    from a replay (the store keeps neither), its meta without what is the server's alone."""
    replayed = replay(record)
    result = replayed.state.result
    meta = {key: record.meta[key] for key in PUBLIC_META if key in record.meta}
    return GameRecord(
        record.game,
        record.version,
        dict(record.config),
        record.seed,
        list(record.actions),
        replayed.digest,
        result.to_json() if result is not None else record.result,
        meta,
        record.format,
    )


def seat_kinds(record: GameRecord, players: int) -> list[str]:
    """Each seat's kind as the record's meta names it ("human" where it names none sensibly:
    an opened file's meta is whatever its writer put there)."""
    kinds = record.meta.get("seats")
    if (
        isinstance(kinds, list)
        and len(kinds) == players
        and all(isinstance(k, str) and 0 < len(k) <= MAX_KIND and k.isprintable() for k in kinds)
    ):
        return [str(kind) for kind in kinds]
    return ["human"] * players


def seat_chosen_names(record: GameRecord, players: int) -> list[str | None]:
    """Each seat's chosen name as the record's meta lists it (the server's: one per seat, None
    where none was chosen); none where it lists them otherwise or a name is not one a person
    could choose (an opened file's meta is whatever its writer put there)."""
    names = record.meta.get("names")
    if not isinstance(names, list) or len(names) != players:
        return [None] * players
    try:
        return [None if name is None else check_name(str(name)) for name in names]
    except BadText:
        return [None] * players


def make_replay(
    record: GameRecord,
    viewer_text: str,
    lang: str,
    game_id: str | None = None,
    limit: int = Settings.replay_bytes,
) -> bytes:
    """The replay of ``record`` as ``viewer_text`` saw it, in ``lang``, as JSON: the game, the
    seats, the names each seat goes by, the first frame and each later one's change
    (blocking: run it on a thread). A :class:`RecordError` when the record does not replay, a
    :class:`Refusal` for a bad viewer, too long a game or too large a replay."""
    if len(record.actions) > MAX_STEPS:
        raise Refusal(
            413, f"the game has {len(record.actions)} actions; a replay shows at most {MAX_STEPS}"
        )
    game, state = start(record)
    players = int(state.observation(None)["players"])
    viewer = viewer_of(viewer_text, players)
    kinds = seat_kinds(record, players)
    views = seat_views(record.game, texts_for(record.game, record.config, lang))
    wire = state_adapter(record.game)
    chosen = seat_chosen_names(record, players)
    table = Table(kinds, frozenset(), frozenset(), None, lang, names=chosen)
    digest = record.start_digest(state.opening)

    def frame(events: list[Event], first: bool) -> JSON:
        made = views.view(state, viewer, events, table, first)
        # Watched, not played: no decision is offered, whoever's it was, and no live setting of
        # the seat (its automatic answers) is shown as if it could be changed.
        watched = {
            **made,
            "legal": [],
            "text": {**made["text"], "question": "", "choices": []},
            "auto": None,
        }
        dumped: JSON = wire.dump_python(watched, mode="json")  # type: ignore[arg-type]
        return dumped

    before = frame(list(state.opening), True)
    written = Bounded(limit, len(record.actions))
    first = written.add(before, 0)
    changes: list[bytes] = []
    for number, text in enumerate(record.actions, 1):
        events = apply_recorded(game, state, number, text)
        digest.add(events)
        now = frame(events, False)
        changes.append(written.add(change(before, now), number))
        before = now
    result = state.result
    head = {
        "id": game_id,
        "game": record.game,
        "players": players,
        "lang": lang,
        "viewer": viewer,
        "names": seat_names(players, None, lang, chosen, kinds),
        "seats": [{"seat": q, "kind": kind} for q, kind in enumerate(kinds)],
        "steps": len(record.actions),
        "over": result is not None,
        "verified": None
        if record.events_sha256 is None
        else digest.hexdigest() == record.events_sha256,
    }
    opening = json.dumps(head, separators=(",", ":"))[:-1].encode()
    return opening + b',"first":' + first + b',"changes":[' + b",".join(changes) + b"]}"


class Bounded:
    """A replay's parts as they are written, refused (413) once they pass ``limit`` bytes."""

    def __init__(self, limit: int, steps: int) -> None:
        self.limit, self.steps, self.size = limit, steps, 0

    def add(self, value: JSON, step: int) -> bytes:
        part = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
        self.size += len(part) + 1
        if self.size > self.limit:
            raise Refusal(
                413,
                f"the replay would be larger than {self.limit} bytes, the most this server"
                f" makes (passed at step {step} of {self.steps})",
            )
        return part


@dataclass
class Replays:
    """The replays made so far (gzipped, least recently used first), and who may make more."""

    hub: Hub
    made: OrderedDict[tuple[str, ...], bytes]
    makers: Allowance
    building: asyncio.Semaphore

    @classmethod
    def of(cls, hub: Hub) -> Replays:
        settings = hub.settings
        makers = Allowance(settings.create_per_minute, settings.create_burst)
        return cls(hub, OrderedDict(), makers, asyncio.Semaphore(BUILDS_AT_ONCE))

    def asked(self, request: Request) -> None:
        """Count a replay request against its address's allowance, before anything is looked
        up: one served from the cache, or refused, costs a token as one made does. A 429
        :class:`HTTPException` once the address has none left."""
        wait = self.makers.take(client_host(request))
        if wait > 0:
            seconds = max(1, round(wait))
            detail = f"too many replays asked for from your address: try again in {seconds} s"
            raise HTTPException(429, detail, {"Retry-After": str(seconds)})

    async def get(
        self, key: tuple[str, ...], make: Callable[P, bytes], *args: P.args, **kwargs: P.kwargs
    ) -> bytes:
        """The gzipped replay under ``key``, made by ``make(*args)`` on a thread if need be."""
        made = self.made.get(key)
        if made is not None:
            self.made.move_to_end(key)
            return made
        async with self.building:
            body: bytes = await asyncio.to_thread(make, *args, **kwargs)
            made = await asyncio.to_thread(gzip.compress, body, GZIP_LEVEL)
        self.made[key] = made
        while len(self.made) > CACHED:
            self.made.popitem(last=False)
        return made


def _answer(request: Request, compressed: bytes) -> Response:
    """The replay, gzipped where the client takes it (every browser does); else unzipped as it
    is sent, a piece at a time."""
    headers = {"Vary": "Accept-Encoding", "Cache-Control": "no-store"}
    if accepts(request.headers.get("accept-encoding"), "gzip"):
        headers["Content-Encoding"] = "gzip"
        return Response(compressed, media_type="application/json", headers=headers)
    return StreamingResponse(unzipped(compressed), media_type="application/json", headers=headers)


def unzipped(compressed: bytes) -> Iterator[bytes]:
    """A gzipped body unzipped :data:`PIECE` bytes at a time (a generator: Starlette runs it on
    a worker thread, one piece after another as the client reads)."""
    unpacking = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # 16+: a gzip header and trailer
    left = compressed
    while not unpacking.eof:
        piece = unpacking.decompress(left, PIECE)
        left = unpacking.unconsumed_tail
        if piece:
            yield piece
        elif not left:  # cut short: nothing more will come (never so for the cache's own)
            return


def _one_line(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:300]


def _upload_lang(record: GameRecord, asked: str) -> str:
    if asked:
        return check_lang(asked)
    stored = record.meta.get("lang")
    return stored if isinstance(stored, str) and stored in LANGS else "en"


def add_replays(app: FastAPI, hub: Hub) -> None:
    """The record and replay routes (the module's docstring)."""
    replays = Replays.of(hub)
    store = hub.store
    limit = hub.settings.replay_bytes

    async def finished(game_id: str) -> GameRecord:
        try:
            record = await asyncio.to_thread(store.load, game_id)
        except StoreError:
            raise HTTPException(404, f"there is no game {game_id!r}") from None
        stored = await asyncio.to_thread(store.summaries, [game_id])
        if game_id in stored and any(name is not None for name in stored[game_id][2]):
            record.meta["names"] = stored[game_id][2]  # the names people chose at the table
        if record.result is None:
            raise HTTPException(
                409, "the game is not over: its record and replay open once it has ended"
            )
        return record

    @app.get("/api/games/{game_id}/record")
    async def record_file(game_id: str) -> Response:
        record = await finished(game_id)
        try:
            public = await asyncio.to_thread(public_record, record)
        except EngineError as exc:  # a stored game that no longer replays (other rules)
            raise HTTPException(409, f"the game does not replay: {_one_line(exc)}") from None
        body = json.dumps(public.to_json(), indent=1) + "\n"
        name = f"apokalypse-{game_id}.json"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/api/games/{game_id}/replay")
    async def game_replay(
        request: Request,
        game_id: str,
        viewer: Annotated[str, Query(max_length=20)] = SPECTATOR,
    ) -> Response:
        replays.asked(request)
        record = await finished(game_id)
        lang = str(record.meta.get("lang", "en"))
        try:
            viewer_of(viewer, len(record.meta.get("seats", [])))  # before a replay is made
            key = ("game", game_id, viewer)
            made = await replays.get(key, make_replay, record, viewer, lang, game_id, limit)
        except Refusal as exc:
            raise HTTPException(exc.status, exc.detail, exc.headers) from None
        except EngineError as exc:  # a stored game that no longer replays (other rules)
            raise HTTPException(409, f"the game does not replay: {_one_line(exc)}") from None
        return _answer(request, made)

    @app.post("/api/replays")
    async def opened_replay(
        request: Request,
        viewer: Annotated[str, Query(max_length=20)] = SPECTATOR,
        lang: Annotated[str, Query(max_length=8)] = "",
    ) -> Response:
        replays.asked(request)
        raw = await request.body()  # at most MAX_UPLOAD bytes (edge.py)
        try:
            record = GameRecord.from_bytes(raw, "the record file")
            used = _upload_lang(record, lang)
            key = ("file", hashlib.sha256(raw).hexdigest(), viewer, used)
            made = await replays.get(key, _checked, record, viewer, used, limit)
        except Refusal as exc:
            raise HTTPException(exc.status, exc.detail, exc.headers) from None
        except EngineError as exc:  # RecordError, or an unknown language
            raise HTTPException(400, _one_line(exc)) from None
        return _answer(request, made)


def _checked(record: GameRecord, viewer: str, lang: str, limit: int) -> bytes:
    """:func:`make_replay` of a record from anywhere: whatever goes wrong in it is a one-line
    :class:`RecordError` (a hostile file must not be a server error)."""
    try:
        return make_replay(record, viewer, lang, None, limit)
    except (Refusal, EngineError):
        raise
    except Exception as exc:
        raise RecordError(
            f"the record does not replay ({type(exc).__name__}: {_one_line(exc)})"
        ) from None
