"""The one secrecy boundary (R-INFO): what a player may see, and worlds consistent with it.

Everything that leaves the engine for a player (the terminal, the server, bots, replays, logs)
goes through :func:`observation`; events go through ``Event.view``. A bot never receives a State:
a search samples one with ``State.determinize``, which :func:`redeal` makes.
"""

from __future__ import annotations

from apokalypse.engine.protocol import check_seat
from apokalypse.engine.rng import Rng

from .board import Board
from .cards import EARTH, EVIL, GOOD, HEAVEN, NETHER
from .config import Variant
from .dealing import above_next
from .ending import result as final_result
from .knowledge import Trace, Traces, holdings
from .observation import SIDES, AttackView, DisplayView, Observation, SideView
from .pending import DECISION, ChooseDestination, ChooseRecipient, ChooseTarget, Defence, GameOver


def _populace(s: Board, card: int) -> str:
    kind = s.table.kind[card]
    return kind.code if kind.back == "K" else "populace"  # B populaces lie back up


def _side(s: Board, rows: list[list[int]], side: int) -> SideView:
    row = side * 3
    return {
        "heaven": [s.code(c) for c in rows[row + HEAVEN]],
        "earth": [_populace(s, c) for c in rows[row + EARTH]],
        "nether": [s.code(c) for c in rows[row + NETHER]],
    }


def _display(s: Board, seat: int) -> DisplayView:
    rows = s.displays[seat]
    return {"good": _side(s, rows, GOOD), "evil": _side(s, rows, EVIL)}


def _attack(s: Board) -> AttackView | None:
    """The attack on the table (public: it was declared openly, R-ATTACK-1)."""
    p = s.pending
    if isinstance(p, Defence):
        attacker, card, seat, side = p.attacker, p.card, p.seat, p.side
    elif isinstance(p, ChooseDestination):
        attacker, card, seat, side = p.player, s.table_cards[-1], p.seat, p.side
    else:
        return None
    return {"attacker": attacker, "card": s.code(card), "seat": seat, "side": SIDES[side]}


def _fronts(s: Board, player: int) -> dict[str, str]:
    """The fronts of the face-down populaces ``player`` laid, by place: ``{"p2.good.1": "m/hp"}``
    (a player remembers what they played, wherever it has moved since)."""
    laid = s.laid_by
    out: dict[str, str] = {}
    if not laid:
        return out
    for q, rows in enumerate(s.displays):
        for side in (GOOD, EVIL):
            for pos, card in enumerate(rows[side * 3 + EARTH]):
                if laid.get(card) == player:
                    out[f"p{q + 1}.{SIDES[side]}.{pos}"] = s.code(card)
    return out


def _discarded(s: Board, card: int) -> str:
    """D-INFO-1: a dead populace goes to the discard pile as it lay, face down."""
    return "populace" if card in s.face_down else s.code(card)


def _public_move(s: Board) -> int:
    """The move counter as a player not being asked sees it in a defence window: where the
    window opened. Counting the declines would tell whose turn it is to answer."""
    p = s.pending
    assert isinstance(p, Defence)
    declined = (s.n - 2) - len(p.waiting)  # every other player is asked (R-ATTACK-4)
    return s.move - declined


def observation(s: Board, player: int | None) -> Observation:
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
        "move": _public_move(s) if hidden_turn else s.move,
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
        obs["known"] = holdings(s.knowledge[player])
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


