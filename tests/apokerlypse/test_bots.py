"""Apokerlypse computer players: legal, reproducible, blind to the State, sensible in the
situations the heuristic is built for, and clearly better than random."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from apokalypse.bots import RandomBot, bot_names, bots_for, make_bot
from apokalypse.bots.apokalypse.heuristic import HeuristicBot
from apokalypse.bots.apokerlypse import view as bot_view
from apokalypse.bots.apokerlypse.hands import Table, field, plain
from apokalypse.bots.apokerlypse.heuristic import HeuristicBot as ApokerlypseHeuristicBot
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.match import Match, play_out
from apokalypse.engine.registry import game_names
from apokalypse.games.apokerlypse import GAME as RULES
from apokalypse.games.apokerlypse import Action, Config, State
from apokalypse.games.apokerlypse.cards import FACTIONS, parse_card
from apokalypse.games.apokerlypse.content import load_content
from tests.apokerlypse.builders import (
    act,
    cards,
    content_with,
    deal_round,
    decision,
    default_action,
    new,
)

GAME = "apokerlypse"


def ask(s: State, seed: int = 1) -> Action:
    """The heuristic's answer for the seat on turn, checked to be legal."""
    legal = s.legal_actions()
    action: Action = ApokerlypseHeuristicBot(seed).choose(s.observation(s.to_act), legal)
    assert action in legal
    return action


def until(s: State, seat: int, wanted: str) -> None:
    """Answer with the builders' default until ``seat`` faces the decision ``wanted``."""
    for _ in range(200):
        if s.to_act == seat and decision(s) == wanted:
            return
        act(s, default_action(s))
    raise AssertionError(f"p{seat + 1} never faced {wanted!r}")


def example(players: int = 2, factions: Sequence[str] = ()) -> State:
    s = new(players, content="example")
    if factions:
        s.factions = tuple(FACTIONS.index(f) for f in factions)
        s.action_chips = [2] * players
    return s


# --- the registry ---------------------------------------------------------------------------


def test_make_bot_knows_the_names_per_game():
    assert bot_names(GAME) == ["easy", "expert", "hard", "heuristic", "ismcts", "medium", "random"]
    assert isinstance(make_bot(" Heuristic ", 1, GAME), ApokerlypseHeuristicBot)
    assert isinstance(make_bot("heuristic", 1, "apokalypse"), HeuristicBot)  # each its own
    for game in game_names():  # the random player plays every game
        assert "random" in bots_for(game)
        assert isinstance(make_bot("random", 1, game), RandomBot)
    with pytest.raises(ConfigError, match="unknown bot 'minimax' for apokerlypse"):
        make_bot("minimax", 1, GAME)
    with pytest.raises(ConfigError, match="unknown game 'chess'"):
        make_bot("random", 1, "chess")


# --- whole games ----------------------------------------------------------------------------


class Spy:
    """Wraps a bot and checks it is only ever shown dicts and legal lists, never the State."""

    name = "spy"
    blind = False

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls = 0

    def choose(self, observation: Any, legal: Any) -> Action:
        assert type(observation) is dict and observation["game"] == GAME
        assert "hand" in observation and observation["seat"] == observation["to_act"]
        assert all(isinstance(a, Action) for a in legal) and legal
        self.calls += 1
        action: Action = self.inner.choose(observation, legal)
        assert action in legal
        return action

    def observe(self, events: Any) -> None:
        assert all(not hasattr(e, "secret") for e in events)  # views, not raw events
        self.inner.observe(events)


