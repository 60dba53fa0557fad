"""A table's setup (``apokalypse.server.setup.Setup``): read once from a stored record's meta,
as the server made it, and what a meta that holds nonsense reads as."""

from __future__ import annotations

from apokalypse.server import making
from apokalypse.server.setup import Setup


def test_the_setup_a_new_game_is_made_with_reads_back_from_its_meta() -> None:
    new = making.new_game(
        "apokalypse", 3, ["human", "heuristic", "human"], [], "de", (30.0, 120.0), coach=True
    )
    setup = Setup.of(new.record.meta)
    assert setup.kinds == ("human", "heuristic", "human") and setup.players == 3
    assert (setup.lang, setup.timer, setup.turn_based) == ("de", (30.0, 120.0), None)
    assert setup.coach and not setup.tutorial and setup.rematch_of is None
    for seat, token in new.tokens.items():
        assert setup.seat_of(token) == seat
    assert setup.keys[1] is None, "a computer's seat has no key"
    assert setup.seat_of("not a key") is None

    days = Setup.of(
        making.new_game("apokalypse", 2, ["human"] * 2, [], "en", None, 7200.0).record.meta
    )
    assert (days.timer, days.turn_based, days.coach) == (None, 7200.0, False)


def test_a_meta_that_holds_nonsense_reads_as_the_defaults() -> None:
    odd = Setup.of(
        {
            "seats": "three",
            "token_sha256": [1, None],
            "timer": {"turn": True, "bank": 5},
            "turn_based": {"seconds": "long"},
            "coach": "yes",
            "tutorial": 1,
            "rematch_of": 7,
        }
    )
    assert odd == Setup(kinds=(), keys=(None, None))
    assert odd.seat_of("anything") is None
