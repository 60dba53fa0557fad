"""Apokalypse's texts: its catalog (``i18n/apokalypse``), every engine event, card, action and
refusal renders in both languages, and secrecy in rendered text follows ``Event.view``."""

from __future__ import annotations

import random
import re
from importlib import resources
from pathlib import Path

import pytest

import apokalypse.games.apokalypse as game_pkg
from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event
from apokalypse.games.apokalypse import GAME, Config
from apokalypse.games.apokalypse.cards import default_deck_text, parse_deck
from apokalypse.i18n import LANGS, catalog
from apokalypse.i18n.apokalypse.render import (
    card_name,
    card_short,
    describe_card,
    render_action,
    render_events,
    render_refusal,
    render_view,
    rule_title,
    seat_names,
)
from tests.test_i18n import NAMES, assert_clean

GAME_SOURCES = sorted(Path(game_pkg.__file__).parent.glob("*.py"))


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


# --- the catalog -------------------------------------------------------------------------------


def test_catalogs_are_read_under_the_games_prefix():
    for lang in LANGS:
        assert resources.files("apokalypse.i18n").joinpath("apokalypse", f"{lang}.toml").is_file()
        assert catalog(lang)["apokalypse.event.pass.public"]
        assert "event.pass.public" not in catalog(lang)  # no game's texts are unnamed


def test_german_catalog_uses_the_rulebook_vocabulary():
    de = " ".join(v for k, v in catalog("de").items() if k.startswith("apokalypse."))
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


# --- events ------------------------------------------------------------------------------------


def test_every_engine_event_kind_has_a_sample_here():
    assert engine_event_kinds() == set(SAMPLES)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_event_kind_renders_public_and_seen(kind, lang):
    event = SAMPLES[kind]
    public = render_view(event.view(None), lang, NAMES)
    assert_clean(public)
    if event.secret is not None:
        insider = min(event.seen_by)
        seen = render_view(event.view(insider), lang, NAMES)
        assert_clean(seen)
        assert seen != public
        outsider = next(q for q in range(4) if q not in event.seen_by)
        assert render_view(event.view(outsider), lang, NAMES) == public


def test_secret_card_appears_only_in_the_seen_form():
    gift = SAMPLES["gift"]
    assert render_view(gift.view(1), "en", NAMES) == "p1 gives p3 a K card (good deed)."
    assert render_view(gift.view(2), "en", NAMES) == "p1 gives p3 Job/Drugs (good deed)."
    assert "Arbeit/Drogen" in render_view(gift.view(0), "de", NAMES)
    assert "Arbeit" not in render_view(gift.view(None), "de", NAMES)


def test_side_variants_and_displayed_halves():
    attack = SAMPLES["attack"]
    assert "evil populace" in render_view(attack.view(None), "en", NAMES)
    assert "bösen Bevölkerungsanteil" in render_view(attack.view(None), "de", NAMES)
    place = render_view(SAMPLES["place"].view(None), "de", NAMES)
    assert "Spielsucht" in place and "Frommheit" not in place  # only the evil half shows
    assert "Höllenebene von p2, böse Seite, Position 1" in place


def test_deals_are_summarised_with_the_viewers_own_cards():
    deals = [
        Event("deal", {"target": q, "back": b}, {"card": c}, frozenset({q}))
        for q, b, c in ((0, "B", "m/hp"), (1, "B", "metal"), (0, "K", "violence"))
    ]
    lines = render_events(
        [e.view(0) for e in [SAMPLES["round-end"], *deals, SAMPLES["round-start"]]], "en", NAMES
    )
    assert lines[1] == "Cards dealt: p1 1 B + 1 K, p2 1 B."
    assert lines[2] == "You receive: Protection Mask | Helmet+Pig's head, Violence."
    assert len(lines) == 4
    spectator = render_events([e.view(None) for e in deals], "en", NAMES)
    assert spectator == ["Cards dealt: p1 1 B + 1 K, p2 1 B."]


def test_events_of_random_games_render_for_every_seat_in_both_languages():
    for players, _obs, _legal, events in random_games(range(4)):
        for lang in LANGS:
            for seat in (None, *range(players)):
                names = seat_names(players, seat, lang)
                for line in render_events([e.view(seat) for e in events], lang, names):
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
            assert f"apokalypse.rule.{rule}" in catalog(lang), (rule, lang)
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
