"""How often a card's effect matters (:mod:`apokalypse.sim.collect.effect_impact`, KD-SETUP-1):
each kind's rule on small hand-built event sequences fed to the Apokerlypse collector; real games
checked against holdings followed card by card; and ``apokalypse effects`` writing its table."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from apokalypse.bots import make_bot, seat_seed
from apokalypse.cli.effects import markdown
from apokalypse.engine.events import Event
from apokalypse.engine.match import Match
from apokalypse.games.apokerlypse import GAME
from apokalypse.games.apokerlypse.cards import CODES
from apokalypse.games.apokerlypse.content import DEFAULT_CONTENT
from apokalypse.sim.collect.apokerlypse import ApokerlypseCollector
from apokalypse.sim.collect.effect_impact import FOLLOW
from apokalypse.sim.effects_table import TARGET, effects_table
from tests.apokerlypse.builders import follow_hand
from tests.helpers import cli

# --- hand-built events ----------------------------------------------------------------------


class Round:
    """A collector of a 3-player game told one round's events, built step by step."""

    def __init__(self, players: int = 3) -> None:
        state = GAME.new_game(GAME.config_from_options(players, [], None), 1)
        self.state = state
        self.collector = ApokerlypseCollector(state)
        self.players = players
        self.round = 0
        self.start()

    def start(self) -> Round:
        self.round += 1
        start = {"round": self.round, "dealer": 0, "cost": 1, "last": False}
        self.tell(Event("round-start", start))
        for seat in range(self.players):
            self.tell(Event("deal", {"seat": seat, "count": 5}))
        return self

    def tell(self, *events: Event) -> Round:
        self.collector.add(list(events))
        return self

    def effect(self, seat: int, card: str | None, kind: str, **params: Any) -> Round:
        announced = {
            "seat": seat,
            "card": card,
            "faction": None if card is not None else "military",
            "kind": kind,
            "timing": "any",
            "name": "",
            "params": params,
        }
        return self.tell(Event("effect", announced))

    def step(self, name: str) -> Round:
        return self.tell(Event("step", {"step": name}))

    def draw(self, seat: int, times: int = 1) -> Round:
        return self.tell(*(Event("draw", {"seat": seat}) for _ in range(times)))

    def discard(self, seat: int, times: int = 1) -> Round:
        return self.tell(*(Event("discard", {"seat": seat, "card": "2s"}) for _ in range(times)))

    def reveal(self, *hands: list[str] | None) -> Round:
        order = [q for q, hand in enumerate(hands) if hand is not None]
        return self.tell(Event("reveal", {"hands": list(hands), "order": order}))

    def score(self, seat: int, category: str, total: int = 10) -> Round:
        line = {
            "seat": seat,
            "category": category,
            "base": 0,
            "bonus": 0,
            "multiplier": 1,
            "total": total,
            "best": [],
        }
        return self.tell(Event("score", line))

    def counts(self) -> tuple[dict[str, int], dict[str, int]]:
        game = self.collector.finish(self.state)[0]
        return game["effect_holdings"], game["effect_mattered"]

    def mattered(self, card: str) -> bool:
        holdings, mattered = self.counts()
        assert holdings.get(card) == 1, holdings
        return mattered.get(card, 0) == 1


PAIR = ["7s", "7h", "2d", "4c", "9s"]  # a pair; 7♠ counts double with a bonus (K-SCORE-3)


def chips(kind: str, amount: int) -> Event:
    return Event(kind, {"seat": 0, "amount": amount, "chips": 12, "pot": 3})


@pytest.mark.parametrize("kind", ["gain", "lose", "skim", "ante"])
def test_kd_effect_3_chips_matter_when_one_moves(kind: str) -> None:
    """gain, lose, skim, ante (KD-EFFECT-3): a chip event of amount > 0; an empty bank or pot
    (amount 0) moves nothing."""
    assert Round().effect(0, "2s", kind, amount=1).tell(chips(kind, 1)).mattered("2s")
    assert not Round().effect(0, "2s", kind, amount=1).tell(chips(kind, 0)).mattered("2s")


def test_kd_effect_1_a_steal_matters_when_it_takes_a_chip() -> None:
    """KD-EFFECT-1: chips from another player; none taken from an empty stack."""

    def steal(amount: int) -> Event:
        args = {"seat": 0, "target": 1, "amount": amount, "chips": 13, "left": 11}
        return Event("steal", args)

    assert Round().effect(0, "Ad", "steal", amount=2).tell(steal(2)).mattered("Ad")
    assert not Round().effect(0, "Ad", "steal", amount=2).tell(steal(0)).mattered("Ad")


