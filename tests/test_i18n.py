"""Message catalogs: both languages complete and consistent, every engine event and refusal
renders, and secrecy in rendered text follows ``Event.view``."""

from __future__ import annotations

import random
import re
import string
from importlib import resources
from pathlib import Path

import pytest

import apokalypse.games.apokalypse as game_pkg
import apokalypse.games.apokerlypse as poker_pkg
from apokalypse.engine.errors import ConfigError, IllegalAction
from apokalypse.engine.events import Event
from apokalypse.games.apokalypse import GAME, Config
from apokalypse.games.apokalypse.cards import default_deck_text, parse_deck
from apokalypse.games.apokerlypse import GAME as POKER
from apokalypse.games.apokerlypse.cards import FACTIONS, SUITS
from apokalypse.games.apokerlypse.content import KINDS, TIMINGS, content_text
from apokalypse.games.apokerlypse.pending import STEP_NAMES
from apokalypse.games.apokerlypse.poker import CATEGORIES
from apokalypse.i18n import LANGS, catalog, check_lang, plural, text
from apokalypse.i18n import apokerlypse as poker_text
from apokalypse.i18n import apokerlypse_choices as poker_choices
from apokalypse.i18n.render import (
    card_name,
    card_short,
    describe_card,
    render_action,
    render_event,
    render_events,
    render_refusal,
    rule_title,
    seat_names,
)

GAME_SOURCES = sorted(Path(game_pkg.__file__).parent.glob("*.py"))
NAMES = ["p1", "p2", "p3", "p4"]

# One example of every event kind, with its secret where the engine gives it one.
SAMPLES: dict[str, Event] = {
    e.kind: e
    for e in [
        Event("pass", {"actor": 0}),
        Event("populace", {"actor": 0, "seat": 1, "side": 0}, {"card": "m/hp"}, frozenset({0})),
        Event("person", {"actor": 0, "seat": 1, "side": 1, "card": "fiend"}),
        Event("no-steal", {"actor": 2}),
        Event(
            "gift", {"actor": 0, "target": 2, "back": "K"}, {"card": "job/drugs"}, frozenset({0, 2})
        ),
        Event(
            "steal", {"actor": 1, "target": 3, "back": "B"}, {"card": "metal"}, frozenset({1, 3})
        ),
        Event(
            "neutralise",
            {"actor": 0, "card": "church", "seat": 1, "side": 1, "plane": 2, "old": "metal"},
        ),
        Event(
            "replace",
            {"actor": 0, "card": "mh/p", "seat": 1, "side": 0, "plane": 0, "pos": 0, "old": "p/mh"},
        ),
        Event(
            "place",
            {"actor": 0, "card": "piety/gambling", "seat": 1, "side": 1, "plane": 2, "pos": 1},
        ),
        Event("attack", {"actor": 1, "card": "violence", "seat": 1, "side": 1}),
        Event("defend", {"actor": 1, "card": "metal", "attacker": 0}),
        Event("killed", {"seat": 1, "side": 1, "populace": "fiend"}),
        Event(
            "converted",
            {
                "actor": 0,
                "seat": 0,
                "side": 0,
                "dest": 2,
                "populace": "populace",
                "orphans": ["job/drugs"],
            },
        ),
        Event("round-end", {"round": 1, "startup": 1}),
        Event("round-start", {"round": 2, "startup": 1}),
        Event("horseman", {"number": 1, "deck": "B"}),
        Event("deal", {"target": 1, "back": "B"}, {"card": "m/hp"}, frozenset({1})),
        Event("refill", {"next": 2, "above": [13, 10]}),
        Event("ride", {"number": 1}),
        Event("deaths", {"seat": 0, "good": 1, "evil": 3}),
        Event("reckoning", {"number": 1, "scores": [-4, 0, 2, 1]}),
        Event("horseman-card", {"seat": 1, "number": 3}),
        Event("shelter", {"seat": 2, "good": [3, 4, 0, 0], "evil": [2, 1, 1, 1]}),
        Event("seal-award", {"seats": [1, 3], "populaces": 5}),
        Event("seal-none", {"seat": 1}),
        Event("seal-declined", {"seat": 1}),
        Event("seal-neutralise", {"actor": 1, "seat": 1, "side": 0, "plane": 0, "old": "church"}),
        Event("seal-place", {"actor": 0, "seat": 0, "side": 0, "plane": 0, "pos": 1}),
        Event("game-over", {}),
    ]
}


