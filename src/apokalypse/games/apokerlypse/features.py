"""Apokerlypse in numbers (:mod:`apokalypse.engine.features`): the action table and the
observation fields of one config, read by the learning interfaces (:mod:`apokalypse.rl`,
``docs/rl.md``).

Actions, in this order (``N`` seats; the 52 cards in the order ``2s 2h 2d 2c 3s … Ac``):
``pay``, ``stand``, ``drop``, ``ability``, ``done``, ``allow``; then ``discard``, ``use``,
``give``, ``swap`` and ``block`` of every card; then ``target pN``.

The observation is :func:`fields`; every entry comes from the seat's observation alone.
"""

from __future__ import annotations

from typing import get_args

from apokalypse.engine.features import Entries, Field, offsets

from .actions import Action
from .cards import CODES, DECK_SIZE, FACTIONS
from .config import TABLES, Config
from .content import EffectKind, StructureKind
from .observation import Observation
from .pending import STEP_NAMES, Decision
from .poker import CATEGORIES

DECISIONS: tuple[Decision, ...] = get_args(Decision)
STEPS = (*STEP_NAMES, "over")
STRUCTURES: tuple[StructureKind, ...] = get_args(StructureKind)
EFFECTS: tuple[EffectKind, ...] = tuple(
    kind for part in get_args(EffectKind) for kind in (get_args(part) or (part,))
)
ABILITY = DECK_SIZE  # the effect card index of a faction ability (an effect with no card)
MANY = 999.0  # the bound of counts and numbers that have no smaller one


class Features:
    """The numbers of one config's games."""

    def __init__(self, config: Config) -> None:
        n = self.players = config.players
        self.table = TABLES.index(config.table)
        self.bonus_cap = config.bonus_cap
        self.code: dict[str, int] = {code: i for i, code in enumerate(CODES)}
        self.actions: tuple[Action, ...] = tuple(
            [Action(verb) for verb in ("pay", "stand", "drop", "ability", "done", "allow")]
            + [
                Action(verb, card=c)
                for verb in ("discard", "use", "give", "swap", "block")
                for c in range(DECK_SIZE)
            ]
            + [Action("target", seat=q) for q in range(n)]
        )
        self.fields: tuple[Field, ...] = tuple(fields(n))
        self.at = offsets(self.fields)
        self.seats: dict[str, int] = {f"p{q + 1}": q for q in range(n)}
        self.steps: dict[str, int] = {s: i for i, s in enumerate(STEPS)}
        self.decisions: dict[str, int] = {d: i for i, d in enumerate(DECISIONS)}
        self.factions: dict[str, int] = {f: i for i, f in enumerate(FACTIONS)}
        self.structures: dict[str, int] = {s: i for i, s in enumerate(STRUCTURES)}
        self.effects: dict[str, int] = {e: i for i, e in enumerate(EFFECTS)}
        self.categories: dict[str, int] = {c: i for i, c in enumerate(CATEGORIES)}

    def encode(self, obs: Observation) -> Entries:
        at = self.at
        code = self.code
        n = self.players
        ones: list[int] = []
        where: list[int] = []
        values: list[float] = []
        seat = obs["seat"]
        if seat is not None:
            ones.append(at["seat"] + seat)
        ones.append(at["table"] + self.table)
        if self.bonus_cap:
            ones.append(at["bonus_cap"])
        for name, value in (
            ("round", obs["round"]),
            ("cost", obs["cost"]),
            ("pot", obs["pot"]),
            ("bank", obs["bank"]),
            ("draw_pile", obs["draw_pile"]),
        ):
            where.append(at[name])
            values.append(value)
        ones.append(at["dealer"] + obs["dealer"])
        if obs["last_round"]:
            ones.append(at["last_round"])
        if obs["ends_after_round"]:
            ones.append(at["ends_after_round"])
        ones.append(at["step"] + self.steps[obs["step"]])
        to_act = obs["to_act"]
        if to_act is not None:
            ones.append(at["to_act"] + to_act)
        ones.append(at["decision"] + self.decisions[obs["decision"]])
        for name, numbers in (
            ("chips", obs["chips"]),
            ("action_chips", obs["action_chips"]),
            ("hand_sizes", obs["hand_sizes"]),
        ):
            base = at[name]
            for q, value in enumerate(numbers):
                where.append(base + q)
                values.append(value)
        for name, flags in (
            ("ability_used", obs["ability_used"]),
            ("in_round", obs["in_round"]),
            ("short", obs["short"]),
        ):
            base = at[name]
            for q, flag in enumerate(flags):
                if flag:
                    ones.append(base + q)
        base = at["factions"]
        for faction in obs["factions"]:
            ones.append(base + self.factions[faction])
            base += len(FACTIONS)
        base = at["discards"]
        for pile in obs["discards"]:
            for c in pile:
                ones.append(base + code[c])
            base += DECK_SIZE
        base = at["used"]
        for c in obs["used"]:
            ones.append(base + code[c])
        for q, mods in enumerate(obs["modifiers"]):
            structure = mods["structure"]
            if structure is not None:
                ones.append(
                    at["structure"] + q * len(STRUCTURES) + self.structures[structure["kind"]]
                )
            where.append(at["multiplier"] + q)
            values.append(mods["multiplier"])
            where.append(at["hand_limit"] + q)
            values.append(mods["hand_limit"])
            if mods["shielded"]:
                ones.append(at["shielded"] + q)
            base = at["doubled"] + q * DECK_SIZE
            for c in mods["doubled"]:
                ones.append(base + code[c])
        for q, revealed in enumerate(obs["revealed"]):
            if revealed is not None:
                base = at["revealed"] + q * DECK_SIZE
                for c in revealed:
                    ones.append(base + code[c])
        for position, q in enumerate(obs["order"]):
            ones.append(at["order"] + q * n + position)
        for q, score in enumerate(obs["scores"]):
            if score is not None:
                ones.append(
                    at["category"] + q * len(CATEGORIES) + self.categories[score["category"]]
                )
                where.append(at["total"] + q)
                values.append(score["total"])
        effect = obs["effect"]
        if effect is not None:
            ones.append(at["effect_seat"] + effect["seat"])
            card = effect["card"]
            ones.append(at["effect_card"] + (ABILITY if card is None else code[card]))
            ones.append(at["effect_kind"] + self.effects[effect["kind"]])
        for name, cards in obs["known"].items():
            base = at["known"] + self.seats[name] * DECK_SIZE
            for c in cards:
                ones.append(base + code[c])
        for c, seats in obs["maybe"].items():
            for q in seats:
                ones.append(at["maybe"] + q * DECK_SIZE + code[c])
        if "hand" in obs:
            base = at["hand"]
            for c in obs["hand"]:
                ones.append(base + code[c])
        if "choice" in obs:
            choice = obs["choice"]
            if "targets" in choice:
                for q in choice["targets"]:
                    ones.append(at["choice_targets"] + q)
            else:
                ones.append(at["choice_receiver"] + choice["target"])
                where.append(at["choice_left"])
                values.append(choice["left"])
        return Entries(ones, where, values)


