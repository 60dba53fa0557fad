"""Card effects and faction abilities (KD-SETUP-1) and the limits the engine puts on them.

An effect is *announced* (a public ``effect`` event), may be *blocked* (K-SCORE-6: only card
effects, in a window that asks every other player in the round, clockwise, whether or not they
hold a block card, so that nothing public tells "cannot" from "will not"), and then *resolves*,
asking its owner for a target or a card where the kind needs one. Resolved effects never change
afterwards: scoring effects are kept in :class:`~.state.Mods`, which only grow.

Limits enforced here, whatever the content says: one structure change (K-SCORE-4) and one
multiplier (K-SCORE-6) per player and round, every card effect and the faction ability at most
once per round (K-SCORE-5), a short player neither receives nor loses cards (K-SHORT-1), and a
shielded player is passed by other players' card effects, never by abilities (KD-EFFECT-2, in the
manner of K-SCORE-6's blocks).
"""

from __future__ import annotations

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event

from . import events as ev
from . import knowledge
from .actions import ABILITY, ALLOW, Action, CardVerb
from .cards import CODES, FACTIONS, codes
from .content import Effect, EffectKind, is_structure
from .pending import Call, ChooseCard, ChooseTarget, Frame, Window
from .pile import draw_card
from .table import Table

_MOVES = frozenset({"take", "give", "swap"})  # kinds that move cards between hands
_CHIPS = frozenset({"gain", "lose", "skim", "ante"})  # chips to or from the bank or the pot
MIN_LIMIT = 3  # KD-EFFECT-4: a squeezed hand limit stops here


def _shielded(s: Table, call: Call, seat: int) -> bool:
    """KD-EFFECT-2: a shield turns away other players' card effects, not faction abilities."""
    return call.card >= 0 and seat != call.owner and s.mods[seat].shielded


# --- what a player may use at their own decisions -------------------------------------------


def optional_uses(s: Table, seat: int, final: bool = False) -> list[Action]:
    """Any-time card effects and the faction ability (K-SCORE-5: "any time unless stated";
    an ability with timing final only in its owner's scoring turn)."""
    out: list[Action] = []
    if not s.in_round[seat]:
        return out
    effects = s.content.effects
    for card in sorted(s.hands[seat]):
        e = effects[card]
        if e is not None and e.timing == "any" and e.kind != "block" and card not in s.used:
            out.append(Action("use", card))
    ability = s.content.factions[s.factions[seat]].ability
    if (
        ability is not None
        and not s.ability_used[seat]
        and s.action_chips[seat] > 0
        and (final or ability.timing == "any")
    ):
        out.append(ABILITY)
    return out


def final_uses(s: Table, seat: int) -> list[Action]:
    """K-SCORE-4: the final-scoring effects still to resolve in ``seat``'s hand."""
    effects = s.content.effects
    return [
        Action("use", card)
        for card in sorted(s.hands[seat])
        if (e := effects[card]) is not None and e.timing == "final" and card not in s.used
    ]


def use(s: Table, seat: int, action: Action, events: list[Event]) -> None:
    if action.verb == "ability":
        ability = s.content.factions[s.factions[seat]].ability
        assert ability is not None
        trigger(s, seat, -1, ability, events)
        return
    effect = s.content.effects[action.card]
    assert effect is not None
    trigger(s, seat, action.card, effect, events)


