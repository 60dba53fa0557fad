"""What each player knows about the cards in other hands (R-INFO-2), and nothing more.

A player learns that a hand holds a card when they give it (the receiver holds it) or lose it to
a steal (the thief holds it). That knowledge is kept per card *code*, as a lower bound: "p3 holds
at least two m/hp". Physical cards of one code are indistinguishable to the players, so knowledge
must not follow a physical card: if p2 knows that p1 holds an m/hp and p1 plays *some* B card face
down, p2 cannot tell whether it was that m/hp (or another copy of it), and p2's knowledge has to
read the same whichever card it was — otherwise the observation would reveal the face-down front.

When a card leaves a hand, each player updates with what they saw of it:

- they saw its front (a face-up play, a defence, or they were part of the gift/steal/face-down
  play): one copy of that code fewer;
- they saw only its back (a face-down populace, a gift or steal between two other players):
  one copy fewer of *every* code of that back they placed in that hand, since the card may have
  been any of them. "p1 holds two m/hp" then becomes "at least one m/hp"; "one m/hp" becomes
  "may still hold it", which is no knowledge.

>>> k: Known = {}
>>> gained(k, holder=1, code="m/hp")
>>> lost_unseen(k, holder=1, same_back=lambda code: code in ("m/hp", "h/mp"))
>>> k
{}
"""

from __future__ import annotations

from collections.abc import Callable

# (holder seat, card code) → copies known to be in that hand (always ≥ 1; absent means none known)
Known = dict[tuple[int, str], int]


def gained(known: Known, holder: int, code: str) -> None:
    """The viewer saw a card of ``code`` go into ``holder``'s hand."""
    key = (holder, code)
    known[key] = known.get(key, 0) + 1


def lost_seen(known: Known, holder: int, code: str) -> None:
    """The viewer saw a card of ``code`` leave ``holder``'s hand."""
    key = (holder, code)
    count = known.get(key, 0)
    if count > 1:
        known[key] = count - 1
    elif count:
        del known[key]


def lost_unseen(known: Known, holder: int, same_back: Callable[[str], bool]) -> None:
    """A card left ``holder``'s hand and the viewer saw only its back: it may have been any
    copy of any code with that back (``same_back(code)``) the viewer placed in that hand."""
    for seat, code in [key for key in known if key[0] == holder and same_back(key[1])]:
        lost_seen(known, seat, code)


def holdings(known: Known) -> dict[str, list[str]]:
    """The observation's form: ``{"p2": ["m/hp", "m/hp"], …}``, seats and codes sorted."""
    out: dict[str, list[str]] = {}
    for (holder, code), count in sorted(known.items()):
        out.setdefault(f"p{holder + 1}", []).extend([code] * count)
    return out
