"""A new game (R-SETUP)."""

from __future__ import annotations

from apokalypse.engine.rng import Rng, check_seed

from .cards import BETWEEN_HORSEMEN, HAND_START
from .config import Config, Variant
from .pending import Turn
from .secrecy import ethos_pool
from .state import State


def _build_deck(cards: list[int], horsemen: tuple[int, ...]) -> list[int]:
    """R-SETUP-5, bottom first: horseman 4, six cards, 3, six, 2, six, 1, the rest on top.
    The config refused a deck too small for this (``cards.check_deck_size``)."""
    deck = [horsemen[3]]
    for number in (3, 2, 1):
        deck += cards[:BETWEEN_HORSEMEN]
        del cards[:BETWEEN_HORSEMEN]
        deck.append(horsemen[number - 1])
    return deck + cards


# ``seed: object``: check_seed refuses a wrong one with the rule's error; compiled by mypyc, an
# ``int`` parameter would raise TypeError first (and take True for 1).
def new_game(config: Config, seed: object) -> State:
    rng = Rng(check_seed(seed))
    n = config.players
    table = config.card_table()  # R-SETUP-1 (V-EDITION-2008: the 2008 set-up)
    s = State.__new__(State)
    s.config, s.table, s.n, s.rng = config, table, n, rng
    pool = ethos_pool(n, config.has(Variant.ETHOS_BALANCED))  # R-SETUP-3
    rng.shuffle(pool)
    s.ethos = tuple(pool[:n])
    b_cards, k_cards = list(table.b_cards), list(table.k_cards)
    rng.shuffle(b_cards)
    rng.shuffle(k_cards)
    s.hands = [[] for _ in range(n)]
    for pile in (b_cards, k_cards):  # R-SETUP-4
        for _ in range(HAND_START):
            for hand in s.hands:
                hand.append(pile.pop())
    s.decks = [
        _build_deck(b_cards, table.horsemen[0]),
        _build_deck(k_cards, table.horsemen[1]),
    ]
    s.displays = [[[] for _ in range(6)] for _ in range(n)]  # R-SETUP-2
    s.shared_displays = 0
    s.display_marks = [-1] * n
    s.discards = [[], []]
    s.seal_supply = list(table.seals)
    s.horse_supply = list(table.horsemen[2])  # the public reference set
    s.rewards = [[] for _ in range(n)]
    s.scores = []
    s.horseman = 1
    s.startup = rng.below(n)  # R-SETUP-6
    s.passed = [False] * n
    s.first_passer = -1
    s.table_cards = []
    s.seat_traces = [() for _ in range(n)]
    s.knowledge = [{} for _ in range(n)]
    s.shared_parts = 0  # nothing shared with another state yet
    s.face_down = set()
    s.laid_by = {}
    s.round = 1
    s.legal_cache = None
    s.move = 0
    s.pending = Turn(s.startup)
    return s
