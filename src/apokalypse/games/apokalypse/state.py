"""The Apokalypse game state and the protocol verbs: ``legal_actions``, ``apply``, ``clone``.

:class:`State` is a :class:`.board.Board` (the data and its copy-on-write accessors) with the
protocol verbs, and this module keeps the turn order (R-TURN): it routes each decision to the rule
module that carries it out (placement, attacks, dealing, horsemen, ending). ``observation`` and
``determinize`` come from :mod:`.secrecy`, the one place that decides what a player may see. The
rule modules take a Board and never import this module: imports run data ← rules ← turns.
"""

from __future__ import annotations

from typing import cast

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event
from apokalypse.engine.protocol import check_seat
from apokalypse.engine.rng import Rng

from . import attacks, dealing, horsemen, placement, refusals
from . import events as ev
from .actions import PASS, Action, code_action, seat_action
from .board import Board
from .dealing import CAPITAL, POPULATION
from .ending import Result, result
from .observation import Observation
from .pending import (
    ChooseDestination,
    ChooseGift,
    ChooseRecipient,
    ChooseTarget,
    ChooseVictim,
    Defence,
    GameOver,
    Pending,
    PlaceSeal,
    Turn,
    choose_gift,
    choose_target,
    turn,
)
from .roles import Use
from .secrecy import observation, redeal


class State(Board):
    """One game of Apokalypse as the engine's protocol sees it: the board and the verbs."""

    __slots__ = ("legal_cache",)

    legal_cache: list[Action] | None  # the last legal_actions(), valid until the next apply

    @property
    def opening(self) -> tuple[Event, ...]:
        """Events of ``new_game`` before the first decision: none, the first player decides
        before anything happens."""
        return ()

    @property
    def to_act(self) -> int:
        """The seat that decides now (-1 once the game is over)."""
        return self.pending.player

    @property
    def is_over(self) -> bool:
        return type(self.pending) is GameOver

    @property
    def result(self) -> Result | None:
        return result(self) if self.is_over else None

    def legal_actions(self) -> list[Action]:
        legal = _legal(self, self.pending)
        self.legal_cache = legal
        return legal

    def apply(self, action: Action) -> list[Event]:
        """Carry out ``action`` for ``to_act``; raises :class:`IllegalAction` (state untouched).

        An action from the last ``legal_actions()`` skips re-validation; any other action is
        checked rule by rule, so that a refusal names the rule it breaks."""
        legal = self.legal_cache
        self.legal_cache = None
        checked = legal is not None and action in legal
        events = _apply(self, self.pending, action, checked)
        self.move += 1
        return events

    def clone(self) -> State:
        s = State.__new__(State)
        self.copy_to(s)
        s.legal_cache = None
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


def _seat_ok(s: State, action: Action) -> None:
    if not 0 <= action.seat < s.n:
        raise IllegalAction(
            "R-PLAY-1",
            f"there is no seat p{action.seat + 1} in this game",
            key="seat.unknown",
            params={"seat": action.seat},
        )


# --- one legal/apply pair per kind of decision --------------------------------------------------


def _legal_turn(s: State, p: Turn) -> list[Action]:
    return [PASS, *placement.plays(s, p.player)]


def _apply_turn(s: State, p: Turn, action: Action, checked: bool) -> list[Event]:
    player = p.player
    if action.verb == "pass":
        return _pass(s, player)
    if action.verb != "play":
        raise IllegalAction(
            "R-TURN-1",
            f"on a turn you play a card or pass, not {action.verb!r}",
            key="turn.play-or-pass",
            params={"verb": action.verb},
        )
    if not checked:
        refusals.check_play(s, player, action.code, action.use)
    # check_play (or the legal list the action came from) refused an empty or unknown use
    s.pending = choose_target(player, action.code, cast(Use, action.use))
    return []


