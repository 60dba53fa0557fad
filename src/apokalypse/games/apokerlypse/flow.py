"""The dealer round (K-ROUND, K-SHORT, KD-END-2): who pays, draws, discards, drops out.

:func:`advance` runs every automatic step (mandatory payments, draws, skipped seats) until a
player must decide or the game is over; the decisions of the round (phase 2 stake, discarding,
phase 3 participation, the scoring turn) are answered by :func:`flow_apply`. Effects interrupt
the flow by pushing frames (:mod:`.effects`); the flow resumes where it stood.
"""

from __future__ import annotations

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event

from . import effects, knowledge, scoring
from . import events as ev
from .actions import DONE, DROP, PAY, STAND, Action
from .cards import CODES, HAND_SIZE, codes
from .pending import (
    DISCARD_1,
    DISCARD_2,
    DRAW_1,
    PARTICIPATE,
    SCORING,
    STAKE_2,
    STEP_NAMES,
    Flow,
    GameOver,
)
from .pile import draw_card
from .table import Table
from .tally import NO_MODS

DRAWS = 2  # K-ROUND-2: two cards, one after another


def seat_at(s: Table, pos: int) -> int:
    """Seats in round order: clockwise from the dealer's left (K-ROUND-2)."""
    return (s.dealer + 1 + pos) % s.n


# --- rounds ---------------------------------------------------------------------------------


def start_round(s: Table, events: list[Event], first: bool = False) -> None:
    """KD-END-2: the dealer passes clockwise; every card is shuffled together; five each."""
    n = s.n
    s.round += 1
    if not first:
        s.dealer = (s.dealer + 1) % n
    pile = s.pile
    for cards in (*s.hands, *s.discards):
        pile.extend(cards)
        cards.clear()
    pile.sort()  # a shuffle of a canonical order: the result depends on the seed only
    s.rng.shuffle(pile)
    reset_round(s)
    started: ev.RoundStart = {
        "round": s.round,
        "dealer": s.dealer,
        "cost": s.cost,
        "last": s.last_round,
    }
    events.append(Event("round-start", started))
    for _ in range(HAND_SIZE):
        for pos in range(n):
            s.hands[seat_at(s, pos)].append(pile.pop())
    for seat in range(n):
        hand = codes(s.hands[seat])
        dealt: ev.Deal = {"seat": seat, "count": len(hand)}
        events.append(Event("deal", dealt, {"cards": hand}, frozenset({seat})))
    s.flow = Flow(DRAW_1, 0)


def reset_round(s: Table) -> None:
    """What every dealer round starts afresh: everybody in, nobody short, nothing used."""
    n = s.n
    s.in_round = [True] * n
    s.short = [False] * n
    s.ability_used = [False] * n
    # KD-SCORE-2: the action chips laid down for last round's abilities come back.
    factions = s.content.factions
    s.action_chips = [factions[f].chips_for(n) for f in s.factions]
    s.used = set()
    s.mods = [NO_MODS] * n
    knowledge.reset(s)
    s.revealed = False
    s.order = ()
    s.scores = [None] * n
    s.broke = ()
    # Costs only rise and nobody can hold more than the 48 chips: once nobody can pay, nobody
    # ever will, so this round is the last (the engine's end rule, see the package notes).
    s.last_round = max(s.chips) < s.cost


def pay(s: Table, seat: int, events: list[Event]) -> None:
    s.take_chips(seat, s.cost)
    s.pot += s.cost
    step = STEP_NAMES[s.flow.step] if type(s.flow) is Flow else ""
    paid: ev.Pay = {"seat": seat, "amount": s.cost, "step": step, "pot": s.pot}
    events.append(Event("pay", paid))


def make_short(s: Table, seat: int, events: list[Event]) -> None:
    """K-SHORT-1: cannot pay the full cost of this phase when it comes to them; draws nothing,
    keeps the hand as it is until the phase ends (phase 3: until the scoring is over)."""
    if not s.short[seat]:
        s.short[seat] = True
        short: ev.Short = {"seat": seat, "chips": s.chips[seat], "cost": s.cost}
        events.append(Event("short", short))


# --- the automatic part ---------------------------------------------------------------------


