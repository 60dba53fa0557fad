"""A searching player for any game: single-observer Information Set MCTS (Cowling, Powley &
Whitehouse 2012, "Information Set Monte Carlo Tree Search"), with availability counts.

The player never holds the true State. :class:`~apokalypse.engine.match.Match` hands it, with
its observation and the legal actions, a sampler of worlds (``state.determinize(seat, rng)``):
full states consistent with everything its seat has seen. Each iteration samples a fresh world
and walks one tree with it:

- **The tree is keyed by actions, across worlds.** The root is the information set the player is
  in (what its seat has seen, in order: :meth:`ISMCTSPlayer.infoset`); below it a node is the
  path of actions from the root, each named by its text (``str(action)``), which is the same in
  every world where the action exists. A node's children are the actions seen there in any
  world; a world offers only some of them (another world dealt another hand).
- **Availability counts.** Selection compares only the children the current world offers, and
  their UCB term uses how often each child *was available* instead of the parent's visits: an
  action that few worlds allow is not punished for being rarely tried.
- **Everybody's decisions are in the tree**, each chosen by its own player's value (max-n): the
  evaluation returns a value for every seat of the sampled world, whose other ethos and hands
  were drawn by the sampler. Their actions are keyed by text like the player's own, so the
  tree treats them as seen (the known weakness of the single-observer form).
- **Rollouts** play uniformly random actions for at most ``rollout_depth`` decisions and then
  score the position with the game's evaluation (``bots/<game>/evaluate.py``); a finished game
  scores by its result. The most visited root action is chosen; :attr:`ISMCTSPlayer.last` keeps
  the best candidates with their visits, availability and mean values ("why did it do that?").

**An anchor (optional).** A game whose rule-of-thumb player knows things the search does not
(how the other players really play: the tree lets them see every sampled hand) may make that
player's choice the default: the search's own choice replaces it only where its mean value beats
the anchor's by ``anchor_margin``. The search then adds what it sees clearly (an exact final
scoring, a sure win) and leaves the rest to the rules of thumb; :attr:`Explanation.anchor` says
which action the anchor chose.

A game may lend the player what it knows beyond the rules (:class:`Beliefs`, e.g. Apokalypse's
ethos beliefs, ``bots/apokalypse/beliefs.py``): it is told what the seat sees, redraws part of
each sampled world (the others' secret roles, from what they did), and may penalise root actions
(the player's own secret shown too early); the explanation carries its data.

The budget is a number of iterations (deterministic: the same seed, observations and worlds give
the same choice) or seconds per decision. Each decision draws one number from the player's own
stream, whatever the budget spent, so a game resumed by :meth:`Match.catch_up` (which asks with
``choose``, without a search) leaves the stream exactly where the uninterrupted game had it.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol

from typing_extensions import TypeVar  # with a default (PEP 696; in typing from 3.13)

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.events import EventView
from apokalypse.engine.match import Worlds
from apokalypse.engine.protocol import GameState
from apokalypse.engine.rng import Rng

from .base import BaseBot, PlayerFactory

# The game's action and observation types; a player built without its game's beliefs (the
# tests, a game without any) is a player of any game.
A = TypeVar("A", default=Any)
O = TypeVar("O", default=Any)  # noqa: E741
A_contra = TypeVar("A_contra", contravariant=True)
O_contra = TypeVar("O_contra", contravariant=True)

# A value in [0, 1] for every seat of a (sampled) world, higher is better for that seat.
Evaluation = Callable[[GameState], Sequence[float]]

TOP = 5  # candidates kept in :attr:`ISMCTSPlayer.last`
MAX_DEPTH = 10_000  # a rollout without a depth limit still ends (a game is far shorter)


@dataclass(frozen=True)
class Candidate:
    """One root action after a search: how often it was tried, how often the sampled worlds
    offered it, and its mean value for the player (0 … 1)."""

    action: str
    visits: int
    available: int
    mean: float


@dataclass(frozen=True)
class Explanation:
    """Why the last choice: the information set searched, the budget spent and the best
    candidates, most visited first (the chosen one leads). Data only."""

    infoset: str
    chosen: str
    iterations: int
    seconds: float
    candidates: tuple[Candidate, ...]
    belief: Mapping[str, float] | None = None  # the player's beliefs, e.g. P(good) per seat
    anchor: str | None = None  # the anchor player's choice, where the search has one


class Beliefs(Protocol[A_contra, O_contra]):
    """A game's knowledge the search consults (optional): fed exactly what the seat sees, it
    redraws part of each sampled world and may penalise showing something at the root."""

    def observe(self, events: Sequence[EventView]) -> None:
        """The seat's event views, as the player is told them."""
        ...

    def see(self, observation: O_contra) -> None:
        """The seat's observation of each decision, before it is searched."""
        ...

    def world(self, world: GameState, rng: Rng) -> GameState:
        """A sampled world (the player's own copy), changed where the beliefs know better than
        the sampler's uniform draw; drawn with ``rng``."""
        ...

    def root_penalty(self, observation: O_contra, action: A_contra) -> float:
        """Value (0 … 1 units) taken off a root action in selection: 0 for most."""
        ...

    def explain(self) -> Mapping[str, float] | None:
        """Plain data for the :class:`Explanation`."""
        ...


