"""Building exact positions for rule tests, without breaking card conservation.

Cards are moved between zones, never created: ``hand(s, 0, "violence")`` takes a Violence card from
wherever it lies outside the displays and hands (deck or discard pile) and puts it in seat 0's hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from apokalypse.engine.events import Event
from apokalypse.games.apokalypse import GAME, Config, State, parse_action
from apokalypse.games.apokalypse.cards import EARTH, HORSEMAN, PLANE_NAMES
from apokalypse.games.apokalypse.config import variant_id
from apokalypse.games.apokalypse.pending import Turn
from tests.helpers import refused as refused  # the rule tests import it from here too

SIDES: dict[str, int] = {"good": 0, "evil": 1}
PLANES: dict[str, int] = {name: i for i, name in enumerate(PLANE_NAMES)}


def new(players: int = 4, seed: int = 0, variants: Iterable[str] = ()) -> State:
    chosen = frozenset(variant_id(v) for v in variants)  # by id or short name
    return GAME.new_game(Config(players=players, variants=chosen), seed)


def blank(players: int = 4, seed: int = 0, variants: Iterable[str] = (), to_act: int = 0) -> State:
    """A new game with every hand emptied into the discard piles and ``to_act`` on turn."""
    s = new(players, seed, variants)
    for seat in range(players):
        for card in s.hands[seat]:
            s.discard(card)
        s.hands[seat].clear()
    s.startup = to_act
    s.pending = Turn(to_act)
    return s


def _take(s: State, code: str) -> int:
    """Remove one card of ``code`` from the discard piles or (non-horseman) deck places."""
    for pile in (*s.discards, *s.own_decks(), s.seal_supply):
        for i, card in enumerate(pile):
            kind = s.table.kind[card]
            if kind.code == code and kind.role != HORSEMAN:
                del pile[i]
                return card
    raise LookupError(f"no free {code!r} card left")


def hand(s: State, seat: int, *codes: str) -> None:
    s.legal_cache = None  # the position changed behind the engine's back
    for code in codes:
        s.hands[seat].append(_take(s, code))


def put(s: State, seat: int, side: str, plane: str, *codes: str) -> None:
    """Append cards to a display row; ``plane`` earth takes a B card code (face down) or a
    saint/fiend. Use ``"pop"`` as the code for any B populace."""
    s.legal_cache = None  # the position changed behind the engine's back
    row = s.own_display(seat)[SIDES[side] * 3 + PLANES[plane]]
    for code in codes:
        row.append(_take(s, "m/hp" if code == "pop" else code))


def populaces(s: State, seat: int, good: int = 0, evil: int = 0) -> None:
    put(s, seat, "good", "earth", *["pop"] * good)
    put(s, seat, "evil", "earth", *["pop"] * evil)


def row(s: State, seat: int, side: str, plane: str) -> list[str]:
    """The codes in a display row, B populaces as 'pop'."""
    cards = s.displays[seat][SIDES[side] * 3 + PLANES[plane]]
    if PLANES[plane] == EARTH:
        return [s.code(c) if s.table.kind[c].back == "K" else "pop" for c in cards]
    return [s.code(c) for c in cards]


def act(s: State, *texts: str) -> list[Event]:
    events: list[Event] = []
    for text in texts:
        events += s.apply(parse_action(text))
    return events


def codes(s: State, seat: int) -> list[str]:
    return sorted(s.code(c) for c in s.hands[seat])


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def all_cards(s: State) -> list[int]:
    """Every physical card's place, for conservation checks."""
    out: list[int] = []
    for h in s.hands:
        out += h
    for d in s.displays:
        for r in d:
            out += r
    for p in (*s.decks, *s.discards, s.seal_supply, s.horse_supply, s.table_cards):
        out += p
    for r in s.rewards:
        out += r
    return out


def stack(s: State, deck: str, *codes: str) -> None:
    """Put cards on top of the ``"B"`` or ``"K"`` draw deck, ``codes[0]`` drawn first.

    ``"horseman<N>"`` moves that deck's own horseman N from wherever it lies in the deck."""
    pile = s.own_decks()[0 if deck == "B" else 1]
    kinds_ = s.table.kind
    cards: list[int] = []
    for code in codes:
        if code.startswith("horseman"):
            number = int(code[len("horseman") :])
            card = next(
                c for c in pile if kinds_[c].role == HORSEMAN and kinds_[c].horseman == number
            )
            pile.remove(card)
        else:
            card = _take(s, code)
        cards.append(card)
    pile.extend(reversed(cards))


def reward(s: State, seat: int, *numbers: int) -> None:
    """Give ``seat`` horseman reward cards (R-REWARD-1) from the horseman supply."""
    for number in numbers:
        card = next(c for c in s.horse_supply if s.table.kind[c].horseman == number)
        s.horse_supply.remove(card)
        s.own_rewards()[seat].append(card)


def deal_order(events: list[Event], back: str) -> list[int]:
    """The seats dealt a ``back`` card, one entry per card, in dealing order (R-DEAL-2)."""
    return [e.args["target"] for e in events if e.kind == "deal" and e.args["back"] == back]


def decline_all(s: State) -> list[Event]:
    """Let a defence window pass: every asked player declines (R-ATTACK-4)."""
    from apokalypse.games.apokalypse.pending import Defence

    events: list[Event] = []
    while isinstance(s.pending, Defence):
        events += act(s, "decline")
    return events


def on_turn(s: State, seat: int) -> bool:
    """It is ``seat``'s turn (not a step of a play, not a defence window)."""
    from apokalypse.games.apokalypse.pending import Turn

    return type(s.pending) is Turn and s.pending.player == seat


def legal_texts(s: State) -> set[str]:
    return {str(a) for a in s.legal_actions()}