@pytest.mark.parametrize("content", ["plain", "example"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_bots_play_legal_games_to_the_end(name, players, content):
    s = new(players, 60 + players, content)
    bots = [Spy(make_bot(name, q, GAME)) for q in range(players)]
    out: Match[Any, Any] = play_out(s, bots)
    assert s.is_over and s.result is not None
    assert len(out.actions) == sum(b.calls for b in bots)


@pytest.mark.parametrize("variant", [{"table": "short"}, {"bonus_cap": True}])
def test_heuristic_plays_the_short_rules_too(variant):
    s = RULES.new_game(Config(players=3, content="example", **variant), 5)
    play_out(s, [make_bot("heuristic", q, GAME) for q in range(3)])
    assert s.is_over


def test_same_seeds_same_game():
    def game() -> list[str]:
        s = new(4, 9, "example")
        return play_out(s, [make_bot("heuristic", 100 + q, GAME) for q in range(4)]).actions

    assert game() == game()


def test_a_designers_own_content_is_read_from_the_observation_and_played():
    text = content_with('[card.7c]\ntiming = "any"\nkind = "multiplier"\nfactor = 3\n')
    s = new(3, 2, text)
    view = bot_view.View.of(s.observation(0))
    effect = view.content.effects[parse_card("7c")]
    assert effect is not None and effect.kind == "multiplier"  # the designer's card, as written
    play_out(s, [make_bot("heuristic", q, GAME) for q in range(3)])
    assert s.is_over


# --- the hand model -------------------------------------------------------------------------


def test_the_bot_scores_hands_as_the_engine_does():
    full = Table.of("full", False)
    assert plain(cards("Ks", "Kh", "Kd", "7s", "2c"), full) == 9 + 6 + 1
    assert plain(cards("2h", "3h", "4h", "5h", "7h"), Table.of("short", True)) == 25 + 1
    dealt, drawn = field(full, 5), field(full, 9)
    assert sum(drawn) / len(drawn) > sum(dealt) / len(dealt)  # more cards, better hands


# --- decisions ------------------------------------------------------------------------------

JUNK = ["2h", "3s", "4h", "5c", "7d"]
QUADS = ["9s", "9h", "9d", "9c", "2c"]


def test_discards_keep_the_best_poker_hand():
    s = new(2)
    deal_round(s, {1: ["Ks", "Kh", "2c", "3d", "7s"], 0: JUNK}, draws=["Kd", "4c", "8s", "8h"])
    assert s.to_act == 1 and decision(s) == "discard"
    act(s, str(ask(s)))
    act(s, str(ask(s)))
    assert {"Ks", "Kh", "Kd"} <= set(s.observation(1)["hand"])


def test_discards_keep_a_final_scoring_effect():
    """Example content: 8d lifts the hand a category (pair → two pair) at the final scoring,
    worth more than a face card's bonus."""
    s = example()
    deal_round(s, {1: ["Ah", "Ad", "Kc", "Qs", "Jh"], 0: JUNK}, draws=["8d", "2c", "8s", "8h"])
    act(s, str(ask(s)))
    act(s, str(ask(s)))
    assert "8d" in s.observation(1)["hand"]


def test_weak_hands_drop_out_and_strong_ones_take_part():
    for hand, expected in ((JUNK, "drop"), (QUADS, "pay")):
        s = new(2)
        deal_round(s, {1: hand, 0: ["Ts", "Th", "Jd", "Qc", "Kh"]}, draws=["Kc", "Ks", "Ad", "As"])
        until(s, 1, "participate")  # the defaults discard the kings drawn and stand in phase 2
        assert s.observation(1)["hand"] == sorted(hand, key=cards_order)
        assert str(ask(s)) == expected, hand


def cards_order(code: str) -> int:
    return cards(code)[0]


def test_phase_two_draws_to_a_strong_draw_and_stands_on_a_made_hand():
    for hand, expected in ((["6h", "8h", "Th", "Qh", "3c"], "pay"), (QUADS, "stand")):
        s = new(2)
        deal_round(s, {1: hand, 0: JUNK}, draws=["Kc", "Ks", "Ad", "As"])
        until(s, 1, "stake")
        assert str(ask(s)) == expected, hand


def test_a_gain_ability_is_used_at_once():
    s = example(factions=("civilians", "military"))
    deal_round(s, {1: JUNK, 0: ["Ts", "Th", "Jd", "Qc", "Kd"]}, draws=["Kc", "8s", "Ad", "As"])
    until(s, 0, "discard")
    assert str(ask(s)) == "ability"


def test_blocks_a_multiplier_that_would_beat_it():
    """p2's Warlord (Jc, ×2 at the final scoring) lifts a pair of jacks (6) past p1's locked
    pair of sevens (7); p1 holds the Barricade (7h, block)."""
    s = example(factions=("military", "plunderers"))
    s.action_chips = [0, 0]  # no abilities: the scoring turns have nothing optional
    p1, p2 = ["7h", "7c", "Ts", "9s", "8s"], ["Jc", "Js", "4c", "5s", "6h"]
    deal_round(s, {0: p1, 1: p2}, draws=["Ac", "Ad", "As", "Kc"])
    until(s, 0, "block-window")
    assert s.observation(0)["effect"] == {"seat": 1, "card": "Jc", "kind": "multiplier"}
    assert str(ask(s)) == "block 7h"


def test_lets_a_harmless_effect_through():
    """Kh (Soup kitchen: everybody gains a chip) is no reason to spend the block."""
    s = example(factions=("military", "plunderers"))
    s.action_chips = [0, 0]
    p1, p2 = ["7h", "7c", "Ts", "9s", "8s"], ["Kh", "Js", "4c", "5s", "6h"]
    deal_round(s, {0: p1, 1: p2}, draws=["Ac", "Ad", "As", "Kc"])
    until(s, 0, "block-window")
    assert str(ask(s)) == "allow"


def test_harmful_effects_aim_at_the_chip_leader():
    s = example(3)
    deal_round(s, {1: ["5c", "3d", "4s", "5d", "6d"]}, draws=["8s", "8h", "8c", "9s", "9d", "Ts"],
               chips=[6, 10, 20])  # fmt: skip
    act(s, "discard 5c", "allow", "allow")  # Bite: one player loses a chip
    assert decision(s) == "choose-target" and s.to_act == 1
    assert str(ask(s)) == "target p3"


def test_a_leader_aims_a_loss_where_it_ends_the_game():
    """K-END-1: a player left with nothing ends the game after the round, p2 ahead."""
    s = example(3)
    deal_round(s, {1: ["5c", "3d", "4s", "5d", "6d"]}, draws=["8s", "8h", "8c", "9s", "9d", "Ts"],
               chips=[3, 20, 10], round=2)  # fmt: skip
    act(s, "discard 5c", "allow", "allow")
    assert str(ask(s)) == "target p1"


def test_the_better_structure_change_resolves_first():
    """9h (set-rank T) makes three tens (13); 8d (category up) only two pair (9). One
    structure change counts (K-SCORE-4): the bot resolves 9h first."""
    s = example(factions=("military", "plunderers"))
    s.action_chips = [0, 0]
    deal_round(s, {1: ["9h", "Ts", "Td", "4c", "8d"], 0: JUNK}, draws=["Ac", "Ad", "As", "Kc"])
    until(s, 1, "scoring")
    assert {str(a) for a in s.legal_actions()} == {"use 8d", "use 9h"}
    assert str(ask(s)) == "use 9h"


def test_peeks_before_paying(monkeypatch):
    """With content that has an any-time peek, the bot looks before it decides on phase 2."""
    text = content_with('[card.4c]\ntiming = "any"\nkind = "peek"\n')
    monkeypatch.setattr(bot_view, "content_of", lambda name: load_content(text))
    s = new(2, content=text)
    deal_round(s, {1: ["4c", "5h", "9h", "Jh", "3c"], 0: JUNK}, draws=["Kc", "Ks", "Ad", "As"])
    until(s, 1, "stake")
    assert str(ask(s)) == "use 4c"
    act(s, "use 4c")
    assert s.observation(1)["known"] == {"p1": sorted(JUNK, key=cards_order)}
    assert ask(s).verb in ("pay", "stand")


# --- strength -------------------------------------------------------------------------------


def test_heuristic_clearly_beats_random():
    """40 seeded games: 2 and 4 players, plain and example content, heuristic and random seats
    alternating and swapping every four games, so that seat order favours neither."""
    chips: dict[str, list[int]] = {"heuristic": [], "random": []}
    wins = {"heuristic": 0, "random": 0}
    for g in range(40):
        players = (2, 4)[g % 2]
        content = ("plain", "example")[g // 2 % 2]
        s = RULES.new_game(Config(players=players, content=content), 500 + g)
        names = [("heuristic", "random")[(q + g // 4) % 2] for q in range(players)]
        play_out(s, [make_bot(name, g * 10 + q, GAME) for q, name in enumerate(names)])
        assert s.result is not None
        for q, name in enumerate(names):
            chips[name].append(s.result.chips[q])
            wins[name] += q in s.result.winners
    heuristic = sum(chips["heuristic"]) / len(chips["heuristic"])
    rand = sum(chips["random"]) / len(chips["random"])
    assert heuristic > rand + 8, (heuristic, rand)
    assert wins["heuristic"] > 3 * wins["random"] + 10, wins
