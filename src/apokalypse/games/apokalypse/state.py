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
from apokalypse.engine.protocol import check_seat
from apokalypse.engine.rng import Rng

from . import attacks, dealing, knowledge, placement, refusals
from .actions import PASS, Action, code_action, seat_action
from .cards import EARTH, EVIL, GOOD, CardTable
from .config import Config
from .knowledge import Known, Traces
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

if TYPE_CHECKING:
    from .ending import Result
    from .observation import Observation

# The parts of a State that a clone shares until one of the two changes them (shared_parts).
DECKS, KNOWLEDGE, REWARDS = 1, 2, 4


class State:
    """Everything about one game. Cards are ints into ``table``; a display is ``rows[seat]``,
    six lists indexed ``side * 3 + plane`` (plane 0 Heaven, 1 Earth, 2 Netherworld), each packed
    from position 0 outward (R-PLAY-1). Decks keep their top at the end of the list.

    Copy-on-write displays: a clone shares the displays with its original (most moves change
    one display, many none), so the rules read them as ``displays`` and change one only after
    :meth:`own_display`, which copies it if it is shared. Code outside the rules reads ``rows``,
    which first makes every display this state's own, so that it may change what it gets."""

    __slots__ = (
        "config",
        "discards",
        "display_marks",
        "displays",
        "ethos",
        "face_down",
        "first_passer",
        "hands",
        "horse_supply",
        "horseman",
        "laid_by",
        "legal_cache",
        "moves",
        "n",
        "owned_horsemen",
        "passed",
        "pending",
        "piles",
        "rng",
        "round",
        "scores",
        "seal_supply",
        "seat_knowledge",
        "seat_traces",
        "shared_displays",
        "shared_parts",
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
    displays: list[list[list[int]]]  # rows[seat]: read freely, change through own_display
    shared_displays: int  # bit ``1 << seat``: that display may be shared with another state
    display_marks: list[int]  # per display: placement.display_mark, -1 once it may have changed
    piles: list[list[int]]  # the draw decks, [population (B), capital (K)]: decks, shared
    discards: list[list[int]]  # [B discard pile, K discard pile]
    seal_supply: list[int]
    horse_supply: list[int]  # drawn, set aside and reference horsemen not yet owned
    owned_horsemen: list[list[int]]  # horseman cards owned per seat (R-REWARD-1): rewards, shared
    scores: list[tuple[int, ...]]  # one tuple per reckoning (R-HORSE-5)
    horseman: int  # the next horseman to ride, 1–4
    startup: int
    passed: list[bool]
    first_passer: int
    pending: Pending
    table_cards: list[int]  # an attack card waiting for the defence window (R-ATTACK-4)
    seat_knowledge: list[Known]  # per seat: what it knows of other hands: knowledge, shared
    seat_traces: list[Traces]  # per seat: what those lower bounds forgot (knowledge.Trace)
    shared_parts: int  # bits DECKS, KNOWLEDGE, REWARDS: parts shared with another state
    face_down: set[int]  # dead populaces lying face down in the B discard pile (D-INFO-1)
    laid_by: dict[int, int]  # a B card laid face down → the seat that laid it (knows its front)
    round: int
    legal_cache: list[Action] | None  # the last legal_actions(), valid until the next apply
    moves: int  # actions applied so far: a public move counter

    # --- the displays, copy-on-write ----------------------------------------------------------

    @property
    def rows(self) -> list[list[list[int]]]:
        """Every display, ``rows[seat][side * 3 + plane]``, this state's own to change."""
        if self.shared_displays:
            for seat in range(len(self.displays)):
                self.own_display(seat)
        self.display_marks = [-1] * len(self.displays)  # the caller may change any of them
        return self.displays

    @rows.setter
    def rows(self, rows: list[list[list[int]]]) -> None:
        self.displays = rows
        self.shared_displays = 0
        self.display_marks = [-1] * len(rows)

    def own_display(self, seat: int) -> list[list[int]]:
        """``seat``'s display, copied first if a clone shares it: the rules call this before
        they change a row of it (which makes its summary, ``display_marks``, out of date)."""
        bit = 1 << seat
        if self.shared_displays & bit:
            self.displays[seat] = [row[:] for row in self.displays[seat]]
            self.shared_displays ^= bit
        self.display_marks[seat] = -1
        return self.displays[seat]

    # --- parts that change rarely, copy-on-write ------------------------------------------------
    #
    # The decks change at the end of a round, the horseman cards at a reckoning, what a player
    # knows of other hands at a gift or steal: a clone shares them with its original, the rules
    # read them as ``piles``, ``owned_horsemen`` and ``seat_knowledge`` and change them only
    # after ``own_decks()`` and the like. Code outside the rules reads ``decks``, ``rewards`` and
    # ``knowledge``, which first make the part this state's own, so that it may change it.

    @property
    def decks(self) -> list[list[int]]:
        """The draw decks, [population (B), capital (K)], tops at the end."""
        return self.own_decks()

    @decks.setter
    def decks(self, decks: list[list[int]]) -> None:
        self.piles = decks
        self.shared_parts &= ~DECKS

    def own_decks(self) -> list[list[int]]:
        if self.shared_parts & DECKS:
            self.piles = [pile[:] for pile in self.piles]
            self.shared_parts &= ~DECKS
        return self.piles

    @property
    def rewards(self) -> list[list[int]]:
        """The horseman cards each seat owns (R-REWARD-1)."""
        return self.own_rewards()

    @rewards.setter
    def rewards(self, rewards: list[list[int]]) -> None:
        self.owned_horsemen = rewards
        self.shared_parts &= ~REWARDS

    def own_rewards(self) -> list[list[int]]:
        if self.shared_parts & REWARDS:
            self.owned_horsemen = [cards[:] for cards in self.owned_horsemen]
            self.shared_parts &= ~REWARDS
        return self.owned_horsemen

    @property
    def knowledge(self) -> list[Known]:
        """Per seat: what it knows of the cards in other hands (:mod:`.knowledge`)."""
        return self.own_knowledge()

    @knowledge.setter
    def knowledge(self, knowledge: list[Known]) -> None:
        self.seat_knowledge = knowledge
        self.seat_traces = self.seat_traces[:]  # owned with it
        self.shared_parts &= ~KNOWLEDGE

    def own_knowledge(self) -> list[Known]:
        if self.shared_parts & KNOWLEDGE:
            self.seat_knowledge = [known.copy() for known in self.seat_knowledge]
            self.seat_traces = self.seat_traces[:]  # the traces themselves are immutable
            self.shared_parts &= ~KNOWLEDGE
        return self.seat_knowledge

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
        # Both now share every display: whichever changes one first copies it (own_display).
        self.shared_displays = s.shared_displays = (1 << len(self.displays)) - 1
        s.displays = self.displays[:]
        s.display_marks = self.display_marks[:]
        # Both share the parts that change rarely, too (own_decks and the like).
        self.shared_parts = s.shared_parts = DECKS | KNOWLEDGE | REWARDS
        s.piles = self.piles
        s.owned_horsemen = self.owned_horsemen
        s.seat_knowledge = self.seat_knowledge
        s.seat_traces = self.seat_traces
        s.discards = [self.discards[0][:], self.discards[1][:]]
        s.seal_supply = self.seal_supply[:]
        s.horse_supply = self.horse_supply[:]
        s.scores = self.scores[:]
        s.horseman = self.horseman
        s.startup = self.startup
        s.passed = self.passed[:]
        s.first_passer = self.first_passer
        s.pending = self.pending
        s.table_cards = self.table_cards[:]
        s.face_down = self.face_down.copy()
        s.laid_by = self.laid_by.copy()
        s.round = self.round
        s.legal_cache = None
        s.moves = self.moves
        return s

    # ``player: object``, checked here: compiled by mypyc, an ``int`` parameter would turn a
    # wrong seat ("0", 0.0) into a TypeError, and True into seat 1, before the check.
    def observation(self, player: object) -> Observation:
        from .secrecy import observation

        return observation(self, None if player is None else check_seat(player, self.n))

    def determinize(self, player: object, rng: Rng) -> State:
        from .secrecy import determinize

        return determinize(self, check_seat(player, self.n), rng)

    # --- helpers shared by the rule modules ----------------------------------------------------

    def code(self, card: int) -> str:
        return self.table.kind[card].code

    def populaces(self, seat: int) -> int:
        """Populaces in a display, basic populaces not counted (D-HORSE-2)."""
        rows = self.displays[seat]
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

    def take_from_hand(
        self, seat: int, code: str, seen_by: frozenset[int] | None = None, laid: bool = False
    ) -> int:
        """Take a card of ``code`` from ``seat``'s hand. ``seen_by``: the players who see its
        front (None: everybody); the others see only its back (R-INFO-2). ``laid``: it goes
        face down into a display (D-INFO-1), where its place stays public."""
        hand = self.hands[seat]
        kinds = self.table.kind
        for i, card in enumerate(hand):
            if kinds[card].code == code:
                del hand[i]
                self.lost(seat, card, seen_by, laid)
                return card
        raise AssertionError(f"{code} not in hand of seat {seat}")  # checked before

    def lost(
        self, seat: int, card: int, seen_by: frozenset[int] | None, laid: bool = False
    ) -> None:
        """Every player's knowledge of ``seat``'s hand after ``card`` left it."""
        if not any(self.seat_knowledge) and not any(self.seat_traces):
            return  # nobody knows anything of any hand yet
        kind = self.table.kind[card]
        kinds = self.table.kinds_by_code
        knowledge_now = self.own_knowledge()
        traces = self.seat_traces  # (after own_knowledge, which may copy it)
        for viewer, known in enumerate(knowledge_now):
            if not known and not traces[viewer]:
                continue
            if seen_by is None or viewer in seen_by:
                if (seat, kind.code) in known:
                    knowledge.lost_seen(known, seat, kind.code)
                if traces[viewer]:
                    traces[viewer] = knowledge.trace_count(traces[viewer], seat, kind.code, -1)
                continue
            # it may have been any copy of that back the viewer placed there (knowledge.py)
            traces[viewer] = knowledge.lost_back_traced(
                known, traces[viewer], seat, card, kind.back, laid, kinds
            )

    def saw_gained(self, viewer: int, holder: int, code: str) -> None:
        """``viewer`` saw a card of ``code`` go into ``holder``'s hand (R-INFO-2)."""
        knowledge.gained(self.own_knowledge()[viewer], holder, code)
        if self.seat_traces[viewer]:
            self.seat_traces[viewer] = knowledge.trace_count(
                self.seat_traces[viewer], holder, code, +1
            )

    def holds(self, seat: int, code: str) -> bool:
        kinds = self.table.kind
        return any(kinds[c].code == code for c in self.hands[seat])

    def end_turn(self, player: int) -> list[Event]:
        """R-TURN-1: the next seat clockwise that has not passed."""
        n = self.n
        nxt = (player + 1) % n
        while self.passed[nxt]:
            nxt = (nxt + 1) % n
        self.pending = turn(nxt)
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
    s.pending = choose_target(player, action.code, cast(Use, action.use))
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
