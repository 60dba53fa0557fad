"""Apokerlypse's collector (:mod:`.`): rounds, chips paid and won, the hands scored, who dropped
out or ran short, the cards each seat held at its final scorings and the faction abilities it
used, how often each card's effect mattered (:mod:`.effect_impact`); and its figures in the
``simulate`` summary: rounds per game and how games ended."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, cast

import pyarrow as pa
from rich.console import Console
from rich.table import Table

from apokalypse.engine.events import Event
from apokalypse.engine.protocol import GameState
from apokalypse.games.apokerlypse import Result
from apokalypse.games.apokerlypse import State as ApokerlypseState
from apokalypse.games.apokerlypse import events as ev
from apokalypse.games.apokerlypse.cards import CODES, FACTIONS
from apokalypse.games.apokerlypse.poker import CATEGORIES
from apokalypse.games.apokerlypse.setup import START_CHIPS
from apokalypse.sim.stats import wilson

from . import Collector, Figures, Row, _int16s, _schema, count_table
from .effect_impact import HANDLERS as IMPACT_HANDLERS
from .effect_impact import EffectImpact

# The columns ``outcome`` takes from the result, empty for a game without one.
NO_RESULT: Row = dict.fromkeys(("rounds", "reason"))
NO_SEAT_RESULT: Row = dict.fromkeys(("chips", "chips_delta"))
# the poker categories by strength, high card first
CATEGORY_RANK: dict[str, int] = {category: rank for rank, category in enumerate(CATEGORIES)}
PokerHandler = Callable[["ApokerlypseCollector", Event], None]
SHORTEST, LONGEST = 4, 12  # the length a game should have, in dealer rounds
CARD_ORDER: dict[str, int] = {code: i for i, code in enumerate(CODES)}  # 2s, 2h … Ac


class ApokerlypseCollector(Collector):
    """Apokerlypse: rounds, chips paid and won, the hands scored, who dropped out or ran short.

    A "pot won" is a round whose pot the seat took or shared (K-SCORE-7); the hands scored are
    those revealed and scored at the end of a round (K-SCORE-1), by poker category.

    The cards ``held`` are those in the seat's hand when its hand was scored (K-SCORE-1): the
    hand revealed, with the cards that final-scoring effects moved between the reveal and the
    score (take, give, swap: public once the hands are revealed; draw, KD-EFFECT-5). Each card
    once per game, however many scorings it was in; a seat that never reached a final scoring
    held none."""

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
            # added later, so last (a results folder of before reads them as null): per card
            # code, the rounds it was held at a final scoring or used, and those in which its
            # effect mattered (the definition: effect_impact.py)
            pa.field("effect_holdings", pa.map_(pa.string(), pa.int16())),
            pa.field("effect_mattered", pa.map_(pa.string(), pa.int16())),
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
                # chips through effects: from the bank, stolen (KD-EFFECT-1) or skimmed from
                # the pot (KD-EFFECT-3)
                "gained",
                # chips through effects: to the bank, stolen by another, or anted into the pot
                "lost",
            ),
            pa.field("best_category", pa.string()),  # its best hand scored (null: none scored)
            pa.field("categories", pa.map_(pa.string(), pa.int16())),  # hands scored, by category
            # added later, so last (a results folder of before reads them as null):
            pa.field("abilities", pa.int16()),  # its faction's ability used (K-SCORE-5)
            # the cards in its hand at a final scoring at least once (codes, card order)
            pa.field("held", pa.list_(pa.string())),
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
        self.abilities = [0] * n
        self.held: list[set[str]] = [set() for _ in range(n)]
        # the hands since this round's reveal (None: not revealed yet, or the seat dropped out)
        self.shown: list[set[str] | None] | None = None
        self.impact = EffectImpact(n)
        self._bound = bound_handlers(self)

    def add(self, events: Sequence[Event]) -> None:
        """As :meth:`Collector.add`, through this game's bound table (:func:`bound_handlers`):
        the effect impact reads more kinds than the rest, and a call less an event counts."""
        handler_of = self._bound.get
        for event in events:
            handler = handler_of(event.kind)
            if handler is not None:
                handler(event)

    def _round_start(self, event: Event) -> None:
        args = cast(ev.RoundStart, event.args)
        if self.first_dealer < 0:
            self.first_dealer = args["dealer"]
        self.last_cost = args["cost"]
        self.shown = None

    def _pay(self, event: Event) -> None:
        args = cast(ev.Pay, event.args)
        self.paid[args["seat"]] += args["amount"]

    def _short(self, event: Event) -> None:
        self.shorts[cast(ev.Short, event.args)["seat"]] += 1

    def _drop(self, event: Event) -> None:
        self.drops[cast(ev.Stand, event.args)["seat"]] += 1

    def _effect(self, event: Event) -> None:
        args = cast(ev.Effect, event.args)
        self.effects[args["seat"]] += 1
        if args["card"] is None:  # a faction ability, not a card's effect
            self.abilities[args["seat"]] += 1

    def _reveal(self, event: Event) -> None:
        self.shown = [
            None if hand is None else set(hand) for hand in cast(ev.Reveal, event.args)["hands"]
        ]

    def _moved(self, card: str, giver: int, receiver: int) -> None:
        """A card moving between revealed hands (before the reveal the reveal itself tells)."""
        shown = self.shown
        if shown is None:
            return
        lost, got = shown[giver], shown[receiver]
        if lost is not None:
            lost.discard(card)
        if got is not None:
            got.add(card)

    def _draw(self, event: Event) -> None:
        """A card drawn after the reveal (KD-EFFECT-5: an effect in the final scoring draws
        more): it joins the hand that is scored. Before the reveal the reveal tells."""
        shown = self.shown
        if shown is None:
            return
        # Drawn face up into a revealed hand (KD-EFFECT-5); a record made before that rule keeps
        # the card in the secret part.
        drawn = cast(ev.Draw, {**event.args, **(event.secret or {})})
        hand = shown[drawn["seat"]]
        if hand is not None and "card" in drawn:
            hand.add(drawn["card"])

    def _take(self, event: Event) -> None:
        args = cast(ev.Move, event.args)
        if "card" in args:  # public: the hands are revealed
            self._moved(args["card"], args["target"], args["seat"])

    def _give(self, event: Event) -> None:
        args = cast(ev.Move, event.args)
        if "card" in args:
            self._moved(args["card"], args["seat"], args["target"])

    def _swap(self, event: Event) -> None:
        args = cast(ev.Swap, event.args)
        if "given" in args:
            self._moved(args["given"], args["seat"], args["target"])
            self._moved(args["taken"], args["target"], args["seat"])

    def _blocked(self, event: Event) -> None:
        self.blocks[cast(ev.Blocked, event.args)["seat"]] += 1

    def _gain(self, event: Event) -> None:
        args = cast(ev.Chips, event.args)
        self.gained[args["seat"]] += args["amount"]

    def _lose(self, event: Event) -> None:
        args = cast(ev.Chips, event.args)
        self.lost[args["seat"]] += args["amount"]

    def _steal(self, event: Event) -> None:
        args = cast(ev.Steal, event.args)
        self.gained[args["seat"]] += args["amount"]
        self.lost[args["target"]] += args["amount"]

    def _score(self, event: Event) -> None:
        args = cast(ev.Score, event.args)
        seat = args["seat"]
        counts = self.categories[seat]
        category = args["category"]
        counts[category] = counts.get(category, 0) + 1
        hand = self.shown[seat] if self.shown is not None else None
        if hand is not None:
            self.held[seat] |= hand
        self.impact.score(args, hand)

    def _pot(self, event: Event) -> None:
        args = cast(ev.Pot, event.args)
        winners, share = args["winners"], args["share"]
        if len(winners) > 1:
            self.split_pots += 1
        for seat in winners:
            self.pots_won[seat] += 1
            self.chips_won[seat] += share

    def _game_over(self, event: Event) -> None:
        self.broke = cast(ev.GameOver, event.args)["broke"]

    @staticmethod
    def outcome(result: Mapping[str, Any], players: int) -> tuple[Row, list[Row]]:
        chips = result["chips"]
        game: Row = {"rounds": result["rounds"], "reason": result["reason"]}
        return game, [
            {"chips": chips[q], "chips_delta": chips[q] - START_CHIPS} for q in range(players)
        ]

    def finish(self, state: GameState) -> tuple[Row, list[Row]]:
        result = state.result
        n = self.players
        over = isinstance(result, Result)
        end, seats = (
            self.outcome(result.view(), n)
            if isinstance(result, Result)
            else (NO_RESULT, [NO_SEAT_RESULT] * n)
        )
        game: Row = {
            "rounds": end["rounds"],
            "reason": end["reason"],
            "last_cost": self.last_cost,
            "split_pots": self.split_pots,
            "drops": sum(self.drops),
            "shorts": sum(self.shorts),
            "effects": sum(self.effects),
            "blocks": sum(self.blocks),
        }
        game["effect_holdings"], game["effect_mattered"] = self.impact.finish()
        players: list[Row] = []
        for seat in range(n):
            counts = self.categories[seat]
            best = max(counts, key=CATEGORY_RANK.__getitem__) if counts else None
            players.append(
                {
                    "faction": self.factions[seat],
                    "dealer": seat == self.first_dealer,
                    "chips": seats[seat]["chips"],
                    "chips_delta": seats[seat]["chips_delta"],
                    "broke": seat in self.broke if over else None,
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
                    "abilities": self.abilities[seat],
                    "held": sorted(self.held[seat], key=CARD_ORDER.__getitem__),
                }
            )
        return game, players


ApokerlypseCollector._handlers = {
    "round-start": ApokerlypseCollector._round_start,
    "pay": ApokerlypseCollector._pay,
    "short": ApokerlypseCollector._short,
    "drop": ApokerlypseCollector._drop,
    "effect": ApokerlypseCollector._effect,
    "reveal": ApokerlypseCollector._reveal,
    "draw": ApokerlypseCollector._draw,
    "take": ApokerlypseCollector._take,
    "give": ApokerlypseCollector._give,
    "swap": ApokerlypseCollector._swap,
    "blocked": ApokerlypseCollector._blocked,
    "gain": ApokerlypseCollector._gain,
    "lose": ApokerlypseCollector._lose,
    "skim": ApokerlypseCollector._gain,  # from the pot (KD-EFFECT-3)
    "ante": ApokerlypseCollector._lose,  # into the pot
    "steal": ApokerlypseCollector._steal,
    "score": ApokerlypseCollector._score,
    "pot": ApokerlypseCollector._pot,
    "game-over": ApokerlypseCollector._game_over,
}


EventHandler = Callable[[Event], None]


def _both(own: EventHandler, track: EventHandler) -> EventHandler:
    def both(event: Event) -> None:
        own(event)
        track(event)

    return both


def bound_handlers(collector: ApokerlypseCollector) -> dict[str, EventHandler]:
    """One game's dispatch table: the collector's handlers and its effect impact's
    (:mod:`.effect_impact`), bound, so that a kind only one of them reads costs one call."""
    table: dict[str, EventHandler] = {
        kind: own.__get__(collector) for kind, own in collector._handlers.items()
    }
    impact = collector.impact
    for kind, track in IMPACT_HANDLERS.items():
        theirs = track.__get__(impact)
        mine = table.get(kind)
        table[kind] = theirs if mine is None else _both(mine, theirs)
    return table


class ApokerlypseFigures(Figures):
    """Rounds per game and how games ended; the seats' final chips averaged per bot; a
    tournament compares the chips won (less the chips each seat started with, K-SETUP-2).

    From the collector's rows (``rows``): each faction's win rate per player count against its
    fair share, and the dealer rounds per player count with the share of 4–12, as the report
    shows them (``sim/report/apokerlypse.py``): the figures a designer iterates a content on."""

    score = "chips"
    rows = True
    score_key = "avg_chips"
    score_title = "average chips"
    points = "chips_delta"
    points_title = "chips won"

    def __init__(self) -> None:
        self.rounds: list[int] = []
        self.endings: dict[str, int] = {}
        self.by_count: dict[int, list[int]] = {}  # rounds per game, by player count
        # (player count, faction) → [seats, wins]
        self.factions: dict[tuple[int, str], list[int]] = {}

    def add(self, game: Row, seats: Sequence[Row]) -> None:
        self.rounds.append(game["rounds"])
        self.endings[game["reason"]] = self.endings.get(game["reason"], 0) + 1
        n = len(seats)
        self.by_count.setdefault(n, []).append(game["rounds"])
        for seat in seats:
            faction = seat.get("faction")  # only in the collector's rows
            if faction is not None:
                counts = self.factions.setdefault((n, faction), [0, 0])
                counts[0] += 1
                counts[1] += 1 if seat["won"] else 0

    def to_json(self) -> dict[str, object]:
        r = self.rounds
        return {
            "rounds": {
                "average": round(sum(r) / len(r), 3) if r else None,
                "min": min(r, default=None),
                "max": max(r, default=None),
            },
            "endings": dict(sorted(self.endings.items())),
            "by_players": {str(n): self._count(n) for n in sorted(self.by_count)},
        }

    def _count(self, n: int) -> dict[str, object]:
        """Game length and each faction's win rate at ``n`` players (its 95 % interval,
        Wilson's, and the fair share 1/n: the report's figures)."""
        rounds = self.by_count[n]
        within = sum(1 for r in rounds if SHORTEST <= r <= LONGEST)
        factions: dict[str, object] = {}
        for faction in FACTIONS:
            seats, wins = self.factions.get((n, faction), (0, 0))
            if seats:
                low, high = wilson(wins, seats)
                factions[faction] = {
                    "seats": seats,
                    "wins": wins,
                    "win_rate": round(wins / seats, 4),
                    "interval": [round(low, 4), round(high, 4)],
                    "from_fair_share": round(wins / seats - 1 / n, 4),
                }
        return {
            "games": len(rounds),
            "rounds": round(sum(rounds) / len(rounds), 3),
            f"rounds_{SHORTEST}_{LONGEST}": round(within / len(rounds), 4),
            "fair_share": round(1 / n, 4),
            "factions": factions,
        }

    def print(self, console: Console, data: Mapping[str, Any]) -> None:
        r = data["rounds"]
        if r["average"] is not None:
            console.print(f"rounds per game: {r['average']:.2f} on average, {r['min']}–{r['max']}")
        console.print(count_table("How games ended", "ending", data["endings"]))
        table = Table(title="Win rate per faction (fair share: 1 / players)")
        table.add_column("players")
        for faction in FACTIONS:
            table.add_column(faction, justify="right")
        table.add_column(f"{SHORTEST}–{LONGEST} rounds", justify="right")
        for n, count in data["by_players"].items():
            cells = [
                f"{f['win_rate']:.1%} ({f['from_fair_share']:+.1%})" if f else "–"
                for f in (count["factions"].get(name) for name in FACTIONS)
            ]
            table.add_row(n, *cells, f"{count[f'rounds_{SHORTEST}_{LONGEST}']:.1%}")
        console.print(table)
