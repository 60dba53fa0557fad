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
from apokalypse.bots.levels import LADDER
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.match import Match, play_out
from apokalypse.engine.registry import game_names
from apokalypse.games.apokerlypse import GAME as RULES
from apokalypse.games.apokerlypse import Action, Config, State
from apokalypse.games.apokerlypse.cards import parse_card
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
    return seated("example", players, factions)


def seated(content: str, players: int, factions: Sequence[str]) -> State:
    """A game of ``content`` with the factions named, each with two action chips."""
    s = new(players, content=content, factions=factions)
    if factions:
        s.action_chips = [2] * players
    return s


# --- the registry ---------------------------------------------------------------------------


def test_make_bot_knows_the_names_per_game():
    assert bot_names(GAME) == sorted(["random", "heuristic", "ismcts", *LADDER])
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


@pytest.mark.parametrize("content", ["plain", "example", "standard-2"])
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


@pytest.mark.parametrize(
    ("card", "kind"),
    [("7h", "skim"), ("Jd", "ante"), ("5h", "draw")],
)
def test_the_supply_effects_are_valued_and_used_at_once(card: str, kind: str) -> None:
    """KD-EFFECT-3/5 in "standard-2": a chip from the pot (7♥), a chip into it from another
    player (J♦) and one more card (5♥) are worth having now: the heuristic uses them at its
    first decision of the round, before it discards."""
    s = seated("standard-2", 2, ("zombies", "plunderers"))
    s.action_chips = [0, 0]  # no abilities: only the card is on offer
    hand = ["3h", "Kh", "2d", "5d", card]  # the others are timed "when drawn": dealt, silent
    deal_round(s, {0: hand, 1: ["Td", "Ad", "2c", "7c", "Ac"]}, draws=["9h", "6c", "8c", "Ks"])
    until(s, 0, "discard")
    s.action_chips = [0, 0]
    effect = load_content("standard-2").effects[parse_card(card)]
    assert effect is not None and effect.kind == kind
    assert str(ask(s)) == f"use {card}"


def test_blocks_a_multiplier_that_would_beat_it():
    """p2's Warlord (Jc, ×2 at the final scoring) lifts a pair of jacks (6) past p1's locked
    pair of sevens (7); p1 holds the Barricade (7h, block)."""
    s = example(factions=("military", "plunderers"))
    p1, p2 = ["7h", "7c", "Ts", "9s", "8s"], ["Jc", "Js", "4c", "5s", "6h"]
    deal_round(s, {0: p1, 1: p2}, draws=["Ac", "Ad", "As", "Kc"])
    s.action_chips = [0, 0]  # no abilities: the scoring turns have nothing optional
    until(s, 0, "block-window")
    assert s.observation(0)["effect"] == {"seat": 1, "card": "Jc", "kind": "multiplier"}
    assert str(ask(s)) == "block 7h"


def test_lets_a_harmless_effect_through():
    """Kh (Soup kitchen: everybody gains a chip) is no reason to spend the block."""
    s = example(factions=("military", "plunderers"))
    p1, p2 = ["7h", "7c", "Ts", "9s", "8s"], ["Kh", "Js", "4c", "5s", "6h"]
    deal_round(s, {0: p1, 1: p2}, draws=["Ac", "Ad", "As", "Kc"])
    s.action_chips = [0, 0]  # after the deal: chips come back each round (KD-SCORE-2)
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
    deal_round(s, {1: ["9h", "Ts", "Td", "4c", "8d"], 0: JUNK}, draws=["Ac", "Ad", "As", "Kc"])
    s.action_chips = [0, 0]  # after the deal: chips come back each round (KD-SCORE-2)
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


@pytest.mark.long(34)
# Untraced for coverage: a strength measure over many games, on paths the other tests trace.
@pytest.mark.no_cover
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


# --- steal and shield (KD-EFFECT-1/2), abilities every round (KD-SCORE-2) -----------------------

# The first edition's ("standard") cards without an any-time effect (final or discard timing): a
# hand of them leaves the faction ability and the card under test as the only effects to use now.
QUIET = ["4s", "6h", "9c", "Ts", "6c"]
QUIET_DRAWS = ["Jd", "9h", "Kc", "Jh"]


def standard(players: int = 2, factions: Sequence[str] = ()) -> State:
    return seated("standard", players, factions)


def test_the_shield_ability_is_raised_at_the_first_decision_of_the_round():
    """KD-EFFECT-2, KD-SCORE-2: the Military shield guards the whole round and its chip comes
    back at the end of it, so it goes up at once, and once only."""
    s = standard(factions=("military", "civilians"))
    deal_round(s, {0: QUIET}, draws=QUIET_DRAWS)
    until(s, 0, "discard")
    assert str(ask(s)) == "ability"
    act(s, "ability")
    until(s, 0, "discard")
    assert s.observation(0)["modifiers"][0]["shielded"]
    assert ask(s).verb == "discard"


