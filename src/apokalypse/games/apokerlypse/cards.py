"""The 52-card poker deck (K-SETUP-1), the four factions and the card bonus (K-SCORE-3).

A card is an ``int`` 0–51: ``rank * 4 + suit``, rank 0–12 for 2 … A, suit 0–3 for ♠ ♥ ♦ ♣. Its
text code is rank then suit, as on poker tables: ``"7h"``, ``"Td"``, ``"As"``.

>>> code(parse_card("as")), code(parse_card("10h")), parse_card("7h") >> 2
('As', 'Th', 5)
"""

from __future__ import annotations

from typing import Literal, get_args

from apokalypse.engine.text import shown

RANKS = "23456789TJQKA"
SUITS = "shdc"  # ♠ spades, ♥ hearts, ♦ diamonds, ♣ clubs
SUIT_SYMBOLS = "♠♥♦♣"
DECK_SIZE = 52
HAND_SIZE = 5  # K-SETUP-2 and the discard limit of K-ROUND-2

# K-SETUP-1: one faction per suit.
FactionName = Literal["military", "civilians", "plunderers", "zombies"]
FACTIONS: tuple[FactionName, ...] = get_args(FactionName)

# K-SCORE-3: 2–6 → 0, 7–10 → 1, J/Q/K/A → 2 bonus points.
BONUS_BY_RANK = (0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2)
CARD_BONUS = tuple(BONUS_BY_RANK[c >> 2] for c in range(DECK_SIZE))

CODES = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in range(DECK_SIZE))
_BY_CODE = {text: c for c, text in enumerate(CODES)}


def code(card: int) -> str:
    return CODES[card]


def parse_card(text: str) -> int:
    """``"7h"``, ``"TD"``, ``"10d"`` → the card; raises ``ValueError`` for anything else."""
    t = text.strip()
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    # ASCII only: upper() and lower() of other letters may turn into ASCII ones ('ı' → 'I').
    card = _BY_CODE.get(t[0].upper() + t[1].lower()) if len(t) == 2 and t.isascii() else None
    if card is None:
        raise ValueError(
            f"{shown(text)} is not a card (rank 2–9, T, J, Q, K, A and suit s, h, d, c)"
        )
    return card


def parse_rank(text: str) -> int:
    t = "T" if text == "10" else text.upper()
    if len(t) != 1 or t not in RANKS or not text.isascii():
        raise ValueError(f"{shown(text)} is not a rank (2–9, T, J, Q, K, A)")
    return RANKS.index(t)


def parse_suit(text: str) -> int:
    t = text.lower()
    if len(t) != 1 or t not in SUITS or not text.isascii():
        raise ValueError(f"{shown(text)} is not a suit (s, h, d, c)")
    return SUITS.index(t)


def codes(cards: list[int] | tuple[int, ...]) -> list[str]:
    """Codes in a stable order (by rank, then suit) so that views never show dealing order."""
    return [CODES[c] for c in sorted(cards)]
