"""``apokalypse play``: the terminal game against computer players, hot-seat for several people.

This module sets a game up (new, or resumed from its save file) and hands it to
:class:`~.session.Session`, which runs the loop. Any game of the engine's registry can be played;
a resumed game is the one its record names. Input is read with ``input()``, so a game can be
driven by piping lines into it; EOF leaves the game with everything saved.
"""

from __future__ import annotations

import importlib
import secrets
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.text import Text

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.match import Player
from apokalypse.engine.protocol import GameState
from apokalypse.engine.record import GameRecord, remove_stale_temporaries, start
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import SEED_LIMIT
from apokalypse.i18n import check_lang, text
from apokalypse.wire.talk import BadText, check_name

from .cards import read_cards
from .safe import whole_number
from .session import Session

RECENT_LINES = 8  # how much of a resumed game's log to repeat


def parse_humans(spec: str, players: int) -> frozenset[int]:
    """``"1"``, ``"1,3"``, ``"p2"``, ``"all"`` or ``"none"`` → seat indices."""
    spec = spec.strip().lower()
    if spec in ("", "none", "0"):
        return frozenset()
    if spec == "all":
        return frozenset(range(players))
    seats = set()
    for part in spec.split(","):
        seat = whole_number(part.strip().removeprefix("p"))  # ASCII digits: '²' is no seat
        if seat is None or not 1 <= seat <= players:
            raise ConfigError(f"--humans: {part.strip()!r} is not a seat 1–{players}")
        seats.add(seat - 1)
    return frozenset(seats)


def make_bots(spec: str, seats: Sequence[int], seed: int, game: str) -> dict[int, Player]:
    """Computer players for ``seats``; ``spec`` is a name or a comma list given out in turn. A
    name may be a level (``easy`` … ``expert``) or carry a budget (``ismcts:500``,
    ``ismcts:0.1s``); every name is checked, even with no seat to give it to, so a typo is
    refused in one line before the game starts."""
    names = [name.strip() for name in spec.split(",") if name.strip()] or ["heuristic"]
    try:  # imported late: the terminal game must start even while bots are being developed
        bots_module = importlib.import_module("apokalypse.bots")
        factory = bots_module.make_bot
    except (ImportError, AttributeError):
        raise ConfigError("computer players are not available (apokalypse.bots.make_bot)") from None
    check = getattr(bots_module, "check_bot", None)
    if check is not None:
        names = [check(name, game) for name in names]  # a ConfigError names the bad one
    bots: dict[int, Player] = {}
    for i, seat in enumerate(sorted(seats)):
        name = names[i % len(names)]
        try:
            bots[seat] = factory(name, seed + 1009 * (seat + 1), game)
        except (LookupError, ValueError) as exc:
            raise ConfigError(f"unknown computer player {name!r} ({exc})") from None
    return bots


