"""Apokalypse in numbers (:mod:`apokalypse.engine.features`): the action table and the observation
fields of one config, read by the learning interfaces (:mod:`apokalypse.rl`, ``docs/rl.md``).

Actions, in this order (``N`` seats; the deck's codes in deck-file order):

- ``pass``, ``decline``;
- ``play CODE USE`` for every code and every use its role allows (``roles.ROLES``);
- ``give CODE`` for every B and K code, ``defend CODE`` for every code that defends;
- ``to pN`` and ``steal pN``;
- ``target pN.SIDE`` (populaces, attacks), ``target pN.SIDE.PLANE`` (added to a row), and
  ``target pN.SIDE.PLANE.POS`` in the four rows where a card is replaced or neutralised (good and
  evil Heaven, good and evil Netherworld), each position up to the number of the config's cards
  that can lie in that row (``roles.PLACES``): no legal action falls outside the table.

The observation is :func:`fields`; every entry comes from the seat's observation alone.
"""

from __future__ import annotations

from typing import get_args

from apokalypse.engine.features import Entries, Field, offsets

from .actions import Action
from .cards import HORSEMAN_VP, CardKind
from .config import Config
from .observation import SIDES, Observation
from .pending import Decision
from .roles import PLACES, ROLES, Use

DECISIONS: tuple[Decision, ...] = get_args(Decision)
USES: tuple[Use, ...] = get_args(Use)
FACE_DOWN = "populace"  # a populace lying face down whose front the seat does not know
# The rows a position can name (side * 3 + plane): good Heaven, good Netherworld, evil Heaven,
# evil Netherworld; never an Earthly plane.
POSITION_ROWS = (0, 2, 3, 5)
SLOTS = 8  # positions of those rows shown card by card; the rest are in the row's counts
RECKONINGS = len(HORSEMAN_VP)  # one reckoning per horseman (R-END-1)
MANY = 999.0  # the bound of counts and numbers that have no smaller one


