"""Every effect shown, in English and German: content labels in both languages (``name`` and
``name_de``, KD-SETUP-1), steal and shield in the log (KD-EFFECT-1/2), the abilities explained
(K-SCORE-5, KD-SCORE-2), each card's effect in the hand, the card help and the rules, and the
generated card reference of the default content kept fresh."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from apokalypse.cli.ui.apokerlypse.board import hand_panel
from apokalypse.engine.errors import DataFileError
from apokalypse.games.apokerlypse import Config
from apokalypse.games.apokerlypse.cards import CODES, FACTIONS
from apokalypse.games.apokerlypse.content import (
    DEFAULT_CONTENT,
    MAX_NAME_LENGTH,
    load_content,
    parse_content,
)
from apokalypse.i18n import LANGS
from apokalypse.i18n.apokerlypse.reference import COMMAND, DOC, cards_markdown
from apokalypse.i18n.apokerlypse.render import describe_effect, effect_what
from apokalypse.i18n.apokerlypse.texts import Texts
from tests.apokerlypse.builders import act, content_with, deal_round, new

ROOT = Path(__file__).resolve().parents[2]

LABELLED = content_with(
    """[card.7h]
name = "Mugging"
name_de = "Raubzug"
timing = "any"
kind = "steal"
amount = 2

[card.3s]
name = "Foxhole"
name_de = "Schützenloch"
timing = "any"
kind = "shield"

[card.2c]
name = "Scrap"
timing = "draw"
kind = "gain"
amount = 1

