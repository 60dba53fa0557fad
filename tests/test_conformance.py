"""Protocol conformance: generic checks that every registered game must pass (like PettingZoo's
api_test). They use only the engine protocol, never a game's internals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from apokalypse.engine.errors import EngineError, IllegalAction
from apokalypse.engine.events import Event
from apokalypse.engine.record import GameRecord, replay
from apokalypse.engine.registry import game_names, get_game
from apokalypse.engine.rng import Rng


def _configs(name: str) -> list[Any]:
    game = get_game(name)
    return [game.config_from_json({"players": n}) for n in (2, 3, 4, 5, 6) if _fits(game, n)]


def _fits(game: Any, players: int) -> bool:
    try:
        game.config_from_json({"players": players})
    except EngineError:
        return False
    return True


@pytest.mark.parametrize("name", game_names())
def test_protocol_over_a_random_game(name: str) -> None:
    game = get_game(name)
    for config in _configs(name):
        state = game.new_game(config, seed=3)
        rng = Rng(3)
        actions: list[str] = []
        while not state.is_over:
            seat = state.to_act
            assert 0 <= seat < config.players
            legal = state.legal_actions()
            assert legal, "a state that is not over offers at least one action"
            assert len(set(legal)) == len(legal), "legal actions are distinct values"
            for action in legal:
                assert game.parse_action(str(action)) == action
            obs = state.observation(seat)
            json.dumps(obs)  # observations are plain data
            json.dumps(state.observation(None))
            action = legal[rng.below(len(legal))]
            copy = state.clone()
            seen_before = state.observation(seat)
            events = state.apply(action)
            assert all(isinstance(e, Event) for e in events)
            assert copy.observation(seat) == seen_before, "apply must not reach into a clone"
            actions.append(str(action))
        assert state.result is not None
        assert all(0 <= w < config.players for w in state.result.winners)
        assert state.legal_actions() == []
        record = GameRecord(name, game.version, config.to_json(), 3, actions)
        assert replay(record).state.observation(None) == state.observation(None)


@pytest.mark.parametrize("name", game_names())
def test_clone_is_independent(name: str) -> None:
    game = get_game(name)
    state = game.new_game(_configs(name)[-1], seed=5)
    before = state.observation(None)
    copy = state.clone()
    rng = Rng(5)
    for _ in range(40):
        if copy.is_over:
            break
        legal = copy.legal_actions()
        copy.apply(legal[rng.below(len(legal))])
    assert state.observation(None) == before


@pytest.mark.parametrize("name", game_names())
def test_same_seed_same_game_and_different_seed_different_game(name: str) -> None:
    game = get_game(name)
    config = _configs(name)[0]
    assert game.new_game(config, 1).observation(0) == game.new_game(config, 1).observation(0)
    assert any(
        game.new_game(config, 1).observation(0) != game.new_game(config, s).observation(0)
        for s in range(2, 6)
    )


@pytest.mark.parametrize("name", game_names())
def test_gibberish_is_refused_with_a_typed_error(name: str) -> None:
    game = get_game(name)
    for text in ("", "fly away", "play", "target p0.good", "to pX"):
        with pytest.raises(EngineError):
            game.parse_action(text)
    state = game.new_game(_configs(name)[0], seed=1)
    before = state.observation(None)
    legal = {str(a) for a in state.legal_actions()}
    candidates = ["decline", "give church", "steal p2", "to p2", "target p1.good.heaven.9"]
    for text in (t for t in candidates if t not in legal):
        try:
            action = game.parse_action(text)
        except EngineError:
            continue
        with pytest.raises(IllegalAction):
            state.apply(action)
    assert state.observation(None) == before


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("seed", [-1, 2**64, "7", 1.5, True])
def test_impossible_seeds_are_refused(name: str, seed: Any) -> None:
    game = get_game(name)
    with pytest.raises(EngineError, match="seed"):
        game.new_game(_configs(name)[0], seed)


@pytest.mark.parametrize("name", game_names())
def test_features_number_every_legal_action_and_fill_their_fields(name: str) -> None:
    """Every game offers its numbers (engine.features): a fixed action table holding every
    action a random game offers, and entries that stay inside the observation's fields."""
    game = get_game(name)
    for config in _configs(name):
        features = game.features(config)
        table = {action: i for i, action in enumerate(features.actions)}
        assert len(table) == len(features.actions)
        size = sum(f.size for f in features.fields)
        state = game.new_game(config, seed=5)
        rng = Rng(5)
        while not state.is_over:
            legal = state.legal_actions()
            assert all(action in table for action in legal), [str(a) for a in legal]
            ones, at, values = features.encode(state.observation(state.to_act))
            assert all(0 <= i < size for i in [*ones, *at]) and len(at) == len(values)
            state.apply(legal[rng.below(len(legal))])
