"""The browser's registry of games (``web/src/games.tsx``): it names exactly the games of the
server's registry, and no other module of the browser's code branches on a game's name (a
string that is a game's name, a record keyed by one, a type guard named after one), so that a
game is added to the browser in one place."""

from __future__ import annotations

import re
from pathlib import Path

from apokalypse.engine.registry import game_names

WEB = Path(__file__).resolve().parents[1] / "web" / "src"
REGISTRY = WEB / "games.tsx"
GENERATED = WEB / "wire"  # the wire types, generated from the schema (every game's, by design)


def code_and_strings(source: str) -> tuple[str, list[str]]:
    """``source`` (TypeScript) without its comments, its string literals each left as ``""``;
    and the literals' contents (a template's whole text, its ``${…}`` parts included)."""
    code: list[str] = []
    strings: list[str] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif c == "/" and _regex_may_start("".join(code[-24:])):
            i = _regex_end(source, i)
            code.append("/r/")
        elif c in "\"'`":
            j = i + 1
            # a quote's string ends with its line (an apostrophe in JSX text opens none)
            while j < n and source[j] != c and (c == "`" or source[j] != "\n"):
                j += 2 if source[j] == "\\" else 1
            strings.append(source[i + 1 : j])
            code.append('""')
            i = j + 1
        else:
            code.append(c)
            i += 1
    return "".join(code), strings


def _regex_may_start(code: str) -> bool:
    """Whether a ``/`` after ``code`` opens a regular expression literal (not a division): it
    comes where a value begins, as after ``(``, ``=``, ``,`` or ``return`` (never after ``<``:
    that is a JSX closing tag)."""
    before = code.rstrip()
    return not before or before[-1] in "(,=:[!&|?{};+-*%~^" or before.endswith("return")


def _regex_end(source: str, i: int) -> int:
    """The end of the regular expression literal opened at ``i`` (a ``/`` in a character class
    does not close it), its flags included."""
    j, klass = i + 1, False
    while j < len(source) and source[j] != "\n":
        c = source[j]
        if c == "\\":
            j += 1
        elif c == "[":
            klass = True
        elif c == "]":
            klass = False
        elif c == "/" and not klass:
            break
        j += 1
    j += 1
    while j < len(source) and source[j].isalpha():
        j += 1
    return j


def branches(source: str, names: list[str]) -> list[str]:
    """Where ``source`` names one of the games ``names`` as a value to branch on: a string
    literal that is a game's name (a template's quoted one too), a key named after a game, or a
    type guard named after one (``isApokalypse``)."""
    code, strings = code_and_strings(source)
    found: list[str] = []
    for text in strings:
        if text in names:
            found.append(f"the string {text!r}")
        found += [f"{m.group(0)} in a template" for m in _quoted(names).finditer(text)]
    for pattern in (_keys(names), _guards(names)):
        found += [m.group(0).strip() for m in pattern.finditer(code)]
    return found


def _any(names: list[str]) -> str:
    return "|".join(map(re.escape, names))


def _quoted(names: list[str]) -> re.Pattern[str]:
    return re.compile(rf"([\"'])({_any(names)})\1")


def _keys(names: list[str]) -> re.Pattern[str]:
    # ``name:`` keys a record by a game (``name?:``, an optional member, only declares a field,
    # such as the page's ``window.apokalypse`` test hook named after the whole platform)
    return re.compile(rf"(?<![\w.$])({_any(names)})\s*:")


def _guards(names: list[str]) -> re.Pattern[str]:
    guards = "|".join(re.escape(name.capitalize()) for name in names)
    return re.compile(rf"\bis({guards})\b")


def sources() -> list[Path]:
    return sorted(
        path
        for path in [*WEB.rglob("*.ts"), *WEB.rglob("*.tsx")]
        if path != REGISTRY and GENERATED not in path.parents
    )


def test_no_module_but_the_registry_branches_on_a_games_name() -> None:
    names = game_names()
    checked = sources()
    assert len(checked) > 50, checked  # the browser's code is where this test looks for it
    wrong = {
        str(path.relative_to(WEB)): found
        for path in checked
        if (found := branches(path.read_text("utf-8"), names))
    }
    assert not wrong, f"look these up in web/src/games.tsx instead: {wrong}"


def test_the_check_finds_each_kind_of_branch_and_nothing_else() -> None:
    """Each way of branching on a game's name is found (a check that found nothing would pass
    on anything); a game's name in a comment, an import path, a CSS class or a storage key is
    not a branch."""
    names = ["apokalypse", "apokerlypse"]
    found = {
        'if (obs.game === "apokalypse") round();': ["the string 'apokalypse'"],
        "const x = game !== 'apokerlypse' ? a : b;": ["the string 'apokerlypse'"],
        "switch (name) { case `apokalypse`: break; }": ["the string 'apokalypse'"],
        'const title = `${g === "apokerlypse" ? "K" : "A"}`;': ['"apokerlypse" in a template'],
        'const TITLE = { apokalypse: "A", apokerlypse: "K" };': ["apokalypse:", "apokerlypse:"],
        "if (isApokalypse(obs)) draw();": ["isApokalypse"],
        'const re = /["\\\\]/g; <b>x</b> — {w(g === "apokalypse" ? 1 : 2)}': [
            "the string 'apokalypse'"
        ],
    }
    for source, expected in found.items():
        assert branches(source, names) == expected, source
    clean = [
        "// on apokalypse's table, 'apokalypse' is drawn so\nconst a = 1;",
        "/* if (game === 'apokerlypse') */ const b = 2;",
        'import { ApokerlypsePage } from "./apokerlypse/ApokerlypsePage";',
        '<div class="apokerlypse-table" />',
        'const KEY = "apokalypse.tutorials";',
        "const a = cond ? apokalypseReason : other; const b = { x: obs.apokalypse };",
        "const entry = GAMES[obs.game]; if (t.game !== entry.game) skip();",
        "interface Window { apokalypse?: { send: () => boolean } }",
    ]
    for source in clean:
        assert branches(source, names) == [], source


def registry_games() -> list[str]:
    """The games ``web/src/games.tsx`` registers: the keys of its ``GAMES``."""
    code, _ = code_and_strings(REGISTRY.read_text("utf-8"))
    block = re.search(r"export const GAMES\b[^=]*=\s*\{(.*?)\n\};", code, re.S)
    assert block is not None, "web/src/games.tsx has no `export const GAMES … = { … };`"
    return re.findall(r"^  ([A-Za-z_$][\w$-]*): \{", block.group(1), re.M)


def test_the_browsers_registry_names_the_servers_games() -> None:
    games = registry_games()
    assert sorted(games) == sorted(game_names()) and len(set(games)) == len(games), games
    # and each entry says its own name (what the page looks up and compares)
    text = REGISTRY.read_text("utf-8")
    for name in game_names():
        assert f'name: "{name}",' in text, name
