"""The Apokerlypse game state and the protocol verbs: ``legal_actions``, ``apply``, ``clone``.

The rules live in the sibling modules: :mod:`.flow` (the dealer round, K-ROUND), :mod:`.effects`
(card effects and faction abilities, KD-SETUP-1), :mod:`.scoring` (K-SCORE, K-END). This module
holds the data and routes each decision. ``observation`` and ``determinize`` are in
:mod:`.secrecy`, the one place that decides what a player may see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event
from apokalypse.engine.protocol import check_seat
from apokalypse.engine.rng import Rng

from .actions import Action
from .config import Config
from .content import Content
from .effects import explain_frame, frame_apply, frame_legal
from .flow import advance, explain_flow, flow_apply, flow_legal
from .pending import SCORING, ChooseCard, ChooseTarget, Flow, Frame, GameOver, Window
from .scoring import Mods, Result, ScoreLine
from .secrecy import determinize, observation

if TYPE_CHECKING:
    from .observation import Observation

TOTAL_CHIPS = 48  # K-SETUP-1


class State:
    """Everything about one game. Cards are ints 0–51 (:mod:`.cards`); the draw pile keeps its
    top at the end of the list. Chips: ``sum(chips) + pot + bank == 48`` always."""

    __slots__ = (
        "ability_used",
        "action_chips",
        "bank",
        "broke",
        "chips",
        "config",
        "content",
        "dealer",
        "discards",
        "factions",
        "flow",
        "hands",
        "in_round",
        "known",
        "last_round",
        "legal_cache",
        "maybe",
        "mods",
        "moves",
        "n",
        "opening",
        "order",
        "pile",
        "pot",
        "result_",
        "revealed",
        "rng",
        "round",
        "scores",
        "short",
        "stack",
        "used",
    )

    config: Config
    content: Content
    n: int
    rng: Rng
    hands: list[list[int]]
    pile: list[int]
    discards: list[list[int]]  # one own discard pile per player (K-SETUP-2)
    chips: list[int]
    pot: int
    bank: int  # chips not dealt (fewer than 4 players) and chips lost to effects
    factions: tuple[int, ...]  # suit index of each seat's faction
    action_chips: list[int]
    ability_used: list[bool]  # K-SCORE-5: this round
    round: int
    dealer: int
    in_round: list[bool]  # False once dropped out (K-ROUND-3/4)
    short: list[bool]  # K-SHORT-1: could not pay this phase; hand frozen until it ends
    used: set[int]  # cards whose effect resolved (or was blocked) this round
    mods: list[Mods]
    known: list[dict[int, int]]  # per seat, then the public: card → the hand it is in
    maybe: list[dict[int, frozenset[int]]]  # per seat, then the public: card → possible hands
    revealed: bool
    order: tuple[int, ...]  # K-SCORE-1 evaluation order, once revealed
    scores: list[ScoreLine | None]
    flow: Flow | GameOver
    stack: list[Frame]
    broke: tuple[int, ...]  # K-END-1: who ran out of chips this round, in order
    last_round: bool  # nobody could pay this round's cost: the game ends after it
    result_: Result | None
    opening: list[Event]  # what happened inside new_game before the first decision
    legal_cache: list[Action] | None
    moves: int  # actions applied so far: a public move counter

    # --- protocol ------------------------------------------------------------------------------

    @property
    def move(self) -> int:
        """How many actions have been applied (the observations' ``move``)."""
        return self.moves

    @property
    def zero(self) -> bool:
        """K-END-1: somebody ran out of chips this round (the game ends after it)."""
        return bool(self.broke)

    @property
    def cost(self) -> int:
        """K-ROUND-1: round r costs r chips per draw phase."""
        return self.round

    @property
    def pending(self) -> Frame | Flow | GameOver:
        return self.stack[-1] if self.stack else self.flow

    @property
    def to_act(self) -> int:
        """The seat that decides now (-1 once the game is over)."""
        if self.stack:
            return self.stack[-1].player
        flow = self.flow
        if isinstance(flow, GameOver):
            return -1
        if flow.step == SCORING:
            return self.order[flow.pos]
        return (self.dealer + 1 + flow.pos) % self.n

    @property
    def is_over(self) -> bool:
        return type(self.flow) is GameOver

    @property
    def result(self) -> Result | None:
        return self.result_

    def legal_actions(self) -> list[Action]:
        legal = _legal(self)
        self.legal_cache = legal
        return legal

    def apply(self, action: Action) -> list[Event]:
        """Carry out ``action`` for ``to_act``; raises :class:`IllegalAction` naming the rule and
        leaves the state untouched. Every check happens before the first change."""
        legal = self.legal_cache
        self.legal_cache = None
        if (legal is None or action not in legal) and action not in _legal(self):
            _explain(self, action)
        events = _apply(self, action)
        advance(self, events)
        self.moves += 1
        return events

    def clone(self) -> State:
        s = State.__new__(State)
        s.config = self.config
        s.content = self.content
        s.n = self.n
        s.rng = self.rng.clone()
        s.hands = [h[:] for h in self.hands]
        s.pile = self.pile[:]
        s.discards = [d[:] for d in self.discards]
        s.chips = self.chips[:]
        s.pot = self.pot
        s.bank = self.bank
        s.factions = self.factions
        s.action_chips = self.action_chips[:]
        s.ability_used = self.ability_used[:]
        s.round = self.round
        s.dealer = self.dealer
        s.in_round = self.in_round[:]
        s.short = self.short[:]
        s.used = set(self.used)
        s.mods = self.mods[:]
        s.known = [k.copy() for k in self.known]
        s.maybe = [m.copy() for m in self.maybe]
        s.revealed = self.revealed
        s.order = self.order
        s.scores = self.scores[:]
        s.flow = self.flow
        s.stack = self.stack[:]
        s.broke = self.broke
        s.last_round = self.last_round
        s.result_ = self.result_
        s.opening = self.opening
        s.legal_cache = None
        s.moves = self.moves
        return s

    # ``player: object``, checked here: compiled by mypyc, an ``int`` parameter would turn a
    # wrong seat ("0", 0.0) into a TypeError, and True into seat 1, before the check.
    def observation(self, player: object) -> Observation:
        return observation(self, None if player is None else check_seat(player, self.n))

    def determinize(self, player: object, rng: Rng) -> State:
        return determinize(self, check_seat(player, self.n), rng)

    # --- helpers shared by the rule modules ----------------------------------------------------

    def hand_limit(self, seat: int) -> int:
        """K-ROUND-2: five cards, unless an effect allows more."""
        return 5 + self.mods[seat].extra

    def others_in_round(self, seat: int) -> list[int]:
        """The other players still in the round, clockwise from ``seat``'s left."""
        n = self.n
        return [q for q in ((seat + i) % n for i in range(1, n)) if self.in_round[q]]

    def take_chips(self, seat: int, amount: int) -> None:
        self.chips[seat] -= amount
        if self.chips[seat] == 0 and seat not in self.broke:  # K-END-1: ends after the round
            self.broke = (*self.broke, seat)


# --- dispatch -------------------------------------------------------------------------------


def _legal(s: State) -> list[Action]:
    if s.stack:
        return frame_legal(s, s.stack[-1])
    if isinstance(s.flow, GameOver):
        return []
    return flow_legal(s, s.flow)


def _apply(s: State, action: Action) -> list[Event]:
    if s.stack:
        return frame_apply(s, s.stack[-1], action)
    assert type(s.flow) is Flow
    return flow_apply(s, s.flow, action)


def _explain(s: State, action: Action) -> None:
    """Raise the refusal for an action that is not legal now, naming the rule it breaks."""
    if type(s.flow) is GameOver:
        raise IllegalAction("K-END-1", "the game is over", key="game.over")
    if action.seat >= s.n:
        raise IllegalAction(
            "K-SETUP-1",
            f"there is no seat p{action.seat + 1} in this game",
            key="seat.unknown",
            params={"seat": action.seat},
        )
    top = s.pending
    if isinstance(top, Window | ChooseTarget | ChooseCard):
        explain_frame(s, top, action)
    else:
        assert type(top) is Flow
        explain_flow(s, top, action)
    raise IllegalAction(  # a fallback, never silent
        "K-ROUND-2",
        f"{action} is not possible now",
        key="action.impossible",
        params={"action": str(action)},  # notation, typed the same in every language
    )
