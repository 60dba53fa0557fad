"""How a game comes into memory: made new (:func:`new_game`, :func:`create`), made again as a
rematch, or rebuilt from its stored record by replay (:func:`rebuild`): fresh computer players,
seeded from the game's seed and their seat, are asked again at their seats
(:meth:`Match.catch_up`), so they go on exactly as if nothing had happened; and what anybody
may know of a game, in memory or stored (:func:`summary_of`, :func:`stored_summary`)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from apokalypse.bots import make_bot, seat_seed
from apokalypse.bots.guard import guard_all
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.match import Match, Player
from apokalypse.engine.protocol import GameState
from apokalypse.engine.record import GameRecord, replay, start
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import SEED_LIMIT
from apokalypse.i18n import check_lang
from apokalypse.wire.seat import Summary

from .clock import Ticks
from .days import Days, Now, utc_now
from .entries import Due, Rematch
from .games import HUMAN, STAND_IN, LiveGame
from .setup import COACH, REMATCH_OF, TIMER, TURN_BASED, TUTORIAL, Setup
from .store import Store, new_id
from .tokens import TOKEN_BYTES, hash_token


def computer_players(kinds: Sequence[str], seed: int, game: str) -> dict[int, Player]:
    """The computer players of a game's seats (every seat not ``human``), seeded from the game's
    seed and their seat, so a rebuilt game seats exactly the same players. Each is guarded
    (:mod:`apokalypse.bots.guard`): a player that raises or overruns is replaced by the
    heuristic for that move, and the fault logged, instead of stopping the game.

    A seat kind is a player's name (``heuristic``, ``expert`` …), never a budget
    (``ismcts:500``): the server's players are its own choice of strength and cost."""
    for kind in kinds:
        if ":" in kind:
            raise ConfigError(
                f"seat kind {kind!r}: name a computer player without a budget (easy, medium,"
                " hard, expert …)"
            )
    players = {
        seat: make_bot(kind, seat_seed(seed, seat), game)
        for seat, kind in enumerate(kinds)
        if kind != HUMAN
    }

    def stand_in(seat: int) -> Player:  # seeded apart from every seat's own player
        return make_bot(STAND_IN, seat_seed(seed, seat + 64), game)

    return guard_all(players, stand_in)


@dataclass
class NewGame:
    """What ``POST /api/games`` asked for, checked: the record to store and the tokens."""

    record: GameRecord
    state: GameState
    players: dict[int, Player]
    tokens: dict[int, str]  # seat → token, human seats only


def new_game(
    name: str,
    players: int,
    seats: Sequence[str],
    variants: Sequence[str],
    lang: str,
    timer: tuple[float, float] | None = None,
    turn_based: float | None = None,
    coach: bool = False,
    *,
    seed: int | None = None,
    meta: Mapping[str, object] | None = None,
) -> NewGame:
    """A fresh game; bad input is a :class:`ConfigError` naming what is wrong. ``timer``:
    (seconds per decision, seconds of time bank per person), or None for no clock;
    ``turn_based``: instead, the seconds (hours or days) each person's decision has
    (:mod:`.days`); ``coach``: the creator offers the coach to every person at the table
    (each still agrees at their seat: :mod:`apokalypse.wire.coach`). ``seed``: a prepared deal
    (the guided game's, :mod:`.tutorial`) instead of an unguessable one; ``meta``: more to keep
    with the game (``tutorial``)."""
    if timer is not None and turn_based is not None:
        raise ConfigError("timer and turn_based: a game has one turn timer or the other")
    game = get_game(name.strip().lower())
    lang = check_lang(lang)
    config = game.config_from_options(players, list(variants), None)
    if len(seats) != config.players:
        raise ConfigError(
            f"seats lists {len(seats)} seats for a {config.players}-player game: name one kind"
            f" per seat ({HUMAN!r} or a computer player)"
        )
    kinds = [kind.strip().lower() for kind in seats]
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)  # all 64 bits: unguessable
    bots = computer_players(kinds, seed, game.name)
    tokens = {
        seat: secrets.token_urlsafe(TOKEN_BYTES) for seat in range(len(kinds)) if seat not in bots
    }
    stored: dict[str, object] = {
        **(meta or {}),
        "seats": kinds,
        "token_sha256": [hash_token(tokens[s]) if s in tokens else None for s in range(len(kinds))],
        "lang": lang,
    }
    if timer is not None:
        stored[TIMER] = {"turn": timer[0], "bank": timer[1]}
    if turn_based is not None:
        stored[TURN_BASED] = {"seconds": turn_based}
    if coach:
        stored[COACH] = True
    state = game.new_game(config, seed)
    record = GameRecord(game.name, game.version, config.to_json(), seed, meta=stored)
    return NewGame(record, state, bots, tokens)


