"""``apokalypse``: play, simulate, replay, benchmark and hold tournaments from the terminal.

Every command reports bad input as one line ``error: …`` on stderr and exits with status 2;
nothing is half-written (saves and records are written atomically). Usage errors too (an unknown
command or option, ``--games abc``, a missing argument): :func:`main` runs the commands without
Typer's framed usage boxes and prints them in the same one-line form.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
import typer.main
from rich.console import Console

from apokalypse.engine.errors import EngineError
from apokalypse.engine.registry import game_names
from apokalypse.server.settings import Settings

from .safe import printable


class OneLineErrors(typer.Typer):
    """The app, called as a program (``app()``), reports usage errors as :func:`main` does."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:  # called like a click command with its own arguments: leave it be
            return super().__call__(*args, **kwargs)
        sys.exit(main())


app = OneLineErrors(
    name="apokalypse",
    help="Apokalypse (Henning Poehl): play against computer players, simulate, replay, benchmark.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

T = TypeVar("T")


class PipeClosed(Exception):
    """Standard output was closed by its reader; :func:`main` ends quietly."""


def _pipe_closed(console: Console) -> None:
    raise PipeClosed


def fail(message: str) -> typer.Exit:
    # One line, whatever the message holds: file names and record texts are not ours.
    print(f"error: {printable(message)}", file=sys.stderr)
    return typer.Exit(2)


def guarded(run: Callable[[], T]) -> T:
    """Turn the engine's typed errors and unreadable files into one-line errors."""
    try:
        return run()
    except EngineError as exc:
        raise fail(str(exc)) from None
    except BrokenPipeError:  # the reader left (``| head``): not an error of ours, see main()
        raise PipeClosed from None
    except OSError as exc:
        raise fail(f"{exc.filename or ''}: {exc.strerror}".lstrip(": ")) from None


Variants = Annotated[
    list[str] | None,
    typer.Option(
        "--variant",
        "-V",
        help="Variant switch, repeatable. Apokalypse: ethos-balanced, ethos-orphans, good-team,"
        " edition-2008, good-ties. Apokerlypse: short-table, bonus-cap, plain-content,"
        " example-content, first-content",
    ),
]
GameName = Annotated[
    str, typer.Option("--game", "-g", help=f"The game: {' or '.join(game_names())}")
]
Seed = Annotated[int | None, typer.Option(help="Seed for the game's chance (default: random)")]
Lang = Annotated[str, typer.Option("--lang", help="Language of the game text: en or de")]
DeckFile = Annotated[
    Path | None,
    typer.Option(
        "--deck",
        "--content",
        help="Apokalypse: a deck file (TOML) instead of the default deck. Apokerlypse: a content"
        " file (TOML) of card effects and faction abilities, or a packaged content by name"
        " (plain, example …)",
    ),
]


def bot_choices() -> str:
    """The computer players of each game, for ``--help`` (from the bots' own registry)."""
    try:
        from apokalypse.bots import bot_names
    except ImportError:  # pragma: no cover - the bots are part of the package
        return ""
    games = {game: ", ".join(bot_names(game)) for game in game_names()}
    if len(set(games.values())) == 1:
        return f": {next(iter(games.values()))}"
    return ": " + "; ".join(f"{game.capitalize()} {names}" for game, names in games.items())


# Defaults decided later (a resumed game keeps its own) are written into the help text, escaped:
# "[default: …]" unescaped is Rich markup and would vanish, leaving a stray " ." behind.
@app.command()
def play(
    ctx: typer.Context,
    game: GameName = "apokalypse",
    players: Annotated[
        int,
        typer.Option("--players", "-p", help="Number of players (Apokalypse 2–6, Apokerlypse 2–4)"),
    ] = 4,
    humans: Annotated[
        str | None,
        typer.Option(help="Seats played by people, e.g. '1' or '1,3' (hot-seat) \\[default: 1]"),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help=f"Computer player for the other seats{bot_choices()}; a comma list is given out"
            " in turn; a budget: ismcts:500 (iterations) or ismcts:0.1s (seconds per decision)"
            " \\[default: heuristic]"
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="Language of the game text: en or de \\[default: en]"),
    ] = None,
    seed: Seed = None,
    deck: DeckFile = None,
    variant: Variants = None,
    save: Annotated[Path | None, typer.Option(help="Save file, written after every action")] = None,
    resume: Annotated[Path | None, typer.Option(help="Resume the game saved in this file")] = None,
    names: Annotated[
        str | None,
        typer.Option(
            help="The people's names, in the order of their seats, e.g. 'Ann,Bob' (shown instead"
            " of p1, p2; 1–24 characters each)"
        ),
    ] = None,
) -> None:
    """Play a game in the terminal against computer players."""
    from .play import run_play

    # --resume refuses a --game or --players that was typed, not the defaults.
    typed = {
        name
        for name in ("game", "players")
        if getattr(ctx.get_parameter_source(name), "name", "DEFAULT") not in DEFAULT_SOURCES
    }
    guarded(
        lambda: run_play(
            game if "game" in typed else None,
            players if "players" in typed else None,
            humans,
            bots,
            lang,
            seed,
            deck,
            variant or [],
            save,
            resume,
            names,
        )
    )


