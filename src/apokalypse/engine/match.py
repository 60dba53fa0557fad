"""One game being played: the players at its seats and the one loop that asks them.

The terminal (:mod:`apokalypse.cli.session`), the simulator and the bot tests all play through a
:class:`Match`, so a computer player is asked, told and resumed the same way everywhere:

- it receives its seat's observation and the legal actions, never the State (docs/design.md:
  the observation is the one secrecy boundary), and answers with one of the legal actions;
- it is told every event as its seat sees it (``Event.view(seat)``), the opening included;
- a game resumed from its record asks it again at its seats and throws the answers away, so its
  random stream and memory end where they were (:meth:`Match.catch_up`);
- a searching player (:class:`SearchingPlayer`) is also handed a sampler of worlds: each call
  returns ``state.determinize(seat, rng)``, a full state consistent with what its seat has seen
  and nothing more. The player still never holds the true State.

Seats without a computer player are people's: whoever runs the match asks them and passes their
action to :meth:`Match.apply`. The match keeps the action texts and the running event digest, so
whatever happens the caller can write a record that replays up to the last applied action.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Generic, Protocol, TypeGuard, runtime_checkable

from typing_extensions import TypeVar  # with a default (PEP 696; in typing from 3.13)

from .erased import Erased
from .errors import EngineError, IllegalAction
from .events import Event, EventView
from .protocol import Game, GameState
from .record import EventDigest, apply_recorded
from .rng import Rng

# The game's action and observation types. Code that seats players of any game (the commands,
# the server, the lab) writes plain ``Player`` / ``Match``: the game is chosen at run time, so
# they default to the erased types (:mod:`.erased`), as ``GameState`` and ``Game`` do.
A = TypeVar("A", default=Erased)
O = TypeVar("O", default=Erased)  # noqa: E741 (the observation type)
O_contra = TypeVar("O_contra", contravariant=True, default=Erased)

# A real game ends in well under 10,000 decisions (random 6-player Apokalypse games take about
# 1,500, Apokerlypse games a few hundred); a player that never passes must not hang a simulation.
MAX_DECISIONS = 100_000


class Player(Protocol[A, O_contra]):
    """A computer player: picks one of the legal actions from what its seat sees."""

    name: str
    # True for a player that never looks at observations or events (the random player): it is
    # then given an empty observation and no events, which are most of the cost of a playout.
    blind: bool

    def choose(self, observation: O_contra, legal: Sequence[A]) -> A:
        """One of ``legal`` (never empty when asked)."""
        ...

    def observe(self, events: Sequence[EventView]) -> None:
        """Events of the last action (or the opening) as this player's seat sees them."""
        ...


# A sampler of worlds for one decision: every call is a full state consistent with the asking
# seat's view (``GameState.determinize``), drawn with the caller's random stream.
Worlds = Callable[[Rng], GameState]


@runtime_checkable
class SearchingPlayer(Protocol[A, O_contra]):
    """A computer player that searches: besides being a :class:`Player`, it can choose with a
    sampler of worlds consistent with its seat's view (Information Set search). :class:`Match`
    asks such a player with :meth:`choose_in`; everybody else is asked with ``choose``."""

    def choose_in(self, observation: O_contra, legal: Sequence[A], worlds: Worlds) -> A:
        """One of ``legal``; ``worlds(rng)`` samples a world for this decision."""
        ...


def _sees_nothing(player: Player[A, O_contra]) -> TypeGuard[Player[A, object]]:
    """Whether ``player`` is blind: it never looks at an observation, so any will do (the
    match gives it an empty one)."""
    return player.blind


class GameTooLong(EngineError):
    pass


