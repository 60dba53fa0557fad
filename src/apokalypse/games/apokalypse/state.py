"""The Apokalypse game state and the protocol verbs: ``legal_actions``, ``apply``, ``clone``.

The rules themselves live in the sibling modules (placement, attacks, dealing, horsemen, ending);
this module holds the data, routes each decision to its rule module and keeps the turn order
(R-TURN). ``observation`` and ``determinize`` are in :mod:`.secrecy`, the one place that decides
what a player may see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event
from apokalypse.engine.rng import Rng

from . import attacks, dealing, knowledge, placement, refusals
from .actions import PASS, Action
from .cards import EARTH, EVIL, GOOD, CardTable
from .config import Config
from .knowledge import Known
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
)
from .roles import Use

if TYPE_CHECKING:
    from .ending import Result
    from .observation import Observation


class State:
    """Everything about one game. Cards are ints into ``table``; a display is ``rows[seat]``,
    six lists indexed ``side * 3 + plane`` (plane 0 Heaven, 1 Earth, 2 Netherworld), each packed
    from position 0 outward (R-PLAY-1). Decks keep their top at the end of the list."""

    __slots__ = (
        "config",
        "decks",
        "discards",
        "ethos",
        "face_down",
        "first_passer",
        "hands",
        "horse_supply",
        "horseman",
        "knowledge",
        "laid_by",
        "legal_cache",
        "moves",
        "n",
        "passed",
        "pending",
        "rewards",
        "rng",
        "round",
        "rows",
        "scores",
        "seal_supply",
        "startup",
        "table",
        "table_cards",
    )

    config: Config
    table: CardTable
    n: int
    rng: Rng
    hands: list[list[int]]
    ethos: tuple[int, ...]  # GOOD or EVIL per seat (R-SETUP-3)
    rows: list[list[list[int]]]
    decks: list[list[int]]  # [population (B), capital (K)]
    discards: list[list[int]]  # [B discard pile, K discard pile]
    seal_supply: list[int]
    horse_supply: list[int]  # drawn, set aside and reference horsemen not yet owned
    rewards: list[list[int]]  # horseman cards owned per seat (R-REWARD-1)
    scores: list[tuple[int, ...]]  # one tuple per reckoning (R-HORSE-5)
    horseman: int  # the next horseman to ride, 1–4
    startup: int
    passed: list[bool]
    first_passer: int
    pending: Pending
    table_cards: list[int]  # an attack card waiting for the defence window (R-ATTACK-4)
    knowledge: list[Known]  # per seat: what it knows of the other hands (knowledge.py)
    face_down: set[int]  # dead populaces lying face down in the B discard pile (D-INFO-1)
    laid_by: dict[int, int]  # a B card laid face down → the seat that laid it (knows its front)
    round: int
    legal_cache: list[Action] | None  # the last legal_actions(), valid until the next apply
    moves: int  # actions applied so far: a public move counter

    # --- protocol ------------------------------------------------------------------------------

    @property
    def move(self) -> int:
        """How many actions have been applied (the observations' ``move``)."""
        return self.moves

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
        from .ending import result

        return result(self) if self.is_over else None

    def legal_actions(self) -> list[Action]:
        legal: list[Action] = _LEGAL[type(self.pending)](self, self.pending)
        self.legal_cache = legal
        return legal

    def apply(self, action: Action) -> list[Event]:
        """Carry out ``action`` for ``to_act``; raises :class:`IllegalAction` (state untouched).

        An action from the last ``legal_actions()`` skips re-validation; any other action is
        checked rule by rule, so that a refusal names the rule it breaks."""
        legal = self.legal_cache
        self.legal_cache = None
        checked = legal is not None and action in legal
        events: list[Event] = _APPLY[type(self.pending)](self, self.pending, action, checked)
        self.moves += 1
        return events

    def clone(self) -> State:
        s = State.__new__(State)
        s.config = self.config
        s.table = self.table
        s.n = self.n
        s.rng = self.rng.clone()
        s.hands = [h[:] for h in self.hands]
        s.ethos = self.ethos
        s.rows = [[r[:] for r in d] for d in self.rows]
        s.decks = [self.decks[0][:], self.decks[1][:]]
        s.discards = [self.discards[0][:], self.discards[1][:]]
        s.seal_supply = self.seal_supply[:]
        s.horse_supply = self.horse_supply[:]
        s.rewards = [r[:] for r in self.rewards]
        s.scores = self.scores[:]
        s.horseman = self.horseman
        s.startup = self.startup
        s.passed = self.passed[:]
        s.first_passer = self.first_passer
        s.pending = self.pending
        s.table_cards = self.table_cards[:]
        s.knowledge = [k.copy() for k in self.knowledge]
        s.face_down = self.face_down.copy()
        s.laid_by = self.laid_by.copy()
        s.round = self.round
        s.legal_cache = None
        s.moves = self.moves
        return s

    def observation(self, player: int | None) -> Observation:
        from .secrecy import observation

        return observation(self, player)

    def determinize(self, player: int, rng: Rng) -> State:
        from .secrecy import determinize

        return determinize(self, player, rng)

    # --- helpers shared by the rule modules ----------------------------------------------------

    def code(self, card: int) -> str:
        return self.table.kind[card].code

    def populaces(self, seat: int) -> int:
        """Populaces in a display, basic populaces not counted (D-HORSE-2)."""
        rows = self.rows[seat]
        return len(rows[GOOD * 3 + EARTH]) + len(rows[EVIL * 3 + EARTH])

    def discard(self, card: int, face_down: bool = False) -> None:
        """To the pile of its back; a seal returns to the seal supply (D-REWARD-2). A dead
        populace that lay face down stays face down there (D-INFO-1)."""
        back = self.table.kind[card].back
        if back == "B":
            self.discards[0].append(card)
            if face_down:
                self.face_down.add(card)
        elif back == "K":
            self.discards[1].append(card)
        else:
            self.seal_supply.append(card)

    def take_from_hand(self, seat: int, code: str, seen_by: frozenset[int] | None = None) -> int:
        """Take a card of ``code`` from ``seat``'s hand. ``seen_by``: the players who see its
        front (None: everybody); the others see only its back (R-INFO-2)."""
        hand = self.hands[seat]
        kinds = self.table.kind
        for i, card in enumerate(hand):
            if kinds[card].code == code:
                del hand[i]
                self.lost(seat, card, seen_by)
                return card
        raise AssertionError(f"{code} not in hand of seat {seat}")  # checked before

    def lost(self, seat: int, card: int, seen_by: frozenset[int] | None) -> None:
        """Every player's knowledge of ``seat``'s hand after ``card`` left it."""
        kind = self.table.kind[card]
        by_code = self.table.kinds_by_code

        def same_back(code: str) -> bool:
            return by_code[code].back == kind.back

        for viewer, known in enumerate(self.knowledge):
            if not known:
                continue
            if seen_by is None or viewer in seen_by:
                knowledge.lost_seen(known, seat, kind.code)
            else:
                knowledge.lost_unseen(known, seat, same_back)

    def holds(self, seat: int, code: str) -> bool:
        kinds = self.table.kind
        return any(kinds[c].code == code for c in self.hands[seat])

    def end_turn(self, player: int) -> list[Event]:
        """R-TURN-1: the next seat clockwise that has not passed."""
        n = self.n
        nxt = (player + 1) % n
        while self.passed[nxt]:
            nxt = (nxt + 1) % n
        self.pending = Turn(nxt)
        return []


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
    s.pending = ChooseTarget(player, action.code, cast(Use, action.use))
    return []


def _pass(s: State, player: int) -> list[Event]:
    s.passed[player] = True
    events = [Event("pass", {"actor": player})]
    if s.first_passer < 0:
        s.first_passer = player  # R-TURN-3
    if s.passed.count(False) <= 1:  # R-TURN-4: the round ends at once
        events += dealing.end_round(s)
    else:
        s.end_turn(player)
    return events


def _legal_target(s: State, p: ChooseTarget) -> list[Action]:
    return placement.targets(s, p.code, p.use)


def _apply_target(s: State, p: ChooseTarget, action: Action, checked: bool) -> list[Event]:
    if action.verb == "back":
        s.pending = Turn(p.player)
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
    codes = dict.fromkeys(s.code(c) for c in s.hands[p.player])
    return [Action("give", code) for code in codes]


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
    return [Action("to", seat=q) for q in range(s.n) if q != p.player]


def _apply_recipient(s: State, p: ChooseRecipient, action: Action, checked: bool) -> list[Event]:
    if action.verb == "back":  # choose another card to give; the good deed itself stands
        s.pending = ChooseGift(p.player)
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
    return [Action("steal", seat=q) for q in range(s.n) if q != p.player and s.hands[q]]


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
    return [Action("to", seat=q) for q in range(s.n)]


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
    from . import horsemen

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


# By the type of the pending decision; each function takes a decision of that one type.
_LEGAL: dict[type, Callable[[State, Any], list[Action]]] = {
    Turn: _legal_turn,
    ChooseTarget: _legal_target,
    ChooseGift: _legal_gift,
    ChooseRecipient: _legal_recipient,
    ChooseVictim: _legal_victim,
    Defence: _legal_defence,
    ChooseDestination: _legal_destination,
    PlaceSeal: _legal_seal,
    GameOver: _legal_over,
}
_APPLY: dict[type, Callable[[State, Any, Action, bool], list[Event]]] = {
    Turn: _apply_turn,
    ChooseTarget: _apply_target,
    ChooseGift: _apply_gift,
    ChooseRecipient: _apply_recipient,
    ChooseVictim: _apply_victim,
    Defence: _apply_defence,
    ChooseDestination: _apply_destination,
    PlaceSeal: _apply_seal,
    GameOver: _apply_over,
}
