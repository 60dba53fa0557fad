"""The searching player (``bots/ismcts.py``): legal complete games of both games, determinism,
blindness to what its seat cannot see (twin worlds), availability counts on a hand-made game,
stable action texts across sampled worlds, bad budgets, and a sanity check of its strength.

Budgets are tiny (a few iterations): these tests check the machinery, not the play."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from apokalypse.bots import make_bot
from apokalypse.bots.apokalypse.evaluate import evaluate as apokalypse_value
from apokalypse.bots.apokerlypse.evaluate import evaluate as apokerlypse_value
from apokalypse.bots.base import BaseBot
from apokalypse.bots.ismcts import Evaluation, ISMCTSPlayer, Node
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.events import Event
from apokalypse.engine.match import Match, SearchingPlayer, play_out
from apokalypse.engine.protocol import GameState
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng
from tests.apokalypse.test_properties import hidden_swap as apokalypse_swap
from tests.apokerlypse.test_properties import hidden_swap as apokerlypse_swap

VALUES: dict[str, Evaluation] = {"apokalypse": apokalypse_value, "apokerlypse": apokerlypse_value}
SWAPS: dict[str, Callable[[Any, int, Rng], Any]] = {
    "apokalypse": apokalypse_swap,
    "apokerlypse": apokerlypse_swap,
}


def searcher(game: str, seed: int, iterations: int = 6, depth: int = 4) -> ISMCTSPlayer:
    return ISMCTSPlayer(seed, iterations=iterations, rollout_depth=depth, evaluate=VALUES[game])


def new_state(game: str, players: int, seed: int) -> GameState:
    g = get_game(game)
    return g.new_game(g.config_from_options(players, [], None), seed)


# --- complete games, determinism ---------------------------------------------------------------


@pytest.mark.parametrize("game", ["apokalypse", "apokerlypse"])
@pytest.mark.parametrize("players", [2, 4])
def test_complete_games_without_an_illegal_choice(game: str, players: int) -> None:
    """ISMCTS at every other seat (random players between) plays a whole game to its result;
    every choice goes through the match loop, which refuses an illegal one."""
    seats = [
        searcher(game, 10 + q, iterations=4, depth=3) if q % 2 == 0 else make_bot("random", q, game)
        for q in range(players)
    ]
    match = play_out(new_state(game, players, 5), seats)
    assert match.state.is_over and match.state.result is not None
    first = seats[0]
    assert isinstance(first, ISMCTSPlayer) and first.last is not None


def test_the_registered_player_is_a_searching_player() -> None:
    for game in ("apokalypse", "apokerlypse"):
        bot = make_bot("ismcts", 1, game)
        assert isinstance(bot, SearchingPlayer) and isinstance(bot, ISMCTSPlayer)
        assert bot.iterations is not None  # a deterministic default budget
        prefix, seat, _ = _prefix(game, 4, 2, 30)
        match: Match[Any, Any] = Match(prefix.state, {seat: bot})
        assert match.ask() in match.state.legal_actions()
        # Apokerlypse's move 30 comes before a final scoring: there the heuristic's choice
        # stands, and no search is spent on it
        spent = bot.iterations if game == "apokalypse" else 0
        assert bot.last is not None and bot.last.iterations == spent, game
    assert not isinstance(make_bot("heuristic", 1, "apokalypse"), SearchingPlayer)


def _played(game: str, seed: int) -> tuple[list[str], Any]:
    players = [searcher(game, seed + q, iterations=5) for q in range(2)]
    match: Match[Any, Any] = play_out(new_state(game, 2, 9), players)
    last = players[0].last
    assert last is not None
    return match.actions, (last.infoset, last.chosen, last.iterations, last.candidates)


@pytest.mark.parametrize("game", ["apokalypse", "apokerlypse"])
def test_a_seed_and_an_iteration_budget_decide_every_choice(game: str) -> None:
    first, again = _played(game, 3), _played(game, 3)
    assert first == again
    assert _played(game, 4)[0] != first[0]  # another seed searches differently


def test_a_resumed_game_goes_on_exactly_as_the_uninterrupted_one() -> None:
    """``Match.catch_up`` asks a searching player without a search (its answer is thrown
    away); its random stream still ends where the uninterrupted game left it."""
    game = get_game("apokerlypse")
    seats = [searcher("apokerlypse", q) for q in (1, 2)]
    whole: Match[Any, Any] = play_out(new_state("apokerlypse", 2, 2), seats)
    cut = len(whole.actions) // 2
    resumed: Match[Any, Any] = Match(
        new_state("apokerlypse", 2, 2), {q: searcher("apokerlypse", q + 1) for q in (0, 1)}
    )
    resumed.start()
    resumed.catch_up(game, whole.actions[:cut])
    resumed.play_out()
    assert resumed.actions == whole.actions


def test_a_time_budget_searches_until_it_is_spent() -> None:
    """A budget in seconds is spent by the player's clock: the search goes on while the budget
    lasts and stops at its first look past it. The machine's own clock first (the budget spent
    at least), then one that moves a step at each look, as the machine's moves an iteration's
    time (when it stops is then told exactly, however busy the machine is)."""
    prefix, seat, _ = _prefix("apokalypse", 4, 8, 40)
    player = ISMCTSPlayer(3, seconds=0.05, rollout_depth=2, evaluate=apokalypse_value)
    match: Match[Any, Any] = Match(prefix.state, {seat: player})
    assert match.ask() in match.state.legal_actions()
    assert player.last is not None and player.last.iterations > 0
    assert player.last.seconds >= 0.05

    step = 1 / 64  # seconds an iteration takes by this clock (a binary fraction: sums exact)
    looks = itertools.count()
    timed = ISMCTSPlayer(3, seconds=4 * step, rollout_depth=2, evaluate=apokalypse_value)
    timed.clock = lambda: next(looks) * step
    match = Match(prefix.state, {seat: timed})
    assert match.ask() in match.state.legal_actions()
    assert timed.last is not None
    # The start's look, one after each iteration: the fourth finds the budget spent, and the
    # search stops there (not before, not after); the last look measures it.
    assert (timed.last.iterations, timed.last.seconds) == (4, 5 * step), timed.last
    assert next(looks) == 6, "no other look at the clock"


# --- what the player may know --------------------------------------------------------------------


def _prefix(
    game: str, players: int, seed: int, moves: int
) -> tuple[Match[Any, Any], int, ISMCTSPlayer]:
    """A match played by random players for ``moves`` actions and on to a decision of more
    than one choice; the seat deciding then gets a searching player that saw it all."""
    state = new_state(game, players, seed)
    rng = Rng(seed)
    events: list[list[Event]] = [list(state.opening)]
    while state.move < moves or len(state.legal_actions()) < 2:
        legal = state.legal_actions()
        events.append(state.apply(legal[rng.below(len(legal))]))
    seat = state.to_act
    # Rollouts long enough to reach a reckoning or a showdown, where hidden cards tell.
    player = searcher(game, 77, iterations=40, depth=40)
    for batch in events:
        player.observe([e.view(seat) for e in batch])
    return Match(state, {seat: player}), seat, player


# Twin states: the same history for the searching seat, a different hidden deal. ``determinize``
# shuffles the unseen cards from a sorted order, never the true deal's, so the searches agree.
@pytest.mark.parametrize(
    ("game", "scenarios"),
    [
        ("apokalypse", [(4, 1, 120), (3, 2, 60), (2, 6, 30)]),
        ("apokerlypse", [(4, 3, 25), (2, 4, 12), (3, 7, 40)]),
    ],
)
def test_twin_worlds_the_seat_cannot_tell_apart_get_the_same_choice(
    game: str, scenarios: list[tuple[int, int, int]]
) -> None:
    """Two true states that differ only in cards the deciding seat cannot see (another hand,
    the deck order) and share its whole history: with the same seed and iteration budget the
    searching player chooses the same action for the same reasons (the same visit counts)."""
    for players, seed, moves in scenarios:
        rng = Rng(seed)
        for _ in range(3):  # three twins of each true state
            one, seat, first = _prefix(game, players, seed, moves)
            two, _, second = _prefix(game, players, seed, moves)
            swapped = None
            while swapped is None:
                swapped = SWAPS[game](two.state, seat, rng)
            assert swapped.observation(seat) == one.state.observation(seat)
            two.state = swapped
            choice_one, choice_two = one.ask(), two.ask()
            a, b = first.last, second.last
            assert a is not None and b is not None
            assert a.infoset == b.infoset  # the same information set …
            assert (str(choice_one), a.candidates) == (str(choice_two), b.candidates)  # … search


@pytest.mark.parametrize(("game", "seed"), [("apokalypse", 4), ("apokerlypse", 5)])
def test_the_legal_action_texts_are_the_same_in_every_sampled_world(game: str, seed: int) -> None:
    """Actions are identified across worlds by their text: at every decision of a random game,
    every world sampled for the seat to act offers it exactly the actions it really has."""
    state = new_state(game, 4, seed)
    rng = Rng(seed)
    checked = 0
    while not state.is_over:
        legal = state.legal_actions()
        if rng.below(4) == 0:
            texts = [str(a) for a in legal]
            for _ in range(3):
                world = state.determinize(state.to_act, rng.fork())
                assert [str(a) for a in world.legal_actions()] == texts
            checked += 1
        state.apply(legal[rng.below(len(legal))])
    assert checked > 5


# --- availability counts on a hand-made game -----------------------------------------------------


class Peek:
    """A hand-made game of two decisions: seat 1 holds a hidden card 0 or 1 and moves first;
    "x" is always allowed, "y" only with card 0, "z" only with card 1. Then seat 0 answers
    "left" or "right" and the game ends: seat 0 wins by saying "left" to card 0."""

    def __init__(self, card: int) -> None:
        self.card = card
        self.moves: list[str] = []

    @property
    def move(self) -> int:
        return len(self.moves)

    @property
    def to_act(self) -> int:
        return 1 if not self.moves else 0

    @property
    def is_over(self) -> bool:
        return len(self.moves) == 2

    def legal_actions(self) -> Sequence[str]:
        if not self.moves:
            return ["x", "y"] if self.card == 0 else ["x", "z"]
        return ["left", "right"] if len(self.moves) == 1 else []

    def apply(self, action: str) -> list[Event]:
        self.moves.append(action)
        return []


def _peek_value(world: GameState) -> list[float]:
    assert isinstance(world, Peek) and world.is_over
    win = (world.moves[1] == "left") == (world.card == 0)
    return [float(win), float(not win)]


def test_availability_counts_how_often_the_sampled_worlds_offered_an_action() -> None:
    """Each child's availability is the number of iterations, from the one that made it, whose
    world offered its action at that node; visits add up to the iterations."""
    player = ISMCTSPlayer(5, iterations=1, rollout_depth=None, evaluate=_peek_value)
    root = Node()
    rng = Rng(8)
    expected: dict[str, int] = {}
    for i in range(60):
        world = Peek(card=(i * 7 + i // 3) % 2)  # both cards, in no simple rhythm
        offered = world.legal_actions()
        before = set(root.children)
        player.iterate(root, world, rng)  # type: ignore[arg-type]
        made = set(root.children) - before
        for text in offered:
            if text in before or text in made:
                expected[text] = expected.get(text, 0) + 1
    assert {t: c.available for t, c in root.children.items()} == expected
    # "x" is offered by every world, "y" and "z" by about half of them each
    assert expected["x"] > max(expected["y"], expected["z"]) > 0
    assert sum(c.visits for c in root.children.values()) == 60
    for child in root.children.values():
        assert child.visits <= child.available


class PeekBeliefs:
    """A stub of the optional hook: it believes the hidden card is 0, dislikes showing "x",
    and counts what it is told."""

    def __init__(self) -> None:
        self.worlds = 0
        self.seen: list[Any] = []
        self.events = 0

    def observe(self, events: Sequence[Any]) -> None:
        self.events += len(events)

    def see(self, observation: Any) -> None:
        self.seen.append(observation)

    def world(self, world: GameState, rng: Rng) -> GameState:
        assert isinstance(world, Peek)
        self.worlds += 1
        world.card = 0
        return world

    def root_penalty(self, observation: Any, action: Any) -> float:
        return 0.5 if action == "x" else 0.0

    def explain(self) -> dict[str, float]:
        return {"card 0": 1.0}


def _any_card(rng: Rng) -> Any:  # a Peek world: not an engine GameState, duck-typed
    return Peek(card=rng.below(2))


def _card_0(rng: Rng) -> Any:
    return Peek(card=0)


def test_the_beliefs_hook_redraws_every_world_and_penalises_at_the_root() -> None:
    """The optional :class:`~apokalypse.bots.ismcts.Beliefs`: every sampled world passes through
    it (here: the hidden card is always 0, so "z" is never offered), a root penalty steers the
    choice away from an action the values cannot tell apart, and the explanation carries its
    data; without the hook the explanation's belief is None."""
    hook = PeekBeliefs()
    player = ISMCTSPlayer(5, iterations=40, rollout_depth=None, evaluate=_peek_value, beliefs=hook)
    player.observe([Event("start", {}).view(1)])
    chosen = player.choose_in({"seat": 1}, ["x", "y"], _any_card)
    assert chosen == "y" and hook.worlds == 40 and hook.seen == [{"seat": 1}] and hook.events == 1
    last = player.last
    assert last is not None and last.belief == {"card 0": 1.0}
    assert {c.action for c in last.candidates} == {"x", "y"}  # never "z": every world has card 0
    plain = ISMCTSPlayer(5, iterations=40, rollout_depth=None, evaluate=_peek_value)
    plain.choose_in({"seat": 1}, ["x", "y"], _card_0)
    assert plain.last is not None and plain.last.belief is None