DEFAULT_SOURCES = frozenset({"DEFAULT", "DEFAULT_MAP"})


@app.command()
def simulate(
    game: GameName = "apokalypse",
    games: Annotated[int, typer.Option("--games", "-n", help="How many games")] = 100,
    players: Annotated[str, typer.Option(help="Player count or range, e.g. 4 or 2-6")] = "4",
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            help=f"Computer players, comma-separated, assigned to seats in turn{bot_choices()};"
            " a budget: ismcts:500 (iterations) or ismcts:0.1s (seconds per decision)"
        ),
    ] = "random",
    jobs: Annotated[int, typer.Option(help="Worker processes")] = 1,
    records: Annotated[
        Path | None, typer.Option(help="Write each game's record into this folder")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print a JSON summary")] = False,
    variant: Variants = None,
    deck: DeckFile = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Keep every game's statistics as Parquet tables in this folder (games/,"
            " players/); run again with the same arguments to resume"
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            help="Play on Ray: --ray alone starts Ray here with --jobs CPUs; --ray auto joins the"
            " cluster of this machine; --ray HOST:PORT or ray://HOST:PORT joins one elsewhere",
            metavar="[ADDRESS]",
        ),
    ] = None,
) -> None:
    """Play games between computer players and summarise them; --out keeps their statistics."""
    from .simulate import run_simulate

    status = guarded(
        lambda: run_simulate(
            game,
            games,
            players,
            seed,
            bots,
            jobs,
            records,
            json_out,
            variant or [],
            deck,
            out,
            ray,
        )
    )
    if status:  # failed games (1) or an interrupted run (130), after the summary
        raise typer.Exit(status)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record or save file (JSON)")],
    verify: Annotated[
        bool, typer.Option(help="Exit non-zero if the replay differs from the record")
    ] = False,
    seat: Annotated[
        int | None, typer.Option(help="Show the game as this seat saw it (default: spectator)")
    ] = None,
    lang: Lang = "en",
) -> None:
    """Replay a recorded game, or verify that it replays exactly."""
    from .replay import run_replay

    guarded(lambda: run_replay(file, verify, seat, lang))


@app.command()
def backup(
    file: Annotated[Path, typer.Argument(help="The backup file to write (replaced if it exists)")],
    database_url: Annotated[
        str, typer.Option(help="The games' SQLite database (PostgreSQL: pg_dump -Fc)")
    ] = "sqlite:///apokalypse.sqlite3",
) -> None:
    """Back up a SQLite games database into FILE; safe while the server runs."""
    from .backup import run_backup

    guarded(lambda: run_backup(database_url, file))


@app.command()
def restore(
    file: Annotated[Path, typer.Argument(help="A file made by apokalypse backup")],
    database_url: Annotated[
        str, typer.Option(help="The SQLite database to restore into (made if missing)")
    ],
    replace: Annotated[
        bool, typer.Option(help="Overwrite the games it holds (stop the server first)")
    ] = False,
) -> None:
    """Restore a backup into a SQLite games database (PostgreSQL: pg_restore)."""
    from .backup import run_restore

    guarded(lambda: run_restore(file, database_url, replace))


@app.command()
def bench(
    game: GameName = "apokalypse",
    json_out: Annotated[bool, typer.Option("--json", help="Print the figures as JSON")] = False,
    seconds: Annotated[
        float, typer.Option(help="Measuring time (CPU seconds) per figure and player count")
    ] = 3.0,
) -> None:
    """The engine's speed in the pure-Python and the compiled build side by side: random-play
    decisions per second, clone and determinize cost at 2, 4 and 6 players (Apokerlypse: 2, 3 and
    4, and poker-hand evaluations per second), heuristic decisions and ISMCTS iterations per
    second at 4 players."""
    from apokalypse.bench.engine import run_bench

    guarded(lambda: run_bench(game, json_out, seconds))


