"""Components (R-COMP, D-COMP) and setup (R-SETUP, V-ETHOS-BALANCED) of Apokalypse."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from apokalypse.engine.errors import ConfigError, DataFileError
from apokalypse.engine.record import GameRecord, replay
from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import GAME, Config
from apokalypse.games.apokalypse.actions import USES, VERBS
from apokalypse.games.apokalypse.cards import (
    CHURCH,
    DUAL,
    EARTH,
    EVIL,
    FIEND,
    GOOD,
    HELMET,
    ICON,
    ICON_OF_HORSEMAN,
    MASK,
    METAL,
    PIG,
    PLANE_NAMES,
    PROTECTION,
    RESERVED_CODES,
    SAINT,
    SEAL,
    SIDE_NAMES,
    CardTable,
    card_table,
    default_deck_text,
    load_deck_text,
    parse_deck,
)
from apokalypse.games.apokalypse.config import variant_id
from apokalypse.games.apokalypse.dealing import serving_slots
from apokalypse.games.apokalypse.horsemen import losses
from apokalypse.games.apokalypse.pending import Turn
from apokalypse.games.apokalypse.secrecy import ethos_pool
from tests.apokalypse.builders import act, all_cards, blank, hand, new, put
from tests.helpers import refused

PATTERNS = ("m/hp", "h/mp", "p/mh", "hp/m", "mp/h", "mh/p")
DUALS = ("chastity/sex", "job/drugs", "piety/gambling")
ICONS = ("mask", "helmet", "pig")
SEEDS = range(120)


def table(players: int) -> CardTable:
    return card_table(default_deck_text(), players <= 3)


def deck_codes(t: CardTable, back: str) -> Counter[str]:
    cards = t.b_cards if back == "B" else t.k_cards
    return Counter(t.kind[c].code for c in cards)


def roles(t: CardTable, back: str) -> Counter[str]:
    cards = t.b_cards if back == "B" else t.k_cards
    return Counter(t.kind[c].role for c in cards)


# --- R-COMP ---------------------------------------------------------------------------------


def test_r_comp_1_population_deck_has_54_protection_and_6_heavy_metal() -> None:
    t = table(4)
    assert len(t.b_cards) == 60
    assert all(t.kind[c].back == "B" for c in t.b_cards)
    assert roles(t, "B") == {PROTECTION: 54, METAL: 6}


def test_r_comp_1_any_b_card_plays_from_its_back_on_either_side() -> None:
    s = blank(4)
    hand(s, 0, "metal", "p/mh")
    act(s, "play metal good", "target p1.good", "give p/mh", "to p2")
    hand(s, 1, "hp/m")
    hand(s, 2, "church")
    act(s, "play hp/m evil", "target p2.evil", "steal p3")
    assert s.code(s.displays[0][GOOD * 3 + EARTH][0]) == "metal"
    assert s.code(s.displays[1][EVIL * 3 + EARTH][0]) == "hp/m"


def test_r_comp_2_protection_cards_split_the_three_icons_one_and_two() -> None:
    t = table(4)
    for c in t.b_cards:
        kind = t.kind[c]
        if kind.role != PROTECTION:
            continue
        left, right = kind.icons
        assert left & right == 0
        assert left | right == MASK | HELMET | PIG
        assert sorted((bin(left).count("1"), bin(right).count("1"))) == [1, 2]


def test_r_comp_2_only_the_visible_half_counts() -> None:
    """m/hp shows the mask on the good side, helmet and pig on the evil side."""
    s = blank(4)
    put(s, 0, "good", "earth", "pop")
    put(s, 0, "good", "heaven", "m/hp")
    put(s, 1, "evil", "earth", "pop")
    put(s, 1, "evil", "nether", "chastity/sex")
    put(s, 1, "evil", "heaven", "m/hp")
    assert [losses(s, 0, n) for n in (1, 2, 3)] == [(0, 0), (1, 0), (1, 0)]
    assert [losses(s, 1, n) for n in (1, 2, 3)] == [(0, 1), (0, 0), (0, 0)]


def test_r_comp_3_capital_deck_split() -> None:
    t = table(4)
    assert len(t.k_cards) == 63
    assert all(t.kind[c].back == "K" for c in t.k_cards)
    r = roles(t, "K")
    assert r[DUAL] + r[ICON] == 36
    assert r[SAINT] + r[FIEND] == 6
    assert r[CHURCH] == 6
    assert r["violence"] + r["ethos-change"] == 15


def test_r_comp_4_dual_card_modifiers_per_half() -> None:
    """Chastity −1B | Sex +1B; Job +1K | Drugs +1K; Piety +1B | Gambling −1K."""
    expected = {
        "chastity/sex": ((-1, 0), (1, 0)),
        "job/drugs": ((0, 1), (0, 1)),
        "piety/gambling": ((1, 0), (0, -1)),
    }
    kinds = table(4).kinds_by_code
    for code, modifier in expected.items():
        assert kinds[code].role == DUAL
        assert kinds[code].modifier == modifier


def test_r_comp_4_modifiers_change_what_a_populace_earns() -> None:
    s = blank(4)
    for seat, card in enumerate(DUALS):
        put(s, seat, "good", "earth", "pop")
        put(s, seat, "good", "heaven", "h/mp")
        put(s, seat, "good", "nether", card)
        put(s, seat, "evil", "earth", "pop")
        put(s, seat, "evil", "nether", card)
    # [basic, good pos 0 (+ evil extras)] for B; [basic, evil pos 0 (+ good extras)] for K
    assert serving_slots(s, 0, 0) == [1, 0, 1] and serving_slots(s, 0, 1) == [1, 1]
    assert serving_slots(s, 1, 0) == [1, 1] and serving_slots(s, 1, 1) == [1, 2, 1]
    assert serving_slots(s, 2, 0) == [1, 2] and serving_slots(s, 2, 1) == [1, 0]


def test_r_comp_4_icon_cards_show_one_icon_on_both_halves() -> None:
    kinds = table(4).kinds_by_code
    for code, bit in zip(ICONS, (MASK, HELMET, PIG), strict=True):
        assert kinds[code].role == ICON
        assert kinds[code].icons == (bit, bit)


def test_r_comp_5_seals_ethos_and_horsemen() -> None:
    t = table(4)
    assert len(t.seals) == 6 and all(t.kind[c].role == SEAL for c in t.seals)
    pool = ethos_pool(6, False)
    assert pool.count(GOOD) == 3 and pool.count(EVIL) == 3
    assert len(t.horsemen) == 3
    for group in t.horsemen:
        assert [t.kind[c].horseman for c in group] == [1, 2, 3, 4]
    assert ICON_OF_HORSEMAN == {1: MASK, 2: HELMET, 3: PIG}


def test_r_comp_5_horseman_4_needs_all_three_icons() -> None:
    s = blank(4)
    for seat, heaven in ((0, "m/hp"), (1, "mp/h")):  # mask | mask+pig on the good half
        put(s, seat, "good", "earth", "pop")
        put(s, seat, "good", "heaven", heaven)
        put(s, seat, "good", "nether", "helmet")
    assert losses(s, 0, 4) == (1, 0)  # no pig
    assert losses(s, 1, 4) == (0, 0)  # mask, pig, helmet


def test_r_comp_5_six_setup_sets_mean_at_most_six_players() -> None:
    for players in (1, 7):
        with pytest.raises(ConfigError, match="R-SETUP-1"):
            Config(players=players)


# --- D-COMP ---------------------------------------------------------------------------------


def test_d_comp_1_default_deck_split() -> None:
    t = table(4)
    b, k = deck_codes(t, "B"), deck_codes(t, "K")
    assert b == {**dict.fromkeys(PATTERNS, 9), "metal": 6}
    assert {t.kinds_by_code[p].icons for p in PATTERNS} == {
        (MASK, HELMET | PIG),
        (HELMET, MASK | PIG),
        (PIG, MASK | HELMET),
        (HELMET | PIG, MASK),
        (MASK | PIG, HELMET),
        (MASK | HELMET, PIG),
    }
    assert k == {
        **dict.fromkeys(DUALS, 6),
        **dict.fromkeys(ICONS, 6),
        "saint": 3,
        "fiend": 3,
        "church": 6,
        "violence": 8,
        "ethos": 7,
    }


def test_d_comp_1_deck_file_can_be_replaced_without_code(tmp_path: Path) -> None:
    text = default_deck_text().replace('code = "violence"', 'code = "gewalt"')
    text = text.replace("count = 8\n", "count = 10\n")
    path = tmp_path / "my-deck.toml"
    path.write_text(text, "utf-8")
    config = Config(players=4, deck=load_deck_text(str(path)))
    t = card_table(config.deck_text, False)
    assert deck_codes(t, "K")["gewalt"] == 10 and "violence" not in deck_codes(t, "K")
    assert len(t.k_cards) == 65
    s = GAME.new_game(config, 0)
    assert len(all_cards(s)) == 60 + 65 + 6 + 12
    assert "gewalt" in {s.code(c) for c in s.decks[1]} | {s.code(c) for h in s.hands for c in h}


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ('[[card]]\ncode = "x"\ndeck = "B"\nrole = "metal"\n', ["card #1 ('x')", "'count'"]),
        (
            '[[card]]\ncode = "a"\ndeck = "B"\nrole = "metal"\ncount = 1\n'
            '[[card]]\ncode = "b"\ndeck = "K"\nrole = "protection"\ncount = 1\n',
            ["card #2 ('b')", "'role'"],
        ),
        (
            '[[card]]\ncode = "p"\ndeck = "B"\nrole = "protection"\ncount = 1\n'
            'left = ["mask"]\nright = ["mask", "pig"]\n',
            ["card #1 ('p')", "'left'/'right'"],
        ),
        (
            '[[card]]\ncode = "d"\ndeck = "K"\nrole = "dual"\ncount = 1\ngood = "g"\n'
            'evil = "e"\ngood_modifier = "+2B"\n',
            ["card #1 ('d')", "'good_modifier'"],
        ),
        (
            '[[card]]\ncode = "m"\ndeck = "B"\nrole = "metal"\ncount = 2\nasterisk = 3\n',
            ["card #1 ('m')", "'asterisk'"],
        ),
        ('[[card]]\ncode = "m"\ndeck = "X"\nrole = "metal"\ncount = 2\n', ["('m')", "'deck'"]),
    ],
)
def test_d_comp_1_deck_file_errors_name_entry_and_field(text: str, pieces: list[str]) -> None:
    with pytest.raises(DataFileError) as info:
        parse_deck(text)
    for piece in pieces:
        assert piece in str(info.value)
    with pytest.raises(DataFileError):
        Config(players=4, deck=text)  # refused when the game is configured, not mid-game


def test_d_comp_1_unreadable_deck_file_is_named(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.toml")
    with pytest.raises(DataFileError, match=r"nope\.toml"):
        load_deck_text(missing)
    with pytest.raises(DataFileError, match="not valid TOML"):
        parse_deck("[[card]\n")


def test_d_comp_2_asterisk_cards_shrink_the_deck_to_two_thirds() -> None:
    t = table(3)
    assert deck_codes(t, "B") == {**dict.fromkeys(PATTERNS, 6), "metal": 4}
    assert deck_codes(t, "K") == {
        **dict.fromkeys(DUALS, 4),
        **dict.fromkeys(ICONS, 4),
        "saint": 2,
        "fiend": 2,
        "church": 4,
        "violence": 5,
        "ethos": 5,
    }
    kinds = {k.code: k for k in parse_deck(default_deck_text())}
    assert {k.asterisk for c, k in kinds.items() if c in PATTERNS} == {3}
    assert kinds["metal"].asterisk == 0 and kinds["church"].asterisk == 0


# --- R-SETUP --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "b", "k"), [(2, 40, 42), (3, 40, 42), (4, 60, 63), (6, 60, 63)]
)
def test_r_setup_1_player_count_and_reduced_decks(players: int, b: int, k: int) -> None:
    s = new(players)
    assert s.n == players
    assert len(s.table.b_cards) == b and len(s.table.k_cards) == k
    assert len(all_cards(s)) == b + k + 6 + 12  # every physical card is somewhere
    metal = sum(1 for c in s.table.b_cards if s.table.kind[c].role == METAL)
    church = sum(1 for c in s.table.k_cards if s.table.kind[c].role == CHURCH)
    assert (metal, church) == ((4, 4) if players <= 3 else (6, 6))


def _music(players: int, variants: tuple[str, ...] = ()) -> tuple[int, int, int, int]:
    """(B deck size, K deck size, Heavy Metal in the B deck, Church Music in the K deck) of a
    new game, counted from the cards the game was dealt from."""
    s = new(players, variants=variants)
    metal = sum(1 for c in s.table.b_cards if s.table.kind[c].role == METAL)
    church = sum(1 for c in s.table.k_cards if s.table.kind[c].role == CHURCH)
    assert len(all_cards(s)) == len(s.table.b_cards) + len(s.table.k_cards) + 6 + 12
    return len(s.table.b_cards), len(s.table.k_cards), metal, church


def test_r_setup_1_two_or_three_players_remove_two_heavy_metal_and_two_church_music_2009() -> None:
    """R-SETUP-1 (2009, III.A): with 2–3 players the asterisk cards leave, and two Heavy Metal
    from the B deck and two Church Music from the K deck besides; with 4 all stay."""
    assert _music(2) == _music(3) == (40, 42, 4, 4)
    assert _music(4) == (60, 63, 6, 6)


def test_v_edition_2008_keeps_music_with_2_or_3_players() -> None:
    """V-EDITION-2008 (2008, III.A): the 2008 set-up removes only the asterisk cards, so the two
    Heavy Metal and two Church Music the 2009 rules take out stay; with 4 players nothing
    changes."""
    edition = ("V-EDITION-2008",)
    assert _music(2, edition) == _music(3, edition) == (42, 44, 6, 6)
    assert _music(4, edition) == _music(4) == (60, 63, 6, 6)
    for players in (2, 3):  # the asterisk cards still leave, as in 2009
        assert _music(players, edition)[:2] == (_music(players)[0] + 2, _music(players)[1] + 2)
    assert Config(3, frozenset({variant_id("edition-2008")})).card_table() is card_table(
        default_deck_text(), True, True
    )


def test_r_setup_2_displays_start_with_the_basic_populaces_only() -> None:
    s = new(5, seed=3)
    assert all(r == [] for rows in s.displays for r in rows)
    assert [s.populaces(q) for q in range(5)] == [0] * 5
    # the basic populaces earn their card (one B, one K) …
    assert serving_slots(s, 0, 0) == [1] and serving_slots(s, 0, 1) == [1]


def test_r_setup_2_basic_populaces_hold_no_cards_and_are_never_attacked() -> None:
    s = blank(4)
    hand(s, 0, "h/mp", "mask", "violence", "ethos")
    refused(s, "R-PLAY-8", "play h/mp heaven")
    refused(s, "R-PLAY-12", "play mask nether")
    refused(s, "R-ATTACK-1", "play violence attack")
    refused(s, "R-ATTACK-1", "play ethos attack")
    assert [str(a) for a in s.legal_actions()] == ["pass", "play h/mp good", "play h/mp evil"]


def test_r_setup_3_one_hidden_ethos_per_player() -> None:
    s = new(4, seed=5)
    assert len(s.ethos) == 4 and set(s.ethos) <= {GOOD, EVIL}
    public = s.observation(None)
    assert "ethos" not in public and "ethos_all" not in public
    for seat in range(4):
        own = s.observation(seat)
        assert own["ethos"] == ("good", "evil")[s.ethos[seat]]
        assert "ethos_all" not in own


def test_r_setup_3_ethos_drawn_from_three_good_and_three_evil() -> None:
    two = {new(2, seed).ethos for seed in SEEDS}
    assert (GOOD, GOOD) in two and (EVIL, EVIL) in two and (GOOD, EVIL) in two
    three = {new(3, seed).ethos for seed in SEEDS}
    assert (GOOD, GOOD, GOOD) in three or (EVIL, EVIL, EVIL) in three
    for seed in range(20):
        assert sorted(new(6, seed).ethos) == [GOOD] * 3 + [EVIL] * 3


def test_v_ethos_balanced_two_players_get_one_good_one_evil() -> None:
    assert variant_id("ethos-balanced") == "V-ETHOS-BALANCED"
    seen = set()
    for seed in SEEDS:
        ethos = new(2, seed, ["V-ETHOS-BALANCED"]).ethos
        assert sorted(ethos) == [GOOD, EVIL]
        seen.add(ethos)
    assert seen == {(GOOD, EVIL), (EVIL, GOOD)}  # still drawn at random


def test_v_ethos_balanced_three_or_four_from_two_good_two_evil() -> None:
    three = set()
    for seed in SEEDS:
        ethos = new(3, seed, ["V-ETHOS-BALANCED"]).ethos
        assert 1 <= ethos.count(GOOD) <= 2
        three.add(ethos)
        assert sorted(new(4, seed, ["V-ETHOS-BALANCED"]).ethos) == [GOOD, GOOD, EVIL, EVIL]
    assert len(three) == 6  # every arrangement of 2+1 occurs


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_r_setup_4_two_b_and_two_k_cards_per_hand(players: int) -> None:
    s = new(players, seed=players)
    for h in s.hands:
        assert sorted(s.table.kind[c].back for c in h) == ["B", "B", "K", "K"]
    assert s.observation(None)["hand_counts"] == [[2, 2]] * players
    assert len(s.decks[0]) == len(s.table.b_cards) - 2 * players + 4
    assert len(s.decks[1]) == len(s.table.k_cards) - 2 * players + 4


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2), (6, 3)])
def test_r_setup_5_horsemen_four_three_two_one_six_cards_apart(players: int, seed: int) -> None:
    s = new(players, seed)
    for deck, group in zip(s.decks, s.table.horsemen[:2], strict=True):
        numbers = [s.table.kind[c].horseman for c in deck]  # 0 for ordinary cards
        assert [i for i, x in enumerate(numbers) if x] == [0, 7, 14, 21]
        assert [numbers[i] for i in (0, 7, 14, 21)] == [4, 3, 2, 1]
        assert {deck[i] for i in (0, 7, 14, 21)} == set(group)
    assert sorted(s.horse_supply) == sorted(s.table.horsemen[2])  # the public reference set
    assert s.observation(None)["decks"][0]["above_horseman"] == len(s.decks[0]) - 22


def test_r_setup_5_decks_are_shuffled() -> None:
    tops = {tuple(s.code(c) for c in s.decks[0][-10:]) for s in (new(4, x) for x in range(6))}
    assert len(tops) == 6


def test_r_setup_6_random_startup_player() -> None:
    starts: Counter[int] = Counter()
    for seed in SEEDS:
        s = new(4, seed)
        assert type(s.pending) is Turn and s.pending.player == s.startup == s.to_act
        starts[s.startup] += 1
    assert set(starts) == {0, 1, 2, 3}


def test_r_setup_1_removes_two_of_each_music_in_all_when_a_deck_splits_them() -> None:
    """R-SETUP-1: two Heavy Metal leave a 2–3 player game, even if a deck file lists Heavy
    Metal in several entries (the removal is per role, not per entry)."""
    text = default_deck_text().replace(
        'code = "metal"\ndeck = "B"\nrole = "metal"\ncount = 6',
        'code = "metal"\ndeck = "B"\nrole = "metal"\ncount = 1',
    )
    text += '\n[[card]]\ncode = "metal-b"\ndeck = "B"\nrole = "metal"\ncount = 5\n'
    table = card_table(text, few_players=True)
    metal = Counter(table.kind[c].code for c in table.b_cards if table.kind[c].role == METAL)
    assert sum(metal.values()) == 4
    assert metal == {"metal-b": 4}


# --- D-COMP-1: what a deck file may hold (robustness) -------------------------------------------


def small_deck(b: int, k: int, b_asterisk: int = 0) -> str:
    """A deck of ``b`` protection cards (``b_asterisk`` of them with the asterisk) and ``k``
    Violence cards: the least a game can be dealt from."""
    return (
        '[[card]]\ncode = "m/hp"\ndeck = "B"\nrole = "protection"\nleft = ["mask"]\n'
        f'right = ["helmet", "pig"]\ncount = {b}\nasterisk = {b_asterisk}\n'
        f'[[card]]\ncode = "violence"\ndeck = "K"\nrole = "violence"\ncount = {k}\n'
    )


def test_d_comp_1_upper_case_codes_are_lower_cased_so_records_replay() -> None:
    """The notation is case-blind (``parse_action`` lower-cases), so a deck's codes are too:
    ``M/HP`` in a deck file is the card ``m/hp``, and its games replay from their records."""
    text = default_deck_text().replace('code = "m/hp"', 'code = "M/HP"')
    text = text.replace('code = "violence"', 'code = "Gewalt"')
    codes = {k.code for k in parse_deck(text)}
    assert {"m/hp", "gewalt"} <= codes and "M/HP" not in codes
    config = Config(players=4, deck=text)
    s = GAME.new_game(config, 3)
    actions: list[str] = []
    record = GameRecord("apokalypse", GAME.version, config.to_json(), 3, actions)
    digest = record.start_digest(s.opening)
    rng = Rng(3)
    while not s.is_over and len(actions) < 400:
        legal = s.legal_actions()
        action = legal[rng.below(len(legal))]
        assert GAME.parse_action(str(action)) == action
        actions.append(str(action))
        digest.add(s.apply(action))
    assert replay(record).digest == digest.hexdigest()


@pytest.mark.parametrize(
    "code",
    [
        *["pass", "play", "target", "give", "to", "steal", "defend", "decline", "back"],
        *["good", "evil", "heaven", "earth", "nether", "attack", "neutralise"],
        *["seal", "horseman1", "horseman4", "populace", "Populace", "SEAL"],
        *["", "a b", "a\\tb", "a;b", "a\\nb", "\\u001b[31m", "x\\u0007", "café", "ｍ/hp", "a²"],
        *["-x", "/x", ".x", "m,hp", "m'hp", "a\\\\b", "x" * 25],
    ],
)
def test_d_comp_1_codes_the_notation_or_terminal_cannot_carry_are_refused(code: str) -> None:
    text = small_deck(30, 30).replace('code = "violence"', f'code = "{code}"')
    with pytest.raises(DataFileError) as info:
        parse_deck(text)
    message = str(info.value)
    assert message.startswith("card #2") and "'code'" in message
    assert "\n" not in message and "\x1b" not in message


def test_d_comp_1_safe_codes_are_accepted() -> None:
    for code in ("m/hp2", "a-b_c+d.e", "x" * 24, "7", "horseman5", "seals"):
        text = small_deck(30, 30).replace('code = "violence"', f'code = "{code}"')
        assert parse_deck(text)[1].code == code


@pytest.mark.parametrize("field", ["good", "evil"])
@pytest.mark.parametrize("name", ["\\u001b[31mred", "line\\nbreak", "y" * 41])
def test_d_comp_1_half_names_must_be_short_printable_text(field: str, name: str) -> None:
    text = default_deck_text().replace(f'{field} = "piety"', f'{field} = "{name}"')
    text = text.replace(f'{field} = "gambling"', f'{field} = "{name}"')
    with pytest.raises(DataFileError, match=rf"card #\d+ \('piety/gambling'\): field '{field}'"):
        parse_deck(text)


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ("count = 9223372036854775807", "count"),
        ("count = 501", "count"),
        ("count = 500\nasterisk = 9223372036854775807", "asterisk"),
    ],
)
def test_d_comp_1_numbers_in_a_deck_file_are_bounded(entry: str, field: str) -> None:
    """A count of 2**63 would allocate cards until memory runs out: refused by entry and field."""
    text = f'[[card]]\ncode = "metal"\ndeck = "B"\nrole = "metal"\n{entry}\n'
    with pytest.raises(DataFileError, match=rf"card #1 \('metal'\): field '{field}'"):
        parse_deck(text + small_deck(30, 30))


def test_d_comp_1_a_deck_holds_at_most_2000_cards_per_back() -> None:
    entries = "".join(
        f'[[card]]\ncode = "v{i}"\ndeck = "K"\nrole = "violence"\ncount = 500\n' for i in range(4)
    )
    parse_deck(small_deck(30, 0).replace("count = 0", "count = 0") + entries)  # 2,000: fits
    more = entries + '[[card]]\ncode = "v9"\ndeck = "K"\nrole = "violence"\ncount = 1\n'
    with pytest.raises(DataFileError, match=r"card #7 \('v9'\).*K deck.*2000"):
        parse_deck(small_deck(30, 0) + more)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# " + "x" * (1 << 20) + "\n", "larger than"),
        ("a = " + "[" * 100_000, "nested too deeply"),
        ("a = " + "{b = " * 5_000, "nested too deeply"),
        ('[[card]]\ncode = "m"\ncount = ' + "9" * 5_000 + "\n", "not valid TOML"),
    ],
)
def test_d_comp_1_huge_or_deeply_nested_deck_text_is_refused(text: str, message: str) -> None:
    with pytest.raises(DataFileError, match=message) as info:
        parse_deck(text)
    assert "\n" not in str(info.value)
    with pytest.raises(DataFileError):
        Config(players=4, deck=text)


def test_d_comp_1_a_deck_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(small_deck(30, 30).replace("violence", "gewalt\xe4").encode("latin-1"))
    with pytest.raises(DataFileError, match=r"latin1\.toml.*UTF-8"):
        load_deck_text(str(path))


def test_d_comp_1_a_huge_deck_file_is_not_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    path.write_bytes(b"#" * (2 << 20))
    with pytest.raises(DataFileError, match=r"huge\.toml.*larger than"):
        load_deck_text(str(path))


@pytest.mark.parametrize(
    ("players", "b", "k", "b_asterisk"),
    [
        (4, 25, 30, 0),  # 4 × 2 dealt + 18 between the horsemen = 26 B cards needed
        (4, 30, 25, 0),
        (6, 29, 40, 0),
        (3, 26, 30, 3),  # 26 for four players, but three leave with the asterisk: 23 < 24
        (2, 22, 21, 0),
    ],
)
def test_r_setup_5_a_deck_too_small_to_deal_is_refused_when_configured(
    players: int, b: int, k: int, b_asterisk: int
) -> None:
    """R-SETUP-4/R-SETUP-5: each deck must hold 2 cards per hand plus 3 × 6 between the
    horsemen; a smaller deck is refused by the config (so ``simulate`` fails before its first
    game), not by an IndexError while dealing."""
    text = small_deck(b, k, b_asterisk)
    with pytest.raises(ConfigError, match="R-SETUP-5") as info:
        Config(players=players, deck=text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_r_setup_5_a_deck_just_large_enough_deals(players: int) -> None:
    need = 2 * players + 18
    s = GAME.new_game(Config(players=players, deck=small_deck(need, need)), 1)
    assert len(s.decks[0]) == len(s.decks[1]) == 18 + 4  # three sets of six and four horsemen
    assert all(len(h) == 4 for h in s.hands)


@pytest.mark.parametrize(
    "data",
    [
        {"players": 4, "variants": [1, None, {}]},
        {"players": 4, "variants": [["good-team"]]},
        {"players": 4, "variants": "good-team"},
        {"players": "4"},
        {"players": True},
        {"players": 4.0},
        {"players": None},
        {"players": 4, "deck": 3},
        {"players": 4, "deck": ["default"]},
        {"players": 4, "deck": None},
        [4],
    ],
)
def test_r_setup_1_config_fields_of_the_wrong_type_are_refused(data: Any) -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_json(data)
    assert "\n" not in str(info.value)


def test_r_setup_1_config_built_directly_checks_its_types() -> None:
    for kwargs in (
        {"variants": frozenset({1})},
        {"variants": "good-team"},
        {"deck": 3},
        {"players": True},
    ):
        with pytest.raises(ConfigError):
            Config(**kwargs)


def test_d_comp_1_reserved_codes_cover_every_word_of_the_notation() -> None:
    """cards.py lists the notation's words itself (actions.py imports cards.py, not back)."""
    notation = {*VERBS, *USES, *SIDE_NAMES, *PLANE_NAMES, "seal", "populace"}
    assert notation | {f"horseman{n}" for n in (1, 2, 3, 4)} <= RESERVED_CODES