def engine_event_kinds() -> set[str]:
    """Every kind the rules create, read from their source so a new kind cannot slip by."""
    kinds: set[str] = set()
    for path in GAME_SOURCES:
        kinds |= set(re.findall(r'Event\(\s*"([a-z-]+)"', path.read_text("utf-8")))
    return kinds


def engine_rule_ids() -> set[str]:
    ids: set[str] = set()
    for path in GAME_SOURCES:
        ids |= set(re.findall(r'"(R-[A-Z]+-\d+)"', path.read_text("utf-8")))
    return ids


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def assert_clean(line: str) -> None:
    """No unfilled placeholder and no fallback for an unknown event kind."""
    assert line.strip()
    assert "{" not in line and "}" not in line, line
    assert not line.startswith("["), line


def random_games(seeds: range):
    """Every decision of random games: (players, the chooser's observation, the legal actions,
    the events of the action chosen), for rendering everything that can happen."""
    for seed in seeds:
        state = GAME.new_game(Config(players=2 + seed % 5), seed)
        rng = random.Random(seed)
        while not state.is_over:
            obs = state.observation(state.to_act)
            legal = state.legal_actions()
            yield state.n, obs, legal, state.apply(rng.choice(legal))


# --- catalogs ----------------------------------------------------------------------------------


def test_catalogs_have_the_same_keys():
    en, de = set(catalog("en")), set(catalog("de"))
    assert en - de == set(), "missing in de.toml"
    assert de - en == set(), "missing in en.toml"


def test_catalogs_are_shipped_as_package_data():
    for lang in LANGS:
        assert resources.files("apokalypse.i18n").joinpath(f"{lang}.toml").is_file()


def test_no_template_is_empty_except_a_blank_column_header():
    for lang in LANGS:
        empty = {key for key, value in catalog(lang).items() if not value.strip()}
        assert empty <= {"ui.col.state"}


def test_german_catalog_uses_the_rulebook_vocabulary():
    de = " ".join(catalog("de").values())
    for word in (
        "Bevölkerungsanteil",
        "Auslage",
        "Himmelsebene",
        "Höllenebene",
        "Apokalyptische Reiter",
        "Gesinnung",
        "Gewalt",
        "Gesinnungswechsel",
        "Kirchenmusik",
        "Siegel",
        "Wertung",
        "Talon",
        "Startspieler",
    ):
        assert word in de, word


def test_unknown_language_is_a_config_error():
    assert check_lang(" DE ") == "de"
    with pytest.raises(ConfigError, match="unknown language 'fr'"):
        check_lang("fr")


def test_plural_and_missing_key_fallback():
    assert plural("count.card", 1, "de") == "1 Karte"
    assert plural("count.card", 3, "en") == "3 cards"
    assert text("no.such.key", "de") == "no.such.key"


# --- events ------------------------------------------------------------------------------------


def test_every_engine_event_kind_has_a_sample_here():
    assert engine_event_kinds() == set(SAMPLES)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_event_kind_renders_public_and_seen(kind, lang):
    event = SAMPLES[kind]
    public = render_event(event, None, lang, NAMES)
    assert_clean(public)
    if event.secret is not None:
        insider = min(event.seen_by)
        seen = render_event(event, insider, lang, NAMES)
        assert_clean(seen)
        assert seen != public
        outsider = next(q for q in range(4) if q not in event.seen_by)
        assert render_event(event, outsider, lang, NAMES) == public


def test_secret_card_appears_only_in_the_seen_form():
    gift = SAMPLES["gift"]
    assert render_event(gift, 1, "en", NAMES) == "p1 gives p3 a K card (good deed)."
    assert render_event(gift, 2, "en", NAMES) == "p1 gives p3 Job/Drugs (good deed)."
    assert "Arbeit/Drogen" in render_event(gift, 0, "de", NAMES)
    assert "Arbeit" not in render_event(gift, None, "de", NAMES)


def test_side_variants_and_displayed_halves():
    attack = SAMPLES["attack"]
    assert "evil populace" in render_event(attack, None, "en", NAMES)
    assert "bösen Bevölkerungsanteil" in render_event(attack, None, "de", NAMES)
    place = render_event(SAMPLES["place"], None, "de", NAMES)
    assert "Spielsucht" in place and "Frommheit" not in place  # only the evil half shows
    assert "Höllenebene von p2, böse Seite, Position 1" in place