def explain_use(s: Table, seat: int, action: Action, scoring: bool) -> None:
    if action.verb == "ability":
        faction = s.content.factions[s.factions[seat]]
        if faction.ability is None:
            raise IllegalAction(
                "KD-SETUP-1",
                f"the {faction.name} have no ability in this content",
                key="ability.none",
                params={"faction": faction.name},
            )
        if s.ability_used[seat]:
            raise IllegalAction("K-SCORE-5", "one faction ability per round", key="ability.used")
        if s.action_chips[seat] <= 0:
            raise IllegalAction(
                "K-SETUP-2", "you have no action chips left", key="ability.no-chips"
            )
        raise IllegalAction(
            "K-SCORE-5",
            "this ability is used in your final-scoring turn",
            key="ability.scoring-only",
        )
    card = action.card
    code = CODES[card]
    effect = s.content.effects[card]
    if card not in s.hands[seat]:
        raise IllegalAction(
            "KD-SETUP-1", f"you hold no {code}", key="use.not-held", params={"card": code}
        )
    if effect is None:
        raise IllegalAction(
            "KD-SETUP-1",
            f"{code} has no effect in this content",
            key="use.no-effect",
            params={"card": code},
        )
    if card in s.used:
        raise IllegalAction(
            "K-SCORE-6",
            f"the effect of {code} has already resolved this round",
            key="use.resolved",
            params={"card": code},
        )
    if effect.kind == "block":
        raise IllegalAction(
            "K-SCORE-6",
            f"{code} blocks: it answers another player's effect",
            key="use.block-card",
            params={"card": code},
        )
    if effect.timing in ("draw", "discard"):
        when = "drawn" if effect.timing == "draw" else "discarded"
        raise IllegalAction(
            "K-ROUND-2",
            f"{code} resolves when it is {when}",
            key="use.timing",
            params={"card": code, "timing": effect.timing},
        )
    raise IllegalAction(
        "K-SCORE-4",
        f"{code} resolves in your final-scoring turn",
        key="use.scoring-only",
        params={"card": code},
    )


# --- announcing and resolving ---------------------------------------------------------------


def trigger(s: Table, owner: int, card: int, effect: Effect, events: list[Event]) -> None:
    """Announce an effect; open the block window for card effects, else resolve it."""
    if card >= 0:
        s.used.add(card)  # resolved effects never come back (K-SCORE-6)
        if card in s.hands[owner]:
            knowledge.announce(s, card, owner)  # announced: everybody knows where it is
    else:
        s.ability_used[owner] = True  # K-SCORE-5
        s.action_chips[owner] -= 1
    faction = FACTIONS[s.factions[owner]] if card < 0 else None
    announced: ev.Effect = {
        "seat": owner,
        "card": CODES[card] if card >= 0 else None,
        "faction": faction,
        "kind": effect.kind,
        "timing": effect.timing,
        "name": effect.name,
        "params": effect.params(),
    }
    events.append(Event("effect", announced))
    call = Call(owner, card, effect)
    if card >= 0 and s.content.has_blocks:  # K-SCORE-6: abilities are never blocked
        others = s.others_in_round(owner)
        if others:
            s.stack.append(Window(others[0], tuple(others[1:]), call))
            return
    begin(s, call, events)


def _void(s: Table, call: Call, rule: str, events: list[Event]) -> None:
    code = CODES[call.card] if call.card >= 0 else None
    void: ev.Void = {"seat": call.owner, "card": code, "kind": call.effect.kind, "rule": rule}
    events.append(Event("void", void))


def _targets(s: Table, call: Call) -> tuple[list[int], str]:
    """Who the effect may aim at, and the rule that explains an empty list."""
    owner, kind = call.owner, call.effect.kind
    others = s.others_in_round(owner)
    if any(_shielded(s, call, q) for q in others):
        unshielded = [q for q in others if not _shielded(s, call, q)]
        if not unshielded:
            return [], "KD-EFFECT-2"
        others = unshielded
    if kind == "steal":
        return [q for q in others if s.chips[q] > 0], "KD-EFFECT-1"
    if kind == "ante":
        return [q for q in others if s.chips[q] > 0], "KD-EFFECT-3"
    if kind not in _MOVES:
        return others, "K-ROUND-3"
    if s.short[owner]:
        return [], "K-SHORT-1"  # cannot receive or lose cards
    if kind in ("give", "swap") and not s.hands[owner]:
        return [], "KD-SETUP-1"
    fit = [q for q in others if not s.short[q] and (kind == "give" or s.hands[q])]
    return fit, "K-SHORT-1" if any(s.short[q] for q in others) else "KD-SETUP-1"


