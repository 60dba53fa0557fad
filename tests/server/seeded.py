"""A game put into a running server's store at an exact moment, as the server itself would have
made and played it: the browser tests start from there (near the final reveal, a ride, a
lesson …) instead of clicking their way there through a random deal.

Why it is exact. A stored game is its record: the game, its settings, its seed and the actions
in order (``server/store.py``); everything else (every hand, the draw piles, each computer
player's choices) follows from those deterministically. A game made here goes the server's own
way, through the server's own code: :func:`making.new_game` with a ``seed`` (a prepared deal, as
the guided games have), :func:`making.create` into the server's store, each person's action
through :meth:`LiveGame.play`, the computers' turns through :meth:`LiveGame.computer_step` (the
players :func:`making.computer_players` seats, seeded from the game's seed and their seat, as the
hub's pool plays them) and an answer a person cannot but give through
:meth:`LiveGame.forced_answer`, as the hub gives it for them. The server process never held this
game: on its first connection it rebuilds it from the store (:func:`making.rebuild`: the record
replayed, its computer players asked again at their seats, ``Match.catch_up``), as after a
restart, and goes on exactly as if it had played every move itself. The same seed and the same
people's choices (:class:`People`) make the same game on every run, move for move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from apokalypse.engine.protocol import ActionValue
from apokalypse.server import making
from apokalypse.server.games import LiveGame
from apokalypse.server.store import Store
from apokalypse.server.tutorial import GUIDES, LEARNER, CoachModel, newcomer, tutorial_game

MOST = 20_000  # actions at most: a game that never reaches its moment fails, never hangs
PLANES = ("heaven", "earth", "nether")
SIDES = ("good", "evil")
QUIET = ("pass", "decline", "stand", "pay")  # what ``choose(page, prefer_pass=True)`` prefers
Parts = Mapping[str, Any]
Until = Callable[[LiveGame], bool]  # the moment: checked whenever a person is asked


class People:
    """How the people at a seeded table decide: :meth:`choose` at each of their decisions (not
    the answers the server gives for them); :meth:`look` sees every state on the way."""

    def look(self, live: LiveGame) -> None:
        return None

    def choose(self, live: LiveGame) -> ActionValue:
        raise NotImplementedError

    @staticmethod
    def offered(live: LiveGame) -> tuple[list[ActionValue], list[Parts]]:
        """The deciding seat's legal actions, and their parts as the page is sent them."""
        legal: list[ActionValue] = list(live.state.legal_actions())
        return legal, [GUIDES[live.record.game].parts(action) for action in legal]


class Clicks(People):
    """``click_decision``'s preference (``tests/browser/playing.py``), from the parts the page
    lays out (``web/src/apokalypse/moves.ts``) in the page's order: a lit place on a display
    (seat by seat; Heaven, Earth, the Netherworld; good, then evil; its cards, then its free
    end), else a lit hand card (its first use), else a lit player, else the first choice that
    is not passing. (Apokerlypse lights hand cards only.) The browser's games of the same seeds
    were checked to be these, action for action."""

    def choose(self, live: LiveGame) -> ActionValue:
        legal, parts = self.offered(live)
        obs = live.state.observation(live.state.to_act)
        if live.record.game == "apokalypse":
            return legal[_clicked_apokalypse(obs, parts)]
        for code in obs.get("hand", []):  # Apokerlypse: a hand card with a use, its first one
            for index, part in enumerate(parts):
                if part.get("card") == code:
                    return legal[index]
        return legal[_first_choice(parts, quiet=False)]


class Passes(People):
    """``choose(page, prefer_pass=True)``: passing (or declining, standing, paying) where it is
    offered, else the first choice."""

    def choose(self, live: LiveGame) -> ActionValue:
        legal, parts = self.offered(live)
        return legal[_first_choice(parts, quiet=True)]