class Stubborn(BaseBot):
    """An anchor that always says "right" (a rule of thumb the search may overrule)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, observation: Any, legal: Sequence[str]) -> str:
        return "right"


def _answering(card: int | None) -> Callable[[Rng], Any]:
    """Peek worlds where seat 0 answers, with the hidden card ``card`` (None: either)."""

    def sample(rng: Rng) -> Any:
        world = Peek(card=rng.below(2) if card is None else card)
        world.moves.append("x")
        return world

    return sample


def anchored(margin: Any) -> ISMCTSPlayer:
    return ISMCTSPlayer(
        5,
        iterations=40,
        rollout_depth=None,
        evaluate=_peek_value,
        fallback=Stubborn,
        anchor_margin=margin,
    )


def test_the_anchor_stands_unless_the_search_sees_a_clearly_better_action() -> None:
    """With card 0 in every world "left" wins for sure (value 1 against 0): the search
    overrules the anchor's "right" when the margin is smaller than that gain, not when it is
    1; where the worlds cannot tell the two apart (either card, about 0.5 each), a small margin
    keeps the anchor's choice. A margin given per decision reads the observation."""
    for margin, worlds, chosen in (
        (0.5, _answering(0), "left"),
        (0.2, _answering(None), "right"),
        (lambda obs: obs["margin"], _answering(0), "left"),
    ):
        player = anchored(margin)
        assert player.choose_in({"seat": 0, "margin": 0.3}, ["left", "right"], worlds) == chosen
        last = player.last
        assert last is not None and last.anchor == "right" and last.chosen == chosen
        assert last.candidates[0].action == chosen  # the chosen one leads the explanation
    plain = ISMCTSPlayer(5, iterations=40, rollout_depth=None, evaluate=_peek_value)
    plain.choose_in({"seat": 0}, ["left", "right"], _answering(0))
    assert plain.last is not None and plain.last.anchor is None


