"""A rule-of-thumb player: keep its own populaces alive, grow them, lean toward its ethos.

Every placement is scored by one rough formula (:meth:`.Context.seat_value`): a populace is worth
one point per reckoning still to come plus the cards it earns, minus, for each coming horseman,
what it costs if that horseman kills it (its points lost plus the −1 of the reckoning), weighted
by how soon that horseman rides. A play is chosen when it gains more than the card is worth kept
in hand; otherwise the bot passes. The same formula ranks the second step (where the card goes),
so the two steps agree. How a decision is weighed fast: :mod:`.context`.
"""

from __future__ import annotations

from collections.abc import Sequence

from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import Action, Observation
from apokalypse.games.apokalypse.cards import EARTH, EVIL, GOOD, HEAVEN, NETHER, SIDE_NAMES
from apokalypse.games.apokalypse.observed import Bundle
from apokalypse.games.apokalypse.roles import ROLES

from ..base import BaseBot
from .context import HOLD, VIEW, Context, Weights, hold_value, put
from .model import Facts, copy_display, role, shape, shape_facts

__all__ = ["HOLD", "Context", "HeuristicBot", "Weights", "hold_value"]


class HeuristicBot(BaseBot):
    name = "heuristic"

    def __init__(self, seed: int, weights: Weights | None = None) -> None:
        self.rng = Rng(seed)
        self.weights = weights or Weights()
        self._turn_view: Context | None = None  # the last decision's, when it was a turn

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        decision = observation.get("decision")
        turn_view, self._turn_view = self._turn_view, None
        if len(legal) == 1:
            chosen = legal[0]
        elif decision == "turn":
            self._turn_view = ctx = Context(observation, self.weights)
            chosen = self._turn(ctx, legal)
        elif decision in ("choose-target", "place-seal"):
            chosen = self._target(self._second_step(observation, turn_view), legal)
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

    def _second_step(self, observation: Observation, turn_view: Context | None) -> Context:
        """The turn's Context again when this is the turn's second step (where the card goes)
        and the observation agrees with the turn's in every field a Context reads
        (:data:`VIEW`), as it does when nothing happened in between; otherwise a new one."""
        if (
            turn_view is not None
            and turn_view.obs is not observation  # not one dict changed in place
            and all(turn_view.obs.get(key) == observation.get(key) for key in VIEW)
        ):
            turn_view.obs = observation  # the new question: which card, which use
            return turn_view
        return Context(observation, self.weights)

    # --- turn: which card, and then where ----------------------------------------------------

    def _turn(self, ctx: Context, legal: Sequence[Action]) -> Action:
        best, best_value = legal[0], ctx.w.margin  # legal[0] is pass
        for action in legal:
            if action.verb != "play":
                continue
            value = self._best_target(ctx, action.code, action.use)
            value -= ctx.hold(action.code)
            if value > best_value:
                best, best_value = action, value
        return best

    def _best_target(self, ctx: Context, code: str, use: str) -> float:
        if use in ("good", "evil"):
            # A populace in a rival's display helps the rival more than the ethos count helps
            # this player, so only the own display is worth a look here.
            own = Action("target", seat=ctx.me, side=GOOD if use == "good" else EVIL)
            return self._value(ctx, code, use, own)
        if use in ("heaven", "nether"):
            return ctx.best_slot(code, ctx.slots(code, use))
        best = -1e9  # no place at all
        first = True
        for t in ctx.places(code, use):
            value = self._value(ctx, code, use, t)
            if first or value > best:  # the first best, as max() keeps it
                best, first = value, False
        return best

    def _target(self, ctx: Context, legal: Sequence[Action]) -> Action:
        choice = ctx.obs.get("choice")  # none: the seal placement
        code = choice["code"] if choice else "seal"
        use = choice.get("use", "seal") if choice else "seal"
        return max(legal, key=lambda t: self._value(ctx, code, use, t))

    def _value(self, ctx: Context, code: str, use: str, t: Action) -> float:
        """What putting ``code`` as ``use`` at ``t`` gains (card cost not included)."""
        f = ctx.facts[t.seat]
        d = ctx.displays[t.seat]
        if use in ("good", "evil"):
            # Which card lies in Earth matters to no value, only how many populaces there are.
            nether = d[t.side * 3 + NETHER]
            value = ctx.delta1(t.seat, ctx.changed(f, t.side, 1, (), (), nether))
            if t.side == GOOD:  # R-PLAY-4: the cheapest other card goes to a rival
                value -= ctx.gift(code) + ctx.w.gift
            elif any(sum(c) for q, c in enumerate(ctx.obs["hand_counts"]) if q != ctx.me):
                value += ctx.w.steal
            return value
        if use == "attack":
            card_role = role(code)
            kill = card_role is not None and ROLES[card_role].attack == "kill"  # R-ATTACK-2
            # The same for every attack card that kills, and for every one that converts.
            key = (t.seat, t.side, kill)
            gain = ctx.attacks.get(key)
            if gain is None:
                bundle, gone = ctx.taken(t.seat, t.side)
                if kill:
                    gain = ctx.delta1(t.seat, gone)
                else:
                    gain = max(self._converted(ctx, t.seat, gone, bundle, 1 - t.side))
                ctx.attacks[key] = gain
            return gain * ctx.attack_success(t.seat)
        if t.plane == HEAVEN or t.plane == NETHER:
            return ctx.delta1(t.seat, ctx.placed(t, code, use))
        # No card goes to Earth this way: weighed on a copy all the same.
        d = copy_display(d)
        put(d[t.side * 3 + t.plane], code, use, t.pos)
        return ctx.delta1(t.seat, shape_facts(shape(d)))

    def _converted(
        self, ctx: Context, seat: int, gone: Facts, bundle: Bundle[str], side: int
    ) -> list[float]:
        """R-ATTACK-3: the gain for each display the populace may join (on ``side``) with its
        cards, by seat; ``gone`` is the facts of ``seat``'s display without them.

        The source stays joined once the populace has been weighed in its own display: the
        seats after that one are weighed with it there too (the values this player was tuned
        with)."""
        values = []
        source_part = ctx.part(seat, gone)
        for dest in range(ctx.n):
            if dest == seat:
                gone = ctx.joined(seat, side, bundle, gone)
                values.append(ctx.delta1(seat, gone))
                source_part = ctx.part(seat, gone)
            else:
                dest_part = ctx.part(dest, ctx.joined(dest, side, bundle, ctx.facts[dest]))
                values.append(ctx.delta2(source_part, dest_part))
        return values

    def _destination(self, ctx: Context, legal: Sequence[Action]) -> Action:
        attack = ctx.obs.get("attack")  # the converted populace's place, public
        if not attack:
            return next((a for a in legal if a.seat == ctx.me), legal[0])
        seat, side = attack["seat"], SIDE_NAMES.index(attack["side"])
        source = ctx.displays[seat]
        if not source[side * 3 + EARTH]:
            return next((a for a in legal if a.seat == ctx.me), legal[0])

        bundle, gone = ctx.taken(seat, side)

        def value(a: Action) -> float:
            if a.seat == seat:
                return ctx.delta1(seat, ctx.joined(seat, 1 - side, bundle, gone))
            joined = ctx.joined(a.seat, 1 - side, bundle, ctx.facts[a.seat])
            return ctx.delta2(ctx.part(seat, gone), ctx.part(a.seat, joined))

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