def test_deals_are_summarised_with_the_viewers_own_cards():
    deals = [
        Event("deal", {"target": q, "back": b}, {"card": c}, frozenset({q}))
        for q, b, c in ((0, "B", "m/hp"), (1, "B", "metal"), (0, "K", "violence"))
    ]
    lines = render_events([SAMPLES["round-end"], *deals, SAMPLES["round-start"]], 0, "en", NAMES)
    assert lines[1] == "Cards dealt: p1 1 B + 1 K, p2 1 B."
    assert lines[2] == "You receive: Protection Mask | Helmet+Pig's head, Violence."
    assert len(lines) == 4
    spectator = render_events(deals, None, "en", NAMES)
    assert spectator == ["Cards dealt: p1 1 B + 1 K, p2 1 B."]


def test_events_of_random_games_render_for_every_seat_in_both_languages():
    for players, _obs, _legal, events in random_games(range(4)):
        for lang in LANGS:
            for seat in (None, *range(players)):
                names = seat_names(players, seat, lang)
                for line in render_events(events, seat, lang, names):
                    assert_clean(line)


# --- cards, actions, refusals ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_of_the_default_deck_has_a_name(lang):
    for kind in parse_deck(default_deck_text()):
        full = card_name(kind.code, lang)
        assert full != kind.code and "{" not in full
        for side in (0, 1, "good", "evil"):
            assert card_short(kind.code, lang, side) != kind.code
            assert "{" not in card_name(kind.code, lang, side)
        assert "{" not in describe_card(kind, lang)
    assert card_name("seal", lang) != "seal"
    assert card_name("unknown-card", lang) == "unknown-card"


def test_card_halves():
    assert card_name("m/hp", "en") == "Protection Mask | Helmet+Pig's head"
    assert card_name("m/hp", "en", "evil") == "Protection Helmet+Pig's head"
    assert card_short("m/hp", "de", 0) == "Maske"
    assert card_name("chastity/sex", "de", 1) == "Zügelloser Sex"
    assert card_name("chastity/sex", "de") == "Keuschheit/Zügelloser Sex"


def test_every_legal_action_of_random_games_renders():
    for _players, obs, legal, _events in random_games(range(3)):
        for lang in LANGS:
            for action in legal:
                line = render_action(action, lang, obs)
                assert_clean(line)
                assert "?" not in line, (str(action), line)


def test_actions_render_without_an_observation():
    for text_form in (
        "pass",
        "decline",
        "play job/drugs nether",
        "give metal",
        "to p2",
        "steal p3",
        "defend violence",
        "target p2.good",
        "target p2.evil.nether",
        "target p1.good.heaven.0",
    ):
        for lang in LANGS:
            assert_clean(render_action(GAME.parse_action(text_form), lang))


def test_every_rule_the_engine_cites_has_a_title_in_both_languages():
    for rule in engine_rule_ids():
        for lang in LANGS:
            assert f"rule.{rule}" in catalog(lang), (rule, lang)
            assert rule_title(rule, lang) != rule


def test_refusal_names_the_rule_and_reason():
    exc = IllegalAction("R-PLAY-8", "evil Heaven needs a Netherworld card below")
    line = render_refusal(exc, "de")
    assert line.startswith("Nicht erlaubt — R-PLAY-8 (")
    assert "evil Heaven needs a Netherworld card below" in line
    assert "Not allowed — R-PLAY-8" in render_refusal(exc, "en")


def test_real_refusals_render():
    state = GAME.new_game(Config(players=3), 1)
    for bad in ("target p2.good", "give metal", "play nothing heaven"):
        with pytest.raises(IllegalAction) as info:
            state.apply(GAME.parse_action(bad))
        for lang in LANGS:
            assert_clean(render_refusal(info.value, lang))


def test_same_placeholders_are_filled_in_both_languages():
    """A German template may not use a value the English one never needs, except those the
    renderer always supplies alongside (side_f beside side)."""
    interchangeable = {"side", "side_f", "other", "plane"}
    en, de = catalog("en"), catalog("de")
    for key in en:
        extra = placeholders(de[key]) - placeholders(en[key]) - interchangeable
        assert extra == set(), (key, extra)


