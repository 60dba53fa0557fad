"""Fuzzing the loaders and notation parsers of both games (docs/design.md:
refusals are typed).

Whatever a deck file, a content file, a record's config or a line typed at the terminal holds,
the engine either accepts it or refuses it with one of its own errors (an ``EngineError``) whose
message is one line. No other exception may escape: an ``IndexError`` or ``RecursionError`` from
a malformed file would be a crash of the terminal game or the simulator, and a ``MemoryError``
(``count = 2**63``) would take the machine down with it.

Random documents are built as Python values with hypothesis and written out as TOML by the small
serialiser below (the standard library reads TOML but does not write it); besides wholly random
documents, the shipped ``deck.toml`` and ``example.toml`` are mutated field by field, so that the
checks deep inside the parsers are reached too.
"""

from __future__ import annotations

import math
import os
import tempfile
import tomllib
from collections.abc import Callable
from datetime import UTC, date, datetime, time
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apokalypse.engine.errors import ConfigError, DataFileError, EngineError, NotationError
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng
from apokalypse.games import apokalypse as apo
from apokalypse.games import apokerlypse as poker
from apokalypse.games.apokalypse.actions import USES
from apokalypse.games.apokalypse.actions import VERBS as APOKALYPSE_VERBS
from apokalypse.games.apokalypse.cards import default_deck_text, load_deck_text, parse_deck
from apokalypse.games.apokerlypse.actions import VERBS as APOKERLYPSE_VERBS
from apokalypse.games.apokerlypse.content import packaged_text, parse_content

T = TypeVar("T")
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=400, deadline=None)
FEW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def accepted_or_refused(call: Callable[[], T]) -> T | None:
    """Run ``call``: its value, or None when it raised an engine error with a one-line message.
    Any other exception propagates and fails the test."""
    try:
        return call()
    except EngineError as exc:
        message = str(exc)
        assert message and len(message.splitlines()) == 1, repr(message)
        assert "\x1b" not in message  # a message never carries an escape sequence to the screen
        return None


# --- a small TOML writer ------------------------------------------------------------------------


def toml_string(text: str) -> str:
    """A basic string: quotes, backslashes and control characters escaped."""
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):  # before int: bool is an int
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    assert isinstance(value, dict)
    pairs = (f"{toml_string(k)} = {toml_value(v)}" for k, v in value.items())
    return "{" + ", ".join(pairs) + "}"


def toml_document(doc: dict[str, Any]) -> str:
    """Top-level keys one per line; tables inline (the same document to a TOML reader)."""
    return "".join(f"{toml_string(k)} = {toml_value(v)}\n" for k, v in doc.items())


# --- strategies -----------------------------------------------------------------------------------

interesting_ints = st.sampled_from(
    [0, 1, 2, 3, 4, 5, 6, 9, 10, 48, 49, 499, 500, 501, 2000, 2001, -1, 2**31, 2**63 - 1, -(2**63)]
)
ints = st.integers(min_value=-(2**63), max_value=2**63 - 1) | interesting_ints
interesting_texts = st.sampled_from(
    ["", "B", "K", "metal", "protection", "dual", "icon", "violence", "church", "saint", "mask",
     "pig", "helmet", "M/HP", "seal", "populace", "horseman1", "pass", "heaven", "a b", "a;b",
     "\x1b[31m", "+1B", "-1K", "draw", "final", "any", "discard", "gain", "lose", "take",
     "multiplier", "set-suit", "set-rank", "block", "hand-limit", "self", "one", "all", "h", "T",
     "10", "military", "zombies", "x" * 25, "²", "٣"]
)  # fmt: skip
texts = st.text(max_size=30) | interesting_texts
scalars = st.one_of(
    ints,
    st.floats(),
    st.booleans(),
    texts,
    st.datetimes(timezones=st.none() | st.just(UTC)),
    st.dates(),
    st.times(),
)
toml_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)
documents = st.dictionaries(texts, toml_values, max_size=5)


