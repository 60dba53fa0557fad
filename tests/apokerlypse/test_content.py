"""Effects as content (KD-SETUP-1): the packaged files, custom files, and validation errors that
name the entry and the field."""

from __future__ import annotations

import pytest

from apokalypse.engine.errors import ConfigError, DataFileError
from apokalypse.engine.registry import get_game
from apokalypse.games.apokerlypse import Config
from apokalypse.games.apokerlypse.cards import CODES, FACTIONS, parse_card
from apokalypse.games.apokerlypse.content import (
    KINDS,
    TIMINGS,
    load_content,
    packaged_text,
    parse_content,
)
from tests.apokerlypse.builders import content_with, new


@pytest.mark.parametrize("name", ["standard-2", "standard"])
def test_kd_setup_1_the_standard_contents_52_distinct_effects_4_abilities(name: str) -> None:
    """KD-SETUP-1: the project's own designs (the default, "standard-2", and the first edition
    kept for its records), marked as such: every one of the 52 cards has an effect, no two the
    same, and every faction an ability; the engine's limits hold (a block answers at any time;
    an ability is timed any or final)."""
    assert Config().content == "standard-2"
    text = packaged_text(name)
    assert "THIS PROJECT'S OWN DESIGN" in text.split("[content]")[0]
    standard = load_content(name)
    assert standard.name == name
    effects = [e for e in standard.effects if e is not None]
    assert len(effects) == 52
    assert len({(e.kind, e.timing, tuple(sorted(e.params().items()))) for e in effects}) == 52
    assert len({e.name for e in effects}) == 52 and all(e.name for e in effects)
    assert all(e.timing == "any" for e in effects if e.kind == "block")
    assert all(
        f.ability is not None and f.ability.timing in ("any", "final") for f in standard.factions
    )
    assert [f.name for f in standard.factions] == ["Military", "Civilians", "Plunderers", "Zombies"]
    assert [f.action_chips for f in standard.factions] == [(1, 2, 2)] * 4  # K-SETUP-2


def test_kd_setup_1_no_effect_of_standard_2_is_a_no_op_or_needs_the_bank() -> None:
    """KD-SETUP-1: in "standard-2" no change of a card names its own suit or rank (it could
    never change a score: K-SCORE-4), and nothing gains from the bank, which is empty at four
    players (48 chips dealt as 12 each, K-SETUP-2). The first edition had five and ten."""

    def no_ops(name: str) -> list[str]:
        content = load_content(name)
        out = []
        for card, e in enumerate(content.effects):
            assert e is not None
            own = (e.kind == "set-suit" and e.to == card & 3) or (
                e.kind == "set-rank" and e.to == card >> 2
            )
            if own or e.kind == "gain":
                out.append(CODES[card])
        return out

    assert no_ops("standard-2") == []
    assert len(no_ops("standard")) == 15  # replaced by the second edition (with 5♥)


def test_kd_setup_1_plain_content_has_no_effects() -> None:
    """KD-SETUP-1: the plain game (variant plain-content): no card effects, no abilities."""
    plain = load_content("plain")
    assert all(e is None for e in plain.effects)
    assert all(f.ability is None for f in plain.factions)
    assert not plain.has_blocks
    assert [f.action_chips for f in plain.factions] == [(1, 2, 2)] * 4
    game = get_game("apokerlypse")
    assert game.config_from_options(2, ["plain-content"], None).content == "plain"
    assert game.config_from_options(2, ["example-content"], None).content == "example"
    assert game.config_from_options(2, [], None).content == "standard-2"
    with pytest.raises(ConfigError, match="give one content"):
        game.config_from_options(2, ["plain-content", "example-content"], None)


def test_kd_setup_1_example_content_is_marked_and_exercises_every_kind() -> None:
    """KD-SETUP-1: the example file says it is example content and uses every effect kind, every
    timing and one ability per faction."""
    text = packaged_text("example")
    assert "EXAMPLE CONTENT" in text.splitlines()[1]
    assert "NOT THE REAL" in text.splitlines()[1]
    example = load_content("example")
    used = {e.kind for e in example.effects if e is not None}
    used |= {f.ability.kind for f in example.factions if f.ability is not None}
    # A packaged content never changes once released (records name it): the kinds added with
    # "standard-2" are exercised there, and documented here.
    newer = {e.kind for e in load_content("standard-2").effects if e is not None}
    assert used | newer == set(KINDS)
    assert all(f"#     {kind} " in text for kind in KINDS), "every kind documented"
    assert {e.timing for e in example.effects if e is not None} == set(TIMINGS)
    assert all(f.ability is not None for f in example.factions)
    assert [f.name for f in example.factions] == ["Military", "Civilians", "Plunderers", "Zombies"]


