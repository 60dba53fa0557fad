"""Apokalypse's collector (:mod:`.`): who laid what where, attacks and their fate, the horsemen,
the reckonings; and its figures in the ``simulate`` summary: how games ended and wins by ethos."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, cast

import pyarrow as pa
from rich.console import Console
from rich.table import Table

from apokalypse.engine.events import Event
from apokalypse.engine.protocol import GameState
from apokalypse.games.apokalypse import Result
from apokalypse.games.apokalypse import State as ApokalypseState
from apokalypse.games.apokalypse import events as ev
from apokalypse.games.apokalypse.cards import EVIL, GOOD, HEAVEN, HORSEMAN_VP, NETHER
from apokalypse.games.apokalypse.roles import ROLES, SEAL, Role

from . import Collector, Figures, Row, _int16s, _schema, count_table

HORSEMEN = (1, 2, 3, 4)
# The roles a card played from hand can have (a seal is laid as a reward, a horseman rides):
# one ``played_<role>`` column each, "ethos-change" as ``played_ethos_change``.
HAND_ROLES = tuple(role for role, rules in ROLES.items() if rules.uses)
# Column names, made once: ``finish`` runs once per game, thousands of times a run.
HORSEMAN_ROUND = {k: f"horseman{k}_round" for k in HORSEMEN}
DEATHS = {k: f"deaths{k}" for k in HORSEMEN}
RECKONING = {k: f"reckoning{k}" for k in HORSEMEN}
PLAYED = {role: f"played_{role.replace('-', '_')}" for role in HAND_ROLES}
# The columns ``outcome`` takes from the result, empty for a game without one.
NO_RESULT: Row = dict.fromkeys(("case", "good_seats", "evil_seats", "good_populaces",
                                "evil_populaces"))  # fmt: skip
NO_SEAT_RESULT: Row = dict.fromkeys(("ethos", "total"))

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
        args = cast(ev.Populace, event.args)
        actor = args["actor"]
        self.populaces[args["side"]][actor] += 1
        # a B card laid face down: its front is in the secret part (the omniscient view)
        secret = event.secret
        code = secret["card"] if secret is not None else args["card"]
        played = self.played[actor]
        played[code] = played.get(code, 0) + 1

    def _place(self, event: Event) -> None:  # "place" and "replace"
        args = cast(ev.Place, event.args)
        actor, code = args["actor"], args["card"]
        if code in self.seal_codes:  # a seal in place of a card that is not music (R-REWARD-3)
            self.seals[actor] += 1
            return
        self.planes[args["plane"]][actor] += 1
        played = self.played[actor]
        played[code] = played.get(code, 0) + 1

    def _neutralise(self, event: Event) -> None:
        args = cast(ev.Neutralise, event.args)
        actor, code = args["actor"], args["card"]
        self.neutralised[actor] += 1
        played = self.played[actor]
        played[code] = played.get(code, 0) + 1

    def _seal(self, event: Event) -> None:  # "seal-place", "seal-neutralise"
        self.seals[cast(ev.SealPlace, event.args)["actor"]] += 1

    def _attack(self, event: Event) -> None:
        args = cast(ev.Attack, event.args)
        actor = self.attacker = args["actor"]
        self.attacks[actor] += 1
        code = args["card"]
        played = self.played[actor]
        played[code] = played.get(code, 0) + 1

    def _defend(self, event: Event) -> None:
        args = cast(ev.Defend, event.args)
        actor, code = args["actor"], args["card"]
        self.defences[actor] += 1
        self.attacks_stopped[args["attacker"]] += 1
        played = self.played[actor]
        played[code] = played.get(code, 0) + 1

    def _killed(self, event: Event) -> None:
        self.kills[self.attacker] += 1

    def _converted(self, event: Event) -> None:
        self.conversions[cast(ev.Converted, event.args)["actor"]] += 1

    def _gift(self, event: Event) -> None:
        self.gifts[cast(ev.Gift, event.args)["actor"]] += 1

    def _steal(self, event: Event) -> None:
        self.steals[cast(ev.Steal, event.args)["actor"]] += 1

    def _pass(self, event: Event) -> None:
        self.passes[cast(ev.Pass, event.args)["actor"]] += 1

    def _round_start(self, event: Event) -> None:
        self.round += 1

    def _ride(self, event: Event) -> None:
        number = self.horseman = cast(ev.Ride, event.args)["number"]
        self.horseman_round[number] = self.round

    def _deaths(self, event: Event) -> None:
        args = cast(ev.Deaths, event.args)
        self.deaths[self.horseman][args["seat"]] += args["good"] + args["evil"]

    def _reckoning(self, event: Event) -> None:
        args = cast(ev.Reckoning, event.args)
        self.reckonings[args["number"]] = args["scores"]

    def _horseman_card(self, event: Event) -> None:
        args = cast(ev.HorsemanCard, event.args)
        seat = args["seat"]
        self.horseman_cards[seat] += 1
        self.horseman_vp[seat] += HORSEMAN_VP[args["number"]]

    # --- the rows -------------------------------------------------------------------------------

    @staticmethod
    def outcome(result: Mapping[str, Any], players: int) -> tuple[Row, list[Row]]:
        ethos = result["ethos"]
        game: Row = {
            "case": result["case"],
            "good_seats": ethos.count("good"),
            "evil_seats": ethos.count("evil"),
            "good_populaces": result["good_populaces"],
            "evil_populaces": result["evil_populaces"],
        }
        totals = result["totals"]
        return game, [{"ethos": ethos[q], "total": totals[q]} for q in range(players)]

    def finish(self, state: GameState) -> tuple[Row, list[Row]]:
        result = state.result
        n = self.players
        end, seats = (
            self.outcome(result.view(), n)
            if isinstance(result, Result)
            else (NO_RESULT, [NO_SEAT_RESULT] * n)
        )
        game: Row = {
            "case": end["case"],
            "good_seats": end["good_seats"],
            "evil_seats": end["evil_seats"],
            "good_seats_dealt": self.ethos_dealt.count(GOOD),
            "good_populaces": end["good_populaces"],
            "evil_populaces": end["evil_populaces"],
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
        return game, [self._player(seat, seats[seat]) for seat in range(n)]

    def _player(self, seat: int, end: Row) -> Row:
        row: Row = {
            "startup": seat == self.first_startup,
            "ethos_dealt": "good" if self.ethos_dealt[seat] == GOOD else "evil",
            "ethos": end["ethos"],
            "total": end["total"],
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


class ApokalypseFigures(Figures):
    """How games ended (the result's case) and wins by final ethos; the seats' totals (R-END-2)
    averaged per bot; a tournament's points are the same totals."""

    score = "total"
    score_key = "avg_total"
    score_title = "average total"
    points = "total"
    points_title = "points"

    def __init__(self) -> None:
        self.cases: dict[str, int] = {}
        self.ethos: dict[str, list[int]] = {}  # ethos -> [seats, wins]

    def add(self, game: Row, seats: Sequence[Row]) -> None:
        self.cases[game["case"]] = self.cases.get(game["case"], 0) + 1
        for seat in seats:
            e = self.ethos.setdefault(seat["ethos"], [0, 0])
            e[0] += 1
            e[1] += 1 if seat["won"] else 0

    def to_json(self) -> dict[str, object]:
        return {
            "cases": dict(sorted(self.cases.items())),
            "ethos": {
                name: {"seats": s, "wins": w, "win_rate": round(w / s, 4)}
                for name, (s, w) in sorted(self.ethos.items())
            },
        }

    def print(self, console: Console, data: Mapping[str, Any]) -> None:
        ethos = Table(title="Wins by ethos")
        for col in ("ethos", "seats", "wins", "win rate"):
            ethos.add_column(col, justify="left" if col == "ethos" else "right")
        for name, e in data["ethos"].items():
            ethos.add_row(name, str(e["seats"]), str(e["wins"]), f"{e['win_rate']:.1%}")
        console.print(ethos)
        console.print(count_table("How games ended", "case", data["cases"]))