def _pass(s: State, player: int) -> list[Event]:
    s.passed[player] = True
    told: ev.Pass = {"actor": player}
    events = [Event("pass", told)]
    if s.first_passer < 0:
        s.first_passer = player  # R-TURN-3
    if s.passed.count(False) <= 1:  # R-TURN-4: the round ends at once
        events += _end_round(s)
    else:
        s.end_turn(player)
    return events


def _end_round(s: State) -> list[Event]:
    """R-TURN-4 → R-DEAL: the first to pass deals, population first, then capital; a horseman
    drawn from either deck rides once the dealing stops (R-DEAL-5), else a new round starts."""
    s.startup = s.first_passer  # R-TURN-3
    ended: ev.RoundEnd = {"round": s.round, "startup": s.startup}
    events = [Event("round-end", ended)]
    drawn: list[int] = []
    for deck in (POPULATION, CAPITAL):
        horse = dealing.deal(s, deck, events)
        if horse >= 0:
            drawn.append(horse)
    if drawn:  # R-DEAL-5
        return events + horsemen.ride(s, drawn)
    return events + dealing.new_round(s)


def _legal_target(s: State, p: ChooseTarget) -> list[Action]:
    return placement.targets(s, p.code, p.use)


def _apply_target(s: State, p: ChooseTarget, action: Action, checked: bool) -> list[Event]:
    if action.verb == "back":
        s.pending = turn(p.player)
        return []
    if action.verb != "target":
        raise IllegalAction(
            "R-TURN-1",
            f"choose where {p.code} goes: 'target p<seat>.<side>…'",
            key="target.choose-place",
            params={"card": p.code},
        )
    if not checked:
        _seat_ok(s, action)
        if action not in placement.targets(s, p.code, p.use):
            refusals.explain(s, p.code, p.use, action)
    if p.use == "attack":
        return attacks.declare(s, p.player, p.code, action.seat, action.side)
    return placement.execute(s, p.player, p.code, p.use, action)


def _legal_gift(s: State, p: ChooseGift) -> list[Action]:
    kinds = s.table.kind
    codes = dict.fromkeys([kinds[c].code for c in s.hands[p.player]])
    return [code_action("give", code) for code in codes]


def _apply_gift(s: State, p: ChooseGift, action: Action, checked: bool) -> list[Event]:
    if action.verb != "give":
        raise IllegalAction(
            "R-PLAY-4", "a good deed: choose a card to give ('give <card>')", key="gift.choose-card"
        )
    if not s.holds(p.player, action.code):
        raise IllegalAction(
            "R-PLAY-4",
            f"you hold no {action.code!r} to give",
            key="gift.not-held",
            params={"card": action.code},
        )
    s.pending = ChooseRecipient(p.player, action.code)
    return []


def _legal_recipient(s: State, p: ChooseRecipient) -> list[Action]:
    return [seat_action("to", q) for q in range(s.n) if q != p.player]


def _apply_recipient(s: State, p: ChooseRecipient, action: Action, checked: bool) -> list[Event]:
    if action.verb == "back":  # choose another card to give; the good deed itself stands
        s.pending = choose_gift(p.player)
        return []
    if action.verb != "to":
        raise IllegalAction(
            "R-PLAY-4",
            "a good deed: choose the player to give to ('to p<seat>')",
            key="gift.choose-player",
        )
    _seat_ok(s, action)
    if action.seat == p.player:
        raise IllegalAction("R-PLAY-4", "the gift goes to another player", key="gift.self")
    return placement.give(s, p.player, p.code, action.seat)


def _legal_victim(s: State, p: ChooseVictim) -> list[Action]:
    hands = s.hands
    return [seat_action("steal", q) for q in range(s.n) if q != p.player and hands[q]]


