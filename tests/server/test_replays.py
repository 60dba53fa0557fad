"""A finished game's record and replay over HTTP (server/replays.py): the record only once the game
is over and without a token's hash, the replay's frames exactly what the game's seat views make
of a fresh replay of that record (sent as the first frame and each later one's change), a record
file sent from the page (good, corrupt, too big), and the bounds (bad viewer, unknown or running
game, too large a replay, too many replays asked for from one address, each request counted)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from apokalypse.engine.record import GameRecord, replay, start
from apokalypse.i18n import seat_names
from apokalypse.i18n.texts import texts_for
from apokalypse.server import replays
from apokalypse.server.changes import frames
from apokalypse.server.entries import Named
from apokalypse.server.settings import Settings
from apokalypse.wire import seat_views, state_adapter
from apokalypse.wire.seat import Table
from tests.helpers import cli, create
from tests.server.inprocess import Running, serving, wait_until

TIMEOUT = 30.0  # every receive and request: a hang guard, on a busy machine too
RECORDS = Path(__file__).resolve().parent.parent / "records"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    # Computers play at once (no pace): a game of two computer seats ends within a second.
    settings = Settings(computer_pace=0.0, create_burst=50)
    database = tmp_path_factory.mktemp("replays") / "db.sqlite3"
    with serving(f"sqlite:///{database}", settings) as running:
        yield running


def finished(server: Running, game: str = "apokalypse", **body: Any) -> str:
    """A 2-player game of two computer seats, played to its end; its id."""
    created = create(server, game=game, seats=["heuristic", "heuristic"], **body)
    game_id: str = created["id"]

    def over() -> bool:
        summary = httpx.get(f"{server.http}/api/games/{game_id}", timeout=TIMEOUT).json()
        return bool(summary["over"])

    wait_until(over, f"game {game_id} ended", 60)
    return game_id


def frames_of(replayed: dict[str, Any]) -> list[dict[str, Any]]:
    """Every frame of a replay as the server sent it (the first, then each one's change)."""
    assert "frames" not in replayed
    made = frames(replayed["first"], replayed["changes"])
    kept = [frame for frame in made if isinstance(frame, dict)]
    assert len(kept) == len(made), "every frame is a JSON object"
    return kept


def expected_frame(record: GameRecord, viewer: int | None, step: int) -> dict[str, Any]:
    """What the seat view of ``viewer`` makes at ``step`` of a fresh replay of ``record``,
    serialised as the wire does (decisions left out: a replay is watched)."""
    game, state = start(record)
    events = list(state.opening)
    for number, text in enumerate(record.actions[:step], 1):
        events = state.apply(game.parse_action(text))
        assert number <= step
    lang = str(record.meta.get("lang", "en"))
    views = seat_views(record.game, texts_for(record.game, record.config, lang))
    kinds = [str(kind) for kind in record.meta["seats"]]
    names = record.meta.get("names", ())
    table = Table(kinds, frozenset(), frozenset(), None, lang, names=names)
    message = views.view(state, viewer, events, table, step == 0)
    made: dict[str, Any] = json.loads(state_adapter(record.game).dump_json(message))
    made["legal"] = []
    made["text"]["question"] = ""
    made["text"]["choices"] = []
    made["auto"] = None
    return made


def test_a_finished_games_record_is_the_file_replay_reads_without_tokens(
    server: Running, tmp_path: Path
) -> None:
    game_id = finished(server)
    response = httpx.get(f"{server.http}/api/games/{game_id}/record", timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    assert (
        response.headers["content-disposition"]
        == f'attachment; filename="apokalypse-{game_id}.json"'
    )
    text = response.text
    assert "token" not in text and 'sha256": [' not in text
    data = json.loads(text)
    assert set(data["meta"]) <= {"seats", "lang", "timer"}, data["meta"]
    record = GameRecord.from_json(data)
    replayed = replay(record)  # what `apokalypse replay --verify` checks
    assert replayed.digest == record.events_sha256
    assert replayed.state.result is not None and replayed.state.result.to_json() == record.result
    path = tmp_path / "game.json"
    path.write_text(text)
    verified = cli("replay", "--verify", str(path))
    assert verified.returncode == 0 and verified.stdout.startswith("ok: "), verified


def test_a_running_games_record_and_replay_are_refused(server: Running) -> None:
    created = create(server)  # a person's seat: it waits for them, never over
    for what in ("record", "replay"):
        response = httpx.get(f"{server.http}/api/games/{created['id']}/{what}", timeout=TIMEOUT)
        assert response.status_code == 409, response.text
        assert "not over" in response.json()["detail"]
        assert created["seats"][0]["token"] not in response.text
    for what in ("record", "replay"):
        response = httpx.get(f"{server.http}/api/games/nope/{what}", timeout=TIMEOUT)
        assert response.status_code == 404 and "nope" in response.json()["detail"]


@pytest.mark.parametrize("game", ["apokalypse", "apokerlypse"])
def test_the_replays_frames_are_the_seat_views_of_a_fresh_replay(
    server: Running, game: str
) -> None:
    game_id = finished(server, game=game, lang="de")
    server.hub.store.write(game_id, None, [Named(1, "Ann <b>")])  # as a person at seat 2 chose it
    record = GameRecord.from_json(
        httpx.get(f"{server.http}/api/games/{game_id}/record", timeout=TIMEOUT).json()
    )
    assert record.meta["names"] == [None, "Ann <b>"]  # the names people chose are public
    steps = len(record.actions)
    for viewer, seat in (("spectator", None), ("1", 0), ("2", 1)):
        response = httpx.get(
            f"{server.http}/api/games/{game_id}/replay", params={"viewer": viewer}, timeout=TIMEOUT
        )
        assert response.status_code == 200, response.text
        assert response.headers["content-encoding"] == "gzip"  # httpx asks for it, and unpacks it
        replayed = response.json()
        assert replayed["id"] == game_id and replayed["game"] == game and replayed["lang"] == "de"
        assert replayed["viewer"] == seat and replayed["steps"] == steps
        kinds = record.meta["seats"]
        assert replayed["names"] == seat_names(2, None, "de", [None, "Ann <b>"], kinds)
        assert replayed["names"][1] == "Ann <b>"
        shown = frames_of(replayed)
        assert len(shown) == steps + 1
        for step in (0, 1, steps // 2, steps):
            assert shown[step] == expected_frame(record, seat, step), (viewer, step)
        assert all(frame["legal"] == [] and frame["text"]["question"] == "" for frame in shown)
        # nor a seat's live setting, as if it could be changed in a replay
        assert all(frame["auto"] is None for frame in shown)
        last = shown[-1]["observation"]
        assert "result" in last or last.get("step") == "over"
    # The seats' hands differ: each viewer's frame is its own.
    first = httpx.get(f"{server.http}/api/games/{game_id}/replay?viewer=1", timeout=TIMEOUT).json()
    second = httpx.get(f"{server.http}/api/games/{game_id}/replay?viewer=2", timeout=TIMEOUT).json()
    assert frames_of(first)[1]["observation"] != frames_of(second)[1]["observation"]


def test_a_bad_viewer_is_named(server: Running) -> None:
    game_id = finished(server)
    for viewer in ("0", "3", "p1", "-1", "everyone"):
        response = httpx.get(
            f"{server.http}/api/games/{game_id}/replay", params={"viewer": viewer}, timeout=TIMEOUT
        )
        assert response.status_code == 400, response.text
        detail = response.json()["detail"]
        assert "viewer" in detail and viewer in detail and "\n" not in detail, detail


def test_a_record_file_opened_in_the_page(server: Running) -> None:
    url = f"{server.http}/api/replays"
    good = (RECORDS / "apokalypse-game-1.json").read_bytes()  # 3 players, 235 actions
    response = httpx.post(url, params={"viewer": "3", "lang": "en"}, content=good, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    replayed = response.json()
    record = GameRecord.from_bytes(good)
    record.meta["seats"] = ["human"] * 3  # the file names none the server takes
    assert replayed["id"] is None and replayed["viewer"] == 2 and replayed["verified"] is True
    assert replayed["steps"] == len(record.actions) == len(frames_of(replayed)) - 1
    assert frames_of(replayed)[100] == expected_frame(record, 2, 100)

    corrupt = json.loads(good)
    corrupt["actions"][50] = "play nothing"
    response = httpx.post(url, content=json.dumps(corrupt).encode(), timeout=TIMEOUT)
    assert response.status_code == 400, response.text
    detail = response.json()["detail"]
    assert detail.startswith("action #51 'play nothing'") and "\n" not in detail, detail
    for body, word in (
        (b"{not json", "not valid JSON"),
        (b"[]", "JSON object"),
        (b"\xff", "UTF-8"),
    ):
        response = httpx.post(url, content=body, timeout=TIMEOUT)
        assert response.status_code == 400 and word in response.json()["detail"], response.text

    big = json.loads(good)
    big["meta"]["padding"] = "x" * (replays.MAX_UPLOAD + 1)
    response = httpx.post(url, content=json.dumps(big).encode(), timeout=TIMEOUT)
    assert response.status_code == 413 and str(replays.MAX_UPLOAD) in response.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(replays.MAX_UPLOAD // 65536 + 2):
            yield b" " * 65536

    response = httpx.post(url, content=chunks(), timeout=TIMEOUT)
    assert response.status_code == 413 and str(replays.MAX_UPLOAD) in response.json()["detail"]
    # Another route keeps the small limit.
    response = httpx.post(
        f"{server.http}/api/games", content=b"{" + b" " * 20_000 + b"}", timeout=TIMEOUT
    )
    assert response.status_code == 413, response.text

    long = json.loads(good)
    long["actions"] = long["actions"] + ["pass"] * replays.MAX_STEPS
    response = httpx.post(url, content=json.dumps(long).encode(), timeout=TIMEOUT)
    assert response.status_code == 413 and str(replays.MAX_STEPS) in response.json()["detail"]


def test_every_replay_request_counts_against_its_address(tmp_path: Path) -> None:
    """Made, served from the cache, or refused: each request draws on the address's allowance
    (a replay kept in the cache is still a request that costs unzipping or sending it)."""
    settings = Settings(create_burst=3, create_per_minute=1.0)
    good = json.loads((RECORDS / "apokerlypse-game-0.json").read_bytes())
    with serving(f"sqlite:///{tmp_path / 'db.sqlite3'}", settings) as server:
        url = f"{server.http}/api/replays"
        statuses = []
        for _ in range(4):  # one file: made once, then from the cache
            response = httpx.post(url, content=json.dumps(good).encode(), timeout=TIMEOUT)
            statuses.append(response.status_code)
        assert statuses == [200, 200, 200, 429], statuses
        assert "try again in" in response.json()["detail"] and response.headers["retry-after"]
        game = httpx.get(f"{server.http}/api/games/nope/replay", timeout=TIMEOUT)
        assert game.status_code == 429, game.text  # before the store is asked
    with serving(f"sqlite:///{tmp_path / 'other.sqlite3'}", settings) as server:
        url = f"{server.http}/api/games/nope/replay"
        statuses = [httpx.get(url, timeout=TIMEOUT).status_code for _ in range(4)]
        assert statuses == [404, 404, 404, 429], statuses  # refusals count too


def test_a_replay_past_the_size_bound_is_refused_naming_it(tmp_path: Path) -> None:
    # A bound below this 235-action game's replay (some 100 KB): refused as it passes it.
    settings = Settings(replay_bytes=40_000)
    good = (RECORDS / "apokalypse-game-1.json").read_bytes()
    with serving(f"sqlite:///{tmp_path / 'db.sqlite3'}", settings) as server:
        response = httpx.post(f"{server.http}/api/replays", content=good, timeout=TIMEOUT)
        assert response.status_code == 413, response.text
        detail = response.json()["detail"]
        assert "larger than 40000 bytes" in detail and "of 235" in detail, detail
        small = (RECORDS / "apokerlypse-game-1.json").read_bytes()  # 63 actions: within it
        response = httpx.post(f"{server.http}/api/replays", content=small, timeout=TIMEOUT)
        assert response.status_code == 200 and len(response.content) < 40_000, response.text


def test_a_replay_is_compressed_when_asked_for(server: Running) -> None:
    game_id = finished(server, game="apokerlypse")
    url = f"{server.http}/api/games/{game_id}/replay"
    packed = httpx.get(url, headers={"Accept-Encoding": "gzip"}, timeout=TIMEOUT)
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.headers["vary"] == "Accept-Encoding"
    # A client that takes no gzip gets it unzipped as it is sent (streamed: no length known
    # ahead, never the whole unzipped body in the server's memory).
    for asked in ("identity", "gzip;q=0, br", ""):
        raw = httpx.get(url, headers={"Accept-Encoding": asked}, timeout=TIMEOUT)
        assert raw.status_code == 200, (asked, raw.text)
        assert "content-encoding" not in raw.headers, asked
        assert raw.headers.get("transfer-encoding") == "chunked", (asked, raw.headers)
        assert int(packed.headers["content-length"]) < len(raw.content) / 4
        assert packed.json() == raw.json()  # httpx unpacks the gzipped one


@pytest.mark.parametrize(
    "name", ["apokalypse-game-0.json", "apokalypse-game-1.json", "apokerlypse-game-2.json"]
)
def test_the_changes_rebuild_every_frame_exactly_for_every_viewer(name: str) -> None:
    """Golden: the frames rebuilt from the first and the changes are, step by step, the whole
    frames the seat view makes (what the replay sent before it sent changes), for every seat
    and the spectator. A change is made of two frames of the same viewer, so it tells that
    viewer nothing its frames do not."""
    record = GameRecord.from_bytes((RECORDS / name).read_bytes())
    players = int(start(record)[1].observation(None)["players"])
    for seat in [None, *range(players)]:
        viewer = "spectator" if seat is None else str(seat + 1)
        replayed = json.loads(replays.make_replay(record, viewer, "en"))
        assert len(replayed["changes"]) == len(record.actions)
        assert frames_of(replayed) == whole_frames(record, seat), (name, viewer)


def whole_frames(record: GameRecord, viewer: int | None) -> list[dict[str, Any]]:
    """Every frame of ``record`` whole, as ``viewer`` saw it (one replay, step by step)."""
    game, state = start(record)
    views = seat_views(record.game, texts_for(record.game, record.config, "en"))
    wire = state_adapter(record.game)
    players = int(state.observation(None)["players"])
    kinds = replays.seat_kinds(record, players)
    names = replays.seat_chosen_names(record, players)
    table = Table(kinds, frozenset(), frozenset(), None, "en", names=names)
    made = []
    events = list(state.opening)
    for step in range(len(record.actions) + 1):
        if step:
            events = state.apply(game.parse_action(record.actions[step - 1]))
        frame: dict[str, Any] = json.loads(
            wire.dump_json(views.view(state, viewer, events, table, step == 0))
        )
        frame["legal"] = []
        frame["text"] = {**frame["text"], "question": "", "choices": []}
        frame["auto"] = None
        made.append(frame)
    return made