@pytest.mark.parametrize("kind", ["take", "give", "swap"])
def test_moving_a_card_matters_and_a_void_does_not(kind: str) -> None:
    moved = Event(kind, {"seat": 0, "target": 2})
    assert Round().effect(0, "3d", kind, count=1).tell(moved).mattered("3d")
    void = Event("void", {"seat": 0, "card": "3d", "kind": kind, "rule": "K-SHORT-1"})
    assert not Round().effect(0, "3d", kind, count=1).tell(void).mattered("3d")


def test_kd_effect_5_drawing_more_matters_when_a_card_came() -> None:
    """KD-EFFECT-5: the ``extra`` event after the draws; none drawn from an empty pile."""

    def drew(count: int) -> Round:
        r = Round().effect(0, "5h", "draw", count=2).draw(0, count)
        return r.tell(Event("extra", {"seat": 0, "count": count}))

    assert drew(2).mattered("5h")
    assert not drew(0).mattered("5h")


def test_a_peek_matters_before_the_reveal_only() -> None:
    """K-SCORE-1: after the reveal every hand is public; a peek tells nothing new."""
    peek = Event("peek", {"seat": 0, "target": 1}, {"cards": PAIR}, frozenset({0}))
    assert Round().effect(0, "3h", "peek").tell(peek).mattered("3h")
    late = Round().reveal(PAIR, ["3s", "4s", "5d", "8c", "Jd"], None)
    assert not late.effect(0, "3h", "peek").tell(peek).mattered("3h")


def test_k_score_4_a_structure_change_matters_when_the_category_changes() -> None:
    """K-SCORE-4: the scored category against the scored hand's own (``evaluate``)."""

    def scored(category: str) -> Round:
        structure = Event("structure", {"seat": 0, "card": "Jc", "kind": "category-up", "steps": 1})
        r = Round().effect(0, "Jc", "category-up", steps=1).tell(structure)
        return r.reveal([*PAIR[:4], "Jc"], None, None).score(0, category)

    assert scored("two-pair").mattered("Jc")
    assert not scored("pair").mattered("Jc")  # a change that changed nothing (a suit it had)


def test_k_score_4_a_void_structure_change_does_not_matter() -> None:
    """K-SCORE-4: one structure change per player; the second is void."""
    void = Event("void", {"seat": 0, "card": "Kc", "kind": "category-up", "rule": "K-SCORE-4"})
    r = Round().effect(0, "Kc", "category-up", steps=1).tell(void)
    assert not r.reveal([*PAIR[:4], "Kc"], None, None).score(0, "two-pair").mattered("Kc")


def test_k_score_6_a_multiplier_matters_when_the_total_is_above_zero() -> None:
    """K-SCORE-6: the multiplier comes last; ×2 of 0 points is 0."""

    def scored(total: int) -> Round:
        r = Round().effect(1, "As", "multiplier", factor=2)
        r.tell(Event("multiplier", {"seat": 1, "factor": 2}))
        return r.reveal(None, [*PAIR[:4], "As"], None).score(1, "pair", total)

    assert scored(8).mattered("As")
    assert not scored(0).mattered("As")


@pytest.mark.parametrize(("card", "counts"), [("7s", True), ("6s", False)])
def test_k_score_6_counts_double_matters_for_a_card_with_a_bonus(card: str, counts: bool) -> None:
    """K-SCORE-6, K-SCORE-3: doubling a bonus of 0 (ranks 2–6) adds nothing."""
    r = Round().effect(0, card, "counts-double")
    r.tell(Event("double", {"seat": 0, "card": card}))
    hand = [card, "7h", "2d", "4c", "9s"]
    assert r.reveal(hand, None, None).score(0, "high-card").mattered(card) is counts


def test_k_score_6_counts_double_of_a_card_given_away_does_not_matter() -> None:
    """K-SCORE-6: the card must be in the scored hand. It is still held this round (announced)."""
    r = Round().effect(0, "Qh", "counts-double").tell(Event("double", {"seat": 0, "card": "Qh"}))
    assert not r.reveal(PAIR, None, None).score(0, "pair").mattered("Qh")


def test_a_hand_limit_matters_when_a_discard_step_leaves_more_than_five() -> None:
    """K-ROUND-2: at the start of discard-1 everybody holds 7, which tells nothing; when the
    discard step is over (draw-2 begins) a seat kept 6."""

    def kept(discards: int, drop: bool = False) -> bool:
        r = Round().draw(0, 2).effect(0, "8s", "hand-limit", extra=1)
        r.tell(Event("hand-limit", {"seat": 0, "limit": 6}))
        r.step("discard-1").discard(0, discards)
        if drop:
            r.tell(Event("drop", {"seat": 0, "step": "discard-1"}))
        return r.step("draw-2").mattered("8s")

    assert kept(1)
    assert not kept(2)
    assert not kept(1, drop=True)  # out of the round: its hand no longer counts


