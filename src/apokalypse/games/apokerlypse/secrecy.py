"""The one secrecy boundary: what a player may see, and worlds consistent with it.

Public: chips, pot, bank, factions and action chips, who is in the round or short, hand sizes,
the draw pile's size, every discard pile (face up), announced effects and what they changed, and,
from the final scoring on, the hands of the players still in the round. Private: a player's own
hand, the cards they drew, and what effects showed them (a peek, a card taken or given). Events
carry the same split through ``Event.view``; a bot never receives a State.
"""

from __future__ import annotations

from typing import Literal

from apokalypse.engine.protocol import check_seat
from apokalypse.engine.rng import Rng

from . import knowledge
from .cards import CODES, FACTIONS, RANKS, SUITS, codes
from .observation import CategoryUpView, ModsView, Observation, SetFaceView
from .pending import STEP_NAMES, ChooseCard, ChooseTarget, Decision, GameOver, StepName, Window
from .table import Table
from .tally import Mods

_TRIES = 8

_DECISIONS: dict[type, Decision] = {
    Window: "block-window",
    ChooseTarget: "choose-target",
    ChooseCard: "choose-card",
}
_FLOW_DECISIONS: tuple[Decision, ...] = (
    "",
    "discard",
    "stake",
    "discard",
    "participate",
    "scoring",
)


def _mods(m: Mods, limit: int) -> ModsView:
    structure: CategoryUpView | SetFaceView | None = None
    if m.structure is not None:
        kind, card, value = m.structure
        code = CODES[card] if card >= 0 else None
        if kind == "category-up":
            structure = {"kind": kind, "card": code, "to": value}
        else:
            shown = (SUITS if kind == "set-suit" else RANKS)[value]
            structure = {"kind": kind, "card": code, "to": shown}
    return {
        "structure": structure,
        "multiplier": m.multiplier,
        "doubled": codes(sorted(m.doubled)),
        "hand_limit": limit,
        "shielded": m.shielded,
    }


def observation(s: Table, player: int | None) -> Observation:
    """What ``player`` knows now (None: a spectator, public information only)."""
    if player is not None:
        check_seat(player, s.n)
    flow = s.flow
    over = isinstance(flow, GameOver)
    step: StepName | Literal["over"]
    decision: Decision
    if isinstance(flow, GameOver):
        step = decision = "over"
    else:
        step = STEP_NAMES[flow.step]
        decision = _DECISIONS.get(type(s.pending), _FLOW_DECISIONS[flow.step])
    call = s.stack[-1].call if s.stack else None
    top = s.pending
    # In a block window only the asked player learns that they are asked, as in Apokalypse's
    # defence windows: whose turn it is (or how many allowed so far) would tell, by the time
    # a person takes, who holds a block card.
    hidden_turn = type(top) is Window and top.player != player
    move = s.moves
    if type(top) is Window and hidden_turn:
        move -= len(s.others_in_round(top.call.owner)) - 1 - len(top.waiting)
    exact, maybe = knowledge.record(s, player)
    known: dict[str, list[str]] = {}  # cards known to be in another hand
    for card, holder in sorted(exact.items()):
        known.setdefault(f"p{holder + 1}", []).append(CODES[card])
    obs: Observation = {
        "game": "apokerlypse",
        "seat": player,
        "players": s.n,
        "move": move,
        "content": s.content.name,
        # The effects are public rules: "plain", "example" or a designer's file text, as in the
        # config (the same string object, so a large file costs nothing per observation).
        "content_spec": s.config.content,
        "table": s.config.table,
        "bonus_cap": s.config.bonus_cap,
        "round": s.round,
        "cost": s.cost,
        "dealer": s.dealer,
        "last_round": s.last_round,
        "ends_after_round": s.zero or s.last_round,  # K-END-1: public, everyone saw the chips
        "step": step,
        "to_act": None if over or hidden_turn else s.to_act,
        "decision": decision,
        "chips": list(s.chips),
        "pot": s.pot,
        "bank": s.bank,
        "factions": [FACTIONS[f] for f in s.factions],
        "action_chips": list(s.action_chips),
        "ability_used": list(s.ability_used),
        "in_round": list(s.in_round),
        "short": list(s.short),
        "hand_sizes": [len(h) for h in s.hands],
        "draw_pile": len(s.pile),
        "discards": [codes(pile) for pile in s.discards],
        "used": codes(sorted(s.used)),
        "modifiers": [_mods(m, s.hand_limit(q)) for q, m in enumerate(s.mods)],
        "revealed": [
            codes(s.hands[q]) if s.revealed and s.in_round[q] else None for q in range(s.n)
        ],
        "order": list(s.order),
        "scores": [line.view() if line else None for line in s.scores],
        "effect": None
        if call is None
        else {
            "seat": call.owner,
            "card": CODES[call.card] if call.card >= 0 else None,
            "kind": call.effect.kind,
        },
        "known": known,
        "maybe": {CODES[c]: sorted(seats) for c, seats in sorted(maybe.items())},
    }
    if player is not None:
        obs["hand"] = codes(s.hands[player])
        top = s.pending
        if type(top) is ChooseTarget and top.player == player:
            obs["choice"] = {"targets": list(top.targets)}
        elif type(top) is ChooseCard and top.player == player:
            obs["choice"] = {"target": top.target, "left": top.left}
    if over and s.result_ is not None:
        result = s.result_.view()
        result["broke"] = list(s.broke)  # public: the game-over event names them too
        obs["result"] = result
    return obs