@app.command("bench-lab")
def bench_lab(
    jobs: Annotated[int, typer.Option(help="Worker processes and Ray CPUs")] = 2,
    scale: Annotated[
        float, typer.Option(help="Games per figure, as a multiple of the defaults (2,000/160/4)")
    ] = 1.0,
    use_ray: Annotated[bool, typer.Option("--ray/--no-ray", help="Measure Ray too")] = True,
    lineup: Annotated[
        list[str] | None,
        typer.Option(help="Only these lineups, repeatable: random, heuristic, ISMCTS"),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the figures as JSON")] = False,
) -> None:
    """The lab's speed: games per hour of 4-player Apokalypse for random, heuristic and ISMCTS
    players, in one process (with and without the collector), in --jobs processes and on Ray,
    writing the results tables as simulate --out does."""
    from apokalypse.bench.lab import run_bench_lab

    from .simulate import check_jobs

    def run() -> None:
        check_jobs(jobs)
        run_bench_lab(jobs, scale, use_ray, lineup, json_out)

    guarded(run)


@app.command("bench-rl")
def bench_rl(
    games: Annotated[int, typer.Option(help="Random games per loop and round")] = 40,
    rounds: Annotated[int, typer.Option(help="Rounds; each loop keeps its best")] = 3,
    with_openspiel: Annotated[
        bool, typer.Option("--openspiel/--no-openspiel", help="Measure OpenSpiel too")
    ] = True,
    json_out: Annotated[bool, typer.Option("--json", help="Print the figures as JSON")] = False,
) -> None:
    """The learning interfaces' speed: decisions per second of random play through the raw
    engine, the PettingZoo environments and OpenSpiel (needs the rl extra)."""
    from apokalypse.bench.rl import run_bench_rl

    guarded(lambda: run_bench_rl(games, rounds, with_openspiel, json_out))


@app.command("rl-train")
def rl_train(
    episodes: Annotated[int, typer.Option(help="Training games")] = 30_000,
    seed: Annotated[int, typer.Option(help="Seed of the weights, the deals and the sampling")] = 0,
    out: Annotated[Path | None, typer.Option(help="Save the policy here (.npz)")] = None,
    evaluate_games: Annotated[
        int, typer.Option("--evaluate", help="Games against random play after training (0: none)")
    ] = 2000,
) -> None:
    """Train the policy-gradient example of docs/rl.md (NumPy, one CPU core) at 2-player
    Apokerlypse against random play, then measure it on games it has not seen (needs the rl
    extra)."""
    from .rl_train import run_rl_train

    guarded(lambda: run_rl_train(episodes, seed, out, evaluate_games))


@app.command()
def report(
    folder: Annotated[Path, typer.Argument(help="A results folder (simulate --out)")],
    compare: Annotated[
        Path | None,
        typer.Option(help="A second results folder: the differences, with significance tests"),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="The HTML file to write (default: FOLDER/report.html)"),
    ] = None,
) -> None:
    """A self-contained HTML report with plots of a results folder: who wins by ethos and player
    count, points, rounds, horsemen, seats and the start player, cards and winning."""
    from .report import run_report

    status = guarded(lambda: run_report(folder, compare, out))
    if status:
        raise typer.Exit(status)


@app.command()
def effects(
    folder: Annotated[
        Path, typer.Argument(help="A results folder (simulate -g apokerlypse --out)")
    ],
    out: Annotated[
        Path | None,
        typer.Option(help="The Markdown file to write (default: print the table)"),
    ] = None,
    into: Annotated[
        Path | None,
        typer.Option(
            help="A Markdown document whose marked block the table replaces (docs/balance.md)"
        ),
    ] = None,
) -> None:
    """Apokerlypse: how often each card's effect matters, per table size (2, 3, 4 players), as
    a Markdown table of the 52 cards, with the cards under 5 % of their holdings marked."""
    from .effects import run_effects

    status = guarded(lambda: run_effects(folder, out, into))
    if status:
        raise typer.Exit(status)


