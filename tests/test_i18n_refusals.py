"""Refusals in the player's language: every ``IllegalAction`` the rules raise carries a catalog key
and its parameters, both languages have a text for every key, the texts render with the
parameters their raise sites give, and real refusals (in process and in a German terminal game)
show a German reason."""

from __future__ import annotations

import ast
import random
import string
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import apokalypse.games.apokalypse as game_pkg
import apokalypse.games.apokerlypse as poker_pkg
from apokalypse.engine.errors import IllegalAction, ParamValue
from apokalypse.games.apokalypse import GAME, Config
from apokalypse.games.apokalypse.cards import default_deck_text, parse_deck
from apokalypse.games.apokerlypse import GAME as POKER
from apokalypse.games.apokerlypse.cards import CODES
from apokalypse.games.apokerlypse.content import content_text
from apokalypse.i18n import LANGS, catalog, has, refusal_reason
from apokalypse.i18n import apokerlypse as poker_text
from apokalypse.i18n import render as apo_text
from tests import builders
from tests.apokerlypse import builders as poker_builders
from tests.test_cli_play import play

# --- what the rules' source raises -------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    """One ``raise IllegalAction(...)`` in a game's source."""

    game: str
    where: str  # file:line, for failure messages
    keys: frozenset[str]  # every key the call can pass (a conditional names several)
    params: frozenset[str]  # the names of the parameters it passes


@dataclass(frozen=True, eq=False)  # hashed by identity, for the cache below
class Game:
    name: str
    package_dir: Path
    prefix: str  # where the game's texts live in the catalog ("" or "apokerlypse.")
    values: Callable[[Mapping[str, ParamValue], str], Mapping[str, Any]]
    samples: Mapping[str, ParamValue]  # a plausible value for every parameter name it uses


GAMES = (
    Game(
        "apokalypse",
        Path(game_pkg.__file__).parent,
        "",
        apo_text.refusal_values,
        {"seat": 1, "side": 1, "plane": 0, "pos": 0, "card": "m/hp", "use": "heaven",
         "verb": "give", "example": "target p2.good"},
    ),
    Game(
        "apokerlypse",
        Path(poker_pkg.__file__).parent,
        "apokerlypse.",
        poker_text.refusal_values,
        {"seat": 1, "card": "Th", "cost": 2, "count": 5, "timing": "draw",
         "faction": "zombies", "verb": "give", "action": "use 7h"},
    ),
)  # fmt: skip


