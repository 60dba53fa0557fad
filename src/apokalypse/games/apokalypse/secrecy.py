"""The one secrecy boundary (R-INFO): what a player may see, and worlds consistent with it.

Everything that leaves the engine for a player (the terminal, the server, bots, replays, logs)
goes through :func:`observation`; events go through ``Event.view``. A bot never receives a State:
a search samples one with :func:`determinize`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apokalypse.engine.protocol import check_seat
from apokalypse.engine.rng import Rng

from . import knowledge
from .cards import EARTH, EVIL, GOOD, HEAVEN, HORSEMAN, NETHER
from .dealing import above_next
from .ending import result as final_result
from .observation import SIDES, AttackView, DisplayView, Observation, SideView
from .pending import DECISION, ChooseDestination, ChooseRecipient, ChooseTarget, Defence, GameOver

if TYPE_CHECKING:
    from .state import State


def _populace(s: State, card: int) -> str:
    kind = s.table.kind[card]
    return kind.code if kind.back == "K" else "populace"  # B populaces lie back up


def _side(s: State, rows: list[list[int]], side: int) -> SideView:
    row = side * 3
    return {
        "heaven": [s.code(c) for c in rows[row + HEAVEN]],
        "earth": [_populace(s, c) for c in rows[row + EARTH]],
        "nether": [s.code(c) for c in rows[row + NETHER]],
    }


def _display(s: State, seat: int) -> DisplayView:
    rows = s.rows[seat]
    return {"good": _side(s, rows, GOOD), "evil": _side(s, rows, EVIL)}


def _attack(s: State) -> AttackView | None:
    """The attack on the table (public: it was declared openly, R-ATTACK-1)."""
    p = s.pending
    if isinstance(p, Defence):
        attacker, card, seat, side = p.attacker, p.card, p.seat, p.side
    elif isinstance(p, ChooseDestination):
        attacker, card, seat, side = p.player, s.table_cards[-1], p.seat, p.side
    else:
        return None
    return {"attacker": attacker, "card": s.code(card), "seat": seat, "side": SIDES[side]}


def _fronts(s: State, player: int) -> dict[str, str]:
    """The fronts of the face-down populaces ``player`` laid, by place: ``{"p2.good.1": "m/hp"}``
    (a player remembers what they played, wherever it has moved since)."""
    laid = s.laid_by
    out: dict[str, str] = {}
    if not laid:
        return out
    for q, rows in enumerate(s.rows):
        for side in (GOOD, EVIL):
            for pos, card in enumerate(rows[side * 3 + EARTH]):
                if laid.get(card) == player:
                    out[f"p{q + 1}.{SIDES[side]}.{pos}"] = s.code(card)
    return out


def _discarded(s: State, card: int) -> str:
    """D-INFO-1: a dead populace goes to the discard pile as it lay, face down."""
    return "populace" if card in s.face_down else s.code(card)


def _public_move(s: State) -> int:
    """The move counter as a player not being asked sees it in a defence window: where the
    window opened. Counting the declines would tell whose turn it is to answer."""
    p = s.pending
    assert isinstance(p, Defence)
    declined = (s.n - 2) - len(p.waiting)  # every other player is asked (R-ATTACK-4)
    return s.moves - declined


def observation(s: State, player: int | None) -> Observation:
    """What ``player`` knows now (None: a spectator, public information only, R-INFO-1)."""
    if player is not None:
        check_seat(player, s.n)
    kinds = s.table.kind
    pending = s.pending
    over = type(pending) is GameOver
    # In a defence window only the asked player learns that they are asked: otherwise the
    # window would tell who holds a defence card.
    hidden_turn = type(pending) is Defence and pending.player != player
    obs: Observation = {
        "game": "apokalypse",
        "seat": player,
        "players": s.n,
        "move": _public_move(s) if hidden_turn else s.moves,
        "round": s.round,
        "horseman": min(s.horseman, 4),
        "to_act": None if over or hidden_turn else pending.player,
        "decision": DECISION[type(pending)] if not hidden_turn else "defence",
        "startup": s.startup,
        "passed": list(s.passed),
        "decks": [
            {"back": "B", "size": len(s.decks[0]), "above_horseman": above_next(s, 0)},
            {"back": "K", "size": len(s.decks[1]), "above_horseman": above_next(s, 1)},
        ],
        "discards": [[_discarded(s, c) for c in pile] for pile in s.discards],
        "seal_supply": len(s.seal_supply),
        "hand_counts": [
            [sum(1 for c in hand if kinds[c].back == b) for b in ("B", "K")] for hand in s.hands
        ],
        "displays": [_display(s, q) for q in range(s.n)],
        "scores": [list(row) for row in s.scores],
        "horseman_cards": [sorted(kinds[c].horseman for c in cards) for cards in s.rewards],
        "attack": _attack(s),
    }
    if player is not None:
        obs["hand"] = sorted(s.code(c) for c in s.hands[player])
        obs["ethos"] = SIDES[s.ethos[player]]
        obs["known"] = knowledge.holdings(s.knowledge[player])
        obs["fronts"] = _fronts(s, player)
        if pending.player == player:
            if type(pending) is ChooseTarget:
                obs["choice"] = {"player": player, "code": pending.code, "use": pending.use}
            elif type(pending) is ChooseRecipient:
                obs["choice"] = {"player": player, "code": pending.code}
    if over:  # R-END-3: ethos revealed
        obs["ethos_all"] = [SIDES[e] for e in s.ethos]
        obs["result"] = final_result(s).view()
    return obs


def ethos_pool(players: int, balanced: bool) -> list[int]:
    """The ethos cards dealt from (R-SETUP-3, V-ETHOS-BALANCED)."""
    per_side = 3
    if balanced and players == 2:
        per_side = 1
    elif balanced and players <= 4:
        per_side = 2
    return [GOOD] * per_side + [EVIL] * per_side


def determinize(s: State, player: int, rng: Rng) -> State:
    """A full state consistent with everything ``player`` can see, with a fresh random stream.

    Unseen cards (other hands, deck order, the face-down fronts of populaces on the table and in
    the discard pile) are redealt among the unseen places of the same back, horsemen keep their
    (public) places, the copies the player knows to be in a hand stay there, and other players'
    ethos is drawn from the cards left."""
    check_seat(player, s.n)
    d = s.clone()
    kinds = d.table.kind
    known = s.knowledge[player]
    pending = s.pending
    keep: dict[tuple[int, str], int] = dict(known)
    if isinstance(pending, ChooseTarget | ChooseRecipient) and pending.player != player:
        key = (pending.player, pending.code)  # that card is chosen; keep one of its kind
        keep[key] = max(keep.get(key, 0), 1)
    slots: list[tuple[list[int], int]] = []
    for q, hand in enumerate(d.hands):
        if q == player:
            continue
        for i, card in enumerate(hand):
            key = (q, kinds[card].code)
            if keep.get(key, 0) > 0:  # a copy the player can place stays where it is
                keep[key] -= 1
                continue
            slots.append((hand, i))
    for pile in d.decks:
        slots += [(pile, i) for i, c in enumerate(pile) if kinds[c].role != HORSEMAN]
    laid = s.laid_by
    for rows in d.rows:  # face-down fronts, but those the player laid: they remember them
        for side in (GOOD, EVIL):
            earth = rows[side * 3 + EARTH]
            slots += [
                (earth, i)
                for i, c in enumerate(earth)
                if kinds[c].back == "B" and laid.get(c) != player
            ]
    b_discards = d.discards[0]
    hidden = [
        (b_discards, i)
        for i, c in enumerate(b_discards)
        if c in s.face_down and laid.get(c) != player
    ]
    slots += hidden
    for back in ("B", "K"):
        mine = [(row, i) for row, i in slots if kinds[row[i]].back == back]
        # Shuffled from an order the true deal does not set: two deals the player cannot tell
        # apart give the same worlds for the same random stream (R-INFO-3).
        cards = sorted(row[i] for row, i in mine)
        rng.shuffle(cards)
        for (row, i), card in zip(mine, cards, strict=True):
            row[i] = card
    d.face_down = {row[i] for row, i in hidden} | {c for c in s.face_down if laid.get(c) == player}
    d.laid_by = {c: q for c, q in s.laid_by.items() if q == player}
    pool = ethos_pool(s.n, s.config.has("V-ETHOS-BALANCED"))
    pool.remove(s.ethos[player])
    rng.shuffle(pool)
    ethos = list(s.ethos)
    for q in range(s.n):
        if q != player:
            ethos[q] = pool.pop()
    d.ethos = tuple(ethos)
    # Other players' knowledge is theirs: the sampled world keeps only the player's own.
    d.knowledge = [known.copy() if q == player else {} for q in range(s.n)]
    d.rng = Rng(rng.next64())
    return d