def test_kd_setup_1_custom_content_text_plays_and_is_kept_in_the_config() -> None:
    text = content_with('[card.2c]\ntiming = "draw"\nkind = "gain"\namount = 3\n')
    s = new(2, content=text)
    assert s.content.effects[parse_card("2c")] is not None
    assert Config.from_json(s.config.to_json()) == s.config
    assert s.config.to_json()["content"] == text


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[card.1x]\ntiming = "draw"\nkind = "gain"\namount = 1\n', "card '1x'"),
        ("[card.7h]\nkind = 'gain'\namount = 1\n", "card '7h': field 'timing' is missing"),
        ("[card.7h]\ntiming = 'soon'\nkind = 'gain'\n", "card '7h': field 'timing' must be"),
        ("[card.7h]\ntiming = 'draw'\n", "card '7h': field 'kind' is missing"),
        ("[card.7h]\ntiming = 'draw'\nkind = 'joker'\n", "card '7h': field 'kind' 'joker'"),
        ("[card.7h]\ntiming = 'draw'\nkind = 'gain'\n", "card '7h': field 'amount' is missing"),
        (
            "[card.7h]\ntiming = 'draw'\nkind = 'gain'\namount = 0\n",
            "card '7h': field 'amount' must be a whole number 1–48",
        ),
        (
            "[card.7h]\ntiming = 'draw'\nkind = 'gain'\namount = 1\nwho = 'god'\n",
            "card '7h': field 'who' must be one of",
        ),
        (
            "[card.7h]\ntiming = 'draw'\nkind = 'gain'\namount = 1\nfactor = 2\n",
            "card '7h': field 'factor' is not a parameter of 'gain'",
        ),
        (
            "[card.7h]\ntiming = 'final'\nkind = 'set-suit'\nto = 'x'\n",
            "card '7h': field 'to' is wrong",
        ),
        ("[card.7h]\ntiming = 'final'\nkind = 'block'\n", "card '7h': field 'timing' of a block"),
        (
            "[card.7h]\ntiming = 'draw'\nkind = 'gain'\namount = 1\n"
            "[card.7H]\ntiming = 'draw'\nkind = 'gain'\namount = 1\n",
            "card '7H': card 7h has a second entry",
        ),
        ("[faction.robots]\nname = 'Robots'\n", "faction 'robots' is not one of"),
        (
            "[faction.zombies]\naction_chips = [1, 2]\n",
            "faction 'zombies': field 'action_chips' must list three",
        ),
        (
            "[faction.zombies]\nability = { timing = 'draw', kind = 'gain', amount = 1 }\n",
            "faction 'zombies'.ability: field 'timing' must be one of any, final",
        ),
        (
            "[faction.zombies]\nability = { timing = 'any', kind = 'block' }\n",
            "faction 'zombies'.ability: field 'kind' 'block' acts on a card",
        ),
        ("[faction.zombies]\ncolour = 'green'\n", "faction 'zombies': field 'colour'"),
        ("[cards.7h]\n", "unknown section 'cards'"),
        ("[card.7h\n", "not valid TOML"),
    ],
)
def test_kd_setup_1_malformed_content_names_entry_and_field(body: str, message: str) -> None:
    with pytest.raises(DataFileError) as info:
        parse_content(content_with(body))
    assert message in str(info.value)


def test_k_setup_1_action_chips_of_the_factions_fit_the_sixteen_in_the_box() -> None:
    """K-SETUP-1: 16 action chips for four factions, so at most four each."""
    body = "".join(f"[faction.{name}]\naction_chips = [1, 2, 4]\n\n" for name in FACTIONS)
    parse_content(content_with(body))  # 4 × 4 = 16: fits
    five = body.replace(
        "[faction.zombies]\naction_chips = [1, 2, 4]", "[faction.zombies]\naction_chips = [1, 2, 5]"
    )
    with pytest.raises(DataFileError, match=r"faction 'zombies': field 'action_chips'.*16"):
        parse_content(content_with(five))


