"""The rules on an observation (``games/apokalypse/observed.py``) agree with the engine on the
State at every decision of random games: place targets, seal targets, attack targets and
immunity, what an attack takes, a side's protection, and which plays have a place. And the role
table (``roles.py``) is the one the notation and the deck file use."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import GAME, Config, State, Variant, actions, observed
from apokalypse.games.apokalypse.attacks import immune_reason, remove_outermost
from apokalypse.games.apokalypse.attacks import targets as attack_targets
from apokalypse.games.apokalypse.cards import (
    EARTH,
    EVIL,
    GOOD,
    CardKind,
    code_cards,
    deck_kinds,
    default_deck_text,
    parse_deck,
)
from apokalypse.games.apokalypse.horsemen import side_protection
from apokalypse.games.apokalypse.pending import ChooseTarget, PlaceSeal, Turn
from apokalypse.games.apokalypse.placement import SEAL_ROWS, seal_targets, targets
from apokalypse.games.apokalypse.roles import (
    EVIL_NETHER,
    GOOD_HEAVEN,
    GOOD_NETHER,
    NEUTRALISED_BY,
    PLACES,
    ROLE_NAMES,
    ROLES,
    ROLES_BY_DECK,
    USE_NAMES,
    USES,
    Role,
)

from .builders import blank, hand, populaces, put

GAMES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
players = st.integers(min_value=2, max_value=6)
seeds = st.integers(min_value=0, max_value=2**32)
orphans = st.booleans()


def decisions(config: Config, seed: int) -> Iterator[State]:
    """Every decision of a random game, before it is taken."""
    s = GAME.new_game(config, seed)
    rng = Rng(seed ^ 0x0B5)
    while not s.is_over:
        yield s
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])


def one_code_per_role(kinds: Mapping[str, CardKind]) -> dict[Role, str]:
    """A card of each role a hand can hold (places depend on the role, not on the code)."""
    out: dict[Role, str] = {}
    for code, kind in kinds.items():
        if kind.back in ("B", "K"):
            out.setdefault(kind.role, code)
    return out


def check_decision(s: State, kinds: Mapping[str, CardKind], codes: dict[Role, str]) -> None:
    obs = s.observation(s.to_act)
    legal = s.legal_actions()
    pending = s.pending
    # The second step and the seal: the observation lists exactly the legal places, in order.
    if isinstance(pending, ChooseTarget):
        assert observed.place_targets(obs, kinds, pending.code, pending.use) == legal
    if isinstance(pending, PlaceSeal):
        assert observed.seal_targets(obs, kinds) == legal == seal_targets(s)
    # The first step: a play is offered if and only if the observation finds it a place.
    if isinstance(pending, Turn):
        offered = {(a.code, a.use) for a in legal if a.verb == "play"}
        for code in set(obs["hand"]):
            for use in USES[kinds[code].role]:
                has_place = bool(observed.place_targets(obs, kinds, code, use))
                if use == "good" and len(obs["hand"]) < 2:
                    has_place = False  # R-PLAY-4: a card left to give, a fact of the hand
                assert ((code, use) in offered) == has_place, (code, use)
    # Every role's places and attacks, whoever holds one.
    for role, code in codes.items():
        for use in USES[role]:
            assert observed.place_targets(obs, kinds, code, use) == targets(s, code, use)
        if "attack" in USES[role]:
            assert observed.attack_targets(obs, kinds, code) == attack_targets(s, role)
    # Per side: protection, immunity, and what an attack would take.
    for q, view in enumerate(obs["displays"]):
        rows = observed.display_rows(view)
        for side in (GOOD, EVIL):
            assert observed.side_protection(rows, side, kinds) == side_protection(s, q, side)
            for role, code in codes.items():
                if "attack" in USES[role]:
                    reason = immune_reason(s.displays[q], side, s.table, role)
                    assert observed.immune(obs, kinds, code, q, side) == reason
            if s.displays[q][side * 3 + EARTH]:
                taken = remove_outermost([row[:] for row in s.displays[q]], side)
                populace = rows[side * 3 + EARTH][-1]  # face down: "populace"
                heaven, nether = (None if c is None else s.code(c) for c in taken[1:])
                assert observed.attack_removes(obs, q, side) == (populace, heaven, nether)


@GAMES
@given(players, seeds, orphans)
def test_observation_rules_agree_with_the_engine_at_every_decision(n, seed, with_orphans):
    """Random games (V-ETHOS-ORPHANS or not, so that conversions leave different rows): at every
    decision each observation function gives what the engine's State function gives."""
    config = Config(players=n, variants=frozenset({Variant.ETHOS_ORPHANS} if with_orphans else ()))
    kinds = deck_kinds(config.deck_text)
    codes = one_code_per_role(kinds)
    assert len(codes) == 9  # every role a hand can hold
    steps = 0
    for s in decisions(config, seed):
        check_decision(s, kinds, codes)
        steps += 1
    assert steps > 50


