"""Apokerlypse's texts: its catalog (``i18n/apokerlypse``), every event of random games renders for
every seat in both languages, secrets show only to those who may see them, and decisions, actions,
refusals, cards and effects read well."""

from __future__ import annotations

import random
import re
from importlib import resources
from pathlib import Path

import pytest

import apokalypse.games.apokerlypse as poker_pkg
from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event
from apokalypse.games.apokerlypse import GAME as POKER
from apokalypse.games.apokerlypse.cards import FACTIONS, SUITS
from apokalypse.games.apokerlypse.content import KINDS, TIMINGS, content_text
from apokalypse.games.apokerlypse.pending import STEP_NAMES
from apokalypse.games.apokerlypse.poker import CATEGORIES
from apokalypse.i18n import LANGS, catalog, seat_names
from apokalypse.i18n.apokerlypse import choices as poker_choices
from apokalypse.i18n.apokerlypse import render as poker_text
from tests.test_i18n import NAMES, assert_clean

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
    # The packaged example content has no steal and no shield (KD-EFFECT-1/2).
    Event("steal", {"seat": 0, "target": 1, "amount": 2, "chips": 14, "left": 10}),
    Event("shield", {"seat": 1}),
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
    standard = poker_games(content_text("standard-2"), range(6))  # the kinds example lacks
    return [*plain, *example, *standard]


# --- the catalog -------------------------------------------------------------------------------


def test_apokerlypse_catalogs_are_read_under_their_prefix():
    for lang in LANGS:
        assert resources.files("apokalypse.i18n").joinpath("apokerlypse", f"{lang}.toml").is_file()
        assert catalog(lang)["apokerlypse.faction.zombies"]


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


# --- events, decisions, actions, refusals ------------------------------------------------------


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
                        assert_clean(poker_text.render_view(event.view(seat), lang, names))
                    for line in poker_text.render_events(
                        [e.view(seat) for e in batch], lang, names
                    ):
                        assert_clean(line)


def test_apokerlypse_secrets_show_only_in_the_seen_form(poker_played):
    secret = [e for *_, steps in poker_played for _o, _l, events in steps for e in events
              if e.secret is not None]  # fmt: skip
    assert {e.kind for e in secret} >= {"draw", "peek", "take", "give", "swap"}
    for event in secret:
        for lang in LANGS:
            public = poker_text.render_view(event.view(None), lang, NAMES)
            insider = poker_text.render_view(event.view(min(event.seen_by)), lang, NAMES)
            assert insider != public
            for hidden in event.secret.values():
                for code in hidden if isinstance(hidden, list) else [hidden]:
                    assert poker_text.card_label(code) in insider
                    assert poker_text.card_label(code) not in public
            outsiders = [q for q in range(4) if q not in event.seen_by]
            for q in outsiders:
                assert poker_text.render_view(event.view(q), lang, NAMES) == public


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
    assert poker_text.render_events([e.view(0) for e in draws], "en", ["p1 (you)", "p2"]) == [
        "p1 (you) draws 7♥ K♠."
    ]
    assert poker_text.render_events([e.view(1) for e in draws], "de", NAMES) == [
        "p1 zieht 2 Karten."
    ]
