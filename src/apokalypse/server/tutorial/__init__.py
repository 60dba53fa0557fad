"""The guided first game ("Learn to play"): a prepared deal per game against easy computer players,
where a newcomer meets each thing the coach explains early and in a sensible order.

A tutorial is an ordinary stored game (private like every game, its person's seat opened by its
token) whose meta says ``tutorial``; its page shows the coach (``web/src/tutorial/``), whose
lessons and suggested move the server works out for the learner's seat alone and sends in that
seat's state message (:mod:`.tutor`): the page computes none of it. Its seed is fixed and
public: the deal is the same for everybody, which is the point of a lesson, and nothing is
secret in a game whose only person is the learner (the computers never read the seed).

The seeds were chosen by ``scripts/tutorial_seeds.py``, which plays each candidate with
:func:`newcomer` at seat 1 (the coach's own preferences, the very ones the server's coach
suggests to the learner) against the easy players, and keeps the first deal whose :func:`walk`
meets every :func:`unmet` property. ``tests/server/test_tutorial.py`` asserts them for the
committed seeds, so a change of the rules, the deck or the computer players cannot silently
spoil the lesson.

What is particular to a game (its topics, when each comes due, the coach's preference, what its
deal must show) is its :class:`.guide.Guide`, in the module named after it; this module only
looks a game's guide up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from apokalypse.bots import make_bot, seat_seed
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.registry import entry, game_names, get_game, part

from ..games import HUMAN
from ..making import NewGame, new_game
from . import apokalypse, apokerlypse
from .guide import Guide, Observation, Parts, Walk

__all__ = [
    "APOKALYPSE_TOPICS",
    "APOKERLYPSE_TOPICS",
    "TUTORIALS",
    "Tutorial",
    "Walk",
    "newcomer",
    "tutorial_game",
    "unmet",
    "walk",
]

LEARNER = 0  # the learner's seat (seat 1 on the page)
LEVEL = "easy"  # the computer players: the heuristic with a share of random moves, seeded


def _guide(name: str) -> Guide:
    found = part(name, "guide")
    if not isinstance(found, Guide):
        raise TypeError(f"{name}'s guided game names no Guide: {found!r}")
    return found


# Every game whose registry entry has a guided game (its guide and its prepared deal).
GUIDES: dict[str, Guide] = {
    name: _guide(name) for name in game_names() if entry(name).tutorial is not None
}
APOKALYPSE_TOPICS = apokalypse.TOPICS
APOKERLYPSE_TOPICS = apokerlypse.TOPICS


@dataclass(frozen=True)
class Tutorial:
    """One game's prepared deal: how many play, and the seed that deals it."""

    game: str
    players: int
    seed: int
    # Apokerlypse's guided game teaches the poker frame (chips, the discard, the stake, the
    # scoring) on the plain content; the card effects and abilities of a real game are explained
    # on every card and in the rules (KD-SETUP-1).
    variants: tuple[str, ...] = ()

    @property
    def seats(self) -> list[str]:
        return [HUMAN if seat == LEARNER else LEVEL for seat in range(self.players)]


# The prepared deals of the registry's entries, chosen by scripts/tutorial_seeds.py (see the
# module's docstring).
TUTORIALS: dict[str, Tutorial] = {
    name: Tutorial(name, deal.players, deal.seed, deal.variants)
    for name in game_names()
    if (deal := entry(name).tutorial) is not None
}


def tutorial_game(name: str, lang: str) -> NewGame:
    """The guided game of ``name`` in ``lang``: its prepared deal, the learner at seat 1 and
    easy computer players elsewhere; a :class:`ConfigError` for a game without one."""
    tutorial = TUTORIALS.get(name.strip().lower())
    if tutorial is None:
        known = ", ".join(sorted(TUTORIALS))
        raise ConfigError(f"game {name!r} has no guided game; choose one of: {known}")
    return new_game(
        tutorial.game,
        tutorial.players,
        tutorial.seats,
        list(tutorial.variants),
        lang,
        seed=tutorial.seed,
        meta={"tutorial": True},
    )


# --- the newcomer: the coach's preferences, for choosing and checking the deals ----------------


def newcomer(game: str, obs: Observation, legal: Sequence[Parts], due: str | None) -> int:
    """The index in ``legal`` of the move the coach suggests: ``due`` is the lesson the coach
    shows now (its own suggestion goes first). The preference the server's coach suggests to the
    learner (:mod:`.tutor`)."""
    rank = GUIDES[game].rank
    scores = [rank(obs, parts, due) for parts in legal]
    return scores.index(max(scores))  # the first of the best: ties go to the server's order


