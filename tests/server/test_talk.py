"""Names and table talk on the real server (``apokalypse serve``, a WebSocket client per person):
a name chosen reaches every connection, the log and the summary; a line reaches whoever may read
it; the spectators' channel never reaches a player while the game runs, and does once it is
over; what is refused says why and changes nothing; a reconnection is sent the history."""

from __future__ import annotations

import time

import httpx

from apokalypse.i18n import text
from tests.helpers import create

from .people import Message
from .people import Person as People
from .served import TIMEOUT, Server, over, play


class Person(People):
    """One connection and every message it was sent, and the talk it heard."""

    def hears(self, text: str) -> Message:
        """The talk line saying ``text``, once it arrives."""
        talk = self.until(lambda m: m["type"] == "talk" and said(m, text), f"line {text!r}")
        return next(line for line in talk["lines"] if line["text"] == text)

    def lines(self) -> list[Message]:
        return [line for m in self.seen if m["type"] == "talk" for line in m["lines"]]


def logs(messages: list[Message]) -> list[str]:
    return [line for m in messages if m["type"] == "state" for line in m["text"]["log"]]


def said(message: Message, text: str) -> bool:
    return any(line["text"] == text for line in message["lines"])


def test_a_chosen_name_reaches_every_connection_the_log_and_the_summary(server: Server) -> None:
    created = create(server, seats=["human", "medium"])
    game_id, token = created["id"], created["seats"][0]["token"]
    ann, watcher = Person(server, game_id, token), Person(server, game_id)
    state = ann.state()
    assert state["names"] == ["p1 (you)", "Medium (computer)"]  # a computer by its level
    watcher.state()

    for bad, reason in [
        ("  ", "A name needs at least one character."),
        ("x" * 25, "A name has at most 24 characters."),
        ("Ann\u0007", "A name cannot hold control characters."),
        ("p2\u200b", text("server.name-invisible", "en")),  # would draw as a second "p2"
        ("Medium (computer)", text("server.name-reserved", "en", name="Medium (computer)")),
    ]:
        ann.send(type="name", name=bad)
        assert ann.refused() == reason
    ann.send(type="name", name=" <img src=x onerror=1> ")
    mine = ann.until(lambda m: m["type"] == "state" and m["seats"][0]["name"], "the name")
    assert mine["names"][0] == "<img src=x onerror=1> (you)"  # as text, trimmed
    theirs = watcher.until(lambda m: m["type"] == "state" and m["seats"][0]["name"], "name")
    assert theirs["names"] == ["<img src=x onerror=1>", "Medium (computer)"]
    summary = httpx.get(f"{server.http}/api/games?ids={game_id}", timeout=TIMEOUT).json()
    seats = summary["games"][0]["seats"]
    assert [seat["name"] for seat in seats] == ["<img src=x onerror=1>", None]

    ann.send(type="name", name="Ann")
    state = ann.until(lambda m: m["type"] == "state" and m["seats"][0]["name"] == "Ann", "Ann")
    if not state["legal"]:
        state = ann.until(lambda m: m["type"] == "state" and bool(m["legal"]), "a decision")
    while not any("Ann (you)" in line for line in logs(ann.seen)):
        state = play(ann.ws, state, 1, ann.seen)  # some first decisions are logged for nobody
    logged = watcher.until(
        lambda m: m["type"] == "state" and any("Ann" in line for line in m["text"]["log"]),
        "a log line naming Ann",
    )
    assert not any("p1" in line for line in logged["text"]["log"]), logged
    for person in (ann, watcher):
        person.close()