def shipped(text: str) -> dict[str, Any]:
    return tomllib.loads(text)


@st.composite
def mutated(draw: st.DrawFn, original: dict[str, Any], max_changes: int = 4) -> dict[str, Any]:
    """A copy of ``original`` with a few values replaced (by random values of random type and
    size), removed, or added, at any depth."""
    doc = tomllib.loads(toml_document(original))  # a deep copy
    for _ in range(draw(st.integers(min_value=1, max_value=max_changes))):
        node: Any = doc
        # Walk down a random path of tables and arrays, then change what is there.
        while isinstance(node, dict | list) and node and draw(st.booleans()):
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            child = node[draw(st.sampled_from(keys))]
            if not isinstance(child, dict | list):
                break
            node = child
        if isinstance(node, dict):
            key = draw(st.sampled_from(sorted(node)) | texts) if node else draw(texts)
            if key in node and draw(st.integers(0, 4)) == 0:
                del node[key]
            else:
                node[key] = draw(toml_values)
        elif isinstance(node, list):
            if len(node) > 0 and draw(st.booleans()):
                node[draw(st.integers(0, len(node) - 1))] = draw(toml_values)
            elif len(node) > 0 and draw(st.booleans()):
                node.append(node[draw(st.integers(0, len(node) - 1))])  # a duplicate entry
            else:
                node.append(draw(toml_values))
    return doc


DECK = shipped(default_deck_text())
EXAMPLE = shipped(packaged_text("example"))
DECK_FIELDS = sorted({field for entry in DECK["card"] for field in entry})
EFFECT_FIELDS = ["timing", "kind", "name", "amount", "who", "count", "steps", "factor", "to"]
field_values = ints | interesting_texts | toml_values


@st.composite
def deck_documents(draw: st.DrawFn) -> dict[str, Any]:
    """The shipped deck, some of its entries left out (decks too small to deal from), and a
    few fields of the rest replaced by values of any type and size."""
    cards = draw(
        st.lists(st.sampled_from(DECK["card"]), min_size=1, unique_by=lambda entry: entry["code"])
    )
    cards = [dict(entry) for entry in cards]
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        entry = draw(st.sampled_from(cards))
        entry[draw(st.sampled_from(DECK_FIELDS) | texts)] = draw(field_values)
    return {"card": cards}


@st.composite
def content_documents(draw: st.DrawFn) -> dict[str, Any]:
    """The example content with a few effect, ability and faction fields replaced."""
    doc = tomllib.loads(toml_document(EXAMPLE))  # a deep copy
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        faction = doc["faction"][draw(st.sampled_from(sorted(doc["faction"])))]
        code = draw(st.sampled_from(sorted(doc["card"])))
        table = draw(st.sampled_from([doc["content"], doc["card"], doc["card"][code], faction,
                                      faction["ability"]]))  # fmt: skip
        field = draw(st.sampled_from([*EFFECT_FIELDS, "action_chips", "ability"]) | texts)
        if isinstance(table, dict):  # an earlier round may have replaced it by a plain value
            table[field] = draw(field_values)
    return doc


def test_the_toml_writer_writes_what_tomllib_reads() -> None:
    assert tomllib.loads(toml_document(DECK)) == DECK
    assert tomllib.loads(toml_document(EXAMPLE)) == EXAMPLE


@FUZZ
@given(documents)
def test_the_toml_writer_round_trips_random_documents(doc: dict[str, Any]) -> None:
    text = toml_document(doc)
    assert toml_document(tomllib.loads(text)) == text


# --- Apokalypse: deck files -----------------------------------------------------------------


@FUZZ
@given(st.text() | documents.map(toml_document))
def test_random_text_to_the_deck_parser_is_accepted_or_refused(text: str) -> None:
    accepted_or_refused(lambda: parse_deck(text))


