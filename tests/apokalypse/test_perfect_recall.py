"""Perfect recall: a sampled world respects everything its seat has seen over its WHOLE history.

A seat's current observation is not all it knows. It remembers the front of every card it laid
face down, wherever that card has gone since (D-INFO-1), and every card it gave, received, stole
or had stolen (R-INFO-2): in that hand, or — once the holder laid some B card face down unseen —
in the hand or among those populaces, whose moves stay public (``knowledge.Trace``). This
test keeps that memory itself, from nothing but what the seat was shown (its observations and
its views of the events), and checks that every world ``determinize`` samples for the seat agrees
with it — and with the seat's observation (R-INFO-3: the world differs only in what is hidden).

The memory (:class:`Recall`) is written from the rules, independently of the engine's own
bookkeeping (``knowledge.py``, ``State.laid_by``), so the two are checked against each other too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apokalypse.engine.events import EventView
from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import GAME, Config, State, Variant
from apokalypse.games.apokalypse.cards import EARTH, CardKind, deck_kinds
from apokalypse.games.apokalypse.observation import SIDES, Observation
from tests.apokalypse.builders import act, blank, decline_all, hand, put

# Events in which the actor plays a card from hand face up: everybody sees its front.
FACE_UP = ("person", "place", "replace", "neutralise", "attack", "defend")


Place = tuple[int, int, int]  # (seat, side, position) in a display, or (-1, 0, i): B discard i


class Recall:
    """What ``seat`` has learned and still knows to be true, from what it was shown.

    Face-down populaces are followed as tokens: their moves are public (conversions, deaths).
    The seat knows the front of the tokens it laid; of the others it knows that they came out
    of a hand where it had placed some copies."""

    def __init__(self, seat: int, kinds: Mapping[str, CardKind]) -> None:
        self.seat = seat
        self.kinds = kinds
        # R-INFO-2: (holder, code) → copies the seat saw go into that hand and not yet leave it
        self.held: Counter[tuple[int, str]] = Counter()
        self.where: dict[Place, int] = {}  # face-down populaces followed: place → token
        self.front: dict[int, str] = {}  # D-INFO-1: token → the front, for those the seat laid
        # R-INFO-2 after unseen plays: [holder, code, copies, tokens]: at least that many copies
        # are in the holder's hand or among those face-down populaces
        self.traces: list[tuple[int, str, int, frozenset[int]]] = []
        self.tokens = 0

    def _left_seen(self, holder: int, code: str) -> None:
        """A card of ``code`` left ``holder``'s hand and the seat saw its front."""
        if self.held[holder, code]:
            self.held[holder, code] -= 1
        self._count(holder, code, -1)

    def _gained(self, holder: int, code: str) -> None:
        self.held[holder, code] += 1
        self._count(holder, code, +1)

    def _count(self, holder: int, code: str, change: int) -> None:
        self.traces = [
            (q, c, n + change if (q, c) == (holder, code) else n, tokens)
            for q, c, n, tokens in self.traces
            if not ((q, c) == (holder, code) and n + change <= 0)
        ]

    def _left_unseen(self, holder: int, back: str, token: int = -1) -> None:
        """A card left ``holder``'s hand and the seat saw only its back: it may have been any
        copy of any code with that back that the seat placed there. Laid face down (``token``)
        it stays in view; into another hand, the seat stops following those copies."""
        same = [q == holder and self.kinds[c].back == back for q, c, _, _ in self.traces]
        if token < 0:
            self.traces = [t for t, hit in zip(self.traces, same, strict=True) if not hit]
        else:
            traced = {c for (_, c, _, _), hit in zip(self.traces, same, strict=True) if hit}
            self.traces = [
                (q, c, n, tokens | {token}) if hit else (q, c, n, tokens)
                for (q, c, n, tokens), hit in zip(self.traces, same, strict=True)
            ]
            for (q, code), count in self.held.items():
                if q == holder and count and code not in traced and self.kinds[code].back == back:
                    self.traces.append((q, code, count, frozenset({token})))
        for (q, code), count in list(self.held.items()):
            if q == holder and count and self.kinds[code].back == back:
                self.held[q, code] = count - 1

    def _forget(self, tokens: set[int]) -> None:
        """Those face-down cards went where nobody can follow them (a deck, R-REFILL-1)."""
        self.traces = [t for t in self.traces if not t[3] & tokens]
        for token in tokens:
            self.front.pop(token, None)

    def update(self, before: Observation, views: list[EventView], after: Observation) -> None:
        seat = self.seat
        for kind, args, seen in views:
            actor: int = args.get("actor", -1)
            if kind == "gift":  # R-INFO-2: the giver and the receiver see the card
                if seen and actor == seat:
                    self._gained(args["target"], args["card"])
                elif seen:
                    self._left_seen(actor, args["card"])
                else:
                    self._left_unseen(actor, args["back"])
            elif kind == "steal":  # R-INFO-2: the thief and the victim see the card
                if seen and args["target"] == seat:
                    self._gained(actor, args["card"])
                elif seen:
                    self._left_seen(args["target"], args["card"])
                else:
                    self._left_unseen(args["target"], args["back"])
            elif kind == "populace":  # laid face down: the seat knows the place
                q, side = args["seat"], args["side"]
                self.tokens += 1
                self.where[q, side, _earth(before, q, side)] = self.tokens
                if actor == seat:  # its own: it saw the front
                    self.front[self.tokens] = args["card"]
                else:
                    self._left_unseen(actor, "B", self.tokens)
            elif kind in FACE_UP and actor >= 0:
                self._left_seen(actor, args["card"])
            elif kind == "killed":
                self._bury(before, after, args["seat"], args["side"])
            elif kind == "converted":  # R-ATTACK-3: to the other side of the chosen display
                q, side, dest = args["seat"], args["side"], args["dest"]
                token = self.where.pop((q, side, _earth(before, q, side) - 1), None)
                if token is not None:
                    self.where[dest, 1 - side, _earth(before, dest, 1 - side)] = token
            elif kind == "deaths":  # R-HORSE-3: the outermost die, to a pile refilled unseen
                q = args["seat"]
                dead: set[int] = set()
                for side, count in enumerate((args["good"], args["evil"])):
                    top = _earth(before, q, side)
                    for pos in range(top - count, top):
                        token = self.where.pop((q, side, pos), None)
                        if token is not None:
                            dead.add(token)
                self._forget(dead)
            elif kind == "refill":  # R-REFILL-1: the discard piles go into the decks, unseen
                pile = {token for (q, _, _), token in self.where.items() if q < 0}
                self.where = {place: t for place, t in self.where.items() if place[0] >= 0}
                self._forget(pile)

    def _bury(self, before: Observation, after: Observation, q: int, side: int) -> None:
        """R-ATTACK-2, D-INFO-1: Violence killed the outermost populace of a side; a face-down
        one is the first B card discarded (the attack card goes to the K pile)."""
        token = self.where.pop((q, side, _earth(before, q, side) - 1), None)
        if token is None:
            return
        at = len(before["discards"][0])
        assert after["discards"][0][at] == "populace"  # D-INFO-1: it lies face down
        self.where[-1, 0, at] = token

    @property
    def buried(self) -> dict[int, str]:
        """B discard position → the front of a populace the seat laid, killed since."""
        return {
            i: self.front[t] for (q, _, i), t in self.where.items() if q < 0 and t in self.front
        }

    def known(self) -> dict[str, list[str]]:
        """The memory of other hands in the observation's form (``known``)."""
        out: dict[str, list[str]] = {}
        for (q, code), count in sorted(self.held.items()):
            if count:
                out.setdefault(f"p{q + 1}", []).extend([code] * count)
        return out

    def fronts(self) -> dict[str, str]:
        """The memory of laid populaces in the observation's form (``fronts``)."""
        return {
            f"p{q + 1}.{SIDES[side]}.{pos}": self.front[token]
            for (q, side, pos), token in self.where.items()
            if q >= 0 and token in self.front
        }

    def check(self, world: State) -> None:
        """Everything remembered holds in ``world``."""
        at: dict[int, str] = {}  # token → the code lying in its place in the world
        for (q, side, pos), token in self.where.items():
            row = world.discards[0] if q < 0 else world.displays[q][side * 3 + EARTH]
            at[token] = world.code(row[pos])
        for token, code in self.front.items():
            assert at[token] == code, f"the populace laid as {code} must stay {code}"
        for (q, code), count in self.held.items():
            hand = Counter(world.code(c) for c in world.hands[q])
            assert hand[code] >= count, f"p{q + 1} must hold {count} {code}"
        for q, code, count, tokens in self.traces:
            found = sum(1 for c in world.hands[q] if world.code(c) == code)
            found += sum(1 for t in tokens if at[t] == code)
            assert found >= count, f"{count} {code} must be in p{q + 1}'s hand or laid since"


