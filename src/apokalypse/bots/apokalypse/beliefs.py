"""Ethos beliefs: what one seat may infer about the others' secret ethos from what they do.

Nobody's ethos is shown before the end (R-SETUP-3, R-END-3), but the moves are public: a populace
laid on the good side, an Ethos change that turns a good populace evil, a defence. Each such move
is read as a choice among the alternatives its player publicly had (:class:`Move`), scored by how
much each helps the good or the evil side in the count that decides the game (R-END-3: good
populaces against evil ones). Under each ethos the choice is a softmax of those scores (an
ethos-blind bias such as "an evil deed steals a card, a good deed gives one away" included),
mixed with a uniform floor (:data:`NOISE`) so that one odd move never rules an assignment out,
and the evidence about one seat is capped (:data:`MAX_EVIDENCE`): players are not the model.

:class:`EthosBelief` keeps the exact distribution over every ethos assignment of the other seats
that the ethos cards allow (:func:`~apokalypse.games.apokalypse.secrecy.ethos_pool`,
V-ETHOS-BALANCED) given the seat's own card. The prior counts the deals; a move's likelihood
depends only on its player's ethos, so the posterior is the prior times one factor per seat.

:class:`BeliefSearch` is what the searching player (:mod:`apokalypse.bots.ismcts`) consults: it
redraws the others' ethos of every sampled world from the belief, and penalises at the root the
moves that would show the player's own ethos early (:data:`REVEAL_PENALTY`).

:func:`belief_in_game` measures the belief in a seeded game (``apokalypse tournament --beliefs``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple

from apokalypse.engine.events import EventView
from apokalypse.engine.protocol import GameState
from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import GAME, Action, Observation
from apokalypse.games.apokalypse import events as ev
from apokalypse.games.apokalypse.cards import EVIL, GOOD
from apokalypse.games.apokalypse.config import Variant
from apokalypse.games.apokalypse.roles import FIEND, ROLES, SAINT
from apokalypse.games.apokalypse.secrecy import ethos_pool

from .model import LAST, role

# --- the likelihood model ---------------------------------------------------------------------

SHARPNESS = 1.0  # softmax weight of one populace's swing in the majority count (R-END-3)
DEED_BIAS = 0.7  # an evil deed gains a card, a good deed loses one (R-PLAY-4/5): for both ethos
PLACE_SWING = 0.5  # a Heaven / Netherworld card helps (or, neutralised, stops helping) its side
DEFENCE_WEIGHT = 0.5  # a defence is mostly self-interest: it counts half an attack's swing
NOISE = 0.1  # share of every choice that is uniform among its alternatives: no move rules out
# |log P(moves | good) − log P(moves | evil)| per seat is capped at MAX_EVIDENCE (55 : 1): the
# model is the heuristic player's habits, and other players break them. By the second horseman,
# the first good seat's belief in the true assignment, against its prior (seeds 0–199, 4 players):
# heuristic players 6.4× with this cap, 7.0× with a cap of 12 (the most possible, 1/prior: 7.1×);
# searching players with beliefs (seeds 0–5) 2.1× with this cap, 1.6× with 12. In 12 games of
# searching players that misled (a one-sided REVEAL_PENALTY, below) the cap of 12 left it at
# 0.00×, confidently wrong, this one at 0.06×.
MAX_EVIDENCE = 4.0
# A root move that would move an observer's belief about the player's ethos by Δ (either way)
# costs REVEAL_PENALTY · |Δ| · (the share of the game still to come) in value (0 … 1) units: mild,
# strongest before the first horseman, gone once the last one is next. Either way, because a
# penalty on the telling side alone tips every near tie to the other side, which shows the ethos
# just as well, inverted (measured: good searching players with it laid evil populaces two times
# in three; with the penalty either way, as often as evil ones did).
REVEAL_PENALTY = 0.05

SIGN = {GOOD: 1.0, EVIL: -1.0}


class Move(NamedTuple):
    """One public choice of ``actor``: for each alternative it publicly had, the swing toward
    the good side (populaces of the majority count, R-END-3) and an ethos-blind bias; the
    chosen one is ``alternatives[chosen]``."""

    actor: int
    alternatives: tuple[tuple[float, float], ...]
    chosen: int = 0


def _side_sign(side: int) -> float:
    return 1.0 if side == GOOD else -1.0


def _attack_swing(code: str, side: int) -> float:
    """R-ATTACK-2 kills the outermost populace of ``side`` (one fewer there); R-ATTACK-3 turns it
    to the other side (one fewer there, one more on the other)."""
    card_role = role(code)
    kills = card_role is not None and ROLES[card_role].attack == "kill"
    return -_side_sign(side) * (1.0 if kills else 2.0)


def _populace(actor: int, side: int, code: str | None) -> Move:
    """R-PLAY-3: a populace on the good or the evil side, with its deed (R-PLAY-4/5). An
    especially good or evil person goes only on its own side (R-PLAY-6): its alternative is to
    keep the card."""
    swing = _side_sign(side)
    bias = DEED_BIAS if side == EVIL else 0.0
    if code is not None and role(code) in (SAINT, FIEND):
        return Move(actor, ((swing, bias), (0.0, 0.0)))
    return Move(actor, ((swing, bias), (-swing, DEED_BIAS - bias)))


def _mirrored(actor: int, swing: float) -> Move:
    """The same play on the other side: the alternative swings the other way."""
    return Move(actor, ((swing, 0.0), (-swing, 0.0)))


def event_move(told: ev.Event, attack: ev.Attack | None) -> Move | None:
    """The public choice an event (a view of it, :func:`events.told`) shows, if it says anything
    about its player's ethos; ``attack`` is the last declared attack's arguments (a defence
    answers it). A replacement says nothing (it may add protection or take it away), nor do
    gifts, thefts, passes and the destination of a converted populace (the side it leaves was
    chosen with the attack)."""
    if told["kind"] == "populace":
        return _populace(told["args"]["actor"], told["args"]["side"], None)
    if told["kind"] == "person":
        return _populace(told["args"]["actor"], told["args"]["side"], told["args"]["card"])
    if told["kind"] == "attack":
        args = told["args"]
        return _mirrored(args["actor"], _attack_swing(args["card"], args["side"]))
    if told["kind"] in ("place", "seal-place"):  # R-PLAY-7/11, R-REWARD-3: helps its side
        return _mirrored(told["args"]["actor"], PLACE_SWING * _side_sign(told["args"]["side"]))
    if told["kind"] in ("neutralise", "seal-neutralise"):  # R-PLAY-15: the music's side loses
        return _mirrored(told["args"]["actor"], -PLACE_SWING * _side_sign(told["args"]["side"]))
    if told["kind"] == "defend" and attack is not None:  # R-ATTACK-4: against declining
        swing = -DEFENCE_WEIGHT * _attack_swing(attack["card"], attack["side"])
        return Move(told["args"]["actor"], ((swing, 0.0), (0.0, 0.0)))
    return None


def likelihood(move: Move, ethos: int) -> float:
    """P(the chosen alternative | the actor's ethos), with the uniform floor :data:`NOISE`."""
    sign = SIGN[ethos]
    scores = [SHARPNESS * sign * swing + bias for swing, bias in move.alternatives]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    share = weights[move.chosen] / sum(weights)
    return (1.0 - NOISE) * share + NOISE / len(scores)


# --- the distribution -------------------------------------------------------------------------


def deal_prior(seat: int, players: int, own: int, balanced: bool) -> dict[tuple[int, ...], float]:
    """Every ethos assignment (a GOOD/EVIL per seat, ``own`` at ``seat``) with its chance under
    R-SETUP-3: the others' cards are dealt from the pool less ``own``, so an assignment with
    ``g`` more good and ``e`` more evil cards comes ``G·(G−1)…·E·(E−1)…`` ways out of
    ``(G+E)·(G+E−1)…`` (``n − 1`` factors). Impossible ones are left out."""
    pool = ethos_pool(players, balanced)
    pool.remove(own)
    good_left, evil_left = pool.count(GOOD), pool.count(EVIL)
    others = players - 1
    deals = math.perm(good_left + evil_left, others)
    out: dict[tuple[int, ...], float] = {}
    for rest in itertools.product((GOOD, EVIL), repeat=others):
        g = rest.count(GOOD)
        ways = math.perm(good_left, g) * math.perm(evil_left, others - g)
        if ways:
            out[(*rest[:seat], own, *rest[seat:])] = ways / deals
    return out


class EthosBelief:
    """One seat's belief about the others' ethos, fed only what the seat sees: its event views
    (:meth:`observe`) and, optionally, its observations (:meth:`see`, which only checks that
    they are the seat's own). Assignments are tuples of GOOD/EVIL, one per seat."""

    def __init__(self, seat: int, players: int, own: int, balanced: bool = False) -> None:
        self.seat = seat
        self.players = players
        self.own = own
        self.balanced = balanced
        self._prior = deal_prior(seat, players, own, balanced)
        self._assignments = sorted(self._prior)
        # log P(moves seen | ethos) per seat, for GOOD and EVIL.
        self.evidence = [[0.0, 0.0] for _ in range(players)]
        self._attack: ev.Attack | None = None
        self._posterior: dict[tuple[int, ...], float] | None = dict(self._prior)

    # --- feeding --------------------------------------------------------------------------------

    def observe(self, events: Sequence[EventView]) -> None:
        for event in events:
            told = ev.told(event)
            move = event_move(told, self._attack)
            if told["kind"] == "attack":
                self._attack = told["args"]
            if move is not None and move.actor != self.seat:
                self.update(move)

    def see(self, observation: Observation) -> None:
        """An observation of this seat's: nothing in it is evidence the events do not carry
        (the belief reads moves only); it must be this seat's own."""
        if observation.get("seat") != self.seat or observation.get("players") != self.players:
            raise ValueError("an ethos belief is fed its own seat's observations only")

    def update(self, move: Move) -> None:
        """Bayes: multiply in the move's likelihood under each ethos of its player."""
        evidence = self.evidence[move.actor]
        evidence[GOOD] += math.log(likelihood(move, GOOD))
        evidence[EVIL] += math.log(likelihood(move, EVIL))
        lead = evidence[GOOD] - evidence[EVIL]
        if abs(lead) > MAX_EVIDENCE:  # tempered: never certain from moves alone
            evidence[GOOD if lead > 0 else EVIL] -= abs(lead) - MAX_EVIDENCE
        self._posterior = None

    # --- reading --------------------------------------------------------------------------------

    def prior(self, assignment: Sequence[int]) -> float:
        return self._prior.get(tuple(assignment), 0.0)

    def distribution(self) -> dict[tuple[int, ...], float]:
        """The posterior of every possible assignment (sums to 1)."""
        if self._posterior is None:
            logs = {
                a: math.log(p) + sum(self.evidence[q][e] for q, e in enumerate(a))
                for a, p in self._prior.items()
            }
            top = max(logs.values())
            weights = {a: math.exp(v - top) for a, v in logs.items()}
            whole = sum(weights.values())
            self._posterior = {a: w / whole for a, w in weights.items()}
        return self._posterior

    def probability(self, assignment: Sequence[int]) -> float:
        return self.distribution().get(tuple(assignment), 0.0)

    def marginals(self) -> list[float]:
        """P(good) per seat (the seat's own is 0 or 1)."""
        out = [0.0] * self.players
        for a, p in self.distribution().items():
            for q, e in enumerate(a):
                if e == GOOD:
                    out[q] += p
        out[self.seat] = 1.0 if self.own == GOOD else 0.0  # known, not summed up to rounding
        return out

    def sample(self, rng: Rng) -> tuple[int, ...]:
        """An assignment drawn from the belief with ``rng`` (one draw)."""
        point = rng.next64() / 2**64
        dist = self.distribution()
        for a in self._assignments:
            point -= dist[a]
            if point < 0:
                return a
        return self._assignments[-1]  # rounding: the last one

    def as_data(self) -> dict[str, float]:
        """P(good) per seat, rounded: ``{"p1": 1.0, "p2": 0.83, …}`` ("why did it do that?")."""
        return {f"p{q + 1}": round(p, 3) for q, p in enumerate(self.marginals())}


# --- in the search ----------------------------------------------------------------------------


def action_move(seat: int, observation: Observation, action: Action) -> Move | None:
    """The public choice one of ``seat``'s legal actions would show, as :func:`event_move` reads
    the event it makes (None: it shows nothing yet, e.g. the card picked before its target)."""
    verb = action.verb
    if verb == "play" and action.use in ("good", "evil"):
        return _populace(seat, GOOD if action.use == "good" else EVIL, action.code)
    attack = observation.get("attack")
    if verb == "defend" and attack:
        side = GOOD if attack["side"] == "good" else EVIL
        swing = -DEFENCE_WEIGHT * _attack_swing(attack["card"], side)
        return Move(seat, ((swing, 0.0), (0.0, 0.0)))
    if verb != "target":
        return None
    choice = observation.get("choice")
    if observation.get("decision") == "place-seal":
        if action.pos >= 0:  # a replacement or a neutralisation: nothing plain to read
            return None
        return _mirrored(seat, PLACE_SWING * _side_sign(action.side))
    if not choice:
        return None
    use = choice.get("use")
    if use == "attack":
        return _mirrored(seat, _attack_swing(choice["code"], action.side))
    if use in ("heaven", "nether") and action.pos < 0:
        return _mirrored(seat, PLACE_SWING * _side_sign(action.side))
    if use == "neutralise":
        return _mirrored(seat, -PLACE_SWING * _side_sign(action.side))
    return None


class BeliefSearch:
    """The Apokalypse beliefs as the searching player's hook (:class:`~apokalypse.bots.ismcts.
    Beliefs`): events are kept until the first sampled world says the game's settings (player
    count and variants are public), then fed to an :class:`EthosBelief`; each world's other
    ethos is redrawn from it; moves that show the player's own ethos early cost a little."""

    def __init__(self) -> None:
        self.belief: EthosBelief | None = None
        self._early: list[EventView] = []
        # What a watcher who knows nothing but the moves thinks of this player's ethos: the same
        # model run on the player's own moves (an observer's prior is even: the pools are).
        self.exposure = [0.0, 0.0]
        self._attack: ev.Attack | None = None
        self._seat: int | None = None

    def observe(self, events: Sequence[EventView]) -> None:
        if self.belief is None:
            self._early.extend(events)
        else:
            self.belief.observe(events)
        for event in events:
            told = ev.told(event)
            move = event_move(told, self._attack)
            if told["kind"] == "attack":
                self._attack = told["args"]
            if move is not None and move.actor == self._seat:
                self.exposure[GOOD] += math.log(likelihood(move, GOOD))
                self.exposure[EVIL] += math.log(likelihood(move, EVIL))

    def see(self, observation: Observation) -> None:
        if self._seat is None:
            # The first observation names the seat; moves of its seen before it (events before
            # its first decision) are other players' only, so nothing is lost.
            self._seat = observation["seat"]
        if self.belief is not None:
            self.belief.see(observation)

    def world(self, world: GameState, rng: Rng) -> GameState:
        """The sampled world with the others' ethos drawn from the belief. The sampler deals
        ethos independently of the cards (``determinize`` draws it from the pool last), so
        replacing it keeps the world consistent with the seat's view; the world is this
        player's own copy."""
        from apokalypse.games.apokalypse import State

        assert isinstance(world, State)
        belief = self.belief
        if belief is None:
            seat = self._seat
            assert seat is not None  # a search starts with the seat's observation
            balanced = world.config.has(Variant.ETHOS_BALANCED)
            belief = self.belief = EthosBelief(seat, world.n, world.ethos[seat], balanced)
            belief.observe(self._early)
            self._early = []
        ethos = belief.sample(rng)
        if belief.prior(ethos) <= 0 or ethos[belief.seat] != world.ethos[belief.seat]:
            raise AssertionError(f"an ethos assignment outside the pool: {ethos}")
        world.ethos = ethos
        return world

    def root_penalty(self, observation: Observation, action: Action) -> float:
        """What showing ``action`` to the table costs now: :data:`REVEAL_PENALTY` times how far
        it moves a watcher's belief about this player's ethos (either way), times the share of
        the game still to come (horseman 1 next: all of it; the last one next: none)."""
        seat = observation["seat"]
        assert seat is not None  # a seat's own observation: it is asked to decide
        move = action_move(seat, observation, action)
        if move is None:
            return 0.0
        own = GOOD if observation.get("ethos") == "good" else EVIL
        other = EVIL if own == GOOD else GOOD
        before = _share(self.exposure[own], self.exposure[other])
        after = _share(
            self.exposure[own] + math.log(likelihood(move, own)),
            self.exposure[other] + math.log(likelihood(move, other)),
        )
        to_come = (LAST - min(int(observation["horseman"]), LAST)) / (LAST - 1)
        return REVEAL_PENALTY * to_come * abs(after - before)

    def explain(self) -> dict[str, float] | None:
        return None if self.belief is None else self.belief.as_data()


def _share(log_own: float, log_other: float) -> float:
    """P(own | evidence) for an even prior, from the two log-likelihoods."""
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, log_other - log_own))))


