"""A connection is sent a state message only when what it says changed (``wire/seat.stable``):
a message with no news and the same form would itself tell the viewer that something it may
not see happened. What a connection keeps of its last message is packed into bytes (no
containers for the collector to walk), so the packing must tell two messages apart exactly when
their parts differ, and pack parts made afresh to the same bytes."""

from __future__ import annotations

from typing import Any

import pytest

from apokalypse.engine.events import Event
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng
from apokalypse.i18n.texts import texts_for
from apokalypse.wire import seat_views
from apokalypse.wire.seat import Table, stable

PARTS = ("seat", "names", "seats", "observation", "legal", "auto", "rematch", "coach", "tutorial")


def parts(message: Any) -> tuple[object, ...]:
    """What :func:`stable` compares, as the values themselves (the way it was compared before
    it was packed): everything but the news, the time left, and the card facts."""
    clock = message["clock"]
    timed = None if clock is None else (clock["bank_ms"], (clock["deciding"] or {}).get("seat"))
    named = tuple(message[key] for key in PARTS)
    return (*named, message["text"]["question"], message["forecast"], timed)


# Each game with whether some viewer's view stays the same across an action in its random play
# (a hidden answer in an Apokalypse window, R-INFO-3; Apokerlypse shows every action to all).
@pytest.mark.parametrize(
    ("name", "players", "variants", "unseen"),
    [
        ("apokalypse", 4, (), True),
        ("apokalypse", 6, ("ethos-balanced",), True),
        ("apokerlypse", 3, (), False),
    ],
)
def test_packed_parts_differ_exactly_when_the_parts_do(
    name: str, players: int, variants: tuple[str, ...], unseen: bool
) -> None:
    game = get_game(name)
    config = game.config_from_options(players, list(variants), None)
    texts = texts_for(name, config.to_json(), "en")
    table = Table(["human"] * players, frozenset(), frozenset(), None, "en")
    viewers: list[int | None] = [None, *range(players)]
    changed = unchanged = 0
    for seed in range(2):
        state, again = game.new_game(config, seed), game.new_game(config, seed)
        views, fresh = seat_views(name, texts), seat_views(name, texts)
        rng = Rng(seed)
        last: dict[int | None, tuple[tuple[object, ...], object]] = {}
        events: list[Event] = list(state.opening)
        while True:
            for viewer in viewers:
                message = views.view(state, viewer, events, table, False)
                twin = fresh.view(again, viewer, events, table, False)  # made apart, the same
                assert stable(message) == stable(twin)
                now = (parts(message), stable(message))
                if viewer in last:
                    before = last[viewer]
                    assert (before[0] == now[0]) == (before[1] == now[1]), (viewer, state.move)
                    changed += before[0] != now[0]
                    unchanged += before[0] == now[0]
                last[viewer] = now
            if state.is_over:
                break
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            events = list(state.apply(action))
            again.apply(again.legal_actions()[legal.index(action)])
    assert changed > 0 and (unchanged > 0) == unseen  # the cases were met
