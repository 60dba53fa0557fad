"""How often a card's effect matters (KD-SETUP-1): the lab's definition, followed through a game's
events for the Apokerlypse collector (:mod:`.apokerlypse`) and read by ``apokalypse effects``.

A card's *holdings* are the rounds in which it was in a seat's hand at a final scoring (K-SCORE-1:
the collector's ``shown`` at the ``score`` event), or its effect was announced (an ``effect`` event
naming it), or it blocked an effect (a ``blocked`` event naming it: a block is never announced);
each card once a round. Its *mattered* rounds are the holdings in which its effect changed
something that counts. A card that sits in a hand without its timing coming (a draw effect dealt,
a discard effect kept) is held without mattering: that is what the figure is for.

An announced card effect is *open* until the next ``effect`` event or the next round; the events
that follow it meanwhile are its own (only effects make them). By the effect's kind:

- gain, lose, steal, skim, ante (KD-EFFECT-1, KD-EFFECT-3): one of its chip events moved a chip
  (amount > 0: a bank, a pot or a stack may be empty);
- take, give, swap: a card moved (a ``take``, ``give`` or ``swap`` event);
- draw (KD-EFFECT-5): its ``extra`` event drew at least one card;
- peek: its ``peek`` came before the round's reveal (after it the hands are public anyway);
- category-up, set-suit, set-rank (K-SCORE-4; a ``structure`` event): the seat's scored category
  differs from that of its scored hand evaluated without the change;
- multiplier (K-SCORE-6; a ``multiplier`` event): the seat's total that round is above 0;
- counts-double (K-SCORE-6; a ``double`` event): the card is in the scored hand and has a card
  bonus (7 and up, K-SCORE-3);
- hand-limit (a ``hand-limit`` event): when a discard step is over (the start of the next step:
  draw-2, participate) the seat, still in the round, holds more than 5 cards, so the limit kept
  a card. Not at every step's start: at a discard step's start everybody holds 7 after drawing;
- squeeze (KD-EFFECT-4; a ``squeeze`` event): when a discard step is over a target, still in the
  round, holds fewer than 5 cards;
- shield (KD-EFFECT-2; a ``shield`` event): later in the round another seat announces a card
  effect that can hit other players (lose or ante aimed at others, one or all; steal, take, give,
  swap, peek, squeeze) while the shielded seat is still in the round;
- block (K-SCORE-6): it blocked an effect.

A ``void`` event means the effect did nothing; a faction ability (no card) is no card's effect and
closes the one open before it. A kind not named here never matters, so a new kind shows as 0 %
until it gets its rule: one small function in :data:`FOLLOW` (what its own events say) which,
when the effect shows only later, leaves a check for the seat's score (:func:`_waits_for_score`)
or for the end of a discard step (``limits``, ``squeezes``).

Cheap, as the collector must be: hand sizes are counters, and the checks for later (a score, the
end of a discard step, another seat's effect) are a few short lists per round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from apokalypse.engine.events import Event
from apokalypse.games.apokerlypse import events as ev
from apokalypse.games.apokerlypse.cards import CARD_BONUS, CODES, HAND_SIZE
from apokalypse.games.apokerlypse.poker import CATEGORIES, category_of, evaluate

CARD_OF: dict[str, int] = {code: card for card, code in enumerate(CODES)}
CHIP_EVENTS = frozenset({"gain", "lose", "steal", "skim", "ante"})
MOVE_EVENTS = frozenset({"take", "give", "swap"})
# the steps that begin when a discard step is over: where a hand limit shows (K-ROUND-2)
AFTER_DISCARD = frozenset({"draw-2", "participate"})
# KD-EFFECT-2: the kinds of card effect that can hit another player (lose and ante by ``who``)
HITS_OTHERS = frozenset({"steal", "take", "give", "swap", "peek", "squeeze"})
AIMED = frozenset({"lose", "ante"})


@dataclass(frozen=True, slots=True)
class Opened:
    """A card effect announced and not yet closed: its seat, card code, kind."""

    seat: int
    card: str
    kind: str


# What a score tells about an effect resolved earlier in the round: (the card, the score's
# arguments, the scored hand (None: not followed)) → whether it mattered.
ScoreCheck = Callable[[str, ev.Score, set[str] | None], bool]


def _plain_category(hand: set[str]) -> str:
    return CATEGORIES[category_of(evaluate([CARD_OF[code] for code in hand]))]


def changed_category(card: str, score: ev.Score, hand: set[str] | None) -> bool:
    """K-SCORE-4: the structure change made the scored category another than the hand's own."""
    return hand is not None and score["category"] != _plain_category(hand)


