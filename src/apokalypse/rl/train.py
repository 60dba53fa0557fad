"""A small policy-gradient agent for 2-player Apokerlypse, in NumPy alone (no learning library).

Why it exists: it shows that the learning interface (:mod:`apokalypse.rl.apokerlypse_v0`) carries
enough of the game for an agent to learn from it, and it gives the guide (``docs/rl.md``) an
example that runs anywhere the game runs, on one CPU core, in minutes.

The agent (:class:`Policy`) is a one-hidden-layer network: the seat's observation vector, divided
by a fixed per-entry scale (chips, pot and round would otherwise swamp the one-hot entries), goes
through a ``tanh`` layer into one logit per action of the game's table; the logits of the illegal
actions are masked out and a softmax over the legal ones gives the policy. A value head on the same
hidden layer predicts the game's outcome and serves as the baseline.

Training (:func:`train`) is REINFORCE with that learned baseline (a Monte Carlo actor-critic): the
agent plays one seat against a uniformly random opponent, alternating seats between games; the
only reward is the end of the game (+1 a win, shared wins included, -1 a loss), so every decision of
a game gets the game's outcome as its return. Gradients are written out by hand and applied with
Adam. Everything is seeded: the same ``seed`` gives the same weights, bit for bit, on one machine.

:func:`evaluate` plays fresh games, on game numbers that training never deals, against the same
random opponent and reports the win rate with its 95 % Wilson interval. Random play against random
play wins about 56 % of the 2-player games, not 50 %, because a game both seats win (they end tied
in chips) counts as a win for each: :func:`evaluate_random` measures that baseline the same way.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from apokalypse.engine.record import atomic_write
from apokalypse.sim.stats import wilson

from . import apokerlypse_v0
from .env import EngineEnv

Array = npt.NDArray[np.float64]
Mask = npt.NDArray[np.int8]

PLAYERS = 2
SEATS = ("player_0", "player_1")
DEFAULT_EPISODES = 30_000
# Keeps every game number below 2**64 (the engine's seed limit), see _game_number.
SEED_LIMIT = 1 << 31
_GAMES_PER_SEED = 1 << 32  # a training seed's games; more than any budget will ever play
_EVALUATION_BASE = 1 << 63  # evaluation deals game numbers from here on, training below it
_CALIBRATION_GAMES = 200  # random games that fix the observation scale
_FORMAT = 1  # the .npz layout; load() refuses another


def _check_seed(seed: int) -> np.random.Generator:
    """The generator of a seed's run, once the seed is known to fit (see ``SEED_LIMIT``)."""
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"a seed is a whole number from 0 to {SEED_LIMIT - 1}, not {seed}")
    return np.random.default_rng(seed)


def _game_number(seed: int, index: int, *, evaluation: bool) -> int:
    """The engine game number of game ``index`` of a seed's run.

    Training and evaluation draw from disjoint halves of the engine's seeds, so an evaluation never
    replays a deal the agent trained on, whichever seeds the two calls were given."""
    return (_EVALUATION_BASE if evaluation else 0) + seed * _GAMES_PER_SEED + index


def _new_env() -> EngineEnv:
    # The raw environment: the PettingZoo wrappers check every call, and this loop makes millions.
    return apokerlypse_v0.raw_env(players=PLAYERS)


def observation_scale(games: int = _CALIBRATION_GAMES, seed: int = 0) -> Array:
    """A divisor per observation entry: 1 for the flags and one-hot fields (range 0 … 1), and for
    the counts (chips, pot, round, cost, draw pile, hand totals …) the largest value seen in
    ``games`` random games, so that every input of the network lies in about 0 … 1.

    The bounds in ``codec.high`` are no use here: a count's bound is a generic 999, far above the
    48 chips of the game. The scale is fixed before training (no running statistics) so that a
    saved policy carries it and plays exactly as it trained."""
    env = _new_env()
    codec = env.codec
    largest = np.zeros(codec.size)
    rng = _check_seed(seed)
    env.reset(seed=_game_number(seed, 0, evaluation=False))
    for game in range(games):
        if game:
            env.reset()
        while not env.terminations[env.agent_selection]:
            seen = env.observe(env.agent_selection)
            np.maximum(largest, seen["observation"], out=largest)
            env.step(_random_legal(seen["action_mask"], rng))
    counts = codec.high > 1
    scale = np.ones(codec.size)
    scale[counts] = np.maximum(largest[counts], 1.0)
    return scale