def _apply_victim(s: State, p: ChooseVictim, action: Action, checked: bool) -> list[Event]:
    if action.verb != "steal":
        raise IllegalAction(
            "R-PLAY-5",
            "an evil deed: choose whom to steal from ('steal p<seat>')",
            key="steal.choose-player",
        )
    _seat_ok(s, action)
    if action.seat == p.player or not s.hands[action.seat]:
        raise IllegalAction(
            "R-PLAY-5",
            f"p{action.seat + 1} is not another player holding cards",
            key="steal.no-cards",
            params={"seat": action.seat},
        )
    return placement.steal(s, p.player, action.seat)


def _legal_defence(s: State, p: Defence) -> list[Action]:
    return attacks.defences(s, p)


def _apply_defence(s: State, p: Defence, action: Action, checked: bool) -> list[Event]:
    return attacks.answer(s, p, action)  # its checks are a few comparisons


def _legal_destination(s: State, p: ChooseDestination) -> list[Action]:
    return [seat_action("to", q) for q in range(s.n)]


def _apply_destination(
    s: State, p: ChooseDestination, action: Action, checked: bool
) -> list[Event]:
    if action.verb != "to":
        raise IllegalAction(
            "R-ATTACK-3",
            "choose the display the populace moves to ('to p<seat>')",
            key="convert.choose-display",
        )
    _seat_ok(s, action)
    return attacks.convert(s, p, action.seat)


def _legal_seal(s: State, p: PlaceSeal) -> list[Action]:
    return placement.seal_targets(s)


def _apply_seal(s: State, p: PlaceSeal, action: Action, checked: bool) -> list[Event]:
    if action.verb != "target":
        raise IllegalAction(
            "R-REWARD-3",
            "place the seal now: 'target p<seat>.<side>.<plane>…'",
            key="seal.place-now",
        )
    if not checked and action not in placement.seal_targets(s):
        raise IllegalAction(
            "R-REWARD-3",
            "a seal goes as Church Music over a good populace, as Heavy Metal under an evil one,"
            " in place of a card there that is not music, or onto a displayed music card to"
            " neutralise it",
            key="seal.wrong-place",
        )
    return horsemen.place_seal(s, p, action)


def _legal_over(s: State, p: GameOver) -> list[Action]:
    return []


def _apply_over(s: State, p: GameOver, action: Action, checked: bool) -> list[Event]:
    raise IllegalAction("R-END-1", "the game is over", key="game.over")


# By the kind of the pending decision: each function takes a decision of that one kind.
def _legal(s: State, p: Pending) -> list[Action]:
    if isinstance(p, Turn):
        return _legal_turn(s, p)
    if isinstance(p, ChooseTarget):
        return _legal_target(s, p)
    if isinstance(p, ChooseGift):
        return _legal_gift(s, p)
    if isinstance(p, ChooseRecipient):
        return _legal_recipient(s, p)
    if isinstance(p, ChooseVictim):
        return _legal_victim(s, p)
    if isinstance(p, Defence):
        return _legal_defence(s, p)
    if isinstance(p, ChooseDestination):
        return _legal_destination(s, p)
    if isinstance(p, PlaceSeal):
        return _legal_seal(s, p)
    return _legal_over(s, p)


def _apply(s: State, p: Pending, action: Action, checked: bool) -> list[Event]:
    if isinstance(p, Turn):
        return _apply_turn(s, p, action, checked)
    if isinstance(p, ChooseTarget):
        return _apply_target(s, p, action, checked)
    if isinstance(p, ChooseGift):
        return _apply_gift(s, p, action, checked)
    if isinstance(p, ChooseRecipient):
        return _apply_recipient(s, p, action, checked)
    if isinstance(p, ChooseVictim):
        return _apply_victim(s, p, action, checked)
    if isinstance(p, Defence):
        return _apply_defence(s, p, action, checked)
    if isinstance(p, ChooseDestination):
        return _apply_destination(s, p, action, checked)
    if isinstance(p, PlaceSeal):
        return _apply_seal(s, p, action, checked)
    return _apply_over(s, p, action, checked)
