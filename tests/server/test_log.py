"""One ordered log per game (``apokalypse.server.store``, ``apokalypse.server.entries``): the
actions and the table events in one stream, written by several processes at once, and the
stored games of the older schema carried into it by the migration (0006), against an SQLite
file and the PostgreSQL server of the development machines."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from alembic import command
from alembic.config import Config as AlembicConfig
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from apokalypse.engine.record import GameRecord, replay
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng
from apokalypse.server.entries import (
    Acted,
    Away,
    Coached,
    Due,
    Entry,
    Manual,
    Named,
    Rematch,
    Said,
    TableEvent,
    TableState,
    from_row,
    to_row,
)
from apokalypse.server.store import StaleAction, Store
from apokalypse.server.tables import MIGRATIONS, make_engine


def new_record(players: int, seed: int) -> GameRecord:
    game = get_game("apokalypse")
    config = game.config_from_options(players, [], None)
    meta = {"lang": "en", "seats": ["human"] * players}
    return GameRecord(game.name, game.version, config.to_json(), seed, meta=meta)


def played(record: GameRecord, moves: int) -> list[tuple[int, str, int]]:
    """The first ``moves`` actions of a random game of ``record``: (move, action, shown)."""
    game = get_game(record.game)
    state = game.new_game(game.config_from_json(record.config), record.seed)
    rng, made = Rng(11), []
    while not state.is_over and state.move < moves:
        action = rng.choice(list(state.legal_actions()))
        state.apply(action)
        move = state.observation(None)["move"]
        assert isinstance(move, int)
        made.append((state.move, str(action), move))
    return made


table_events = st.one_of(
    st.builds(Away, st.integers(0, 3), st.booleans()),
    st.builds(Manual, st.integers(0, 3), st.booleans()),
    st.builds(Coached, st.integers(0, 3), st.booleans()),
    st.builds(Named, st.integers(0, 3), st.text(max_size=20)),
    st.builds(Rematch, st.text(min_size=1, max_size=16)),
    st.builds(
        Due,
        st.none() | st.datetimes(timezones=st.just(UTC), min_value=datetime(2000, 1, 1)),
    ),
    st.builds(
        Said,
        st.sampled_from(["players", "spectators"]),
        st.none() | st.integers(0, 3),
        st.text(max_size=20),
        st.text(max_size=40),
    ),
)


@given(st.lists(table_events, max_size=30))
@settings(max_examples=200, deadline=None)
def test_every_entry_reads_back_as_it_was_written_and_folds_alike(events: list[TableEvent]):
    rows = [to_row(event) for event in events]
    read: list[Entry] = [from_row(row.kind, row.body, row.move, row.channel) for row in rows]
    assert read == events
    once, again = TableState(4), TableState(4)
    for event in events:
        once.fold(event)
    for entry in read:
        assert not isinstance(entry, Acted)
        again.fold(entry)
    assert once == again
    firsts = [event.game_id for event in events if isinstance(event, Rematch)]
    assert once.rematch == (firsts[0] if firsts else None)  # the first asked is the rematch


def test_actions_and_table_events_share_one_log_in_the_order_they_were_taken(url: str):
    store = Store.open(url)
    record = new_record(3, 5)
    game_id = store.create(record)
    moves = played(record, 6)
    store.write(game_id, 0, [Named(0, "Ann")])
    written = store.write(game_id, 1, [Acted(*moves[0]), Away(1, True)])
    assert [item.n for item in written.mine] == [2, 3] and written.news == []
    # A writer that folded only the first entry is handed the two it did not see.
    late = store.write(game_id, 1, [Said("players", 0, "Ann", "hi")])
    assert [item.entry for item in late.news] == [Acted(*moves[0]), Away(1, True)]
    assert [item.n for item in late.mine] == [4]
    logged = store.read(game_id)
    assert [item.n for item in logged] == [1, 2, 3, 4]
    assert store.load(game_id).actions == [moves[0][1]]
    table = store.table(game_id)
    assert (table.names, table.away, table.lines["players"]) == (
        ["Ann", None, None],
        frozenset({1}),
        1,
    )


def test_a_second_action_for_a_move_is_stale_but_a_table_event_meanwhile_is_not(url: str):
    store = Store.open(url)
    record = new_record(2, 9)
    game_id = store.create(record)
    first, second = played(record, 2)[:2]
    store.write(game_id, 0, [Acted(*first)])
    store.write(game_id, 1, [Manual(0, True)])  # another process's table event
    # A process that folded only the action writes the next one: not stale, told of the event.
    written = store.write(game_id, 1, [Acted(*second)])
    assert [item.entry for item in written.news] == [Manual(0, True)]
    with pytest.raises(StaleAction, match=f"move {second[0]}"):
        store.write(game_id, 3, [Acted(second[0], "pass", second[2])])
    assert store.load(game_id).actions == [first[1], second[1]]


def test_writers_of_several_processes_at_once_each_keep_their_entry_and_learn_the_rest(
    url: str,
):
    """Four processes (stores of their own) mark a seat each away, 25 times over, at once: the
    log has every entry once, in places 1, 2, …, and each writer was handed, as news, exactly
    the entries between its last one and its next."""
    game_id = Store.open(url).create(new_record(4, 3))
    stores = [Store.open(url) for _ in range(4)]  # opened (migrated) one after the other

    def writer(seat: int) -> list[tuple[list[int], int]]:
        store, last, seen = stores[seat], 0, []
        for round_ in range(25):
            written = store.write(game_id, last, [Away(seat, round_ % 2 == 0)])
            seen.append(([item.n for item in written.news], written.mine[0].n))
            last = written.mine[0].n
        store.engine.dispose()
        return seen

    with ThreadPoolExecutor(max_workers=4) as pool:
        seen = list(pool.map(writer, range(4)))
    logged = Store.open(url).read(game_id)
    assert [item.n for item in logged] == list(range(1, 101))
    for writes in seen:
        last = 0
        for news, mine in writes:
            assert news == list(range(last + 1, mine)), "news are what came between"
            last = mine
    table = TableState(4).fold_all(logged)
    assert table.away == set(range(4))  # each seat's last entry turned it on (round 24)


def _alembic(connection_url: str) -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def _at(revision: str, url: str, upgrade: bool = True) -> None:
    engine = make_engine(url)
    config = _alembic(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.upgrade if upgrade else command.downgrade)(config, revision)
    engine.dispose()


def test_games_stored_before_the_log_migrate_into_it_and_still_replay(url: str):
    """A database of the schema before the log (0005: actions, talk and the table's columns)
    is carried into the log: the record replays as before, the table is what the columns
    held, the talk keeps its order; and back down again, the columns are as they were."""
    _at("0005", url)
    record = new_record(3, 21)
    moves = played(record, 12)
    game_id, rematch = "g" * 16, "r" * 16
    deadline = datetime(2030, 1, 2, 3, 4, tzinfo=UTC)
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO games (id, game, version, format, config, seed, meta, created,"
                " away, rematch, names, deadline, manual, coach) VALUES (:id, :game, :version,"
                " :format, :config, :seed, :meta, :created, :away, :rematch, :names, :deadline,"
                " :manual, :coach)"
            ),
            {
                "id": game_id,
                "game": record.game,
                "version": record.version,
                "format": record.format,
                "config": _json(record.config),
                "seed": record.seed - (1 << 63),
                "meta": _json(record.meta),
                "created": datetime(2026, 1, 1, tzinfo=UTC),
                "away": "[2]",
                "rematch": rematch,
                "names": '["Ann", null, "Cy"]',
                "deadline": deadline,
                "manual": "[0]",
                "coach": "[0, 2]",
            },
        )
        for move, action, shown in moves:
            connection.execute(
                text(
                    "INSERT INTO actions (game_id, move, text, created, shown)"
                    " VALUES (:g, :m, :t, :c, :s)"
                ),
                {"g": game_id, "m": move, "t": action, "s": shown, "c": _minute(move)},
            )
        for n, (channel, seat, line, minute) in enumerate(
            [("players", 0, "hello", 0), ("spectators", None, "psst", 5), ("players", 2, "gg", 99)],
            1,
        ):
            connection.execute(
                text(
                    "INSERT INTO talk (game_id, n, channel, seat, name, text, created)"
                    " VALUES (:g, :n, :ch, :s, :name, :t, :c)"
                ),
                {
                    "g": game_id,
                    "n": n,
                    "ch": channel,
                    "s": seat,
                    "name": "Ann" if seat == 0 else "someone",
                    "t": line,
                    "c": _minute(minute),
                },
            )
    engine.dispose()

    store = Store.open(url)  # migrates to the newest
    loaded = store.load(game_id)
    assert loaded.actions == [action for _, action, _ in moves]
    assert replay(loaded).state.move == moves[-1][0]
    table = store.table(game_id)
    assert (table.away, table.manual, table.coached) == tuple(map(frozenset, ([2], [0], [0, 2])))
    assert (table.names, table.rematch, table.due) == (["Ann", None, "Cy"], rematch, deadline)
    logged = store.read(game_id)
    said = [(item.n, item.entry.text) for item in logged if isinstance(item.entry, Said)]
    acted = {item.entry.move: item.n for item in logged if isinstance(item.entry, Acted)}
    # In the order they were made: the first line before the first move, "gg" after the last.
    assert said[0][0] < acted[1] and acted[5] < said[1][0] < acted[6]
    assert said[2][0] > acted[len(moves)]
    assert store.summaries([game_id])[game_id][2] == ["Ann", None, "Cy"]
    store.engine.dispose()

    _at("0005", url, upgrade=False)
    engine = make_engine(url)
    with engine.connect() as connection:
        row = connection.execute(
            text("SELECT away, manual, coach, names, rematch FROM games WHERE id = :id"),
            {"id": game_id},
        ).one()
        count = connection.execute(text("SELECT count(*) FROM actions")).scalar()
        lines = connection.execute(text("SELECT text FROM talk ORDER BY n")).scalars().all()
    engine.dispose()
    assert [_parsed(value) for value in row[:4]] == [[2], [0], [0, 2], ["Ann", None, "Cy"]]
    assert (row[4], count, lines) == (rematch, len(moves), ["hello", "psst", "gg"])


def _json(value: object) -> str:
    import json

    return json.dumps(value)


def _parsed(value: object) -> object:
    import json

    return json.loads(value) if isinstance(value, str) else value


def _minute(minute: int) -> datetime:
    return datetime(2026, 1, 1, 0, minute // 60, minute % 60, tzinfo=UTC)


def test_an_entry_of_an_unknown_kind_is_a_clear_error():
    from apokalypse.server.entries import BadEntry

    with pytest.raises(BadEntry, match="unknown kind 'vote'"):
        from_row("vote", {}, None, None)
    with pytest.raises(BadEntry, match="'away' entry that does not read"):
        from_row("away", {"seat": "one", "on": True}, None, None)