def _earth(obs: Observation, q: int, side: int) -> int:
    """How many populaces lie on ``side`` of ``q``'s display."""
    return len(obs["displays"][q][SIDES[side]]["earth"])


def _sample(s: State, seat: int, recall: Recall, obs: Observation, seed: int) -> None:
    recall.check(s)  # the memory is sound: it holds in the true state …
    for k in range(2):  # … and in every world sampled for the seat
        world = s.determinize(seat, Rng(seed * 31 + k))
        assert world.observation(seat) == obs  # R-INFO-3: only hidden things differ
        recall.check(world)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=2, max_value=6),
    st.integers(min_value=0, max_value=2**32),
    st.integers(min_value=0, max_value=5),
    st.sets(st.sampled_from(["V-ETHOS-BALANCED", "V-ETHOS-ORPHANS"])),
)
def test_determinize_respects_everything_the_seat_has_seen(
    n: int, seed: int, pick: int, variants: set[Variant]
) -> None:
    """R-INFO-2, R-INFO-3, D-INFO-1: along a random game, every world sampled for a seat keeps
    the copies it gave or had stolen in the hands they went to, or among the populaces those
    hands laid face down since (until it saw them maybe go further), the fronts of the
    populaces it laid (in a display, or dead in the discard pile), and shows
    the seat exactly its own observation. The engine's knowledge (``known``) is the same memory
    as the one kept here from the events."""
    seat = pick % n
    config = Config(players=n, variants=frozenset(variants))
    s = GAME.new_game(config, seed)
    recall = Recall(seat, deck_kinds(config.deck_text))
    rng = Rng(seed ^ 0xF00D)
    obs = s.observation(seat)
    samples = 0
    while not s.is_over:
        legal = s.legal_actions()
        events = s.apply(legal[rng.below(len(legal))])
        before, obs = obs, s.observation(seat)
        recall.update(before, [e.view(seat) for e in events], obs)
        assert obs.get("known") == recall.known()
        assert obs.get("fronts") == recall.fronts()
        if not s.is_over and rng.below(8) == 0:
            _sample(s, seat, recall, obs, seed + s.move)
            samples += 1
    assert samples or s.move < 16


