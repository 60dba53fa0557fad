"""The one collector: a game's events turned into the rows of the results tables (:mod:`.schema`).

One :class:`Collector` per game, in the worker that plays it. It is told every event in order,
the opening included, and at the end it hands back the game's own columns: one row for the game,
one per seat. Nothing else in the lab computes statistics, so the tables, the report and the
published figures all count the same way.

It sees whole events, secret parts too (the front of a populace laid face down): it is the
analysis after the fact, like a replay's omniscient view, and nothing of it reaches a player
during a game. From the states it reads only what is settled before the first decision (the
dealt ethos, the first startup player, the deck) and, at the end, what the result states.

It must be cheap, a small fraction of a random playout: ``add`` dispatches on ``event.kind``
through one dict of small functions, skips the kinds it does not need (deal, shelter, refill …)
and only bumps counters; everything derived (by role, by side, sums) waits for ``finish``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import pyarrow as pa

from apokalypse.engine.events import Event
from apokalypse.engine.protocol import GameState
from apokalypse.games.apokalypse import GAME as APOKALYPSE
from apokalypse.games.apokalypse import Result as ApokalypseResult
from apokalypse.games.apokalypse import State as ApokalypseState
from apokalypse.games.apokalypse.cards import EVIL, GOOD, HEAVEN, HORSEMAN_VP, NETHER
from apokalypse.games.apokalypse.observation import ResultView
from apokalypse.games.apokalypse.roles import ROLES, SEAL, Role
from apokalypse.games.apokerlypse import GAME as APOKERLYPSE
from apokalypse.games.apokerlypse import Result as ApokerlypseResult
from apokalypse.games.apokerlypse import State as ApokerlypseState
from apokalypse.games.apokerlypse.cards import FACTIONS
from apokalypse.games.apokerlypse.poker import CATEGORIES
from apokalypse.games.apokerlypse.setup import START_CHIPS

Row = dict[str, Any]

HORSEMEN = (1, 2, 3, 4)
# The roles a card played from hand can have (a seal is laid as a reward, a horseman rides):
# one ``played_<role>`` column each, "ethos-change" as ``played_ethos_change``.
HAND_ROLES = tuple(role for role, rules in ROLES.items() if rules.uses)
# Column names, made once: ``finish`` runs once per game, thousands of times a run.
HORSEMAN_ROUND = {k: f"horseman{k}_round" for k in HORSEMEN}
DEATHS = {k: f"deaths{k}" for k in HORSEMEN}
RECKONING = {k: f"reckoning{k}" for k in HORSEMEN}
PLAYED = {role: f"played_{role.replace('-', '_')}" for role in HAND_ROLES}


def _schema(columns: list[pa.Field[Any]]) -> pa.Schema:
    """``pa.schema`` of fields of mixed types (typed ``Field[Any]`` for the type checker)."""
    return pa.schema(columns)


def _int16s(*names: str) -> list[pa.Field[Any]]:
    return [pa.field(name, pa.int16()) for name in names]


class Collector:
    """The collector of a game without statistics of its own: no columns; every game's common
    columns are the runner's. Subclasses keep this interface (the runner knows nothing else)."""

    game_schema: ClassVar[pa.Schema] = pa.schema([])  # the game's own game columns, in order
    player_schema: ClassVar[pa.Schema] = pa.schema([])  # the game's own player columns
    # what ``add`` does with each kind of event (a subclass's own table, filled below it)
    _handlers: ClassVar[Mapping[str, Callable[[Any, Event], None]]] = {}

    def __init__(self, state: GameState) -> None:
        """``state``: the new game, before its opening. Every registered game's state carries
        its config, whose ``players`` (GameConfig) is the number of seats."""
        self.players: int = getattr(getattr(state, "config", None), "players", 0)

    def add(self, events: Sequence[Event]) -> None:
        """Every event of the game, in order, the opening included: each kind that counts goes
        to its small function in ``_handlers``; the others are skipped."""
        handler_of = self._handlers.get
        for event in events:
            handler = handler_of(event.kind)
            if handler is not None:
                handler(self, event)

    def finish(self, state: GameState) -> tuple[Row, list[Row]]:
        """The game's own game columns, and its own player columns per seat (seat order)."""
        return {}, [{} for _ in range(self.players)]


