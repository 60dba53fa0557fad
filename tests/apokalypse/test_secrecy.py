"""Secrecy properties that need two worlds: what a player sees must not depend on anything that
differs between two worlds they cannot tell apart (R-INFO-2/3, D-INFO-1).

The twin-world test plays random Apokalypse games; wherever the player on turn holds two B cards,
it builds two worlds that differ only in which of them is laid face down as a populace (another
code, or another physical copy of the same code), and checks that every other player's
observation, event views and terminal log lines are identical in both (the terminal's board is a
function of the observation), after the populace and after the evil deed that follows it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from apokalypse.cli.ui import make_ui
from apokalypse.engine.events import Event
from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import GAME, Config, State, parse_action
from apokalypse.games.apokalypse.pending import Turn

GAMES = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _log(s: State, viewer: int | None, events: list[Event]) -> str:
    """The log lines the terminal shows ``viewer`` for ``events``: its adapter is handed the raw
    events, secrets and all, and picks the viewer's views itself."""
    ui = make_ui("apokalypse", s.config.to_json(), "en")
    names = [f"p{q + 1}" for q in range(s.n)]
    console = Console(record=True, width=100, color_system=None)
    for line in ui.render_events(events, viewer, names):
        console.print(line)
    return console.export_text()


def _view(s: State, viewer: int | None, events: list[Event]) -> tuple[Any, ...]:
    """What ``viewer`` is shown: the observation, the event views and the terminal's log lines.
    The terminal's board is drawn from the observation alone (``ui.board(observation, names)``),
    so equal observations draw equal boards; ``test_the_board_is_drawn_from_the_observation``
    checks that once, rather than drawing a thousand boards here."""
    views = [e.view(viewer) for e in events]
    return s.observation(viewer), views, _log(s, viewer, events)


def _twins(s: State, player: int, first: int, second: int) -> list[tuple[State, list[Event]]]:
    """Two clones of ``s``; in each, the hand card at index ``first`` / ``second`` is moved to
    the front (so it is the physical card taken) and laid face down as an evil populace."""
    out = []
    for index in (first, second):
        w = s.clone()
        hand = w.hands[player]
        hand.insert(0, hand.pop(index))
        code = w.code(hand[0])
        events = w.apply(parse_action(f"play {code} evil"))
        events += w.apply(parse_action(f"target p{player + 1}.evil"))
        out.append((w, events))
    return out


@GAMES
@given(st.integers(2, 6), st.integers(0, 2**32))
def test_r_info_2_which_b_card_went_face_down_never_shows_to_the_others(n, seed):
    rng = Rng(seed)
    s = GAME.new_game(Config(players=n), seed)
    compared = 0
    while not s.is_over and compared < 6:
        if type(s.pending) is Turn and rng.below(3) == 0:
            player = s.to_act
            b_cards = [i for i, c in enumerate(s.hands[player]) if s.table.kind[c].back == "B"]
            if len(b_cards) >= 2:
                first, second = b_cards[0], b_cards[1 + rng.below(len(b_cards) - 1)]
                (a, ea), (b, eb) = _twins(s, player, first, second)
                others = [None, *(q for q in range(n) if q != player)]
                for q in others:
                    assert _view(a, q, ea) == _view(b, q, eb), f"seen by {q}"
                if a.legal_actions() and b.legal_actions():  # the evil deed (R-PLAY-5)
                    step = a.legal_actions()[0]
                    if step in b.legal_actions():
                        ea, eb = a.apply(step), b.apply(step)
                        for q in others:
                            if step.verb == "steal" and q == step.seat:
                                continue  # the victim sees which card was taken: its own
                            assert _view(a, q, ea) == _view(b, q, eb), f"seen by {q}"
                compared += 1
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])


def _board(s: State, viewer: int | None) -> str:
    ui = make_ui("apokalypse", s.config.to_json(), "en")
    console = Console(record=True, width=100, color_system=None)
    console.print(ui.board(s.observation(viewer), [f"p{q + 1}" for q in range(s.n)]))
    return console.export_text()


def test_the_board_is_drawn_from_the_observation():
    """The terminal's board shows the others the same in two worlds that differ only in which B
    card went face down: it is drawn from the observation (the twin test above compares those)."""
    rng = Rng(7)
    s = GAME.new_game(Config(players=4), 7)
    while True:
        player = s.to_act
        b_cards = [i for i, c in enumerate(s.hands[player]) if s.table.kind[c].back == "B"]
        if type(s.pending) is Turn and len(b_cards) >= 2 and s.round > 1:
            break
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    (a, _), (b, _) = _twins(s, player, b_cards[0], b_cards[1])
    assert a.hands[player] != b.hands[player]  # the worlds do differ
    for q in [None, *(q for q in range(4) if q != player)]:
        assert _board(a, q) == _board(b, q), f"seen by {q}"
    assert _board(a, player) != _board(b, player)  # the player sees its own card's front