def rematch_of(record: GameRecord, game_id: str) -> NewGame:
    """The rematch of a stored game: the same game, settings and seats, a new deal. Its people
    keep their invite keys (the same token opens the same seat), so nobody is sent a new one."""
    game = get_game(record.game)
    seed = secrets.randbelow(SEED_LIMIT)
    kinds = list(Setup.of(record.meta).kinds)
    state = game.new_game(game.config_from_json(record.config), seed)
    # A guided game's rematch is a real game: a fresh deal, no coach.
    meta = {**{k: v for k, v in record.meta.items() if k != TUTORIAL}, REMATCH_OF: game_id}
    rematch = GameRecord(game.name, game.version, dict(record.config), seed, meta=meta)
    return NewGame(rematch, state, computer_players(kinds, seed, game.name), {})


def make_rematch(live: LiveGame, store: Store) -> LiveGame | None:
    """The rematch of ``live``, a finished game: made here (returned) unless it exists already
    (None; the table's ``rematch`` names it either way)."""
    if live.table_state.rematch is not None or not live.state.is_over:
        return None
    mine = new_id()
    # Asked for in the log: the first rematch asked there is the game's, whichever process
    # asked (the write folds any asked before this one, through another process).
    live.write(store, [Rematch(mine)])
    if live.table_state.rematch != mine:  # another process was first: its game, linked to from here
        return None
    rematch = create(store, rematch_of(live.record, live.id), mine, live.now)
    for seat, name in enumerate(live.names):  # the same people, by the same names
        if name is not None:
            rematch.set_name(store, seat, name)
    return rematch


def summary_of(live: LiveGame) -> Summary:
    """What anybody may know of a game in memory (no tokens; the seed once it is over), with the
    public move, frozen in a window like the public observation."""
    state = live.state
    result = state.result
    data = stored_summary(live.id, live.record, live.shown_move(), live.names)
    data["over"] = state.is_over
    data["result"] = result.to_json() if result is not None else None
    if state.is_over:
        data["seed"] = live.record.seed  # only now: it rebuilds every hand and the deck
    else:
        data.pop("seed", None)
    return data


def stored_summary(
    game_id: str, record: GameRecord, move: int, names: Sequence[str | None] = ()
) -> Summary:
    """What anybody may know of a stored game (no tokens; the seed once it is over); ``move``:
    the move everybody is shown (:meth:`LiveGame.shown_move`); ``names``: the seats' chosen
    names."""
    setup = Setup.of(record.meta)
    kinds = setup.kinds
    data: Summary = {
        "id": game_id,
        "game": record.game,
        "players": len(kinds),
        "seats": [
            {"seat": seat, "kind": kind, "name": names[seat] if seat < len(names) else None}
            for seat, kind in enumerate(kinds)
        ],
        "lang": setup.lang,
        "move": move,
        "over": record.result is not None,
        "result": record.result,
    }
    if record.result is not None:
        data["seed"] = record.seed  # only now: it rebuilds every hand and the deck
    if setup.tutorial:
        data["tutorial"] = True  # the guided game: its page shows the coach
    return data


def shown_move_of(store: Store, game_id: str) -> int:
    """The move everybody is shown in a stored game, by replaying it (for actions stored
    without it, before migration 0003)."""
    move = replay(store.load(game_id)).state.observation(None)["move"]
    assert isinstance(move, int)
    return move


def create(
    store: Store,
    new: NewGame,
    game_id: str | None = None,
    now: Now = utc_now,
    ticks: Ticks = time.monotonic,
) -> LiveGame:
    """Store a new game and start it (computer players whose decision it is are let act by the
    hub, on their own threads: never inside the request that made the game). A turn-based
    game's first deadline runs from here (nobody need open it for it to go on)."""
    game_id = store.create(new.record, game_id)
    game = get_game(new.record.game)
    match: Match = Match(new.state, new.players, new.record.start_digest(new.state.opening))
    live = LiveGame(game_id, game, new.record, match, now=now, ticks=ticks)
    live.log.extend(match.start())
    live.follow_clock()  # computers to act first are let by its room (Room._kick), not here
    if isinstance(live.timer, Days) and live.timer.due is not None:
        live.write(store, [Due(live.timer.due)])
    return live


def rebuild(
    store: Store, game_id: str, now: Now = utc_now, ticks: Ticks = time.monotonic
) -> LiveGame:
    """A stored game as it stood after its last stored action (a :class:`StoreError` for an
    unknown id, a ``RecordError`` for a record that does not replay)."""
    record, logged = store.load_log(game_id)
    game, state = start(record)
    kinds = list(Setup.of(record.meta).kinds)
    bots = computer_players(kinds, record.seed, record.game)
    match: Match = Match(state, bots, record.start_digest(state.opening))
    live = LiveGame(game_id, game, record, match, now=now, ticks=ticks)
    live.heard = True  # whoever made the last change, it was not this copy
    live.log.extend(match.start())
    live.fold(logged)  # the whole log: the actions, the table, the talk
    # A restart between a person's action and the computers' answers: the hub lets them on.
    live.follow_clock()
    days, due = live.timer, live.table_state.due
    if isinstance(days, Days):
        if days.seat is not None and due is not None:  # the deadline stored with the decision
            days.adopt(days.seat, live.state.move, due)
        elif days.due != due:  # none stored yet (or one left over): the log learns it
            live.write(store, [Due(days.due)])
    return live