def redeal(d: Board, s: Board, player: int, rng: Rng) -> None:
    """Make ``d``, a fresh clone of ``s``, a full state consistent with everything ``player``
    can see, with a fresh random stream (``State.determinize``).

    Unseen cards (other hands, deck order, the face-down fronts of populaces on the table and in
    the discard pile) are redealt among the unseen places of the same back, horsemen keep their
    (public) places, the copies the player knows to be in a hand stay there (R-INFO-2, their
    :mod:`.knowledge`), so do the fronts of the populaces the player laid (``laid_by``, D-INFO-1),
    every copy the player placed in a hand stays in that hand or among the populaces it laid
    face down since (``knowledge.Trace``), and other players' ethos is drawn from the cards left.

    The unseen cards of each back are pooled, put in random order and dealt back into the
    unseen places in a fixed order: other hands (seat by seat, the kept copies first), the
    decks between their horsemen, the face-down populaces of the displays, the face-down dead
    in the B discard pile."""
    table = s.table
    kinds = table.kind
    known = s.knowledge[player]
    laid = s.laid_by
    pending = s.pending
    keep: dict[tuple[int, str], int] = dict(known)
    if isinstance(pending, ChooseTarget | ChooseRecipient) and pending.player != player:
        key = (pending.player, pending.code)  # that card is chosen; keep one of its kind
        keep[key] = max(keep.get(key, 0), 1)
    backs = table.back
    b_pool: list[int] = []  # the unseen B cards
    k_pool: list[int] = []  # the unseen K cards
    hands: list[tuple[list[int], list[int], int, int]] = []  # hand, kept, how many B and K
    traces = s.seat_traces[player]  # what the player saw that the lower bounds forgot
    origin: dict[int, tuple[int, int, int]] = {}  # a traced face-down card → (seat, row, pos)
    kept_in = {q for q, _ in keep}
    for q, hand in enumerate(d.hands):
        if q == player:
            continue
        kept: list[int] = []
        unseen = hand
        if q in kept_in:
            unseen = []
            for card in hand:
                key = (q, kinds[card].code)
                if keep.get(key, 0) > 0:  # a copy the player can place stays where it is
                    keep[key] -= 1
                    kept.append(card)
                else:
                    unseen.append(card)
        b_cards = [c for c in unseen if backs[c] == "B"]
        b_pool += b_cards
        k_pool += [c for c in unseen if backs[c] != "B"]
        hands.append((hand, kept, len(b_cards), len(unseen) - len(b_cards)))
    marks: list[list[int]] = []  # per deck: where its horsemen lie (public, R-INFO-1)
    decks = d.own_decks()
    for pile, pool, horsemen in (
        (decks[0], b_pool, table.horsemen[0]),
        (decks[1], k_pool, table.horsemen[1]),
    ):
        at = sorted([pile.index(h) for h in horsemen if h in pile])  # a deck's own horsemen
        marks.append(at)
        start = 0
        for i in at:
            pool += pile[start:i]
            start = i + 1
        pool += pile[start:]
    # face-down fronts, but those the player laid: they remember them
    fronts: list[tuple[int, int, int]] = []  # (seat, row, position)
    for q, rows in enumerate(d.displays):
        for row in (GOOD * 3 + EARTH, EVIL * 3 + EARTH):
            for i, c in enumerate(rows[row]):
                if backs[c] == "B" and (not laid or laid.get(c) != player):
                    if traces:
                        origin[c] = (q, row, i)
                    fronts.append((q, row, i))
                    b_pool.append(c)
    b_discards = d.discards[0]
    hidden: list[int] = []  # positions in the B discard pile (D-INFO-1)
    if s.face_down:
        for i, c in enumerate(b_discards):
            if c in s.face_down and laid.get(c) != player:
                if traces:
                    origin[c] = (-1, 0, i)  # seat -1: the B discard pile
                hidden.append(i)
                b_pool.append(c)
    # A random order that the true deal does not set: sorted by a random key per card, two deals
    # the player cannot tell apart (the same unseen cards, elsewhere) give the same world for
    # the same random stream (R-INFO-3).
    keys = rng.sort_keys(len(kinds))
    b_pool.sort(key=keys.__getitem__)
    k_pool.sort(key=keys.__getitem__)
    b_next = k_next = 0
    for hand, kept, b_count, k_count in hands:
        hand[:] = kept
        hand += b_pool[b_next : b_next + b_count]
        hand += k_pool[k_next : k_next + k_count]
        b_next += b_count
        k_next += k_count
    for deck, pile in enumerate(decks):
        pool, taken = (b_pool, b_next) if deck == 0 else (k_pool, k_next)
        fresh: list[int] = []
        start = 0
        for i in marks[deck]:
            fresh += pool[taken : taken + i - start]
            taken += i - start
            fresh.append(pile[i])
            start = i + 1
        fresh += pool[taken : taken + len(pile) - start]
        taken += len(pile) - start
        pile[:] = fresh
        if deck == 0:
            b_next = taken
        else:
            k_next = taken
    display: list[list[int]] = []
    seat = -1
    for q, row, i in fronts:
        if q != seat:
            display, seat = d.own_display(q), q
        display[row][i] = b_pool[b_next]
        b_next += 1
    for i in hidden:
        b_discards[i] = b_pool[b_next]
        b_next += 1
    if traces:
        _keep_traces(d, player, traces, hands, origin, fronts, hidden, rng)
    face_down = {c for c in s.face_down if laid.get(c) == player}
    face_down.update(b_discards[i] for i in hidden)
    d.face_down = face_down
    d.laid_by = {c: q for c, q in laid.items() if q == player}
    pool = ethos_pool(s.n, s.config.has(Variant.ETHOS_BALANCED))
    pool.remove(s.ethos[player])
    rng.shuffle(pool)
    ethos = list(s.ethos)
    for q in range(s.n):
        if q != player:
            ethos[q] = pool.pop()
    d.ethos = tuple(ethos)
    # Other players' knowledge is theirs: the sampled world keeps only the player's own.
    d.set_knowledge(
        [known.copy() if q == player else {} for q in range(s.n)],
        [traces if q == player else () for q in range(s.n)],
    )
    d.rng = Rng(rng.next64())


