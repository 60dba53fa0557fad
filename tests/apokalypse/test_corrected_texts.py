"""Texts checked against the rulebooks, in both languages: what the forecast says about a tie
under V-GOOD-TIES, where a neutralising seal goes (R-REWARD-3, R-PLAY-15, D-REWARD-2), and the
evil deed's compulsory theft (R-PLAY-5)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import get_args

from rich.console import Console

from apokalypse.cli.ui import make_ui
from apokalypse.engine.events import Args, EventView
from apokalypse.games.apokalypse import State
from apokalypse.games.apokalypse.forecast import Lead, forecast
from apokalypse.games.apokalypse.pending import PlaceSeal
from apokalypse.i18n import seat_names
from apokalypse.i18n.apokalypse.render import render_view, rule_title
from apokalypse.i18n.apokalypse.texts import Texts
from tests.apokalypse.builders import act, blank, hand, populaces, put

WEB = Path(__file__).parents[2] / "web" / "src"
NAMES = ["p1", "p2", "p3"]


def _screen(renderable: object) -> str:
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(renderable)
    return " ".join(out.getvalue().split())


def _web_words(lang: str) -> str:
    """The page's own words of one language (web/src/i18n.ts: ``const en`` … ``const de``)."""
    source = (WEB / "i18n.ts").read_text(encoding="utf-8")
    english, german = source.split("\nconst de", 1)
    return english if lang == "en" else german


def _tied(variants: tuple[str, ...] = (), good: int = 2, evil: int = 2):
    s = blank(3, variants=variants)
    populaces(s, 0, good=good)
    populaces(s, 1, evil=evil)
    return s


def test_v_good_ties_the_forecast_counts_a_tie_for_the_good():
    """V-GOOD-TIES: as many good as evil populaces are a good majority (R-END-4 decides), so
    the forecast may not say that the evil lead."""
    tied = _tied(("V-GOOD-TIES",))
    kinds = Texts(tied.config.to_json(), "en").kinds
    assert forecast(tied.observation(None), kinds, good_ties=True).lead == "good-tie"
    assert forecast(tied.observation(None), kinds).lead == "evil"  # the default: R-END-5
    more_evil = _tied(("V-GOOD-TIES",), good=1, evil=2)
    assert forecast(more_evil.observation(None), kinds, good_ties=True).lead == "evil-more"
    more_good = _tied(("V-GOOD-TIES",), good=3, evil=2)
    assert forecast(more_good.observation(None), kinds, good_ties=True).lead == "good"


def test_v_good_ties_the_terminal_forecast_says_the_good_lead_in_a_tie():
    tied = _tied(("V-GOOD-TIES",))
    said = {
        "en": ("the good lead", "evil lead"),
        "de": ("die Guten führen", "die Bösen führen"),
    }
    for lang, (good, evil) in said.items():
        ui = make_ui("apokalypse", tied.config.to_json(), lang)
        screen = _screen(ui.board(tied.observation(0), NAMES))
        assert good in screen and evil not in screen, screen
        plain = make_ui("apokalypse", _tied().config.to_json(), lang)  # without the variant
        assert evil in _screen(plain.board(_tied().observation(0), NAMES))
    more_evil = _tied(("V-GOOD-TIES",), good=1)
    ui = make_ui("apokalypse", more_evil.config.to_json(), "en")
    screen = _screen(ui.board(more_evil.observation(0), NAMES))
    assert "more evil than good: the evil lead" in screen and "not more good" not in screen


def test_v_good_ties_the_browser_forecast_says_the_good_lead_in_a_tie():
    """The browser's data: the forecast the server sends carries the lead by the game's
    variants, and the page has a text for every lead in both languages."""
    tied = _tied(("V-GOOD-TIES",))
    for lang in ("en", "de"):
        sent = Texts(tied.config.to_json(), lang).forecast(tied.observation(None))
        assert sent.to_json()["lead"] == "good-tie"
    page = (WEB / "apokalypse" / "Forecast.tsx").read_text(encoding="utf-8")
    mapped = dict(re.findall(r'"?([a-z-]+)"?: "(\w+Lead)"', page))
    assert set(mapped) == set(get_args(Lead))
    for lang, words in (("en", ("good lead", "evil lead")), ("de", ("Guten führen", "Bösen"))):
        texts = dict(re.findall(r'^  (\w+Lead): "([^"]*)"', _web_words(lang), re.M))
        assert set(texts) == set(mapped.values()), lang
        assert words[0] in texts[mapped["good-tie"]] and words[1] not in texts[mapped["good-tie"]]


# --- where a neutralised card goes (R-PLAY-15, R-REWARD-3, D-REWARD-2) -----------------------

RETURNS = {"en": "to the supply", "de": "zurück in den Vorrat"}
DISCARDED = {"en": "discarded", "de": "abgelegt"}


def _music_on_display() -> State:
    """p1's good populace under Church Music, p2's under a Seal (laid as Church Music)."""
    s = blank(3)
    for seat, music in ((0, "church"), (1, "seal")):
        populaces(s, seat, good=1)
        put(s, seat, "good", "heaven", music)
    return s