def fields(n: int) -> list[Field]:
    """The observation fields of an ``n``-player game."""
    cards = DECK_SIZE
    return [
        Field("seat", (n,), "the observing seat, one-hot"),
        Field("table", (len(TABLES),), "the rules table: full, short (KV-TABLE), one-hot"),
        Field("bonus_cap", (1,), "1 with the bonus cap variant"),
        Field("round", (1,), "the round", high=MANY),
        Field("cost", (1,), "the round's cost in chips (K-ROUND-1)", high=MANY),
        Field("pot", (1,), "chips in the pot", high=MANY),
        Field("bank", (1,), "chips in the bank", high=MANY),
        Field("draw_pile", (1,), "cards in the draw pile", high=MANY),
        Field("dealer", (n,), "the dealer, one-hot"),
        Field("last_round", (1,), "1 in the last round"),
        Field("ends_after_round", (1,), "1 once the game ends after this round (K-END-1)"),
        Field("step", (len(STEPS),), "the round's step, one-hot: " + ", ".join(STEPS)),
        Field("to_act", (n,), "the seat to decide, one-hot (none in another's block window)"),
        Field(
            "decision",
            (len(DECISIONS),),
            "the kind of decision pending, one-hot: " + ", ".join(d or "(none)" for d in DECISIONS),
        ),
        Field("chips", (n,), "each seat's chips", high=MANY),
        Field("action_chips", (n,), "each seat's action chips (K-SCORE-5)", high=MANY),
        Field("hand_sizes", (n,), "cards in each hand", high=MANY),
        Field("ability_used", (n,), "who has used their faction's ability"),
        Field("in_round", (n,), "who is still in the round"),
        Field("short", (n,), "who is short of the cost (K-SHORT-1)"),
        Field(
            "factions", (n, len(FACTIONS)), "each seat's faction, one-hot: " + ", ".join(FACTIONS)
        ),
        Field("discards", (n, cards), "each seat's discard pile, by card"),
        Field("used", (cards,), "cards whose effect resolved this round"),
        Field(
            "structure",
            (n, len(STRUCTURES)),
            "each seat's structure change this round, one-hot: "
            + ", ".join(STRUCTURES)
            + " (K-SCORE-4)",
        ),
        Field("multiplier", (n,), "each seat's score multiplier", high=MANY),
        Field("hand_limit", (n,), "each seat's hand limit", high=MANY),
        Field("shielded", (n,), "who is shielded from others' card effects (KD-EFFECT-2)"),
        Field("doubled", (n, cards), "cards whose bonus counts double, per seat"),
        Field("revealed", (n, cards), "the hands shown in the final scoring"),
        Field("order", (n, n), "the final scoring's evaluation order: seat × position, one-hot"),
        Field(
            "category",
            (n, len(CATEGORIES)),
            "each scored hand's category, one-hot: " + ", ".join(CATEGORIES),
        ),
        Field("total", (n,), "each scored hand's total (K-SCORE-2/3)", high=MANY),
        Field("effect_seat", (n,), "the effect being resolved: whose, one-hot"),
        Field(
            "effect_card", (cards + 1,), "… which card (the last entry: a faction ability), one-hot"
        ),
        Field("effect_kind", (len(EFFECTS),), "… which kind, one-hot: " + ", ".join(EFFECTS)),
        Field("known", (n, cards), "cards it knows to be in another hand, by seat"),
        Field(
            "maybe", (n, cards), "cards it knows to be in one of some hands: the seats it may be in"
        ),
        Field("hand", (cards,), "its own hand"),
        Field("choice_targets", (n,), "its effect's possible targets"),
        Field(
            "choice_receiver", (n,), "the seat that receives the cards it gives or swaps, one-hot"
        ),
        Field("choice_left", (1,), "cards still to give", high=MANY),
    ]