def _keys(node: ast.expr, where: str) -> set[str]:
    """The keys a ``key=`` argument can evaluate to. Only literals, conditionals between literals
    and a literal dict indexed by the rule are allowed, so that this test sees every key."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _keys(node.body, where) | _keys(node.orelse, where)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
        return {k for value in node.value.values for k in _keys(value, where)}
    raise AssertionError(f"{where}: key={ast.unparse(node)} is not a literal this test can read")


def _params(node: ast.expr | None, where: str) -> set[str]:
    if node is None:
        return set()
    assert isinstance(node, ast.Dict), f"{where}: params must be a dict literal"
    names = set()
    for key in node.keys:
        assert isinstance(key, ast.Constant) and isinstance(key.value, str), where
        names.add(key.value)
    return names


def _is_illegal_action(func: ast.expr) -> bool:
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return name == "IllegalAction"


def _raise_sites(game: Game) -> Iterator[Site]:
    for path in sorted(game.package_dir.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _is_illegal_action(node.func)):
                continue
            where = f"{path.name}:{node.lineno}"
            kwargs = {kw.arg: kw.value for kw in node.keywords}
            assert "key" in kwargs, f"{where}: IllegalAction without key="
            keys = frozenset(_keys(kwargs["key"], where))
            params = frozenset(_params(kwargs.get("params"), where))
            yield Site(game.name, where, keys, params)


@cache  # read once; inside the tests, so a site without a key fails a test, not collection
def raise_sites(game: Game) -> tuple[Site, ...]:
    return tuple(_raise_sites(game))


def keys_of(game: Game) -> set[str]:
    return {key for site in raise_sites(game) for key in site.keys}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# --- keys and catalogs -------------------------------------------------------------------------


def test_every_raise_site_in_the_games_has_a_key():
    for game in GAMES:  # _raise_sites asserts a key= on each call it finds
        sites = raise_sites(game)
        assert len(sites) >= 30, game.name  # the walk really finds the rules' refusals
        assert all(site.keys for site in sites)


def test_keys_are_stable_dotted_names():
    for game in GAMES:
        for key in keys_of(game):
            area, dot, name = key.partition(".")
            assert dot and area and name and "." not in name, key
            assert key == key.lower() and " " not in key, key


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_key_has_a_text(game, lang):
    missing = {k for k in keys_of(game) if f"{game.prefix}refusal.{k}" not in catalog(lang)}
    assert missing == set(), (game.name, lang)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_no_refusal_text_is_left_without_a_raise_site(game):
    entry = f"{game.prefix}refusal."
    written = {k.removeprefix(entry) for k in catalog("en") if k.startswith(entry)}
    assert written - keys_of(game) == set()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_texts_render_with_the_params_of_their_raise_sites(game, lang):
    for site in raise_sites(game):
        assert site.params <= set(game.samples), f"{site.where}: add a sample for a new param"
        params = {name: game.samples[name] for name in site.params}
        for key in site.keys:
            exc = IllegalAction("X-1", "english", key=key, params=params)
            line = refusal_reason(exc, lang, game.prefix, game.values)
            assert line != "english", (site.where, key)
            assert "{" not in line and "}" not in line, (site.where, key, line)
            # and a text only asks for what its raise sites give (derived values included)
            template = catalog(lang)[f"{game.prefix}refusal.{key}"]
            assert placeholders(template) <= set(game.values(params, lang)), (site.where, key)


def test_german_texts_differ_from_the_english_ones():
    en, de = catalog("en"), catalog("de")
    same = {k for k in en if ".refusal." in f".{k}" and en[k] == de[k]}
    assert same == set()


# --- rendering and fallback --------------------------------------------------------------------


def test_message_and_str_stay_english_and_positional_use_still_works():
    exc = IllegalAction("R-PLAY-5", "p3 is not another player holding cards",
                        key="steal.no-cards", params={"seat": 2})  # fmt: skip
    assert str(exc) == "R-PLAY-5: p3 is not another player holding cards"
    assert exc.message == "p3 is not another player holding cards" and exc.rule == "R-PLAY-5"
    assert exc.params == {"seat": 2}
    plain = IllegalAction("R-PLAY-5", "no")
    assert plain.key is None and plain.params == {}


def test_without_a_key_or_a_text_the_english_message_is_shown():
    for exc in (
        IllegalAction("R-PLAY-5", "the English reason"),
        IllegalAction("R-PLAY-5", "the English reason", key="no.such-key"),
    ):
        line = apo_text.render_refusal(exc, "de")
        assert line.startswith("Nicht erlaubt — R-PLAY-5 (") and "the English reason" in line


def test_unreadable_params_fall_back_instead_of_crashing():
    exc = IllegalAction("R-PLAY-5", "the English reason", key="steal.no-cards",
                        params={"seat": "p3"})  # fmt: skip
    assert "{" not in apo_text.render_refusal(exc, "de")  # a text seat is shown as it is

    def broken(params: Mapping[str, ParamValue], lang: str) -> Mapping[str, Any]:
        raise KeyError("seat")

    assert refusal_reason(exc, "de", "", broken) == "the English reason"


def test_params_are_rendered_with_the_games_names():
    values = apo_text.refusal_values(
        {"seat": 1, "side": 1, "plane": 2, "pos": 0, "card": "job/drugs", "use": "nether"}, "de"
    )
    assert values["seat"] == "p2" and values["side_f"] == "böse"
    assert values["place"] == "Höllenebene von p2, böse Seite, Position 0"
    assert values["card"] == "Arbeit/Drogen" and values["use"] == "Höllenkarte"
    assert apo_text.refusal_values({"seat": 0, "side": "good"}, "en")["place"] == "p1's good side"
    poker = poker_text.refusal_values({"card": "Th", "cost": 1, "count": 5, "seat": 3}, "de")
    assert poker == {"card": "10♥", "cost": "1 Chip", "count": "5 Karten", "seat": "p4"}


def _refused(apply: Callable[[], object]) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        apply()
    return info.value


def test_evil_heaven_without_netherworld_in_german_and_english():
    """R-PLAY-8: a Heaven card on the evil side needs a Netherworld card below."""
    s = builders.blank(4)
    builders.populaces(s, 0, good=1, evil=1)
    builders.hand(s, 0, "m/hp")
    builders.act(s, "play m/hp heaven")
    exc = _refused(lambda: builders.act(s, "target p1.evil.heaven"))
    assert (exc.rule, exc.key) == ("R-PLAY-8", "play.evil-heaven-needs-nether")
    assert exc.message == "p1.evil.heaven: evil Heaven needs a Netherworld card below"
    de = apo_text.render_refusal(exc, "de")
    assert de.startswith("Nicht erlaubt — R-PLAY-8 (gute Himmelsebene braucht")
    assert "Himmelsebene von p1, böse Seite: " in de and "Höllenkarte darunter" in de
    assert "Netherworld" not in de
    en = apo_text.render_refusal(exc, "en")
    assert "p1's Heaven row, evil side: evil Heaven needs a Netherworld card below." in en


def test_good_populace_with_one_card_in_hand_in_german_and_english():
    """R-PLAY-4: a good populace obliges a gift, so it needs a second card in hand."""
    s = builders.blank(4)
    builders.hand(s, 0, "m/hp")
    exc = _refused(lambda: builders.act(s, "play m/hp good"))
    assert (exc.rule, exc.key) == ("R-PLAY-4", "play.good-needs-gift")
    de = apo_text.render_refusal(exc, "de")
    assert "guten Bevölkerungsanteil brauchst Du noch eine andere Handkarte" in de
    assert exc.message in apo_text.render_refusal(exc, "en")  # English says what the engine says


def test_card_codes_become_card_names():
    s = builders.blank(4)
    builders.hand(s, 0, "m/hp")
    exc = _refused(lambda: builders.act(s, "play metal heaven"))
    assert exc.key == "play.not-held" and exc.params == {"card": "metal"}
    assert "„Heavy-Metal“ hast Du nicht auf der Hand" in apo_text.render_refusal(exc, "de")
    assert "you hold no “Heavy Metal”" in apo_text.render_refusal(exc, "en")


def test_apokerlypse_pay_when_short_in_german_and_english():
    """K-SHORT-1: a player short in phase 2 (the cost is decided per phase) cannot pay in it."""
    s = poker_builders.new(2)
    low = {0: ["2c", "3d", "4h", "5s", "7c"], 1: ["2d", "3h", "4s", "5c", "8d"]}
    poker_builders.deal_round(s, low, draws=["9c", "9d", "Tc", "Td"], chips=[12, 2], round=2)
    poker_builders.play_until(s, "stake")
    assert s.to_act == 1 and s.short[1]
    exc = _refused(lambda: poker_builders.act(s, "pay"))
    assert (exc.rule, exc.key) == ("K-SHORT-1", "pay.short")
    de = poker_text.render_refusal(exc, "de")
    assert de.startswith("Nicht erlaubt — K-SHORT-1 (wer nicht zahlen kann")
    assert "Du leidest in dieser Zieh-Phase Ressourcenmangel: Deine Hand bleibt" in de
    assert exc.message in poker_text.render_refusal(exc, "en")


def test_apokerlypse_cards_and_chips_in_refusals():
    s = poker_builders.new(2)
    low = {0: ["2c", "3d", "4h", "5s", "7c"], 1: ["2d", "3h", "4s", "5c", "8d"]}
    poker_builders.deal_round(s, low, draws=["9c", "9d"])
    exc = _refused(lambda: poker_builders.act(s, "discard Th"))
    assert exc.key == "discard.not-held" and exc.message == "you hold no Th"
    assert "10♥ hast Du nicht auf der Hand" in poker_text.render_refusal(exc, "de")
    exc = _refused(lambda: poker_builders.act(s, "done"))
    assert exc.key == "discard.first"
    assert "wirf zuerst ab bis auf 5 Karten" in poker_text.render_refusal(exc, "de")


def _apokalypse_pool() -> list[str]:
    codes = [*sorted({kind.code for kind in parse_deck(default_deck_text())}), "nothing"]
    uses = ("good", "evil", "heaven", "nether", "attack", "neutralise")
    pool = ["pass", "decline", *(f"play {c} {u}" for c in codes for u in uses)]
    pool += [f"{verb} {c}" for verb in ("give", "defend") for c in codes]
    pool += [f"{verb} p{q}" for verb in ("to", "steal") for q in range(1, 8)]
    for q in range(1, 8):
        for side in ("good", "evil"):
            pool.append(f"target p{q}.{side}")
            for plane in ("heaven", "earth", "nether"):
                pool += [f"target p{q}.{side}.{plane}{pos}" for pos in ("", ".0", ".1", ".3")]
    return pool


def test_refusals_of_random_apokalypse_games_have_keys_and_render():
    """Illegal actions tried at the decisions of random games: each refusal has a key with a
    text, and renders without a gap in both languages."""
    seen: set[str] = set()
    pool = _apokalypse_pool()
    for seed in range(8):
        s = GAME.new_game(Config(players=2 + seed % 5), seed)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_actions()
            for action in map(GAME.parse_action, rng.sample(pool, 8)):
                if action in legal:
                    continue
                with pytest.raises(IllegalAction) as info:
                    s.apply(action)
                assert info.value.key is not None and has(f"refusal.{info.value.key}", "de")
                seen.add(info.value.key)
                for lang in LANGS:
                    assert "{" not in apo_text.render_refusal(info.value, lang), info.value
            s.apply(rng.choice(legal))
    assert len(seen) >= 25  # the random refusals reach a good part of the keys


def test_refusals_of_random_apokerlypse_games_have_keys_and_render():
    seen: set[str] = set()
    pool = ["pay", "stand", "drop", "ability", "done", "allow", "target p2", "target p5"]
    pool += [f"{v} {c}" for v in ("discard", "use", "give", "swap", "block") for c in CODES]
    for seed in range(8):
        config = POKER.config_from_options(2 + seed % 3, [], content_text("example"))
        s = POKER.new_game(config, seed)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_actions()
            for action in map(POKER.parse_action, rng.sample(pool, 8)):
                if action in legal:
                    continue
                with pytest.raises(IllegalAction) as info:
                    s.apply(action)
                key = f"apokerlypse.refusal.{info.value.key}"
                assert info.value.key is not None and has(key, "de")
                seen.add(info.value.key)
                for lang in LANGS:
                    assert "{" not in poker_text.render_refusal(info.value, lang), info.value
            s.apply(rng.choice(legal))
    assert len(seen) >= 20


# --- the terminal game -------------------------------------------------------------------------


def _flat(out: str) -> str:
    """The output with the terminal's line wrapping undone."""
    return " ".join(out.split())


def test_terminal_game_shows_german_reasons(tmp_path):
    answers = "play nonsense heaven\ngive metal\npass\n"
    run = play(tmp_path, "--lang de --players 2 --bots random --seed 2 --save spiel.json", answers)
    assert run.returncode == 0, run.stderr
    out = _flat(run.stdout)
    assert "Nicht erlaubt — R-TURN-1 (wer am Zug ist" in out
    assert "eine Karte „nonsense“ gibt es in diesem Spiel nicht." in out
    assert "am Zug spielst Du eine Karte aus oder passt, nicht 'give'." in out
    assert "there is no card" not in out and "on a turn you play" not in out


def test_apokerlypse_terminal_game_shows_german_reasons(tmp_path):
    args = "--game apokerlypse --lang de -p 2 --bots random --seed 4 --save spiel.json"
    run = play(tmp_path, args, "done\nuse 2c\n")
    assert run.returncode == 0, run.stderr
    out = _flat(run.stdout)
    assert "Nicht erlaubt — K-ROUND-2 (" in out and "wirf zuerst ab bis auf 5 Karten." in out
    assert "2♣ hast Du nicht auf der Hand." in out
    assert "discard down to" not in out and "you hold no" not in out