class Node:
    """Statistics of one action path from the root; ``total`` sums the values of the player
    who chose the action leading here."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0

    def ucb(self, exploration: float) -> float:
        return self.total / self.visits + exploration * math.sqrt(
            math.log(self.available) / self.visits
        )


def players_of(state: GameState) -> int:
    """The number of seats (every game's observation says it)."""
    return int(state.observation(None)["players"])


def result_values(state: GameState, players: int) -> list[float]:
    """A finished game: 1 for every winner (tied winners all win), 0 for everybody else."""
    result = state.result
    winners = set(result.winners) if result is not None else set()
    return [1.0 if q in winners else 0.0 for q in range(players)]


def plain_evaluation(state: GameState) -> list[float]:
    """For a game without its own evaluation: the result once over, an even 0.5 before (then
    rollouts should run to the end: ``rollout_depth=None``)."""
    players = players_of(state)
    if state.is_over:
        return result_values(state, players)
    return [0.5] * players


def check_budget(iterations: int | None, seconds: float | None) -> None:
    """Exactly one budget, and a positive one: otherwise a one-line :class:`ConfigError`."""
    if (iterations is None) == (seconds is None):
        raise ConfigError("an ISMCTS player needs exactly one budget: iterations or seconds")
    if iterations is not None and (type(iterations) is not int or not 0 < iterations <= 10_000_000):
        raise ConfigError(
            f"ISMCTS iterations must be a whole number 1 … 10,000,000, not {iterations!r}"
        )
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not 0 < seconds <= 3600
        or math.isnan(seconds)
    ):
        raise ConfigError(f"ISMCTS seconds must be more than 0 and at most 3600, not {seconds!r}")


