"""Apokalypse's refusals in the player's language: the texts' values, the English fallback, real
refusals in process and in a German terminal game, and the refusals of random games. (That every
game's keys have texts for the parameters they are raised with: tests/test_i18n_refusals.py.)"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from apokalypse.engine.errors import IllegalAction, ParamValue
from apokalypse.games.apokalypse import GAME, Config
from apokalypse.games.apokalypse.cards import default_deck_text, parse_deck
from apokalypse.i18n import LANGS, has, refusal_reason
from apokalypse.i18n.apokalypse import render as apo_text
from tests.apokalypse import builders
from tests.apokalypse.test_cli_play import play
from tests.helpers import refusal
from tests.test_i18n_refusals import flat

# A plausible value for every parameter name the rules' refusals use (tests/test_i18n_refusals.py).
PARAM_SAMPLES: dict[str, ParamValue] = {
    "seat": 1, "side": 1, "plane": 0, "pos": 0, "card": "m/hp", "use": "heaven",
    "verb": "give", "example": "target p2.good",
}  # fmt: skip


# --- texts and fallback ------------------------------------------------------------------------


def test_without_a_key_or_a_text_the_english_message_is_shown():
    for exc in (
        IllegalAction("R-PLAY-5", "the English reason"),
        IllegalAction("R-PLAY-5", "the English reason", key="no.such-key"),
    ):
        line = apo_text.render_refusal(exc, "de")
        assert line.startswith("Nicht erlaubt — R-PLAY-5 (") and "the English reason" in line


def test_unreadable_params_fall_back_instead_of_crashing():
    exc = IllegalAction("R-PLAY-5", "the English reason", key="steal.no-cards",
                        params={"seat": "p3"})  # fmt: skip
    assert "{" not in apo_text.render_refusal(exc, "de")  # a text seat is shown as it is

    def broken(params: Mapping[str, ParamValue], lang: str) -> Mapping[str, Any]:
        raise KeyError("seat")

    assert refusal_reason(exc, "de", apo_text.P, broken) == "the English reason"


def test_params_are_rendered_with_the_games_names():
    values = apo_text.refusal_values(
        {"seat": 1, "side": 1, "plane": 2, "pos": 0, "card": "job/drugs", "use": "nether"}, "de"
    )
    assert values["seat"] == "p2" and values["side_f"] == "böse"
    assert values["place"] == "Höllenebene von p2, böse Seite, Position 0"
    assert values["card"] == "Arbeit/Drogen" and values["use"] == "Höllenkarte"
    assert apo_text.refusal_values({"seat": 0, "side": "good"}, "en")["place"] == "p1's good side"


# --- real refusals -----------------------------------------------------------------------------


def test_evil_heaven_without_netherworld_in_german_and_english():
    """R-PLAY-8: a Heaven card on the evil side needs a Netherworld card below."""
    s = builders.blank(4)
    builders.populaces(s, 0, good=1, evil=1)
    builders.hand(s, 0, "m/hp")
    builders.act(s, "play m/hp heaven")
    exc = refusal(lambda: builders.act(s, "target p1.evil.heaven"))
    assert (exc.rule, exc.key) == ("R-PLAY-8", "play.evil-heaven-needs-nether")
    assert exc.message == "p1.evil.heaven: evil Heaven needs a Netherworld card below"
    de = apo_text.render_refusal(exc, "de")
    assert de.startswith("Nicht erlaubt — R-PLAY-8 (gute Himmelsebene braucht")
    assert "Himmelsebene von p1, böse Seite: " in de and "Höllenkarte darunter" in de
    assert "Netherworld" not in de
    en = apo_text.render_refusal(exc, "en")
    assert "p1's Heaven row, evil side: evil Heaven needs a Netherworld card below." in en


def test_good_populace_with_one_card_in_hand_in_german_and_english():
    """R-PLAY-4: a good populace obliges a gift, so it needs a second card in hand."""
    s = builders.blank(4)
    builders.hand(s, 0, "m/hp")
    exc = refusal(lambda: builders.act(s, "play m/hp good"))
    assert (exc.rule, exc.key) == ("R-PLAY-4", "play.good-needs-gift")
    de = apo_text.render_refusal(exc, "de")
    assert "guten Bevölkerungsanteil brauchst du noch eine andere Handkarte" in de
    assert exc.message in apo_text.render_refusal(exc, "en")  # English says what the engine says


def test_card_codes_become_card_names():
    s = builders.blank(4)
    builders.hand(s, 0, "m/hp")
    exc = refusal(lambda: builders.act(s, "play metal heaven"))
    assert exc.key == "play.not-held" and exc.params == {"card": "metal"}
    assert "„Heavy-Metal“ hast du nicht auf der Hand" in apo_text.render_refusal(exc, "de")
    assert "you hold no “Heavy Metal”" in apo_text.render_refusal(exc, "en")


def _apokalypse_pool() -> list[str]:
    codes = [*sorted({kind.code for kind in parse_deck(default_deck_text())}), "nothing"]
    uses = ("good", "evil", "heaven", "nether", "attack", "neutralise")
    pool = ["pass", "decline", *(f"play {c} {u}" for c in codes for u in uses)]
    pool += [f"{verb} {c}" for verb in ("give", "defend") for c in codes]
    pool += [f"{verb} p{q}" for verb in ("to", "steal") for q in range(1, 8)]
    for q in range(1, 8):
        for side in ("good", "evil"):
            pool.append(f"target p{q}.{side}")
            for plane in ("heaven", "earth", "nether"):
                pool += [f"target p{q}.{side}.{plane}{pos}" for pos in ("", ".0", ".1", ".3")]
    return pool


def test_refusals_of_random_apokalypse_games_have_keys_and_render():
    """Illegal actions tried at the decisions of random games: each refusal has a key with a
    text, and renders without a gap in both languages."""
    seen: set[str] = set()
    pool = _apokalypse_pool()
    for seed in range(8):
        s = GAME.new_game(Config(players=2 + seed % 5), seed)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_actions()
            for action in map(GAME.parse_action, rng.sample(pool, 8)):
                if action in legal:
                    continue
                with pytest.raises(IllegalAction) as info:
                    s.apply(action)
                assert info.value.key is not None and has(
                    f"apokalypse.refusal.{info.value.key}", "de"
                )
                seen.add(info.value.key)
                for lang in LANGS:
                    assert "{" not in apo_text.render_refusal(info.value, lang), info.value
            s.apply(rng.choice(legal))
    assert len(seen) >= 25  # the random refusals reach a good part of the keys


# --- the terminal game -------------------------------------------------------------------------


def test_terminal_game_shows_german_reasons(tmp_path):
    answers = "play nonsense heaven\ngive metal\npass\n"
    run = play(tmp_path, "--lang de --players 2 --bots random --seed 2 --save spiel.json", answers)
    assert run.returncode == 0, run.stderr
    out = flat(run.stdout)
    assert "Nicht erlaubt — R-TURN-1 (wer am Zug ist" in out
    assert "eine Karte „nonsense“ gibt es in diesem Spiel nicht." in out
    assert "am Zug spielst du eine Karte aus oder passt, nicht 'give'." in out
    assert "there is no card" not in out and "on a turn you play" not in out
