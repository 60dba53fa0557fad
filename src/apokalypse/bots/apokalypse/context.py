"""What the heuristic player (:mod:`.heuristic`) weighs a decision with: its knobs, the worth of
a card kept in hand, and the :class:`Context` of one decision, which weighs each candidate play
as a change of the facts (:data:`.model.Facts`) of the one or two displays it touches.

The player weighs some forty candidates per turn. Weighing each on a copied display and working
out every display's losses again, as it first did, made it play about 2,000 decisions a second.
A Context works out the displays' facts and values once, a candidate changes only the facts its
cards change, and values are memoised across decisions (:func:`worth`,
:func:`.model.shape_facts`, :func:`.model.dead`); ``tests/apokalypse/test_heuristic_speed.py``
holds the player to the very choices it made before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from apokalypse.games.apokalypse import Action, Observation
from apokalypse.games.apokalypse.attacks import attack_targets
from apokalypse.games.apokalypse.cards import EVIL, GOOD, NETHER, Protection, code_cards
from apokalypse.games.apokalypse.observed import Bundle, remove_outermost
from apokalypse.games.apokalypse.placement import use_targets
from apokalypse.games.apokalypse.roles import (
    CHURCH,
    DUAL,
    ETHOS_CHANGE,
    FIEND,
    ICON,
    METAL,
    PROTECTION,
    SAINT,
    USES,
    VIOLENCE,
    Role,
    is_use,
)

from .model import (
    LAST,
    MEMO,
    NO_MODIFIER,
    Display,
    Facts,
    copy_display,
    kinds,
    minus,
    modifiers,
    plus,
    protects,
    reckoned_losses,
    role,
    rows,
    shape,
    shape_facts,
    side_income,
    urgency,
)


@dataclass(frozen=True)
class Weights:
    """The knobs, tuned by paired simulations (200 seeded 4-player games, two settings in
    alternating seats): a dataclass rather than constants so that one run can pit two settings
    against each other. ``ethos`` 1.0 beat 0.5 and 2.0 on both average total and wins."""

    later_risk: float = 0.25  # chance a populace is still unprotected when a later horseman rides
    others: float = 0.3  # how much a point taken from another player is worth to this one
    ethos: float = 1.0  # per populace of the majority count (R-END-3) moved toward own ethos
    steal: float = 0.7  # a card stolen by an evil deed (R-PLAY-5)
    gift: float = 0.3  # a card handed to a rival by a good deed (R-PLAY-4), beyond its own worth
    margin: float = 0.1  # a play must beat keeping the card by this much, else pass


# Worth of a card kept in hand: music and attack cards also defend (R-ATTACK-4).
HOLD: dict[Role, float] = {
    CHURCH: 2.0, METAL: 2.0, VIOLENCE: 1.2, ETHOS_CHANGE: 1.2, SAINT: 1.0, FIEND: 1.0,
    PROTECTION: 0.6, ICON: 0.5, DUAL: 0.4,
}  # fmt: skip


# A Heaven or Netherworld place as any card put there changes it: the seat and side; the side's
# protection and income without the card the place replaces (if any); whether a card put there
# earns its modifier (a populace lies above it); the display's facts.
Slot = tuple[int, int, Protection, int, bool, Facts]

# The fields of an observation a Context reads, besides the question asked ("choice",
# "attack"): two observations alike in all of them have the same Context.
VIEW = (
    "seat", "players", "horseman", "displays", "horseman_cards", "decks", "ethos", "hand",
    "hand_counts",
)  # fmt: skip


class Context:
    """One decision's view, worked out once: the displays, the :data:`.model.Facts` of each
    (what its value reads of it) and the value of each seat's display now. A candidate play is
    weighed by changing the facts of the one or two displays it touches, never a whole display;
    values of facts are memoised across decisions (:func:`worth`)."""

    def __init__(self, obs: Observation, weights: Weights) -> None:
        self.obs = obs
        self.w = weights
        seat = obs["seat"]
        assert seat is not None  # a player is asked with its own seat's observation
        self.me: int = seat
        self.n: int = obs["players"]
        self.horseman: int = obs["horseman"]
        # The observation's own lists: read, never changed (a candidate changes a copy).
        self.displays: list[Display] = [rows(v) for v in obs["displays"]]
        self.facts: list[Facts] = [shape_facts(shape(d)) for d in self.displays]
        self.owned = [frozenset(cards) for cards in obs["horseman_cards"]]
        self.urgency = urgency(obs, self.displays)
        self.ethos = GOOD if obs.get("ethos") == "good" else EVIL
        self.protects = protects()
        self.modifiers = modifiers()
        self.later_risk = weights.later_risk
        self.others = weights.others
        self.ethos_weight = weights.ethos
        self.base = [self.seat_value(q, f) for q, f in enumerate(self.facts)]
        # Worked out on first use, then read by every candidate of this decision.
        self._places: dict[tuple[Role | None, str], list[Action]] = {}
        self._slots: dict[tuple[Role | None, str], list[Slot]] = {}
        # Gain of an attack on (seat, side) before the chance it succeeds, by whether it kills.
        self.attacks: dict[tuple[int, int, bool], float] = {}
        self._taken: dict[tuple[int, int], tuple[Bundle[str], Facts]] = {}
        self._success: dict[int, float] = {}
        self._hold: dict[str, float] = {}
        self._holds: list[float] | None = None  # hold_value of each card in hand, sorted

    def seat_value(self, seat: int, f: Facts) -> float:
        """What ``seat``'s display is worth to its owner with facts ``f`` (the module's formula):
        :func:`worth`, less what the coming horseman costs at this round's urgency."""
        value, dead, later = worth(f, self.horseman, self.later_risk, self.owned[seat])
        if dead:
            value -= self.urgency * dead * (LAST + 2 - self.horseman)
        for loss in later:
            value -= loss
        return value

    def part(self, seat: int, f: Facts) -> tuple[float, int]:
        """One display's terms of the gain: the change of its value as this player weighs it,
        and the populaces it gains on the own ethos side less those on the other (R-END-3)."""
        diff = self.seat_value(seat, f) - self.base[seat]
        return (diff if seat == self.me else -self.others * diff), self._balance(seat, f)

    def delta2(self, first: tuple[float, int], second: tuple[float, int]) -> float:
        """Gain for this player if two displays change, from their :meth:`part`."""
        gain = 0.0
        gain += first[0]
        gain += second[0]
        return gain + self.ethos_weight * (first[1] + second[1])

    def delta1(self, seat: int, f: Facts) -> float:
        """Gain for this player if ``seat``'s display had facts ``f``: its :meth:`part`, summed
        as :meth:`delta2` sums two (its :meth:`seat_value` spelt out: the hottest line)."""
        diff, dead, later = worth(f, self.horseman, self.later_risk, self.owned[seat])
        if dead:
            diff -= self.urgency * dead * (LAST + 2 - self.horseman)
        for loss in later:
            diff -= loss
        diff -= self.base[seat]
        gain = 0.0
        gain += diff if seat == self.me else -self.others * diff
        old = self.facts[seat]
        if self.ethos == GOOD:
            return gain + self.ethos_weight * ((f[0] - old[0]) - (f[1] - old[1]))
        return gain + self.ethos_weight * ((f[1] - old[1]) - (f[0] - old[0]))

    def _balance(self, seat: int, f: Facts) -> int:
        """Populaces gained on the own ethos side, less those gained on the other (R-END-3)."""
        old = self.facts[seat]
        good, evil = f[0] - old[0], f[1] - old[1]
        return good - evil if self.ethos == GOOD else evil - good

    def placed(self, t: Action, code: str, use: str) -> Facts:
        """The facts of ``t.seat``'s display with ``code`` put in Heaven or the Netherworld at
        ``t`` as ``use`` (as :func:`put` puts it), worked out from the card alone: the
        protection of the side changes by the cards put in and taken out, its income by their
        modifiers where a populace lies above them."""
        seat, side, plane, pos = t.seat, t.side, t.plane, t.pos
        f = self.facts[seat]
        row = self.displays[seat][side * 3 + plane]
        if side == GOOD:
            earth, protection, income = f[0], f[2], f[4]
        else:
            earth, protection, income = f[1], f[3], f[5]
        if pos < 0:  # added at the end of the row
            m, a, h, p = protection
            dm, da, dh, dp = self.protects[code][side]
            protection = m + dm, a + da, h + dh, p + dp
            if plane == NETHER and len(row) < earth:
                income += self.modifiers.get(code, NO_MODIFIER)[side]
        elif use in ("neutralise", "seal"):  # taken out: the outer cards move inward
            protection = minus(protection, self.protects[row[pos]][side])
            if plane == NETHER:
                income = side_income(row[:pos] + row[pos + 1 :], earth, side)
        else:  # replaced
            old = row[pos]
            m, a, h, p = protection
            om, oa, oh, op = self.protects[old][side]
            dm, da, dh, dp = self.protects[code][side]
            protection = m - om + dm, a - oa + da, h - oh + dh, p - op + dp
            if plane == NETHER and pos < earth:
                mods = self.modifiers
                income += mods.get(code, NO_MODIFIER)[side] - mods.get(old, NO_MODIFIER)[side]
        if side == GOOD:
            return f[0], f[1], protection, f[3], income, f[5]
        return f[0], f[1], f[2], protection, f[4], income

    def slots(self, code: str, use: str) -> list[Slot]:
        """The :data:`Slot` of each of :meth:`places` for a Heaven or Netherworld play."""
        key = (role(code), use)
        found = self._slots.get(key)
        if found is None:
            found = self._slots[key] = [self._slot(t) for t in self.places(code, use)]
        return found

    def _slot(self, t: Action) -> Slot:
        seat, side, plane, pos = t.seat, t.side, t.plane, t.pos
        f = self.facts[seat]
        row = self.displays[seat][side * 3 + plane]
        if side == GOOD:
            earth, protection, income = f[0], f[2], f[4]
        else:
            earth, protection, income = f[1], f[3], f[5]
        if pos < 0:  # added at the end of the row
            return seat, side, protection, income, plane == NETHER and len(row) < earth, f
        old = row[pos]  # replaced
        earns = plane == NETHER and pos < earth
        if earns:
            income -= self.modifiers.get(old, NO_MODIFIER)[side]
        return seat, side, minus(protection, self.protects[old][side]), income, earns, f

    def best_slot(self, code: str, slots: list[Slot]) -> float:
        """The best gain of putting ``code`` in one of ``slots``, the first best as max() keeps
        it (-1e9: no slot). Each is :meth:`delta1` of the facts :meth:`placed` gives, spelt out
        here with the same sums in the same order: most candidates of a turn are weighed here."""
        best = -1e9
        first = True
        adds = self.protects[code]
        earns = self.modifiers.get(code, NO_MODIFIER)
        horseman, urgency, later_risk = self.horseman, self.urgency, self.later_risk
        coming = LAST + 2 - horseman
        me, others, owned, base = self.me, self.others, self.owned, self.base
        unmoved = self.ethos_weight * 0  # a card in Heaven or the Netherworld moves no populace
        for seat, side, (m, a, h, p), income, earning, f in slots:
            dm, da, dh, dp = adds[side]
            protection = m + dm, a + da, h + dh, p + dp
            if earning:
                income += earns[side]
            if side == GOOD:
                facts: Facts = (f[0], f[1], protection, f[3], income, f[5])
            else:
                facts = (f[0], f[1], f[2], protection, f[4], income)
            value, dead, later = worth(facts, horseman, later_risk, owned[seat])
            if dead:
                value -= urgency * dead * coming
            for loss in later:
                value -= loss
            diff = value - base[seat]
            gain = 0.0
            gain += diff if seat == me else -others * diff
            value = gain + unmoved
            if first or value > best:
                best, first = value, False
        return best

    def changed(
        self,
        f: Facts,
        side: int,
        populaces: int,
        out: Sequence[str | None],
        into: Sequence[str | None],
        nether: Sequence[str] | None,
    ) -> Facts:
        """``f`` with ``populaces`` more on ``side``, the cards ``out`` taken from its Heaven or
        Netherworld and ``into`` added (None: no card); ``nether`` is the side's Netherworld row
        afterwards, needed when it or the populaces changed (it decides the income)."""
        good_n, evil_n, good, evil, good_income, evil_income = f
        protection = good if side == GOOD else evil
        for code in out:
            if code is not None:
                protection = minus(protection, self.protects[code][side])
        for code in into:
            if code is not None:
                protection = plus(protection, self.protects[code][side])
        if side == GOOD:
            good_n += populaces
            if nether is not None:
                good_income = side_income(nether, good_n, GOOD)
            return good_n, evil_n, protection, evil, good_income, evil_income
        evil_n += populaces
        if nether is not None:
            evil_income = side_income(nether, evil_n, EVIL)
        return good_n, evil_n, good, protection, good_income, evil_income

    def taken(self, seat: int, side: int) -> tuple[Bundle[str], Facts]:
        """What an attack on ``side`` of ``seat``'s display takes (R-ATTACK-2/3,
        :func:`.attacks.remove_outermost` on a copy), and the display's facts without it."""
        found = self._taken.get((seat, side))
        if found is None:
            d = copy_display(self.displays[seat])
            bundle = remove_outermost(d, side)
            nether = d[side * 3 + NETHER]
            gone = self.changed(self.facts[seat], side, -1, bundle[1:], (), nether)
            found = self._taken[seat, side] = bundle, gone
        return found

    def joined(self, dest: int, side: int, bundle: Bundle[str], f: Facts) -> Facts:
        """The facts ``f`` of ``dest``'s display once a converted populace joins ``side`` with
        its cards (R-ATTACK-3, :func:`.attacks.join`: each at the end of its row). ``side`` of
        the display is as the observation shows it: the attack took from the other side."""
        nether_row = self.displays[dest][side * 3 + NETHER]
        _, heaven, nether = bundle
        if nether is not None:
            nether_row = [*nether_row, nether]
        return self.changed(f, side, 1, (), (heaven, nether), nether_row)

    def places(self, code: str, use: str) -> list[Action]:
        """Where ``code`` may go as ``use``, as :func:`.observed.place_targets` and
        :func:`.observed.attack_targets` list them: the same for every card of its role, asked
        of the engine once per role with the rows already read."""
        card_role = role(code)
        key = (card_role, use)
        found = self._places.get(key)
        if found is None:
            cards = code_cards(kinds())
            if card_role is None or not is_use(use):
                found = []
            elif use != "attack":
                found = use_targets(self.displays, cards, card_role, use)
            elif "attack" in USES[card_role]:
                found = [
                    Action("target", seat=q, side=side)
                    for q, side in attack_targets(self.displays, cards, card_role)
                ]
            else:
                found = []
            self._places[key] = found
        return found

    def attack_success(self, target_seat: int) -> float:
        """Rough chance nobody defends: a hand's K cards hold Violence, Ethos change and Church
        Music (about a third), its B cards Heavy Metal (a tenth); the victim defends most."""
        p = self._success.get(target_seat)
        if p is None:
            p = 1.0
            for q, (b, k) in enumerate(self.obs["hand_counts"]):
                if q == self.me:
                    continue
                holds = 1.0 - (2 / 3) ** k * 0.9**b
                p *= 1.0 - holds * (0.9 if q == target_seat else 0.3)
            self._success[target_seat] = p
        return p

    def hold(self, code: str) -> float:
        """:func:`hold_value` of ``code`` now."""
        value = self._hold.get(code)
        if value is None:
            value = self._hold[code] = hold_value(code, self)
        return value

    def gift(self, code: str) -> float:
        """R-PLAY-4: what the cheapest other card in hand is worth, the one a good deed with
        ``code`` hands to a rival."""
        hand: list[str] = self.obs["hand"]
        hand.index(code)  # a ValueError, as ever, for a card not in hand
        if self._holds is None:
            self._holds = sorted(self.hold(c) for c in hand)
        holds = self._holds
        if len(holds) < 2:
            return 0.0  # no other card
        # The least of the others: the least of all, unless that is this card's own worth.
        return holds[1] if holds[0] == self.hold(code) else holds[0]


