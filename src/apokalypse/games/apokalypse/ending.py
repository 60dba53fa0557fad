"""Final totals and the winner cases (R-END)."""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .cards import EARTH, EVIL, GOOD, HORSEMAN_VP
from .config import Variant
from .observation import EndCase, ResultView


@dataclass(frozen=True)
class Result:
    """``case`` is one of: good (R-END-4 good win together), nobody (R-END-4, or R-END-5 without
    an evil player, or R-END-6 against the majority), evil (R-END-5), shared-ethos (R-END-6)."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    case: EndCase
    good_populaces: int
    evil_populaces: int
    ethos: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return dict(self.view())

    def view(self) -> ResultView:
        """The form in the observation (and, as plain JSON, in records)."""
        return {
            "winners": list(self.winners),
            "totals": list(self.totals),
            "case": self.case,
            "good_populaces": self.good_populaces,
            "evil_populaces": self.evil_populaces,
            "ethos": ["good" if e == GOOD else "evil" for e in self.ethos],
        }


def totals(s: Board) -> tuple[int, ...]:
    """R-END-2: reckoning scores plus horseman cards (1, 2, 4, 7 VP)."""
    kinds = s.table.kind
    return tuple(
        sum(scores[seat] for scores in s.scores)
        + sum(HORSEMAN_VP[kinds[c].horseman] for c in s.rewards[seat])
        for seat in range(s.n)
    )


def _top(seats: list[int], total: tuple[int, ...]) -> tuple[int, ...]:
    if not seats:
        return ()
    best = max(total[q] for q in seats)
    return tuple(q for q in seats if total[q] == best)


def good_majority(good_pop: int, evil_pop: int, good_ties: bool) -> bool:
    """R-END-4/R-END-5: do the good populaces hold the majority? A tie is evil's (R-END-5),
    except under V-GOOD-TIES (the lab's proposal), where a tie counts for the good. The
    forecast's running count says the same (:mod:`.forecast`)."""
    return good_pop >= evil_pop if good_ties else good_pop > evil_pop


def result(s: Board) -> Result:
    total = totals(s)
    good_pop = sum(len(s.displays[q][GOOD * 3 + EARTH]) for q in range(s.n))  # R-END-3
    evil_pop = sum(len(s.displays[q][EVIL * 3 + EARTH]) for q in range(s.n))
    good_wins_majority = good_majority(good_pop, evil_pop, s.config.has(Variant.GOOD_TIES))
    good = [q for q in range(s.n) if s.ethos[q] == GOOD]
    evil = [q for q in range(s.n) if s.ethos[q] == EVIL]

    def done(winners: tuple[int, ...], case: EndCase) -> Result:
        return Result(winners, total, case, good_pop, evil_pop, s.ethos)

    if not good or not evil:  # R-END-6: everybody shares one ethos
        # The 2009 text: only if their ethos's populaces are "am meisten auf dem Tisch
        # vertreten" (the most on the table): a tie is nobody's majority, and all lose.
        ours, theirs = (good_pop, evil_pop) if good else (evil_pop, good_pop)
        if s.config.has(Variant.EDITION_2008) or ours > theirs:
            return done(_top(list(range(s.n)), total), "shared-ethos")
        return done((), "nobody")
    if good_wins_majority:  # R-END-4
        if s.config.has(Variant.GOOD_TEAM):
            # English translation: "a good player has more points than an evil player".
            wins = max(total[q] for q in good) > min(total[q] for q in evil)
        else:
            wins = sum(total[q] for q in good) > sum(total[q] for q in evil)
        return done(tuple(good), "good") if wins else done((), "nobody")
    return done(_top(evil, total), "evil")  # R-END-5, D-END-1: tied evil players share
