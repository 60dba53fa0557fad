"""The Apokerlypse game state and the protocol verbs: ``legal_actions``, ``apply``, ``clone``.

The data is :class:`.table.Table`; the rules live in the sibling modules: :mod:`.flow` (the
dealer round, K-ROUND), :mod:`.effects` (card effects and faction abilities, KD-SETUP-1),
:mod:`.scoring` (K-SCORE, K-END). This module routes each decision to them. ``observation``
and ``determinize`` are in :mod:`.secrecy`, the one place that decides what a player may see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event
from apokalypse.engine.protocol import check_seat
from apokalypse.engine.rng import Rng

from .actions import Action
from .effects import explain_frame, frame_apply, frame_legal
from .flow import advance, explain_flow, flow_apply, flow_legal
from .pending import ChooseCard, ChooseTarget, Flow, GameOver, Window
from .secrecy import observation, redeal
from .table import TOTAL_CHIPS as TOTAL_CHIPS  # where setup and the tests have it
from .table import Table

if TYPE_CHECKING:
    from .observation import Observation


class State(Table):
    """A game of Apokerlypse as the engine's protocol takes it: its :class:`.table.Table` and
    the verbs (``legal_actions``, ``apply``, ``clone``, ``observation``, ``determinize``)."""

    __slots__ = ("legal_cache",)

    legal_cache: list[Action] | None  # the last legal_actions(), valid until the next apply

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
        seat = check_seat(player, self.n)
        world = self.clone()
        redeal(world, self, seat, rng)
        return world


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