@lru_cache(maxsize=MEMO)
def worth(
    f: Facts, horseman: int, later_risk: float, owned: frozenset[int]
) -> tuple[float, int, tuple[float, ...]]:
    """What a display with facts ``f`` is worth before the urgency of this round (memoised: the
    same displays come back all game): the value with nothing lost, the populaces the coming
    horseman kills, and what each later one costs, in the order :meth:`Context.seat_value`
    subtracts them."""
    good_n, evil_n, good, evil, good_income, evil_income = f
    populaces = good_n + evil_n
    if not populaces:
        return 0.0, 0, ()
    # Cards earn less the nearer the end: after horseman 4 nothing counts.
    income_weight = 0.3 * (LAST - horseman) + 0.3
    value = populaces * (LAST + 1 - horseman + income_weight)
    value += income_weight * (good_income + evil_income)
    dying = reckoned_losses(good_n, evil_n, good, evil, horseman, owned)
    later = tuple(
        later_risk * dead * (LAST + 2 - j) for j, dead in enumerate(dying[1:], horseman + 1) if dead
    )
    return value, dying[0] if dying else 0, later


def hold_value(code: str, ctx: Context | None = None) -> float:
    card_role = role(code)
    value = 0.5 if card_role is None else HOLD.get(card_role, 0.5)
    if ctx is not None and ctx.horseman == LAST and ctx.urgency >= 1.0:
        value *= 0.3  # the last round: cards left in hand are worth nothing soon
    return value


def put(row: list[str], code: str, use: str, pos: int) -> None:
    """Put ``code`` as ``use`` at ``pos`` of ``row`` (-1: added at the end)."""
    if pos < 0:
        row.append(code)
    elif use in ("neutralise", "seal"):
        row.pop(pos)  # R-PLAY-15: both music cards go, the outer cards move inward
    else:
        row[pos] = code
