"""Both games as OpenSpiel Python games: OpenSpiel's own random simulation test, its ISMCTS bot
playing whole games, perfect-recall information states that a resampled world keeps, and
nothing secret in what OpenSpiel shows of a state."""

from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.bots import uniform_random

from apokalypse.rl.openspiel import register

register()

GAMES = [
    ("python_apokalypse", {"players": 2}),
    ("python_apokalypse", {"players": 5, "variants": "good-ties"}),
    ("python_apokerlypse", {"players": 2}),
    ("python_apokerlypse", {"players": 4, "content": "example"}),
]


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_openspiel_random_simulation_test_passes(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _deal(game: Any, seed: int) -> Any:
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(seed)
    return state


def _play_random(state: Any, steps: int, rng: np.random.RandomState) -> Any:
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(("name", "params", "simulations"), [
    ("python_apokerlypse", {"players": 2}, 25),
    ("python_apokalypse", {"players": 2}, 8),
])  # fmt: skip
@pytest.mark.long(190)
def test_openspiel_ismcts_bot_plays_whole_games_against_random(
    name: str, params: dict[str, Any], simulations: int
) -> None:
    game = pyspiel.load_game(name, params)
    rs = np.random.RandomState(5)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rs), 2.0, simulations, random_state=rs
    )
    other = uniform_random.UniformRandomBot(1, rs)
    state = _deal(game, 17)
    searched = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)  # asserts every world it samples has the same key
            searched += 1
        else:
            action = other.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert searched > 5
    assert sorted(state.returns()) in ([-1.0, 1.0], [1.0, 1.0], [-1.0, -1.0])


@pytest.mark.parametrize(("name", "params"), GAMES[:1] + GAMES[2:3])
def test_a_resampled_world_keeps_the_seat_information_state_and_hides_the_deal(
    name: str, params: dict[str, Any]
) -> None:
    game = pyspiel.load_game(name, params)
    state = _play_random(_deal(game, 3), 30, np.random.RandomState(3))
    seat = state.current_player()
    other = 1 - seat
    sampler = iter(np.random.RandomState(8).uniform(size=20))
    worlds = [state.resample_from_infostate(seat, lambda: next(sampler)) for _ in range(5)]
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.legal_actions() == state.legal_actions()
        # the other seat's history there is only what was public: never the true private one
        assert world.information_state_string(other) != state.information_state_string(other)
        with pytest.raises(TypeError, match="cannot be pickled"):
            pickle.dumps(world)
    # the worlds differ where the seat cannot see (another hand, the deck order)
    assert len({str(w.engine_state.observation(other)) for w in worlds}) > 1


def test_information_states_have_perfect_recall_and_differ_by_seat() -> None:
    game = pyspiel.load_game("python_apokerlypse", {"players": 2})
    a = _deal(game, 1)
    b = _deal(game, 2)  # another deal: the seats hold other cards
    assert a.information_state_string(0) != a.information_state_string(1)
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_string(0).startswith("p1 seen ")
    assert a.observation_string(0) in a.information_state_string(0)
    # the same actions from the same deal give the same strings
    c = _deal(game, 1)
    rng1, rng2 = np.random.RandomState(4), np.random.RandomState(4)
    _play_random(a, 10, rng1)
    _play_random(c, 10, rng2)
    assert a.information_state_string(1) == c.information_state_string(1)


def test_pickled_states_come_back_the_same() -> None:
    game = pyspiel.load_game("python_apokalypse", {"players": 3})
    state = _play_random(_deal(game, 9), 25, np.random.RandomState(9))
    back = pickle.loads(pickle.dumps(state))
    assert str(back) == str(state)
    for seat in range(3):
        assert back.information_state_string(seat) == state.information_state_string(seat)


def test_what_openspiel_prints_of_a_state_is_the_spectator_view() -> None:
    game = pyspiel.load_game("python_apokalypse", {"players": 4})
    state = _play_random(_deal(game, 6), 20, np.random.RandomState(6))
    text = str(state)
    assert json.loads(text) == state.engine_state.observation(None)
    assert '"hand"' not in text and '"ethos"' not in text and '"fronts"' not in text
    assert str(game.new_initial_state()) == "before the deal"


def test_bad_parameters_name_the_rule() -> None:
    with pytest.raises(Exception, match="R-SETUP-1"):
        pyspiel.load_game("python_apokalypse", {"players": 9})
    with pytest.raises(Exception, match="deals must be at least 1"):
        pyspiel.load_game("python_apokerlypse", {"deals": 0})