def begin(s: Table, call: Call, events: list[Event]) -> None:
    """Resolve an effect that got through its window."""
    e, owner = call.effect, call.owner
    kind = e.kind
    mods = s.mods[owner]
    if is_structure(kind):
        if mods.structure is not None:
            _void(s, call, "K-SCORE-4", events)  # one structure change per player
            return
        value = e.steps if kind == "category-up" else e.to
        s.mods[owner] = mods._replace(structure=(kind, call.card, value))
        code = CODES[call.card] if call.card >= 0 else None
        changed: ev.Structure = {"seat": owner, "card": code, "kind": kind}
        params = e.params()
        if "steps" in params:
            changed["steps"] = params["steps"]
        if "to" in params:
            changed["to"] = params["to"]
        events.append(Event("structure", changed))
    elif kind == "multiplier":
        if mods.multiplier > 1:
            _void(s, call, "K-SCORE-6", events)  # one multiplier per player
            return
        s.mods[owner] = mods._replace(multiplier=e.factor)
        multiplied: ev.Multiplier = {"seat": owner, "factor": e.factor}
        events.append(Event("multiplier", multiplied))
    elif kind == "counts-double":
        s.mods[owner] = mods._replace(doubled=mods.doubled | {call.card})
        doubled: ev.Double = {"seat": owner, "card": CODES[call.card]}
        events.append(Event("double", doubled))
    elif kind == "shield":
        s.mods[owner] = mods._replace(shielded=True)
        shielded: ev.Shield = {"seat": owner}
        events.append(Event("shield", shielded))
    elif kind == "hand-limit":
        s.mods[owner] = mods._replace(extra=mods.extra + e.extra)
        limit: ev.HandLimit = {"seat": owner, "limit": s.hand_limit(owner)}
        events.append(Event("hand-limit", limit))
    elif kind in _CHIPS and e.who != "one":
        seats = {"self": [owner], "others": s.others_in_round(owner)}.get(
            e.who, [owner, *s.others_in_round(owner)]
        )
        for q in seats:
            if kind in ("lose", "ante") and _shielded(s, call, q):
                continue  # KD-EFFECT-2
            _chips(s, q, kind, e.amount, events)
    elif kind == "squeeze":
        _squeeze(s, call, events)
    elif kind == "draw":
        _draw_more(s, call, events)
    else:
        targets, rule = _targets(s, call)
        if not targets:
            _void(s, call, rule, events)
        elif len(targets) == 1:
            aim(s, call, targets[0], events)
        else:
            s.stack.append(ChooseTarget(owner, call, tuple(targets)))


def _chips(s: Table, seat: int, kind: EffectKind, amount: int, events: list[Event]) -> None:
    """Gains come from the bank (as much as it holds), losses go to it; a skim takes from the
    pot (as much as it holds) and an ante pays into it (KD-EFFECT-3)."""
    bank = kind in ("gain", "lose")
    if kind in ("gain", "skim"):
        moved = min(amount, s.bank if bank else s.pot)
        s.chips[seat] += moved
        supply = -moved  # what the bank or the pot gets
    else:
        moved = min(amount, s.chips[seat])
        s.take_chips(seat, moved)
        supply = moved
    if bank:
        s.bank += supply
        chips: ev.Chips = {"seat": seat, "amount": moved, "chips": s.chips[seat]}
        events.append(Event(kind, chips))
        return
    s.pot += supply
    pot: ev.PotChips = {"seat": seat, "amount": moved, "chips": s.chips[seat], "pot": s.pot}
    events.append(Event(kind, pot))