def test_kd_effect_4_a_squeeze_matters_when_a_target_keeps_fewer_than_five() -> None:
    """KD-EFFECT-4: a target discards below 5 at its discard step."""

    def squeezed(discards: int) -> bool:
        r = Round().effect(0, "9c", "squeeze", less=1)
        r.tell(Event("squeeze", {"seat": 0, "targets": [1, 2], "less": 1, "limits": [4, 4]}))
        r.draw(1, 2).draw(2, 2).step("discard-2").discard(1, discards).discard(2, 2)
        return r.step("participate").mattered("9c")

    assert squeezed(3)
    assert not squeezed(2)


def test_kd_effect_2_a_shield_matters_when_another_seat_aims_a_card_effect_later() -> None:
    """KD-EFFECT-2: another seat's card effect that can hit others, announced after the shield
    while the shielded seat is in the round; not a gain for oneself, not an ability, not one
    of its own."""

    def shielded(then: Any, drop: bool = False) -> bool:
        r = Round().effect(0, "5s", "shield").tell(Event("shield", {"seat": 0}))
        if drop:
            r.tell(Event("drop", {"seat": 0, "step": "draw-2"}))
        then(r)
        return r.mattered("5s")

    assert shielded(lambda r: r.effect(1, "2d", "steal", amount=1))
    assert shielded(lambda r: r.effect(2, "9s", "lose", amount=1, who="one"))
    assert not shielded(lambda r: r.effect(1, "2s", "gain", amount=1, who="self"))
    assert not shielded(lambda r: r.effect(1, None, "take", count=1))  # an ability
    assert not shielded(lambda r: r.effect(0, "2d", "steal", amount=1))  # its own seat
    assert not shielded(lambda r: r.effect(1, "2d", "steal", amount=1), drop=True)


def test_k_score_6_a_block_matters_and_the_blocked_effect_does_not() -> None:
    """K-SCORE-6: the block card is used (a holding) and mattered; the blocked effect did
    nothing."""
    blocked = {"seat": 1, "card": "Jh", "owner": 0, "blocked": "Ad", "kind": "steal"}
    r = Round().effect(0, "Ad", "steal", amount=2).tell(Event("blocked", blocked))
    holdings, mattered = r.counts()
    assert holdings == {"Jh": 1, "Ad": 1}
    assert mattered == {"Jh": 1}


def test_an_unknown_kind_never_matters_and_an_ability_closes_the_open_effect() -> None:
    """KD-SETUP-1: a content kind without a rule counts as not mattered; a faction ability
    (K-SCORE-5) is no card's effect, and the chips it moves are not the card's before it."""
    assert "teleport" not in FOLLOW
    assert not Round().effect(0, "4h", "teleport").tell(chips("gain", 3)).mattered("4h")
    r = Round().effect(0, "4h", "peek").effect(0, None, "gain", amount=1)
    assert not r.tell(chips("gain", 1)).mattered("4h")


def test_k_score_1_holdings_once_a_round_held_at_a_scoring_or_used() -> None:
    """K-SCORE-1: a card in a scored hand is held that round, once however often it counts;
    an effect used in another round is another holding."""
    r = Round().effect(0, "7s", "counts-double").tell(Event("double", {"seat": 0, "card": "7s"}))
    r.reveal(PAIR, None, None).score(0, "pair")
    r.start().effect(0, "2s", "gain", amount=1).tell(chips("gain", 1))
    r.reveal(PAIR, ["2s", "3h", "4d", "5c", "7d"], None).score(0, "pair").score(1, "high-card")
    holdings, mattered = r.counts()
    assert holdings == {"2s": 1, "7s": 2, "7h": 2, "2d": 2, "4c": 2, "9s": 2, "3h": 1, "4d": 1,
                        "5c": 1, "7d": 1}  # fmt: skip
    assert mattered == {"2s": 1, "7s": 1}


# --- real games -------------------------------------------------------------------------------


CHIP_KINDS = ("gain", "lose", "steal", "skim", "ante")  # KD-EFFECT-1, KD-EFFECT-3


def played(players: int, seed: int, content: str) -> tuple[list[Event], dict[str, Any]]:
    """A game between medium players, its events, and the collector's game row."""
    state = GAME.new_game(GAME.config_from_options(players, [], content), seed)
    bots = {q: make_bot("medium", seat_seed(seed, q), "apokerlypse") for q in range(players)}
    match: Any = Match(state, bots)
    collector = ApokerlypseCollector(state)
    events = match.start()
    collector.add(events)
    while not match.state.is_over:
        new = match.play_turn()[1]
        events += new
        collector.add(new)
    return events, collector.finish(match.state)[0]


