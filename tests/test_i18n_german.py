"""The German texts read as one voice, in the 2009 rules' words: every German text of the server
catalogs and of the page (web/src: i18n.ts, the coach's lessons and reasons) addresses the reader
with a lowercase du/dir/dein in running text (only a sentence's first word is capitalised), a
populace is a "Bevölkerungsanteil" as the 2009 rules say, never a "Volk", and the viewer's own
display is "deine Auslage"."""

from __future__ import annotations

import re
from pathlib import Path

from apokalypse.engine.events import EventView
from apokalypse.i18n import catalog, seat_names, text
from apokalypse.i18n.apokalypse.render import render_view

WEB = Path(__file__).parents[1] / "web" / "src"

# The informal address, capitalised: the forms this file bans inside a sentence.
ADDRESS = re.compile(r"\b(Du|Dir|Dich|Dein|Deine|Deinen|Deinem|Deiner|Deines)\b")
# What may come right before a capitalised first word: nothing, the end of a sentence, a colon
# that opens a sentence (the catalogs capitalise after it), an opening quote, or the "<" of a
# placeholder such as "<Dein Name>".
SENTENCE_START = re.compile(r"(^|[.!?:]|[„\"<\n])\s*$")


def _literals(source: str) -> list[str]:
    """The double-quoted string literals of a TypeScript source, unescaped enough to read."""
    return [m.replace('\\"', '"') for m in re.findall(r'"((?:[^"\\\n]|\\.)*)"', source)]


def german_web_texts() -> dict[str, str]:
    """Every German text of the page, by where it is: i18n.ts's ``const de``, and the German of
    the guided game's coach (lessons.ts: its English strings have no du-forms to find)."""
    out: dict[str, str] = {}
    german = (WEB / "i18n.ts").read_text(encoding="utf-8").split("\nconst de", 1)[1]
    for n, literal in enumerate(_literals(german)):
        out[f"i18n.ts#{n}"] = literal
    lessons = (WEB / "tutorial" / "lessons.ts").read_text("utf-8")
    for n, literal in enumerate(_literals(lessons)):
        out[f"lessons.ts#{n}"] = literal
    return out


def german_texts() -> dict[str, str]:
    return {**catalog("de"), **german_web_texts()}


def capitalised_mid_sentence(line: str) -> list[str]:
    """The capitalised du-forms of ``line`` that do not begin a sentence."""
    return [
        line[max(0, m.start() - 20) : m.end() + 10]
        for m in ADDRESS.finditer(line)
        if not SENTENCE_START.search(line[: m.start()])
    ]


def test_the_scanner_tells_a_sentence_start_from_running_text():
    assert capitalised_mid_sentence("Du bist dran. Dir gehört es: Deine Hand.") == []
    assert capitalised_mid_sentence("„Du“") == []
    assert capitalised_mid_sentence("und Du wählst") == ["und Du wählst"]
    assert capitalised_mid_sentence("(ohne Chips) sieh Dir die Hand an") == [
        "(ohne Chips) sieh Dir die Hand "
    ]


def test_german_texts_say_du_dir_dein_in_lowercase_inside_a_sentence():
    """One convention everywhere: lowercase du/dir/dein in running text (Duden allows either
    outside letters; modern German UIs write it small), capitalised only as a sentence's first
    word. The seat label is lowercase too, as the page writes it: "Ann (du)"."""
    found = {
        key: hits
        for key, line in german_texts().items()
        if (hits := capitalised_mid_sentence(line))
    }
    assert found == {}
    assert text("ui.you_mark", "de", name="Ann") == "Ann (du)"
    assert seat_names(2, 0, "de", ["Ann", "Bob"]) == ["Ann (du)", "Bob"]


def test_the_coach_calls_a_populace_a_bevoelkerungsanteil_as_the_2009_rules_do():
    """The 2009 rules (and the rest of the page: the catalogs' "populace") say
    "Bevölkerungsanteil"; the coach (its lessons, its reasons, the expert's forecast) said "Volk",
    a word the game does not use."""
    volk = re.compile(r"\b(Volk|Volkes|Völker|Völkern)\b")
    said = {key: line for key, line in german_texts().items() if volk.search(line)}
    assert said == {}
    assert catalog("de")["apokalypse.card.populace"] == "Bevölkerungsanteil"


def _populace_line(
    actor: int, seat: int, viewer: int | None, lang: str, dest: int | None = None
) -> str:
    names = seat_names(3, viewer, lang, ["Ann", "Bob", "Cid"])
    if dest is None:
        view = EventView("populace", {"actor": actor, "seat": seat, "side": 1}, False)
    else:
        view = EventView("converted", {"seat": seat, "dest": dest, "side": 0}, False)
    return render_view(view, lang, names)


def test_the_viewers_own_display_is_deine_auslage_in_its_case():
    """ "die böse Seite der Auslage von dir" is no German: the viewer's own display is "deine
    Auslage" (accusative) and "deiner Auslage" (genitive/dative)."""
    assert _populace_line(1, 0, 0, "de") == (
        "Bob legt einen bösen Bevölkerungsanteil an deine Auslage an."
    )
    assert _populace_line(0, 1, 0, "de", dest=0).endswith(
        "kommt auf die böse Seite deiner Auslage."
    )
    assert text("apokalypse.action.target.evil", "de", seat="Ann (du)") == (
        "An die böse Seite deiner Auslage anlegen"
    )
    assert text("apokalypse.action.to_display", "de", seat="Ann (du)") == (
        "In deine Auslage bringen"
    )


def test_r_end_6_the_coach_says_what_a_total_is_in_a_whole_sentence():
    """R-END-6: a player's total is their reckonings plus their horseman cards; "Eine Summe sind
    die Wertungen plus …" was no German sentence."""
    lessons = (WEB / "tutorial" / "lessons.ts").read_text("utf-8")
    assert "Eine Summe sind" not in lessons
    assert (
        "Die Summe eines Spielers ergibt sich aus seinen Wertungen und seinen Reiterkarten"
        in lessons
    )


def test_kd_effect_2_a_shield_is_said_in_german_not_as_a_calque():
    """KD-EFFECT-2: the other players' card effects no longer reach a shielded player. "gehen
    an dir vorbei" was the English "pass you by" word for word."""
    calque = re.compile(r"\b(gehen|geht)\b[^.:;]*\bvorbei\b")
    assert {key: line for key, line in german_texts().items() if calque.search(line)} == {}
    assert text("apokerlypse.effect.shield", "de") == (
        "für den Rest der Runde treffen dich die Karteneffekte der anderen Spieler nicht"
    )