class Match(Generic[A, O]):
    """A game in progress with the computer players at some of its seats."""

    def __init__(
        self,
        state: GameState,
        players: Mapping[int, Player[A, O]],
        digest: EventDigest | None = None,
    ) -> None:
        self.state = state
        self.players = dict(players)
        self.actions: list[str] = []  # every applied action's text, in order
        self.digest = digest if digest is not None else EventDigest()
        # Blind players, who are given an empty observation (Player.blind), by seat.
        self._blind = {seat: p for seat, p in self.players.items() if _sees_nothing(p)}
        self._watching = [seat for seat in sorted(self.players) if seat not in self._blind]
        # Decided once: a protocol check per decision would slow every random playout.
        self._searching = frozenset(
            seat for seat, p in self.players.items() if isinstance(p, SearchingPlayer)
        )

    def start(self) -> list[Event]:
        """What happened before the first decision (``state.opening``), told to the players.
        (The digest a record starts with already holds it: ``GameRecord.start_digest``.)"""
        events = list(self.state.opening)
        self._tell(events)
        return events

    def is_computer(self, seat: int) -> bool:
        return seat in self.players

    def ask(self, search: bool = True) -> A:
        """The choice of the computer player whose turn it is. A searching player is handed a
        sampler of worlds too, unless ``search`` is False (a catch-up, whose answer is thrown
        away: a search would spend its whole budget on every replayed move)."""
        seat = self.state.to_act
        blind = self._blind.get(seat)
        player = self.players[seat]
        if search and seat in self._searching:
            assert isinstance(player, SearchingPlayer)
            obs = {} if blind is not None else self.state.observation(seat)
            chosen: A = player.choose_in(obs, self.state.legal_actions(), self._sampler(seat))
            return chosen
        if blind is not None:
            return blind.choose({}, self.state.legal_actions())
        return player.choose(self.state.observation(seat), self.state.legal_actions())

    def _sampler(self, seat: int) -> Worlds:
        """Worlds for ``seat``'s decision now. The sampler holds the true state only to redeal
        what the seat cannot see; it is meant for this one decision (the state moves on)."""
        state = self.state

        def worlds(rng: Rng) -> GameState:
            return state.determinize(seat, rng)

        return worlds

    def apply(self, action: A) -> list[Event]:
        """Apply an action (a person's or a computer player's), record it and tell the players.
        A refused action raises the engine's :class:`IllegalAction` and changes nothing."""
        return self._applied(str(action), self.state.apply(action))

    def play_turn(self) -> tuple[A, list[Event]]:
        """Let the computer player whose turn it is act. A choice the rules refuse is a bug of
        that player: an :class:`EngineError` names the seat and the action."""
        if len(self.actions) >= MAX_DECISIONS:
            raise GameTooLong(f"no end after {MAX_DECISIONS} decisions")
        seat = self.state.to_act
        action = self.ask()
        try:
            return action, self.apply(action)
        except IllegalAction as exc:
            raise EngineError(
                f"the computer player at p{seat + 1} chose {action}, which the rules refuse ({exc})"
            ) from None

    def play_out(self) -> None:
        """Play to the end; every seat must have a computer player."""
        while not self.state.is_over:
            self.play_turn()

    def catch_up(self, game: Game, actions: Sequence[str]) -> list[list[Event]]:
        """Apply a record's ``actions`` (texts) after those already applied. The computer players
        are asked at their seats as in the game itself and their answers thrown away, so a
        resumed game goes on exactly as the uninterrupted one would. A
        :class:`~.record.RecordError` names the first action that fails."""
        applied = []
        for number, text in enumerate(actions, len(self.actions) + 1):
            if self.state.to_act in self.players:
                self.ask(search=False)
            applied.append(self._applied(text, apply_recorded(game, self.state, number, text)))
        return applied

    def _applied(self, text: str, events: list[Event]) -> list[Event]:
        """Record an applied action's text and events, and tell the players."""
        self.actions.append(text)
        self.digest.add(events)
        self._tell(events)
        return events

    def _tell(self, events: Sequence[Event]) -> None:
        if events:
            for seat in self._watching:
                self.players[seat].observe([event.view(seat) for event in events])


def play_out(
    state: GameState, players: Sequence[Player[A, O]], digest: EventDigest | None = None
) -> Match[A, O]:
    """Play a fresh game between computer players, one per seat in order (tests, benchmarks)."""
    match = Match(state, dict(enumerate(players)), digest)
    match.start()
    match.play_out()
    return match
