"""The games' numbers (engine.features, engine.codec): every legal action has a stable integer, the
observation vector holds what the seat may know and nothing else, and docs/rl.md shows the
fields as they are."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apokalypse.engine.codec import Codec
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
CONFIGS: list[tuple[str, int, list[str], str | None]] = [
    ("apokalypse", 2, [], None),
    ("apokalypse", 4, ["ethos-balanced"], None),
    ("apokalypse", 6, ["good-ties"], None),
    ("apokerlypse", 2, [], None),
    ("apokerlypse", 3, [], "example"),
    ("apokerlypse", 4, ["short-table", "bonus-cap"], "example"),
]


def _codec(
    game: str, players: int, variants: list[str], cards: str | None
) -> tuple[Any, Any, Codec]:
    engine = get_game(game)
    config = engine.config_from_options(players, variants, cards)
    return engine, config, Codec(engine, config)


def _play(engine: Any, config: Any, seed: int, steps: int) -> Any:
    state = engine.new_game(config, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state


@pytest.mark.parametrize("setup", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{'+'.join(c[2])}-{c[3]}")
def test_every_legal_action_of_random_games_has_its_integer(setup: Any) -> None:
    engine, config, codec = _codec(*setup)
    for seed in range(6):
        state = engine.new_game(config, seed)
        rng = Rng(seed)
        while not state.is_over:
            legal = state.legal_actions()
            numbers = codec.numbers(legal)
            assert len(set(numbers)) == len(legal)
            assert [codec.actions[i] for i in numbers] == list(legal)
            mask = codec.mask(legal)
            assert mask.dtype == np.int8 and int(mask.sum()) == len(legal)
            vector = codec.encode(state.observation(state.to_act))
            assert vector.dtype == np.float32 and vector.shape == (codec.size,)
            assert (vector >= codec.low).all() and (vector <= codec.high).all()
            state.apply(legal[rng.below(len(legal))])


@pytest.mark.parametrize("setup", CONFIGS[:1] + CONFIGS[3:4])
def test_the_action_table_is_the_engine_notation_in_a_fixed_order(setup: Any) -> None:
    engine, config, codec = _codec(*setup)
    texts = [str(a) for a in codec.actions]
    assert len(set(texts)) == len(texts)
    assert all(
        engine.parse_action(text) == action
        for text, action in zip(texts, codec.actions, strict=True)
    )
    again = Codec(engine, engine.config_from_options(config.players, [], None))
    assert again.actions == codec.actions  # the same integers in every env made for the config


def test_apokalypse_positions_reach_the_longest_row_the_deck_allows() -> None:
    """target …POS is numbered up to the cards that can lie in a row (roles.PLACES): good Heaven
    takes protection cards, Church Music and seals (54 + 6 + 6 in the default deck)."""
    _, _, codec = _codec("apokalypse", 4, [], None)
    texts = {str(a) for a in codec.actions}
    assert "target p4.good.heaven.65" in texts and "target p4.good.heaven.66" not in texts
    assert "target p1.evil.nether.47" in texts and "target p1.evil.earth.0" not in texts


@pytest.mark.parametrize("setup", CONFIGS[:2] + CONFIGS[3:5])
def test_the_vector_holds_the_observation_field_by_field(setup: Any) -> None:
    engine, config, codec = _codec(*setup)
    state = _play(engine, config, 11, 40)
    seat = state.to_act
    obs = state.observation(seat)
    vector = codec.encode(obs)
    codes = getattr(codec.features, "codes", None)  # Apokalypse: the deck's codes, then face down
    code_of = None if codes is None else {code: i for i, code in enumerate(codes)}
    hand = codec.view(vector, "hand")
    if code_of is not None:
        expected = np.zeros(len(code_of), np.float32)
        for code, n in Counter(obs["hand"]).items():
            expected[code_of[code]] = n
        rows = codec.view(vector, "rows")
        on_table = sum(
            len(cards) for d in obs["displays"] for side in d.values() for cards in side.values()
        )
        assert rows.sum() == on_table
        assert codec.view(vector, "ethos")[["good", "evil"].index(obs["ethos"])] == 1
        assert list(codec.view(vector, "hand_counts").ravel()) == [
            n for pair in obs["hand_counts"] for n in pair
        ]
    else:
        from apokalypse.games.apokerlypse.cards import CODES

        expected = np.zeros(len(CODES), np.float32)
        for code in obs["hand"]:
            expected[CODES.index(code)] = 1
        assert list(codec.view(vector, "chips")) == obs["chips"]
        assert codec.view(vector, "pot")[0] == obs["pot"]
    assert (hand == expected).all()
    assert codec.view(vector, "seat")[seat] == 1 and codec.view(vector, "seat").sum() == 1


@settings(max_examples=25, deadline=None)
@given(
    setup=st.sampled_from(CONFIGS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 300),
    world=st.integers(0, 1_000),
)
def test_hidden_information_is_never_encoded(setup: Any, seed: int, steps: int, world: int) -> None:
    """A world redealt from everything the seat has seen (``determinize``) gives the same vector
    for every seat's view: the vector of the asking seat is equal, so it holds nothing the seat
    cannot know; the acting seat's actions keep their integers there."""
    engine, config, codec = _codec(*setup)
    state = _play(engine, config, seed, steps)
    for seat in range(config.players):
        sampled = state.determinize(seat, Rng(world))
        mine = codec.encode(state.observation(seat))
        assert (mine == codec.encode(sampled.observation(seat))).all()
        if not state.is_over and state.to_act == seat:
            assert codec.numbers(state.legal_actions()) == codec.numbers(sampled.legal_actions())