def _squeeze(s: Table, call: Call, events: list[Event]) -> None:
    """KD-EFFECT-4: every other player in the round keeps fewer cards at their discard steps
    for the rest of the round (never fewer than three); a shield passes its holder by."""
    less = call.effect.less
    targets = [q for q in s.others_in_round(call.owner) if not _shielded(s, call, q)]
    if not targets:
        _void(s, call, "KD-EFFECT-2" if s.others_in_round(call.owner) else "K-ROUND-3", events)
        return
    for q in targets:
        mods = s.mods[q]
        s.mods[q] = mods._replace(extra=max(mods.extra - less, MIN_LIMIT - 5))
    squeezed: ev.Squeeze = {
        "seat": call.owner,
        "targets": targets,
        "less": less,
        "limits": [s.hand_limit(q) for q in targets],
    }
    events.append(Event("squeeze", squeezed))


def _draw_more(s: Table, call: Call, events: list[Event]) -> None:
    """KD-EFFECT-5: more cards from the draw pile, which trigger nothing (like dealt cards);
    a short player receives no cards (K-SHORT-1)."""
    owner = call.owner
    if s.short[owner]:
        _void(s, call, "K-SHORT-1", events)
        return
    count = 0
    for _ in range(call.effect.count):
        if draw_card(s, owner, events) < 0:
            break
        count += 1
    extra: ev.Extra = {"seat": owner, "count": count}
    events.append(Event("extra", extra))


def _move(s: Table, card: int, giver: int, receiver: int) -> None:
    s.hands[giver].remove(card)
    s.hands[receiver].append(card)
    knowledge.moved(s, card, giver, receiver)


def _secret(s: Table, kind: str, owner: int, target: int, secret: dict[str, str]) -> Event:
    """Cards moving between two hands: only those two see which, until the hands are revealed."""
    args = {"seat": owner, "target": target}
    return knowledge.told(s, kind, args, secret, frozenset({owner, target}))


def aim(s: Table, call: Call, target: int, events: list[Event]) -> None:
    owner, e = call.owner, call.effect
    aimed: ev.Target = {"seat": owner, "target": target, "kind": e.kind}
    events.append(Event("target", aimed))
    if e.kind in _CHIPS:
        _chips(s, target, e.kind, e.amount, events)
    elif e.kind == "steal":  # KD-EFFECT-1: chips change hands; none reach the bank
        got = min(e.amount, s.chips[target])
        s.take_chips(target, got)
        s.chips[owner] += got
        stolen: ev.Steal = {
            "seat": owner,
            "target": target,
            "amount": got,
            "chips": s.chips[owner],
            "left": s.chips[target],
        }
        events.append(Event("steal", stolen))
    elif e.kind == "peek":
        hand = s.hands[target]
        knowledge.learn_hand(s, owner, target)
        peeked: ev.Peek = {"seat": owner, "target": target}
        events.append(Event("peek", peeked, {"cards": codes(hand)}, frozenset({owner})))
    elif e.kind == "take":
        for _ in range(e.count):
            hand = s.hands[target]
            if not hand:
                break
            card = hand[s.rng.below(len(hand))]  # unseen: a random card
            _move(s, card, target, owner)
            events.append(_secret(s, "take", owner, target, {"card": CODES[card]}))
    else:  # give, swap: the owner picks the card
        s.stack.append(ChooseCard(owner, call, target, e.count if e.kind == "give" else 1))


# --- frames: windows, targets, cards --------------------------------------------------------


def frame_legal(s: Table, frame: Frame) -> list[Action]:
    if type(frame) is Window:
        effects = s.content.effects
        blocks = [
            Action("block", c)
            for c in sorted(s.hands[frame.player])
            if (e := effects[c]) is not None and e.kind == "block" and c not in s.used
        ]
        return [ALLOW, *blocks]
    if type(frame) is ChooseTarget:
        return [Action("target", seat=q) for q in frame.targets]
    assert type(frame) is ChooseCard
    verb: CardVerb = "give" if frame.call.effect.kind == "give" else "swap"  # the only two
    return [Action(verb, c) for c in sorted(s.hands[frame.player])]