def followed(events: list[Event]) -> tuple[Counter[str], Counter[str]]:
    """The holdings, from each hand followed card by card (the secret parts included), and the
    chip effects that moved a chip: (card, round) once each."""
    hands: dict[int, set[str]] = {}
    holdings: Counter[str] = Counter()
    chips_moved: Counter[str] = Counter()
    now: set[str] = set()
    moved: set[str] = set()
    chip_card: str | None = None  # the chip effect announced last, until the next effect

    for event in [*events, Event("round-start", {})]:
        args = {**event.args, **(event.secret or {})}
        kind = event.kind
        if follow_hand(hands, event):
            continue
        if kind == "round-start":
            holdings.update(now)
            chips_moved.update(moved)
            now, moved = set(), set()
        elif kind == "score":
            now |= hands[args["seat"]]
        elif kind == "blocked":
            now.add(args["card"])
        elif kind == "effect":
            if args["card"] is not None:
                now.add(args["card"])
            chip_card = args["card"] if args["kind"] in CHIP_KINDS else None
        elif kind in CHIP_KINDS and chip_card is not None and args["amount"] > 0:
            moved.add(chip_card)
    return holdings, chips_moved


@pytest.mark.parametrize("content", ["standard", DEFAULT_CONTENT])
def test_kd_setup_1_real_games_holdings_followed_and_chip_effects_counted(content: str) -> None:
    """KD-SETUP-1, KD-EFFECT-1: in 30 games of 2–4 medium players, the holdings are those
    followed card by card through the events; mattered ≤ holdings for every card; and a chip
    card's (gain, lose, steal …) mattered rounds are exactly those in which it moved a chip."""
    effects = GAME.config_from_options(2, [], content).rules_content.effects
    chip_cards = {
        code
        for code, effect in zip(CODES, effects, strict=True)
        if effect is not None and effect.kind in CHIP_KINDS
    }
    assert chip_cards
    seen = 0
    for game in range(30):
        events, row = played(2 + game % 3, 500 + game, content)
        holdings, mattered = row["effect_holdings"], row["effect_mattered"]
        expected, chips_moved = followed(events)
        assert holdings == dict(expected)
        assert all(0 < mattered[code] <= holdings.get(code, 0) for code in mattered)
        for code in chip_cards:
            assert mattered.get(code, 0) == chips_moved[code]
        seen += sum(chips_moved.values())
    assert seen > 0


# --- the command ------------------------------------------------------------------------------


def test_effects_command_writes_a_row_for_each_of_the_52_cards(tmp_path: Path) -> None:
    """KD-SETUP-1: ``apokalypse effects`` on a small run: 52 card rows in card order, each with
    its three table sizes, and the count of cards under the target per table size."""
    from apokalypse.cli.simulate import run_simulate

    folder = tmp_path / "run"
    status = run_simulate(
        "apokerlypse", 6, "2-4", 7, "random", 1, None, True, [], Path("standard"), folder
    )
    assert status == 0
    table = effects_table(folder)
    assert table.content == "standard" and table.note == ""
    assert table.games == {2: 2, 3: 2, 4: 2}
    assert [card.code for card in table.cards] == list(CODES)
    out = tmp_path / "effects.md"
    run = cli("effects", str(folder), "--out", str(out))
    assert run.returncode == 0, run.stderr
    text = out.read_text("utf-8")
    assert text == markdown(table)
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| card | name | effect | 2 players | 3 players | 4 players |")
    cards = rows[1:-1]
    assert len(cards) == 52
    assert cards[0].startswith("| 2♠ | ") and cards[-1].startswith("| A♣ |")
    assert all(line.count(" | ") == 5 for line in cards)
    below = [str(len(table.below(n))) for n in (2, 3, 4)]
    assert rows[-1] == f"| **below {TARGET:.0%}** | | | " + " | ".join(below) + " |"
    assert "Cards whose effect matters" in run.stdout and "wrote" in run.stdout


def test_effects_command_refuses_a_folder_it_cannot_use_in_one_line(tmp_path: Path) -> None:
    """No results folder, or another game's: one line ``error: …``, exit status 2."""
    from apokalypse.cli.simulate import run_simulate

    run = cli("effects", str(tmp_path / "nothing"))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines()[-1].startswith("error: ") and "no such folder" in run.stderr
    other = tmp_path / "apokalypse"
    assert run_simulate("apokalypse", 2, "3", 1, "random", 1, None, True, [], None, other) == 0
    run = cli("effects", str(other))
    assert run.returncode == 2 and "holds apokalypse results, not apokerlypse" in run.stderr