# --- the measurement --------------------------------------------------------------------------

SECOND_HORSEMAN = 2


def belief_in_game(players: int, seed: int, bots: str = "heuristic") -> tuple[float, float] | None:
    """One seeded game of ``bots`` at every seat (no variants); an :class:`EthosBelief` for the
    first good seat is fed exactly what that seat sees (its observations when it decides, its
    event views). Returns (the prior of the true assignment, the belief in it) just after the
    second horseman rode, or None without a good seat or a second horseman."""
    from apokalypse.bots import make_bot, seat_seed
    from apokalypse.engine.match import Match

    state = GAME.new_game(GAME.config_from_options(players, [], None), seed)
    truth: tuple[int, ...] = tuple(state.ethos)
    if GOOD not in truth:
        return None
    seat = truth.index(GOOD)
    belief = EthosBelief(seat, players, GOOD, balanced=False)
    seats = {q: make_bot(bots, seat_seed(seed, q), "apokalypse") for q in range(players)}
    match: Match = Match(state, seats)
    belief.observe([e.view(seat) for e in match.start()])
    while not state.is_over:
        if state.to_act == seat:
            belief.see(state.observation(seat))
        _, events = match.play_turn()
        views = [e.view(seat) for e in events]
        belief.observe(views)
        if any(v.kind == "ride" and v.args["number"] == SECOND_HORSEMAN for v in views):
            return belief.prior(truth), belief.probability(truth)
    return None


__all__ = [
    "MAX_EVIDENCE",
    "NOISE",
    "REVEAL_PENALTY",
    "BeliefSearch",
    "EthosBelief",
    "Move",
    "action_move",
    "belief_in_game",
    "deal_prior",
    "event_move",
    "likelihood",
]
