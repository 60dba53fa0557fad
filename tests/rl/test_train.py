"""The NumPy policy-gradient trainer (apokalypse.rl.train) on a tiny budget: it runs, it is
deterministic, it only ever plays legal actions, it saves and loads, and evaluations add up.

A tiny budget proves nothing about playing strength, so no win rate is asserted here; the figures of
the default budget are in docs/rl.md."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from apokalypse.rl import apokerlypse_v0
from apokalypse.rl.train import (
    SEATS,
    Evaluation,
    Policy,
    Progress,
    _game_number,
    evaluate,
    evaluate_random,
    train,
)
from tests.commands import CLI, run

EPISODES = 24


def tiny(
    seed: int, episodes: int = EPISODES, progress: Callable[[Progress], None] | None = None
) -> Policy:
    """A small network on a tiny budget: seconds, not minutes."""
    return train(episodes, seed, hidden=8, batch=8, report_every=8, progress=progress)


@pytest.fixture(scope="module")
def policy() -> Policy:
    return tiny(5)


def arrays(p: Policy) -> list[np.ndarray]:
    return [p.scale, *p.parameters()]


@pytest.mark.long(16)
def test_training_is_deterministic_for_a_seed(policy: Policy) -> None:
    again = tiny(5)
    for a, b in zip(arrays(policy), arrays(again), strict=True):
        assert np.array_equal(a, b)
    other = tiny(6)
    assert not np.array_equal(policy.action_weights, other.action_weights)


@pytest.mark.long(15)
def test_training_updates_the_weights_and_reports_progress() -> None:
    reports: list[Progress] = []
    trained = tiny(5, progress=reports.append)
    untrained = tiny(5, episodes=0)
    # the untrained policy is uniform (zero action weights); training must have moved them
    assert not untrained.action_weights.any()
    assert trained.action_weights.any() and trained.value_weights.any()
    assert [r.episodes for r in reports] == [8, 16, 24]
    assert all(0.0 <= r.win_rate <= 1.0 for r in reports)
    # the scale divides chips and pot by more than 1 and leaves the one-hot entries alone
    assert trained.scale.min() == 1.0 and trained.scale.max() > 1.0


def test_the_policy_only_picks_legal_actions(policy: Policy) -> None:
    env = apokerlypse_v0.env(players=2)  # the checked environment: it refuses an illegal action
    rng = np.random.default_rng(0)
    decisions = 0
    env.reset(seed=123)
    for game in range(4):
        if game:
            env.reset()
        for agent in env.agent_iter():
            seen, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = seen["action_mask"]
            probabilities = policy.probabilities(seen["observation"], mask)
            assert probabilities.sum() == pytest.approx(1.0)
            assert not probabilities[mask == 0].any()
            greedy = policy.act(seen["observation"], mask)
            sampled = policy.act(seen["observation"], mask, rng)
            assert mask[greedy] == 1 and mask[sampled] == 1
            decisions += 1
            env.step(greedy if agent == SEATS[game % 2] else sampled)
    assert decisions > 50


def test_save_and_load_round_trip(policy: Policy, tmp_path: Path) -> None:
    path = tmp_path / "policy.npz"
    policy.save(path)
    loaded = Policy.load(path)
    for a, b in zip(arrays(policy), arrays(loaded), strict=True):
        assert np.array_equal(a, b)
    assert evaluate(loaded, 6, seed=2) == evaluate(policy, 6, seed=2)
    np.savez(tmp_path / "other.npz", weights=np.zeros(3))
    with pytest.raises(ValueError, match="not a policy"):
        Policy.load(tmp_path / "other.npz")


def test_evaluation_counts_add_up(policy: Policy) -> None:
    result = evaluate(policy, 10, seed=3)
    assert result.games == 10
    assert 0 <= result.shared <= result.wins <= result.games
    low, high = result.interval
    assert 0.0 <= low <= result.win_rate <= high <= 1.0
    assert result.win_rate == result.wins / 10
    assert result == evaluate(policy, 10, seed=3)  # evaluation is seeded too
    assert evaluate(policy, 0, seed=3) == Evaluation(0, 0, 0)
    baseline = evaluate_random(10, seed=3)
    assert baseline.games == 10 and 0 <= baseline.shared <= baseline.wins <= 10
    assert "/10 won" in str(result)


def test_evaluation_never_deals_a_training_game(policy: Policy) -> None:
    last_training = _game_number((1 << 31) - 1, (1 << 32) - 1, evaluation=False)
    assert last_training < _game_number(0, 0, evaluation=True)
    assert _game_number((1 << 31) - 1, (1 << 32) - 1, evaluation=True) < 1 << 64
    with pytest.raises(ValueError, match="seed"):
        train(1, seed=-1)
    with pytest.raises(ValueError, match="seed"):
        evaluate(policy, 1, seed=1 << 31)


@pytest.mark.long(16)
def test_the_rl_train_command_trains_saves_and_measures(tmp_path: Path) -> None:
    """The guide's command on a tiny budget, through the real program: a policy file that loads,
    the two evaluation lines; and bad input is one line with exit status 2, nothing written."""
    out = tmp_path / "policy.npz"
    done = run([*CLI, "rl-train", "--episodes", "20", "--evaluate", "10", "--out", str(out)])
    assert done.returncode == 0, done.stderr
    assert (
        Policy.load(out).action_weights.shape[1]
        == apokerlypse_v0.raw_env(players=2).codec.num_actions
    )
    assert "the agent against random play: " in done.stdout and "/10 won" in done.stdout
    assert "random against random play:" in done.stdout and "trained in" in done.stderr
    for bad, says in (
        (["--episodes", "0"], "--episodes must be 1–10,000,000, not 0"),
        (["--seed", "-3"], "a seed is a whole number from 0 to 2147483647, not -3"),
        (["--out", str(tmp_path / "no" / "p.npz")], "there is no folder"),
    ):
        refused = run([*CLI, "rl-train", "--episodes", "2", *bad])
        assert (
            refused.returncode == 2 and says in refused.stderr and refused.stderr.count("\n") == 1
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["policy.npz"]
