"""The coach: "what would the expert do?" for a person's seat, from that seat's knowledge only.

The advice is the ``expert`` level's own search (:mod:`apokalypse.bots.levels`: ISMCTS with the
game's beliefs, :data:`~apokalypse.bots.levels.EXPERT_ITERATIONS` iterations, here also capped in
seconds), run for the asking seat the way a computer seat is run. A fresh expert player is told
the seat's event views from the opening and asked, without a search, at each of the seat's past
decisions (:meth:`Match.catch_up`, the path a rebuilt game resumes its computer players by), so
it has that seat's perfect recall; then it searches the decision at hand with the sampler of
worlds consistent with what the seat has seen (``state.determinize``). It never holds the true
state, and the sampler's worlds do not depend on where the unseen cards truly lie (R-INFO-3):
two deals the seat cannot tell apart get the same advice (``tests/server/test_coach.py``).

Its seed comes from the game's secret seed and the seat, so asking twice gives the same advice
and nobody can predict it. The work happens off the event loop, on the computer players' pool
(:mod:`.computers`); the hub bounds it (one question in flight per seat, a pace per connection)
and drops an answer whose decision moved on meanwhile.

The candidates come in the order the search recommends them (the most tried first). Each one's
one-line reason is made from the search's data for a person: how the futures the search tried
after it looked for the seat (the game's evaluation, 0 … 1, as a number of 100 and in plain
words), and in Apokalypse, where the move changes the table at once, what it changes in the
forecast (how many of the seat's populaces the next horseman would kill if it rode now), worked
out on a world drawn from what the seat knows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from apokalypse.bots import seat_seed
from apokalypse.bots.ismcts import Explanation, ISMCTSPlayer
from apokalypse.bots.levels import BELIEF_GAMES, Budget, searching
from apokalypse.engine.erased import Erased
from apokalypse.engine.errors import EngineError
from apokalypse.engine.match import Match
from apokalypse.engine.protocol import GameState
from apokalypse.engine.record import GameRecord, start
from apokalypse.engine.rng import Rng
from apokalypse.i18n import seat_names, text
from apokalypse.i18n.texts import Texts, texts_for
from apokalypse.wire import WIRE_VERSION, AdviceMessage
from apokalypse.wire.coach import AdviceCandidate

SHOWN = 3  # candidates the advice names
# The expert and the texts of the game asked about, chosen at run time (its types erased).
Expert = ISMCTSPlayer[Erased, Erased]
GameTexts = Texts[Erased, Erased]
COACH_SEED = 192  # the coach's stream: seat_seed(game seed, seat + this), apart from any player's


@dataclass(frozen=True)
class Question:
    """What a seat asked about, taken by the game's room between its changes: the game's record
    header, every action so far and the move; the search then runs on its own copy, apart."""

    record: GameRecord
    actions: tuple[str, ...]
    seat: int
    move: int
    names: tuple[str | None, ...]
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class Budgets:
    """How long the coach thinks: the expert's iterations, capped in seconds (the server's
    settings: ``coach_iterations``, ``coach_seconds``)."""

    iterations: int
    seconds: float


def expert(game: str, seed: int, budgets: Budgets) -> Expert:
    """The expert level's searching player with ``budgets``: whichever runs out first."""
    beliefs = True if game in BELIEF_GAMES else None
    player = searching(game, seed, Budget(iterations=budgets.iterations), beliefs)
    assert isinstance(player, ISMCTSPlayer)
    player.seconds = budgets.seconds  # the search stops at either (ISMCTSPlayer._search)
    player.search_anchored = True  # the advice ranks the choices even where the anchor stands
    return player


def answer(question: Question, budgets: Budgets, texts: GameTexts, lang: str) -> AdviceMessage:
    """The whole answer to a question (blocking: on the computer players' pool)."""
    state, explanation = think(question, budgets)
    return advice(question, state, explanation, texts, lang)


def answer_apart(question: Question, budgets: Budgets, lang: str) -> AdviceMessage:
    """:func:`answer` where the coach thinks, a process of its own (``Services.coach``): the
    game's texts made there, the question and the answer sent pickled."""
    record = question.record
    return answer(question, budgets, texts_for(record.game, record.config, lang), lang)


def think(question: Question, budgets: Budgets) -> tuple[GameState, Explanation]:
    """The expert's search on the asking seat's decision (blocking: on the computer pool), and
    the game as the seat's search started from (its replay, never the live game's state)."""
    match, player = recall(question, budgets)
    return match.state, search(match, player)


def recall(question: Question, budgets: Budgets) -> tuple[Match, Expert]:
    """The game replayed to the question with a fresh expert at the asking seat, told and
    asked there as a computer seat is (its perfect recall), not yet searching."""
    record = question.record
    game, state = start(record)
    player = expert(record.game, seat_seed(record.seed, question.seat + COACH_SEED), budgets)
    match: Match = Match(state, {question.seat: player})
    match.start()
    match.catch_up(game, question.actions)
    if state.to_act != question.seat or state.is_over:
        raise ValueError("the coach is asked about a decision that is not the seat's")
    return match, player


