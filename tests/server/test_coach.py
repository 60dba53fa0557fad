"""The coach ("what would the expert do?") on a real server (uvicorn, real WebSockets, the hub
at hand): it advises a seat whose other seats are computers, refuses a table of people who did
not all agree and advises once they did; the advice goes to the asker alone and changes nothing
anybody else is sent; it is bounded (one question in flight per seat, a pace per connection) and
an answer whose decision moved on is dropped. The search itself is checked without a server:
the advice depends on the seat's own knowledge only (two deals the seat cannot tell apart get
the same advice)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from apokalypse.bots.ismcts import Candidate, Explanation
from apokalypse.engine.match import Match
from apokalypse.engine.record import GameRecord
from apokalypse.engine.rng import Rng
from apokalypse.i18n import text
from apokalypse.i18n.texts import texts_for
from apokalypse.server import coach
from apokalypse.server.making import new_game
from apokalypse.server.settings import Settings

from .inprocess import Running, serving, wait_until
from .people import Message
from .people import Person as People

TIMEOUT = 30.0  # every receive and request: a hang guard, on a busy machine too
# The iterations, never the seconds, end these searches (a loaded machine must not cut one short:
# the same question asked twice is checked to get the same advice); the cap in seconds has a test
# of its own.
QUICK = Settings(idle_seconds=3600, coach_iterations=150, coach_seconds=60.0)
MOVES = 20  # a person's decisions at most, for a computer to move between two of them


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    path = tmp_path_factory.mktemp("coach") / "games.sqlite3"
    with serving(f"sqlite:///{path}", QUICK) as running:
        yield running


def create(server: Running, seats: list[str], **body: Any) -> Message:
    request = {"game": "apokalypse", "players": len(seats), "seats": seats, **body}
    response = httpx.post(f"{server.http}/api/games", json=request, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    created: Message = response.json()
    return created


class Person(People):
    """One connection and every message it was sent, and the coach's answers."""

    def deciding(self) -> Message:
        """The next state that asks this seat to decide (or the last one, if it does)."""
        last = next((m for m in reversed(self.seen) if m["type"] == "state"), None)
        if last is not None and last["legal"]:
            return last
        return self.until(lambda m: m["type"] == "state" and bool(m["legal"]), "a decision")

    def play_on(self, state: Message) -> Message:
        """Make the first legal move of ``state``; the next decision of this seat."""
        move = state["observation"]["move"]
        self.send(type="action", action=state["legal"][0]["text"], move=move)
        return self.until(
            lambda m: m["type"] == "state" and bool(m["legal"]) and m["observation"]["move"] > move,
            "the next decision",
        )

    def advice(self) -> Message:
        return self.until(lambda m: m["type"] == "advice", "advice")


def test_the_coach_advises_a_seat_whose_other_seats_are_computers(server: Running) -> None:
    created = create(server, ["human", "heuristic", "medium"], lang="de")
    game_id, token = created["id"], created["seats"][0]["token"]
    ann, watcher = Person(server, game_id, token), Person(server, game_id)
    state = ann.deciding()
    assert state["coach"] == {"available": True, "offered": False, "agreed": False, "reason": None}
    assert watcher.state()["coach"] is None  # a spectator has no coach …
    watcher.send(type="advise")
    assert watcher.refused() == text("server.spectator", "de")  # … and may not ask

    ann.send(type="advise")
    advice = ann.advice()
    assert advice["move"] == state["observation"]["move"]
    legal = [action["text"] for action in state["legal"]]
    candidates = advice["candidates"]
    assert 1 <= len(candidates) <= 3, advice
    for candidate in candidates:
        # worded as the seat's own choices are, in the game's language
        assert candidate["choice"] == state["text"]["choices"][legal.index(candidate["action"])]
        assert 0 < candidate["share"] <= 1
        assert candidate["reason"], candidate
    if len(legal) > 1:
        assert advice["iterations"] == QUICK.coach_iterations
        assert all("von 100" in c["reason"] for c in candidates), candidates
        # In the order the search recommends: the most searched first.
        shares = [c["share"] for c in candidates]
        # (each share is rounded to three places: together they may pass 1 by that much)
        assert shares == sorted(shares, reverse=True)
        assert sum(shares) <= 1.0 + 0.0005 * len(shares)
    ann.send(type="advise")  # asked again: the same advice (the same seed, iterations)
    assert ann.advice()["candidates"] == candidates
    # the learner still makes the move: the advised one is accepted like any other
    ann.send(type="action", action=candidates[0]["action"], move=advice["move"])
    ann.until(lambda m: m["type"] == "state" and m["observation"]["move"] > advice["move"], "move")
    for person in (ann, watcher):
        person.close()


