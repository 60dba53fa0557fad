"""The card reference of a content as Markdown: every card's effect and every faction's ability,
in English, generated from the content itself so that the rules reference cannot drift from what
the engine plays (``docs/rules/apokerlypse-cards.md`` for the default content, KD-SETUP-1).

    .venv/bin/python -m apokalypse.i18n.apokerlypse.reference [CONTENT] [PATH]

(``make cards-reference`` writes the default content's page.)

Without a path it prints; the default content is the packaged default (``standard``).

>>> "| 7h | 7♥ | Barricade |" in cards_markdown(load_content("example"))
True
"""

from __future__ import annotations

import sys
from pathlib import Path

from apokalypse.games.apokerlypse.cards import CODES, FACTIONS
from apokalypse.games.apokerlypse.content import DEFAULT_CONTENT, Content, Effect, load_content

from .render import card_effect, card_label, effect_what, faction_name, t

LANG = "en"  # the reference is English, like the rules documents beside it
DOC = Path("docs/rules/apokerlypse-cards.md")  # the default content's, from the repository root
COMMAND = "make cards-reference"


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell (a content's label is free text)."""
    return text.replace("\\", "\\\\").replace("|", "\\|") or "–"


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _what(effect: Effect) -> str:
    return effect_what(effect.kind, effect.params(), LANG)


def cards_markdown(content: Content) -> str:
    """The reference page of ``content``: its factions' abilities, then its 52 cards."""
    german = any(e is not None and e.name_de for e in content.effects) or any(
        f.name_de or (f.ability is not None and f.ability.name_de) for f in content.factions
    )
    name_cols = ["name", "German name"] if german else ["name"]
    lines = [
        f"# Apokerlypse: the cards and abilities of the content “{content.name}”",
        "",
        "<!-- Generated from the content file by `"
        + COMMAND
        + "`; do not edit by hand (a test compares it with the content). -->",
        "",
        "The rulebook (v1.5) says every card carries an effect and every faction an ability, but"
        " prints none of them. The effects and abilities below are **this project's own design**,"
        " not the published game's texts (KD-SETUP-1); the engine reads them from"
        f" `src/apokalypse/games/apokerlypse/data/{content.name}.toml`.",
        "",
        "## Factions and their abilities",
        "",
        "Each ability may be used once per round for one action chip, which is laid down when it is"
        " used and comes back at the end of the round (K-SCORE-5, KD-SCORE-2). Abilities cannot be"
        " blocked (K-SCORE-6).",
        "",
        _row(["faction", *name_cols, "action chips (2/3/4 players)", "timing", "ability"]),
        _row(["---"] * (4 + len(name_cols))),
    ]
    for faction, own in zip(FACTIONS, content.factions, strict=True):
        ability = own.ability
        names = [_cell(own.name), _cell(own.name_de)] if german else [_cell(own.name)]
        timing = t(f"timing.{ability.timing}", LANG) if ability else "–"
        what = _cell(_what(ability)) if ability else "no ability"
        if ability is not None and ability.name:
            what = f"{_cell(ability.name)}: {what}"
        chips = "/".join(str(n) for n in own.action_chips)
        lines.append(_row([faction_name(faction, LANG), *names, chips, timing, what]))
    lines += [
        "",
        "## The cards",
        "",
        "Timings: *when drawn* (in a draw phase), *when discarded* (down to the hand limit), *in"
        " the final scoring* (in the holder's scoring turn, K-SCORE-4), *any time* (at any of the"
        " holder's own decisions). Each effect resolves at most once per round.",
        "",
        _row(["code", "card", *name_cols, "timing", "what it does"]),
        _row(["---"] * (4 + len(name_cols))),
    ]
    for code in CODES:
        effect = card_effect(content, code)
        if effect is None:
            cells = ["–"] * len(name_cols) + ["–", "no effect"]
        else:
            names = [_cell(effect.name)] + ([_cell(effect.name_de)] if german else [])
            cells = [*names, t(f"timing.{effect.timing}", LANG), _cell(_what(effect))]
        lines.append(_row([code, card_label(code), *cells]))
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> None:
    spec = argv[0] if argv else DEFAULT_CONTENT
    page = cards_markdown(load_content(spec))
    if len(argv) > 1:
        Path(argv[1]).write_text(page, "utf-8")
        print(argv[1])
    else:
        sys.stdout.write(page)


if __name__ == "__main__":
    main(sys.argv[1:])
