""" "Why did it do that?": a computer player's decision, as data and as the lines ``why`` prints.

A searching player (ISMCTS) keeps an explanation of each choice (``last``: the candidates with
their visits, how often the sampled worlds offered them and their mean values, and its ethos
belief when it has one). The terminal session keeps a :class:`Decision` per computer move.

Secrecy: the candidates and beliefs show what the player holds and what it thinks of the others'
ethos, so they may be shown only when the asker may know them: when the game is over, or when no
person plays (all seats computers). :func:`may_explain` is that rule, in one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from apokalypse.i18n import text


@dataclass(frozen=True)
class Decision:
    """One computer player's move: the seat, the player's name, the action's text, whether a
    stand-in chose it (the player failed: see :mod:`apokalypse.bots.guard`), and the player's
    explanation (None: it does not search, or a stand-in chose)."""

    seat: int
    player: str
    action: str
    stood_in: bool = False
    explanation: Any = None

    @property
    def belief(self) -> Mapping[str, float] | None:
        belief = getattr(self.explanation, "belief", None)
        return belief if isinstance(belief, Mapping) else None


def may_explain(over: bool, humans: frozenset[int]) -> bool:
    """Whether a computer player's reasoning may be shown: once the game is over, or in a game
    no person plays (everybody is watching)."""
    return over or not humans


def why_lines(
    decisions: Mapping[int, Decision],
    move: int | None,
    names: Sequence[str],
    lang: str,
    beliefs_apply: bool = True,
) -> list[str]:
    """What ``why`` (``move`` None: the last computer decision) or ``why <move>`` says, the
    permission already checked. ``beliefs_apply``: the game has ethos beliefs to speak of."""
    if move is None:
        if not decisions:
            return [text("ui.why.none", lang)]
        move = max(decisions)
    decision = decisions.get(move)
    if decision is None:
        return [text("ui.why.no_move", lang, n=move)]
    facts = {"n": move, "name": names[decision.seat], "player": decision.player}
    facts["action"] = decision.action
    if decision.stood_in:
        return [text("ui.why.stand_in", lang, **facts)]
    explained = decision.explanation
    if explained is None:
        return [text("ui.why.plain", lang, **facts)]
    candidates = tuple(getattr(explained, "candidates", ()))
    if not candidates:
        # the anchor's choice where the search does not decide, else the only choice
        held = "ui.why.anchored" if getattr(explained, "anchor", None) else "ui.why.forced"
        return [text(held, lang, **facts)]
    lines = [
        text(
            "ui.why.head",
            lang,
            iterations=f"{explained.iterations:,}",
            seconds=f"{explained.seconds:.2f}",
            **facts,
        ),
        f"  {text('ui.why.columns', lang)}",
    ]
    for c in candidates:
        mark = "→" if c.action == explained.chosen else " "
        lines.append(f"{mark} {c.visits:>6,}  {c.available:>7,}  {c.mean:5.2f}  {c.action}")
    belief = decision.belief
    if belief is not None:
        shown = ", ".join(f"{k} {v:.2f}" for k, v in sorted(belief.items(), key=lambda kv: -kv[1]))
        lines.append(text("ui.why.belief", lang, belief=shown))
    elif beliefs_apply:
        lines.append(text("ui.why.no_belief", lang))
    return lines


__all__ = ["Decision", "may_explain", "why_lines"]