def scored_above_zero(card: str, score: ev.Score, hand: set[str] | None) -> bool:
    """K-SCORE-6: a multiplier of 0 points changes nothing."""
    return score["total"] > 0


def bonus_doubled(card: str, score: ev.Score, hand: set[str] | None) -> bool:
    """K-SCORE-6, K-SCORE-3: doubling a bonus of 0 (ranks 2–6), or of a card gone, adds nothing."""
    return hand is not None and card in hand and CARD_BONUS[CARD_OF[card]] > 0


class EffectImpact:
    """One game's holdings and mattered rounds per card code (see the module docstring)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.holdings: dict[str, int] = {}
        self.mattered: dict[str, int] = {}
        self._round()

    def _round(self) -> None:
        """What each round starts afresh."""
        n = self.players
        self.held_now: set[str] = set()
        self.mattered_now: set[str] = set()
        self.open: Opened | None = None
        self.revealed = False
        self.sizes = [0] * n  # cards in each hand
        self.in_round = [True] * n
        self.at_score: dict[int, list[tuple[ScoreCheck, str]]] = {}  # by seat
        self.limits: list[tuple[str, int]] = []  # (hand-limit card, its seat)
        self.squeezes: list[tuple[str, list[int]]] = []  # (squeeze card, its targets)
        self.shields: list[tuple[str, int]] = []  # (shield card, its seat)

    def _flush(self) -> None:
        for card in self.held_now:
            self.holdings[card] = self.holdings.get(card, 0) + 1
        for card in self.mattered_now & self.held_now:
            self.mattered[card] = self.mattered.get(card, 0) + 1

    def matter(self, card: str) -> None:
        self.mattered_now.add(card)

    # --- the round, the hands' sizes, who is in --------------------------------------------------

    def round_start(self, event: Event) -> None:
        self._flush()
        self._round()

    def deal(self, event: Event) -> None:
        args = cast(ev.Deal, event.args)
        self.sizes[args["seat"]] = args["count"]

    def draw(self, event: Event) -> None:
        self.sizes[cast(ev.Draw, event.args)["seat"]] += 1

    def discard(self, event: Event) -> None:
        self.sizes[cast(ev.Discard, event.args)["seat"]] -= 1

    def drop(self, event: Event) -> None:
        self.in_round[cast(ev.Stand, event.args)["seat"]] = False

    def reveal(self, event: Event) -> None:
        self.revealed = True

    def step(self, event: Event) -> None:
        """A discard step is over: the hand limits have shown (hand-limit, squeeze)."""
        if cast(ev.Step, event.args)["step"] not in AFTER_DISCARD:
            return
        sizes, in_round = self.sizes, self.in_round
        for card, seat in self.limits:
            if in_round[seat] and sizes[seat] > HAND_SIZE:
                self.matter(card)
        for card, targets in self.squeezes:
            if any(in_round[q] and sizes[q] < HAND_SIZE for q in targets):
                self.matter(card)

    # --- effects announced, blocked, void -------------------------------------------------------

    def effect(self, event: Event) -> None:
        args = cast(ev.Effect, event.args)
        card, seat = args["card"], args["seat"]
        self.open = None if card is None else Opened(seat, card, args["kind"])
        if card is None:  # a faction ability: no card's effect, and no shield turns it away
            return
        self.held_now.add(card)
        if self.shields and _hits_others(args):
            for shield, shielded in self.shields:
                if shielded != seat and self.in_round[shielded]:
                    self.matter(shield)

    def blocked(self, event: Event) -> None:
        card = cast(ev.Blocked, event.args)["card"]
        self.held_now.add(card)  # a block is used, never announced
        self.matter(card)
        self.open = None

    def void(self, event: Event) -> None:
        self.open = None

    def follows(self, event: Event) -> None:
        """An event an effect makes: the open card effect's, by its kind's rule."""
        opened = self.open
        if opened is not None:
            rule = FOLLOW.get(opened.kind)
            if rule is not None:
                rule(self, opened, event)

    def take(self, event: Event) -> None:
        args = cast(ev.Move, event.args)
        self.sizes[args["seat"]] += 1
        self.sizes[args["target"]] -= 1
        self.follows(event)

    def give(self, event: Event) -> None:
        args = cast(ev.Move, event.args)
        self.sizes[args["seat"]] -= 1
        self.sizes[args["target"]] += 1
        self.follows(event)

    # --- the final scoring and the end ----------------------------------------------------------

    def score(self, score: ev.Score, hand: set[str] | None) -> None:
        """A seat's final scoring: its hand is held (K-SCORE-1); the checks waiting for it."""
        if hand is not None:
            self.held_now |= hand
        for check, card in self.at_score.get(score["seat"], ()):
            if check(card, score, hand):
                self.matter(card)

    def finish(self) -> tuple[dict[str, int], dict[str, int]]:
        """The game's holdings and mattered rounds per card code, in card order."""
        self._flush()
        self._round()
        holdings, mattered = self.holdings, self.mattered
        return (
            {code: holdings[code] for code in CODES if code in holdings},
            {code: mattered[code] for code in CODES if code in mattered},
        )


