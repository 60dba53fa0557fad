"""Apokerlypse's texts checked against the rulebook (the seed's v1.5 rules) in both languages: the
game's end says a player ran out of chips *during* the round (K-END-1: a player who wins chips
back still ended the game), the discard limit keeps "unless an effect allows otherwise"
(K-ROUND-2), free participation cites its own rule (KD-ROUND-1), and the faction ability's
action chip reads plainly (KD-SCORE-2)."""

from __future__ import annotations

from pathlib import Path

from apokalypse.engine.events import Event
from apokalypse.games.apokerlypse import GAME as POKER
from apokalypse.i18n import seat_names, text
from apokalypse.i18n.apokerlypse import render as poker_text
from apokalypse.i18n.apokerlypse.rules import short_rules

WEB = Path(__file__).parents[2] / "web" / "src"
CONFIG = POKER.config_from_options(2, [], None)


def _web_words(lang: str) -> str:
    """The page's own words of one language (web/src/i18n.ts: ``const en`` … ``const de``)."""
    english, german = (WEB / "i18n.ts").read_text(encoding="utf-8").split("\nconst de", 1)
    return english if lang == "en" else german


def test_k_end_1_the_end_says_the_player_ran_out_during_the_round():
    """K-END-1: "sobald ein Spieler keine Chips mehr besitzt, endet das Spiel nach Abschluss der
    aktuellen Runde": who ran out may end with chips won back (12, say), so the end says they
    ran out during the round, not that they have none."""
    over = {"winners": [1], "chips": [12, 12], "rounds": 3, "reason": "no-chips", "broke": [0]}
    names = seat_names(2, None, "en", ["Ann", "Bob"])
    said = {
        "en": "Ann ran out of chips during that round",
        "de": "Im Lauf dieser Runde sind Ann die Chips ausgegangen",
    }
    for lang, words in said.items():
        line = poker_text.render_view(Event("game-over", over).view(None), lang, names)
        assert words in line, line
        assert "had no chips left" not in line and "keine Chips mehr hat" not in line
    assert poker_text.game_over_reason(over, "en", names) == (
        "Ann ran out of chips during dealer round 3"
    )
    assert poker_text.game_over_reason(over, "de", names) == (
        "im Lauf von Geberrunde 3 sind Ann die Chips ausgegangen"
    )
    page = {
        "en": "{names} ran out of chips during dealer round {rounds}",
        "de": "die Chips ausgegangen",
    }
    for lang, words in page.items():
        assert words in _web_words(lang), lang
    assert "Ein Spieler hat keine Chips mehr." not in _web_words("de")


def test_k_round_2_the_discard_limit_yields_to_effects_in_the_rulebook():
    """K-ROUND-2: "Jeder Spieler reduziert seine Hand anschließend auf maximal fünf Karten,
    sofern kein Effekt etwas anderes erlaubt": four standard cards raise the limit."""
    said = {
        "en": "unless an effect allows otherwise",
        "de": "sofern kein Effekt etwas anderes erlaubt",
    }
    for lang, words in said.items():
        rules = " ".join(short_rules(CONFIG, lang).split())
        phases = rules.count(words)
        assert phases == 2, rules  # phase 1 and phase 2
        assert words in text("apokerlypse.rule.K-ROUND-2", lang)


def test_kd_round_1_free_participation_cites_its_own_rule():
    """KD-ROUND-1, not K-ROUND-4 (paying to take part), admits a player short of chips free."""
    for lang, free in (("en", "takes part for free"), ("de", "nimmt umsonst teil")):
        body = text("apokerlypse.rules.section.phase3.body", lang)
        assert f"{free} (KD-ROUND-1)" in body, body
        assert "(K-ROUND-4)" in body  # paying the cost to take part stays K-ROUND-4


def test_kd_score_2_the_ability_says_plainly_what_its_action_chip_does():
    """KD-SCORE-2: using the ability lays one action chip down; the chips come back at the end of
    the round. "Once per round, for one action chip that comes back …" did not say that."""
    said = {
        "en": "Usable once per round: each use lays down one of your action chips, and you get"
        " it back when the round ends",
        "de": "Einmal pro Runde einsetzbar: Jeder Einsatz legt einen deiner Aktions-Chips ab,"
        " und am Ende der Runde bekommst du ihn zurück",
    }
    for lang, words in said.items():
        line = text("apokerlypse.ui.ability", lang, name="", timing="x", what="y")
        assert words in line, line
        assert "(K-SCORE-5, KD-SCORE-2)" in line