def use_weights(path: Path, game: str) -> None:
    """Make ``path`` the master level's weights for this run (its worker processes too): read
    first, so that a missing, broken or foreign file is one line before any game starts."""
    import os

    from apokalypse.bots.learned import ENVIRONMENT, load

    load(path, game)
    os.environ[ENVIRONMENT] = str(path.resolve())


@app.command()
def learn(
    game: GameName = "apokalypse",
    players: Annotated[
        str, typer.Option(help="Player counts to train a network for, e.g. 4 or 2-6")
    ] = "4",
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games of generation 0 per player count")
    ] = 4_000,
    bots: Annotated[
        str,
        typer.Option(help="Generation 0's players, comma-separated, assigned to seats in turn"),
    ] = "medium",
    generations: Annotated[
        int, typer.Option(help="Generations: each after the first plays --self-play games")
    ] = 1,
    self_play: Annotated[
        str, typer.Option(help="The later generations' player: the master level with a budget")
    ] = "master:200",
    self_play_games: Annotated[
        int, typer.Option(help="Games of each later generation per player count")
    ] = 1_000,
    hidden: Annotated[
        str, typer.Option(help="Widths of the hidden layers, e.g. 64,32; 0: a linear correction")
    ] = "0",
    epochs: Annotated[int, typer.Option(help="Training passes over the positions")] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the games and the weights")] = 0,
    jobs: Annotated[int, typer.Option(help="Worker processes")] = 1,
    ray: Annotated[
        str | None,
        typer.Option(
            help="Play the games on Ray: local, auto or HOST:PORT (see simulate --ray)",
            metavar="[ADDRESS]",
        ),
    ] = None,
    out: Annotated[Path, typer.Option(help="The weights file to write (.npz)")] = Path(
        "weights.npz"
    ),
    force: Annotated[bool, typer.Option(help="Overwrite --out if it exists")] = False,
    variant: Variants = None,
    deck: DeckFile = None,
) -> None:
    """Train the master level's evaluation from self-play: play the games, fit the network,
    write the weights file and its provenance (NAME.json) beside it."""
    from apokalypse.sim.learn import Plan

    from .cards import read_cards
    from .learn import parse_hidden, run_learn

    def run() -> int:
        plan = Plan(
            game,
            (),
            games,
            tuple(b.strip() for b in bots.split(",")),
            generations,
            self_play.strip(),
            self_play_games,
            parse_hidden(hidden),
            epochs,
            seed,
            tuple(variant or ()),
            read_cards(game, deck),
        )
        return run_learn(plan, players, out, force, jobs, ray)

    status = guarded(run)
    if status:
        raise typer.Exit(status)


