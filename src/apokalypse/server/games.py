"""Games in play on the server: created, rebuilt from the store, advanced action by action.

Everything here is synchronous (the engine, the computer players, the database): the app runs
it off the event loop (``asyncio.to_thread``), one game at a time under that game's lock, so a
slow computer player holds up its own game only.

A game lives in memory while it is played (:class:`LiveGame`: its :class:`Match` and the log of
its events). After a restart it is rebuilt from its stored record by replay: fresh computer
players, seeded from the game's seed and their seat, are asked again at their seats
(:meth:`Match.catch_up`), so they go on exactly as if nothing had happened.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from apokalypse.bots import make_bot, seat_seed
from apokalypse.engine.errors import ConfigError, IllegalAction, NotationError
from apokalypse.engine.events import Event
from apokalypse.engine.match import MAX_DECISIONS, Match, Player
from apokalypse.engine.protocol import Game, GameState
from apokalypse.engine.record import GameRecord, start
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import SEED_LIMIT
from apokalypse.i18n import check_lang, notation_reason, seat_names, text
from apokalypse.i18n.texts import Texts, texts_for

from .store import Store, StoreError

HUMAN = "human"
TOKEN_BYTES = 24  # 32 URL-safe characters: the key of a seat's secret invite link


def message(key: str, lang: str, **values: object) -> str:
    """The server's own refusals (the rules' refusals come from each game's catalog)."""
    return text(f"server.{key}", lang, **values)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def computer_players(kinds: Sequence[str], seed: int, game: str) -> dict[int, Player[Any, Any]]:
    """The computer players of a game's seats (every seat not ``human``), seeded from the game's
    seed and their seat, so a rebuilt game seats exactly the same players."""
    return {
        seat: make_bot(kind, seat_seed(seed, seat), game)
        for seat, kind in enumerate(kinds)
        if kind != HUMAN
    }


class Refused(Exception):
    """An action the server does not apply: ``reason`` in the game's language, ``rule`` the
    rule id when the rules refused it."""

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "refused", "reason": self.reason}
        if self.rule is not None:
            data["rule"] = self.rule
        return data


@dataclass
class NewGame:
    """What ``POST /api/games`` asked for, checked: the record to store and the tokens."""

    record: GameRecord
    state: GameState
    players: dict[int, Player[Any, Any]]
    tokens: dict[int, str]  # seat → token, human seats only


def new_game(
    name: str, players: int, seats: Sequence[str], variants: Sequence[str], lang: str
) -> NewGame:
    """A fresh game; bad input is a :class:`ConfigError` naming what is wrong."""
    game = get_game(name.strip().lower())
    lang = check_lang(lang)
    config = game.config_from_options(players, list(variants), None)
    if len(seats) != config.players:
        raise ConfigError(
            f"seats lists {len(seats)} seats for a {config.players}-player game: name one kind"
            f" per seat ({HUMAN!r} or a computer player)"
        )
    kinds = [kind.strip().lower() for kind in seats]
    seed = secrets.randbelow(SEED_LIMIT)  # all 64 bits: unguessable
    bots = computer_players(kinds, seed, game.name)
    tokens = {
        seat: secrets.token_urlsafe(TOKEN_BYTES) for seat in range(len(kinds)) if seat not in bots
    }
    meta = {
        "seats": kinds,
        "token_sha256": [hash_token(tokens[s]) if s in tokens else None for s in range(len(kinds))],
        "lang": lang,
    }
    state = game.new_game(config, seed)
    record = GameRecord(game.name, game.version, config.to_json(), seed, meta=meta)
    return NewGame(record, state, bots, tokens)