def advance(s: Table, events: list[Event]) -> None:
    """Run automatic steps until somebody must decide (or the game is over)."""
    while not s.stack:
        flow = s.flow
        if isinstance(flow, GameOver):
            return
        if flow.step == SCORING:
            if _scoring(s, flow, events):
                return
            continue
        if flow.pos >= s.n:
            _next_step(s, flow.step, events)
            continue
        seat = seat_at(s, flow.pos)
        step = flow.step
        if not s.in_round[seat]:
            s.flow = Flow(step, flow.pos + 1)
        elif flow.draws >= 0:
            _draw(s, flow, seat, events)
        elif step == DRAW_1:
            if s.chips[seat] >= s.cost:  # K-ROUND-2: whoever can pay must pay
                pay(s, seat, events)
                s.flow = flow._replace(draws=DRAWS)
            else:
                make_short(s, seat, events)
                s.flow = Flow(step, flow.pos + 1)
        elif step in (DISCARD_1, DISCARD_2):
            if not s.short[seat] and len(s.hands[seat]) > s.hand_limit(seat):
                return
            s.flow = Flow(step, flow.pos + 1)
        else:  # STAKE_2, PARTICIPATE: a decision
            if step == STAKE_2 and s.chips[seat] < s.cost:
                make_short(s, seat, events)  # K-ROUND-3: no chips, no cards
            return


def _draw(s: Table, flow: Flow, seat: int, events: list[Event]) -> None:
    if flow.draws == 0:
        s.flow = Flow(flow.step, flow.pos + 1)
        return
    s.flow = flow._replace(draws=flow.draws - 1)
    card = draw_card(s, seat, events)
    if card < 0:
        s.flow = Flow(flow.step, flow.pos + 1)
        return
    effect = s.content.effects[card]
    if effect is not None and effect.timing == "draw" and card not in s.used:
        effects.trigger(s, seat, card, effect, events)  # K-ROUND-2: announced, resolved at once


def _next_step(s: Table, step: int, events: list[Event]) -> None:
    told: ev.Step = {"step": STEP_NAMES[step + 1]}
    events.append(Event("step", told))
    if step == PARTICIPATE:
        scoring.reveal(s, events)
        s.flow = Flow(SCORING, 0)
    else:
        if step + 1 in (STAKE_2, PARTICIPATE):
            # K-SHORT-1 / K-ROUND-1: "Die Kosten gelten für jede Zieh-Phase separat". A
            # shortage lasts for its phase (discard step included); phase 2 and the
            # participation of phase 3 decide afresh, when they come to each player.
            s.short = [False] * s.n
        s.flow = Flow(step + 1, 0)


def _scoring(s: Table, flow: Flow, events: list[Event]) -> bool:
    """One player's scoring turn; True when they have a choice to make."""
    if flow.pos >= len(s.order):
        scoring.payout(s, events)
        if s.zero or s.last_round:
            scoring.end_game(s, events)
        else:
            start_round(s, events)
        return False
    seat = s.order[flow.pos]
    finals = effects.final_uses(s, seat)
    optional = effects.optional_uses(s, seat, final=True)
    if optional or len(finals) > 1:
        return True
    if finals:  # one effect and nothing to choose: it resolves by itself
        card = finals[0].card
        effect = s.content.effects[card]
        assert effect is not None
        effects.trigger(s, seat, card, effect, events)
        return False
    scoring.lock(s, seat, events)
    s.flow = Flow(SCORING, flow.pos + 1)
    return False


# --- decisions ------------------------------------------------------------------------------


def _can_drop(s: Table) -> bool:
    """The last player in the round stays in: somebody must take the pot."""
    return s.in_round.count(True) > 1


def flow_legal(s: Table, flow: Flow) -> list[Action]:
    step = flow.step
    if step == SCORING:
        seat = s.order[flow.pos]
        finals = effects.final_uses(s, seat)
        optional = effects.optional_uses(s, seat, final=True)
        return [*finals, *optional] if finals else [DONE, *optional]
    seat = seat_at(s, flow.pos)
    extra = effects.optional_uses(s, seat)
    drop = [DROP] if _can_drop(s) else []
    if step in (DISCARD_1, DISCARD_2):
        return [*(Action("discard", c) for c in sorted(s.hands[seat])), *extra]
    if step == STAKE_2:
        first = PAY if s.chips[seat] >= s.cost and not s.short[seat] else STAND
        return [first, STAND, *drop, *extra] if first is PAY else [STAND, *drop, *extra]
    # PARTICIPATE: with chips you pay to take part; without enough, free (KD-ROUND-1)
    return [PAY if s.chips[seat] >= s.cost else STAND, *drop, *extra]