@app.command()
def tournament(
    game: GameName = "apokalypse",
    players: Annotated[int, typer.Option("--players", "-p", help="Players per game")] = 4,
    games: Annotated[
        int,
        typer.Option("--games", "-n", help="How many games (rounded up to whole duplicate deals)"),
    ] = 100,
    jobs: Annotated[int, typer.Option(help="Worker processes")] = 1,
    a: Annotated[
        str, typer.Option("--a", help="Player spec a: a name or level, or ismcts:500, ismcts:0.1s")
    ] = "heuristic",
    b: Annotated[str, typer.Option("--b", help="Player spec b")] = "random",
    more: Annotated[
        list[str] | None, typer.Option("--c", help="More player specs, repeatable")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first deal; deal i uses seed+i")] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="Print the report as JSON")] = False,
    out: Annotated[Path | None, typer.Option(help="Write the report as JSON to this file")] = None,
    beliefs: Annotated[
        bool,
        typer.Option(
            "--beliefs",
            help="Measure the ethos beliefs instead: belief/prior of the true ethos at the"
            " second horseman over --games heuristic games",
        ),
    ] = False,
    deck: DeckFile = None,
    weights: Annotated[
        Path | None,
        typer.Option(help="The master level's weights file (apokalypse learn --out) to play with"),
    ] = None,
    ladder: Annotated[
        bool,
        typer.Option(
            "--ladder",
            help="Play each level against the one below (easy … master), --games games a step,"
            " instead of --a and --b",
        ),
    ] = False,
) -> None:
    """Games between player specs with seats rotated and duplicate deals: win rates, mean
    points (Apokerlypse: chips won) and seconds per move, with 95 % confidence intervals."""
    from .tournament import run_tournament

    specs = [a, b, *(more or [])]
    if weights is not None:
        guarded(lambda: use_weights(weights, game))
    status = guarded(
        lambda: run_tournament(
            game, players, games, jobs, specs, seed, json_out, out, beliefs, deck, ladder
        )
    )
    if status:
        raise typer.Exit(status)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on")] = 8000,
    database_url: Annotated[
        str, typer.Option(help="The games' database (SQLite file or postgresql+psycopg://…)")
    ] = "sqlite:///apokalypse.sqlite3",
    redis_url: Annotated[
        str | None,
        typer.Option(
            help="Redis (redis://…) through which several server processes over one database"
            " tell each other of their games' moves; none: one process alone"
        ),
    ] = None,
    channel_prefix: Annotated[
        str | None,
        typer.Option(
            envvar="APOKALYPSE_CHANNEL_PREFIX",
            help="Prefix of the games' Redis channels (default apokalypse:game:)",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address people reach the server at (https://games.example.org), which"
            " every invite link names; default: the address each request came to"
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated addresses or networks (or *) of the reverse proxies whose"
            " X-Forwarded-For/-Proto headers are believed; default: none, not even 127.0.0.1"
            " (a TCP tunnel on this machine would pass a client's own headers on)"
        ),
    ] = None,
    log_format: Annotated[
        str, typer.Option(help="Logs on stderr: text, or json (one object per line)")
    ] = "text",
    metrics_port: Annotated[
        int | None,
        typer.Option(
            help="Serve Prometheus metrics on this port of 127.0.0.1 only (never the public"
            " address: they would tell players of hidden decisions); default: none"
        ),
    ] = None,
    max_games: Annotated[
        int, typer.Option(help="Games held in memory at once")
    ] = Settings.max_games,
    create_per_minute: Annotated[
        float, typer.Option(help="Games one client address may create per minute")
    ] = Settings.create_per_minute,
    max_connections: Annotated[
        int, typer.Option(help="Connections to one game (seats' tabs and spectators)")
    ] = Settings.max_connections,
    create_burst: Annotated[
        int, typer.Option(help="Games one client address may create at once")
    ] = Settings.create_burst,
    idle_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds a game with nobody connected stays in memory (then stored only)"
        ),
    ] = Settings.idle_seconds,
    computer_threads: Annotated[
        int, typer.Option(help="Threads the computer players think on, apart from people's")
    ] = Settings.computer_threads,
    computer_pace: Annotated[
        float,
        typer.Option(help="Seconds between the decisions of a game no person is connected to"),
    ] = Settings.computer_pace,
    computer_delay: Annotated[
        float,
        typer.Option(
            help="Seconds before each computer decision in a game a person is connected to (so"
            " people can follow the play); 0: none"
        ),
    ] = Settings.computer_delay,
    answer_delay: Annotated[
        tuple[float, float],
        typer.Option(
            help="Least and most seconds before the server answers for a person a window's"
            " question they cannot but decline (drawn at random between)"
        ),
    ] = Settings.answer_delay,
    coach_iterations: Annotated[
        int,
        typer.Option(help="Iterations the coach's expert search spends on a question"),
    ] = Settings.coach_iterations,
    coach_seconds: Annotated[
        float,
        typer.Option(help="Seconds the coach may think about one question at most"),
    ] = Settings.coach_seconds,
    push_service: Annotated[
        list[str] | None,
        typer.Option(
            help="Another push service (an origin) browsers' Web Push subscriptions may be at,"
            " beside those of Chrome, Firefox, Safari and Edge (repeatable)"
        ),
    ] = None,
    push_contact: Annotated[
        str,
        typer.Option(help="Who runs this server, named to push services (mailto: or https:)"),
    ] = Settings.push_contact,
    push_grace: Annotated[
        float,
        typer.Option(help="Seconds a person's decision waits before they are pushed about it"),
    ] = Settings.push_grace,
) -> None:
    """Run the online game server (HTTP and WebSocket) until interrupted (Ctrl-C or SIGTERM:
    a graceful stop)."""
    from apokalypse.server.options import serve_options

    def run() -> None:
        settings, listen = serve_options(
            host=host,
            port=port,
            public_url=public_url,
            forwarded_allow_ips=forwarded_allow_ips,
            log_format=log_format,
            metrics_port=metrics_port,
            max_games=max_games,
            create_per_minute=create_per_minute,
            max_connections=max_connections,
            create_burst=create_burst,
            idle_seconds=idle_seconds,
            computer_threads=computer_threads,
            computer_pace=computer_pace,
            computer_delay=computer_delay,
            answer_delay=answer_delay,
            coach_iterations=coach_iterations,
            coach_seconds=coach_seconds,
            push_services=tuple(push_service or ()),
            push_contact=push_contact,
            push_grace=push_grace,
        )
        # Only now: the server's own imports take seconds, and a wrong option is told at once.
        from apokalypse.server.app import run_server

        run_server(
            host, port, database_url, redis_url, channel_prefix, settings=settings, listen=listen
        )

    guarded(run)