@FUZZ
@given(st.binary(max_size=300) | st.text().map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_random_bytes_in_a_deck_file_are_accepted_or_refused(data: bytes) -> None:
    fd, path = tempfile.mkstemp(suffix=".toml")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        text = accepted_or_refused(lambda: load_deck_text(path))
        if text is not None:
            accepted_or_refused(lambda: parse_deck(text))
    finally:
        os.unlink(path)


def play_a_little(game: Any, config: Any, seed: int, steps: int) -> None:
    """Deal and play ``steps`` random decisions: a config that was accepted must play."""
    state = game.new_game(config, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        assert game.parse_action(str(action)) == action
        state.apply(action)


@FEW
@given(
    st.integers(min_value=2, max_value=6),
    deck_documents() | mutated({"card": DECK["card"]}) | documents,
    st.integers(min_value=0, max_value=2**32),
)
def test_mutated_decks_configure_and_deal_or_are_refused(
    players: int, doc: dict[str, Any], seed: int
) -> None:
    text = toml_document(doc)
    config = accepted_or_refused(lambda: apo.Config(players=players, deck=text))
    if config is not None:
        play_a_little(apo.GAME, config, seed, 60)
        # A record's config goes through from_json: the same deck comes back.
        assert apo.Config.from_json(config.to_json()) == config


@FEW
@given(st.dictionaries(st.sampled_from(["players", "variants", "deck", "x"]), toml_values))
def test_random_apokalypse_configs_are_accepted_or_refused(data: dict[str, Any]) -> None:
    accepted_or_refused(lambda: apo.Config.from_json(data))


# --- Apokerlypse: content files -------------------------------------------------------------


@FUZZ
@given(st.text() | documents.map(toml_document))
def test_random_text_to_the_content_parser_is_accepted_or_refused(text: str) -> None:
    accepted_or_refused(lambda: parse_content(text))


@FEW
@given(
    st.integers(min_value=2, max_value=4),
    content_documents() | mutated(EXAMPLE) | documents,
    st.integers(min_value=0, max_value=2**32),
)
def test_mutated_content_configures_and_plays_or_is_refused(
    players: int, doc: dict[str, Any], seed: int
) -> None:
    text = toml_document(doc)
    config = accepted_or_refused(lambda: poker.Config(players=players, content=text))
    if config is not None:
        play_a_little(poker.GAME, config, seed, 60)
        assert poker.Config.from_json(config.to_json()) == config


@FEW
@given(st.dictionaries(st.sampled_from(["players", "table", "bonus_cap", "content"]), toml_values))
def test_random_apokerlypse_configs_are_accepted_or_refused(data: dict[str, Any]) -> None:
    accepted_or_refused(lambda: poker.Config.from_json(data))


# --- action notation of both games ----------------------------------------------------------

NOTATION_WORDS = [
    *APOKALYPSE_VERBS, *USES, *APOKERLYPSE_VERBS, "p", "p1", "p2", "p0", "p7",
    "p²", "p٣", "p" + "9" * 5000, "good", "evil", "heaven", "earth", "nether", "m/hp", "M/HP",
    "metal", "7h", "10h", "Th", "ah", "1h", "²h", "0", "1", "00", "²", "٣", "9" * 5000, "-1",
    "+1", ";", "\x1b[31m", "é", "ｐ１",
]  # fmt: skip
words = st.sampled_from(NOTATION_WORDS) | st.text(max_size=4)
numbers = st.sampled_from(["0", "1", "3", "07", "²", "٣", "9" * 5000, "-1", "", "1 "]) | st.text(
    alphabet="0123456789²³¹٣۳߃１", min_size=1, max_size=5
)
seats = st.builds("p{}".format, numbers) | st.builds("{}{}".format, words, numbers)
sides = st.sampled_from(["good", "evil", "GOOD", "heaven"]) | words
planes = st.sampled_from(["heaven", "earth", "nether", "Nether", "evil"]) | words
places = st.one_of(
    st.builds(lambda *parts: ".".join(parts), seats, sides),
    st.builds(lambda *parts: ".".join(parts), seats, sides, planes),
    st.builds(lambda *parts: ".".join(parts), seats, sides, planes, numbers),
    st.lists(seats | words | numbers | sides, min_size=1, max_size=5).map(".".join),
)
notation_texts = st.one_of(
    # Well-shaped: the right verb with the right number of arguments, arguments going wrong.
    st.builds("{} {}".format, st.sampled_from(["to", "steal", "target", "Target"]), seats),
    st.builds("target {}".format, places),
    st.builds("{} {}".format, st.sampled_from([*APOKALYPSE_VERBS, *APOKERLYPSE_VERBS]), words),
    st.builds("play {} {}".format, words, st.sampled_from(USES) | words),
    # Anything: verbs and arguments in any number, joined by anything.
    st.builds(
        lambda verb, args, sep: sep.join([verb, *args]),
        st.sampled_from([*APOKALYPSE_VERBS, *APOKERLYPSE_VERBS]) | words,
        st.lists(seats | places | words, max_size=3),
        st.sampled_from([" ", "  ", "\t", ".", ""]),
    ),
)


@MANY
@given(st.text() | notation_texts)
def test_random_text_to_the_apokalypse_parser_parses_back_or_is_refused(text: str) -> None:
    action = accepted_or_refused(lambda: apo.parse_action(text))
    if action is not None:
        assert apo.parse_action(str(action)) == action


@MANY
@given(st.text() | notation_texts)
def test_random_text_to_the_apokerlypse_parser_parses_back_or_is_refused(text: str) -> None:
    action = accepted_or_refused(lambda: poker.parse_action(text))
    if action is not None:
        assert poker.parse_action(str(action)) == action


@pytest.mark.parametrize(
    "text",
    [
        "to p²", "steal p²", "to p٣", "target p1.good.heaven.²", "target p1.good.heaven.٣",
        "target p².good", "steal p" + "9" * 5000, "target p1.good.heaven." + "9" * 5000,
        "target p1.good.heaven.1234", "to p1234", "to p+1", "target p1.good.heaven.-1",
        "target p1.good.heaven. 1", "give \x1b[31m", "play é heaven", "give a;b",
        "play " + "x" * 25 + " heaven", "defend ｍ/hp",
    ],
)  # fmt: skip
def test_apokalypse_seats_positions_and_codes_take_a_small_ascii_set(text: str) -> None:
    """``str.isdigit()`` is true for '²' (int() then fails) and int() refuses 4,300 digits: both
    crashed ``parse_action``. Codes outside the deck files' character set cannot name a card."""
    with pytest.raises(NotationError) as info:
        apo.parse_action(text)
    message = str(info.value)
    assert len(message.splitlines()) == 1 and "\x1b" not in message and len(message) < 300


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("to p03", "to p3"),
        ("target p2.evil.nether.007", "target p2.evil.nether.7"),
        ("PLAY M/HP Heaven", "play m/hp heaven"),
        ("give a-b_c+d.e", "give a-b_c+d.e"),
    ],
)
def test_apokalypse_notation_still_reads_what_it_did(text: str, expected: str) -> None:
    assert str(apo.parse_action(text)) == expected


def test_a_deck_file_with_a_data_file_error_names_entry_and_field() -> None:
    # The shape every deck refusal keeps (docs/games.md, "Your own deck").
    text = toml_document({"card": [{**DECK["card"][0], "count": 2**63 - 1}, *DECK["card"][1:]]})
    with pytest.raises(DataFileError, match=r"card #1 \('m/hp'\): field 'count'"):
        parse_deck(text)


@pytest.mark.parametrize("game", ["apokalypse", "apokerlypse"])
def test_an_unknown_config_field_is_named_on_one_line(game: str) -> None:
    """Found by the record fuzzer: a field name with a line break came out raw."""
    with pytest.raises(ConfigError) as caught:
        get_game(game).config_from_json({"players": 3, "x\ny\x1b": 1})
    assert str(caught.value) == "config has unknown field(s): 'x\\ny\\x1b'"