@dataclass
class Policy:
    """The agent's weights: the scale of the observation, a ``tanh`` hidden layer, the action
    logits and the value (the baseline, used in training only)."""

    scale: Array  # (observation,) divisor of each observation entry
    hidden_weights: Array  # (observation, hidden)
    hidden_bias: Array  # (hidden,)
    action_weights: Array  # (hidden, actions)
    action_bias: Array  # (actions,)
    value_weights: Array  # (hidden,)
    value_bias: Array  # (1,)

    @classmethod
    def initial(cls, scale: Array, actions: int, hidden: int, rng: np.random.Generator) -> Policy:
        """Random hidden weights and zero action weights: the untrained policy is uniform over the
        legal actions, exactly the random player it will be trained against."""
        # The observation is sparse (a few dozen non-zero entries of ~800), so the hidden layer's
        # inputs are sized for the entries actually set, keeping tanh out of saturation.
        hidden_weights = rng.normal(0.0, 0.2, (scale.size, hidden))
        return cls(
            scale=scale,
            hidden_weights=hidden_weights,
            hidden_bias=np.zeros(hidden),
            action_weights=np.zeros((hidden, actions)),
            action_bias=np.zeros(actions),
            value_weights=np.zeros(hidden),
            value_bias=np.zeros(1),
        )

    def parameters(self) -> list[Array]:
        """The trained arrays, in the order of :meth:`_gradients` (the scale is not trained)."""
        return [
            self.hidden_weights,
            self.hidden_bias,
            self.action_weights,
            self.action_bias,
            self.value_weights,
            self.value_bias,
        ]

    def features(self, observation: npt.NDArray[np.float32]) -> Array:
        """The network's input: the observation divided by the scale."""
        return observation.astype(np.float64) / self.scale

    def _forward(self, inputs: Array, masks: Mask) -> tuple[Array, Array, Array]:
        """Hidden activations, action probabilities and values of a batch of inputs."""
        hidden = np.tanh(inputs @ self.hidden_weights + self.hidden_bias)
        logits = hidden @ self.action_weights + self.action_bias
        logits = np.where(masks > 0, logits, -np.inf)  # an illegal action gets probability 0
        logits -= logits.max(axis=-1, keepdims=True)
        weights = np.exp(logits)
        probabilities = weights / weights.sum(axis=-1, keepdims=True)
        values = hidden @ self.value_weights + self.value_bias[0]
        return hidden, probabilities, values

    def probabilities(self, observation: npt.NDArray[np.float32], mask: Mask) -> Array:
        """The policy at one decision: a probability per action, 0 for every illegal one."""
        _, probabilities, _ = self._forward(self.features(observation)[None], mask[None])
        policy: Array = probabilities[0]
        return policy

    def act(
        self,
        observation: npt.NDArray[np.float32],
        mask: Mask,
        rng: np.random.Generator | None = None,
    ) -> int:
        """The action to play: sampled from the policy with ``rng``, its most likely legal action
        without (the way it plays when evaluated)."""
        probabilities = self.probabilities(observation, mask)
        if rng is None:
            return int(np.argmax(probabilities))
        return _sample(probabilities, rng)

    def save(self, path: str | Path) -> None:
        """Writes the weights as an ``.npz`` archive that :meth:`load` reads back, atomically (a
        crash leaves the old file or the new one, never half of one), at ``path`` as given."""
        buffer = io.BytesIO()
        np.savez(
            buffer,
            format=np.array(_FORMAT),
            scale=self.scale,
            hidden_weights=self.hidden_weights,
            hidden_bias=self.hidden_bias,
            action_weights=self.action_weights,
            action_bias=self.action_bias,
            value_weights=self.value_weights,
            value_bias=self.value_bias,
        )
        atomic_write(Path(path), buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        """Reads a policy :meth:`save` wrote; refuses another layout rather than guess."""
        with np.load(path) as archive:
            if "format" not in archive or int(archive["format"]) != _FORMAT:
                raise ValueError(f"{path}: not a policy of this trainer (format {_FORMAT})")
            policy = cls(
                scale=archive["scale"],
                hidden_weights=archive["hidden_weights"],
                hidden_bias=archive["hidden_bias"],
                action_weights=archive["action_weights"],
                action_bias=archive["action_bias"],
                value_weights=archive["value_weights"],
                value_bias=archive["value_bias"],
            )
        size, hidden = policy.hidden_weights.shape
        if policy.scale.shape != (size,) or policy.action_weights.shape[0] != hidden:
            raise ValueError(f"{path}: the arrays' shapes do not fit together")
        return policy


def _sample(probabilities: Array, rng: np.random.Generator) -> int:
    # Inverse CDF on one uniform draw: cheaper than rng.choice and as reproducible.
    cumulative = np.cumsum(probabilities)
    index = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    # Round-off can put the draw past the last legal action's bound; fall back to it.
    return min(index, int(np.flatnonzero(probabilities)[-1]))


def _random_legal(mask: Mask, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


@dataclass
class _Game:
    """One game as training needs it: the trained seat's decisions and the outcome."""

    observations: list[npt.NDArray[np.float32]] = field(default_factory=list)
    masks: list[Mask] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    won: bool = False


def _play(
    env: EngineEnv,
    seat: str,
    choose: Callable[[npt.NDArray[np.float32], Mask], int],
    rng: np.random.Generator,
    record: _Game | None = None,
) -> float:
    """Plays the dealt game to its end: ``choose`` for ``seat``, a random legal action for the
    other; returns ``seat``'s reward. ``record`` keeps each of ``seat``'s real choices."""
    while not env.terminations[env.agent_selection]:
        agent = env.agent_selection
        seen = env.observe(agent)
        mask = seen["action_mask"]
        if agent != seat:
            env.step(_random_legal(mask, rng))
            continue
        action = choose(seen["observation"], mask)
        # A forced move (one legal action) teaches nothing and only costs a gradient row.
        if record is not None and int(mask.sum()) > 1:
            # copies: the environment hands out the same arrays again when nothing changed
            record.observations.append(seen["observation"].copy())
            record.masks.append(mask.copy())
            record.actions.append(action)
        env.step(action)
    return float(env.rewards[seat])


@dataclass(frozen=True)
class Progress:
    """What :func:`train` reports every ``report_every`` games: the games played, the win rate of
    the last ``report_every`` training games (the agent sampling, so exploring), and the policy
    as it stands: the live object, which training goes on updating, so evaluate or save a
    checkpoint inside the callback."""

    episodes: int
    win_rate: float
    policy: Policy


def train(
    episodes: int = DEFAULT_EPISODES,
    seed: int = 0,
    *,
    hidden: int = 64,
    learning_rate: float = 1e-3,
    batch: int = 16,
    entropy: float = 0.01,
    value_weight: float = 0.5,
    report_every: int = 1000,
    progress: Callable[[Progress], None] | None = None,
) -> Policy:
    """Trains a policy for ``episodes`` games against random play and returns it.

    Deterministic for a ``seed`` (0 … 2**31 - 1): the weights, the deals (training's share of the
    engine's game numbers, see :func:`evaluate`) and the sampling all come from it. Seats
    alternate, ``player_0`` in the even games. The weights are updated every ``batch`` games with
    the REINFORCE gradient, the outcome minus the value as advantage, plus an ``entropy`` bonus
    that keeps the policy from settling on a move before it has tried the others."""
    if episodes < 0:
        raise ValueError(f"episodes must be 0 or more, not {episodes}")
    rng = _check_seed(seed)
    env = _new_env()
    policy = Policy.initial(observation_scale(seed=seed), env.codec.num_actions, hidden, rng)
    adam = _Adam(policy.parameters(), learning_rate)
    pending: list[_Game] = []
    recent_wins = 0

    def choose(observation: npt.NDArray[np.float32], mask: Mask) -> int:
        return policy.act(observation, mask, rng)

    env.reset(seed=_game_number(seed, 0, evaluation=False))
    for episode in range(episodes):
        if episode:
            env.reset()
        game = _Game()
        game.won = _play(env, SEATS[episode % 2], choose, rng, game) > 0
        recent_wins += game.won
        pending.append(game)
        if len(pending) == batch:
            adam.step(_gradients(policy, pending, entropy, value_weight))
            pending = []
        if progress is not None and (episode + 1) % report_every == 0:
            progress(Progress(episode + 1, recent_wins / report_every, policy))
            recent_wins = 0
    if pending:
        adam.step(_gradients(policy, pending, entropy, value_weight))
    return policy


def _gradients(
    policy: Policy, games: list[_Game], entropy: float, value_weight: float
) -> list[Array]:
    """The gradient of the loss, per array of :meth:`Policy.parameters`, over every decision of
    ``games``: −advantage · log π(action) − entropy · H(π) + value_weight · ½ (value − outcome)²."""
    if not any(g.actions for g in games):
        return [np.zeros_like(p) for p in policy.parameters()]
    inputs = policy.features(np.array([x for g in games for x in g.observations]))
    masks = np.array([m for g in games for m in g.masks])
    actions = np.array([a for g in games for a in g.actions])
    # No discount: the only reward is the end of the game, so each decision's return is the outcome.
    outcomes = np.array([1.0 if g.won else -1.0 for g in games for _ in g.actions])
    steps = len(actions)
    hidden, probabilities, values = policy._forward(inputs, masks)
    advantages = outcomes - values  # the baseline: what the value expected of this position
    rows = np.arange(steps)

    # d loss / d logits. Policy term: (π − onehot(action)) · advantage.
    d_logits = probabilities * advantages[:, None]
    d_logits[rows, actions] -= advantages
    # Entropy term: d(−H)/d logit_i = π_i (log π_i + H); illegal actions (π = 0) contribute 0.
    logs = np.log(np.where(probabilities > 0, probabilities, 1.0))
    spread = -(probabilities * logs).sum(axis=1, keepdims=True)
    d_logits += entropy * probabilities * (logs + spread)
    d_logits /= steps
    d_values = value_weight * (values - outcomes) / steps

    d_hidden = d_logits @ policy.action_weights.T + np.outer(d_values, policy.value_weights)
    d_before = d_hidden * (1.0 - hidden**2)  # tanh′
    return [
        inputs.T @ d_before,
        d_before.sum(axis=0),
        hidden.T @ d_logits,
        d_logits.sum(axis=0),
        hidden.T @ d_values,
        np.array([d_values.sum()]),
    ]


class _Adam:
    """Adam (Kingma & Ba), updating the arrays in place: the steps adapt to each weight's gradient
    scale, which matters here because rare cards' weights see far fewer gradients than the rest."""

    def __init__(self, parameters: list[Array], learning_rate: float) -> None:
        self.parameters = parameters
        self.learning_rate = learning_rate
        self.first = [np.zeros_like(p) for p in parameters]
        self.second = [np.zeros_like(p) for p in parameters]
        self.steps = 0

    def step(self, gradients: list[Array], beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.steps += 1
        rate = self.learning_rate * math.sqrt(1 - beta2**self.steps) / (1 - beta1**self.steps)
        for p, g, m, v in zip(self.parameters, gradients, self.first, self.second, strict=True):
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            p -= rate * m / (np.sqrt(v) + 1e-8)


@dataclass(frozen=True)
class Evaluation:
    """Games against random play: ``wins`` counts every game the agent won, ``shared`` the part of
    them that both seats won (tied for the most chips)."""

    wins: int
    games: int
    shared: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The win rate's 95 % Wilson interval."""
        return wilson(self.wins, self.games)

    def __str__(self) -> str:
        low, high = self.interval
        return (
            f"{self.wins}/{self.games} won ({self.win_rate:.1%}, 95 % interval {low:.1%}–"
            f"{high:.1%}; {self.shared} shared)"
        )


def evaluate(policy: Policy, games: int, seed: int = 0, *, greedy: bool = True) -> Evaluation:
    """Plays ``games`` games of ``policy`` against random play, seats alternating (``player_0``
    first), and counts the wins.

    The deals are evaluation's share of the engine's game numbers, which training never uses, so
    the figure is measured on games the agent has not seen. ``greedy`` plays the policy's most
    likely action (its best guess); ``greedy=False`` samples from it, as in training."""
    rng = _check_seed(seed)

    def choose(observation: npt.NDArray[np.float32], mask: Mask) -> int:
        return policy.act(observation, mask, None if greedy else rng)

    return _evaluate(choose, games, seed, rng)


def evaluate_random(games: int, seed: int = 0) -> Evaluation:
    """Random play against random play, measured as :func:`evaluate` measures an agent: the
    baseline an agent must beat (about 56 %, because shared wins count for both seats)."""
    rng = _check_seed(seed)
    return _evaluate(lambda _, mask: _random_legal(mask, rng), games, seed, rng)


def _evaluate(
    choose: Callable[[npt.NDArray[np.float32], Mask], int],
    games: int,
    seed: int,
    rng: np.random.Generator,
) -> Evaluation:
    if games < 0:
        raise ValueError(f"games must be 0 or more, not {games}")
    env = _new_env()
    wins = shared = 0
    if games:
        env.reset(seed=_game_number(seed, 0, evaluation=True))
    for game in range(games):
        if game:
            env.reset()
        seat = SEATS[game % 2]
        if _play(env, seat, choose, rng) > 0:
            wins += 1
            shared += all(env.rewards[s] > 0 for s in SEATS)
    return Evaluation(wins, games, shared)
