""" "Why did it do that?" in the terminal game: each computer move is kept with its searching
player's explanation, and ``why`` / ``why <move>`` show the candidates (visits, availability,
values) and the ethos belief, only when the asker may know them (the game is over, or no person
plays); otherwise one line refuses and says when it becomes available."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from rich.console import Console

from apokalypse.bots import make_bot
from apokalypse.bots.apokerlypse.evaluate import evaluate as poker_evaluate
from apokalypse.bots.ismcts import Explanation, ISMCTSPlayer
from apokalypse.cli.session import Session
from apokalypse.cli.ui.why import Decision, may_explain, why_lines
from apokalypse.engine.record import GameRecord
from apokalypse.engine.registry import get_game
from tests import commands

CANDIDATES = "Its best candidates:"
REFUSED = "type why once the game is over"


def searcher(seed: int) -> ISMCTSPlayer:
    """A cheap searching player for Apokerlypse (a few iterations: the tests are about what is
    shown, not how well it plays)."""
    return ISMCTSPlayer(seed, iterations=6, rollout_depth=0, evaluate=poker_evaluate)


def session(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    answers: list[str],
    humans: frozenset[int],
    bots: dict[int, Any],
    lang: str = "en",
    seed: int = 3,
) -> tuple[Session, io.StringIO]:
    """A 2-player Apokerlypse session whose people answer with ``answers``, then EOF."""
    commands.script_input(monkeypatch, answers)
    rules = get_game("apokerlypse")
    config = rules.config_from_options(2, [], None)
    state = rules.new_game(config, seed)
    out = io.StringIO()
    live = Session(
        console=Console(file=out, width=200, color_system=None),
        lang=lang,
        state=state,
        record=GameRecord("apokerlypse", rules.version, config.to_json(), seed),
        path=tmp_path / "game.json",
        humans=humans,
        bots=bots,
    )
    live.start()
    return live, out


def test_watching_computers_keeps_every_decision_and_explains_after_the_game(tmp_path, monkeypatch):
    live, out = session(
        tmp_path, monkeypatch, ["why", "why 2", "why 9999", "why x", ""], frozenset(),
        {0: searcher(1), 1: make_bot("heuristic", 2, "apokerlypse")},
    )  # fmt: skip
    live.run()
    assert live.state.is_over
    decisions = live.decisions
    assert sorted(decisions) == list(range(1, len(live.match.actions) + 1)), "every move kept"
    assert all(d.action == live.match.actions[n - 1] for n, d in decisions.items())
    searched = [d for d in decisions.values() if d.seat == 0 and d.explanation is not None]
    assert searched and all(d.explanation.chosen == d.action for d in searched)
    assert all(d.explanation is None for d in decisions.values() if d.seat == 1)
    text = out.getvalue()
    assert "Type why for the last computer decision" in text
    last = max(decisions)
    assert f"Move {last}: p" in text
    move2 = decisions[2]
    if move2.seat == 1:
        assert "Move 2: p2 (heuristic) played" in text and "no search to show" in text
    else:
        assert "Move 2: p1 (ismcts) played" in text
    assert "Move 9999 was not a computer player's decision" in text
    assert "why takes a move number" in text
    assert "visits  offered  value  action" in text


def test_why_shows_the_candidates_of_a_searching_decision(tmp_path, monkeypatch):
    live, out = session(tmp_path, monkeypatch, [], frozenset(), {0: searcher(1), 1: searcher(2)})
    live.run()
    out.truncate(0)
    move = next(n for n, d in live.decisions.items() if d.explanation.candidates)
    live.why(str(move))
    lines = out.getvalue().splitlines()
    explanation = live.decisions[move].explanation
    assert CANDIDATES in lines[0] and f"after {explanation.iterations} iterations" in lines[0]
    rows = lines[2 : 2 + len(explanation.candidates)]
    for row, candidate in zip(rows, explanation.candidates, strict=True):
        assert row.split()[-len(candidate.action.split()) :] == candidate.action.split()
        assert f"{candidate.visits:,}" in row and f"{candidate.mean:5.2f}" in row
    assert rows[0].startswith("→"), "the chosen action is marked"
    assert "ethos" not in out.getvalue(), "Apokerlypse has no ethos beliefs to speak of"


def test_why_is_refused_while_a_person_plays_and_reveals_nothing(tmp_path, monkeypatch):
    """Secrecy (R-INFO-3): a searching player's candidates show its hand; a person may not see
    them before the game is over."""
    bot = searcher(1)
    answers = ["why", "why 1", "warum"] + ["1"] * 3
    live, out = session(tmp_path, monkeypatch, answers, frozenset({1}), {0: bot})
    live.run()  # EOF leaves the game
    text = out.getvalue()
    assert not live.state.is_over
    assert text.count(REFUSED) == 3
    assert CANDIDATES not in text and "visits" not in text
    assert any(d.explanation is not None for d in live.decisions.values()), "kept, not shown"


def test_german_refuses_too(tmp_path, monkeypatch):
    live, out = session(
        tmp_path, monkeypatch, ["warum", "why 1"], frozenset({1}), {0: searcher(1)}, lang="de"
    )
    live.run()
    text = out.getvalue()
    assert text.count("tippe warum, sobald das Spiel vorbei ist") == 2
    assert "Kandidaten" not in text


def test_without_a_searching_player_there_is_no_search_to_show(tmp_path, monkeypatch):
    # hot-seat, nobody computes: nothing to refuse, nothing to show
    live, out = session(tmp_path, monkeypatch, ["", "warum"], frozenset({0, 1}), {}, lang="de")
    live.run()
    assert "Kein Computerspieler hier sucht" in out.getvalue()
    heuristic = make_bot("heuristic", 2, "apokerlypse")
    live, out = session(tmp_path, monkeypatch, ["why", "why 1"], frozenset({1}), {0: heuristic})
    live.run()
    assert out.getvalue().count("No computer player here searches") == 2
    assert "type why once the game is over" not in out.getvalue()


def test_permission_rule():
    assert may_explain(over=True, humans=frozenset({0}))
    assert may_explain(over=False, humans=frozenset())
    assert not may_explain(over=False, humans=frozenset({2}))


def test_belief_and_stand_in_lines():
    candidate = SimpleNamespace(action="pass", visits=40, available=50, mean=0.61)
    explained = SimpleNamespace(
        chosen="pass",
        iterations=50,
        seconds=0.01,
        candidates=(candidate,),
        belief={"p2 good": 0.25, "p2 evil": 0.75},
    )
    decisions = {
        5: Decision(1, "expert", "pass", False, explained),
        6: Decision(2, "hard", "pass", True, None),
        7: Decision(
            1, "expert", "pass", False, SimpleNamespace(**{**vars(explained), "belief": None})
        ),
    }
    names = ["p1 (you)", "p2", "p3"]
    lines = why_lines(decisions, 5, names, "en")
    assert lines[-1] == "Its ethos belief: p2 evil 0.75, p2 good 0.25"
    assert (
        "failed this decision, so the heuristic played pass"
        in why_lines(decisions, 6, names, "en")[0]
    )
    assert "without ethos beliefs" in why_lines(decisions, 7, names, "en")[-1]
    assert "without ethos beliefs" not in why_lines(decisions, 7, names, "en", False)[-1]
    assert why_lines({}, None, names, "de") == ["Noch hat kein Computerspieler entschieden."]


def test_an_anchored_choice_without_a_search_says_so():
    """Where the search never overrules the heuristic (Apokerlypse before its final scoring)
    nothing is searched: the line names the heuristic's choice, not a forced one."""
    decisions = {
        3: Decision(0, "hard", "drop", False, Explanation("0", "drop", 0, 0.0, (), None, "drop")),
        4: Decision(0, "hard", "pay", False, Explanation("0", "pay", 0, 0.0, ())),
    }
    names = ["p1", "p2"]
    anchored, forced = why_lines(decisions, 3, names, "en"), why_lines(decisions, 4, names, "en")
    assert "played drop, the heuristic's choice" in anchored[0] and "searched" in anchored[0]
    assert "its only choice" in forced[0]
    assert "die Wahl der Heuristik" in why_lines(decisions, 3, names, "de")[0]
