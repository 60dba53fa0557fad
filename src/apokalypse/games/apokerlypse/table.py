"""The data of one game of Apokerlypse: the cards, the chips, the round, who knows what, who
decides next.

:class:`Table` is everything a rule reads and changes, and the small helpers the rule modules
share. It imports no rule: the rule modules (:mod:`.flow`, :mod:`.effects`, :mod:`.scoring`,
:mod:`.knowledge`, :mod:`.secrecy`) take a Table, and :class:`.state.State` adds the protocol
verbs and routes each decision to them, so imports run data (this module, :mod:`.tally`,
:mod:`.pending`) ← rules ← turns (:mod:`.state`), as Apokalypse's ``board.py`` has them.
"""

from __future__ import annotations

from apokalypse.engine.events import Event
from apokalypse.engine.rng import Rng

from .config import Config
from .content import Content
from .pending import SCORING, Flow, Frame, GameOver
from .tally import Mods, Result, ScoreLine

TOTAL_CHIPS = 48  # K-SETUP-1


class Table:
    """Everything about one game. Cards are ints 0–51 (:mod:`.cards`); the draw pile keeps its
    top at the end of the list. Chips: ``sum(chips) + pot + bank == 48`` always. The rule
    modules read and change it; :class:`.state.State` adds the protocol verbs."""

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
    moves: int  # actions applied so far: a public move counter

    # --- what the rules and the protocol read -------------------------------------------------

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
