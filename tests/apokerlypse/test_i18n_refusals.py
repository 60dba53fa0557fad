"""Apokerlypse's refusals in the player's language: the texts' values, real refusals in process and
in a German terminal game, and the refusals of random games. (That every game's keys have texts for
the parameters they are raised with: tests/test_i18n_refusals.py.)"""

from __future__ import annotations

import random

import pytest

from apokalypse.engine.errors import IllegalAction, ParamValue
from apokalypse.games.apokerlypse import GAME as POKER
from apokalypse.games.apokerlypse.cards import CODES
from apokalypse.games.apokerlypse.content import content_text
from apokalypse.i18n import LANGS, has
from apokalypse.i18n.apokerlypse import render as poker_text
from tests.apokalypse.test_cli_play import play
from tests.apokerlypse import builders as poker_builders
from tests.helpers import refusal
from tests.test_i18n_refusals import flat

# A plausible value for every parameter name the rules' refusals use (tests/test_i18n_refusals.py).
PARAM_SAMPLES: dict[str, ParamValue] = {
    "seat": 1, "card": "Th", "cost": 2, "count": 5, "timing": "draw",
    "faction": "zombies", "verb": "give", "action": "use 7h",
}  # fmt: skip


# --- texts -------------------------------------------------------------------------------------


def test_params_are_rendered_with_the_games_names():
    poker = poker_text.refusal_values({"card": "Th", "cost": 1, "count": 5, "seat": 3}, "de")
    assert poker == {"card": "10♥", "cost": "1 Chip", "count": "5 Karten", "seat": "p4"}


# --- real refusals -----------------------------------------------------------------------------


def test_apokerlypse_pay_when_short_in_german_and_english():
    """K-SHORT-1: a player short in phase 2 (the cost is decided per phase) cannot pay in it."""
    s = poker_builders.new(2)
    low = {0: ["2c", "3d", "4h", "5s", "7c"], 1: ["2d", "3h", "4s", "5c", "8d"]}
    poker_builders.deal_round(s, low, draws=["9c", "9d", "Tc", "Td"], chips=[12, 2], round=2)
    poker_builders.play_until(s, "stake")
    assert s.to_act == 1 and s.short[1]
    exc = refusal(lambda: poker_builders.act(s, "pay"))
    assert (exc.rule, exc.key) == ("K-SHORT-1", "pay.short")
    de = poker_text.render_refusal(exc, "de")
    assert de.startswith("Nicht erlaubt — K-SHORT-1 (wer nicht zahlen kann")
    assert "Du leidest in dieser Zieh-Phase Ressourcenmangel: Deine Hand bleibt" in de
    assert exc.message in poker_text.render_refusal(exc, "en")


def test_apokerlypse_cards_and_chips_in_refusals():
    s = poker_builders.new(2)
    low = {0: ["2c", "3d", "4h", "5s", "7c"], 1: ["2d", "3h", "4s", "5c", "8d"]}
    poker_builders.deal_round(s, low, draws=["9c", "9d"])
    exc = refusal(lambda: poker_builders.act(s, "discard Th"))
    assert exc.key == "discard.not-held" and exc.message == "you hold no Th"
    assert "10♥ hast du nicht auf der Hand" in poker_text.render_refusal(exc, "de")
    exc = refusal(lambda: poker_builders.act(s, "done"))
    assert exc.key == "discard.first"
    assert "wirf zuerst ab bis auf 5 Karten" in poker_text.render_refusal(exc, "de")


def test_refusals_of_random_apokerlypse_games_have_keys_and_render():
    seen: set[str] = set()
    pool = ["pay", "stand", "drop", "ability", "done", "allow", "target p2", "target p5"]
    pool += [f"{v} {c}" for v in ("discard", "use", "give", "swap", "block") for c in CODES]
    for seed in range(8):
        config = POKER.config_from_options(2 + seed % 3, [], content_text("example"))
        s = POKER.new_game(config, seed)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_actions()
            for action in map(POKER.parse_action, rng.sample(pool, 8)):
                if action in legal:
                    continue
                with pytest.raises(IllegalAction) as info:
                    s.apply(action)
                key = f"apokerlypse.refusal.{info.value.key}"
                assert info.value.key is not None and has(key, "de")
                seen.add(info.value.key)
                for lang in LANGS:
                    assert "{" not in poker_text.render_refusal(info.value, lang), info.value
            s.apply(rng.choice(legal))
    assert len(seen) >= 20


# --- the terminal game -------------------------------------------------------------------------


def test_apokerlypse_terminal_game_shows_german_reasons(tmp_path):
    args = "--game apokerlypse --lang de -p 2 --bots random --seed 4 --save spiel.json"
    run = play(tmp_path, args, "done\nuse 2c\n")
    assert run.returncode == 0, run.stderr
    out = flat(run.stdout)
    assert "Nicht erlaubt — K-ROUND-2 (" in out and "wirf zuerst ab bis auf 5 Karten." in out
    assert "2♣ hast du nicht auf der Hand." in out
    assert "discard down to" not in out and "you hold no" not in out