@dataclass
class LiveGame:
    """One game in memory: its match, its stored record's header and every event so far."""

    id: str
    game: Game
    record: GameRecord
    match: Match[Any, Any]
    log: list[Event] = field(default_factory=list)

    @property
    def state(self) -> GameState:
        return self.match.state

    @property
    def kinds(self) -> list[str]:
        return [str(kind) for kind in self.record.meta.get("seats", [])]

    @property
    def lang(self) -> str:
        return str(self.record.meta.get("lang", "en"))

    def seat_of(self, token: str) -> int | None:
        """The human seat whose token this is; None for any other."""
        digest = hash_token(token)
        for seat, stored in enumerate(self.record.meta.get("token_sha256", [])):
            if isinstance(stored, str) and hmac.compare_digest(stored, digest):
                return seat
        return None

    def summary(self) -> dict[str, Any]:
        """What anybody may know of the game (no tokens; the seed once it is over)."""
        state = self.state
        result = state.result
        data: dict[str, Any] = {
            "id": self.id,
            "game": self.record.game,
            "players": len(self.kinds),
            "seats": [{"seat": seat, "kind": kind} for seat, kind in enumerate(self.kinds)],
            "lang": self.lang,
            "move": state.move,
            "over": state.is_over,
            "result": result.to_json() if result is not None else None,
        }
        if state.is_over:
            data["seed"] = self.record.seed  # only now: it rebuilds every hand and the deck
        return data

    def view(self, seat: int | None, since: int) -> dict[str, Any]:
        """The state message for ``seat`` (None: a spectator), with the events from ``since``,
        and the same sentences the terminal shows: the log lines of those events, the question
        and each legal action's wording, in the game's language."""
        state = self.state
        deciding = not state.is_over and seat is not None and state.to_act == seat
        observation = state.observation(seat)
        legal = list(state.legal_actions()) if deciding else []
        events = self.log[since:]
        texts = self.texts
        names = seat_names(len(self.kinds), seat, self.lang)
        data: dict[str, Any] = {
            "type": "state",
            "observation": observation,
            "events": [event.view(seat).to_json() for event in events],
            "legal": [str(a) for a in legal],
            "text": {
                "log": texts.render_events(events, seat, names),
                "question": (
                    texts.decision_text(seat, observation, names)
                    if deciding and seat is not None
                    else ""
                ),
                "choices": [texts.render_action(a, observation, names) for a in legal],
            },
        }
        if since == 0:  # a connection's first message: the card facts, once
            data["cards"] = texts.cards()
        return data

    @cached_property
    def texts(self) -> Texts:
        return texts_for(self.record.game, self.record.config, self.lang)

    def check(self, seat: int | None, data: object) -> Any:
        """The action a seat's message asks for, parsed; a :class:`Refused` otherwise."""
        lang = self.lang
        if not isinstance(data, dict):
            raise Refused(message("message", lang))
        action, move = data.get("action"), data.get("move")
        if not isinstance(action, str) or type(move) is not int:
            raise Refused(message("message", lang))
        if seat is None:
            raise Refused(message("spectator", lang))
        state = self.state
        shown = state.observation(seat)["move"]
        if move != shown:
            raise Refused(message("stale", lang, sent=move, move=shown))
        if state.is_over:
            raise Refused(message("over", lang))
        if state.to_act != seat:
            raise Refused(message("not-your-turn", lang))
        try:
            return self.game.parse_action(action)
        except NotationError as exc:
            reason = notation_reason(exc, self.record.game, lang)
            raise Refused(text("ui.error.notation", lang, message=reason)) from None
        except ValueError as exc:  # a parser's own slip: still only a typo
            raise Refused(text("ui.error.notation", lang, message=f"{action!r}: {exc}")) from None

    def play(self, store: Store, action: Any) -> None:
        """Apply a person's action, store it, then let the computer players act (blocking)."""
        try:
            events = self.match.apply(action)
        except IllegalAction as exc:
            raise Refused(self.texts.refusal(exc), exc.rule) from None
        self._commit(store, events)
        self.advance(store)

    def advance(self, store: Store) -> None:
        """Let computer players act while it is their decision, storing each action."""
        state = self.state
        while not state.is_over and self.match.is_computer(state.to_act):
            if len(self.match.actions) >= MAX_DECISIONS:
                return
            _, events = self.match.play_turn()
            self._commit(store, events)

    def catch_up_from(self, store: Store) -> int:
        """Apply the actions another server process stored after ours (blocking); how many.

        The computer players are only asked again (:meth:`Match.catch_up`), never let act: the
        process that applied a person's action lets them answer. A :class:`StoreError` when the
        stored actions do not begin with ours (memory and database disagree: rebuild)."""
        record = store.load(self.id)
        known = len(self.match.actions)
        if record.actions[:known] != self.match.actions:
            raise StoreError(f"game {self.id!r}: the stored actions differ from those in memory")
        for events in self.match.catch_up(self.game, record.actions[known:]):
            self.log.extend(events)
        return len(record.actions) - known

    def _commit(self, store: Store, events: list[Event]) -> None:
        self.log.extend(events)
        store.append(self.id, self.state.move, self.match.actions[-1])
        result = self.state.result
        if self.state.is_over and result is not None:
            store.finish(self.id, result.to_json())


def create(store: Store, new: NewGame) -> LiveGame:
    """Store a new game and start it (computer players whose decision it is act at once)."""
    game_id = store.create(new.record)
    game = get_game(new.record.game)
    match: Match[Any, Any] = Match(
        new.state, new.players, new.record.start_digest(new.state.opening)
    )
    live = LiveGame(game_id, game, new.record, match)
    live.log.extend(match.start())
    live.advance(store)
    return live


def rebuild(store: Store, game_id: str) -> LiveGame:
    """A stored game as it stood after its last stored action (a :class:`StoreError` for an
    unknown id, a ``RecordError`` for a record that does not replay)."""
    record = store.load(game_id)
    game, state = start(record)
    kinds = [str(kind) for kind in record.meta.get("seats", [])]
    bots = computer_players(kinds, record.seed, record.game)
    match: Match[Any, Any] = Match(state, bots, record.start_digest(state.opening))
    live = LiveGame(game_id, game, record, match)
    live.log.extend(match.start())
    for events in match.catch_up(game, record.actions):
        live.log.extend(events)
    live.advance(store)  # a restart between a person's action and the computers' answers
    return live