def default_save_path(game: str) -> Path:
    """A new file under ``saves/``. Its name must not carry the seed: the welcome line shows
    it on a screen the players share, and the seed rebuilds every hand and the deck order."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = Path("saves") / f"{game}-{stamp}.json"
    number = 2
    while path.exists():  # two games started within a second
        path = Path("saves") / f"{game}-{stamp}-{number}.json"
        number += 1
    return path


def _new(
    game: str, players: int, seed: int | None, deck: Path | None, variants: list[str]
) -> tuple[GameState, GameRecord]:
    rules = get_game(game)
    cards = read_cards(rules.name, deck)
    config = rules.config_from_options(players, variants, cards)  # refusals name the rule
    seed = seed if seed is not None else secrets.randbelow(SEED_LIMIT)  # all 64 bits: unguessable
    state = rules.new_game(config, seed)
    return state, GameRecord(rules.name, rules.version, config.to_json(), seed)


DEFAULTS = {"humans": "1", "bots": "heuristic", "lang": "en"}


def parse_names(
    spec: str | None, humans: frozenset[int], players: int, lang: str
) -> list[str | None]:
    """``--names Ann,Bob``: the people's names in the order of their seats, each checked as the
    server checks a name (1–24 characters, no control characters); None where not given."""
    chosen: list[str | None] = [None] * players
    if spec is None or not spec.strip():
        return chosen
    given = spec.split(",")
    if len(given) != len(humans):
        raise ConfigError(
            f"--names: {len(given)} names for {len(humans)} people's seats (one per person, in"
            " seat order)"
        )
    for seat, raw in zip(sorted(humans), given, strict=True):
        try:
            chosen[seat] = check_name(raw)
        except BadText as exc:
            raise ConfigError(
                f"--names: {raw.strip()!r}: {text(f'server.{exc.key}', lang, **exc.values)}"
            ) from None
    return chosen


def resume_conflicts(
    saved: GameRecord,
    game: str | None,
    players: int | None,
    seed: int | None,
    deck: Path | None,
    variants: list[str],
) -> None:
    """A resumed game is the game its save holds: an option that would set it up differently
    is refused, naming the option, rather than silently ignored. (``--humans``, ``--bots``,
    ``--lang`` and ``--save`` may change.)"""
    saved_players = saved.config.get("players")
    conflicts = [
        ("--game", game is not None and game.strip().lower() != saved.game),
        ("--players", players is not None and players != saved_players),
        ("--seed", seed is not None and seed != saved.seed),
        ("--deck", deck is not None),
        ("--variant", bool(variants)),
    ]
    for option, conflict in conflicts:
        if conflict:
            raise ConfigError(
                f"{option} cannot change a game resumed with --resume: it continues as it was"
                f" saved ({saved.game}, {saved_players} players); leave out {option}"
            )


def run_play(
    game: str | None,
    players: int | None,
    humans: str | None,
    bots: str | None,
    lang: str | None,
    seed: int | None,
    deck: Path | None,
    variants: list[str],
    save: Path | None,
    resume: Path | None,
    names: str | None = None,
) -> None:
    """Start or resume a game and play it; bad options raise the engine's typed errors.

    A resumed game is the game its record names, and keeps the seats, computer players and
    language it was saved with (the record's ``meta``), unless an option says otherwise; an
    option that would set the game up differently (``--game``, ``--players``, ``--seed``,
    ``--deck``, ``--variant``) is refused. A new game is saved from its first action on."""
    console = Console(highlight=False)
    saved = GameRecord.load(resume) if resume is not None else None
    if saved is not None:
        resume_conflicts(saved, game, players, seed, deck, variants)
    meta = {
        k: v
        for k, v in (saved.meta if saved else {}).items()
        if (k in DEFAULTS or k == "names") and isinstance(v, str)
    }
    names = names if names is not None else meta.get("names")
    humans = humans or meta.get("humans") or DEFAULTS["humans"]
    bots = bots or meta.get("bots") or DEFAULTS["bots"]
    lang = check_lang(lang or meta.get("lang") or DEFAULTS["lang"])
    if saved is not None:
        state = start(saved)[1]  # a fresh game: the session catches up action by action
        record = saved
    else:
        state, record = _new(
            "apokalypse" if game is None else game,
            4 if players is None else players,
            seed,
            deck,
            variants,
        )
    path = save or resume or default_save_path(record.game)
    record.meta = {"humans": humans, "bots": bots, "lang": lang}
    n = int(state.observation(None)["players"])
    human_seats = parse_humans(humans, n)
    chosen = parse_names(names, human_seats, n, lang)
    if names:
        record.meta["names"] = names
    bot_seats = [q for q in range(n) if q not in human_seats]
    session = Session(
        console=console,
        lang=lang,
        state=state,
        record=record,
        path=path,
        humans=human_seats,
        bots=make_bots(bots, bot_seats, record.seed, record.game),
        echo=not sys.stdin.isatty(),
        chosen=chosen,
    )
    opening = session.start()
    if saved is not None:
        recorded = saved.events_sha256
        session.catch_up(saved.actions)  # a RecordError names the first action that fails
        if recorded not in (None, session.match.digest.hexdigest()):
            console.print(Text(text("ui.digest_mismatch", lang), style="yellow"))
    record.events_sha256 = session.match.digest.hexdigest()
    remove_stale_temporaries(path)  # what a save killed mid-write left beside it
    if saved is not None:  # with the new seats, players and language (and maybe a new path)
        record.save(path)
        session.resumed = True
    # A new game is first saved after its first action: a start left at once leaves no file.
    people = [session.names(None)[q] for q in sorted(human_seats)]
    seats = ", ".join(people) or text("ui.nobody", lang)
    welcome = text(
        "ui.welcome",
        lang,
        game=text(f"{record.game}.name", lang),
        players=n,
        humans=seats,
        bots=bots if bot_seats else text("ui.nobody", lang),
        path=path,
    )
    session.say(welcome, "bold")  # say() escapes: the path and names come from the user
    if resume is None:
        session.stream(opening)
    else:
        session.say(text("ui.resumed", lang, n=len(record.actions)))
        if not session.hot_seat:
            viewer = session.viewer
            lines = session.ui.render_events(session.log, viewer, session.names(viewer))
            for line in lines[-RECENT_LINES:]:
                session.say(f"· {line}", "dim")
    session.run()