def test_talk_reaches_whoever_may_read_it_and_is_bounded(server: Server) -> None:
    created = create(server, seats=["human", "human"])
    game_id = created["id"]
    ann, bob = (Person(server, game_id, seat["token"]) for seat in created["seats"])
    watcher = Person(server, game_id)
    for person in (ann, bob, watcher):
        person.state()
    ann.send(type="name", name="Ann")
    watcher.send(type="name", name="Eve")

    ann.send(type="say", text="  Who attacked me?  ")
    line = bob.hears("Who attacked me?")
    assert line["channel"] == "players" and line["seat"] == 0 and line["name"] == "Ann"
    assert line["n"] == 1 and abs(line["at"] / 1000 - time.time()) < 60
    assert watcher.hears("Who attacked me?") == line

    # The spectators' channel: other spectators read it, the players do not. Each connection
    # is sent its messages in order, so a player's next line arriving first means the
    # spectator's line, said before it, was never sent to them.
    other = Person(server, game_id)
    other.state()
    other.hears("Who attacked me?")  # the history, sent on joining
    watcher.send(type="say", text="Ann holds the fourth horseman")
    whisper = other.hears("Ann holds the fourth horseman")
    assert whisper["channel"] == "spectators" and whisper["seat"] is None
    assert whisper["name"] == "Eve" and whisper["n"] == 1  # numbered in its own channel
    bob.send(type="say", text="Well played")
    for person in (ann, bob):
        person.hears("Well played")
        assert all(line["channel"] == "players" for line in person.lines())
    assert watcher.hears("Well played")["n"] == 2

    for bad, reason in [
        ("", "Say something: the line is empty."),
        ("y" * 301, "A line has at most 300 characters."),
        ("one\ntwo", "A line of talk is one line, without control characters."),
    ]:
        bob.send(type="say", text=bad)
        assert bob.refused() == reason
    # A line a second on average, five at once (refusals take none): of twelve lines said at
    # once the first five go through and the rest only as fast as the pace refills, so some are
    # refused however long the server takes over them (it would need seven seconds for all).
    said_at_once = 12
    for k in range(said_at_once):
        other.send(type="say", text=f"line {k}")
    other.send(type="say", text="")  # refused at once, for itself: the twelve were taken first
    assert other.refused() == "Not so fast: wait a moment before your next line."
    other.until(lambda m: m.get("reason") == "Say something: the line is empty.", "the last")
    paced = [m for m in other.seen if m["type"] == "refused" and m["reason"].startswith("Not so")]
    for k in range(5):
        watcher.hears(f"line {k}")
    bob.send(type="say", text="Thanks!")
    watcher.hears("Thanks!")
    heard = [line for line in watcher.lines() if line["text"].startswith("line ")]
    assert 5 <= len(heard) == said_at_once - len(paced) < said_at_once, (heard, paced)

    # A reconnection is sent the history it may read, and no more.
    ann.close()
    again = Person(server, game_id, created["seats"][0]["token"])
    again.state()
    history = again.until(lambda m: m["type"] == "talk", "the history")
    assert [line["text"] for line in history["lines"]] == [
        "Who attacked me?",
        "Well played",
        "Thanks!",
    ]
    late = Person(server, game_id)  # a spectator's: both channels, in the order said
    late.state()
    lines = late.until(lambda m: m["type"] == "talk", "the history")["lines"]
    assert [line["text"] for line in lines] == [
        "Who attacked me?",
        "Ann holds the fourth horseman",
        "Well played",
        *(f"line {k}" for k in range(5)),
        "Thanks!",
    ]
    late.close()
    for person in (again, bob, watcher, other):
        person.close()


def test_the_spectators_channel_reaches_the_players_once_the_game_is_over(server: Server) -> None:
    created = create(server, seats=["human", "heuristic"])
    game_id, token = created["id"], created["seats"][0]["token"]
    ann, watcher = Person(server, game_id, token), Person(server, game_id)
    state = ann.state()
    watcher.state()
    watcher.send(type="say", text="psst")
    watcher.hears("psst")
    while not over(state):
        if not state["legal"]:
            state = ann.state()
            continue
        state = play(ann.ws, state, 1, ann.seen)
        running = [m for m in ann.seen if m["type"] == "talk"]
        assert not running, ("a spectator's line reached a player while the game ran", running)
    line = ann.hears("psst")  # the game is over: the spectators' channel is everybody's
    assert line["channel"] == "spectators" and line["name"] == "Spectator"
    ann.close()
    late = Person(server, game_id, token)  # and it is in the history from now on
    late.state()
    late.hears("psst")
    for person in (late, watcher):
        person.close()
