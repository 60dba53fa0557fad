"""Both games as OpenSpiel Python games: ``python_apokalypse`` and ``python_apokerlypse``.

:func:`register` registers them with ``pyspiel.register_game``; then
``pyspiel.load_game("python_apokalypse", {"players": 4})`` loads one like any OpenSpiel game.

- **Chance.** The game starts with one explicit chance node, the deal: its outcome is the
  engine's game seed, one of ``deals`` equally likely (parameter, default 65,536), and everything
  the engine shuffles or draws later follows from it. Nobody observes the outcome; every player
  sees only what the deal gives them (``apokalypse play --seed S`` deals the same game ``S``).
- **Actions** are the game's action table (:mod:`apokalypse.engine.features`), the same integers
  as the PettingZoo environments; ``action_to_string`` gives the engine's notation.
- **Information states** have perfect recall: ``information_state_string(p)`` is seat ``p``'s
  observation now (JSON) after a SHA-256 digest of every event as ``p`` saw it since the deal
  (``Event.view(p)``), so two histories share a string exactly when ``p`` saw the same things.
- **Observations**: ``observation_string(p)`` is the observation's JSON, ``observation_tensor(p)``
  the game's observation vector (``docs/rl.md``). Both come from ``state.observation(p)`` alone.
- **Returns** at the end only: +1 for each winner, -1 for everyone else (general-sum).
- **Resampling** (``resample_from_infostate``, which OpenSpiel's ISMCTS bot calls) is the
  engine's ``determinize``: a world consistent with everything the seat has seen. In a resampled
  world the other seats' histories are known only as far as they were public, so their
  information-state strings there use the public events; the world's OpenSpiel history is empty.
- ``str(state)`` is the spectator's view: nothing in it is secret.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from apokalypse.engine.codec import Codec
from apokalypse.engine.events import Event
from apokalypse.engine.match import MAX_DECISIONS
from apokalypse.engine.protocol import GameState
from apokalypse.engine.registry import entry, game_names, get_game
from apokalypse.engine.rng import Rng

DEALS = 1 << 16


# A game's parameters as OpenSpiel holds them (it types each by its default's type).
Params = dict[str, int | float | str | bool]


def _parameters(game: str) -> Params:
    """A game's parameters and their defaults (OpenSpiel types them by the default's type):
    seats, variants as comma-separated names, and the cards file its learning defaults name (a
    deck for Apokalypse, content for Apokerlypse)."""
    learning = entry(game).learning
    return {"players": learning.players, "variants": "", learning.cards: "", "deals": DEALS}


PARAMETERS: dict[str, Params] = {game: _parameters(game) for game in game_names()}
SHORT_NAMES = {game: f"python_{game}" for game in PARAMETERS}


def _game_type(game: str) -> pyspiel.GameType:
    engine = get_game(game)
    return pyspiel.GameType(
        short_name=SHORT_NAMES[game],
        long_name=game.capitalize(),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=engine.players[1],
        min_num_players=engine.players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS[game],
    )


def _canonical(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class _Table:
    """What every state of one loaded game shares: the engine game, its config and codec."""

    def __init__(self, game: str, params: Params) -> None:
        self.game = game
        self.params = params
        self.engine = get_game(game)
        variants = [v for v in str(params["variants"]).split(",") if v.strip()]
        cards = str(params.get(entry(game).learning.cards, "")) or None
        self.config = self.engine.config_from_options(int(params["players"]), variants, cards)
        self.players = int(params["players"])
        self.deals = int(params["deals"])
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")
        self.codec = Codec(self.engine, self.config)


# The steps that made a world, to rebuild it when it is pickled: the deal (a seed), an action (its
# integer).
DEAL, ACT = 0, 1


def _digest(digest: bytes, data: bytes) -> bytes:
    """A running SHA-256 over a history: immutable bytes, so copying a state copies nothing."""
    return hashlib.sha256(digest + data).digest()


class _World:
    """One state's engine side. OpenSpiel clones a Python state by deep-copying its attributes;
    this one copies itself with the engine's cheap ``clone`` and shares the table."""

    __slots__ = ("path", "public", "seen", "state", "table")

    def __init__(self, table: _Table) -> None:
        self.table = table
        self.state: GameState | None = None  # None: the deal is still to come
        self.public = b""  # digest of every event as a spectator saw it
        self.seen = [b""] * table.players  # … as each seat saw it
        # None in a resampled world: its steps would name the true deal, which its seat must not
        # learn from it (OpenSpiel hands the world to a bot's search).
        self.path: list[tuple[int, int]] | None = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _World:
        state = None if self.state is None else self.state.clone()
        path = None if self.path is None else list(self.path)
        return self._sibling(state, list(self.seen), path)

    def _sibling(
        self, state: GameState | None, seen: list[bytes], path: list[tuple[int, int]] | None
    ) -> _World:
        """A world of the same table and public history (a copy, or a resampled world)."""
        world = _World.__new__(_World)
        world.table = self.table
        world.state = state
        world.public = self.public
        world.seen = seen
        world.path = path
        return world

    def __reduce__(self) -> tuple[Any, ...]:
        if self.path is None:
            raise TypeError("a resampled world cannot be pickled: it is for one search only")
        return (_rebuild, (self.table.game, self.table.params, self.path))

    def deal(self, seed: int) -> None:
        self.state = self.table.engine.new_game(self.table.config, seed)
        if self.path is not None:
            self.path.append((DEAL, seed))
        self.tell(self.state.opening)

    def act(self, action: int) -> None:
        assert self.state is not None
        events = self.state.apply(self.table.codec.actions[action])
        if self.path is not None:
            self.path.append((ACT, action))
        self.tell(events)

    def tell(self, events: Sequence[Event]) -> None:
        seen = self.seen
        for event in events:
            public = _canonical(event.view(None).to_json()).encode()
            self.public = _digest(self.public, public)
            for q in range(len(seen)):
                if event.secret is not None and q in event.seen_by:
                    seen[q] = _digest(seen[q], _canonical(event.view(q).to_json()).encode())
                else:
                    seen[q] = _digest(seen[q], public)

    def resampled(self, player: int, seed: int) -> _World:
        assert self.state is not None
        seen = [h if q == player else self.public for q, h in enumerate(self.seen)]
        return self._sibling(self.state.determinize(player, Rng(seed)), seen, None)


