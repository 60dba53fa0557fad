"""The PettingZoo environments pass PettingZoo's own tests (api_test, seed_test, render_test) and
behave as documented: end rewards from the engine's result, seeds that deal the engine's games,
refusals that name the rule and change nothing."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.record import replay
from apokalypse.rl import apokalypse_v0, apokerlypse_v0
from apokalypse.rl.env import EngineEnv

MODULES = {"apokalypse": apokalypse_v0, "apokerlypse": apokerlypse_v0}
SETUPS = [
    ("apokalypse", 2),
    ("apokalypse", 4),
    ("apokalypse", 6),
    ("apokerlypse", 2),
    ("apokerlypse", 4),
]
# What api_test says of every environment whose observation is a dict with an action mask, as
# PettingZoo's own card games (classic/) have it: advice, not a failure.
DICT_OBSERVATION_ADVICE = (
    "Observation space for each agent probably should be gymnasium.spaces.box",
    "Observation is not a NumPy array",
)


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_pettingzoo_api_test_passes_with_nothing_to_advise(game: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(MODULES[game].env(players=players), num_cycles=3000)
    other = [
        str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_ADVICE)
    ]
    assert other == []


@pytest.mark.parametrize(("game", "players"), [("apokalypse", 3), ("apokerlypse", 2)])
def test_pettingzoo_seed_and_render_tests_pass(game: str, players: int, capsys: Any) -> None:
    seed_test(lambda: MODULES[game].env(players=players), num_cycles=400)
    render_test(
        lambda render_mode=None: MODULES[game].env(players=players, render_mode=render_mode)
    )
    # ``human`` prints what everybody saw; nothing private (no hand) goes to the screen
    env = MODULES[game].raw_env(players=players, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert isinstance(text, str) and "to act" in text


def _random_game(env: EngineEnv, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += float(reward)
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize(("game", "players"), [("apokalypse", 4), ("apokerlypse", 3)])
def test_rewards_are_the_engine_result_and_the_record_replays(game: str, players: int) -> None:
    env = MODULES[game].raw_env(players=players)
    totals = _random_game(env, seed=21)
    assert env.engine_state is not None and env.engine_state.result is not None
    winners = set(env.engine_state.result.winners)
    assert totals == {f"player_{q}": 1.0 if q in winners else -1.0 for q in range(players)}
    record = env.record()
    assert record.seed == 21 and len(record.actions) == env.engine_state.move
    replayed = replay(record).state.result
    assert replayed is not None and replayed.to_json() == env.engine_state.result.to_json()


def test_reset_with_a_seed_deals_the_engine_game_and_later_resets_the_next() -> None:
    env = apokalypse_v0.raw_env(players=3)
    env.reset(seed=7)
    first = env.engine_state.observation(None)  # type: ignore[union-attr]
    env.reset()
    assert env.record().seed == 8
    env.reset(seed=7)
    assert env.engine_state.observation(None) == first  # type: ignore[union-attr]
    engine_state = env.game.new_game(env.config, 7)
    assert engine_state.observation(0) == env.engine_state.observation(0)  # type: ignore[union-attr]


def test_only_the_agent_to_act_has_legal_actions_in_its_mask() -> None:
    env = apokalypse_v0.raw_env(players=4)
    env.reset(seed=2)
    state = env.engine_state
    assert state is not None
    acting = env.agent_selection
    assert acting == f"player_{state.to_act}"
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        if agent == acting:
            assert list(np.flatnonzero(mask)) == sorted(env.codec.numbers(state.legal_actions()))
        else:
            assert mask.sum() == 0


def test_an_illegal_action_names_the_rule_and_changes_nothing() -> None:
    env = apokalypse_v0.raw_env(players=4)
    env.reset(seed=2)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    state = env.engine_state
    assert state is not None
    before = (env.agent_selection, state.move, state.observation(None), state.observation(0))
    with pytest.raises(IllegalAction) as refused:
        env.step(illegal)
    assert refused.value.rule.startswith("R-")
    assert (
        env.agent_selection,
        state.move,
        state.observation(None),
        state.observation(0),
    ) == before
    with pytest.raises(ValueError, match=r"there is no action 99999 \(the actions are 0–913\)"):
        env.step(99999)
    wrapped = apokalypse_v0.env(players=4)
    wrapped.reset(seed=2)
    with pytest.raises(AssertionError):  # PettingZoo's AssertOutOfBoundsWrapper
        wrapped.step(99999)


def test_max_steps_truncates_every_agent() -> None:
    env = apokerlypse_v0.raw_env(players=2, max_steps=5)
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 5 and env.agents == []


def test_bad_options_are_refused_with_the_rule() -> None:
    with pytest.raises(Exception, match="R-SETUP-1"):
        apokalypse_v0.raw_env(players=7)
    with pytest.raises(Exception, match="K-SETUP-1"):
        apokerlypse_v0.raw_env(players=5)
    with pytest.raises(Exception, match="render_mode"):
        apokalypse_v0.raw_env(render_mode="rgb_array")


def test_before_reset_every_call_says_to_reset() -> None:
    env = apokerlypse_v0.raw_env(players=2, render_mode="ansi")
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0"), env.render):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before using the environment"):
            call()
    assert env.agents == [] and list(env.agent_iter()) == []