def test_a_bad_content_in_the_config_is_refused_at_once() -> None:
    with pytest.raises(DataFileError):
        Config(players=2, content="[card.7h]\ntiming = 'x'\n")
    with pytest.raises(ConfigError):
        Config.from_json({"players": 2, "content": 3})


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[card.7h]\ntiming = 'draw'\nkind = ['gain']\namount = 1\n", "card '7h': field 'kind'"),
        ("[card.7h]\ntiming = 'draw'\nkind = {a = 1}\namount = 1\n", "card '7h': field 'kind'"),
        ("[card.7h]\ntiming = ['draw']\nkind = 'gain'\namount = 1\n", "card '7h': field 'timing'"),
        ("[card.7h]\ntiming = 'draw'\nkind = 'gain'\namount = 1.0\n", "card '7h': field 'amount'"),
        ("[card.7h]\ntiming = 'draw'\nkind = 'gain'\namount = true\n", "card '7h': field 'amount'"),
        (
            "[card.7h]\ntiming = 'draw'\nkind = 'gain'\namount = 1\nwho = ['all']\n",
            "card '7h': field 'who'",
        ),
        ("[card.7h]\ntiming = 'final'\nkind = 'set-suit'\nto = 3\n", "card '7h': field 'to'"),
        ("[card.7h]\ntiming = 'final'\nkind = 'set-rank'\nto = [10]\n", "card '7h': field 'to'"),
        ("[card.7h]\ntiming = 'draw'\nkind = 'peek'\nname = 7\n", "card '7h': field 'name'"),
        ("[card.7h]\ntiming = 'draw'\nkind = 'peek'\nname = ['x']\n", "card '7h': field 'name'"),
        ("[card.7h]\ntiming = 'draw'\nkind = 'peek'\nname = \"a\\u001b[31m\"\n", "field 'name'"),
        ("[card.7h]\ntiming = 'draw'\nkind = 'peek'\nname = \"two\\nlines\"\n", "field 'name'"),
        ("[card.7h]\ntiming = 'draw'\nkind = 'peek'\nname = \"\\u202eevil\"\n", "field 'name'"),
        ("[card.7h]\ntiming = 'draw'\nkind = 'peek'\nname = '" + "n" * 61 + "'\n", "'name'"),
        ("[card.7h]\n", "card '7h': field 'timing' is missing"),
        ("[card]\n7h = 3\n", "card '7h': must be a table"),
        ("[faction.zombies]\nname = 3\n", "faction 'zombies': field 'name'"),
        ('[faction.zombies]\nname = "\\u0007"\n', "faction 'zombies': field 'name'"),
        ("[faction.zombies]\naction_chips = 'abc'\n", "faction 'zombies': field 'action_chips'"),
        (
            "[faction.zombies]\naction_chips = [1, 2, 9223372036854775807]\n",
            "faction 'zombies': field 'action_chips'",
        ),
        ("[faction.zombies]\nability = 'take'\n", "faction 'zombies'.ability: must be a table"),
        (
            "[faction.zombies]\nability = { timing = 'any', kind = ['take'] }\n",
            "faction 'zombies'.ability: field 'kind'",
        ),
    ],
)
def test_kd_setup_1_fields_of_the_wrong_type_are_refused_by_entry_and_field(
    body: str, message: str
) -> None:
    with pytest.raises(DataFileError) as info:
        parse_content(content_with(body))
    assert message in str(info.value)
    assert "\n" not in str(info.value) and "\x1b" not in str(info.value)


@pytest.mark.parametrize(
    "meta",
    ["[content]\nname = 3\n", '[content]\nname = "a\\u001b[2J"\n', "content = 'x'\n"],
)
def test_kd_setup_1_the_content_name_is_short_printable_text(meta: str) -> None:
    with pytest.raises(DataFileError, match=r"\[content\].*'name'"):
        parse_content(meta)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("card = [1]\n", "'card' must be a table"),
        ("card = 'x'\n", "'card' must be a table"),
        ("faction = 'x'\n", "'faction' must be a table"),
        ("faction = [{}]\n", "'faction' must be a table"),
    ],
)
def test_kd_setup_1_sections_of_the_wrong_type_are_refused(text: str, message: str) -> None:
    with pytest.raises(DataFileError, match=message):
        parse_content(text)


def test_kd_setup_1_every_number_of_a_content_file_is_bounded() -> None:
    """Every whole-number parameter of every kind has a finite range: 2**63 - 1 is refused by
    entry and field (a count that large would take cards until memory runs out)."""
    huge = 9223372036854775807
    for kind, params in KINDS.items():
        for field, (typ, _low, high, _default) in params.items():
            if typ != "int":
                continue
            assert high <= 48
            timing = "any" if kind == "block" else "final"
            body = f"[card.7h]\ntiming = '{timing}'\nkind = '{kind}'\n{field} = {huge}\n"
            with pytest.raises(DataFileError, match=rf"card '7h': field '{field}' must be"):
                parse_content(content_with(body))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# " + "x" * (1 << 20) + "\n", "larger than"),
        ("a = " + "[" * 100_000, "nested too deeply"),
        ("[card.7h]\ntiming = 'draw'\nkind = 'gain'\namount = " + "9" * 5000, "not valid TOML"),
    ],
)
def test_kd_setup_1_huge_or_deeply_nested_content_is_refused(text: str, message: str) -> None:
    with pytest.raises(DataFileError, match=message) as info:
        parse_content(text)
    assert "\n" not in str(info.value)
    with pytest.raises(DataFileError):
        Config(players=2, content=text)


@pytest.mark.parametrize(
    "data",
    [
        {"players": "4"},
        {"players": True},
        {"players": 4.0},
        {"players": 2, "content": ["plain"]},
        {"players": 2, "content": None},
        {"players": 2, "table": ["full"]},
        {"players": 2, "table": {}},
        {"players": 2, "bonus_cap": "yes"},
        {"players": 2, "variants": [1, None, {}]},
        "players",
    ],
)
def test_a_config_of_the_wrong_type_is_a_config_error(data: object) -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_json(data)
    assert "\n" not in str(info.value)