# --- Apokalypse -----------------------------------------------------------------------------------

Handler = Callable[["ApokalypseCollector", Event], None]


class ApokalypseCollector(Collector):
    """Apokalypse: who laid what where, attacks and their fate, the horsemen, the reckonings.

    "Played from hand" counts every card that left a hand through a play or a defence: a
    populace or person (the ``play … good|evil`` of R-PLAY-3), a card into Heaven or the
    Netherworld, replacing included (R-PLAY-7, R-PLAY-11), a neutralisation (R-PLAY-15), an
    attack (R-ATTACK-1) and a defence (R-ATTACK-4). A gift or a steal moves a card between
    hands and is counted apart; a seal never was in a hand (R-REWARD-3) and counts only in
    ``seals``, so ``heaven``, ``nether`` and ``neutralised`` are cards from hand too."""

    game_schema = _schema(
        [
            pa.field("case", pa.string()),  # the result's case: good | evil | nobody | shared-ethos
            pa.field("good_seats", pa.int8()),  # final ethos counts, from the result
            pa.field("evil_seats", pa.int8()),
            pa.field("good_seats_dealt", pa.int8()),  # good ethos cards at the deal (R-SETUP-3)
            pa.field("good_populaces", pa.int16()),  # final, the whole table (R-END-3)
            pa.field("evil_populaces", pa.int16()),
            pa.field("rounds", pa.int16()),  # rounds played: round 1, then one per "round-start"
            pa.field("startup", pa.int8()),  # the first startup player's seat (R-SETUP-6)
            *_int16s(*HORSEMAN_ROUND.values()),  # null: never rode
            *_int16s(*DEATHS.values()),  # killed by horseman k, all displays
            *_int16s("attacks", "defended", "conversions"),
        ]
    )
    player_schema = _schema(
        [
            pa.field("startup", pa.bool_()),  # this seat started round 1
            pa.field("ethos_dealt", pa.string()),  # good | evil
            pa.field("ethos", pa.string()),  # final, from the result
            pa.field("total", pa.int16()),  # R-END-2
            *_int16s(*RECKONING.values()),  # score at reckoning k (R-HORSE-5)
            pa.field("horseman_cards", pa.int8()),  # horseman cards won (R-REWARD-1)
            pa.field("horseman_vp", pa.int16()),  # their points (R-END-2)
            pa.field("seals", pa.int8()),  # seals this seat received and laid (R-REWARD-2/3)
            *_int16s(*DEATHS.values()),  # its populaces killed by horseman k
            *_int16s(
                "populaces_good",  # populaces it laid on a good / evil side, any display
                "populaces_evil",
                "heaven",  # cards from hand it placed in Heaven / the Netherworld, replacing
                "nether",  # included
                "neutralised",  # music it removed with a card from hand (R-PLAY-15)
                "attacks",  # attacks it made
                "attacks_stopped",  # its attacks stopped by a defence (R-ATTACK-4)
                "kills",  # its attacks that killed (R-ATTACK-2)
                "defences",  # defence cards it played
                "conversions",  # populaces it converted (R-ATTACK-3)
                "gifts",
                "steals",
                "passes",
            ),
            *_int16s(*PLAYED.values()),
            pa.field("played", pa.map_(pa.string(), pa.int16())),  # cards played from hand, by code
        ]
    )

    _handlers: ClassVar[Mapping[str, Handler]]  # by event kind, filled below the class

    def __init__(self, state: GameState) -> None:
        if not isinstance(state, ApokalypseState):
            raise TypeError(f"an Apokalypse collector needs an Apokalypse state, not {state!r}")
        n = self.players = state.n
        kinds = state.table.kinds_by_code  # the deck's: a deck file may add codes
        self.role_of: dict[str, Role] = {code: kind.role for code, kind in kinds.items()}
        self.seal_codes = frozenset(code for code, role in self.role_of.items() if role == SEAL)
        # settled before the first decision: the dealt ethos (R-SETUP-3), the startup (R-SETUP-6)
        self.ethos_dealt = state.ethos
        self.first_startup = state.startup
        self.round = state.round  # 1: the first round starts without an event
        self.horseman = 0  # the horseman riding now, while its reckoning's events come
        self.attacker = -1  # the last attack's actor: a "killed" event does not name it
        self.horseman_round: list[int | None] = [None] * 5  # by number; [0] unused
        self.reckonings: list[list[int] | None] = [None] * 5
        self.deaths = [[0] * n for _ in range(5)]  # deaths[k][seat]
        self.horseman_cards = [0] * n
        self.horseman_vp = [0] * n
        self.seals = [0] * n
        self.populaces = ([0] * n, [0] * n)  # [side][seat]: laid on a good / evil side
        self.planes = ([0] * n, [0] * n, [0] * n)  # [plane][seat]: Heaven, (Earth), Netherworld
        self.neutralised = [0] * n
        self.attacks = [0] * n
        self.attacks_stopped = [0] * n
        self.kills = [0] * n
        self.defences = [0] * n
        self.conversions = [0] * n
        self.gifts = [0] * n
        self.steals = [0] * n
        self.passes = [0] * n
        self.played: list[dict[str, int]] = [{} for _ in range(n)]

    # --- one small function per kind of event ---------------------------------------------------

    # A card played from hand is counted by code in ``played[seat]`` (its role and the sums
    # wait for ``finish``), inline in each function: a call per card is a good part of the cost.

    def _populace(self, event: Event) -> None:
        args = event.args
        actor = args["actor"]
        self.populaces[args["side"]][actor] += 1
        # a B card laid face down: its front is in the secret part (the omniscient view)
        secret = event.secret
        code = secret["card"] if secret is not None else args["card"]
        played = self.played[actor]
        played[code] = played.get(code, 0) + 1

    def _place(self, event: Event) -> None:  # "place" and "replace"
        args = event.args
        actor, code = args["actor"], args["card"]
        if code in self.seal_codes:  # a seal in place of a card that is not music (R-REWARD-3)
            self.seals[actor] += 1
            return
        self.planes[args["plane"]][actor] += 1
        played = self.played[actor]
        played[code] = played.get(code, 0) + 1

    def _neutralise(self, event: Event) -> None:
        args = event.args
        actor, code = args["actor"], args["card"]
        self.neutralised[actor] += 1
        played = self.played[actor]
        played[code] = played.get(code, 0) + 1

    def _seal(self, event: Event) -> None:  # "seal-place", "seal-neutralise"
        self.seals[event.args["actor"]] += 1

    def _attack(self, event: Event) -> None:
        args = event.args
        actor = self.attacker = args["actor"]
        self.attacks[actor] += 1
        code = args["card"]
        played = self.played[actor]
        played[code] = played.get(code, 0) + 1

    def _defend(self, event: Event) -> None:
        args = event.args
        actor, code = args["actor"], args["card"]
        self.defences[actor] += 1
        self.attacks_stopped[args["attacker"]] += 1
        played = self.played[actor]
        played[code] = played.get(code, 0) + 1

    def _killed(self, event: Event) -> None:
        self.kills[self.attacker] += 1

    def _converted(self, event: Event) -> None:
        self.conversions[event.args["actor"]] += 1

    def _gift(self, event: Event) -> None:
        self.gifts[event.args["actor"]] += 1

    def _steal(self, event: Event) -> None:
        self.steals[event.args["actor"]] += 1

    def _pass(self, event: Event) -> None:
        self.passes[event.args["actor"]] += 1

    def _round_start(self, event: Event) -> None:
        self.round += 1

    def _ride(self, event: Event) -> None:
        number = self.horseman = event.args["number"]
        self.horseman_round[number] = self.round

    def _deaths(self, event: Event) -> None:
        args = event.args
        self.deaths[self.horseman][args["seat"]] += args["good"] + args["evil"]

    def _reckoning(self, event: Event) -> None:
        args = event.args
        self.reckonings[args["number"]] = args["scores"]

    def _horseman_card(self, event: Event) -> None:
        args = event.args
        seat = args["seat"]
        self.horseman_cards[seat] += 1
        self.horseman_vp[seat] += HORSEMAN_VP[args["number"]]

    # --- the rows -------------------------------------------------------------------------------

    def finish(self, state: GameState) -> tuple[Row, list[Row]]:
        result = state.result
        view = result.view() if isinstance(result, ApokalypseResult) else None
        ethos = view["ethos"] if view is not None else None
        n = self.players
        game: Row = {
            "case": view["case"] if view is not None else None,
            "good_seats": ethos.count("good") if ethos is not None else None,
            "evil_seats": ethos.count("evil") if ethos is not None else None,
            "good_seats_dealt": self.ethos_dealt.count(GOOD),
            "good_populaces": view["good_populaces"] if view is not None else None,
            "evil_populaces": view["evil_populaces"] if view is not None else None,
            "rounds": self.round,
            "startup": self.first_startup,
        }
        for k in HORSEMEN:
            game[HORSEMAN_ROUND[k]] = self.horseman_round[k]
        for k in HORSEMEN:
            game[DEATHS[k]] = sum(self.deaths[k])
        game["attacks"] = sum(self.attacks)
        game["defended"] = sum(self.attacks_stopped)
        game["conversions"] = sum(self.conversions)
        return game, [self._player(seat, view) for seat in range(n)]

    def _player(self, seat: int, view: ResultView | None) -> Row:
        row: Row = {
            "startup": seat == self.first_startup,
            "ethos_dealt": "good" if self.ethos_dealt[seat] == GOOD else "evil",
            "ethos": view["ethos"][seat] if view is not None else None,
            "total": view["totals"][seat] if view is not None else None,
        }
        for k in HORSEMEN:
            scores = self.reckonings[k]
            row[RECKONING[k]] = scores[seat] if scores is not None else None
        row["horseman_cards"] = self.horseman_cards[seat]
        row["horseman_vp"] = self.horseman_vp[seat]
        row["seals"] = self.seals[seat]
        for k in HORSEMEN:
            row[DEATHS[k]] = self.deaths[k][seat]
        row["populaces_good"] = self.populaces[GOOD][seat]
        row["populaces_evil"] = self.populaces[EVIL][seat]
        row["heaven"] = self.planes[HEAVEN][seat]
        row["nether"] = self.planes[NETHER][seat]
        row["neutralised"] = self.neutralised[seat]
        row["attacks"] = self.attacks[seat]
        row["attacks_stopped"] = self.attacks_stopped[seat]
        row["kills"] = self.kills[seat]
        row["defences"] = self.defences[seat]
        row["conversions"] = self.conversions[seat]
        row["gifts"] = self.gifts[seat]
        row["steals"] = self.steals[seat]
        row["passes"] = self.passes[seat]
        played = self.played[seat]
        by_role = dict.fromkeys(HAND_ROLES, 0)
        for code, count in played.items():
            by_role[self.role_of[code]] += count
        for role, count in by_role.items():
            row[PLAYED[role]] = count
        row["played"] = dict(sorted(played.items()))
        return row


