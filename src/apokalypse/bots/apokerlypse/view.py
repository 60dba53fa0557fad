"""The observation, parsed once per decision into card ints and small helpers.

Effects are public: the observation carries the content as the config gives it (a packaged name
or a designer's file text), and the bot loads it as the engine does (cached), so it plays a
designer's own cards as they are written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from apokalypse.games.apokerlypse.cards import FACTIONS, RANKS, SUITS, parse_card
from apokalypse.games.apokerlypse.content import Content, Effect, load_content
from apokalypse.games.apokerlypse.observation import ModsView, Observation
from apokalypse.games.apokerlypse.pending import StepName

from .hands import Mods, Scorer, Table

STAKE_PENDING = ("discard-1", "draw-2")  # steps before everybody has decided on phase 2


def content_of(spec: str) -> Content:
    return load_content(spec)


def _cards(codes: list[str] | None) -> list[int]:
    return [parse_card(c) for c in codes or ()]


def _mods(m: ModsView) -> Mods:
    s = m.get("structure")
    structure = None
    if s is not None:
        card = -1 if s["card"] is None else parse_card(s["card"])
        if s["kind"] == "category-up":
            to = s["to"]
        else:
            to = (SUITS if s["kind"] == "set-suit" else RANKS).index(s["to"])
        structure = (s["kind"], card, to)
    return Mods(structure, m["multiplier"], frozenset(_cards(m["doubled"])))


@dataclass
class View:
    obs: Observation
    seat: int
    n: int
    content: Content
    table: Table
    hand: list[int]
    chips: list[int]
    pot: int
    bank: int
    cost: int
    dealer: int
    step: StepName | Literal["over"]
    in_round: list[bool]
    short: list[bool]
    hand_sizes: list[int]
    discards: list[list[int]]
    used: frozenset[int]
    mods: list[Mods]
    limits: list[int]
    revealed: list[list[int] | None]
    known: dict[int, list[int]]
    scores: list[int | None]  # locked totals of this round's scoring

    @classmethod
    def of(cls, obs: Observation) -> View:
        n = obs["players"]
        seat = obs["seat"]
        assert seat is not None  # a player's, never a spectator's
        known: dict[int, list[int]] = {}
        for key, codes in obs["known"].items():
            known[int(key[1:]) - 1] = _cards(codes)
        return cls(
            obs=obs,
            seat=seat,
            n=n,
            content=content_of(obs["content_spec"]),
            table=Table.of(obs["table"], obs["bonus_cap"]),
            hand=_cards(obs["hand"]),
            chips=list(obs["chips"]),
            pot=obs["pot"],
            bank=obs["bank"],
            cost=obs["cost"],
            dealer=obs["dealer"],
            step=obs["step"],
            in_round=list(obs["in_round"]),
            short=list(obs["short"]),
            hand_sizes=list(obs["hand_sizes"]),
            discards=[_cards(d) for d in obs["discards"]],
            used=frozenset(_cards(obs["used"])),
            mods=[_mods(m) for m in obs["modifiers"]],
            limits=[m["hand_limit"] for m in obs["modifiers"]],
            revealed=[None if h is None else _cards(h) for h in obs["revealed"]],
            known=known,
            scores=[None if line is None else line["total"] for line in obs["scores"]],
        )

    # --- seats -------------------------------------------------------------------------------

    def others(self) -> list[int]:
        """The other players still in the round."""
        return [q for q in range(self.n) if q != self.seat and self.in_round[q]]

    def pos(self, seat: int) -> int:
        """Place in the round's order, from the dealer's left (K-ROUND-2)."""
        return (seat - self.dealer - 1) % self.n

    def after_me(self) -> list[int]:
        """The others still in the round who decide after this seat in the current step."""
        me = self.pos(self.seat)
        return [q for q in self.others() if self.pos(q) > me]

    def leader(self, seats: list[int]) -> int:
        """The chip leader among ``seats`` (first in seat order on a tie)."""
        return max(seats, key=lambda q: (self.chips[q], -q))

    def poorest(self, seats: list[int]) -> int:
        return min(seats, key=lambda q: (self.chips[q], q))

    # --- cards -------------------------------------------------------------------------------

    def effect(self, card: int) -> Effect | None:
        return self.content.effects[card]

    def ability(self, seat: int | None = None) -> Effect | None:
        q = self.seat if seat is None else seat
        return self.content.factions[FACTIONS.index(self.obs["factions"][q])].ability

    def hand_of(self, seat: int) -> list[int] | None:
        """A hand this seat knows exactly: revealed, or every card placed (a peek)."""
        shown = self.revealed[seat]
        if shown is not None:
            return shown
        cards = self.known.get(seat, [])
        return cards if cards and len(cards) == self.hand_sizes[seat] else None

    def unseen(self) -> list[int]:
        """Cards that may still be drawn or sit in another hand, as far as this seat knows."""
        seen = set(self.hand)
        for pile in self.discards:
            seen.update(pile)
        for cards in self.known.values():
            seen.update(cards)
        return [c for c in range(52) if c not in seen]

    def scorer(self, seat: int | None = None) -> Scorer:
        q = self.seat if seat is None else seat
        return Scorer(self.table, self.content.effects, self.mods[q], self.used)

    def shielded(self, seat: int) -> bool:
        """KD-EFFECT-2: others' card effects pass ``seat`` by this round."""
        return self.obs["modifiers"][seat]["shielded"]

    def stealable(self, card: bool) -> bool:
        """Somebody else in the round a steal could take chips from now (KD-EFFECT-1): with
        chips, and for a card's steal not shielded (KD-EFFECT-2)."""
        return any(self.chips[q] > 0 and not (card and self.shielded(q)) for q in self.others())

    def stage(self, seat: int) -> int:
        """How many cards ``seat`` has chosen its hand from (:func:`.hands.field`)."""
        seen = self.hand_sizes[seat] + len(self.discards[seat])
        pending = self.step in STAKE_PENDING and (
            self.step == "discard-1" or self.pos(seat) > self.pos(self.seat)
        )
        if pending and not self.short[seat] and self.chips[seat] >= self.cost:
            return 8
        return 5 if seen <= 5 else 7 if seen <= 7 else 9
