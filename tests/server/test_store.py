"""The event-sourced store (``apokalypse.server.store``), against real databases: an SQLite file
and the PostgreSQL server of the development machines (127.0.0.1:5432, database ``test``), each
test in a schema of its own that is dropped afterwards."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from apokalypse.engine.record import GameRecord, replay
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng
from apokalypse.server.entries import Acted
from apokalypse.server.store import StaleAction, Store, StoreError

from .databases import fresh_schema


def new_record(name: str, players: int, seed: int) -> GameRecord:
    game = get_game(name)
    config = game.config_from_options(players, [], None)
    return GameRecord(game.name, game.version, config.to_json(), seed, meta={"lang": "de"})


@pytest.mark.parametrize("name", ["apokalypse", "apokerlypse"])
def test_a_game_stored_action_by_action_resumes_exactly_after_a_restart(url: str, name: str):
    seed = 2**64 - 5  # the largest seeds survive the database's signed integers
    record = new_record(name, 3, seed)
    store = Store.open(url)
    game_id = store.create(record)
    game = get_game(name)
    state = game.new_game(game.config_from_json(record.config), seed)
    rng = Rng(7)
    digest = record.start_digest(state.opening)
    while not state.is_over:
        action = rng.choice(list(state.legal_actions()))
        digest.add(state.apply(action))
        store.write(
            game_id, None, [Acted(state.move, str(action), state.observation(None)["move"])]
        )
        if state.move == 40:  # the server restarts mid-game: a new store, same database
            store.engine.dispose()
            store = Store.open(url)
    assert state.result is not None
    store.finish(game_id, state.result.to_json())

    loaded = Store.open(url).load(game_id)
    assert (loaded.game, loaded.seed, loaded.config, loaded.meta) == (
        name,
        seed,
        record.config,
        {"lang": "de"},
    )
    again = replay(loaded)
    assert again.digest == digest.hexdigest()
    assert again.state.result is not None and loaded.result == again.state.result.to_json()


def test_a_second_action_for_the_same_move_is_refused(url: str):
    store = Store.open(url)
    game_id = store.create(new_record("apokalypse", 4, 1))
    store.write(game_id, None, [Acted(1, "pass", 1)])
    with pytest.raises(StaleAction, match="move 1"):
        store.write(game_id, None, [Acted(1, "play m/hp good", 1)])
    assert store.load(game_id).actions == ["pass"]


def test_an_unknown_game_is_a_clear_error(url: str):
    store = Store.open(url)
    with pytest.raises(StoreError, match="no game 'nope'"):
        store.load("nope")
    with pytest.raises(StoreError, match="no game 'nope'"):
        store.write("nope", None, [Acted(1, "pass", 1)])


def test_migrating_twice_changes_nothing_and_lists_games_oldest_first(url: str):
    store = Store.open(url)
    first = store.create(new_record("apokalypse", 2, 1))
    second = store.create(new_record("apokerlypse", 2, 2))
    again = Store.open(url)  # runs the migrations again: already at the newest
    assert again.game_ids() == [first, second]
    assert len(first) >= 16 and first != second  # not guessable, good for a link


def test_processes_starting_together_on_a_new_postgresql_database_migrate_once():
    """Several server processes started at once: one migrates, the others wait and find it done
    (without the lock, two would race to create the same tables)."""
    with fresh_schema() as url, ThreadPoolExecutor(max_workers=4) as pool:
        stores = list(pool.map(lambda _: Store.open(url), range(4)))
        game_id = stores[0].create(new_record("apokalypse", 2, 3))
        assert all(store.game_ids() == [game_id] for store in stores)
        for store in stores:
            store.engine.dispose()