def test_the_coach_refuses_two_people_who_did_not_agree(server: Running) -> None:
    created = create(server, ["human", "human"])
    game_id = created["id"]
    ann, bob = (Person(server, game_id, seat["token"]) for seat in created["seats"])
    off = text("server.coach-not-offered", "en")
    for person in (ann, bob):
        view = person.state()["coach"]
        assert view == {"available": False, "offered": False, "agreed": False, "reason": off}
    decider = ann if ann.seen[-1]["legal"] else bob
    decider.send(type="advise")
    assert decider.refused() == off
    decider.send(type="coach", agree=True)  # nothing to agree to: the game offers no coach
    assert decider.refused() == off
    for person in (ann, bob):
        person.close()


def test_the_coach_needs_every_person_to_agree_and_then_advises(server: Running) -> None:
    created = create(server, ["human", "human", "medium"], coach=True, lang="en")
    game_id = created["id"]
    ann, bob = (Person(server, game_id, created["seats"][q]["token"]) for q in (0, 1))
    for person in (ann, bob):
        view = person.state()["coach"]
        assert view["offered"] and not view["agreed"] and not view["available"]
        assert view["reason"] == text("server.coach-agree-first", "en")

    ann.send(type="coach", agree=True)
    mine = ann.until(lambda m: m["type"] == "state" and m["coach"]["agreed"], "Ann agreed")
    assert not mine["coach"]["available"]
    assert mine["coach"]["reason"] == "Another person at this table has not agreed to the coach."
    deciding = wait_until(
        lambda: server.call(lambda: _to_act(server, game_id)) is not None, "a turn"
    )
    assert deciding
    seat = server.call(lambda: _to_act(server, game_id))
    asker = ann if seat == 0 else bob
    asker.send(type="advise")
    expected = "Another person at this table has not agreed to the coach."
    if asker is bob:
        expected = text("server.coach-agree-first", "en")
    assert asker.refused() == expected

    bob.send(type="coach", agree=True)
    for person in (ann, bob):
        person.until(lambda m: m["type"] == "state" and m["coach"]["available"], "available")
    asker.deciding()
    asker.send(type="advise")
    assert asker.advice()["candidates"]

    # the agreement is kept with the game: a rebuilt game knows it
    stored = server.call(lambda: server.hub.store.table(game_id).coached)
    assert stored == {0, 1}
    for person in (ann, bob):
        person.close()


def _to_act(server: Running, game_id: str) -> int | None:
    room = server.hub.rooms.get(game_id)
    if room is None or room.live.computer_to_act() or room.live.in_window():
        return None
    return int(room.live.state.to_act)


def test_the_advice_goes_to_the_asker_alone_and_changes_nothing_else(server: Running) -> None:
    """Everybody else is sent exactly what they would be sent had nobody asked: nothing at all
    between the question and the asker's next line of talk (which everybody reads)."""
    created = create(server, ["human", "human", "medium"], coach=True)
    game_id = created["id"]
    ann, bob = (Person(server, game_id, created["seats"][q]["token"]) for q in (0, 1))
    watcher = Person(server, game_id)
    for person in (ann, bob):
        person.state()
        person.send(type="coach", agree=True)
    for person in (ann, bob):
        person.until(lambda m: m["type"] == "state" and m["coach"]["available"], "available")
    wait_until(lambda: server.call(lambda: _to_act(server, game_id)) is not None, "a turn")
    seat = server.call(lambda: _to_act(server, game_id))
    asker, other = (ann, bob) if seat == 0 else (bob, ann)
    asker.deciding()
    asker.send(type="say", text="about to ask")
    for person in (other, watcher):  # everything sent before the question read
        person.until(lambda m: _said(m, "about to ask"), "the first line")
        person.seen.clear()
    asker.send(type="advise")
    asker.advice()
    asker.send(type="say", text="done asking")
    for person in (other, watcher):
        heard = person.until(lambda m: _said(m, "done asking"), "the second line")
        between = person.seen[: person.seen.index(heard)]
        assert all(m["type"] != "advice" for m in person.seen), "advice to somebody else"
        assert not [m for m in between if m["type"] == "state"], between
    for person in (ann, bob, watcher):
        person.close()


def _said(message: Message, line: str) -> bool:
    return message["type"] == "talk" and any(x["text"] == line for x in message["lines"])