class ISMCTSPlayer(BaseBot, Generic[A, O]):
    """Single-observer ISMCTS with availability counts (see the module docstring).

    ``iterations`` or ``seconds`` (exactly one) is the budget per decision; ``exploration`` the
    UCB constant (for values in 0 … 1); ``rollout_depth`` how many random decisions a rollout
    plays before the evaluation scores the position (None: to the end of the game);
    ``evaluate`` the game's evaluation; ``fallback`` builds the player that answers a plain
    ``choose`` (no sampler: a game being caught up, or a caller outside a Match), seeded from
    this decision's number; without it such a choice is uniform. ``anchor_margin`` (with a
    ``fallback``) makes the fallback's choice the default of every search too: the most visited
    root action replaces it only when its mean value is higher by more than the margin (None:
    the search alone decides; a function gives the margin per decision from its observation,
    1 or more: the anchor always stands, and nothing is searched unless ``search_anchored``
    is set). ``beliefs`` (one per player, it remembers the game)
    is consulted as :class:`Beliefs` says.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout_depth: int | None = 20,
        evaluate: Evaluation = plain_evaluation,
        fallback: PlayerFactory | None = None,
        anchor_margin: float | Callable[[O], float] | None = None,
        beliefs: Beliefs[A, O] | None = None,
    ) -> None:
        check_budget(iterations, seconds)
        if anchor_margin is not None and (
            fallback is None
            or isinstance(anchor_margin, bool)
            or not (callable(anchor_margin) or 0 <= anchor_margin <= 1)  # values are 0 … 1
        ):
            raise ConfigError(
                "ISMCTS anchor margin must be 0 … 1 (or a function of the observation) with a"
                f" fallback player, not {anchor_margin!r}"
            )
        if isinstance(exploration, bool) or not 0 <= exploration <= 100:
            raise ConfigError(f"ISMCTS exploration must be 0 … 100, not {exploration!r}")
        if rollout_depth is not None and (type(rollout_depth) is not int or rollout_depth < 0):
            raise ConfigError(f"ISMCTS rollout depth must be 0 or more, not {rollout_depth!r}")
        self.rng = Rng(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_depth = MAX_DEPTH if rollout_depth is None else rollout_depth
        self.evaluate = evaluate
        self.fallback = fallback
        self.anchor_margin = anchor_margin
        self.beliefs = beliefs
        # What a time budget is counted by: a test gives a clock of its own, so that when a
        # search stops is a matter of the clock's readings, not of how busy the machine is.
        self.clock: Callable[[], float] = time.perf_counter
        self.last: Explanation | None = None
        # Search where the anchor always stands too (a margin of 1 or more): the coach shows
        # the search's ranking of the choices; a player only needs the choice.
        self.search_anchored = False
        self._penalty: dict[str, float] = {}  # this decision's root penalties, by action text
        # The information set at the root: a running hash of everything this seat was shown
        # (its event views in order, then each observation it decided on).
        self._seen = hashlib.sha256()

    # --- what the seat has seen ----------------------------------------------------------------

    def observe(self, events: Sequence[EventView]) -> None:
        for event in events:
            self._seen.update(_canonical(event.to_json()))
        if self.beliefs is not None:
            self.beliefs.observe(events)

    def infoset(self, observation: object) -> str:
        """The key of the information set of a decision: this seat's history, then the
        observation it is asked with (a short hex digest)."""
        key = self._seen.copy()
        key.update(_canonical(observation))
        return key.hexdigest()[:16]

    # --- choosing --------------------------------------------------------------------------------

    def choose(self, observation: O, legal: Sequence[A]) -> A:
        """Without a sampler no search is possible: the fallback player answers (a resumed game
        asks this way, and throws the answer away)."""
        seed = self.rng.next64()  # one draw per decision, as in choose_in
        self._seen.update(_canonical(observation))
        if self.beliefs is not None:
            self.beliefs.see(observation)
        if self.fallback is None or len(legal) == 1:
            return Rng(seed).choice(list(legal))
        chosen: A = self.fallback(seed).choose(observation, legal)
        return chosen

    def choose_in(self, observation: O, legal: Sequence[A], worlds: Worlds) -> A:
        seed = self.rng.next64()  # one draw per decision, whatever the budget spends
        infoset = self.infoset(observation)
        self._seen.update(_canonical(observation))
        beliefs = self.beliefs
        if beliefs is not None:
            beliefs.see(observation)
        if len(legal) == 1:
            belief = None if beliefs is None else beliefs.explain()
            self.last = Explanation(infoset, str(legal[0]), 0, 0.0, (), belief)
            return legal[0]
        margin = self.anchor_margin
        if callable(margin):
            margin = margin(observation)
        anchor = None
        if margin is not None and self.fallback is not None:
            # The same player, seed and question as a plain ``choose``: a game caught up
            # without a search makes this decision alike wherever the search would defer.
            kept: A = self.fallback(seed).choose(observation, legal)
            anchor = str(kept)
            if margin >= 1 and not self.search_anchored:
                # No gain over the anchor can exceed 1 (values are 0 … 1): a search here
                # could only confirm the anchor's choice, so it is not spent.
                belief = None if beliefs is None else beliefs.explain()
                self.last = Explanation(infoset, anchor, 0, 0.0, (), belief, anchor)
                return kept
        self._penalty = {}
        if beliefs is not None:
            for action in legal:
                penalty = beliefs.root_penalty(observation, action)
                if penalty:
                    self._penalty[str(action)] = penalty
            worlds = _through(beliefs, worlds)
        root, iterations, seconds = self._search(worlds, Rng(seed))
        by_text = {str(a): a for a in legal}
        ranked = sorted(
            (c for t, c in root.children.items() if t in by_text),
            key=lambda c: (c.visits, c.total),
            reverse=True,
        )
        texts = {id(c): t for t, c in root.children.items()}
        chosen_text = texts[id(ranked[0])] if ranked else str(legal[0])
        if anchor is not None and margin is not None:
            chosen_text = _anchored(root, chosen_text, anchor, margin)
            lead = root.children.get(chosen_text)
            ranked.sort(key=lambda c: c is not lead)  # the chosen one leads (stable)
        self.last = Explanation(
            infoset,
            chosen_text,
            iterations,
            seconds,
            tuple(
                Candidate(texts[id(c)], c.visits, c.available, c.total / max(1, c.visits))
                for c in ranked[:TOP]
            ),
            None if beliefs is None else beliefs.explain(),
            anchor,
        )
        return by_text[chosen_text]

    def _search(self, worlds: Worlds, rng: Rng) -> tuple[Node, int, float]:
        root = Node()
        clock = self.clock
        start = clock()
        deadline = None if self.seconds is None else start + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and clock() >= deadline:
                break
            self.iterate(root, worlds(rng), rng)
            done += 1
        return root, done, clock() - start

    def iterate(self, root: Node, world: GameState, rng: Rng) -> None:
        """One iteration on a sampled world: select (UCB over the available children, with
        availability counts), expand one untried action, roll out, score, back up."""
        path: list[tuple[Node, int]] = []  # each node passed and the seat that chose it
        node = root
        c = self.exploration
        penalty = self._penalty
        while not world.is_over:
            legal = world.legal_actions()
            actor = world.to_act
            children = node.children
            untried: list[tuple[str, object]] = []  # the sampled world's own actions
            best: Node | None = None
            best_action: object = None
            best_value = -math.inf
            for action in legal:
                text = str(action)
                child = children.get(text)
                if child is None:
                    untried.append((text, action))
                    continue
                child.available += 1
                if not untried:  # once something is untried, selection is over here
                    value = child.ucb(c)
                    if penalty and node is root:
                        value -= penalty.get(text, 0.0)
                    if value > best_value:
                        best, best_action, best_value = child, action, value
            if untried:
                text, action = untried[rng.below(len(untried))]
                best = children[text] = Node()
                best.available = 1
                world.apply(action)
                path.append((best, actor))
                break
            assert best is not None  # a game that is not over offers an action
            world.apply(best_action)
            path.append((best, actor))
            node = best
        self._rollout(world, rng)
        values = self.evaluate(world)
        for node, actor in path:
            node.visits += 1
            node.total += values[actor]

    def _rollout(self, world: GameState, rng: Rng) -> None:
        for _ in range(self.rollout_depth):
            if world.is_over:
                return
            legal = world.legal_actions()
            world.apply(legal[rng.below(len(legal))])


def _anchored(root: Node, searched: str, anchor: str, margin: float) -> str:
    """The anchor's action, unless the search's choice is worth more than ``margin`` more (an
    action the search never tried keeps the anchor's)."""
    best, kept = root.children.get(searched), root.children.get(anchor)
    if best is None or kept is None or not best.visits or not kept.visits:
        return anchor
    gain = best.total / best.visits - kept.total / kept.visits
    return searched if gain > margin else anchor


def _through(beliefs: Beliefs[A, O], worlds: Worlds) -> Worlds:
    """The sampler's worlds, each redrawn by the beliefs with the same random stream."""

    def sample(rng: Rng) -> GameState:
        return beliefs.world(worlds(rng), rng)

    return sample


def _canonical(data: object) -> bytes:
    """Plain data as bytes that are equal exactly when the data are (the information set key)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str).encode()


__all__ = [
    "Beliefs",
    "Candidate",
    "Evaluation",
    "Explanation",
    "ISMCTSPlayer",
    "Node",
    "check_budget",
    "plain_evaluation",
    "result_values",
]