# --- Apokerlypse -------------------------------------------------------------------------------

POKER_SOURCES = sorted(Path(poker_pkg.__file__).parent.glob("*.py"))
# Every kind the package docstring lists (games/apokerlypse/__init__.py, "Events …").
_EVENTS_DOC = (poker_pkg.__doc__ or "").split("Events (")[1].split("What happens inside")[0]
POKER_KINDS = frozenset(re.findall(r"``([a-z-]+)``", _EVENTS_DOC))
# Kinds random games hardly ever reach (the draw pile runs dry only with enlarged hands).
POKER_SAMPLES = [
    Event("reshuffle", {"cards": 14}),
    Event("pile-empty", {"seat": 1}),
    Event("effect", {"seat": 2, "card": None, "faction": "zombies", "kind": "category-up",
                     "timing": "final", "name": "", "params": {"steps": 2}}),
    Event("void", {"seat": 0, "card": None, "kind": "take", "rule": "K-SHORT-1"}),
    Event("pot", {"winners": [0, 2], "total": 9, "pot": 7, "share": 3, "remainder": 1}),
    Event("structure", {"seat": 1, "card": "9h", "kind": "set-rank", "to": "T"}),
    Event("structure", {"seat": 1, "card": "9c", "kind": "set-suit", "to": "h"}),
]  # fmt: skip


def poker_games(content: str, seeds: range):
    """Random Apokerlypse games: (players, content, opening, [(observation, legal, events)])."""
    for seed in seeds:
        config = POKER.config_from_options(2 + seed % 3, [], content)
        state = POKER.new_game(config, seed)
        rng = random.Random(seed)
        steps = []
        while not state.is_over:
            obs = state.observation(state.to_act)
            legal = state.legal_actions()
            steps.append((obs, legal, state.apply(rng.choice(legal))))
        yield config.players, config.rules_content, state.opening, steps


@pytest.fixture(scope="module")
def poker_played():
    plain = poker_games(content_text("plain"), range(3))
    example = poker_games(content_text("example"), range(12))
    return [*plain, *example]


def test_apokerlypse_catalogs_are_read_under_their_prefix():
    for lang in LANGS:
        assert resources.files("apokalypse.i18n").joinpath(f"apokerlypse.{lang}.toml").is_file()
        assert catalog(lang)["apokerlypse.faction.zombies"]
        assert "event.pass.public" in catalog(lang)  # Apokalypse's keep their names


@pytest.mark.parametrize("lang", LANGS)
def test_apokerlypse_vocabulary_has_entries(lang):
    keys = catalog(lang)
    names = [f"category.{c}" for c in CATEGORIES] + [f"faction.{f}" for f in FACTIONS]
    names += [f"kind.{k}" for k in KINDS] + [f"timing.{t}" for t in TIMINGS]
    names += [f"step.{s}" for s in STEP_NAMES] + [f"suit.{s}" for s in SUITS]
    for name in names:
        assert f"apokerlypse.{name}" in keys, name


def test_german_apokerlypse_uses_the_rulebook_vocabulary():
    de = " ".join(v for k, v in catalog("de").items() if k.startswith("apokerlypse."))
    for word in ("Geberrunde", "Pot", "Ressourcen-Chips", "Aktions-Chips", "Fraktion",
                 "Ziehstapel", "Abwurfstapel", "Endwertung", "Pokerhand", "Zusatzpunkte",
                 "Strukturänderung", "Multiplikator", "Basispunkte", "Ressourcenmangel",
                 "aussteigen", "Drilling", "Straße", "Vierling", "Plünderer"):  # fmt: skip
        assert word in de, word


def test_every_apokerlypse_event_kind_is_reached(poker_played):
    made: set[str] = set()
    for path in POKER_SOURCES:  # the kinds written out in the rules' source
        made |= set(re.findall(r'Event\(\s*"([a-z-]+)"', path.read_text("utf-8")))
    seen = {e.kind for *_, opening, steps in poker_played for e in opening}
    seen |= {e.kind for *_, steps in poker_played for _o, _l, events in steps for e in events}
    seen |= {e.kind for e in POKER_SAMPLES}
    assert made <= POKER_KINDS
    assert seen == POKER_KINDS