def _choices(s: State, lang: str) -> dict[str, str]:
    """Each legal action of the seat to act, as its choice reads."""
    texts = Texts(s.config.to_json(), lang)
    obs = s.observation(s.to_act)
    return {str(a): texts.render_action(a, obs, NAMES) for a in s.legal_actions()}


def test_r_play_15_a_neutralised_seal_returns_to_the_supply_not_the_discards():
    """R-PLAY-15: the music card played and a neutralised music card are discarded; a Seal
    lying there returns to the supply (D-REWARD-2). The choices say which, in both languages."""
    for lang in ("en", "de"):
        s = _music_on_display()
        hand(s, 0, "metal", "metal")
        said = _choices(s, lang)
        assert RETURNS[lang] in said["play metal neutralise"]
        act(s, "play metal neutralise")
        said = _choices(s, lang)
        on_church, on_seal = said["target p1.good.heaven.0"], said["target p2.good.heaven.0"]
        assert DISCARDED[lang] in on_church and RETURNS[lang] not in on_church
        assert RETURNS[lang] in on_seal and DISCARDED[lang] in on_seal  # the Heavy Metal
    supply = len(s.seal_supply)
    act(s, "target p2.good.heaven.0")  # the engine does what the choice said
    assert len(s.seal_supply) == supply + 1


def test_r_reward_3_a_seal_used_to_neutralise_returns_to_the_supply():
    """R-REWARD-3: a Seal may neutralise displayed music; the Seal itself then returns to the
    supply (D-REWARD-2), and so does a displayed Seal it neutralises."""
    for lang in ("en", "de"):
        s = _music_on_display()
        s.pending, s.legal_cache = PlaceSeal(0, ()), None
        said = _choices(s, lang)
        on_church, on_seal = said["target p1.good.heaven.0"], said["target p2.good.heaven.0"]
        assert RETURNS[lang] in on_church and DISCARDED[lang] in on_church  # the Church Music
        assert RETURNS[lang] in on_seal and DISCARDED[lang] not in on_seal  # both Seals
    supply = len(s.seal_supply)
    act(s, "target p2.good.heaven.0")  # the placed Seal and the displayed one both go back
    assert len(s.seal_supply) == supply + 1 == len(s.table.seals)


def test_r_play_5_the_evil_deed_is_compulsory_in_every_text():
    """R-PLAY-5: who lays an evil populace must steal ("muss … stehlen"), it is not a choice
    the rule "lets" them make: the refusals' rule line says so in both languages."""
    assert "obliges you to steal" in rule_title("R-PLAY-5", "en")
    assert "muss" in rule_title("R-PLAY-5", "de") and "stehlen" in rule_title("R-PLAY-5", "de")
    for lang in ("en", "de"):
        assert "lets you" not in rule_title("R-PLAY-5", lang)
        assert "lets you steal" not in _web_words(lang)


# --- counts and owners said as a person would (R-HORSE-2, R-PLAY-3) ---------------------------


def _line(kind: str, args: Args, lang: str, viewer: int | None = None) -> str:
    names = seat_names(3, viewer, lang, ["Ann", "Bob", "Cid"])
    return render_view(EventView(kind, args, False), lang, names)


def test_r_horse_2_the_shelter_line_says_one_populace_in_the_singular():
    """R-HORSE-2: each side's populaces and protection are counted when a horseman rides; "good
    side 1 populaces" put one populace in the plural."""
    args = {"seat": 0, "good": [1, 0, 0, 1], "evil": [2, 1, 0, 1]}
    assert _line("shelter", args, "en").startswith(
        "Ann: good side 1 populace, protection 0; evil side 2 populaces, protection 1"
    )
    assert _line("shelter", args, "de").startswith(
        "Ann: gute Seite 1 Bevölkerungsanteil, Schutz 0; böse Seite 2 Bevölkerungsanteile, Schutz 1"
    )


def test_r_play_3_a_player_laying_into_their_own_display_is_said_to_do_so():
    """R-PLAY-3: a populace may be laid into any display, the actor's own included; "Medium
    (computer) (p3) adds … to Medium (computer) (p3)'s display" named the same player twice."""
    own = {"actor": 2, "seat": 2, "side": 0}
    assert _line("populace", own, "en") == "Cid adds a good populace to their own display."
    assert _line("populace", own, "de") == (
        "Cid legt einen guten Bevölkerungsanteil an die eigene Auslage an."
    )
    assert _line("populace", own, "en", viewer=2) == (
        "Cid (you) adds a good populace to your own display."
    )
    other = {"actor": 2, "seat": 1, "side": 0}
    assert _line("populace", other, "en") == "Cid adds a good populace to Bob's display."
    assert _line("populace", other, "en", viewer=1) == "Cid adds a good populace to your display."
    moved = {"seat": 1, "dest": 1, "side": 1}  # R-ATTACK-3: its attacker may choose its own side
    assert _line("converted", moved, "en").endswith("joins the good side of their own display.")
    assert _line("converted", moved, "de").endswith("kommt auf die gute Seite der eigenen Auslage.")
