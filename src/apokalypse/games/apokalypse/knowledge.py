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

A lower bound forgets more than the player does: after p1 laid some B card face down, p2 knows
that the m/hp is in p1's hand *or is that populace* (whose moves stay public). A :class:`Trace`
keeps that, per code, for :func:`.secrecy.redeal`: perfect recall of the whole history,
not of the lower bounds only. It follows face-down cards only; a card that goes on to another
hand unseen, or back into a deck, is where the trace is forgotten (forgetting is always safe).

>>> k: Known = {}
>>> gained(k, holder=1, code="m/hp")
>>> gained(k, holder=1, code="m/hp")
>>> lost_seen(k, holder=1, code="m/hp")
>>> k
{(1, 'm/hp'): 1}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from .cards import CardKind

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


class Trace(NamedTuple):
    """What a lower bound forgets when its holder lays a B card face down: the viewer knew of
    ``copies`` of ``code`` in ``holder``'s hand, and has since seen the holder lay the cards
    ``laid`` face down without seeing which they were. So at least that many copies are
    in the hand or among those cards, wherever they lie now (their moves are public, D-INFO-1):
    perfect recall of a gift or theft (R-INFO-2) that the lower bounds alone would lose."""

    holder: int
    code: str
    copies: int
    laid: tuple[int, ...]  # card ids, face down in a display or in the B discard pile


Traces = tuple[Trace, ...]  # per viewer, immutable: a change makes a new tuple


def trace_laid(
    traces: Traces, known: Known, holder: int, card: int, kinds: Mapping[str, CardKind]
) -> Traces:
    """``holder`` laid ``card`` face down and the viewer saw only its back; ``known`` is the
    viewer's knowledge from before (every B code it placed in that hand may be that card)."""
    if not any(seat == holder for seat, _ in known) and not any(
        trace.holder == holder for trace in traces
    ):
        return traces  # the viewer knows nothing of that hand
    out: list[Trace] = []
    traced: set[str] = set()
    for trace in traces:
        if trace.holder == holder and kinds[trace.code].back == "B":
            trace = Trace(holder, trace.code, trace.copies, (*trace.laid, card))
            traced.add(trace.code)
        out.append(trace)
    for (seat, code), count in known.items():
        if seat == holder and code not in traced and kinds[code].back == "B":
            out.append(Trace(holder, code, count, (card,)))
    return tuple(out)


def trace_count(traces: Traces, holder: int, code: str, change: int) -> Traces:
    """The viewer saw a card of ``code`` go into (+1) or leave (-1) ``holder``'s hand."""
    if not any(trace.holder == holder and trace.code == code for trace in traces):
        return traces
    out: list[Trace] = []
    for trace in traces:
        if trace.holder == holder and trace.code == code:
            if trace.copies + change <= 0:
                continue
            trace = Trace(holder, code, trace.copies + change, trace.laid)
        out.append(trace)
    return tuple(out)


def trace_forget(
    traces: Traces,
    holder: int = -1,
    back: str = "",
    kinds: Mapping[str, CardKind] | None = None,
    cards: frozenset[int] = frozenset(),
) -> Traces:
    """Forget what can no longer be followed: the traces of ``holder`` for codes of ``back``
    (a card left the hand for another hand, unseen), or those through ``cards`` (shuffled into
    a deck, R-REFILL-1). Forgetting is always safe; it only knows less."""
    return tuple(
        trace
        for trace in traces
        if not (trace.holder == holder and kinds is not None and kinds[trace.code].back == back)
        and not cards.intersection(trace.laid)
    )


def lost_back_traced(
    known: Known,
    traces: Traces,
    holder: int,
    card: int,
    back: str,
    laid: bool,
    kinds: Mapping[str, CardKind],
) -> Traces:
    """A card of ``back`` left ``holder``'s hand and the viewer saw only its back: it may have
    been any copy of any code of that back the viewer placed in that hand (one copy fewer of
    each), and the viewer's traces follow it: face down into a display (``laid``:
    :func:`trace_laid`) or into another hand (the traces of that hand and back are forgotten).
    Returns the viewer's new traces."""
    held = [key for key in known if key[0] == holder and kinds[key[1]].back == back]
    if laid and (held or traces):
        traces = trace_laid(traces, known, holder, card, kinds)  # before the bounds drop
    elif traces:
        traces = trace_forget(traces, holder, back, kinds)
    for seat, code in held:
        lost_seen(known, seat, code)
    return traces


def holdings(known: Known) -> dict[str, list[str]]:
    """The observation's form: ``{"p2": ["m/hp", "m/hp"], …}``, seats and codes sorted."""
    out: dict[str, list[str]] = {}
    for (holder, code), count in sorted(known.items()):
        out.setdefault(f"p{holder + 1}", []).extend([code] * count)
    return out
