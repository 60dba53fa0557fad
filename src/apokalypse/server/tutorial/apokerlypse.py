"""Apokerlypse's guided game (shorter): its lessons' topics, when each comes due, the coach's
preference among the legal moves, and what the prepared deal must show."""

from __future__ import annotations

from collections.abc import Sequence

from apokalypse.games.apokerlypse.observation import action_parts

from .guide import Guide, Observation, Parts, Walk

TOPICS = ("chips", "discard", "stake", "participate", "scoring", "end")


RANKS = "23456789TJQKA"


def rank(obs: Observation, parts: Parts, due: str | None) -> int:
    verb = parts["verb"]
    if verb == "discard":  # the card that helps the hand least: unpaired, then the lowest
        hand = [str(code) for code in obs.get("hand", [])]
        card = str(parts.get("card", ""))
        paired = sum(1 for code in hand if code[:-1] == card[:-1]) > 1
        return -(20 if paired else 0) - RANKS.find(card[:-1])
    return {"pay": 3, "stand": 2, "allow": 1, "done": 1}.get(str(verb), 0)


def due(obs: Observation, legal: Sequence[Parts], kinds: set[str], seen: list[str]) -> list[str]:
    """The topics that matter now (as the coach's lessons open: :mod:`.tutor`)."""
    decision = obs.get("decision")
    due = {
        "chips": True,
        "discard": decision == "discard",
        "stake": decision == "stake",
        "participate": decision == "participate",
        "scoring": "score" in kinds,
        "end": "result" in obs,
    }
    return [topic for topic in TOPICS if due[topic] and topic not in seen]


def checks(path: Walk) -> list[str]:
    """A short game that starts with the chips and the discard."""
    wrong: list[str] = []
    if not 10 <= path.decisions <= 40:
        wrong.append(f"the learner decides {path.decisions} times")
    if path.topics[:2] != ["chips", "discard"]:
        wrong.append(f"the first lessons are {path.topics[:2]}")
    return wrong


GUIDE = Guide(topics=TOPICS, due=due, rank=rank, parts=action_parts, checks=checks)