def test_a_margin_of_one_keeps_the_anchor_without_spending_a_search() -> None:
    """No gain can exceed 1 (values are 0 … 1): with that margin the anchor's "right" stands
    even where "left" wins for sure, and the search is not run (no iterations, no candidates),
    unless ``search_anchored`` asks for the search's ranking anyway (the coach's advice)."""
    player = anchored(1.0)
    assert player.choose_in({"seat": 0}, ["left", "right"], _answering(0)) == "right"
    last = player.last
    assert last is not None and (last.chosen, last.anchor) == ("right", "right")
    assert (last.iterations, last.candidates) == (0, ())
    ranking = anchored(1.0)
    ranking.search_anchored = True
    assert ranking.choose_in({"seat": 0}, ["left", "right"], _answering(0)) == "right"
    last = ranking.last
    assert last is not None and last.iterations == 40
    assert [c.action for c in last.candidates] == ["right", "left"]  # the chosen one leads
    assert last.candidates[1].mean > last.candidates[0].mean  # the search saw left's win


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        ({}, "exactly one budget"),
        ({"iterations": 10, "seconds": 1.0}, "exactly one budget"),
        ({"iterations": 0}, "iterations must be"),
        ({"iterations": -5}, "iterations must be"),
        ({"iterations": 2.5}, "iterations must be"),
        ({"seconds": 0}, "seconds must be"),
        ({"seconds": -0.1}, "seconds must be"),
        ({"seconds": float("nan")}, "seconds must be"),
        ({"iterations": 10, "exploration": -1}, "exploration"),
        ({"iterations": 10, "rollout_depth": -1}, "rollout depth"),
        ({"iterations": 10, "anchor_margin": 0.1}, "anchor margin"),
        ({"iterations": 10, "anchor_margin": 2.0, "fallback": Stubborn}, "anchor margin"),
    ],
)
def test_a_bad_budget_is_one_clear_line(budget: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        ISMCTSPlayer(1, **budget)
    assert "\n" not in str(caught.value)


# --- strength ----------------------------------------------------------------------------------


@pytest.mark.long(26)
# Untraced for coverage: a strength measure over many games, on paths the other tests trace.
@pytest.mark.no_cover
def test_it_beats_the_random_player_at_two_player_apokerlypse() -> None:
    """A sanity check, not a measurement: over six seeded games, seats alternated, the
    searching player ends with more chips than the random player in total and wins most."""
    game = "apokerlypse"
    mine = theirs = wins = 0
    for i in range(6):
        me = i % 2
        seats: list[Any] = [make_bot("random", 50 + i, game)] * 2
        seats[me] = searcher(game, 60 + i, iterations=40, depth=30)
        result = play_out(new_state(game, 2, 40 + i), seats).state.result
        assert result is not None
        chips = result.to_json()["chips"]
        mine, theirs = mine + chips[me], theirs + chips[1 - me]
        wins += me in result.winners
    # (when written: 136 chips to 8, six wins of six)
    assert mine > theirs and wins >= 4


def test_the_evaluation_reads_v_good_ties() -> None:
    """V-GOOD-TIES: with as many good as evil populaces on the table, a searching player's
    evaluation gives the good seats a better chance than under the default rule (R-END-5)."""
    from apokalypse.games.apokalypse.cards import EVIL, GOOD
    from tests.apokalypse.builders import blank, populaces

    values = []
    for variants in ((), ("V-GOOD-TIES",)):
        world = blank(4, seed=3, variants=variants)
        world.ethos = (GOOD, GOOD, EVIL, EVIL)
        populaces(world, 0, good=3)
        populaces(world, 2, evil=3)
        values.append(apokalypse_value(world))
    default, ties = values
    assert ties[0] > default[0] and ties[1] > default[1], "the good seats gain"
    assert ties[2] < default[2] and ties[3] < default[3], "the evil seats lose"