def test_observation_rules_in_a_crafted_display():
    """Seals, persons and music where the observation shows them: the same answers again."""
    s = blank(3, to_act=0)
    populaces(s, 1, good=2, evil=2)
    put(s, 1, "good", "heaven", "seal", "m/hp")  # a seal in Heaven is Church Music (R-PLAY-15)
    put(s, 1, "evil", "nether", "seal")  # in the Netherworld, Heavy Metal
    hand(s, 0, "metal", "church", "ethos", "violence", "m/hp")
    kinds = deck_kinds(s.config.deck_text)
    check_decision(s, kinds, one_code_per_role(kinds))
    obs = s.observation(0)
    metal = [str(a) for a in observed.place_targets(obs, kinds, "metal", "neutralise")]
    church = [str(a) for a in observed.place_targets(obs, kinds, "church", "neutralise")]
    assert metal == ["target p2.good.heaven.0"]  # not the seal in the Netherworld
    assert church == ["target p2.evil.nether.0"]  # not the seal in Heaven
    assert observed.immune(obs, kinds, "violence", 1, GOOD) is None  # position 1 has no music
    assert observed.immune(obs, kinds, "violence", 1, EVIL) is None
    assert observed.immune(obs, kinds, "violence", 2, GOOD) == "R-ATTACK-1"  # basic only
    assert observed.attack_removes(obs, 1, GOOD) == ("populace", "m/hp", None)


def test_unknown_cards_and_uses_have_no_places():
    """A code the kinds do not know, or a use the notation does not know: nothing, no crash."""
    obs = GAME.new_game(Config(players=3), 5).observation(0)
    kinds = deck_kinds(Config(players=3).deck_text)
    assert observed.place_targets(obs, kinds, "no-such-card", "heaven") == []
    assert observed.place_targets(obs, kinds, "m/hp", "sideways") == []
    assert observed.attack_targets(obs, kinds, "m/hp") == []  # not an attack card
    assert observed.immune(obs, kinds, "m/hp", 0, GOOD) == "R-ATTACK-1"
    cards = code_cards(kinds)
    assert cards is code_cards(kinds)  # built once per mapping
    assert not cards.music["populace"] and cards.role["populace"] is None
    assert cards.music["seal"] and cards.music["metal"] and not cards.music["m/hp"]


def test_the_role_table_is_the_notation_s_and_the_deck_file_s():
    """The uses the notation parses are the table's; every deck role has an entry; the places
    the refusals, the seal and the observation read come from the entries."""
    assert set(actions.USES) == USE_NAMES
    assert set(ROLES) == ROLE_NAMES
    deck_roles = {kind.role for kind in parse_deck(default_deck_text())}
    assert deck_roles == set(ROLES_BY_DECK["B"]) | set(ROLES_BY_DECK["K"])
    assert PLACES["metal", "nether"] == (EVIL_NETHER,)  # R-PLAY-13
    assert PLACES["church", "heaven"] == (GOOD_HEAVEN,)  # R-PLAY-9
    assert PLACES["dual", "nether"] == (GOOD_NETHER, EVIL_NETHER)  # R-PLAY-12
    assert SEAL_ROWS == (GOOD_HEAVEN, EVIL_NETHER)  # R-REWARD-3, as placement lays a seal
    assert NEUTRALISED_BY[GOOD_HEAVEN] == ("metal", "seal")  # R-PLAY-15
    assert all(not rules.defends for role, rules in ROLES.items() if rules.deck == "seal")