def test_a_shield_card_goes_up_early_and_waits_while_a_shield_is_up():
    """KD-EFFECT-2: 5s (Gas mask, any time) is raised before the money is decided; a seat
    already shielded this round keeps it."""
    for shielded, expected in ((False, "use 5s"), (True, "discard")):
        s = standard(factions=("civilians", "plunderers"))
        deal_round(s, {0: ["5s", *QUIET[1:]]}, draws=QUIET_DRAWS)
        s.action_chips = [0, 0]  # no abilities left this round
        s.mods[0] = s.mods[0]._replace(shielded=shielded)
        until(s, 0, "discard")
        assert str(ask(s)).startswith(expected), shielded


def test_an_any_time_steal_is_used_at_once_and_takes_from_the_chip_leader():
    """KD-EFFECT-1: 4d (Pickpocket, steal 1) is chips now; the chip goes from the leader."""
    s = standard(3, factions=("military", "plunderers", "civilians"))
    deal_round(s, {1: ["4d", *QUIET[1:]]}, draws=[*QUIET_DRAWS, "4s", "Js"],
               chips=[6, 10, 20])  # fmt: skip
    s.action_chips = [0, 0, 0]  # no abilities this round
    until(s, 1, "discard")
    assert str(ask(s)) == "use 4d"
    act(s, "use 4d")
    until(s, 1, "choose-target")
    assert str(ask(s)) == "target p3"


def test_a_leader_steals_the_last_chip_where_it_ends_the_game():
    """K-END-1 with KD-EFFECT-1: taking a player's last chip ends the game after the round,
    the stealing seat ahead."""
    s = standard(3, factions=("military", "plunderers", "civilians"))
    deal_round(s, {1: ["4d", *QUIET[1:]]}, draws=[*QUIET_DRAWS, "4s", "Js"],
               chips=[3, 20, 10], round=2)  # fmt: skip
    s.action_chips = [0, 0, 0]
    until(s, 1, "discard")
    act(s, "use 4d")
    until(s, 1, "choose-target")
    assert s.observation(1)["chips"][0] == 1  # after paying the round's cost
    assert str(ask(s)) == "target p1"


def test_a_steal_card_waits_while_every_other_player_is_shielded():
    """KD-EFFECT-2: a card's steal passes a shielded player by; with nobody to take from, the
    card is kept for later instead of spent."""
    s = standard(factions=("civilians", "military"))
    deal_round(s, {0: ["4d", *QUIET[1:]]}, draws=QUIET_DRAWS)
    s.action_chips = [0, 0]
    s.mods[1] = s.mods[1]._replace(shielded=True)
    until(s, 0, "discard")
    assert s.observation(0)["modifiers"][1]["shielded"]
    assert ask(s).verb == "discard"


# --- the searching player ----------------------------------------------------------------------


def searched(s: State, spec: str = "hard:40") -> tuple[Action, Any]:
    """The searching player's answer for the seat on turn (a small budget: the machinery,
    not the strength), with its explanation."""
    player: Any = make_bot(spec, 3, GAME)
    match: Match[Action, Any] = Match(s, {s.to_act: player})
    match.start()
    action: Action = match.ask()
    assert action in s.legal_actions()
    return action, player.last


def test_the_searching_player_pays_and_drops_as_the_heuristic_does():
    """Before the final scoring the heuristic's odds decide (the search's sampled hands are
    not the best the others kept): a junk hand drops, four nines take part, and no search is
    spent on a choice it could not change."""
    for hand, expected in ((JUNK, "drop"), (QUADS, "pay")):
        s = new(2)
        deal_round(s, {1: hand, 0: ["Ts", "Th", "Jd", "Qc", "Kh"]}, draws=["Kc", "Ks", "Ad", "As"])
        until(s, 1, "participate")
        action, why = searched(s)
        assert str(action) == expected and why.anchor == expected, hand
        assert (why.iterations, why.candidates) == (0, ())


def test_the_searching_player_finds_the_better_structure_change_in_the_scoring():
    """In the final scoring every hand is face up and the search decides: 9h (three tens)
    before 8d (two pair), as K-SCORE-4 lets only one structure change count."""
    s = example(factions=("military", "plunderers"))
    deal_round(s, {1: ["9h", "Ts", "Td", "4c", "8d"], 0: JUNK}, draws=["Ac", "Ad", "As", "Kc"])
    s.action_chips = [0, 0]
    until(s, 1, "scoring")
    action, why = searched(s, "hard:200")
    assert str(action) == "use 9h"
    assert max(why.candidates, key=lambda c: c.visits).action == "use 9h"  # the search's own
