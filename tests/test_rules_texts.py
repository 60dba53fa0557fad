"""The rules help of both games from one source (the catalogs' ``[rules]`` sections in the markup
of ``i18n/rulebook.py``): its structure in both languages, the terminal's rendering, each card's
help from the rules' own tables, and the corrections of the short rules against the rulebooks,
each in English and German."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from apokalypse.engine.registry import game_names, get_game
from apokalypse.games.apokalypse.cards import deck_kinds, default_deck_text
from apokalypse.games.apokalypse.roles import DEFENDERS, ROLES
from apokalypse.games.apokerlypse.cards import CODES
from apokalypse.i18n import LANGS
from apokalypse.i18n.apokalypse import rules as apokalypse_rules
from apokalypse.i18n.rulebook import Rulebook, Section, Span, blocks, plain_blocks, section_text
from apokalypse.i18n.texts import texts_for
from tests.rule_ids import names

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"
KINDS = deck_kinds(default_deck_text())
ICONS = {"mask", "helmet", "pig", "music", "seal"}  # the icons the browser draws (ui/icons.tsx)


def book(game: str, lang: str, card: str = "") -> Rulebook:
    config = get_game(game).config_from_options(2, [], None)
    return texts_for(game, config.to_json(), lang).rulebook(card)


def section(game: str, lang: str, key: str) -> str:
    found = [s for s in book(game, lang)["sections"] if s["id"] == key]
    assert found, f"{game} has no section {key!r} in {lang}"
    return section_text(found[0])


def card_text(code: str, lang: str) -> str:
    card = book("apokalypse", lang, code)["card"]
    assert card is not None
    return "\n".join(plain_blocks(card["does"]))


def spans_of(sections: list[Section]) -> list[Span]:
    out: list[Span] = []
    for s in sections:
        for block in s["blocks"]:
            runs = [block["spans"]] if block["kind"] == "paragraph" else block["items"]
            out.extend(span for run in runs for span in run)
    return out


# --- the structure -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", game_names())
def test_every_section_has_a_title_and_content_and_both_languages_the_same_sections(game: str):
    english, german = book(game, "en"), book(game, "de")
    assert [s["id"] for s in english["sections"]] == [s["id"] for s in german["sections"]]
    assert len(english["sections"]) >= 5
    for lang, rules in (("en", english), ("de", german)):
        assert rules["lang"] == lang and rules["game"] == game and rules["title"]
        for s in rules["sections"]:
            assert s["title"].strip(), (lang, s["id"])
            assert s["blocks"], (lang, s["id"])
            for block in s["blocks"]:
                runs = [block["spans"]] if block["kind"] == "paragraph" else block["items"]
                assert runs and all(run and "".join(x["text"] for x in run).strip() for run in runs)
    assert english["text"] != german["text"]


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("lang", LANGS)
def test_every_card_of_the_game_is_in_the_card_list(game: str, lang: str):
    cards = book(game, lang)["cards"]
    codes = [c["code"] for c in cards]
    assert codes == (list(KINDS) if game == "apokalypse" else list(CODES))
    assert all(c["name"] for c in cards)
    if game == "apokalypse":
        names_ = {c["code"]: c["name"] for c in cards}
        assert names_["metal"] == {"en": "Heavy Metal", "de": "Heavy-Metal"}[lang]


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("lang", LANGS)
def test_the_markup_is_resolved_and_names_real_icons_cards_and_rules(game: str, lang: str):
    rules = book(game, lang)
    assert "[icon:" not in rules["text"] and "[card:" not in rules["text"]
    assert "{" not in rules["text"], "a placeholder left unfilled"
    docs = (DOCS / f"{game}.md").read_text("utf-8")
    spans = spans_of(rules["sections"])
    kinds = {span["kind"] for span in spans}
    assert {"text", "rule"} <= kinds
    for span in spans:
        if span["kind"] == "rule":
            assert names(span["ref"], docs), f"{span['ref']} is not in docs/rules/{game}.md"
        elif span["kind"] == "icon":
            assert span["ref"] in ICONS and span["text"] and "." not in span["text"]  # not a key
        elif span["kind"] == "card":
            assert span["ref"] in KINDS and span["text"] not in ("", span["ref"])
    if game == "apokalypse":
        assert {"icon", "card"} <= kinds


def test_the_markup_makes_paragraphs_lists_and_tokens():
    markup = "A [icon:mask] (R-PLAY-8)\nstill A.\n\n- one [card:metal]\n- two\nB"
    made = blocks(markup, lambda kind, ref: kind.upper())
    assert [b["kind"] for b in made] == ["paragraph", "list", "paragraph"]
    first = made[0]
    assert first["kind"] == "paragraph"
    assert [(s["kind"], s["text"]) for s in first["spans"]] == [
        ("text", "A "),
        ("icon", "ICON"),
        ("text", " ("),
        ("rule", "R-PLAY-8"),
        ("text", ") still A."),
    ]
    assert plain_blocks(made) == ["A ICON (R-PLAY-8) still A.", "• one CARD", "• two", "B"]
    ids = blocks("K-Karte, V-GOOD-TIES", lambda kind, ref: ref)[0]
    assert ids["kind"] == "paragraph" and [s["kind"] for s in ids["spans"]] == ["text", "rule"]


# --- the terminal's rendering --------------------------------------------------------------------


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("lang", LANGS)
def test_the_terminal_prints_the_same_rules_with_its_hint_about_commands(game: str, lang: str):
    config = get_game(game).config_from_options(2, [], None)
    texts = texts_for(game, config.to_json(), lang)
    printed, rules = texts.rules(""), texts.rulebook("")
    hint = {"en": '"help"', "de": "„hilfe“"}[lang]
    assert printed.startswith(rules["text"]) and hint in printed.removeprefix(rules["text"])
    assert hint not in rules["text"]  # the browser's rendering has no commands
    for s in rules["sections"]:
        assert s["title"].upper() in printed


def test_the_terminal_prints_one_cards_rules_from_the_same_help():
    printed = apokalypse_rules.card_rules("violence", KINDS, "en")
    assert printed.startswith("Violence [violence]")
    assert "Fended off by: Heavy Metal, Church hymns, Ethos change (R-ATTACK-4)" in printed
    assert "defends against: Ethos change" in printed
    german = apokalypse_rules.card_rules("ethos", KINDS, "de")
    assert "Kann nicht treffen: Besonders guter Mensch, Besonders böser Mensch" in german
    unknown = apokalypse_rules.card_rules("joker", KINDS, "en")
    assert unknown.startswith("There is no card “joker”")


# --- each card's help ----------------------------------------------------------------------------


@pytest.mark.parametrize("code", list(KINDS))
def test_r_attack_4_each_cards_help_says_where_it_goes_and_what_defends_from_the_tables(code: str):
    kind = KINDS[code]
    for lang in LANGS:
        card = book("apokalypse", lang, code)["card"]
        assert card is not None and card["code"] == code and card["does"]
        uses = [use["use"] for use in card["uses"]]
        assert set(ROLES[kind.role].uses) <= set(uses)
        assert all(use["rules"] and use["label"] and use["places"] for use in card["uses"])
        defended_by = {KINDS[ref["code"]].role for ref in card["defended_by"]}
        assert defended_by == set(DEFENDERS.get(kind.role, ()))
        defends = {KINDS[ref["code"]].role for ref in card["defends"]}
        assert defends == (set() if kind.role == "seal" else set(ROLES[kind.role].defends))
    if kind.role == "seal":  # R-REWARD-3: never from hand, played like the music it is
        card = book("apokalypse", "en", code)["card"]
        assert card is not None and all("R-REWARD-3" in use["rules"] for use in card["uses"])


def test_apokerlypse_card_help_tells_its_bonus():
    card = book("apokerlypse", "de", "Ah")["card"]
    assert card is not None and card["name"] == "A♥"
    assert "Kartenbonus: 2 Punkte" in "\n".join(plain_blocks(card["does"]))
    assert book("apokerlypse", "en", "Zz")["card"] is None


# --- the corrections, checked against the 2009 rules ---------------------------------------------


def test_r_deal_5_horseman_rides_after_both_decks_dealt_en_de():
    english = section("apokalypse", "en", "horsemen")
    german = section("apokalypse", "de", "horsemen")
    assert "rides once, after both decks have been dealt (R-DEAL-5)" in english
    assert "nachdem beide Talons ausgeteilt wurden (R-DEAL-5)" in german
    for lang, at_once in (("en", "at once"), ("de", "sofort")):
        assert at_once not in section("apokalypse", lang, "horsemen")


def test_r_end_6_everybody_has_the_same_ethos_en_de():
    english = section("apokalypse", "en", "end")
    german = section("apokalypse", "de", "end")
    assert re.search(
        r"everybody has the same ethos .*only if that ethos has more populaces"
        r".*otherwise everybody loses \(R-END-6\)",
        english,
    )
    assert re.search(
        r"alle haben dieselbe Gesinnung .*nur, wenn diese Gesinnung mehr"
        r" Bevölkerungsanteile .*sonst haben alle verloren \(R-END-6\)",
        german,
    )
    for text in (english, german):  # the three cases of the table as well
        assert all(rule in text for rule in ("R-END-4", "R-END-5"))


def test_r_play_5_the_evil_deed_must_steal_en_de():
    english = section("apokalypse", "en", "deeds")
    german = section("apokalypse", "de", "deeds")
    assert "must steal a random card" in english and "lets you steal" not in english
    assert re.search(r"muss einem Mitspieler eine zufällige Handkarte stehlen \(R-PLAY-5\)", german)
    assert "must steal" in card_text("fiend", "en") and "musst stehlen" in card_text("fiend", "de")


def test_r_reward_1_r_reward_2_ties_and_death_gives_no_seal_en_de():
    english = section("apokalypse", "en", "reckoning")
    german = section("apokalypse", "de", "reckoning")
    assert "If two or three tie, each receives one; if more than three tie, nobody does" in english
    assert "with the same rule for ties" in english and "Death gives no seal" in english
    assert "zwei oder drei Spieler die beste, bekommt jeder eine" in german
    assert "mehr als drei, bekommt niemand eine" in german
    assert (
        "bei Gleichstand nach derselben Regel" in german and "Der Tod bringt kein Siegel" in german
    )


def test_r_play_15_d_reward_2_a_neutralising_seal_returns_to_the_supply_en_de():
    english = section("apokalypse", "en", "music")
    german = section("apokalypse", "de", "music")
    assert (
        "a seal, whether neutralised or used to neutralise, returns to the seal supply" in english
    )
    assert "ein Siegel, ob neutralisiert oder zum Neutralisieren gespielt, geht zurück in" in german
    for lang, supply in (("en", "supply"), ("de", "Vorrat")):
        for code in ("seal", "metal", "church"):
            text = card_text(code, lang)
            assert supply in text and "D-REWARD-2" in text, (lang, code)
            assert "both are discarded" not in text and "beide werden abgelegt" not in text


def test_k_short_1_k_round_4_endwertung_and_ressourcenmangel_as_the_rulebook_says_en_de():
    german = book("apokerlypse", "de")["text"]
    english = book("apokerlypse", "en")["text"]
    assert "Ressourcenmangel (K-SHORT-1)" in german and "Endwertung" in german
    assert "Schlusswertung" not in german and "knapp" not in german
    assert "is short in that phase (K-SHORT-1)" in english and "final scoring" in english
    titles = [s["title"] for s in book("apokerlypse", "de")["sections"]]
    assert "Ressourcenmangel" in titles and "Endwertung" in titles