def test_one_question_at_a_time_a_pace_and_a_stale_answer_dropped(server: Running) -> None:
    slow = replace(QUICK, coach_iterations=100_000, coach_seconds=0.6, coach_burst=3)
    server.call(lambda: setattr(server.hub, "settings", slow))
    clock = server.call(lambda: server.hub.clock)
    server.still_clock()  # the pace counts by it: no question comes back meanwhile
    try:
        created = create(server, ["human", "heuristic"])
        ann = Person(server, created["id"], created["seats"][0]["token"])
        state = ann.deciding()
        while len(state["legal"]) < 2:  # a question worth thinking about
            state = ann.play_on(state)
        move = state["observation"]["move"]
        ann.send(type="advise")
        ann.send(type="advise")  # while the first is thought about
        assert ann.refused() == text("server.coach-busy", "en")
        # the decision moves on before the expert answers: its answer is dropped
        ann.send(type="action", action=state["legal"][0]["text"], move=move)
        ann.until(lambda m: m["type"] == "state" and m["observation"]["move"] > move, "moved on")
        wait_until(
            lambda: server.call(lambda: not server.hub.rooms[created["id"]].advising),
            "the stale question done",
        )
        state = ann.deciding()
        ann.send(type="advise")  # a busy one is not counted: the second
        fresh = ann.advice()
        assert fresh["move"] == state["observation"]["move"]
        assert [m for m in ann.seen if m["type"] == "advice"] == [fresh], "a stale answer sent"
        ann.send(type="advise")  # the third
        assert ann.advice()["move"] == fresh["move"]
        ann.send(type="advise")  # the pace: three at once, then one every six seconds
        reason = ann.refused()
        assert reason.startswith("Not so fast"), reason
        ann.close()
    finally:
        server.call(lambda: setattr(server.hub, "settings", QUICK))
        server.call(lambda: setattr(server.hub, "clock", clock))


def test_the_coach_thinks_apart_and_never_keeps_a_computer_waiting(tmp_path: Path) -> None:
    """While the expert thinks long about one person's question, a computer's move in another
    game comes at once (the coach has its own pool: ten questions queued ahead of a computer
    once kept its people waiting seconds); and the questions in flight are bounded per client
    address, the next refused with a word to ask again."""
    # Long questions (the iterations never end one; the seconds do), one per address in flight.
    slow = replace(QUICK, coach_iterations=10_000_000, coach_seconds=5.0, coach_per_address=1)
    with serving(f"sqlite:///{tmp_path / 'games.sqlite3'}", slow) as running:
        asked = create(running, ["human", "heuristic"])
        ann = Person(running, asked["id"], asked["seats"][0]["token"])
        state = ann.deciding()
        while len(state["legal"]) < 2:  # a question worth thinking about
            state = ann.play_on(state)
        ann.send(type="advise")
        wait_until(
            lambda: running.call(lambda: bool(running.hub.rooms[asked["id"]].advising)),
            "the expert thinking",
        )
        elsewhere = create(running, ["human", "heuristic", "heuristic"])
        bob = Person(running, elsewhere["id"], elsewhere["seats"][0]["token"])
        turn = bob.deciding()
        for _ in range(MOVES):  # Bob plays on until the computers moved between his decisions
            move = turn["observation"]["move"]
            turn = bob.play_on(turn)
            if turn["observation"]["move"] > move + 1:
                break
        else:
            pytest.fail(f"the computers did not move within {MOVES} of Bob's decisions")
        # … and it is Bob's turn again while the expert still thinks
        thinking = running.call(lambda: bool(running.hub.rooms[asked["id"]].advising))
        assert thinking, "the computer's move waited for the coach"
        bob.send(type="advise")  # from the same address while Ann's question is thought about
        assert bob.refused() == text("server.coach-full", "en")
        assert ann.advice()["move"] == state["observation"]["move"]  # Ann's answer still comes
        for person in (ann, bob):
            person.close()


# -- the search: the seat's own knowledge only ---------------------------------------------------


def _asked(players: int) -> tuple[GameRecord, Match]:
    """A game at its first person's decision with a few choices, a few moves in, before the
    seat traces a card it gave or lost (perfect recall keeps it in the other hand): a redrawn
    world carries the true deal's traces, which name physical cards, so it would not be a deal
    the seat could be in. A deal that traces one early is played no further: another is dealt."""
    for _ in range(50):
        new = new_game("apokalypse", players, ["human"] + ["medium"] * (players - 1), [], "en")
        match: Match = Match(new.state, new.players)
        match.start()
        rng = Rng(7)
        while not _traced(match.state):
            while not match.state.is_over and match.state.to_act != 0:
                match.play_turn()
            if match.state.is_over or _traced(match.state):
                break
            legal = match.state.legal_actions()
            if len(match.actions) > 6 and len(legal) > 2:
                return new.record, match
            match.apply(legal[rng.below(len(legal))])
    raise AssertionError("no deal of 50 came to a question without a trace")


