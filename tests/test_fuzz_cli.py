"""Fuzzing the command line's input boundaries: whatever a record file holds, reading and
replaying it fails only with the engine's typed errors, in one line; whatever a person types at
the prompt, the game neither crashes nor changes unless the text was a legal action."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from apokalypse.cli.replay import _difference
from apokalypse.cli.session import QUIT_WORDS, Quit, Session
from apokalypse.engine.errors import EngineError
from apokalypse.engine.record import GameRecord, replay
from apokalypse.engine.registry import get_game
from apokalypse.sim.runner import Task, run_game

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

# Any JSON value, nested a few levels.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)

_GOOD = run_game(Task(0, 21, 2, ("random", "random"), (), True)).record
assert _GOOD is not None
GOOD: dict[str, Any] = _GOOD.to_json()

# Every field: its valid value, or anything at all (wrong types for every field), or missing.
MISSING = object()


def fields_of(
    valid: dict[str, Any], **more: list[st.SearchStrategy[Any]]
) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(
        {
            name: st.one_of(st.just(value), json_values, st.just(MISSING), *more.get(name, []))
            for name, value in valid.items()
        }
    ).map(lambda fields: {k: v for k, v in fields.items() if v is not MISSING})


# Action texts a hostile or damaged file might hold: odd digits, controls, huge numbers.
odd_actions = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["to p²", "target p²", "steal p٣", "target p1.good.heaven.²", "give ²"]),
    st.text(alphabet="0123456789", min_size=1, max_size=6000).map(lambda n: f"target p{n}"),
    st.text(alphabet="pto ²٣１.\x1b;", max_size=20),
)
# One field wrong and the rest intact reaches furthest (a digest of the wrong type is noticed
# only after a whole replay); many wrong at once covers the order of the checks.
one_wrong = st.sampled_from(sorted(GOOD)).flatmap(
    lambda name: json_values.map(lambda value: {**GOOD, name: value})
)
records = one_wrong | fields_of(
    GOOD,
    config=[fields_of(GOOD["config"])],
    actions=[
        st.tuples(st.integers(0, len(GOOD["actions"])), odd_actions).map(
            lambda cut: [*GOOD["actions"][: cut[0]], cut[1]]
        )
    ],
    seed=[st.sampled_from([-1, 2**64, 2**64 - 1, 10**100])],
)


def one_line(exc: BaseException) -> None:
    assert isinstance(exc, EngineError), f"{type(exc).__name__}: {exc}"
    assert "\n" not in str(exc)


def read_and_replay(data: Any) -> None:
    try:
        record = GameRecord.from_json(data)
        replay(record)
    except Exception as exc:
        one_line(exc)
    else:
        assert _difference(record) is None or isinstance(_difference(record), str)


@FUZZ
@given(records)
def test_any_record_shape_fails_only_with_a_record_error(data):
    read_and_replay(data)


@FUZZ
@given(json_values)
def test_any_json_value_fails_only_with_a_record_error(data):
    read_and_replay(data)


@FUZZ
@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda t: t.encode()))
def test_any_bytes_in_a_record_file_fail_only_with_a_record_error(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("fuzz") / "game.json"
    path.write_bytes(raw)
    try:
        GameRecord.load(path)
    except Exception as exc:
        one_line(exc)


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=1, max_value=200_000), st.sampled_from("[{"))
def test_deeply_nested_json_fails_only_with_a_record_error(tmp_path_factory, depth, opener):
    path = tmp_path_factory.mktemp("deep") / "game.json"
    path.write_text(opener * depth if opener == "[" else '{"a":' * depth)
    try:
        GameRecord.load(path)
    except Exception as exc:
        one_line(exc)


# --- the terminal prompt ------------------------------------------------------------------------

ODD = "0123456789²³¹٣۳१１⁹ \t;\x00\x1b\x07\x7f\u202e\u2028pP-.,/?abc"
typed = st.one_of(
    st.text(alphabet=ODD, max_size=30),
    st.text(max_size=30),
    st.text(alphabet="0123456789", min_size=1, max_size=6000),  # past int()'s 4,300 digits
    st.sampled_from(["pass", "1", "play", "target p2.good", "to p²", "target p²", "0", "help"]),
)


def session(tmp_path: Path) -> tuple[Session, io.StringIO]:
    game = get_game("apokalypse")
    config = game.config_from_options(3, [], None)
    out = io.StringIO()
    s = Session(
        console=Console(file=out, width=120, color_system=None),
        lang="en",
        state=game.new_game(config, 11),
        record=GameRecord("apokalypse", game.version, config.to_json(), 11),
        path=tmp_path / "game.json",
        humans=frozenset({0}),
        bots={},
    )
    return s, out


@FUZZ
@given(typed)
def test_whatever_is_typed_the_game_changes_only_by_a_legal_action(tmp_path_factory, line):
    s, out = session(tmp_path_factory.mktemp("prompt"))
    seat = s.state.to_act
    view = s.seat_view(seat)  # what the prompt shows
    legal = list(s.state.legal_actions())
    before = json.dumps(s.state.observation(None), sort_keys=True, default=str)
    try:
        applied = s.try_line(seat, line, view, legal)
    except Quit:
        assert line.strip().lower() in QUIT_WORDS
        return
    after = json.dumps(s.state.observation(None), sort_keys=True, default=str)
    if applied:
        assert len(s.record.actions) == 1 and s.record.actions[0] in {str(a) for a in legal}
    else:
        assert s.record.actions == [] and after == before
    assert "\x1b" not in out.getvalue()
