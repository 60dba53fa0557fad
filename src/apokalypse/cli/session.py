"""One terminal game in progress: whose turn, asking people, asking computer players, saving.

People answer with the number of a legal choice or with the action notation; the engine judges
every answer (a refusal names its rule). Several answers may be typed at once, separated by ``;``.
After every applied action the record is saved atomically, so EOF, Ctrl-C or a crash lose nothing.

Hot-seat (several people at one screen): before a person decides, the screen is cleared and the
keyboard handed over, and every board shows only its owner's hand. The engines ask every other
player in a defence or block window, whatever they hold, so the handovers never tell who can.

Computer players are guarded (:mod:`apokalypse.bots.guard`): one that raises or overruns its
budget is replaced by the heuristic for that move, and the fault is logged. Each computer move is
kept as a :class:`~.ui.why.Decision`, which ``why`` and ``why <move>`` show, once the game is
over or when no person plays (a searching player's reasoning shows its hand).

Nothing here knows which game is played: the game comes from the record (through the engine's
registry), and everything a person reads about it from the game's adapter (:mod:`.ui`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from apokalypse.engine.errors import IllegalAction, NotationError
from apokalypse.engine.events import Event
from apokalypse.engine.match import Match, Player, SearchingPlayer
from apokalypse.engine.protocol import Game, GameState
from apokalypse.engine.record import GameRecord
from apokalypse.engine.registry import entry, get_game
from apokalypse.i18n import notation_reason, seat_names, text
from apokalypse.wire import seat_views
from apokalypse.wire.seat import SeatViews, WireState
from apokalypse.wire.seat import Table as SeatTable

from .safe import (
    MAX_DIGITS,
    command_line,
    is_digits,
    is_number_like,
    printable,
    program_name,
    whole_number,
)
from .ui import GameUI, make_ui
from .ui.common import Pause
from .ui.why import Decision, may_explain, why_lines

QUIT_WORDS = frozenset({"q", "quit", "exit", "ende", "beenden"})
HELP_WORDS = frozenset({"?", "h", "help", "hilfe"})
BOARD_WORDS = frozenset({"b", "board", "tisch"})
LOG_WORDS = frozenset({"l", "log", "protokoll"})
RULES_WORDS = frozenset({"r", "rules", "regeln"})  # alone, or followed by a card code
WHY_WORDS = frozenset({"why", "warum"})  # alone, or followed by a move number
RECENT_LINES = 12
LOG_LINES = 40


class Quit(Exception):  # a signal to leave the loop, not an error
    """Leave the game loop; the record is already saved."""


@dataclass
class Session:
    console: Console
    lang: str
    state: GameState
    record: GameRecord
    path: Path
    humans: frozenset[int]
    bots: dict[int, Player[Any, Any]]
    log: list[Event] = field(default_factory=list)
    echo: bool = False
    seen_upto: dict[int, int] = field(default_factory=dict)  # hot-seat: log seen per person
    queue: list[str] = field(default_factory=list)  # answers typed ahead with ';'
    screen_owner: int | None = None
    asked: tuple[int, str, int] | None = None  # the last question: seat, decision, actions so far
    resumed: bool = False  # a resumed game's save exists before its first action here
    # Each computer move of this session, by its action number (1 = the game's first action).
    decisions: dict[int, Decision] = field(default_factory=dict)
    chosen: list[str | None] = field(default_factory=list)  # people's names by seat (--names)
    match: Match[Any, Any] = field(init=False)  # the loop shared with the simulator
    game: Game = field(init=False)
    ui: GameUI = field(init=False)
    views: SeatViews = field(init=False)  # what a seat is shown: the server's seat view
    players: int = field(init=False)

    def __post_init__(self) -> None:
        self.bots = self.guarded(self.bots)
        self.match = Match(self.state, self.bots, self.record.start_digest(self.state.opening))
        self.game = get_game(self.record.game)
        self.ui = make_ui(self.record.game, self.record.config, self.lang)
        self.views = seat_views(self.record.game, self.ui.texts)  # the adapter's own sentences
        self.players = int(self.state.observation(None)["players"])

    def guarded(self, bots: dict[int, Player[Any, Any]]) -> dict[int, Player[Any, Any]]:
        """The computer players, each with the heuristic standing in for a move it fails."""
        if not bots:
            return bots
        try:  # imported late, as play.make_bots does: the game starts without them too
            bots_module = import_module("apokalypse.bots")
            guard_all = import_module("apokalypse.bots.guard").guard_all
        except ImportError:
            return bots
        game, seed = self.record.game, self.record.seed

        def stand_in(seat: int) -> Player[Any, Any]:
            seed_of = bots_module.seat_seed(seed, seat + 64)  # apart from every seat's player
            try:
                stand: Player[Any, Any] = bots_module.make_bot("heuristic", seed_of, game)
            except Exception:  # a game without a heuristic: the random player stands in
                stand = bots_module.RandomBot(seed_of)
            return stand

        guarded: dict[int, Player[Any, Any]] = guard_all(bots, stand_in)
        return guarded

    # --- who sees what -------------------------------------------------------------------------

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    @property
    def viewer(self) -> int | None:
        """Whose eyes the streamed log uses: the one person playing, else a spectator's."""
        return next(iter(self.humans)) if len(self.humans) == 1 else None

    def names(self, viewer: int | None) -> list[str]:
        return seat_names(self.players, viewer, self.lang, self.chosen)

    def say(self, line: str, style: str = "") -> None:
        # Escaped before Rich, which passes ESC and other controls through: card names come
        # from a deck file and a resumed game's texts from its record.
        self.console.print(Text(printable(line, keep_newlines=True), style=style))

    def warn(self, line: str) -> None:
        self.say(line, "red")

    def clear(self) -> None:
        """Hide the previous person's hand: clear the screen and, where supported, scrollback."""
        if self.console.is_terminal:
            self.console.clear()
            self.console.file.write("\x1b[3J")  # ED 3: erase the scrollback too
            self.console.file.flush()

    def stream(self, events: Sequence[Event]) -> None:
        """The running log. Hot-seat streams only the public summaries (a horseman's ride): the
        screen is shared, and each person sees what happened since their last decision on their
        own board instead."""
        if not events:
            return
        names = self.names(self.viewer)
        style = "dim" if events[0].kind == "deal" else ""
        start = 0
        for end, drawing in [*self.ui.summaries(events, names), (len(events) - 1, None)]:
            if not self.hot_seat:
                # Events a summary drawing shows in full are not logged line by line too.
                shown = [e for e in events[start : end + 1] if e.kind not in self.ui.folded]
                for line in self.ui.render_events(shown, self.viewer, names):
                    self.say(f"· {line}", style)
            if drawing is not None:
                self.console.print(drawing)
                if isinstance(drawing, Pause):
                    self.pause()
            start = end + 1

    def pause(self) -> None:
        """Let a person read what was just shown (not when only computer players play, nor when
        answers were typed ahead)."""
        if self.humans and not self.queue:
            self.read(text("ui.press_enter_on", self.lang))
            self.queue.clear()

    # --- the loop ------------------------------------------------------------------------------

    def run(self) -> None:
        try:
            while not self.state.is_over:
                seat = self.state.to_act
                if seat in self.humans:
                    self.human_turn(seat)
                else:
                    self.queue.clear()  # answers typed ahead belong to the person only
                    self.bot_turn()
        except Quit as stop:
            self.say(str(stop))
            if not (self.match.actions or self.resumed):  # nothing was saved: no file either
                self.say(text("ui.nothing_saved", self.lang), "dim")
                return
            self.say(text("ui.saved", self.lang, path=self.path))
            self.say(text("ui.resume_hint", self.lang), "dim")
            self.say_command("play", "--resume", self.path)
            return
        self.finish()

    def start(self) -> list[Event]:
        """The opening (what happened before the first decision), told to the computer
        players and kept in the log."""
        opening = self.match.start()
        self.log.extend(opening)
        self.ui.note(opening)
        return opening

    def catch_up(self, actions: Sequence[str]) -> None:
        """Play a saved game's actions again, from the start, before it goes on (the computer
        players are asked again at their seats: see :meth:`Match.catch_up`)."""
        for events in self.match.catch_up(self.game, actions):
            self.log.extend(events)
            self.ui.note(events)
        self.record.actions = self.match.actions

    def commit(self, events: list[Event]) -> None:
        """Save (atomically), log and show one action the match applied."""
        self.record.actions = self.match.actions
        self.record.events_sha256 = self.match.digest.hexdigest()
        result = self.state.result
        if result is not None:
            self.record.result = result.to_json()
        self.record.save(self.path)
        self.log.extend(events)
        self.ui.note(events)
        self.stream(events)

    def bot_turn(self) -> None:
        seat = self.state.to_act
        number = len(self.match.actions) + 1
        action, events = self.match.play_turn()
        player = self.match.players[seat]
        stood_in = not getattr(player, "last_ok", True)
        explanation = getattr(player, "last", None)
        self.decisions[number] = Decision(seat, player.name, str(action), stood_in, explanation)
        self.commit(events)

    # --- "why did it do that?" ----------------------------------------------------------------

    @property
    def may_explain(self) -> bool:
        return may_explain(self.state.is_over, self.humans)

    @property
    def searching(self) -> bool:
        """Whether any computer player here searches (the others have no reasoning to show;
        which players sit here is public: the welcome line names them)."""
        return any(
            isinstance(getattr(p, "player", p), SearchingPlayer)
            for p in self.match.players.values()
        )

    def why(self, topic: str) -> None:
        """``why`` or ``why <move>``: a computer player's reasoning, when it may be shown."""
        if not self.searching:
            self.say(text("ui.why.no_search", self.lang))
            return
        if not self.may_explain:
            self.warn(text("ui.why.refused", self.lang))
            return
        move: int | None = None
        if topic:
            move = whole_number(topic.removeprefix("#"))
            if move is None:
                self.warn(text("ui.why.bad", self.lang))
                return
        names = self.names(self.viewer)
        beliefs = entry(self.record.game).beliefs is not None  # a game with hidden roles
        for line in why_lines(self.decisions, move, names, self.lang, beliefs):
            self.say(line)

    def after_game(self) -> None:
        """Once the game is over, a searching player's reasoning may be asked for: a prompt for
        ``why`` lines, left with Enter, EOF or anything else."""
        if not any(d.explanation is not None for d in self.decisions.values()):
            return
        self.say(text("ui.why.after", self.lang, last=len(self.match.actions)), "dim")
        while True:
            try:
                line = self.read("? ").strip().lower()
            except Quit:
                return
            word, _, topic = line.partition(" ")
            if word not in WHY_WORDS:
                return
            self.why(topic.strip())

    def seat_view(self, seat: int) -> WireState:
        """What ``seat`` is shown now: the seat view the server sends a browser (the observation,
        the question, each choice with its wording and notation), so the terminal and the
        browser read the same."""
        kinds = ["computer" if self.match.is_computer(q) else "human" for q in range(self.players)]
        table = SeatTable(
            kinds, frozenset(self.humans), frozenset(), None, self.lang, names=self.chosen
        )
        return self.views.view(self.state, seat, (), table, first=False)

    def human_turn(self, seat: int) -> None:
        view = self.seat_view(seat)
        obs = view["observation"]
        legal = list(self.state.legal_actions())  # the view's choices, in the same order
        names = view["names"]
        formality = self.ui.auto_answer(legal)
        if formality is not None and not self.hot_seat:
            # Nothing to decide, and nobody else looks at this screen: do not ask. (Hot-seat
            # still hands the keyboard over, or the handovers would tell who can defend.)
            self.say(formality, "dim")
            self.commit(self.match.apply(legal[0]))
            return
        fresh = self.hot_seat and self.screen_owner != seat
        if fresh:
            self.handover(seat)
        # A second answer to the same question in a row (the next card to discard) needs no
        # second board: the choices show what changed.
        follow_up = self.asked == (seat, obs["decision"], len(self.match.actions) - 1)
        self.asked = (seat, str(obs["decision"]), len(self.match.actions))
        if fresh or (self.ui.full_board(obs) and not follow_up):
            self.show_board(seat, obs, names)
        self.show_choices(view)
        prompt = text("ui.prompt", self.lang, name=names[seat])
        while not self.try_line(seat, self.read(prompt), view, legal):
            pass
        if self.state.is_over or self.state.to_act != seat:
            self.queue.clear()

    def try_line(self, seat: int, line: str, view: WireState, legal: list[Any]) -> bool:
        """One line of input: a command, a choice number or notation. False: ask again."""
        obs, names = view["observation"], view["names"]
        cmd = line.strip()
        low = cmd.lower()
        if not cmd:
            return False
        if low in QUIT_WORDS:
            raise Quit(text("ui.quit", self.lang))
        word, _, topic = low.partition(" ")
        if word in RULES_WORDS:
            self.say(self.ui.rules(topic.strip()))
            return False
        if low in HELP_WORDS:
            self.say(self.ui.help())
            return False
        if word in WHY_WORDS:
            self.why(topic.strip())
            return False
        if low in BOARD_WORDS:
            self.show_board(seat, obs, names)
            self.show_choices(view)
            return False
        if low in LOG_WORDS:
            for entry in self.ui.render_events(self.log, seat, names)[-LOG_LINES:]:
                self.say(f"· {entry}")
            return False
        back = self.ui.back_action(obs)
        if is_number_like(cmd):  # a choice's number, or meant as one ('-1', '1.5')
            number = whole_number(cmd)  # ASCII digits, a few: '²' is none
            if number == 0 and back is not None:  # 0 takes back the first step
                action = back
            elif number is not None and 1 <= number <= len(legal):
                action = legal[number - 1]
            else:
                # more digits than any list has choices are cut; anything else is shown as typed
                shown: int | str = number if number is not None else cmd
                if number is None and is_digits(cmd):
                    shown = f"{cmd[:MAX_DIGITS]}…"
                lowest = 0 if back is not None else 1
                return self.refuse(
                    text("ui.error.number", self.lang, n=shown, min=lowest, max=len(legal))
                )
        else:
            try:
                action = self.game.parse_action(cmd)
            except NotationError as exc:
                message = notation_reason(exc, self.record.game, self.lang)
                return self.refuse(text("ui.error.notation", self.lang, message=message))
            except ValueError as exc:  # a parser's own slip ('to p²'): still only a typo here
                return self.refuse(text("ui.error.notation", self.lang, message=f"{cmd!r}: {exc}"))
        try:  # the engine is the judge: it names the rule a refused action breaks
            events = self.match.apply(action)
        except IllegalAction as exc:
            return self.refuse(self.ui.refusal(exc))
        self.commit(events)
        return True

    def refuse(self, why: str) -> bool:
        """One line of explanation; answers typed ahead were meant for a different situation."""
        self.warn(why)
        self.queue.clear()
        return False

    def read(self, prompt: str) -> str:
        if self.queue:
            line = self.queue.pop(0)
            self.say(f"{prompt}{line.strip()}", "dim")
            return line
        try:
            line = self.console.input(Text(prompt, style="bold"))
        except EOFError:
            self.console.print()
            raise Quit(text("ui.eof", self.lang)) from None
        except KeyboardInterrupt:
            self.console.print()
            raise Quit(text("ui.quit", self.lang)) from None
        if self.echo:  # piped input is not echoed: show it so a transcript reads right
            self.console.print(Text(printable(line), style="dim"))
        first, *rest = line.split(";")
        self.queue = rest
        return first

    def handover(self, seat: int) -> None:
        """Hot-seat: hide the screen and let the next person take the keyboard."""
        self.queue.clear()
        self.clear()
        self.console.print(Panel(Text(text("ui.handover", self.lang, name=self.names(None)[seat]))))
        if self.read(text("ui.press_enter", self.lang)).strip().lower() in QUIT_WORDS:
            raise Quit(text("ui.quit", self.lang))
        self.queue.clear()
        self.clear()
        self.screen_owner = seat

    # --- what is shown -------------------------------------------------------------------------

    def show_board(self, seat: int, obs: Mapping[str, object], names: Sequence[str]) -> None:
        recent: list[str] = []
        if self.hot_seat:  # the shared screen carried no log: show what happened since
            start = self.seen_upto.get(seat, 0)
            recent = self.ui.render_events(self.log[start:], seat, names)[-RECENT_LINES:]
            self.seen_upto[seat] = len(self.log)
        self.console.print()
        self.console.print(self.ui.board(obs, names, recent))

    def show_choices(self, view: WireState) -> None:
        """The question and the choices of a seat's view: each with its wording and notation."""
        self.say(view["text"]["question"], "bold")
        # A grid: the wording wraps in its own column, the notation never breaks across lines
        # (it is what a person may type), whatever the terminal's width.
        grid = Table.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_column(no_wrap=True, style="dim")
        back = self.ui.back_action(view["observation"])
        if back is not None:  # a second step: the first can be taken back
            grid.add_row("0)", text("ui.back", self.lang), str(back))
        choices = zip(view["legal"], view["text"]["choices"], strict=True)
        for i, (choice, wording) in enumerate(choices, 1):
            grid.add_row(f"{i})", printable(wording), printable(str(choice["text"])))
        self.console.print(grid)

    def finish(self) -> None:
        result = self.state.result
        assert result is not None  # the loop ends only when the game is over
        viewer = self.viewer
        names = self.names(viewer)
        final = self.state.observation(viewer)
        self.console.print()
        self.console.print(self.ui.board(final, names))
        # The observation's result is the record's and what the page shows besides (Apokerlypse:
        # who ran out of chips, though they may have won chips back since).
        self.console.print(self.ui.result_view(final.get("result") or result.to_json(), names))
        self.say(text("ui.saved", self.lang, path=self.path))
        # Only now: the seed rebuilds every hand and the deck order (docs/games.md, "What is
        # secret").
        self.say(text("ui.game_seed", self.lang, seed=self.record.seed), "dim")
        self.say_command("replay", self.path)
        self.after_game()

    def say_command(self, *words: str | Path) -> None:
        """A command to type, on its own line and never wrapped: it must work as printed."""
        line = command_line(program_name(sys.argv[0], Path.cwd()), *words)
        self.console.print(Text(printable(line), style="dim"), soft_wrap=True)