def frame_apply(s: Table, frame: Frame, action: Action) -> list[Event]:
    events: list[Event] = []
    s.stack.pop()
    if type(frame) is Window:
        if action.verb == "allow":
            if frame.waiting:
                s.stack.append(Window(frame.waiting[0], frame.waiting[1:], frame.call))
            else:
                begin(s, frame.call, events)
            return events
        s.used.add(action.card)
        knowledge.announce(s, action.card, frame.player)
        call = frame.call
        blocked: ev.Blocked = {
            "seat": frame.player,
            "card": CODES[action.card],
            "owner": call.owner,
            "blocked": CODES[call.card],
            "kind": call.effect.kind,
        }
        events.append(Event("blocked", blocked))
        return events
    if type(frame) is ChooseTarget:
        aim(s, frame.call, action.seat, events)
        return events
    assert type(frame) is ChooseCard
    owner, target, card = frame.player, frame.target, action.card
    if action.verb == "give":
        _move(s, card, owner, target)
        events.append(_secret(s, "give", owner, target, {"card": CODES[card]}))
        if frame.left > 1 and s.hands[owner]:
            s.stack.append(frame._replace(left=frame.left - 1))
        return events
    theirs = s.hands[target]
    taken = theirs[s.rng.below(len(theirs))]
    _move(s, card, owner, target)
    _move(s, taken, target, owner)
    events.append(_secret(s, "swap", owner, target, {"given": CODES[card], "taken": CODES[taken]}))
    return events


def explain_frame(s: Table, frame: Frame, action: Action) -> None:
    verb = action.verb
    if type(frame) is Window:
        if verb not in ("allow", "block"):
            raise IllegalAction(
                "K-SCORE-6",
                "answer the announced effect: 'block <card>' or 'allow'",
                key="block.answer",
            )
        code = CODES[action.card]
        effect = s.content.effects[action.card]
        if action.card not in s.hands[frame.player]:
            raise IllegalAction(
                "K-SCORE-6", f"you hold no {code}", key="block.not-held", params={"card": code}
            )
        if effect is None or effect.kind != "block":
            raise IllegalAction(
                "K-SCORE-6",
                f"{code} has no block effect",
                key="block.no-block",
                params={"card": code},
            )
        raise IllegalAction(
            "K-SCORE-6",
            f"the block of {code} has already been used this round",
            key="block.used",
            params={"card": code},
        )
    if type(frame) is ChooseTarget:
        if verb != "target":
            raise IllegalAction(
                "KD-SETUP-1",
                "choose the player the effect aims at: 'target p<n>'",
                key="target.choose",
            )
        q = action.seat
        if q == frame.player:
            raise IllegalAction(
                "KD-SETUP-1", "the effect aims at another player", key="target.self"
            )
        if not s.in_round[q]:
            raise IllegalAction(
                "K-ROUND-3",
                f"p{q + 1} has dropped out of the round",
                key="target.dropped-out",
                params={"seat": q},
            )
        if _shielded(s, frame.call, q):
            raise IllegalAction(
                "KD-EFFECT-2",
                f"p{q + 1} is shielded from other players' card effects this round",
                key="target.shielded",
                params={"seat": q},
            )
        if frame.call.effect.kind == "steal":
            raise IllegalAction(
                "KD-EFFECT-1",
                f"p{q + 1} has no chips to take",
                key="target.no-chips",
                params={"seat": q},
            )
        if s.short[q]:
            raise IllegalAction(
                "K-SHORT-1",
                f"p{q + 1} is short: cannot receive or lose cards",
                key="target.short",
                params={"seat": q},
            )
        raise IllegalAction(
            "KD-SETUP-1",
            f"p{q + 1} holds no card to take",
            key="target.no-cards",
            params={"seat": q},
        )
    assert type(frame) is ChooseCard
    kind = frame.call.effect.kind
    if verb != kind:
        raise IllegalAction(
            "KD-SETUP-1",
            f"choose the card to {kind}: '{kind} <card>'",
            key="choose.card",
            params={"verb": kind},  # 'give' or 'swap': the notation verb, typed in any language
        )
    raise IllegalAction(
        "KD-SETUP-1",
        f"you hold no {CODES[action.card]}",
        key="choose.not-held",
        params={"card": CODES[action.card]},
    )
