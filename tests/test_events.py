"""Each game's events are one union told apart by ``kind`` (``wire/<game>.py``'s ``Event``), with
every kind's arguments typed (``games/<game>/events.py``): the JSON Schema and the browser's types
are made from it, so the rules must make every kind with exactly those arguments, in every seat's
view and a spectator's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import apokalypse.games
from apokalypse.engine.events import Event
from apokalypse.engine.registry import game_names, get_game
from apokalypse.engine.rng import Rng
from apokalypse.wire import check_event, views
from tests.apokerlypse.test_properties import EVERY_CARD

GAMES = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULES = Path(apokalypse.games.__file__).parent


def kinds(game: str) -> dict[str, Any]:
    """Every kind the game's event union names, with the type of its arguments."""
    union = get_args(views(game).Event)[0]  # Annotated[union, discriminator]
    found = {}
    for member in get_args(union):
        kind, args = get_args(member)
        found[get_args(kind)[0]] = args
    return found


def events_of(game: str, players: int, seed: int, options: dict[str, Any]) -> Iterator[Event]:
    """Every event of a game played at random: its opening, then each step's."""
    rules = get_game(game)
    state = rules.new_game(rules.config_from_options(players, **options), seed)
    rng = Rng(seed ^ 0xE7E)
    yield from state.opening
    while not state.is_over:
        legal = state.legal_actions()
        yield from state.apply(legal[rng.below(len(legal))])


def check_every_view(game: str, players: int, seed: int, options: dict[str, Any]) -> set[str]:
    made = set()
    for event in events_of(game, players, seed, options):
        made.add(event.kind)
        for viewer in [None, *range(players)]:
            check_event(game, event.view(viewer).to_json())
    return made


@GAMES
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    variants=st.sets(
        st.sampled_from(
            ["ethos-balanced", "ethos-orphans", "good-team", "edition-2008", "good-ties"]
        )
    ),
)
def test_every_apokalypse_event_is_of_its_kinds_type(
    players: int, seed: int, variants: set[str]
) -> None:
    options = {"variants": sorted(variants), "cards": None}
    assert check_every_view("apokalypse", players, seed, options) >= {"deal", "ride", "game-over"}


@GAMES
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    variants=st.sets(st.sampled_from(["short-table", "bonus-cap"])),
    cards=st.sampled_from([None, "example", EVERY_CARD]),
)
def test_every_apokerlypse_event_is_of_its_kinds_type(
    players: int, seed: int, variants: set[str], cards: str | None
) -> None:
    options = {"variants": sorted(variants), "cards": cards}
    assert check_every_view("apokerlypse", players, seed, options) >= {"deal", "game-over"}


@pytest.mark.parametrize("game", game_names())
def test_every_kind_the_union_names_is_named_in_the_rules(game: str) -> None:
    """No kind is declared that the rules never name: each is a string of the game's rules."""
    source = "\n".join(p.read_text("utf-8") for p in (RULES / game).glob("*.py"))
    strings = set(re.findall(r'"([a-z-]+)"', source))
    assert set(kinds(game)) <= strings


def test_a_view_unlike_its_kinds_type_is_refused() -> None:
    attack: dict[str, object] = {"actor": 0, "card": "a/v", "seat": 1, "side": 0}
    good = {"kind": "attack", "args": attack}
    check_event("apokalypse", {**good, "seen": False})
    with pytest.raises(ValidationError):
        check_event("apokalypse", {**good, "kind": "cheer", "seen": False})  # no such kind
    with pytest.raises(ValidationError):
        missing = {"actor": 0, "card": "a/v", "seat": 1}
        check_event("apokalypse", {"kind": "attack", "args": missing, "seen": False})
    with pytest.raises(ValidationError):
        wrong = {**attack, "seat": "1"}  # strict: no text for a number
        check_event("apokalypse", {"kind": "attack", "args": wrong, "seen": False})
    with pytest.raises(ValueError, match="undeclared arguments"):
        extra = {**attack, "hand": ["m/hp"]}
        check_event("apokalypse", {"kind": "attack", "args": extra, "seen": False})