Slot = tuple[list[int], int]  # a place in a world: a list (hand, row, pile) and an index


def _keep_traces(
    d: Board,
    player: int,
    traces: Traces,
    hands: list[tuple[list[int], list[int], int, int]],
    origin: dict[int, tuple[int, int, int]],
    fronts: list[tuple[int, int, int]],
    hidden: list[int],
    rng: Rng,
) -> None:
    """Perfect recall beyond the lower bounds (R-INFO-2, D-INFO-1, :class:`.knowledge.Trace`):
    for each trace, at least ``copies`` of its code lie in the holder's hand or in the
    places of the cards it laid face down since. The world was dealt at random; where it falls
    short, a copy from another unseen B place swaps with a card of that zone, both chosen at
    random among places whose layout the player sees."""
    seats = [q for q in range(d.n) if q != player]
    b_slots: dict[int, list[Slot]] = {}  # per other seat: the hand's redealt B places
    for q, (hand, kept, b_count, _k_count) in zip(seats, hands, strict=True):
        b_slots[q] = [(hand, i) for i in range(len(kept), len(kept) + b_count)]
    places: list[Slot] = [slot for q in seats for slot in b_slots[q]]
    pile = d.decks[0]
    places += [(pile, i) for i, c in enumerate(pile) if d.table.back[c] == "B"]
    places += [(d.displays[q][row], i) for q, row, i in fronts]
    places += [(d.discards[0], i) for i in hidden]

    zones: list[list[Slot]] = []
    for trace in traces:
        zones.append(
            b_slots[trace.holder] + [_slot(d, origin[c]) for c in trace.laid if c in origin]
        )
    # The narrowest zones first, so that a wider one takes what they leave; a swap for one trace
    # may still undo another: go round again.
    order = sorted(range(len(traces)), key=[len(zone) for zone in zones].__getitem__)
    for _ in range(2 * len(traces) + 2):
        short = False
        for k in order:
            short |= _fill(d, traces[k], zones[k], traces, zones, places, rng)
        if not short:
            return


def _slot(d: Board, where: tuple[int, int, int]) -> Slot:
    """A place of ``origin`` in the world: (seat, row, position), seat -1 the B discard pile."""
    q, row, i = where
    return (d.discards[0], i) if q < 0 else (d.displays[q][row], i)


def _fill(
    d: Board,
    trace: Trace,
    zone: list[Slot],
    traces: Traces,
    zones: list[list[Slot]],
    places: list[Slot],
    rng: Rng,
) -> bool:
    """Swap copies of the trace's code into its zone where the world falls short; whether it
    did (another trace may need checking again)."""
    codes = d.table.codes
    hand = d.hands[trace.holder]
    have = sum(1 for c in hand if codes[c] == trace.code)
    have += sum(1 for row, i in zone if row is not hand and codes[row[i]] == trace.code)
    if have >= trace.copies:
        return False
    kept = {  # every zone that needs this code keeps its copies
        (id(row), i)
        for other, z in zip(traces, zones, strict=True)
        if other.code == trace.code
        for row, i in z
    }
    sources = [
        (row, i) for row, i in places if codes[row[i]] == trace.code and (id(row), i) not in kept
    ]
    targets = [(row, i) for row, i in zone if codes[row[i]] != trace.code]
    # rather a card that no trace needs where it lies: taking one would only move the problem
    needed = {
        (id(row), i)
        for other, z in zip(traces, zones, strict=True)
        for row, i in z
        if codes[row[i]] == other.code
    }
    spare = [(row, i) for row, i in targets if (id(row), i) not in needed]
    targets = spare or targets
    for _ in range(min(trace.copies - have, len(sources), len(targets))):
        src_row, src_i = sources.pop(rng.below(len(sources)))
        dst_row, dst_i = targets.pop(rng.below(len(targets)))
        src_row[src_i], dst_row[dst_i] = dst_row[dst_i], src_row[src_i]
    return True