def search(match: Match, player: Expert) -> Explanation:
    """The expert's search at the recalled decision (the sampler of the match's state)."""
    match.ask()
    explanation = player.last
    assert explanation is not None  # a search always explains itself
    return explanation


def advice(
    question: Question, state: GameState, explanation: Explanation, texts: GameTexts, lang: str
) -> AdviceMessage:
    """The advice message: the best :data:`SHOWN` candidates, worded for the asking seat as its
    choices are (``texts``: the game's texts in the game's language), in the order the search
    recommends them: the most tried first (a search spends its tries on the moves it finds
    best), the better outlook first among moves tried alike. Not the expert's own pick first:
    anchored to a rule of thumb, that may be a move the search tried less and found no better,
    and a list led by it would put a weaker move above a stronger one."""
    seat = question.seat
    observation = state.observation(seat)
    names = seat_names(len(question.kinds), seat, lang, question.names, question.kinds)
    legal = {str(action): action for action in state.legal_actions()}
    iterations = explanation.iterations
    candidates: list[AdviceCandidate] = []
    if not explanation.candidates:  # one choice only: nothing was searched
        only = next(iter(legal.values()))
        candidates.append(
            {
                "action": str(only),
                "choice": texts.render_action(only, observation, names),
                "share": 1.0,
                "reason": text("coach.only", lang),
            }
        )
    seen = _Forecasts(state, seat, texts)
    ranked = sorted(explanation.candidates, key=lambda c: (-c.visits, -c.mean))
    for candidate in ranked[:SHOWN]:
        action = legal.get(candidate.action)
        if action is None:  # not offered here (cannot happen: the search ranks legal ones)
            continue
        outlook = _outlook(candidate.mean, lang)
        reason = [text(f"coach.outlook.{question.record.game}", lang, **outlook)]
        changed = seen.change(action)
        if changed is not None:
            reason.append(text("coach.forecast", lang, before=changed[0], after=changed[1]))
        candidates.append(
            {
                "action": candidate.action,
                "choice": texts.render_action(action, observation, names),
                "share": round(candidate.visits / max(1, iterations), 3),
                "reason": " ".join(reason),
            }
        )
    return {
        "type": "advice",
        "wire": WIRE_VERSION,
        "move": question.move,
        "candidates": candidates,
        "iterations": iterations,
        "seconds": round(explanation.seconds, 2),
    }


# How a newcomer hears an outlook of 0 … 100 (Apokalypse's evaluation: the chance to win,
# weighed with the points): the lowest value of each word, best first.
CHANCES = ((75, "very-good"), (60, "good"), (40, "even"), (25, "poor"), (0, "very-poor"))


def _outlook(mean: float, lang: str) -> Mapping[str, object]:
    """How the futures tried after a move looked, for the catalog's sentence: a number of 100
    and, in plain words, what it means."""
    value = round(100 * max(0.0, min(1.0, mean)))
    band = next(word for floor, word in CHANCES if value >= floor)
    return {"value": value, "chances": text(f"coach.chances.{band}", lang)}


class _Forecasts:
    """What a move changes in the forecast at once (Apokalypse): the seat's populaces the next
    horseman would kill if it rode now, before and after the move, worked out on one world
    drawn from the seat's knowledge (the displays are public, so a move that only lays a card
    changes them the same in every such world). Moves whose effect waits for somebody else
    (a defence window), or that end the round (a deal from unseen cards), say nothing."""

    def __init__(self, state: GameState, seat: int, texts: GameTexts) -> None:
        self.seat = seat
        self.forecast = getattr(texts, "forecast", None)
        self.world = state.determinize(seat, Rng(0)) if self.forecast is not None else None
        self.before = self._dying(self.world) if self.world is not None else None

    def _dying(self, world: GameState) -> int | None:
        public = world.observation(None)
        made = self.forecast(public) if self.forecast is not None else None
        for display in getattr(made, "displays", ()):
            if display.seat == self.seat:
                return int(display.next.good.dead + display.next.evil.dead)
        return None

    def change(self, action: object) -> tuple[int, int] | None:
        """(dying before, dying after) when ``action`` changes it at once, else None."""
        if self.world is None or self.before is None:
            return None
        world = self.world.clone()
        public = world.observation(None)
        try:
            world.apply(action)
        except EngineError:  # not a move of this world (cannot happen: the seat's own hand)
            return None
        after_public = world.observation(None)
        if world.is_over or _moment(after_public) != _moment(public):
            return None  # a round ended, a horseman rode: no longer "if it rode now"
        if after_public.get("attack"):
            return None  # an attack waits for the defence window's answers
        after = self._dying(world)
        if after is None or after == self.before:
            return None
        return self.before, after


def _moment(public: Mapping[str, object]) -> tuple[object, ...]:
    return (public.get("round"), public.get("horseman"))