ApokalypseCollector._handlers = {
    "populace": ApokalypseCollector._populace,
    "person": ApokalypseCollector._populace,  # a K person: its card is public
    "place": ApokalypseCollector._place,
    "replace": ApokalypseCollector._place,
    "neutralise": ApokalypseCollector._neutralise,
    "seal-place": ApokalypseCollector._seal,
    "seal-neutralise": ApokalypseCollector._seal,
    "attack": ApokalypseCollector._attack,
    "defend": ApokalypseCollector._defend,
    "killed": ApokalypseCollector._killed,
    "converted": ApokalypseCollector._converted,
    "gift": ApokalypseCollector._gift,
    "steal": ApokalypseCollector._steal,
    "pass": ApokalypseCollector._pass,
    "round-start": ApokalypseCollector._round_start,
    "ride": ApokalypseCollector._ride,
    "deaths": ApokalypseCollector._deaths,
    "reckoning": ApokalypseCollector._reckoning,
    "horseman-card": ApokalypseCollector._horseman_card,
}


# --- Apokerlypse ----------------------------------------------------------------------------------

# the poker categories by strength, high card first
CATEGORY_RANK: dict[str, int] = {category: rank for rank, category in enumerate(CATEGORIES)}
PokerHandler = Callable[["ApokerlypseCollector", Event], None]


