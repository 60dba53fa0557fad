"""The learned evaluation (``bots/learned.py``), its weights file and the ``master`` level:
a file that cannot be used is one line naming it, a table the file has no network for is scored
by the hand-made evaluation, the network reads a seat's observation and nothing the seat may not
know, and ``master`` plays whole games of both games with the packaged weights."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apokalypse.bots import make_bot
from apokalypse.bots.ismcts import ISMCTSPlayer
from apokalypse.bots.learned import (
    ENVIRONMENT,
    Learned,
    Net,
    Weights,
    WeightsError,
    evaluation,
    layout_of,
    load,
    packaged_path,
    value_module,
    weights_for,
    weights_path,
)
from apokalypse.engine.codec import Codec
from apokalypse.engine.match import play_out
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng

GAMES = ("apokalypse", "apokerlypse")


def small_weights(game: str, players: int, seed: int = 0) -> Weights:
    """Weights of one random network for ``players`` seats of ``game``'s default config."""
    rules = get_game(game)
    layout = layout_of(rules, rules.config_from_options(players, [], None))
    rng = np.random.default_rng(seed)
    net = Net(
        layout.scale(),
        [rng.standard_normal((layout.size, 8)).astype(np.float32) * 0.1,
         rng.standard_normal((8, 1)).astype(np.float32)],
        [np.zeros(8, np.float32), np.zeros(1, np.float32)],
    )  # fmt: skip
    return Weights(game, {layout.key: net}, {"seed": seed})


def midgame(game: str, players: int, seed: int, decisions: int):
    rules = get_game(game)
    state = rules.new_game(rules.config_from_options(players, [], None), seed)
    bots = [make_bot("heuristic", seed * 8 + q, game) for q in range(players)]
    rng = Rng(seed)
    for _ in range(decisions):
        if state.is_over:
            break
        legal = state.legal_actions()
        # the heuristic of the seat to act, now and then a random action for variety
        if rng.below(4):
            state.apply(bots[state.to_act].choose(state.observation(state.to_act), legal))
        else:
            state.apply(legal[rng.below(len(legal))])
    return rules, state


# --- the file ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_weights_survive_their_file(game, tmp_path):
    weights = small_weights(game, 2)
    path = tmp_path / "w.npz"
    path.write_bytes(weights.to_bytes())
    again = load(path, game)
    (key,) = weights.nets
    x = np.random.default_rng(1).random((3, weights.nets[key].inputs), dtype=np.float32)
    # stored as float16: the values agree to the half-precision weights' accuracy
    assert np.allclose(again.nets[key].values(x), weights.nets[key].values(x), atol=2e-3)
    assert again.meta["seed"] == 0 and again.meta["layouts"] == [key]


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buffer.getvalue()


def _npz(**arrays: Any) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _meta(**fields: object) -> np.ndarray:
    return np.array(json.dumps({"format": 1, "game": "apokalypse", "layouts": [], **fields}))


def _layer(w0: np.ndarray) -> bytes:
    """A file of one network of inputs of width 2 whose one layer is ``w0``."""
    arrays = {"k/scale": np.ones(2), "k/w0": w0, "k/b0": np.zeros(1)}
    return _npz(meta=_meta(layouts=["k"]), **arrays)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "not found"),
        (b"these are not weights", "not a weights file"),
        (_zip({"readme.txt": b"hello"}), "not a weights file (no meta record)"),
        (_npz(meta=np.array("[1, 2]")), "its meta record is not an object"),
        (_npz(meta=_meta(format=7)), "format 7, this version reads format 1"),
        (_npz(meta=_meta(game="apokerlypse")), "holds weights for 'apokerlypse', not 'apokalypse'"),
        (_npz(meta=_meta()), "holds no network"),
        (_npz(meta=_meta(layouts=["k"]), **{"k/scale": np.ones(3)}), "the network k is broken"),
        (_layer(np.full((2, 1), np.nan)), "not finite numbers"),
        (_layer(np.ones((3, 1))), "does not follow one of width 2"),
    ],
)
def test_a_file_that_cannot_be_used_is_one_line_naming_it(tmp_path, content, words):
    path = tmp_path / "bad.npz"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(WeightsError) as caught:
        load(path, "apokalypse")
    message = str(caught.value)
    assert "\n" not in message and str(path) in message and words in message, message