def test_apokerlypse_events_render_for_every_seat_in_both_languages(poker_played):
    for players, _content, opening, steps in poker_played:
        batches = [opening, *(events for _o, _l, events in steps), POKER_SAMPLES]
        for lang in LANGS:
            for seat in (None, *range(players)):
                names = seat_names(players, seat, lang)
                for batch in batches:
                    for event in batch:  # one by one, and grouped as the terminal shows them
                        assert_clean(poker_text.render_event(event, seat, lang, names))
                    for line in poker_text.render_events(batch, seat, lang, names):
                        assert_clean(line)


def test_apokerlypse_secrets_show_only_in_the_seen_form(poker_played):
    secret = [e for *_, steps in poker_played for _o, _l, events in steps for e in events
              if e.secret is not None]  # fmt: skip
    assert {e.kind for e in secret} >= {"draw", "peek", "take", "give", "swap"}
    for event in secret:
        for lang in LANGS:
            public = poker_text.render_event(event, None, lang, NAMES)
            insider = poker_text.render_event(event, min(event.seen_by), lang, NAMES)
            assert insider != public
            for hidden in event.secret.values():
                for code in hidden if isinstance(hidden, list) else [hidden]:
                    assert poker_text.card_label(code) in insider
                    assert poker_text.card_label(code) not in public
            outsiders = [q for q in range(4) if q not in event.seen_by]
            for q in outsiders:
                assert poker_text.render_event(event, q, lang, NAMES) == public


def test_apokerlypse_decisions_and_actions_render(poker_played):
    for players, content, _opening, steps in poker_played:
        for obs, legal, _events in steps:
            seat = obs["seat"]
            for lang in LANGS:
                names = seat_names(players, seat, lang)
                assert_clean(poker_choices.decision_text(seat, obs, content, lang, names))
                for action in legal:
                    line = poker_choices.render_action(action, lang, obs, names, content)
                    assert_clean(line)
                    assert str(action) != line


def test_apokerlypse_actions_render_without_an_observation():
    for notation in ("pay", "stand", "drop", "discard 7h", "use 7h", "ability", "done",
                     "target p2", "give 7h", "swap 7h", "block 7s", "allow"):  # fmt: skip
        for lang in LANGS:
            assert_clean(poker_choices.render_action(POKER.parse_action(notation), lang))


def test_every_apokerlypse_rule_has_a_title_in_both_languages():
    rules: set[str] = set()
    pattern = r"\b(K-[A-Z]+-\d+|KD-[A-Z]+-\d+|KV-[A-Z-]*[A-Z])\b"
    for path in POKER_SOURCES:
        rules |= set(re.findall(pattern, path.read_text("utf-8")))
    assert {"K-SHORT-1", "KD-SETUP-1", "KV-TABLE"} <= rules
    for rule in rules:
        for lang in LANGS:
            assert f"apokerlypse.rule.{rule}" in catalog(lang), (rule, lang)
            assert poker_text.rule_title(rule, lang) != rule


def test_apokerlypse_refusals_render():
    state = POKER.new_game(POKER.config_from_options(3, [], None), 2)
    for bad in ("done", "use 7h", "target p9", "block 7s", "give 2c"):
        with pytest.raises(IllegalAction) as info:
            state.apply(POKER.parse_action(bad))
        for lang in LANGS:
            line = poker_text.render_refusal(info.value, lang)
            assert_clean(line)
            assert info.value.rule in line


def test_apokerlypse_cards_and_effects_read_well():
    assert poker_text.cards_label(["Th", "As", "2c"]) == "10♥ A♠ 2♣"
    assert poker_text.faction_name("plunderers", "de") == "♦ Plünderer"
    gain = {"amount": 2, "who": "others"}
    assert poker_text.effect_what("gain", gain, "en") == (
        "every other player gains 2 chips from the bank"
    )
    assert poker_text.effect_what("set-suit", {"to": "h"}, "de") == (
        "Strukturänderung: diese Karte zählt als ♥ Herz"
    )
    draws = [Event("draw", {"seat": 0}, {"card": c}, frozenset({0})) for c in ("7h", "Ks")]
    assert poker_text.render_events(draws, 0, "en", ["p1 (you)", "p2"]) == ["p1 (you) draws 7♥ K♠."]
    assert poker_text.render_events(draws, 1, "de", NAMES) == ["p1 zieht 2 Karten."]
