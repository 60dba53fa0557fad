"""A rule-of-thumb player: keep its own populaces alive, grow them, lean toward its ethos.

Every placement is scored by one rough formula (:meth:`Context.seat_value`): a populace is worth
one point per reckoning still to come plus the cards it earns, minus, for each coming horseman,
what it costs if that horseman kills it (its points lost plus the −1 of the reckoning), weighted
by how soon that horseman rides. A play is chosen when it gains more than the card is worth kept
in hand; otherwise the bot passes. The same formula ranks the second step (where the card goes),
so the two steps agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import Action, Observation
from apokalypse.games.apokalypse.cards import EARTH, EVIL, GOOD, SIDE_NAMES
from apokalypse.games.apokalypse.observed import (
    Bundle,
    attack_targets,
    join,
    place_targets,
    remove_outermost,
)
from apokalypse.games.apokalypse.roles import (
    CHURCH,
    DUAL,
    ETHOS_CHANGE,
    EVIL_EARTH,
    FIEND,
    GOOD_EARTH,
    ICON,
    METAL,
    PROTECTION,
    ROLES,
    SAINT,
    VIOLENCE,
    Role,
)

from ..base import BaseBot
from .model import (
    LAST,
    Display,
    copy_display,
    display_from_obs,
    income,
    kinds,
    losses,
    role,
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


class Context:
    """One decision's view: displays as code lists and the value of each seat's display now."""

    def __init__(self, obs: Observation, weights: Weights) -> None:
        self.obs = obs
        self.w = weights
        seat = obs["seat"]
        assert seat is not None  # a player is asked with its own seat's observation
        self.me: int = seat
        self.n: int = obs["players"]
        self.horseman: int = obs["horseman"]
        self.displays: list[Display] = [display_from_obs(v) for v in obs["displays"]]
        self.owned = [frozenset(cards) for cards in obs["horseman_cards"]]
        self.urgency = urgency(obs, self.displays)
        self.ethos = GOOD if obs.get("ethos") == "good" else EVIL
        # Cards earn less the nearer the end: after horseman 4 nothing counts.
        self.income_weight: float = 0.3 * (LAST - self.horseman) + 0.3
        self.base = [self.seat_value(q, d) for q, d in enumerate(self.displays)]

    def seat_value(self, seat: int, d: Display) -> float:
        h, u = self.horseman, self.urgency
        populaces = len(d[GOOD_EARTH]) + len(d[EVIL_EARTH])
        if not populaces:
            return 0.0
        value = populaces * (LAST + 1 - h + self.income_weight)
        value += self.income_weight * income(d)
        for j, dead in enumerate(losses(d, h, self.owned[seat]), h):
            if dead:
                value -= (u if j == h else self.w.later_risk) * dead * (LAST + 2 - j)
        return value

    def delta(self, changed: dict[int, Display]) -> float:
        """Gain for this player if the displays in ``changed`` looked like that."""
        gain = 0.0
        balance = 0
        for q, d in changed.items():
            diff = self.seat_value(q, d) - self.base[q]
            gain += diff if q == self.me else -self.w.others * diff
            old = self.displays[q]
            for side in (GOOD, EVIL):
                sign = 1 if side == self.ethos else -1
                balance += sign * (len(d[side * 3 + EARTH]) - len(old[side * 3 + EARTH]))
        return gain + self.w.ethos * balance

    def attack_success(self, target_seat: int) -> float:
        """Rough chance nobody defends: a hand's K cards hold Violence, Ethos change and Church
        Music (about a third), its B cards Heavy Metal (a tenth); the victim defends most."""
        p = 1.0
        for q, (b, k) in enumerate(self.obs["hand_counts"]):
            if q == self.me:
                continue
            holds = 1.0 - (2 / 3) ** k * 0.9**b
            p *= 1.0 - holds * (0.9 if q == target_seat else 0.3)
        return p


def hold_value(code: str, ctx: Context | None = None) -> float:
    card_role = role(code)
    value = 0.5 if card_role is None else HOLD.get(card_role, 0.5)
    if ctx is not None and ctx.horseman == LAST and ctx.urgency >= 1.0:
        value *= 0.3  # the last round: cards left in hand are worth nothing soon
    return value


class HeuristicBot(BaseBot):
    name = "heuristic"

    def __init__(self, seed: int, weights: Weights | None = None) -> None:
        self.rng = Rng(seed)
        self.weights = weights or Weights()

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        decision = observation.get("decision")
        if len(legal) == 1:
            chosen = legal[0]
        elif decision == "turn":
            chosen = self._turn(Context(observation, self.weights), legal)
        elif decision in ("choose-target", "place-seal"):
            chosen = self._target(Context(observation, self.weights), legal)
        elif decision == "choose-gift":
            chosen = min(legal, key=lambda a: (hold_value(a.code), a.code))
        elif decision == "choose-recipient":
            chosen = self._recipient(observation, legal)
        elif decision == "choose-victim":
            counts = observation["hand_counts"]
            chosen = max(
                legal, key=lambda a: (1.2 * counts[a.seat][1] + counts[a.seat][0], -a.seat)
            )
        elif decision == "defence":
            chosen = self._defend(observation, legal)
        elif decision == "choose-destination":
            chosen = self._destination(Context(observation, self.weights), legal)
        else:  # a decision this bot does not know: stay legal
            chosen = self.rng.choice(list(legal))
        return chosen

    # --- turn: which card, and then where ----------------------------------------------------

    def _turn(self, ctx: Context, legal: Sequence[Action]) -> Action:
        best, best_value = legal[0], ctx.w.margin  # legal[0] is pass
        for action in legal:
            if action.verb != "play":
                continue
            value = self._best_target(ctx, action.code, action.use)
            value -= hold_value(action.code, ctx)
            if value > best_value:
                best, best_value = action, value
        return best

    def _best_target(self, ctx: Context, code: str, use: str) -> float:
        if use in ("good", "evil"):
            # A populace in a rival's display helps the rival more than the ethos count helps
            # this player, so only the own display is worth a look here.
            places = [Action("target", seat=ctx.me, side=GOOD if use == "good" else EVIL)]
        elif use == "attack":
            places = [
                Action("target", seat=q, side=side)
                for q, side in attack_targets(ctx.obs, kinds(), code)
            ]
        else:
            places = place_targets(ctx.obs, kinds(), code, use)
        return max((self._value(ctx, code, use, t) for t in places), default=-1e9)

    def _target(self, ctx: Context, legal: Sequence[Action]) -> Action:
        choice = ctx.obs.get("choice")  # none: the seal placement
        code = choice["code"] if choice else "seal"
        use = choice.get("use", "seal") if choice else "seal"
        return max(legal, key=lambda t: self._value(ctx, code, use, t))

    def _value(self, ctx: Context, code: str, use: str, t: Action) -> float:
        """What putting ``code`` as ``use`` at ``t`` gains (card cost not included)."""
        card_role = role(code)
        d = copy_display(ctx.displays[t.seat])
        if use in ("good", "evil"):
            d[t.side * 3 + EARTH].append(code if card_role in (SAINT, FIEND) else "populace")
            value = ctx.delta({t.seat: d})
            if t.side == GOOD:  # R-PLAY-4: the cheapest other card goes to a rival
                rest = list(ctx.obs["hand"])
                rest.remove(code)
                value -= min((hold_value(c, ctx) for c in rest), default=0.0) + ctx.w.gift
            elif any(sum(c) for q, c in enumerate(ctx.obs["hand_counts"]) if q != ctx.me):
                value += ctx.w.steal
            return value
        if use == "attack":
            bundle = remove_outermost(d, t.side)
            if card_role is not None and ROLES[card_role].attack == "kill":  # R-ATTACK-2
                value = ctx.delta({t.seat: d})
            else:
                value = max(
                    self._moved(ctx, t.seat, d, bundle, 1 - t.side, q) for q in range(ctx.n)
                )
            return value * ctx.attack_success(t.seat)
        row = d[t.side * 3 + t.plane]
        if t.pos < 0:
            row.append(code)
        elif use in ("neutralise", "seal"):
            row.pop(t.pos)  # R-PLAY-15: both music cards go, the outer cards move inward
        else:
            row[t.pos] = code
        return ctx.delta({t.seat: d})

    def _moved(
        self,
        ctx: Context,
        seat: int,
        source: Display,
        bundle: Bundle[str],
        side: int,
        dest: int,
    ) -> float:
        """R-ATTACK-3: the populace and its cards join ``side`` of ``dest``'s display."""
        target = source if dest == seat else copy_display(ctx.displays[dest])
        join(target, side, bundle)
        return ctx.delta({seat: source, dest: target})

    def _destination(self, ctx: Context, legal: Sequence[Action]) -> Action:
        attack = ctx.obs.get("attack")  # the converted populace's place, public
        if not attack:
            return next((a for a in legal if a.seat == ctx.me), legal[0])
        seat, side = attack["seat"], SIDE_NAMES.index(attack["side"])
        source = ctx.displays[seat]
        if not source[side * 3 + EARTH]:
            return next((a for a in legal if a.seat == ctx.me), legal[0])

        def value(a: Action) -> float:
            d = copy_display(source)
            bundle = remove_outermost(d, side)
            return self._moved(ctx, seat, d, bundle, 1 - side, a.seat)

        return max(legal, key=value)

    # --- out of turn -------------------------------------------------------------------------

    def _recipient(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """A gift goes to the rival who looks weakest: fewest points so far plus populaces."""
        scores = obs["scores"]

        def strength(a: Action) -> tuple[int, int]:
            view = obs["displays"][a.seat]
            populaces = len(view["good"]["earth"]) + len(view["evil"]["earth"])
            return sum(row[a.seat] for row in scores) + populaces, a.seat

        return min(legal, key=strength)

    def _defend(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """Defend only this player's own populaces; keep the card otherwise."""
        target = obs.get("attack")
        if not target or target["seat"] != obs["seat"]:
            return next((a for a in legal if a.verb == "decline"), legal[0])
        defences = [a for a in legal if a.verb == "defend"]
        if not defences:
            return legal[0]
        return min(defences, key=lambda a: (hold_value(a.code), a.code))
