"""A new game (K-SETUP)."""

from __future__ import annotations

from apokalypse.engine.events import Event
from apokalypse.engine.rng import Rng, check_seed

from .cards import DECK_SIZE
from .config import Config
from .flow import advance, start_round
from .pending import DRAW_1, Flow
from .state import TOTAL_CHIPS, State
from .tally import NO_MODS

START_CHIPS = 12  # K-SETUP-2


# ``seed: object``: check_seed refuses a wrong one with the rule's error; compiled by mypyc, an
# ``int`` parameter would raise TypeError first (and take True for 1).
def new_game(config: Config, seed: object) -> State:
    """K-SETUP-2: 12 chips, a faction and its action chips each; a dealer; five cards each.
    Chips not dealt (fewer than four players) start in the bank. The events of what happens
    before the first decision (the deal, round 1's mandatory payments and draws) are kept in
    ``state.opening``."""
    rng = Rng(check_seed(seed))  # a whole number 0 … 2**64 - 1
    n = config.players
    content = config.rules_content
    s = State.__new__(State)
    s.config, s.content, s.n, s.rng = config, content, n, rng
    factions = list(range(4))
    rng.shuffle(factions)
    s.factions = tuple(factions[:n])
    s.action_chips = [content.factions[f].chips_for(n) for f in s.factions]
    s.chips = [START_CHIPS] * n
    s.pot = 0
    s.bank = TOTAL_CHIPS - START_CHIPS * n
    s.dealer = rng.below(n)
    s.round = 0
    s.hands = [[] for _ in range(n)]
    s.discards = [[] for _ in range(n)]
    s.pile = list(range(DECK_SIZE))
    s.mods = [NO_MODS] * n
    s.stack = []
    s.result_ = None
    s.legal_cache = None
    s.moves = 0
    s.flow = Flow(DRAW_1, 0)
    events: list[Event] = []
    start_round(s, events, first=True)
    advance(s, events)
    s.opening = events
    return s