[faction.military]
name_de = "Armee"
ability = { timing = "any", kind = "gain", amount = 1, name = "Supply drop", name_de = "Nachschub" }
"""
)
NAMES = ["Ann", "Bob"]
LONG = "x" * (MAX_NAME_LENGTH + 1)


def log(shield: bool, lang: str) -> list[str]:
    """Bob (to act first) shields himself or not and discards down to five; Ann steals from him
    with 7♥ and uses the military ability: the log everybody reads, in ``lang``."""
    s = new(2, 0, LABELLED)
    s.factions = (FACTIONS.index("military"), FACTIONS.index("civilians"))
    hands = {0: ["7h", "2c", "4d", "9s", "Ks"], 1: ["3s", "2d", "5c", "8h", "Jd"]}
    deal_round(s, hands, draws=["6c", "6d", "6h", "6s"])
    # With one other player the steal needs no target (KD-EFFECT-1).
    events = act(
        s, *(["use 3s"] if shield else []), "discard 6c", "discard 6d", "use 7h", "ability"
    )
    texts = Texts(s.config.to_json(), lang)
    return texts.render_events([e.view(None) for e in events], NAMES)


# --- name_de in content files ------------------------------------------------------------------


def test_kd_setup_1_name_de_labels_cards_abilities_and_factions() -> None:
    content = parse_content(LABELLED)
    mugging = content.effects[CODES.index("7h")]
    assert mugging is not None and (mugging.name, mugging.name_de) == ("Mugging", "Raubzug")
    scrap = content.effects[CODES.index("2c")]
    assert scrap is not None and scrap.name_de == ""  # optional
    military = content.factions[FACTIONS.index("military")]
    assert military.name_de == "Armee"
    assert military.ability is not None and military.ability.name_de == "Nachschub"


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ('[card.7h]\ntiming = "draw"\nkind = "peek"\nname_de = 3\n', "card '7h': field 'name_de'"),
        (
            f'[card.7h]\ntiming = "draw"\nkind = "peek"\nname_de = "{LONG}"\n',
            "card '7h': field 'name_de'",
        ),
        (
            '[card.Kd]\ntiming = "draw"\nkind = "peek"\nname_de = "a\\u001b[2J"\n',
            "card 'Kd': field 'name_de'",
        ),
        ('[faction.zombies]\nname_de = ["Untote"]\n', "faction 'zombies': field 'name_de'"),
        (
            '[faction.civilians]\nability = { timing = "any", kind = "swap", name_de = "\\n" }\n',
            "faction 'civilians'.ability: field 'name_de'",
        ),
        (
            '[card.7h]\ntiming = "draw"\nkind = "peek"\nname_fr = "Jumelles"\n',
            "card '7h': field 'name_fr'",
        ),
    ],
)
def test_kd_setup_1_a_bad_name_de_names_the_entry_and_the_field(body: str, where: str) -> None:
    with pytest.raises(DataFileError) as info:
        parse_content(content_with(body))
    assert where in str(info.value) and "\n" not in str(info.value)


# --- the log: labels by language, steal and shield ----------------------------------------------


def test_kd_effect_1_a_steal_is_announced_and_told_in_both_languages() -> None:
    en, de = log(False, "en"), log(False, "de")
    assert "Ann announces 7♥ “Mugging” (any time): take 2 chips from another player." in en
    assert "Ann takes 2 chips from Bob (now 13; Bob 9)." in en  # each paid 1 for phase 1
    assert "Ann kündigt 7♥ „Raubzug“ an (jederzeit): nimm einem anderen Spieler 2 Chips ab." in de
    assert "Ann nimmt Bob 2 Chips ab (jetzt 13; Bob 9)." in de


def test_kd_effect_2_a_shield_is_announced_and_turns_the_steal_away_in_both_languages() -> None:
    en, de = log(True, "en"), log(True, "de")
    assert "Bob announces 3♠ “Foxhole” (any time): other players' card effects pass you by" in en[0]
    assert en[1] == "Bob is shielded: other players' card effects pass them by this round."
    assert any("7♥ (Ann) does nothing — KD-EFFECT-2" in line for line in en)
    assert de[0].startswith("Bob kündigt 3♠ „Schützenloch“ an (jederzeit)")
    assert de[1] == (
        "Bob ist geschützt: Für den Rest dieser Runde wirken die Karteneffekte der anderen"
        " nicht auf Bob."
    )
    assert any("7♥ (Ann) bewirkt nichts — KD-EFFECT-2" in line for line in de)


def test_kd_score_2_an_ability_is_announced_with_its_label_and_its_chip_coming_back() -> None:
    en, de = log(True, "en"), log(True, "de")
    assert (
        "Ann uses the ability of the ♠ Military “Supply drop” (any time, one action chip, back at"
        " the end of the round): gain 1 chip from the bank." in en
    )
    assert (
        "Ann setzt die Fähigkeit der Fraktion ♠ Armee „Nachschub“ ein (jederzeit, ein Aktions-Chip,"
        " der am Ende der Runde zurückkommt): erhalte 1 Chip aus der Bank." in de
    )


def test_kd_setup_1_without_name_de_german_readers_see_name() -> None:
    scrap = parse_content(LABELLED).effects[CODES.index("2c")]
    assert scrap is not None
    assert describe_effect(scrap, "de").startswith("Scrap · beim Ziehen · ")


# --- the default content shown everywhere ---------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_kd_setup_1_every_card_and_ability_of_the_default_content_reaches_the_browser(lang: str):
    content = load_content(DEFAULT_CONTENT)
    facts = Texts(Config(players=2).to_json(), lang).cards()
    for code in CODES:
        effect = content.effects[CODES.index(code)]
        assert effect is not None, code  # the standard content gives every card an effect
        assert facts[code]["about"] == describe_effect(effect, lang), code
    for faction, own in zip(FACTIONS, content.factions, strict=True):
        assert own.ability is not None
        about = facts[faction]["about"]
        assert effect_what(own.ability.kind, own.ability.params(), lang) in about
        assert "KD-SCORE-2" in about and "K-SCORE-5" in about


@pytest.mark.parametrize("lang", LANGS)
def test_kd_setup_1_the_terminal_hand_shows_each_card_effect_and_the_ability(lang: str):
    s = new(2, 3, DEFAULT_CONTENT)
    texts = Texts(s.config.to_json(), lang)
    obs = s.observation(0)
    console = Console(width=200, record=True, color_system=None)
    console.print(hand_panel(obs, lang, NAMES, texts.content))
    shown = " ".join(console.export_text().split())  # table cells wrap; words do not
    for code in obs["hand"]:
        effect = texts.content.effects[CODES.index(code)] if texts.content else None
        assert effect is not None and " ".join(describe_effect(effect, lang).split()) in shown
    assert "KD-SCORE-2" in shown


@pytest.mark.parametrize("lang", LANGS)
def test_kd_setup_1_rules_list_every_card_effect_and_explain_the_abilities(lang: str):
    texts = Texts(Config(players=2).to_json(), lang)
    content = load_content(DEFAULT_CONTENT)
    book = texts.rulebook("7h")
    printed = texts.rules("")
    for entry in book["cards"]:
        effect = content.effects[CODES.index(entry["code"])]
        assert effect is not None and describe_effect(effect, lang) in entry["about"]
        assert describe_effect(effect, lang) in printed  # the terminal's rules list them too
    factions = next(s for s in book["sections"] if s["id"] == "factions")
    rules = {span["ref"] for block in factions["blocks"] if block["kind"] == "paragraph"
             for span in block["spans"]}  # fmt: skip
    assert {"K-SCORE-5", "KD-SCORE-2"} <= rules
    items = [b for b in factions["blocks"] if b["kind"] == "list"]
    assert len(items) == 1 and len(items[0]["items"]) == len(FACTIONS)
    seven = content.effects[CODES.index("7h")]
    assert seven is not None and book["card"] is not None
    help_text = " ".join(s["text"] for b in book["card"]["does"] if b["kind"] == "paragraph"
                         for s in b["spans"])  # fmt: skip
    assert describe_effect(seven, lang) in help_text
    assert describe_effect(seven, lang) in texts.rules("7h")  # the terminal's ``rules 7h``


def test_kd_setup_1_a_content_without_effects_has_no_effects_section() -> None:
    plain = Texts(Config(players=2, content="plain").to_json(), "de").rulebook("")
    assert "effects" not in [s["id"] for s in plain["sections"]]
    assert "In diesem Inhalt hat keine Fraktion eine Fähigkeit." in plain["text"]


# --- the generated reference ---------------------------------------------------------------


def test_kd_setup_1_the_card_reference_of_the_default_content_is_current() -> None:
    path = ROOT / DOC
    assert path.is_file(), f"{DOC} is missing: run `{COMMAND}`"
    assert path.read_text("utf-8") == cards_markdown(load_content(DEFAULT_CONTENT)), (
        f"{DOC} is stale (the content changed): run `{COMMAND}`"
    )


def test_kd_setup_1_the_card_reference_lists_every_card_and_says_whose_design_it_is() -> None:
    page = cards_markdown(load_content(DEFAULT_CONTENT))
    assert "this project's own design" in page and "KD-SETUP-1" in page
    for code in CODES:
        assert f"\n| {code} | " in page, code
    labelled = cards_markdown(parse_content(LABELLED))
    assert "| German name |" in labelled and "| Raubzug |" in labelled
    assert "[apokerlypse-cards.md](apokerlypse-cards.md)" in (
        ROOT / "docs/rules/apokerlypse.md"
    ).read_text("utf-8")
