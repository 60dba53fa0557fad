"""Apokalypse's guided game: its lessons' topics, when each comes due, the coach's preference
among the legal moves, and what the prepared deal must show."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from apokalypse.games.apokalypse.cards import deck_kinds, default_deck_text
from apokalypse.games.apokalypse.observation import action_parts

from .guide import Guide, Observation, Parts, Walk

TOPICS = (
    "ethos",
    "good-populace",
    "protection",
    "evil-populace",
    "forecast",
    "ride",
    "attack",
    "pass",
    "death",
    "win",
)


def rank(obs: Observation, parts: Parts, due: str | None) -> int:
    me = obs["seat"]
    verb = parts["verb"]
    if verb == "play":
        use = parts.get("use")
        populace = str(parts.get("card", "")) in _backs("B")
        if use == "evil" and populace:
            return 10 if due == "evil-populace" else -1  # a good player lays evil only to learn
        if use in ("heaven", "nether") and not _own_open(obs, str(use)):
            return 1  # protection is worth most where one of my own populaces lacks it
        return {"heaven": 6, "good": 5, "attack": 4, "nether": 3, "neutralise": 2}.get(str(use), -1)
    if verb in ("target", "to"):
        score = 0
        attack = obs.get("choice", {}).get("use") == "attack"
        own = parts.get("seat") == me
        score += (0 if own else 4) if attack else (4 if own else 0)
        score += 2 if "pos" not in parts else 0  # add rather than replace
        score += 1 if parts.get("side") == ("evil" if attack else "good") else 0
        return score
    if verb == "defend":
        attack = obs.get("attack")
        return 5 if attack is not None and attack.get("seat") == me else -1
    return 0  # pass, decline, give, steal: the first the server lists


def _own_open(obs: Observation, row: str) -> bool:
    """Whether my own display has a populace without a card in ``row`` (Heaven: the good side)."""
    own = obs["displays"][obs["seat"]]
    if row == "heaven":
        return len(own["good"]["earth"]) > len(own["good"]["heaven"])
    return any(len(own[side]["earth"]) > len(own[side]["nether"]) for side in ("good", "evil"))


@cache
def _backs(back: str) -> frozenset[str]:
    """The codes of ``back`` cards (B: population cards; any of them can be laid as a populace)."""
    kinds = deck_kinds(default_deck_text())
    return frozenset(code for code, kind in kinds.items() if kind.back == back)


def due(obs: Observation, legal: Sequence[Parts], kinds: set[str], seen: list[str]) -> list[str]:
    """The topics that matter now (as the coach's lessons open: :mod:`.tutor`)."""
    me = obs["seat"]
    plays = {(p.get("use"), str(p.get("card", "")) in _backs("B")) for p in legal}
    own = obs["displays"][me]
    populaces = len(own["good"]["earth"]) + len(own["evil"]["earth"])
    near = min(deck["above_horseman"] for deck in obs["decks"]) <= 8
    due = {
        "ethos": True,
        "good-populace": ("good", True) in plays or "gift" in kinds,
        "protection": ("heaven", False) in plays or ("heaven", True) in plays,
        "evil-populace": (("evil", True) in plays and "good-populace" in seen and populaces > 0)
        or "steal" in kinds,
        "forecast": (populaces > 0 and (obs["round"] >= 2 or near)) or "ride" in kinds,
        "ride": "ride" in kinds,
        "attack": obs.get("attack") is not None or ("attack", False) in plays,
        "pass": "pass" in kinds or "round-end" in kinds,
        "death": obs["horseman"] >= 4,
        "win": "result" in obs,
    }
    return [topic for topic in TOPICS if due[topic] and topic not in seen]


def checks(path: Walk) -> list[str]:
    """The learner is good, starts with a good populace and meets protection early, a horseman
    rides in the first three rounds, the game has a sensible length, and it ends the usual way."""
    wrong: list[str] = []
    if path.ethos != "good":
        wrong.append(f"the learner's ethos is {path.ethos}")
    if path.topics[:2] != ["ethos", "good-populace"] or "protection" not in path.topics[:4]:
        wrong.append(f"the first lessons are {path.topics[:4]}")
    if path.first_ride_round is None or path.first_ride_round > 3:
        wrong.append(f"the first horseman rides in round {path.first_ride_round}")
    if not 30 <= path.decisions <= 90:
        wrong.append(f"the learner decides {path.decisions} times")
    # the first game should end the usual way, the good together against an evil player
    # (R-END-4), not in the special case of one shared ethos (R-END-6); and a win with
    # points of one's own below zero is right but a puzzling first lesson in who wins
    if path.case != "good":
        wrong.append(f"the game ends as {path.case!r}, not as a win of the good (R-END-4)")
    if path.points is None or path.points <= 0:
        wrong.append(f"the learner ends with {path.points} points")
    return wrong


GUIDE = Guide(topics=TOPICS, due=due, rank=rank, parts=action_parts, checks=checks)
