"""Nothing a player may not know leaves the engine in what is sent to them: every message of many
random games of every game (the observation and the view of every event, for every seat and for
a spectator) goes through a checker before the browser puts them on the wire.

The checker looks for the fields of a raw event that only the record's digest may see
(``secret``, ``seen_by``), checks the message is plain JSON, and that an event view carries an
event's secret part exactly when the viewer may see it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from apokalypse.engine.events import Event
from apokalypse.engine.registry import game_names, get_game
from apokalypse.engine.rng import Rng

FORBIDDEN = frozenset({"secret", "seen_by"})


def keys_in(value: Any) -> set[str]:
    """Every key of every mapping inside ``value``."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


def sent(message: Any) -> Any:
    """The message as the wire carries it: JSON text, read back."""
    text = json.dumps(message, allow_nan=False)
    data = json.loads(text)
    assert not keys_in(data) & FORBIDDEN, text[:200]
    return data


def check_event(event: Event, viewer: int | None) -> None:
    view = sent(event.view(viewer).to_json())
    entitled = event.secret is not None and viewer is not None and viewer in event.seen_by
    assert view["seen"] is entitled
    # Anybody else gets the public arguments and nothing more.
    public = sent(dict(event.args))
    assert view["args"] == ({**public, **sent(dict(event.secret or {}))} if entitled else public)


def test_the_checker_catches_a_raw_event():
    gift = Event("gift", {"actor": 0, "target": 2}, {"card": "job/drugs"}, frozenset({0, 2}))
    with pytest.raises(AssertionError):
        sent({"events": [gift.digest_form()]})
    assert sent(gift.view(1).to_json())["args"] == {"actor": 0, "target": 2}
    assert sent(gift.view(2).to_json())["args"]["card"] == "job/drugs"


@pytest.mark.parametrize("name", game_names())
def test_every_message_of_random_games_is_wire_safe(name: str):
    game = get_game(name)
    low, high = game.players
    for seed in range(6):
        players = low + seed % (high - low + 1)
        config = game.config_from_options(players, [], None)
        state = game.new_game(config, seed)
        rng = Rng(seed)
        viewers: list[int | None] = [None, *range(players)]
        events = list(state.opening)
        steps = 0
        while True:
            for viewer in viewers:
                sent(state.observation(viewer))
                for event in events:
                    check_event(event, viewer)
            if state.is_over:
                break
            events = state.apply(rng.choice(list(state.legal_actions())))
            steps += 1
        assert steps > 0