# --- a walk through the prepared deal -----------------------------------------------------------


# The steps inside one play: the coach's lesson does not give way in the middle of them.
STEPS = frozenset(
    ("choose-target", "choose-gift", "choose-recipient", "choose-victim", "choose-destination")
)
ANSWERED = frozenset(("decline", "allow"))  # a lone one is answered for the learner by the server


@dataclass
class CoachModel:
    """The coach as it opens lessons (the server's, :mod:`.tutor`, runs this one): the lesson shown
    gives way to the next one due once the learner has decided with it open and moved on (not in
    the middle of a several-step play); it is looked at in every state the game passes through."""

    guide: Guide
    topics: list[str] = field(default_factory=list)
    current: str | None = None
    decided_at: int | None = None

    def look(self, obs: Observation, legal: Sequence[Parts], kinds: set[str]) -> None:
        answered = len(legal) == 1 and legal[0]["verb"] in ANSWERED
        deciding = bool(legal) and not answered
        read = self.current is None or (
            self.decided_at is not None
            and obs["move"] > self.decided_at
            and obs["decision"] not in STEPS
        )
        if not read:
            if self.decided_at is None and deciding:
                self.decided_at = obs["move"]
            return
        due = self.guide.due(obs, legal, kinds, self.topics)
        if due:
            self.topics.append(due[0])
            self.current = due[0]
            self.decided_at = obs["move"] if deciding else None


def walk(name: str, seed: int, players: int) -> Walk:
    """Play the deal of ``seed`` with :func:`newcomer` at the learner's seat, the lessons opening
    as the server's coach opens them (:class:`CoachModel`)."""
    game = get_game(name)
    tutorial = TUTORIALS.get(name)
    variants = list(tutorial.variants) if tutorial is not None else []
    state = game.new_game(game.config_from_options(players, variants, None), seed)
    bots = {
        seat: make_bot(LEVEL, seat_seed(seed, seat), name)
        for seat in range(players)
        if seat != LEARNER
    }
    guide = GUIDES[name]
    result = Walk()
    first = state.observation(LEARNER)
    result.ethos = first.get("ethos")
    result.hand = list(first.get("hand", []))
    coach = CoachModel(guide, result.topics)
    kinds: set[str] = set()
    for _ in range(5_000):
        obs = state.observation(LEARNER)
        mine = state.to_act == LEARNER and not state.is_over
        legal = state.legal_actions() if not state.is_over else []
        parts = [guide.parts(action) for action in legal] if mine else []
        coach.look(obs, parts, kinds)
        if state.is_over:
            break
        if mine:
            action = legal[newcomer(name, obs, parts, coach.current)]
            result.decisions += 1
        else:
            player = state.to_act
            assert player is not None
            action = bots[player].choose(state.observation(player), legal)
        events = state.apply(action)
        for seat, bot in bots.items():
            bot.observe([event.view(seat) for event in events])
        for event in events:
            kinds.add(event.kind)
            if event.kind == "ride" and result.first_ride_round is None:
                result.first_ride_round = int(obs.get("round", 0))
    end = state.observation(LEARNER)
    result.topics += guide.due(end, [], kinds, result.topics)  # each "Got it" opens the next
    outcome = state.result
    result.won = outcome is not None and LEARNER in outcome.to_json().get("winners", [])
    totals = outcome.to_json().get("totals") if outcome is not None else None
    if isinstance(totals, list) and len(totals) > LEARNER:
        result.points = int(totals[LEARNER])
    case = outcome.to_json().get("case") if outcome is not None else None
    result.case = case if isinstance(case, str) else None
    return result


def unmet(name: str, seed: int, players: int) -> list[str]:
    """The properties a guided game's deal must have that the deal of ``seed`` lacks (none: a
    good deal): every lesson's topic met, the last one last, the learner wins, and what the
    game's own guide asks (:func:`.apokalypse.checks`, :func:`.apokerlypse.checks`)."""
    path = walk(name, seed, players)
    topics = GUIDES[name].topics
    wrong: list[str] = []
    missing = [topic for topic in topics if topic not in path.topics]
    if missing:
        wrong.append(f"topics never met: {', '.join(missing)}")
    if path.topics and path.topics[-1] != topics[-1]:
        wrong.append(f"the last lesson is {path.topics[-1]!r}")
    wrong += GUIDES[name].checks(path)
    if not path.won:
        wrong.append("the learner does not win")
    return wrong
