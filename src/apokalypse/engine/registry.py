"""Games by name: one :class:`Entry` per game says everything the layers need to know about it.

The engine cannot import the layers above it (``tests/test_layers.py``), so an entry names each
layer's part of the game by its dotted path, ``"module:attribute"`` (or a module's alone), and
the layer loads its own part with :func:`part` (or :func:`load`) when it needs it. Importing the
engine stays cheap, and a game's rules load only when that game is used. Every part of a game is
named here, its rules and terminal adapter as much as its players, texts, wire format and guided
game: no layer finds a module by the game's name (``tests/test_registry.py`` refuses an
``import_module`` of a name made at run time). Adding a game is adding its entry here and the
modules it names; no command, lab, server or learning code names a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Literal, cast

from .errors import ConfigError
from .protocol import Game

Part = Literal[
    "rules",
    "ui",
    "texts",
    "wire",
    "bots",
    "searcher",
    "value",
    "collector",
    "summary",
    "report",
    "bench",
    "environment",
    "guide",
]


@dataclass(frozen=True)
class Bench:
    """What ``apokalypse bench`` measures of the game: the player counts it plays, and
    ``figures``, the path of a module with the game's own figures (``FIGURES``, ``measure``)."""

    players: tuple[int, ...]
    figures: str | None = None


@dataclass(frozen=True)
class Learning:
    """The learning interfaces' defaults: the seats of an environment or OpenSpiel game, the
    name of the option that takes a cards file (a deck, a content file), and the PettingZoo
    module (``env``, ``raw_env``)."""

    players: int
    cards: str
    environment: str


@dataclass(frozen=True)
class Guided:
    """The guided first game ("Learn to play", server/tutorial/): ``guide``, the path of the
    game's ``Guide`` (server/tutorial/guide.py: its lessons, when each comes due, the coach's
    preference), and the prepared deal, the same for everybody: how many play, the seed that
    deals it and its variants."""

    guide: str
    players: int
    seed: int
    variants: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entry:
    """One game, all of it: every part any layer needs is a field here, never found by the
    game's name. Every path is ``"module:attribute"`` or a module's alone; ``None`` where the
    game leaves a part to the generic one (the base collector and summary count nothing of
    their own, the generic report shows seats, scores and rounds, a game without players of its
    own has the random player only, a game without a guided game has none)."""

    name: str
    rules: str  # the Game (engine/protocol.py)
    ui: str  # the terminal adapter class: ``UI(config, lang)`` (cli/ui/__init__.py)
    texts: str  # the class of its texts: ``Texts(config, lang)`` (i18n/texts.py)
    # The module of its seat views and wire types (``seat_views(texts)``, ``Observation``,
    # ``StateMessage``: wire/__init__.py); the server sends nothing else.
    wire: str
    bench: Bench
    learning: Learning
    # Its own computer players: the mapping of their names to factories, ``BOTS[name](seed)``
    # (bots/__init__.py). A "heuristic" among them brings the difficulty levels, which need the
    # ``searcher`` too: ``ismcts(seed, *, iterations, seconds, beliefs, learned)`` (bots/levels.py).
    bots: str | None = None
    searcher: str | None = None
    # The module of the learned evaluation's inputs, ``extra_names``, ``extra`` and ``base``
    # (bots/learned.py: ValueInputs); the master level's packaged weights lie in its package.
    value: str | None = None
    collector: str | None = None  # the Collector class (sim/collect)
    summary: str | None = None  # the run summary's own figures (sim/collect: Figures)
    report: str | None = None  # the report's sections (sim/report/model.py: GameReport)
    # Where searching players hold beliefs about hidden roles (Apokalypse's ethos): the
    # measurement ``tournament --beliefs`` runs, ``belief_in_game(players, seed, bots=…)``
    # (the terminal's ``why`` shows the beliefs of such a game).
    beliefs: str | None = None
    # The module of the packaged decks or contents that ``--deck`` / ``--content`` take by name
    # besides a file (Apokerlypse's "plain", "example" …): its ``PACKAGED`` (the names, read
    # when asked, so that a new packaged file is known at once) and ``packaged_text(name)``.
    packaged: str | None = None
    tutorial: Guided | None = None