class Features:
    """The numbers of one config's games."""

    def __init__(self, config: Config) -> None:
        n = self.players = config.players
        table = config.card_table()
        kinds = {
            code: kind for code, kind in table.kinds_by_code.items() if kind.role != "horseman"
        }
        self.codes: tuple[str, ...] = (*kinds, FACE_DOWN)
        self.code: dict[str, int] = {code: i for i, code in enumerate(self.codes)}
        self.row_bound: dict[int, int] = {
            r: sum(
                1
                for role in table.role
                if any(r in PLACES.get((role, use), ()) for use in ("heaven", "nether"))
            )
            for r in POSITION_ROWS
        }
        self.actions: tuple[Action, ...] = tuple(self._actions(kinds))
        self.fields: tuple[Field, ...] = tuple(fields(n, len(self.codes)))
        at = self.at = offsets(self.fields)
        self.seats: dict[str, int] = {f"p{q + 1}": q for q in range(n)}
        self.sides: dict[str, int] = {side: i for i, side in enumerate(SIDES)}
        self.decisions: dict[str, int] = {d: i for i, d in enumerate(DECISIONS)}
        self.uses: dict[str, int] = {u: i for i, u in enumerate(USES)}
        # Where each row's counts and (for the four rows with positions) first slot start.
        k = len(self.codes)
        self.row_at: list[int] = [at["rows"] + i * k for i in range(n * 6)]
        self.slot_at: list[int] = [-1] * (n * 6)
        for q in range(n):
            for j, r in enumerate(POSITION_ROWS):
                self.slot_at[q * 6 + r] = at["slots"] + (q * 4 + j) * SLOTS * k

    def _actions(self, kinds: dict[str, CardKind]) -> list[Action]:
        n = self.players
        out = [Action("pass"), Action("decline")]
        out += [
            Action("play", c, use) for c, kind in kinds.items() for use in ROLES[kind.role].uses
        ]
        out += [Action("give", c) for c, kind in kinds.items() if kind.back in ("B", "K")]
        out += [Action("defend", c) for c, kind in kinds.items() if ROLES[kind.role].defends]
        out += [Action("to", seat=q) for q in range(n)]
        out += [Action("steal", seat=q) for q in range(n)]
        out += [Action("target", seat=q, side=sd) for q in range(n) for sd in range(2)]
        out += [
            Action("target", seat=q, side=sd, plane=pl)
            for q in range(n)
            for sd in range(2)
            for pl in range(3)
        ]
        out += [
            Action("target", seat=q, side=r // 3, plane=r % 3, pos=i)
            for q in range(n)
            for r in POSITION_ROWS
            for i in range(self.row_bound[r])
        ]
        return out

    def encode(self, obs: Observation) -> Entries:
        at = self.at
        code = self.code
        k = len(self.codes)
        n = self.players
        ones: list[int] = []
        where: list[int] = []
        values: list[float] = []
        seat = obs["seat"]
        if seat is not None:
            ones.append(at["seat"] + seat)
        if "ethos" in obs:
            ones.append(at["ethos"] + self.sides[obs["ethos"]])
        where.append(at["round"])
        values.append(obs["round"])
        ones.append(at["horseman"] + min(max(obs["horseman"], 1), 4) - 1)
        to_act = obs["to_act"]
        if to_act is not None:
            ones.append(at["to_act"] + to_act)
        ones.append(at["decision"] + self.decisions[obs["decision"]])
        ones.append(at["startup"] + obs["startup"])
        base = at["passed"]
        for q, passed in enumerate(obs["passed"]):
            if passed:
                ones.append(base + q)
        base = at["decks"]
        for deck in obs["decks"]:
            where.append(base)
            values.append(deck["size"])
            where.append(base + 1)
            values.append(deck["above_horseman"])
            base += 2
        base = at["discards"]
        for pile in obs["discards"]:
            for c in pile:
                ones.append(base + code[c])
        where.append(at["seal_supply"])
        values.append(obs["seal_supply"])
        base = at["hand_counts"]
        for counts in obs["hand_counts"]:
            where.append(base)
            values.append(counts[0])
            where.append(base + 1)
            values.append(counts[1])
            base += 2
        if "hand" in obs:
            base = at["hand"]
            for c in obs["hand"]:
                ones.append(base + code[c])
        if "known" in obs:
            for name, cards in obs["known"].items():
                base = at["known"] + self.seats[name] * k
                for c in cards:
                    ones.append(base + code[c])
        row_at = self.row_at
        slot_at = self.slot_at
        i = 0
        for display in obs["displays"]:
            for side in (display["good"], display["evil"]):
                for cards in (side["heaven"], side["earth"], side["nether"]):
                    if cards:
                        base = row_at[i]
                        for c in cards:
                            ones.append(base + code[c])
                        slot = slot_at[i]
                        if slot >= 0:  # a row with positions: its first SLOTS cards one by one
                            for c in cards[:SLOTS]:
                                ones.append(slot + code[c])
                                slot += k
                    i += 1
        if "fronts" in obs:
            for place, c in obs["fronts"].items():
                name, side_name, _pos = place.split(".")
                ones.append(
                    at["fronts"] + (self.seats[name] * 2 + self.sides[side_name]) * k + code[c]
                )
        base = at["scores"]
        for scores in obs["scores"][:RECKONINGS]:
            for q, score in enumerate(scores):
                where.append(base + q)
                values.append(score)
            base += n
        base = at["horseman_cards"]
        for numbers in obs["horseman_cards"]:
            for number in numbers:
                ones.append(base + number - 1)
            base += 4
        attack = obs["attack"]
        if attack is not None:
            ones.append(at["attack_attacker"] + attack["attacker"])
            ones.append(at["attack_card"] + code[attack["card"]])
            ones.append(at["attack_target"] + attack["seat"] * 2 + self.sides[attack["side"]])
        if "choice" in obs:
            choice = obs["choice"]
            ones.append(at["choice_card"] + code[choice["code"]])
            if "use" in choice:
                ones.append(at["choice_use"] + self.uses[choice["use"]])
        return Entries(ones, where, values)


def fields(n: int, k: int) -> list[Field]:
    """The observation fields of an ``n``-player game whose deck has ``k - 1`` codes (card index
    ``k - 1`` is a face-down populace whose front the seat does not know)."""
    return [
        Field("seat", (n,), "the observing seat, one-hot"),
        Field("ethos", (2,), "its own ethos: good, evil (R-SETUP-3)"),
        Field("round", (1,), "the round", high=MANY),
        Field("horseman", (4,), "the next horseman to ride, 1–4, one-hot"),
        Field("to_act", (n,), "the seat to decide, one-hot (none in another's defence window)"),
        Field(
            "decision",
            (len(DECISIONS),),
            "the kind of decision pending, one-hot: " + ", ".join(DECISIONS),
        ),
        Field("startup", (n,), "the startup player, one-hot"),
        Field("passed", (n,), "who has passed this round"),
        Field(
            "decks", (2, 2), "B and K deck: cards left, cards above the next horseman", high=MANY
        ),
        Field("discards", (k,), "cards in the discard piles, by code", high=MANY),
        Field("seal_supply", (1,), "seals left in the supply", high=MANY),
        Field("hand_counts", (n, 2), "B and K cards in each hand", high=MANY),
        Field("hand", (k,), "its own hand, by code", high=MANY),
        Field(
            "known",
            (n, k),
            "cards it knows to be in another hand, by seat and code (R-INFO-2)",
            high=MANY,
        ),
        Field(
            "rows",
            (n, 6, k),
            "each display's six rows (good Heaven, good Earth, good Netherworld, evil Heaven,"
            " evil Earth, evil Netherworld), cards by code",
            high=MANY,
        ),
        Field(
            "slots",
            (n, 4, SLOTS, k),
            "good Heaven, good Netherworld, evil Heaven, evil Netherworld: the card at each of the"
            f" first {SLOTS} positions, one-hot (the positions `target …POS` actions name)",
        ),
        Field(
            "fronts",
            (n, 2, k),
            "the fronts of the face-down populaces it laid, by display, side and code (D-INFO-1)",
            high=MANY,
        ),
        Field(
            "scores",
            (RECKONINGS, n),
            "each reckoning's score per seat, 0 before it (R-END-2)",
            low=-MANY,
            high=MANY,
        ),
        Field("horseman_cards", (n, 4), "the horseman cards each seat owns, by number"),
        Field(
            "attack_attacker", (n,), "the attack on the table (R-ATTACK-1): who attacks, one-hot"
        ),
        Field("attack_card", (k,), "… with which card, one-hot"),
        Field("attack_target", (n, 2), "… at which display and side, one-hot"),
        Field("choice_card", (k,), "the card it chose in a two-step play's first step, one-hot"),
        Field("choice_use", (len(USES),), "… and how it plays it, one-hot: " + ", ".join(USES)),
    ]
