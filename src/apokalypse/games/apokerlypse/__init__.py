"""Apokerlypse v1.5 (2–4 players): poker hands, card effects and escalating costs in the
apocalypse. The rules, as pure functions of a seeded state; ``docs/rules/apokerlypse.md`` holds
the rule ids (K-…, KD-…, KV-…) cited throughout.

>>> from apokalypse.games.apokerlypse import GAME, Config
>>> state = GAME.new_game(Config(players=2), seed=7)
>>> state.observation(None)["step"], str(state.legal_actions()[0]).split()[0]
('discard-1', 'discard')

Events (``Event.kind``: public args; *secret* args go only to the seats named):

- ``round-start`` round, dealer, cost, last · ``deal`` seat, count, *cards* (that seat) ·
  ``step`` step (draw-1, discard-1, draw-2, discard-2, participate, scoring)
- ``pay`` seat, amount, step, pot · ``short`` seat, chips, cost (K-SHORT-1) · ``stand`` seat, step
  · ``drop`` seat, step · ``draw`` seat, *card* (the drawer) · ``reshuffle`` cards ·
  ``pile-empty`` seat · ``discard`` seat, card
- ``effect`` seat, card (None for an ability), faction (None for a card), kind, timing, name,
  params · ``blocked`` seat (the blocker), card, owner, blocked (the card), kind · ``void`` seat,
  card, kind, rule (why it did nothing) · ``target`` seat, target, kind · ``gain`` / ``lose``
  seat, amount, chips · ``peek`` seat, target, *cards* (the peeker) · ``take`` seat, target,
  *card* · ``give`` seat, target, *card* · ``swap`` seat, target, *given*, *taken* (the two
  players; public once the hands are revealed) · ``structure`` seat, card, kind, steps | to ·
  ``multiplier`` seat, factor · ``double`` seat, card · ``hand-limit`` seat, limit ·
  ``steal`` seat, target, amount, chips, left (KD-EFFECT-1) · ``shield`` seat (KD-EFFECT-2) ·
  ``skim`` / ``ante`` seat, amount, chips, pot (KD-EFFECT-3) · ``squeeze`` seat, targets, less,
  limits (KD-EFFECT-4) · ``extra`` seat, count (KD-EFFECT-5: the cards an effect drew)
- ``reveal`` hands (None for players out of the round), order · ``score`` seat, category, base,
  bonus, multiplier, total, best · ``pot`` winners, total, pot, share, remainder · ``round-end``
  round, chips, pot, bank · ``game-over`` winners, chips, rounds, reason

What happens inside ``new_game`` before the first decision (the deal, round 1's payments and
draws) is kept in ``state.opening``.

Decisions the engine takes where the rules are silent:

- *Nobody can pay*: costs only rise and nobody can hold more than 48 chips, so once no player can
  pay a round's cost, nobody ever will again. That round is played (everybody short, taking part
  free) and the game ends after it, like K-END-1. This bounds a game to 49 rounds, content or not.
- *Short per phase* (K-SHORT-1, "Die Kosten gelten für jede Zieh-Phase separat"): whether a
  player can pay is decided for each draw phase on its own, with their chips when the phase
  comes to them. Short, they draw nothing and their hand is frozen for the rest of that phase,
  its discard step included; phase 2 and the participation of phase 3 decide afresh, so a
  player short in phase 1 who has the cost by phase 2 may pay and draw. A player who could pay
  in phase 2 but stands is not short. Each shortage is announced with a ``short`` event.
- *Who stays*: the last player in the round cannot drop out (somebody takes the pot); a player
  who dropped out is out of reach of effects and their hand is never revealed.
- *Discard exactly*: a player discards down to the hand limit, one card at a time, not further.
- *K-END-1 "as soon as"*: a player who reaches 0 chips ends the game after the round even if
  they win chips back in it.
- *Effects*: each card's effect resolves at most once per round (a card drawn again after a
  reshuffle does not trigger twice); effects reach only players still in the round; gains come
  from the bank as far as it holds chips, losses go to it; a taken or swapped-for card is drawn
  at random from the hand; dealt cards trigger nothing; a block window asks every other player
  in the round, clockwise from the effect's owner, whether or not they hold a block card, and a
  block cannot be blocked; a faction ability lays down one action chip, which comes back at the
  end of the round (KD-SCORE-2); a steal moves chips between players, never through the bank
  (KD-EFFECT-1); a shielded player is passed by other players' card effects for the rest of
  the round, never by abilities (KD-EFFECT-2).
- *Scoring*: K-SCORE-4's "player order" is the evaluation order of K-SCORE-1, fixed at the
  reveal by the printed hands (identical hands: seat order from the dealer's left); a player
  with more than one final-scoring effect chooses the order (so, which structure change or
  multiplier counts); each player's total is locked at the end of their turn; the card bonus
  counts printed ranks (set-rank is for the poker evaluation only); the bonus cap applies after
  doubling; fewer than five cards score pairs and sets only; five of a kind (a set-rank change)
  counts as four of a kind; "category higher" stops at royal flush.
- *Dealing*: the start dealer and the factions are drawn by the seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from apokalypse.engine.errors import ConfigError

from .actions import Action, parse_action
from .config import MAX_PLAYERS, MIN_PLAYERS, Config
from .content import DEFAULT_CONTENT
from .features import Features
from .observation import Observation
from .setup import new_game
from .state import State
from .tally import Result

if TYPE_CHECKING:
    from apokalypse.engine.protocol import Game

__all__ = [
    "GAME",
    "Action",
    "Apokerlypse",
    "Config",
    "Observation",
    "Result",
    "State",
    "new_game",
    "parse_action",
]


VARIANTS = {
    "short-table": "KV-TABLE: base points from the short rules' table (2, 5, 9, … 95)",
    "bonus-cap": "KV-BONUS-CAP: at most 10 card-bonus points (short rules)",
    "plain-content": "KD-SETUP-1: the plain game, no card effects and no faction abilities",
    "example-content": "KD-SETUP-1: play with the shipped EXAMPLE card effects and abilities",
    "first-content": "KD-SETUP-1: the first edition of the card effects ('standard')",
}
CONTENT_VARIANTS = {
    "plain-content": "plain",
    "example-content": "example",
    "first-content": "standard",
}


class Apokerlypse:
    name = "apokerlypse"
    version = "2"  # 2: costs decided per draw phase (K-SHORT-1); game-over names who ran out
    players = (MIN_PLAYERS, MAX_PLAYERS)

    def __init__(self) -> None:
        self.variants = dict(VARIANTS)

    def config_from_json(self, data: object) -> Config:
        return Config.from_json(data)

    def config_from_options(
        self, players: int, variants: Sequence[str], cards: str | None
    ) -> Config:
        """``cards`` is a content file's text (KD-SETUP-1); variants as in :data:`VARIANTS`."""
        names = {v.strip().lower().removeprefix("kv-") for v in variants}
        names = {"short-table" if n == "table=short" else n for n in names}
        unknown = names - set(VARIANTS)
        if unknown:
            raise ConfigError(
                f"unknown Apokerlypse variant(s) {', '.join(sorted(unknown))}"
                f" (known: {', '.join(VARIANTS)})"
            )
        chosen = [CONTENT_VARIANTS[n] for n in sorted(names) if n in CONTENT_VARIANTS]
        if len(chosen) + (cards is not None) > 1:
            raise ConfigError(
                "give one content: a content file, plain-content, example-content or first-content"
            )
        content = cards if cards is not None else chosen[0] if chosen else DEFAULT_CONTENT
        return Config(
            players=players,
            table="short" if "short-table" in names else "full",
            bonus_cap="bonus-cap" in names,
            content=content,
        )

    def new_game(self, config: Config, seed: int) -> State:
        return new_game(config, seed)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def features(self, config: Config) -> Features:
        return Features(config)


GAME = Apokerlypse()

if TYPE_CHECKING:  # the type checker verifies that the game keeps the protocol
    _: Game[Action, Observation, Config] = GAME