class Coached(People):
    """The learner of a guided game following the coach: the move the coach suggests
    (:func:`newcomer`), its lessons opening as the server's coach opens them
    (:class:`CoachModel`, in every state); ``opened``: each lesson's topic, by how many of the
    learner's decisions were taken when it opened."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.coach = CoachModel(GUIDES[game])
        self.kinds: set[str] = set()
        self.decided = 0
        self.opened: dict[str, int] = {}
        self._told = 0  # events of the game's log looked at

    @property
    def topics(self) -> list[str]:
        """The lessons opened so far, in order (what the server sends the learner)."""
        return self.coach.topics

    def look(self, live: LiveGame) -> None:
        self.kinds.update(event.kind for event in live.log[self._told :])
        self._told = len(live.log)
        state = live.state
        mine = not state.is_over and state.to_act == LEARNER
        parts = self.offered(live)[1] if mine else []
        self.coach.look(state.observation(LEARNER), parts, self.kinds)
        for topic in self.coach.topics:
            self.opened.setdefault(topic, self.decided)

    def choose(self, live: LiveGame) -> ActionValue:
        legal, parts = self.offered(live)
        obs = live.state.observation(LEARNER)
        self.decided += 1
        return legal[newcomer(self.game, obs, parts, self.coach.current)]


def _first_choice(parts: Sequence[Parts], quiet: bool) -> int:
    """``choose``'s pick among the choices (in the server's order): ``quiet`` prefers passing."""
    texts = [str(part["text"]) for part in parts]
    if quiet:
        preferred = [i for i, text in enumerate(texts) if text in QUIET]
    else:
        preferred = [i for i, text in enumerate(texts) if text not in ("pass", "decline")]
    return (preferred or [0])[0]


def _clicked_apokalypse(obs: Mapping[str, Any], parts: Sequence[Parts]) -> int:
    """The legal action (its index) ``click_decision`` clicks on an Apokalypse table."""
    attacking = (obs.get("choice") or {}).get("use") == "attack"
    displays = obs["displays"]
    places: dict[tuple[int, str, str, int], int] = {}  # pos -1: a row's free end
    hand: dict[str, int] = {}
    players: dict[int, int] = {}
    for index, part in enumerate(parts):
        seat, side = part.get("seat"), part.get("side")
        plane, pos = part.get("plane"), part.get("pos")
        if seat is not None and side is not None:
            if plane is None:  # a side: an attack hits its outermost populace, else its Earth
                earth = displays[seat][side]["earth"]
                key = (seat, side, "earth", len(earth) - 1 if attacking and earth else -1)
            else:
                key = (seat, side, plane, -1 if pos is None else pos)
            places[key] = index  # one action per place (the page keeps the last)
        elif seat is not None:
            players[seat] = index
        elif part.get("card") is not None:
            hand.setdefault(str(part["card"]), index)
    for seat, display in enumerate(displays):
        for plane in PLANES:
            for side in SIDES:
                for pos in [*range(len(display[side][plane])), -1]:
                    if (seat, side, plane, pos) in places:
                        return places[(seat, side, plane, pos)]
    for code in obs.get("hand", []):
        if code in hand:
            return hand[code]
    if players:
        return players[min(players)]
    return _first_choice(parts, quiet=False)


@dataclass
class Seeded:
    """A seeded game in the server's store: its id, its people's seat keys and the game as it
    stands (``live``: as the server will rebuild it), after ``decisions`` of the people's own."""

    id: str
    tokens: dict[int, str]
    live: LiveGame
    decisions: int

    @property
    def created(self) -> dict[str, Any]:
        """As ``POST /api/games`` answers (what ``seat_url`` and the tests' helpers take)."""
        seats = [
            {
                "seat": seat,
                "kind": kind,
                **({"token": self.tokens[seat]} if seat in self.tokens else {}),
            }
            for seat, kind in enumerate(self.live.kinds)
        ]
        return {"id": self.id, "seats": seats}


def seeded(
    where: Store | str,
    game: str,
    seats: Sequence[str],
    seed: int,
    *,
    lang: str = "en",
    variants: Sequence[str] = (),
    people: People | None = None,
    until: Until | None = None,
    decisions: int = 0,
) -> Seeded:
    """A game of ``game`` dealt from ``seed`` with these ``seats``, stored in ``where`` (a
    running server's store, or its database URL) and played on (:func:`played`)."""
    new = making.new_game(game, len(seats), seats, variants, lang, seed=seed)
    return played(where, new, people or Clicks(), until, decisions)


def guided(
    where: Store | str,
    game: str,
    lang: str,
    learner: Coached,
    *,
    until: Until | None = None,
    decisions: int = 0,
) -> Seeded:
    """The guided game of ``game`` (its prepared deal, as ``POST /api/tutorial`` makes it),
    stored in ``where`` and played on (:func:`played`) by the ``learner`` following the coach."""
    return played(where, tutorial_game(game, lang), learner, until, decisions)


def played(
    where: Store | str, new: making.NewGame, people: People, until: Until | None, decisions: int
) -> Seeded:
    """``new`` stored in ``where`` and played on by ``people`` and the computers until it ends,
    or until a person is asked and ``until`` holds (without it: until a person is asked after
    ``decisions`` decisions of the people's own); the server's answers for them given first."""
    store = Store.open(where) if isinstance(where, str) else where
    try:
        live = making.create(store, new)
        taken = 0
        for _ in range(MOST):
            people.look(live)
            if live.computer_step(store):  # the computers' turns, as the hub's pool plays them
                continue
            stop = until(live) if until is not None else taken >= decisions and asked(live)
            if live.state.is_over or stop:
                return Seeded(live.id, dict(new.tokens), live, taken)
            forced = live.forced_answer()  # the server's answer for a person, as it gives it
            if forced is None:
                forced, taken = people.choose(live), taken + 1
            live.play(store, forced)
        raise AssertionError(f"game {live.id} ({new.record.game}) never reached its moment")
    finally:
        if isinstance(where, str):
            store.engine.dispose()


def asked(live: LiveGame) -> bool:
    """Whether a person is asked to decide now (not an answer the server gives for them)."""
    return not live.state.is_over and live.forced_answer() is None


def horseman_near(number: int, cards: int) -> Until:
    """A person decides with horseman ``number`` next to ride and at most ``cards`` cards above
    it in a draw pile (Apokalypse; Death is the fourth)."""

    def near(live: LiveGame) -> bool:
        public = live.state.observation(None)
        left = min(deck["above_horseman"] for deck in public["decks"])
        return asked(live) and public["horseman"] == number and left <= cards

    return near