def _rebuild(game: str, params: Params, path: list[tuple[int, int]]) -> _World:
    world = _World(_Table(game, params))
    for step, number in path:
        if step == DEAL:
            world.deal(number)
        else:
            world.act(number)
    return world


class EngineGame(pyspiel.Game):  # type: ignore[misc]
    """An engine game as an OpenSpiel game (one class per game: :class:`ApokalypseGame` …)."""

    game_name = ""

    def __init__(self, params: Params | None = None) -> None:
        merged = {**PARAMETERS[self.game_name], **(params or {})}
        self.table = _Table(self.game_name, merged)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.codec.num_actions,
            max_chance_outcomes=self.table.deals,
            num_players=self.table.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_DECISIONS,  # what the engine's Match allows a game
        )
        super().__init__(_game_type(self.game_name), info, merged)

    def new_initial_state(self) -> EngineState:
        return EngineState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.table.codec, perfect_recall)


def _game_class(game: str) -> type[EngineGame]:
    """The OpenSpiel class of one registered game (``ApokalypseGame`` …)."""
    name = f"{game.capitalize()}Game"
    made: type[EngineGame] = type(
        name, (EngineGame,), {"game_name": game, "__module__": __name__, "__qualname__": name}
    )
    return made


GAMES = {game: _game_class(game) for game in game_names()}
# Each class is also a name of this module, where pickle looks a class up by its name.
globals().update({cls.__name__: cls for cls in GAMES.values()})


class EngineState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: EngineGame) -> None:
        super().__init__(game)
        self.world = _World(game.table)

    @property
    def engine_state(self) -> GameState | None:
        """The engine's state (None before the deal): for analysis, never for a player."""
        return self.world.state

    def current_player(self) -> int:
        state = self.world.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.to_act

    def _legal_actions(self, player: int) -> list[int]:
        state = self.world.state
        assert state is not None and player == state.to_act
        return sorted(self.world.table.codec.numbers(state.legal_actions()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.world.table.deals
        p = 1.0 / deals
        return [(seed, p) for seed in range(deals)]

    def _apply_action(self, action: int) -> None:
        world = self.world
        if world.state is None:
            world.deal(action)
            return
        world.act(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self.world.table.codec.actions[action])

    def is_terminal(self) -> bool:
        state = self.world.state
        return state is not None and state.is_over

    def returns(self) -> list[float]:
        state = self.world.state
        players = self.world.table.players
        if state is None or not state.is_over or state.result is None:
            return [0.0] * players
        winners = set(state.result.winners)
        return [1.0 if q in winners else -1.0 for q in range(players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EngineState:
        """A world consistent with what ``player_id`` has seen (the engine's ``determinize``);
        ``probability_sampler()`` (a number in [0, 1)) seeds it."""
        if self.world.state is None:
            return self.clone()  # type: ignore[no-any-return]
        seed = int(float(probability_sampler()) * (1 << 53))
        world = self.get_game().new_initial_state()
        world.world = self.world.resampled(player_id, seed)
        return world  # type: ignore[no-any-return]

    def __str__(self) -> str:
        state = self.world.state
        if state is None:
            return "before the deal"
        return _canonical(state.observation(None))


class Observer:
    """OpenSpiel's Python observer: the observation tensor and strings of a seat."""

    def __init__(self, codec: Codec, perfect_recall: bool) -> None:
        self.codec = codec
        self.perfect_recall = perfect_recall
        # A perfect-recall tensor is not offered (provides_information_state_tensor is False).
        self.tensor = np.zeros(0 if perfect_recall else codec.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: EngineState, player: int) -> None:
        if self.perfect_recall:
            return
        engine = state.world.state
        if engine is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.codec.encode(engine.observation(player))

    def string_from(self, state: EngineState, player: int) -> str:
        world = state.world
        if world.state is None:
            return f"p{player + 1} before the deal"
        observation = _canonical(world.state.observation(player))
        if not self.perfect_recall:
            return observation
        return f"p{player + 1} seen {world.seen[player].hex()} {observation}"


def register() -> None:
    """Register both games with OpenSpiel (once per process; a second call does nothing)."""
    known = set(pyspiel.registered_names())
    for game, cls in GAMES.items():
        if SHORT_NAMES[game] not in known:
            pyspiel.register_game(_game_type(game), cls)