def _hits_others(args: ev.Effect) -> bool:
    kind = args["kind"]
    if kind in AIMED:
        return cast(Mapping[str, Any], args["params"]).get("who") != "self"
    return kind in HITS_OTHERS


# --- what an open effect's own events say, by its kind ------------------------------------------

Follow = Callable[[EffectImpact, Opened, Event], None]


def _chips(impact: EffectImpact, opened: Opened, event: Event) -> None:
    if event.kind in CHIP_EVENTS and cast(ev.Chips, event.args)["amount"] > 0:
        impact.matter(opened.card)


def _moved(impact: EffectImpact, opened: Opened, event: Event) -> None:
    if event.kind in MOVE_EVENTS:
        impact.matter(opened.card)


def _drew(impact: EffectImpact, opened: Opened, event: Event) -> None:
    if event.kind == "extra" and cast(Mapping[str, int], event.args)["count"] > 0:
        impact.matter(opened.card)


def _peeked(impact: EffectImpact, opened: Opened, event: Event) -> None:
    if event.kind == "peek" and not impact.revealed:
        impact.matter(opened.card)


def _waits_for_score(kind: str, check: ScoreCheck) -> Follow:
    """An effect that shows at its seat's score: ``kind`` is the event that says it resolved."""

    def rule(impact: EffectImpact, opened: Opened, event: Event) -> None:
        if event.kind == kind:
            impact.at_score.setdefault(opened.seat, []).append((check, opened.card))

    return rule


def _limit(impact: EffectImpact, opened: Opened, event: Event) -> None:
    if event.kind == "hand-limit":
        impact.limits.append((opened.card, opened.seat))


def _squeeze(impact: EffectImpact, opened: Opened, event: Event) -> None:
    if event.kind == "squeeze":
        targets = cast(Mapping[str, list[int]], event.args)["targets"]
        impact.squeezes.append((opened.card, list(targets)))


def _shield(impact: EffectImpact, opened: Opened, event: Event) -> None:
    if event.kind == "shield":
        impact.shields.append((opened.card, opened.seat))


_structure = _waits_for_score("structure", changed_category)
FOLLOW: dict[str, Follow] = {
    "gain": _chips,
    "lose": _chips,
    "steal": _chips,
    "skim": _chips,
    "ante": _chips,
    "take": _moved,
    "give": _moved,
    "swap": _moved,
    "draw": _drew,
    "peek": _peeked,
    "category-up": _structure,
    "set-suit": _structure,
    "set-rank": _structure,
    "multiplier": _waits_for_score("multiplier", scored_above_zero),
    "counts-double": _waits_for_score("double", bonus_doubled),
    "hand-limit": _limit,
    "squeeze": _squeeze,
    "shield": _shield,
}

# The events this module reads, by kind (``score`` comes through :meth:`EffectImpact.score`,
# with the hand the collector followed). The effects' own events go to ``follows``.
HANDLERS: dict[str, Callable[[EffectImpact, Event], None]] = {
    "round-start": EffectImpact.round_start,
    "deal": EffectImpact.deal,
    "draw": EffectImpact.draw,
    "discard": EffectImpact.discard,
    "drop": EffectImpact.drop,
    "reveal": EffectImpact.reveal,
    "step": EffectImpact.step,
    "effect": EffectImpact.effect,
    "blocked": EffectImpact.blocked,
    "void": EffectImpact.void,
    "take": EffectImpact.take,
    "give": EffectImpact.give,
    **dict.fromkeys(
        (
            "gain",
            "lose",
            "steal",
            "skim",
            "ante",
            "swap",
            "extra",
            "peek",
            "structure",
            "multiplier",
            "double",
            "hand-limit",
            "squeeze",
            "shield",
        ),
        EffectImpact.follows,
    ),
}