@pytest.mark.parametrize("game", GAMES)
def test_the_packaged_weights_load_and_record_their_provenance(game):
    weights = load(packaged_path(game), game)
    provenance = json.loads(packaged_path(game).with_suffix(".json").read_text("utf-8"))
    for key in ("command", "commit", "seed", "data", "generations"):
        assert key in weights.meta and weights.meta[key] == provenance[key], key
    assert provenance["command"].startswith("apokalypse learn")
    assert sorted(weights.nets) == provenance["layouts"]


def test_the_environment_names_another_file_of_its_own_game_only(tmp_path, monkeypatch):
    mine = tmp_path / "mine.npz"
    mine.write_bytes(small_weights("apokerlypse", 2).to_bytes())
    monkeypatch.setenv(ENVIRONMENT, str(mine))
    assert weights_path("apokerlypse") == mine
    assert weights_path("apokalypse") == packaged_path("apokalypse")  # not a file of this game
    assert len(weights_for("apokerlypse").nets) == 1


def test_master_refuses_to_play_without_its_weights(tmp_path, monkeypatch):
    missing = tmp_path / "gone.npz"
    monkeypatch.setattr("apokalypse.bots.learned.packaged_path", lambda game: missing)
    with pytest.raises(WeightsError, match=f"weights file {missing}: not found"):
        make_bot("master", 1, "apokalypse")


# --- the evaluation ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_table_the_file_has_no_network_for_is_scored_by_hand(game):
    rules, state = midgame(game, 3, 5, 40)
    weights = small_weights(game, 2)  # a network for 2 players only
    assert evaluation(rules, state.config, weights) is None
    learned = Learned(rules, weights)
    assert list(learned(state)) == list(value_module(game).base(state))
    assert learned.used is False


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 999), decisions=st.integers(0, 150))
def test_the_network_scores_each_seat_from_its_own_row(game, seed, decisions):
    """The evaluation sums the first layer's rows of the inputs that are not 0: the same values
    as the whole input vector through the network."""
    rules, state = midgame(game, 2, seed, decisions)
    if state.is_over:
        return
    weights = small_weights(game, 2)
    learned = Learned(rules, weights)
    values = learned(state)
    assert learned.used is True and len(values) == 2
    codec, value = Codec(rules, state.config), value_module(game)
    (net,) = weights.nets.values()
    base = value.base(state)
    for q in range(2):
        row = np.concatenate([codec.encode(state.observation(q)), value.extra(state, q, base)])
        assert values[q] == pytest.approx(float(net.values(row[None, :])[0]), abs=1e-6)
        assert 0 < values[q] < 1


@settings(max_examples=20, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 2**32),
    decisions=st.integers(0, 120),
    world_seed=st.integers(0, 2**32),
)
def test_a_seats_features_are_the_same_in_every_world_it_cannot_tell_apart(
    game, seed, decisions, world_seed
):
    """What the network reads of the searching seat (its observation's features) is the same
    in the true game and in every world sampled for it: the hidden deal never reaches it."""
    rules, state = midgame(game, 3, seed % 1000, decisions)
    if state.is_over:
        return
    seat = state.to_act
    codec = Codec(rules, state.config)
    world = state.determinize(seat, Rng(world_seed))
    assert np.array_equal(
        codec.encode(world.observation(seat)), codec.encode(state.observation(seat))
    )


# --- the master level ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_master_plays_a_whole_game_scored_by_its_network(game):
    rules = get_game(game)
    master = make_bot("master:30", 11, game)
    assert isinstance(master, ISMCTSPlayer) and isinstance(master.evaluate, Learned)
    players = [master, make_bot("medium", 12, game)]
    match = play_out(rules.new_game(rules.config_from_options(2, [], None), 4), players)
    assert match.state.is_over
    assert master.evaluate.used is True, "the packaged weights cover 2 players"
    assert make_bot("master", 1, game).name == "master"


def test_master_games_are_the_same_from_the_same_seed():
    rules = get_game("apokalypse")

    def actions() -> list[str]:
        players = [make_bot("master:20", 3, "apokalypse"), make_bot("medium", 4, "apokalypse")]
        config = rules.config_from_options(2, [], None)
        return play_out(rules.new_game(config, 8), players).actions

    assert actions() == actions()


def test_the_file_it_reads_is_read_once(tmp_path, monkeypatch):
    path = tmp_path / "w.npz"
    path.write_bytes(small_weights("apokalypse", 2).to_bytes())
    monkeypatch.setenv(ENVIRONMENT, str(path))
    assert weights_for("apokalypse") is weights_for("apokalypse")
    path.write_bytes(small_weights("apokalypse", 2, seed=1).to_bytes())  # a new version
    assert weights_for("apokalypse").meta["seed"] == 1