ENTRIES: dict[str, Entry] = {
    entry.name: entry
    for entry in (
        Entry(
            name="apokalypse",
            rules="apokalypse.games.apokalypse:GAME",
            ui="apokalypse.cli.ui.apokalypse:UI",
            texts="apokalypse.i18n.apokalypse.texts:Texts",
            wire="apokalypse.wire.apokalypse",
            bots="apokalypse.bots.apokalypse:BOTS",
            searcher="apokalypse.bots.apokalypse:ismcts",
            value="apokalypse.bots.apokalypse.value",
            collector="apokalypse.sim.collect.apokalypse:ApokalypseCollector",
            summary="apokalypse.sim.collect.apokalypse:ApokalypseFigures",
            report="apokalypse.sim.report.apokalypse:REPORT",
            bench=Bench(players=(2, 4, 6)),
            learning=Learning(4, "deck", "apokalypse.rl.apokalypse_v0"),
            beliefs="apokalypse.bots.apokalypse.beliefs:belief_in_game",
            # Chosen by scripts/tutorial_seeds.py (server/tutorial/ says how); change the seeds
            # only with it.
            tutorial=Guided("apokalypse.server.tutorial.apokalypse:GUIDE", 3, 1755),
        ),
        Entry(
            name="apokerlypse",
            rules="apokalypse.games.apokerlypse:GAME",
            ui="apokalypse.cli.ui.apokerlypse:UI",
            texts="apokalypse.i18n.apokerlypse.texts:Texts",
            wire="apokalypse.wire.apokerlypse",
            bots="apokalypse.bots.apokerlypse:BOTS",
            searcher="apokalypse.bots.apokerlypse:ismcts",
            value="apokalypse.bots.apokerlypse.value",
            collector="apokalypse.sim.collect.apokerlypse:ApokerlypseCollector",
            summary="apokalypse.sim.collect.apokerlypse:ApokerlypseFigures",
            report="apokalypse.sim.report.apokerlypse:REPORT",
            bench=Bench(players=(2, 3, 4), figures="apokalypse.bench.apokerlypse"),
            learning=Learning(2, "content", "apokalypse.rl.apokerlypse_v0"),
            packaged="apokalypse.games.apokerlypse.content",
            # Chosen as Apokalypse's is; on the plain content, for the reason the server's
            # Tutorial.variants gives (KD-SETUP-1).
            tutorial=Guided(
                "apokalypse.server.tutorial.apokerlypse:GUIDE", 2, 0, ("plain-content",)
            ),
        ),
    )
}


def game_names() -> list[str]:
    return sorted(ENTRIES)


def entry(name: str) -> Entry:
    """The entry of the game ``name``; an unknown name is one line naming the known ones."""
    found = ENTRIES.get(name)
    if found is None:
        raise ConfigError(f"unknown game {name!r} (known: {', '.join(game_names())})")
    return found


def load(path: str) -> object:
    """What a ``"module:attribute"`` path names (a module alone without the ``:``)."""
    module, _, attribute = path.partition(":")
    loaded = import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


def part(name: str, which: Part) -> object | None:
    """The game's ``which`` part, loaded on demand; None where the game has none. The caller
    checks its type: each layer knows what its part must be."""
    game = entry(name)
    paths = {
        "rules": game.rules,
        "ui": game.ui,
        "texts": game.texts,
        "wire": game.wire,
        "bots": game.bots,
        "searcher": game.searcher,
        "value": game.value,
        "collector": game.collector,
        "summary": game.summary,
        "report": game.report,
        "bench": game.bench.figures,
        "environment": game.learning.environment,
        "guide": game.tutorial.guide if game.tutorial is not None else None,
    }
    path = paths[which]
    return None if path is None else load(path)


def get_game(name: str) -> Game:
    # Unchecked: the conformance tests check every registered game against the protocol, and
    # this runs once per game played (a runtime protocol check would cost more than the lookup).
    return cast(Game, load(entry(name).rules))