def _traced(state: Any) -> bool:
    """Whether the first seat traces a card it gave or lost (Apokalypse's ``seat_traces``)."""
    return bool(state.seat_traces[0])


def test_the_advice_depends_on_what_the_seat_knows_not_on_the_hidden_cards() -> None:
    """Two deals the seat cannot tell apart (the true one, and one redrawn by the seat's own
    sampler: other hands and the decks elsewhere) get the same advice."""
    record, match = _asked(3)
    question = coach.Question(
        record, tuple(match.actions), 0, match.state.move, (), ("human", "medium", "medium")
    )
    budgets = coach.Budgets(200, 60.0)
    state, told = coach.think(question, budgets)
    other = match.state.determinize(0, Rng(99))  # the same view, other hidden cards
    assert other.observation(0) == match.state.observation(0)
    assert _hidden(other) != _hidden(match.state), "the redrawn deal is not another deal"
    replayed, player = coach.recall(question, budgets)
    replayed.state = other  # as if the cards had been dealt so
    again = coach.search(replayed, player)
    assert again.candidates == told.candidates and again.chosen == told.chosen
    assert again.iterations == told.iterations == 200
    texts = texts_for(record.game, record.config, "en")
    worded = coach.advice(question, state, told, texts, "en")
    most = max(told.candidates, key=lambda c: (c.visits, c.mean))
    assert worded["candidates"][0]["action"] == most.action


def test_the_advice_lists_the_moves_in_the_order_the_search_recommends() -> None:
    """The expert's own pick, anchored to its rule of thumb, may be a move its search tried
    less and found no better: the list is the search's order all the same (the most tried first,
    the better outlook first among moves tried alike), never a weaker move above a stronger one;
    each outlook is told in plain words as well as a number."""
    record, match = _asked(3)
    question = coach.Question(
        record, tuple(match.actions), 0, match.state.move, (), ("human", "medium", "medium")
    )
    legal = [str(action) for action in match.state.legal_actions()]
    assert len(legal) >= 3
    weak, strong, tied = legal[:3]
    told = Explanation(
        infoset="",
        chosen=weak,  # the anchor's pick stood
        iterations=100,
        seconds=0.1,
        candidates=(
            Candidate(weak, visits=25, available=100, mean=0.24),
            Candidate(tied, visits=42, available=100, mean=0.27),
            Candidate(strong, visits=42, available=100, mean=0.81),
        ),
        anchor=weak,
    )
    texts = texts_for(record.game, record.config, "en")
    worded = coach.advice(question, match.state, told, texts, "en")
    assert [c["action"] for c in worded["candidates"]] == [strong, tied, weak]
    assert [c["share"] for c in worded["candidates"]] == [0.42, 0.42, 0.25]
    reasons = [c["reason"] for c in worded["candidates"]]
    assert reasons[0].startswith("After this move your chances look very good: 81 of 100"), reasons
    assert reasons[1].startswith("After this move your chances look poor: 27 of 100"), reasons
    german = coach.advice(
        question, match.state, told, texts_for(record.game, record.config, "de"), "de"
    )
    assert german["candidates"][0]["reason"].startswith(
        "Nach diesem Zug stehen deine Chancen sehr gut"
    )


def _hidden(state: Any) -> object:
    """Where the cards the first seat does not see lie (other hands, the decks)."""
    return [list(hand) for hand in state.hands[1:]], [list(deck) for deck in state.own_decks()]


def test_what_a_move_changes_in_the_forecast_is_what_the_true_table_would_show() -> None:
    """The forecast line is worked out on a world drawn from the seat's knowledge; for every
    move it speaks of, the true table after that move forecasts the same deaths."""
    new = new_game("apokalypse", 3, ["human", "medium", "medium"], [], "en")
    match: Match = Match(new.state, new.players)
    match.start()
    texts = texts_for("apokalypse", new.record.config, "en")
    rng, told = Rng(3), 0
    while not match.state.is_over and told < 5:
        while not match.state.is_over and match.state.to_act != 0:
            match.play_turn()
        if match.state.is_over:
            break
        legal = match.state.legal_actions()
        seen = coach._Forecasts(match.state, 0, texts)
        for action in legal:
            change = seen.change(action)
            if change is None:
                continue
            told += 1
            truth = match.state.clone()
            truth.apply(action)
            public: Any = texts.forecast(truth.observation(None))
            mine = next(d for d in public.displays if d.seat == 0)
            assert change[1] == mine.next.good.dead + mine.next.evil.dead, action
        match.apply(legal[rng.below(len(legal))])
    assert told, "no move changed the forecast at once: nothing was checked"