@app.command()
def loadtest(
    scenario: Annotated[
        str,
        typer.Option(
            help="play: many games in flight; idle: memory kept by games nobody opens;"
            " computers: a person's answers while computer games are created; race: a game"
            " rebuilt by one process while the other moves it (two over PostgreSQL and Redis)"
        ),
    ] = "play",
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            help="play: concurrent 4-player games, all seats human (200); idle: games created"
            " (2000); computers: all-computer games created at once (6); race: games (100)",
        ),
    ] = None,
    duration: Annotated[
        float | None,
        typer.Option(
            help="Seconds measured, after the warm-up (play: 60; computers: at least this"
            " window, 30)"
        ),
    ] = None,
    warmup: Annotated[float, typer.Option(help="Seconds played before measuring")] = 10.0,
    think: Annotated[
        float, typer.Option(help="A client's mean thinking time per action, in seconds")
    ] = 1.0,
    jitter: Annotated[
        float, typer.Option(help="Thinking time is uniform in think·(1 ± jitter)")
    ] = 0.5,
    seed: Annotated[int, typer.Option(help="Seed of the clients' choices")] = 0,
    scaled: Annotated[
        bool,
        typer.Option(
            help="Two server processes over a fresh PostgreSQL schema and Redis, each game's"
            " seats split across both"
        ),
    ] = False,
    url: Annotated[
        list[str] | None,
        typer.Option(
            help="Load running servers at this base URL (repeatable) instead of starting any;"
            " their memory and CPU are then not sampled"
        ),
    ] = None,
    sample: Annotated[float, typer.Option(help="Seconds between memory/CPU samples")] = 5.0,
    clients: Annotated[
        int, typer.Option(help="Client processes sharing the games (1: all in this one)")
    ] = 1,
    postgres_url: Annotated[
        str, typer.Option(help="PostgreSQL database for --scaled (a schema is made and dropped)")
    ] = "postgresql+psycopg://postgres@127.0.0.1:5432/test",
    redis_url: Annotated[str, typer.Option(help="Redis for --scaled")] = "redis://127.0.0.1:6379/0",
    idle_seconds: Annotated[
        float | None,
        typer.Option(
            help="idle: the server's idle release, given to it when it takes --idle-seconds"
            " (otherwise its default is waited for)"
        ),
    ] = 10.0,
    settle: Annotated[
        float | None,
        typer.Option(help="idle: the longest wait, in seconds, for the server's memory to settle"),
    ] = None,
    computer: Annotated[
        str, typer.Option(help="computers: the computer player at every seat of those games")
    ] = "hard",
    stall: Annotated[
        float,
        typer.Option(help="race: seconds after A's answer within which B must show the same"),
    ] = 5.0,
    proxy: Annotated[
        bool, typer.Option(help="The clients reach the servers through nginx with TLS")
    ] = False,
    server_src: Annotated[
        Path | None,
        typer.Option(
            help="Run the servers from this copy of src/ (another version, to measure a before)"
        ),
    ] = None,
    race_answers: Annotated[
        bool,
        typer.Option(
            help="play: the clients also answer the questions the server answers for them, as"
            " a person clicking decline just as the automatic answer comes (one of the two is"
            " refused; no connection may close)"
        ),
    ] = False,
    out: Annotated[Path | None, typer.Option(help="Write the report as JSON to this file")] = None,
) -> None:
    """Load the online game server with many concurrent games played over WebSockets and report
    throughput, latency, errors, memory and CPU (a benchmark, minutes long); or, with
    --scenario, measure one of its weak spots against its target."""
    from apokalypse.bench.load import LoadOptions, run_loadtest
    from apokalypse.bench.scenario_runs import run_scenario_to
    from apokalypse.bench.scenarios import (
        DEFAULT_DURATION,
        DEFAULT_GAMES,
        SCENARIOS,
        ScenarioOptions,
    )

    if scenario not in SCENARIOS:
        raise fail(f"--scenario {scenario!r}: one of {', '.join(SCENARIOS)}")
    games = DEFAULT_GAMES[scenario] if games is None else games
    duration = DEFAULT_DURATION.get(scenario, 60.0) if duration is None else duration
    if games < 1 or duration <= 0 or warmup < 0 or think < 0 or not 0 <= jitter <= 1:
        raise fail("--games must be ≥ 1, --duration > 0, --warmup and --think ≥ 0, --jitter 0–1")
    if sample <= 0 or clients < 1:
        raise fail("--sample must be > 0 and --clients ≥ 1")
    if scenario != "play" and (url or scaled or clients != 1):
        raise fail("--url, --scaled and --clients are for --scenario play")
    if (idle_seconds is not None and idle_seconds <= 0) or (settle is not None and settle <= 0):
        raise fail("--idle-seconds and --settle must be > 0")
    if stall <= 0:
        raise fail("--stall must be > 0")
    if server_src is not None and not (server_src / "apokalypse").is_dir():
        raise fail(f"--server-src {server_src}: no apokalypse package in it (give a copy of src/)")
    options = LoadOptions(
        games=games,
        duration=duration,
        warmup=warmup,
        think=think,
        jitter=jitter,
        seed=seed,
        scaled=scaled,
        urls=tuple(url or ()),
        sample=sample,
        client_processes=clients,
        postgres_url=postgres_url,
        redis_url=redis_url,
        scenario=scenario,
        proxy=proxy,
        server_src=str(server_src) if server_src is not None else None,
        race_answers=race_answers,
    )
    if scenario == "play":
        guarded(lambda: run_loadtest(options, out))
        return
    more = ScenarioOptions(idle_seconds=idle_seconds, settle=settle, computer=computer, stall=stall)
    guarded(lambda: run_scenario_to(options, more, out))


