"""The data of one game of Apokalypse: what lies where, who knows what, who decides next.

:class:`Board` is everything a rule reads and changes, with the copy-on-write accessors that let a
clone share what neither of the two has changed yet, and the small helpers the rule modules share.
It imports no rule: the rule modules (placement, attacks, dealing, horsemen, ending, secrecy) take
a Board, and :class:`.state.State` adds the protocol verbs and routes each decision to them, so
imports run data (this module) ← rules ← turns (:mod:`.state`).
"""

from __future__ import annotations

from apokalypse.engine.events import Event
from apokalypse.engine.rng import Rng

from .cards import EARTH, EVIL, GOOD, CardTable
from .config import Config
from .knowledge import Known, Traces, gained, lost_back_traced, lost_seen, trace_count
from .pending import Pending, turn

# The parts of a Board that a clone shares until one of the two changes them (shared_parts).
DECKS, KNOWLEDGE, REWARDS = 1, 2, 4


class Board:
    """Everything about one game. Cards are ints into ``table``; a display is ``displays[seat]``,
    six lists indexed ``side * 3 + plane`` (plane 0 Heaven, 1 Earth, 2 Netherworld), each packed
    from position 0 outward (R-PLAY-1). Decks keep their top at the end of the list.

    Copy-on-write: a clone shares the displays, the decks, the horseman cards and what the seats
    know with its original (most moves change one display, many none; the rest changes at the
    end of a round, at a reckoning, at a gift or steal). Anyone reads them as they are; whoever
    changes one first takes it with ``own_display(seat)``, ``own_displays()``, ``own_decks()``,
    ``own_rewards()`` or ``own_knowledge()``, which copy it if it is shared."""

    __slots__ = (
        "config",
        "decks",
        "discards",
        "display_marks",
        "displays",
        "ethos",
        "face_down",
        "first_passer",
        "hands",
        "horse_supply",
        "horseman",
        "knowledge",
        "laid_by",
        "move",
        "n",
        "passed",
        "pending",
        "rewards",
        "rng",
        "round",
        "scores",
        "seal_supply",
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
    displays: list[list[list[int]]]  # read freely, change through own_display
    shared_displays: int  # bit ``1 << seat``: that display may be shared with another state
    display_marks: list[int]  # per display: placement.display_mark, -1 once it may have changed
    decks: list[list[int]]  # the draw decks, [population (B), capital (K)]: shared (DECKS)
    discards: list[list[int]]  # [B discard pile, K discard pile]
    seal_supply: list[int]
    horse_supply: list[int]  # drawn, set aside and reference horsemen not yet owned
    rewards: list[list[int]]  # horseman cards owned per seat (R-REWARD-1): shared (REWARDS)
    scores: list[tuple[int, ...]]  # one tuple per reckoning (R-HORSE-5)
    horseman: int  # the next horseman to ride, 1–4
    startup: int
    passed: list[bool]
    first_passer: int
    pending: Pending
    table_cards: list[int]  # an attack card waiting for the defence window (R-ATTACK-4)
    knowledge: list[Known]  # per seat: what it knows of other hands: shared (KNOWLEDGE)
    seat_traces: list[Traces]  # per seat: what those lower bounds forgot (knowledge.Trace)
    shared_parts: int  # bits DECKS, KNOWLEDGE, REWARDS: parts shared with another state
    face_down: set[int]  # dead populaces lying face down in the B discard pile (D-INFO-1)
    laid_by: dict[int, int]  # a B card laid face down → the seat that laid it (knows its front)
    round: int
    move: int  # actions applied so far: the public move counter

    # --- the displays, copy-on-write ----------------------------------------------------------

    def own_display(self, seat: int) -> list[list[int]]:
        """``seat``'s display, copied first if a clone shares it: the rules call this before
        they change a row of it (which makes its summary, ``display_marks``, out of date)."""
        bit = 1 << seat
        if self.shared_displays & bit:
            self.displays[seat] = [row[:] for row in self.displays[seat]]
            self.shared_displays ^= bit
        self.display_marks[seat] = -1
        return self.displays[seat]

    def own_displays(self) -> list[list[list[int]]]:
        """Every display, this state's own to change (for code that may change any of them)."""
        if self.shared_displays:
            for seat in range(len(self.displays)):
                self.own_display(seat)
        self.display_marks = [-1] * len(self.displays)  # the caller may change any of them
        return self.displays

    # --- parts that change rarely, copy-on-write ------------------------------------------------

    def own_decks(self) -> list[list[int]]:
        """The draw decks, this state's own to change."""
        if self.shared_parts & DECKS:
            self.decks = [pile[:] for pile in self.decks]
            self.shared_parts &= ~DECKS
        return self.decks

    def own_rewards(self) -> list[list[int]]:
        """The horseman cards each seat owns, this state's own to change."""
        if self.shared_parts & REWARDS:
            self.rewards = [cards[:] for cards in self.rewards]
            self.shared_parts &= ~REWARDS
        return self.rewards

    def own_knowledge(self) -> list[Known]:
        """What each seat knows of other hands, this state's own to change (with its traces)."""
        if self.shared_parts & KNOWLEDGE:
            self.knowledge = [known.copy() for known in self.knowledge]
            self.seat_traces = self.seat_traces[:]  # the traces themselves are immutable
            self.shared_parts &= ~KNOWLEDGE
        return self.knowledge

    def set_knowledge(self, knowledge: list[Known], traces: list[Traces]) -> None:
        """Replace what every seat knows with new lists, this state's own."""
        self.knowledge = knowledge
        self.seat_traces = traces
        self.shared_parts &= ~KNOWLEDGE

    def copy_to(self, s: Board) -> None:
        """Make ``s``, a bare new instance, a copy of this board: the parts that change rarely
        and the displays are shared by both until one changes them (the ``own_…`` methods)."""
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
        s.decks = self.decks
        s.rewards = self.rewards
        s.knowledge = self.knowledge
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
        s.move = self.move

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
        if not any(self.knowledge) and not any(self.seat_traces):
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
                    lost_seen(known, seat, kind.code)
                if traces[viewer]:
                    traces[viewer] = trace_count(traces[viewer], seat, kind.code, -1)
                continue
            # it may have been any copy of that back the viewer placed there (knowledge.py)
            traces[viewer] = lost_back_traced(
                known, traces[viewer], seat, card, kind.back, laid, kinds
            )

    def saw_gained(self, viewer: int, holder: int, code: str) -> None:
        """``viewer`` saw a card of ``code`` go into ``holder``'s hand (R-INFO-2)."""
        gained(self.own_knowledge()[viewer], holder, code)
        if self.seat_traces[viewer]:
            self.seat_traces[viewer] = trace_count(self.seat_traces[viewer], holder, code, +1)

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