class ApokerlypseCollector(Collector):
    """Apokerlypse: rounds, chips paid and won, the hands scored, who dropped out or ran short.

    A "pot won" is a round whose pot the seat took or shared (K-SCORE-7); the hands scored are
    those revealed and scored at the end of a round (K-SCORE-1), by poker category."""

    game_schema = _schema(
        [
            pa.field("rounds", pa.int16()),  # from the result
            # no-chips (K-END-1) | nobody-can-pay (the cost outgrew every stack: the engine's end)
            pa.field("reason", pa.string()),
            pa.field("last_cost", pa.int16()),  # the cost of the last round's phases
            *_int16s(
                "split_pots",  # rounds whose pot was shared by tied totals (KD-SCORE-1)
                "drops",  # players dropping out of a round, all rounds (K-ROUND-3/4)
                "shorts",  # shortages announced (K-SHORT-1, KD-ROUND-1)
                "effects",  # card effects and faction abilities announced
                "blocks",  # card effects blocked
            ),
        ]
    )
    player_schema = _schema(
        [
            # military | civilians | plunderers | zombies (K-SETUP-1), drawn by the seed
            pa.field("faction", pa.string()),
            pa.field("dealer", pa.bool_()),  # dealt round 1
            pa.field("chips", pa.int16()),  # final, from the result
            pa.field("chips_delta", pa.int16()),  # chips less the 12 it started with (K-SETUP-2)
            pa.field("broke", pa.bool_()),  # ran out of chips, which ended the game (K-END-1)
            *_int16s(
                "paid",  # chips paid into pots
                "pots_won",  # rounds whose pot it took or shared
                "chips_won",  # its shares of those pots
                "hands_scored",
                "drops",
                "shorts",
                "effects",  # effects it announced, abilities included
                "blocks",  # effects of others it blocked
                "gained",  # chips from the bank through effects
                "lost",  # chips to the bank through effects
            ),
            pa.field("best_category", pa.string()),  # its best hand scored (null: none scored)
            pa.field("categories", pa.map_(pa.string(), pa.int16())),  # hands scored, by category
        ]
    )

    _handlers: ClassVar[Mapping[str, PokerHandler]]

    def __init__(self, state: GameState) -> None:
        if not isinstance(state, ApokerlypseState):
            raise TypeError(f"an Apokerlypse collector needs an Apokerlypse state, not {state!r}")
        n = self.players = state.n
        self.factions = [FACTIONS[f] for f in state.factions]
        # the first dealer: new_game deals round 1 before the first decision, and the opening
        # (which this collector is told next) already holds its events
        self.first_dealer = -1
        self.last_cost = 0
        self.split_pots = 0
        self.broke: list[int] = []
        self.paid = [0] * n
        self.pots_won = [0] * n
        self.chips_won = [0] * n
        self.drops = [0] * n
        self.shorts = [0] * n
        self.effects = [0] * n
        self.blocks = [0] * n
        self.gained = [0] * n
        self.lost = [0] * n
        self.categories: list[dict[str, int]] = [{} for _ in range(n)]

    def _round_start(self, event: Event) -> None:
        args = event.args
        if self.first_dealer < 0:
            self.first_dealer = args["dealer"]
        self.last_cost = args["cost"]

    def _pay(self, event: Event) -> None:
        args = event.args
        self.paid[args["seat"]] += args["amount"]

    def _short(self, event: Event) -> None:
        self.shorts[event.args["seat"]] += 1

    def _drop(self, event: Event) -> None:
        self.drops[event.args["seat"]] += 1

    def _effect(self, event: Event) -> None:
        self.effects[event.args["seat"]] += 1

    def _blocked(self, event: Event) -> None:
        self.blocks[event.args["seat"]] += 1

    def _gain(self, event: Event) -> None:
        args = event.args
        self.gained[args["seat"]] += args["amount"]

    def _lose(self, event: Event) -> None:
        args = event.args
        self.lost[args["seat"]] += args["amount"]

    def _score(self, event: Event) -> None:
        args = event.args
        counts = self.categories[args["seat"]]
        category = args["category"]
        counts[category] = counts.get(category, 0) + 1

    def _pot(self, event: Event) -> None:
        args = event.args
        winners, share = args["winners"], args["share"]
        if len(winners) > 1:
            self.split_pots += 1
        for seat in winners:
            self.pots_won[seat] += 1
            self.chips_won[seat] += share

    def _game_over(self, event: Event) -> None:
        self.broke = event.args["broke"]

    def finish(self, state: GameState) -> tuple[Row, list[Row]]:
        result = state.result
        view = result.view() if isinstance(result, ApokerlypseResult) else None
        game: Row = {
            "rounds": view["rounds"] if view is not None else None,
            "reason": view["reason"] if view is not None else None,
            "last_cost": self.last_cost,
            "split_pots": self.split_pots,
            "drops": sum(self.drops),
            "shorts": sum(self.shorts),
            "effects": sum(self.effects),
            "blocks": sum(self.blocks),
        }
        players: list[Row] = []
        for seat in range(self.players):
            chips = view["chips"][seat] if view is not None else None
            counts = self.categories[seat]
            best = max(counts, key=CATEGORY_RANK.__getitem__) if counts else None
            players.append(
                {
                    "faction": self.factions[seat],
                    "dealer": seat == self.first_dealer,
                    "chips": chips,
                    "chips_delta": chips - START_CHIPS if chips is not None else None,
                    "broke": seat in self.broke if view is not None else None,
                    "paid": self.paid[seat],
                    "pots_won": self.pots_won[seat],
                    "chips_won": self.chips_won[seat],
                    "hands_scored": sum(counts.values()),
                    "drops": self.drops[seat],
                    "shorts": self.shorts[seat],
                    "effects": self.effects[seat],
                    "blocks": self.blocks[seat],
                    "gained": self.gained[seat],
                    "lost": self.lost[seat],
                    "best_category": best,
                    "categories": {c: counts[c] for c in CATEGORIES if c in counts},
                }
            )
        return game, players


ApokerlypseCollector._handlers = {
    "round-start": ApokerlypseCollector._round_start,
    "pay": ApokerlypseCollector._pay,
    "short": ApokerlypseCollector._short,
    "drop": ApokerlypseCollector._drop,
    "effect": ApokerlypseCollector._effect,
    "blocked": ApokerlypseCollector._blocked,
    "gain": ApokerlypseCollector._gain,
    "lose": ApokerlypseCollector._lose,
    "score": ApokerlypseCollector._score,
    "pot": ApokerlypseCollector._pot,
    "game-over": ApokerlypseCollector._game_over,
}

COLLECTORS: dict[str, type[Collector]] = {
    APOKALYPSE.name: ApokalypseCollector,
    APOKERLYPSE.name: ApokerlypseCollector,
}


def collector_for(game: str) -> type[Collector]:
    """The collector of a registered game: its own, or the base one (no columns of its own)."""
    return COLLECTORS.get(game, Collector)