def test_the_front_of_a_killed_face_down_populace_stays_known_to_who_laid_it() -> None:
    """D-INFO-1, R-ATTACK-2: p1 lays an m/hp face down and Violence kills it. It lies face down
    in the B discard pile ("populace" in every observation); every world sampled for p1 keeps
    the m/hp there, while p3's worlds put any unseen B front in its place."""
    s = blank(3)
    put(s, 1, "good", "earth", "pop")  # a face-down populace laid earlier
    hand(s, 0, "m/hp", "job/drugs")
    act(s, "play m/hp good", "target p2.good", "give job/drugs", "to p3")
    recall = Recall(0, deck_kinds(s.config.deck_text))
    recall.held[2, "job/drugs"] = 1  # R-INFO-2: p1 gave it
    recall.where[1, 0, 1] = 1  # and laid the m/hp, outermost on p2's good side
    recall.front[1] = "m/hp"
    recall.tokens = 1
    obs = s.observation(0)
    assert obs.get("fronts") == {"p2.good.1": "m/hp"}
    hand(s, 1, "violence")
    events = act(s, "play violence attack", "target p2.good") + decline_all(s)
    before, obs = obs, s.observation(0)
    recall.update(before, [e.view(0) for e in events], obs)
    at = len(before["discards"][0])
    assert recall.buried == {at: "m/hp"}
    assert obs["discards"][0][at] == "populace"
    for k in range(20):
        world = s.determinize(0, Rng(k))
        assert world.observation(0) == obs
        recall.check(world)
    fronts = set()
    for k in range(40):
        world = s.determinize(2, Rng(k))
        fronts.add(world.code(world.discards[0][at]))
    assert len(fronts) > 1  # p3 never saw it: any unseen B card may lie there


def test_a_gift_laid_face_down_or_kept_is_one_or_the_other() -> None:
    """R-INFO-2, D-INFO-1: p1 gave p2 an m/hp; p2 then lays some B card face down. p1 knows
    that the m/hp is in p2's hand or is that populace; no world p1 can be in has it elsewhere
    (the lower bound alone, ``known``, forgets it: ``knowledge.Trace`` remembers)."""
    s = blank(3)
    hand(s, 0, "p/mh", "m/hp")
    hand(s, 1, "h/mp")
    act(s, "play p/mh good", "target p1.good", "give m/hp", "to p2")
    act(s, "play h/mp evil", "target p2.evil")  # no other hand holds a card: no steal
    both = set()
    for k in range(30):
        world = s.determinize(0, Rng(k))
        held = [world.code(c) for c in world.hands[1]]
        laid = world.code(world.displays[1][3 + EARTH][0])
        assert "m/hp" in held or laid == "m/hp"
        both.add(("m/hp" in held, laid == "m/hp"))
    assert s.observation(0).get("known") == {}  # the lower bound forgot it
    assert len(both) > 1  # and the worlds still differ in where it is
