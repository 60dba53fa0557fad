"""Game configuration: player count, variant switches (V-…) and the deck."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from apokalypse.engine.datafile import config_fields
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.text import shown

from .cards import DEFAULT_DECK, CardTable, card_table, check_deck_size, load_deck_text

MIN_PLAYERS, MAX_PLAYERS = 2, 6  # R-SETUP-1


class Variant(StrEnum):
    """A variant switch. The rules ask ``config.has(Variant.GOOD_TIES)``: a misspelt variant is
    an error for the type checker (and an AttributeError), never a switch that is silently off.
    The values are the ids that records and configs store."""

    ETHOS_BALANCED = "V-ETHOS-BALANCED"
    ETHOS_ORPHANS = "V-ETHOS-ORPHANS"
    GOOD_TEAM = "V-GOOD-TEAM"
    EDITION_2008 = "V-EDITION-2008"
    GOOD_TIES = "V-GOOD-TIES"


VARIANTS: dict[Variant, str] = {
    Variant.ETHOS_BALANCED: "deal ethos from one good + one evil (2 players) or two + two (3–4)",
    Variant.ETHOS_ORPHANS: "after an ethos change, discard Netherworld cards of good populaces"
    " without Heaven, and Heaven cards of evil populaces without Netherworld (English"
    " translation)",
    Variant.GOOD_TEAM: "the good win if a good player has more points than an evil player"
    " (English translation) instead of comparing the sums",
    Variant.EDITION_2008: "the 2008 rules: with 2–3 players only the asterisk cards leave the"
    " decks (the music stays), and when all players share one ethos, the best total wins"
    " without the majority condition",
    Variant.GOOD_TIES: "as many good as evil populaces count as a good majority (the project's"
    " proposal from its balance studies, docs/balance.md)",
}


def variant_id(name: object) -> Variant:
    """Accept ``V-ETHOS-BALANCED`` or ``ethos-balanced``."""
    if not isinstance(name, str):  # a record's config is anybody's JSON
        raise ConfigError(f"a variant must be a name, not {type(name).__name__}")
    vid = name.strip().upper()
    if not vid.startswith("V-"):
        vid = "V-" + vid
    if vid not in VARIANTS:
        raise ConfigError(f"unknown variant {shown(name)} (known: {', '.join(sorted(VARIANTS))})")
    return Variant(vid)


@dataclass(frozen=True)
class Config:
    """``players`` 2–6; ``variants`` a set of :class:`Variant` (given as ids or short names, as
    :func:`variant_id` reads them); ``deck`` "default" or a deck file's text."""

    players: int = 4
    variants: frozenset[Variant] = field(default_factory=frozenset)
    deck: str = DEFAULT_DECK

    def __post_init__(self) -> None:
        _players(self.players)  # as given: a record's config may hold anything
        if not isinstance(self.variants, frozenset | set | list | tuple):
            raise ConfigError("variants must be a collection of variant names")
        object.__setattr__(self, "variants", frozenset(variant_id(v) for v in self.variants))
        if not isinstance(self.deck, str):
            raise ConfigError("deck must be 'default' or a deck file's text")
        # Fail now, not mid-game (nor in the middle of a simulation): the deck must parse and be
        # large enough to deal from with this many players.
        check_deck_size(self.card_table(), self.players)

    @property
    def deck_text(self) -> str:
        return load_deck_text(DEFAULT_DECK) if self.deck == DEFAULT_DECK else self.deck

    def has(self, variant: Variant) -> bool:
        return variant in self.variants

    def card_table(self) -> CardTable:
        """The game's physical cards after R-SETUP-1's removals for 2–3 players; under
        V-EDITION-2008 the 2008 set-up, which keeps the two Heavy Metal and two Church Music."""
        return card_table(self.deck_text, self.players <= 3, self.has(Variant.EDITION_2008))

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "variants": sorted(v.value for v in self.variants),
            "deck": self.deck,
        }

    @classmethod
    def from_json(cls, data: object) -> Config:
        data = config_fields(data, ("players", "variants", "deck"))
        variants = data.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise ConfigError("config field 'variants' must be a list of variant names")
        deck = data.get("deck", DEFAULT_DECK)
        if not isinstance(deck, str):
            raise ConfigError("config field 'deck' must be text")
        chosen = frozenset(variant_id(v) for v in variants)  # told before a wrong player count
        return cls(players=_players(data.get("players", 4)), variants=chosen, deck=deck)


def _players(value: object) -> int:
    if (
        not isinstance(value, int)
        or isinstance(value, bool)  # JSON's true is not a player count
        or not MIN_PLAYERS <= value <= MAX_PLAYERS
    ):
        raise ConfigError(
            f"R-SETUP-1: Apokalypse is for {MIN_PLAYERS}–{MAX_PLAYERS} players, not {shown(value)}"
        )
    return value