def main(argv: list[str] | None = None) -> int:
    """The ``apokalypse`` program: run one command, return its exit status.

    Typer's standalone mode would frame usage errors in a box over several lines and print a
    traceback for Ctrl-C outside a game; here a usage error is one line ``error: …`` naming the
    option (status 2), and Ctrl-C ends quietly with status 130. ``--help`` is untouched.

    A closed stdout (``apokalypse replay FILE | head -1``) ends the program quietly with status
    0, the recipe of Python's documentation (``signal`` module, "Note on SIGPIPE"): the reader
    has all it asked for, so this is no failure, and a shell with ``pipefail`` must not report
    one. (Tools killed by SIGPIPE show 141; a Python program that merely imitates that would
    make ``| head`` pipelines fail under ``pipefail`` for no reason.)"""
    # Rich's consoles would exit with status 1 on a closed pipe; click turns an EPIPE OSError
    # into status 1 too. Both are routed here instead (PipeClosed is no OSError).
    Console.on_broken_pipe = _pipe_closed  # type: ignore[method-assign,assignment]
    try:
        status = _run(argv)
        sys.stdout.flush()  # inside the try: a write still buffered may meet the closed pipe
    except (BrokenPipeError, PipeClosed):
        # Python flushes stdout again at exit, which would fail again and print a warning: point
        # it at devnull first.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 0
    return status


def _bare_ray(argv: list[str]) -> list[str]:
    """``simulate --ray`` alone (at the end, or before another option) means a Ray instance
    started here: ``--ray local``. (Click has no option whose value may be left out.)"""
    out = list(argv)
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--ray" and (i + 1 == len(argv) or argv[i + 1].startswith("-")):
            out[i] = "--ray=local"
    return out


def _run(argv: list[str] | None) -> int:
    argv = _bare_ray(sys.argv[1:] if argv is None else argv)
    command = typer.main.get_command(app)
    try:
        status = command.main(args=argv, prog_name="apokalypse", standalone_mode=False)
    except typer.TyperException as exc:  # click's ClickException / UsageError
        if type(exc).__name__ == "NoArgsIsHelpError":  # the help was printed; Typer's status
            return 2
        fail(" ".join(exc.format_message().split()))
        return 2
    except (typer.Abort, KeyboardInterrupt):
        return 130
    except typer.Exit as exc:
        return exc.exit_code
    # A command returns None; an explicit ``typer.Exit(n)`` comes back as its status.
    return status if isinstance(status, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