def flow_apply(s: Table, flow: Flow, action: Action) -> list[Event]:
    events: list[Event] = []
    verb = action.verb
    seat = s.to_act
    if verb == "use" or verb == "ability":
        effects.use(s, seat, action, events)
        return events
    step = flow.step
    if step == SCORING:  # "done"
        scoring.lock(s, seat, events)
        s.flow = Flow(SCORING, flow.pos + 1)
        return events
    if verb == "discard":
        _discard(s, seat, action.card, events)
        return events
    if verb == "drop":
        s.in_round[seat] = False
        dropped: ev.Stand = {"seat": seat, "step": STEP_NAMES[step]}
        events.append(Event("drop", dropped))
        s.flow = Flow(step, flow.pos + 1)
        return events
    if verb == "pay":
        pay(s, seat, events)
        s.flow = flow._replace(draws=DRAWS) if step == STAKE_2 else Flow(step, flow.pos + 1)
        return events
    # stand
    if step == PARTICIPATE:
        make_short(s, seat, events)  # KD-ROUND-1: takes part without paying, as K-SHORT-1
    stood: ev.Stand = {"seat": seat, "step": STEP_NAMES[step]}
    events.append(Event("stand", stood))
    s.flow = Flow(step, flow.pos + 1)
    return events


def _discard(s: Table, seat: int, card: int, events: list[Event]) -> None:
    s.hands[seat].remove(card)
    knowledge.forget(s, card)
    s.discards[seat].append(card)
    discarded: ev.Discard = {"seat": seat, "card": CODES[card]}
    events.append(Event("discard", discarded))
    effect = s.content.effects[card]
    if effect is not None and effect.timing == "discard" and card not in s.used:
        effects.trigger(s, seat, card, effect, events)  # K-ROUND-2: resolves at once


def explain_flow(s: Table, flow: Flow, action: Action) -> None:
    """Raise the refusal for an action outside the legal list of a flow decision."""
    verb = action.verb
    seat = s.to_act
    step = flow.step
    if verb in ("use", "ability"):
        effects.explain_use(s, seat, action, step == SCORING)
    if step == SCORING:
        if verb == "done":
            raise IllegalAction(
                "K-SCORE-4",
                "your final-scoring card effects must resolve first ('use <card>')",
                key="scoring.effects-first",
            )
        raise IllegalAction(
            "K-SCORE-1",
            "in your scoring turn: 'use <card>', 'ability' or 'done'",
            key="scoring.choose",
        )
    if step in (DISCARD_1, DISCARD_2):
        if verb != "discard":
            raise IllegalAction(
                "K-ROUND-2",
                f"discard down to {s.hand_limit(seat)} cards first",
                key="discard.first",
                params={"count": s.hand_limit(seat)},
            )
        raise IllegalAction(
            "K-ROUND-2",
            f"you hold no {CODES[action.card]}",
            key="discard.not-held",
            params={"card": CODES[action.card]},
        )
    rule = "K-ROUND-3" if step == STAKE_2 else "K-ROUND-4"
    if verb == "drop":
        raise IllegalAction(
            rule, "the last player in the round cannot drop out", key="drop.last-player"
        )
    if verb == "pay":
        if step == PARTICIPATE:
            raise IllegalAction(
                "KD-ROUND-1",
                f"you cannot pay {s.cost}; take part free: 'stand'",
                key="pay.participate-free",
                params={"cost": s.cost},
            )
        if s.short[seat]:
            raise IllegalAction(
                "K-SHORT-1",
                "you are short in this draw phase: your hand stays as it is until it ends",
                key="pay.short",
            )
        raise IllegalAction(
            "K-SHORT-1",
            f"you cannot pay {s.cost} chips this round; chips are never lent or paid later",
            key="pay.cannot",
            params={"cost": s.cost},
        )
    if verb == "stand" and step == PARTICIPATE:
        raise IllegalAction(
            "K-ROUND-4",
            f"a player with chips pays {s.cost} to take part",
            key="stand.must-pay",
            params={"cost": s.cost},
        )
    what = "pay, stand or drop" if step == STAKE_2 else "pay (or stand without chips) or drop"
    raise IllegalAction(
        rule,
        f"now you {what}, not {verb!r}",
        key="stake.choose" if step == STAKE_2 else "participate.choose",
        params={"verb": verb},
    )