def redeal(d: Table, s: Table, player: int, rng: Rng) -> None:
    """Make ``d`` (a copy of ``s``) a full state consistent with everything ``player`` can see,
    with a fresh random stream (``State.determinize``).

    The cards of other hands that ``player`` cannot place, and the draw pile, are redealt among
    those same places (hand sizes stay). Cards placed exactly stay; a card known to be in one of
    some hands (it may have moved unseen) goes to one of those hands."""
    check_seat(player, s.n)
    exact, maybe = knowledge.record(s, player)
    slots: list[tuple[int, int]] = []  # (seat or -1 for the pile, index)
    for q, hand in enumerate(d.hands):
        if q != player:
            slots += [(q, i) for i, card in enumerate(hand) if exact.get(card) != q]
    slots += [(-1, i) for i in range(len(d.pile))]
    rows = {q: d.hands[q] for q in range(s.n)}
    rows[-1] = d.pile
    cards = [rows[q][i] for q, i in slots]
    placed = _place_constrained(cards, slots, maybe, rng)
    free_slots = [slot for slot in slots if slot not in placed.values()]
    # Shuffled from an order the true deal does not set: two deals the player cannot tell apart
    # give the same worlds for the same random stream.
    free_cards = sorted(c for c in cards if c not in placed)
    rng.shuffle(free_cards)
    for (q, i), card in zip(free_slots, free_cards, strict=True):
        rows[q][i] = card
    for card, (q, i) in placed.items():
        rows[q][i] = card
    # Other players' private knowledge is unknown to ``player``: keep only what they share.
    mine = s.known[player]
    public_known, public_maybe = s.known[s.n], s.maybe[s.n]
    d.known = []
    d.maybe = []
    for q in range(s.n + 1):
        if q in (player, s.n):
            d.known.append(s.known[q].copy())
            d.maybe.append(s.maybe[q].copy())
            continue
        shared = {c: h for c, h in s.known[q].items() if mine.get(c) == h}
        d.known.append({**public_known, **shared})
        d.maybe.append({c: v for c, v in public_maybe.items() if c not in shared})
    d.rng = Rng(rng.next64())


def _place_constrained(
    cards: list[int],
    slots: list[tuple[int, int]],
    maybe: dict[int, frozenset[int]],
    rng: Rng,
) -> dict[int, tuple[int, int]]:
    """Random hand slots for the cards known to be in one of some hands. A random greedy
    choice nearly always fits; after a few failures the cards keep their true places (the
    true deal always fits), which tells a search no more than that it fits."""
    constrained = [c for c in cards if c in maybe]
    if not constrained:
        return {}
    for _ in range(_TRIES):
        order = sorted(constrained)  # not the true deal's order (see determinize)
        rng.shuffle(order)
        free = [slot for slot in slots if slot[0] >= 0]
        placed: dict[int, tuple[int, int]] = {}
        for card in order:
            options = [slot for slot in free if slot[0] in maybe[card]]
            if not options:
                break
            slot = rng.choice(options)
            free.remove(slot)
            placed[card] = slot
        else:
            return placed
    return {card: slots[cards.index(card)] for card in constrained}
