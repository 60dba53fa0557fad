"""The PettingZoo AEC environment of any game of the engine (``apokalypse_v0``, ``apokerlypse_v0``).

One agent acts at a time, ``player_0`` … ``player_{N-1}`` by seat: the engine's ``to_act``,
defence and block windows included (they ask the other seats one at a time, and a seat that
cannot answer is not skipped in a way its neighbours could tell). Each agent's observation is
``{"observation": float32 vector, "action_mask": int8 vector}``: the vector encodes the seat's own
observation, the engine's one secrecy boundary (:mod:`apokalypse.engine.features`), and the mask
marks the legal actions of the agent to act (all zeros for the others). Actions are the integers
of the game's action table, the same in every state.

Rewards come at the end only: +1 for each winner, -1 for every other seat (a game nobody wins
gives -1 to all). ``reset(seed=S)`` deals the engine's game ``S`` (``apokalypse play --seed S``
deals the same); each later ``reset()`` without a seed deals the next number. An action outside
the legal ones raises the engine's refusal (``IllegalAction``, naming the rule) and changes
nothing; a number outside the table raises ``ValueError``.
:meth:`EngineEnv.record` is the game so far as a record that ``apokalypse replay`` shows.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, TypedDict

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from apokalypse.engine.codec import Codec, Mask, Vector
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.events import Event
from apokalypse.engine.protocol import GameState
from apokalypse.engine.record import GameRecord, replay
from apokalypse.engine.registry import get_game
from apokalypse.i18n.texts import texts_for


class Observed(TypedDict):
    """What an agent observes (PettingZoo's action-mask convention)."""

    observation: Vector  # the seat's own observation as numbers
    action_mask: Mask  # 1 for each legal action of the agent to act; all 0 for the others


RENDER_MODES = ["ansi", "human"]


class EngineEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A game of the engine as a PettingZoo AEC environment (made by the ``*_v0`` modules)."""

    def __init__(
        self,
        game: str,
        players: int,
        variants: Sequence[str] = (),
        cards: str | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(
                f"render_mode must be one of {', '.join(RENDER_MODES)}, not {render_mode!r}"
            )
        self.game = get_game(game)
        self.config = self.game.config_from_options(players, variants, cards)
        self.codec = Codec(self.game, self.config)
        self.metadata = {
            "render_modes": RENDER_MODES,
            "name": f"{game}_v0",
            "is_parallelizable": False,
        }
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.possible_agents = [f"player_{q}" for q in range(players)]
        self._seat = {agent: q for q, agent in enumerate(self.possible_agents)}
        n = self.codec.num_actions
        box = spaces.Box(low=self.codec.low, high=self.codec.high, dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": box, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self._next_seed: int | None = None
        # Until reset(), nobody is to act: last(), observe() and step() say to call reset().
        self.agents: list[str] = []
        self.agent_selection = ""
        # The engine's state, for analysis and tests: agents read observe() / last(). (Not
        # PettingZoo's ``state()``, a global view for centralised training, which is not offered:
        # the numbers are made from a seat's observation only.)
        self.engine_state: GameState | None = None
        self._seed = 0
        self._numbers: list[int] = []  # the actions applied since the deal
        self._log: list[Event] = []
        self._cache: tuple[int, int, Observed] | None = None
        # The mask of every agent not to act: one array, read-only so nobody changes it for all.
        self._no_actions = np.zeros(n, np.int8)
        self._no_actions.flags.writeable = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        if seed is not None:
            self._next_seed = seed
        elif self._next_seed is None:
            self._next_seed = secrets.randbits(63)
        self._seed = self._next_seed
        self._next_seed += 1
        self.engine_state = self.game.new_game(self.config, self._seed)
        self._numbers = []
        self._log = list(self.engine_state.opening) if self.render_mode is not None else []
        self._cache = None
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.engine_state.to_act]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observed:
        state = self._started()
        seat = self._seat[agent]
        cache = self._cache
        if cache is not None and cache[0] == seat and cache[1] == state.move:
            return cache[2]
        codec = self.codec
        acting = not state.is_over and state.to_act == seat
        obs: Observed = {
            "observation": codec.encode(state.observation(seat)),
            "action_mask": codec.mask(state.legal_actions()) if acting else self._no_actions,
        }
        self._cache = (seat, state.move, obs)
        return obs

    def step(self, action: int | None) -> None:
        state = self._started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = self._number(action)
        events = state.apply(self.codec.actions[number])  # illegal: raises, changes nothing
        if self.render_mode is not None:
            self._log += events
        self._numbers.append(number)
        if state.is_over:
            result = state.result
            assert result is not None
            winners = set(result.winners)
            for q, other in enumerate(self.agents):
                self.rewards[other] = 1.0 if q in winners else -1.0
                self.terminations[other] = True
            self._cumulative_rewards[agent] = 0.0
            self._accumulate_rewards()
            self._deads_step_first()
        elif self.max_steps is not None and len(self._numbers) >= self.max_steps:
            for other in self.agents:
                self.truncations[other] = True
            self.agent_selection = self.possible_agents[state.to_act]
            self._deads_step_first()
        else:
            # Rewards come at the end only: every step before it leaves them all 0, which
            # PettingZoo's reward accumulation would only add up again.
            self.agent_selection = self.possible_agents[state.to_act]
        if self.render_mode == "human":
            self.render()

    def _number(self, action: int | None) -> int:
        actions = self.codec.actions
        if action is None or isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"an action is an integer 0–{len(actions) - 1}, not {action!r}")
        if not 0 <= action < len(actions):
            raise ValueError(f"there is no action {action} (the actions are 0–{len(actions) - 1})")
        return int(action)

    def _started(self) -> GameState:
        if self.engine_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.engine_state

    def record(self) -> GameRecord:
        """The game so far, as a record that ``apokalypse replay --verify`` accepts: the events
        digest and the result are made by replaying it here, once, rather than kept up at every
        step (hashing every event would slow every decision)."""
        actions = [str(self.codec.actions[i]) for i in self._numbers]
        config = self.config.to_json()
        record = GameRecord(self.game.name, self.game.version, config, self._seed, actions)
        replayed = replay(record)
        record.events_sha256 = replayed.digest
        result = replayed.state.result
        record.result = None if result is None else result.to_json()
        return record

    def render(self) -> str | None:
        """What everybody saw since the last render (the spectator's view) and who acts now."""
        if self.render_mode is None:
            return None
        state = self._started()
        texts = texts_for(self.game.name, self.config.to_json(), "en")
        names = [f"p{q + 1}" for q in range(len(self.possible_agents))]
        lines = texts.render_events([event.view(None) for event in self._log], names)
        self._log = []
        lines.append("game over" if state.is_over else f"{names[state.to_act]} to act")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.engine_state = None