def test_a_spectator_vector_holds_no_hand() -> None:
    engine, config, codec = _codec("apokalypse", 4, [], None)
    state = _play(engine, config, 5, 30)
    vector = codec.encode(state.observation(None))
    assert codec.view(vector, "hand").sum() == 0 and codec.view(vector, "seat").sum() == 0
    assert codec.view(vector, "ethos").sum() == 0 and codec.view(vector, "fronts").sum() == 0


@pytest.mark.parametrize(
    ("game", "players", "cards"), [("apokalypse", 4, None), ("apokerlypse", 2, None)]
)
def test_docs_show_the_fields_as_the_code_has_them(
    game: str, players: int, cards: str | None
) -> None:
    _, _, codec = _codec(game, players, [], cards)
    assert codec.markdown() in DOCS.read_text("utf-8"), f"docs/rl.md: regenerate the {game} table"


GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "rl-numbers.txt"


def numbers_text() -> str:
    """The action tables and field layouts of the documented configs, then the vectors of the
    first decisions of a seeded game of each, entry by entry: what a trained agent depends on."""
    lines: list[str] = []
    for game, players in (("apokalypse", 4), ("apokerlypse", 2)):
        engine, config, codec = _codec(game, players, [], None)
        lines.append(f"== {game}, {players} players: {codec.num_actions} actions")
        lines += [f"{i} {action}" for i, action in enumerate(codec.actions)]
        lines.append(f"== {game}, {players} players: {codec.size} entries")
        lines += [f"{f.name} @{codec.offset[f.name]} {f.shape}" for f in codec.fields]
        state = engine.new_game(config, 2009)
        rng = Rng(2009)
        for _ in range(12):
            seat = state.to_act
            vector = codec.encode(state.observation(seat))
            entries = []
            for f in codec.fields:
                part = codec.view(vector, f.name).ravel()
                entries += [f"{f.name}[{i}]={part[i]:g}" for i in np.flatnonzero(part)]
            lines.append(f"-- move {state.move}, p{seat + 1}: {' '.join(entries)}")
            legal = state.legal_actions()
            lines.append(f"   legal {codec.numbers(legal)}")
            state.apply(legal[rng.below(len(legal))])
    return "\n".join(lines) + "\n"


def test_the_numbers_stay_as_committed() -> None:
    """A change of an action's integer or of the vector's layout breaks every trained agent: it
    must be deliberate (``UPDATE_GOLDEN=1`` regenerates the file; read the diff)."""
    text = numbers_text()
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(text, "utf-8")
    assert GOLDEN.exists(), f"missing {GOLDEN.name}: run with UPDATE_GOLDEN=1 once"
    assert text == GOLDEN.read_text("utf-8"), f"{GOLDEN.name} differs: the numbers changed"
