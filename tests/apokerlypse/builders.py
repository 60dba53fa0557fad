"""Exact positions for Apokerlypse rule tests, without breaking card or chip conservation.

``deal_round`` restarts the current round from chosen hands, a chosen order of the draw pile and
chosen chip stacks, then lets the engine run to the first decision, returning what happened.
Cards are moved between zones, never created.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping, Sequence

from apokalypse.engine.events import Event
from apokalypse.games.apokerlypse import GAME, Config, State, parse_action
from apokalypse.games.apokerlypse.cards import DECK_SIZE, FACTIONS, parse_card
from apokalypse.games.apokerlypse.config import TableName
from apokalypse.games.apokerlypse.flow import advance, reset_round
from apokalypse.games.apokerlypse.pending import DRAW_1, Flow
from apokalypse.games.apokerlypse.state import TOTAL_CHIPS


def new(
    players: int = 2,
    seed: int = 0,
    content: str = "plain",
    table: TableName = "full",
    bonus_cap: bool = False,
    factions: Sequence[str] = (),
) -> State:
    """A new game; ``factions`` (names, one per seat) replaces the factions the seed dealt."""
    s = GAME.new_game(Config(players, table, bonus_cap, content), seed)
    if factions:
        s.factions = tuple(FACTIONS.index(f) for f in factions)
    return s


def cards(*texts: str) -> list[int]:
    return [parse_card(t) for t in texts]


def deal_round(
    s: State,
    hands: Mapping[int, Sequence[str]],
    draws: Sequence[str] = (),
    chips: Sequence[int] | None = None,
    round: int = 1,
    dealer: int = 0,
    pot: int = 0,
) -> list[Event]:
    """Restart round ``round`` with ``dealer``: seats in ``hands`` hold exactly those cards,
    the others five cards from the bottom of the pile; ``draws`` are the next cards drawn, in
    order. ``chips`` (default 12 each) and ``pot`` set the stacks; the bank holds the rest."""
    s.round, s.dealer = round, dealer
    s.chips = list(chips) if chips is not None else [12] * s.n
    s.pot = pot
    s.bank = TOTAL_CHIPS - sum(s.chips) - pot
    assert s.bank >= 0
    wanted = [parse_card(t) for texts in hands.values() for t in texts] + cards(*draws)
    assert len(set(wanted)) == len(wanted), "a card can only be in one place"
    free = [c for c in range(DECK_SIZE) if c not in wanted]
    for seat in range(s.n):
        s.hands[seat] = cards(*hands[seat]) if seat in hands else [free.pop() for _ in range(5)]
        s.discards[seat] = []
    s.pile = free + cards(*reversed(draws))  # the top is the end of the list
    reset_round(s)
    s.stack = []
    s.result_ = None
    s.legal_cache = None
    s.flow = Flow(DRAW_1, 0)
    events: list[Event] = []
    advance(s, events)
    return events


def act(s: State, *texts: str) -> list[Event]:
    """Apply actions by their notation; returns all their events."""
    events: list[Event] = []
    for text in texts:
        events += s.apply(parse_action(text))
    return events


def legal(s: State) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def all_cards(s: State) -> list[int]:
    return [c for zone in (*s.hands, s.pile, *s.discards) for c in zone]


def chips_total(s: State) -> int:
    return sum(s.chips) + s.pot + s.bank


def discard_to_five(s: State) -> list[Event]:
    """Answer every discard decision of the current discard step with the seat's highest card
    (keeps low hands predictable in tests)."""
    events: list[Event] = []
    while not s.is_over and s.observation(None)["decision"] == "discard":
        options = [a for a in s.legal_actions() if a.verb == "discard"]
        events += s.apply(options[-1])
    return events


def content_with(body: str) -> str:
    """A content file's text: ``[content]`` header plus ``body``."""
    return '[content]\nname = "test"\n\n' + body


def decision(s: State) -> str:
    return str(s.observation(None)["decision"])


def default_action(s: State) -> str:
    """A plain, predictable answer to any decision: discard the highest card, stand in phase 2,
    take part (paying if possible), end the scoring turn, allow every effect, first target."""
    options = legal(s)
    for preferred in ("done", "allow", "stand" if decision(s) == "stake" else "pay", "stand"):
        if preferred in options:
            return preferred
    discards = [o for o in options if o.startswith("discard ")]
    if discards:
        return discards[-1]
    return options[0]


def play_until(s: State, stop: str, limit: int = 500) -> list[Event]:
    """Answer with :func:`default_action` until the decision named ``stop`` (or the game's end)."""
    events: list[Event] = []
    for _ in range(limit):
        if s.is_over or decision(s) == stop:
            return events
        events += act(s, default_action(s))
    raise AssertionError(f"no {stop!r} decision within {limit} steps")


def finish_round(s: State) -> list[Event]:
    """Play the current round to its end with :func:`default_action`."""
    events: list[Event] = []
    start = s.round
    while not s.is_over and s.round == start:
        events += act(s, default_action(s))
    return events


def follow_hand(hands: MutableMapping[int, set[str]], event: Event) -> bool:
    """Follow every hand card by card through one event, its secret part included (dealt,
    drawn, discarded, taken, given, swapped): True when the event moved a card."""
    args = {**event.args, **(event.secret or {})}
    kind = event.kind
    if kind == "deal":
        hands[args["seat"]] = set(args["cards"])
    elif kind == "draw":
        hands[args["seat"]].add(args["card"])
    elif kind == "discard":
        hands[args["seat"]].remove(args["card"])
    elif kind in ("take", "give", "swap"):
        # the cards moved are in the secret part, seen by the two players (K-SHORT-1 aside)
        moves: list[tuple[str, int, int]] = (
            [(args["card"], args["target"], args["seat"])]
            if kind == "take"
            else [(args["card"], args["seat"], args["target"])]
            if kind == "give"
            else [
                (args["given"], args["seat"], args["target"]),
                (args["taken"], args["target"], args["seat"]),
            ]
        )
        for card, giver, receiver in moves:
            hands[giver].remove(card)
            hands[receiver].add(card)
    else:
        return False
    return True
