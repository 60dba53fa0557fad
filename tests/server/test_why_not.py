"""Why not: a seat asks whether an action would be refused now, and why (``{"type": "why"}``),
and is told exactly what a refused action would be told (the rule id and the reason in the
game's language) or that it is allowed, while nothing changes (:meth:`LiveGame.why`).

First every kind of refusal the rules name, asked of a built position in both languages and
compared with the refusal of the very action sent for real; then random games of both games,
where every answer is the real action's refusal; then the server's bounds and secrecy: only the
asking connection is answered, questions are paced, and the other viewers' messages are the same
whether or not somebody asked why (in a defence window too, where a seat not asked is told the
same whether its turn to be asked has come, gone or never comes)."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from apokalypse.engine.match import Match
from apokalypse.engine.protocol import GameState, refusal
from apokalypse.engine.record import GameRecord
from apokalypse.engine.registry import get_game
from apokalypse.games.apokalypse import State
from apokalypse.games.apokalypse.pending import GameOver
from apokalypse.games.apokerlypse.content import content_text
from apokalypse.i18n import LANGS, text
from apokalypse.server.asking import check, why
from apokalypse.server.connection import WHY_BURST, WHY_RATE
from apokalypse.server.games import LiveGame
from apokalypse.server.limits import Bucket
from apokalypse.server.refusals import Refused
from apokalypse.server.settings import Settings
from apokalypse.wire import WhyAnswer, WhyMessage
from tests.apokalypse import builders
from tests.apokalypse.test_i18n_refusals import _apokalypse_pool
from tests.helpers import snapshot
from tests.test_i18n_refusals import keys_of, load_game

from .inprocess import Running, serving
from .test_turns import TIMEOUT, played_through, post, same_game

NOT_ALLOWED = {"en": "Not allowed — ", "de": "Nicht erlaubt — "}  # how a refusal begins

# --- asked of a LiveGame -----------------------------------------------------------------------


def live_game(state: GameState, lang: str) -> LiveGame:
    """The server's game in memory over ``state`` (built for a rule test), in ``lang``."""
    public = state.observation(None)
    game = get_game(public["game"])
    config = getattr(state, "config")  # noqa: B009 (every game's state has one)
    meta = {"seats": ["human"] * public["players"], "lang": lang}
    record = GameRecord(game.name, game.version, config.to_json(), 0, meta=meta)
    return LiveGame("why", game, record, Match(state, {}))


def ask(
    state: GameState, seat: int | None, action: str, move: int | None = None
) -> dict[str, WhyAnswer]:
    """The answer in each language to ``seat`` asking why about ``action``, each checked to
    leave the game untouched and to be what the action sent for real is told."""
    answers = {}
    for lang in LANGS:
        live = live_game(state, lang)
        shown = state.observation(seat)["move"]  # what the seat's connection was last sent
        before = snapshot(state), list(live.match.actions)
        request = WhyMessage(type="why", action=action, move=shown if move is None else move)
        answer = why(live, seat, request, shown)
        assert (snapshot(state), list(live.match.actions)) == before, "a question changes nothing"
        assert answer["action"] == action and answer["move"] == request.move
        if not answer["allowed"]:  # what the action itself is told (refused before the store)
            with pytest.raises(Refused) as info:
                live.play(None, check(live, seat, request, shown))  # type: ignore[arg-type]
            assert (answer["reason"], answer.get("rule")) == (info.value.reason, info.value.rule)
        answers[lang] = answer
    assert answers["en"]["reason"] != answers["de"]["reason"], "each in its language"
    return answers


def refused_for(state: GameState, seat: int, action: str, rule: str, key: str) -> None:
    """``action`` asked by ``seat`` is refused for ``rule`` with the text of ``key``."""
    answers = ask(state, seat, action)
    exc = refusal(state, get_game(state.observation(None)["game"]).parse_action(action))
    assert exc is not None and (exc.rule, exc.key) == (rule, key), (action, exc)
    for lang, answer in answers.items():
        assert answer["allowed"] is False and answer.get("rule") == rule, (lang, answer)
        assert answer["reason"].startswith(NOT_ALLOWED[lang] + rule), answer
        assert "{" not in answer["reason"], answer


def turn(*hand: str, players: int = 4) -> State:
    """Seat 0 (p1) on turn holding ``hand``."""
    s = builders.blank(players)
    builders.hand(s, 0, *hand)
    return s


# Each kind of refusal: a position, what seat 0 asks there, the rule and the catalog key.
Case = tuple[Callable[[], State], str, str, str]


def _music_everywhere() -> State:
    s = turn("violence", players=2)
    for seat in (0, 1):
        builders.put(s, seat, "good", "earth", "pop")
        builders.put(s, seat, "good", "heaven", "church")
    return s


def _persons() -> State:
    s = turn("ethos", players=2)
    builders.put(s, 0, "good", "earth", "saint")
    return s


def _mixed() -> State:
    s = _persons()
    builders.put(s, 1, "good", "earth", "pop")
    builders.put(s, 1, "good", "heaven", "church")
    return s


def _evil_heaven_open(*hand: str) -> State:
    s = turn(*hand)
    builders.put(s, 0, "evil", "earth", "pop")
    builders.put(s, 0, "evil", "nether", "job/drugs")
    return s


def _good_nether_open(*hand: str) -> State:
    s = turn(*hand)
    builders.put(s, 0, "good", "earth", "pop")
    builders.put(s, 0, "good", "heaven", "m/hp")
    return s


def _choosing(s: State, first: str) -> State:
    builders.act(s, first)
    return s


def _targets(*hand: str, first: str) -> Callable[[], State]:
    """Seat 0 holding ``hand`` on a board with a populace and cards on both sides, choosing
    where ``first`` goes."""

    def made() -> State:
        s = turn(*hand)
        builders.populaces(s, 0, good=1, evil=1)
        builders.put(s, 0, "evil", "nether", "job/drugs")
        builders.put(s, 0, "evil", "heaven", "h/mp")
        builders.put(s, 0, "good", "heaven", "church")
        builders.populaces(s, 1, good=1)
        builders.put(s, 1, "good", "heaven", "p/mh")
        builders.put(s, 1, "good", "nether", "chastity/sex")
        builders.put(s, 2, "good", "earth", "saint")
        builders.populaces(s, 1, evil=1)
        builders.put(s, 1, "evil", "nether", "metal")
        return _choosing(s, first)

    return made


TURN_CASES: dict[str, Case] = {
    "unknown card": (lambda: turn("m/hp"), "play nonsense heaven", "R-TURN-1", "play.unknown-card"),
    "not held": (lambda: turn("m/hp"), "play metal heaven", "R-TURN-1", "play.not-held"),
    "wrong use": (lambda: turn("m/hp"), "play m/hp nether", "R-PLAY-11", "play.wrong-use"),
    "a person kept off the other side": (
        lambda: turn("saint", "m/hp"),
        "play saint evil",
        "R-PLAY-6",
        "play.wrong-use",
    ),
    "a good populace needs a gift": (
        lambda: turn("m/hp"),
        "play m/hp good",
        "R-PLAY-4",
        "play.good-needs-gift",
    ),
    "no attack target": (
        lambda: turn("violence"),
        "play violence attack",
        "R-ATTACK-1",
        "attack.no-target",
    ),
    "every target under music": (
        _music_everywhere,
        "play violence attack",
        "R-PLAY-17",
        "attack.all-music",
    ),
    "every target a person": (_persons, "play ethos attack", "R-PLAY-6", "attack.all-persons"),
    "every target shielded": (_mixed, "play ethos attack", "R-PLAY-17", "attack.all-shielded"),
    "no place": (lambda: turn("m/hp"), "play m/hp heaven", "R-PLAY-8", "play.no-place"),
    "Church Music and no good place": (
        lambda: _evil_heaven_open("church"),
        "play church heaven",
        "R-PLAY-9",
        "play.church-no-good-place",
    ),
    "Heavy Metal and no evil place": (
        lambda: _good_nether_open("metal"),
        "play metal nether",
        "R-PLAY-13",
        "play.metal-no-evil-place",
    ),
    "neither play nor pass": (lambda: turn("m/hp"), "give m/hp", "R-TURN-1", "turn.play-or-pass"),
}
HEAVEN = _targets("m/hp", first="play m/hp heaven")
NETHER = _targets("job/drugs", first="play job/drugs nether")
METAL = _targets("metal", first="play metal nether")
TARGET_CASES: dict[str, Case] = {
    "a place, not another play": (HEAVEN, "pass", "R-TURN-1", "target.choose-place"),
    "a player and side only": (
        _targets("m/hp", "pig", first="play m/hp good"),
        "target p1.good.heaven",
        "R-PLAY-3",
        "target.player-and-side",
    ),
    "the populace's own side": (
        _targets("m/hp", "pig", first="play m/hp good"),
        "target p1.evil",
        "R-PLAY-3",
        "play.populace-side",
    ),
    "an attack on a basic populace": (
        _targets("violence", first="play violence attack"),
        "target p4.good",
        "R-ATTACK-1",
        "attack.basic-only",
    ),
    "an attack on a populace under music": (
        _targets("violence", first="play violence attack"),
        "target p1.good",
        "R-PLAY-17",
        "attack.music",
    ),
    "an Ethos change on a person": (
        _targets("ethos", first="play ethos attack"),
        "target p3.good",
        "R-PLAY-6",
        "attack.immune",
    ),
    "no such seat": (HEAVEN, "target p9.good.heaven", "R-PLAY-1", "seat.unknown"),
    "the wrong plane": (HEAVEN, "target p1.good.nether", "R-PLAY-7", "play.wrong-plane"),
    "no card there": (HEAVEN, "target p1.good.heaven.5", "R-PLAY-1", "play.no-card-at"),
    "music is not replaced": (
        HEAVEN,
        "target p1.good.heaven.0",
        "R-PLAY-15",
        "play.music-not-replaced",
    ),
    "Heaven replaced on the good side only": (
        HEAVEN,
        "target p1.evil.heaven.0",
        "R-PLAY-10",
        "play.replace-heaven",
    ),
    "the Netherworld replaced on the evil side only": (
        NETHER,
        "target p2.good.nether.0",
        "R-PLAY-14",
        "play.replace-nether",
    ),
    "good Heaven needs a populace": (
        HEAVEN,
        "target p4.good.heaven",
        "R-PLAY-8",
        "play.good-heaven-needs-populace",
    ),
    "evil Heaven needs a Netherworld card": (
        HEAVEN,
        "target p4.evil.heaven",
        "R-PLAY-8",
        "play.evil-heaven-needs-nether",
    ),
    "Church Music on the good side only": (
        _targets("church", first="play church heaven"),
        "target p1.evil.heaven",
        "R-PLAY-9",
        "play.church-good-only",
    ),
    "Heavy Metal on the evil side only": (
        METAL,
        "target p2.good.nether",
        "R-PLAY-13",
        "play.metal-evil-only",
    ),
    "good Netherworld needs a Heaven card": (
        NETHER,
        "target p4.good.nether",
        "R-PLAY-12",
        "play.good-nether-needs-heaven",
    ),
    "evil Netherworld needs a populace": (
        NETHER,
        "target p4.evil.nether",
        "R-PLAY-12",
        "play.evil-nether-needs-populace",
    ),
    "neutralise only the other music": (
        _targets("church", first="play church neutralise"),
        "target p2.good.heaven.0",
        "R-PLAY-15",
        "play.nothing-to-neutralise",
    ),
    "the same music is not neutralised": (
        _targets("metal", first="play metal neutralise"),
        "target p2.evil.nether.0",
        "R-PLAY-15",
        "play.same-music",
    ),
}


@pytest.mark.parametrize("case", [*TURN_CASES, *TARGET_CASES])
def test_r_play_why_not_names_each_refusals_rule_in_both_languages(case: str) -> None:
    """R-TURN-1, R-PLAY-*, R-ATTACK-1: each kind of refusal of a play and of its target."""
    build, action, rule, key = {**TURN_CASES, **TARGET_CASES}[case]
    refused_for(build(), 0, action, rule, key)


def test_r_turn_1_what_is_allowed_is_said_so_and_nothing_changes() -> None:
    s = _targets("m/hp", "pig", first="play m/hp good")()
    for lang, answer in ask(s, 0, "target p1.good").items():
        assert answer["allowed"] is True and "rule" not in answer
        assert answer["reason"] == text("server.why-allowed", lang)
    assert builders.legal_texts(s) >= {"target p1.good"}


def _gift() -> State:
    s = _targets("m/hp", "pig", first="play m/hp good")()
    builders.act(s, "target p1.good")
    return s


def _steal() -> State:
    s = _targets("m/hp", first="play m/hp evil")()
    builders.hand(s, 2, "pig")
    builders.act(s, "target p1.evil")
    return s


def test_r_play_4_and_5_why_not_give_or_steal() -> None:
    refused_for(_gift(), 0, "pass", "R-PLAY-4", "gift.choose-card")
    refused_for(_gift(), 0, "give metal", "R-PLAY-4", "gift.not-held")
    chosen = _gift()
    builders.act(chosen, "give pig")
    refused_for(chosen, 0, "pass", "R-PLAY-4", "gift.choose-player")
    refused_for(chosen, 0, "to p1", "R-PLAY-4", "gift.self")
    refused_for(_steal(), 0, "pass", "R-PLAY-5", "steal.choose-player")
    refused_for(_steal(), 0, "steal p2", "R-PLAY-5", "steal.no-cards")  # p2's empty hand: public


def _window() -> State:
    """p1 attacks p2's good populace with Violence; p2 holds Heavy Metal and is asked first."""
    s = turn("violence")
    builders.populaces(s, 1, good=1)
    builders.hand(s, 1, "metal")
    builders.hand(s, 2, "m/hp")
    builders.act(s, "play violence attack", "target p2.good")
    return s


def test_r_attack_4_why_not_defend_and_a_seat_not_asked_is_told_the_same_throughout() -> None:
    s = _window()
    assert s.to_act == 1
    refused_for(s, 1, "pass", "R-ATTACK-4", "defend.answer")
    refused_for(s, 1, "defend violence", "R-ATTACK-4", "defend.against-violence")
    refused_for(s, 1, "defend church", "R-ATTACK-4", "defend.not-held")
    assert ask(s, 1, "defend metal")["en"]["allowed"] is True
    # Everybody else is told it is not their decision: the attacker, a seat yet to be asked (p3),
    # and the same seats once the question has gone past them.
    told = {seat: ask(s, seat, "defend metal") for seat in (0, 2, 3)}
    builders.act(s, "decline")
    assert s.to_act == 2
    told_after = {seat: ask(s, seat, "defend metal") for seat in (0, 1, 3)}
    for lang in LANGS:
        expected = text("server.not-your-turn", lang)
        for answer in [*told.values(), *told_after.values()]:
            assert answer[lang]["reason"] == expected and "rule" not in answer[lang]


def test_r_attack_3_why_not_choose_a_display() -> None:
    s = turn("ethos")
    builders.populaces(s, 1, good=1)
    builders.act(s, "play ethos attack", "target p2.good")
    builders.decline_all(s)
    refused_for(s, 0, "pass", "R-ATTACK-3", "convert.choose-display")


def test_the_servers_own_refusals_are_told_as_a_refused_action_is() -> None:
    s = turn("m/hp")
    for seat, action, move, key in (
        (None, "pass", None, "server.spectator"),
        (1, "pass", None, "server.not-your-turn"),
        (0, "pass", 7, "server.stale"),
    ):
        for lang, answer in ask(s, seat, action, move).items():
            expected = text(key, lang, sent=move, move=s.move)
            assert answer == {
                "type": "why", "wire": answer["wire"], "action": action,
                "move": move or s.move, "allowed": False, "reason": expected,
            }  # fmt: skip
    for lang, answer in ask(s, 0, "play").items():
        assert answer["reason"].startswith(text("ui.error.notation", lang, message="")[:8])
    s.pending = GameOver()
    for lang, answer in ask(s, 0, "pass").items():
        assert answer["reason"] == text("server.over", lang)


def _sweep(game: str, games: int, pool: list[str], options: Callable[[int], Any]) -> set[str]:
    """Random games of ``game``: at each decision a few actions from ``pool`` asked by the
    deciding seat are answered as the real action is (``ask`` checks it); the keys seen."""
    seen: set[str] = set()
    rules = get_game(game)
    for seed in range(games):
        s = rules.new_game(options(seed), seed)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_actions()
            for action in rng.sample(pool, 3):
                exc = refusal(s, rules.parse_action(action))
                answers = ask(s, s.to_act, action)
                assert answers["en"]["allowed"] is (exc is None)
                if exc is not None and exc.key is not None:
                    seen.add(exc.key)
            s.apply(rng.choice(legal))
    return seen


def test_why_not_in_random_games_of_both_games_is_what_the_action_is_told() -> None:
    apokalypse = get_game("apokalypse")
    seen = _sweep(
        "apokalypse",
        3,
        _apokalypse_pool(),
        lambda seed: apokalypse.config_from_options(2 + seed, [], None),
    )
    # With the built positions above, every refusal a seat can meet (the game's end is
    # refused by the server first) is asked about somewhere in this file.
    built = {case[3] for case in [*TURN_CASES.values(), *TARGET_CASES.values()]}
    built |= {"gift.choose-card", "gift.not-held", "gift.choose-player", "gift.self"}
    built |= {"steal.choose-player", "steal.no-cards", "convert.choose-display"}
    built |= {"defend.answer", "defend.against-violence", "defend.not-held"}
    missing = keys_of(load_game("apokalypse")) - seen - built - {"game.over"}
    assert missing <= {"seal.place-now", "seal.wrong-place"}, missing
    poker = get_game("apokerlypse")
    codes = sorted(json.loads(json.dumps(list(poker.new_game(
        poker.config_from_options(2, [], content_text("example")), 0
    ).observation(0)["hand"]))))  # fmt: skip
    pool = ["pay", "stand", "drop", "ability", "done", "allow", "target p2", "target p5"]
    pool += [f"{v} {c}" for v in ("discard", "use", "give", "swap", "block") for c in codes]
    seen = _sweep(
        "apokerlypse",
        2,
        pool,
        lambda seed: poker.config_from_options(3, [], content_text("example")),
    )
    assert len(seen) >= 5, seen


# --- through the server ------------------------------------------------------------------------


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    with serving(f"sqlite:///{tmp_path / 'db.sqlite3'}", Settings()) as server:
        yield server


def receive_any(ws: ClientConnection, timeout: float = TIMEOUT) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def quiet(ws: ClientConnection, seconds: float = 0.3) -> bool:
    """Nothing arrives on ``ws`` for ``seconds``."""
    with contextlib.suppress(TimeoutError):
        ws.recv(timeout=seconds)
        return False
    return True


def test_only_the_asker_is_answered_and_questions_are_bounded(running: Running) -> None:
    running.still_clock()  # the questions' pace counts by it: no question more passes meanwhile
    created = post(running, {"game": "apokalypse", "players": 2, "seats": ["human", "human"]})
    urls = [running.ws(created["id"], seat["token"]) for seat in created["seats"]]
    # One at a time, each after the ones before it were told: a watcher that arrives while the
    # second seat's arrival is still being announced would hear of it as a second message.
    with contextlib.ExitStack() as stack:
        seats = [stack.enter_context(connect(urls[0], open_timeout=TIMEOUT))]
        receive_any(seats[0])
        seats.append(stack.enter_context(connect(urls[1], open_timeout=TIMEOUT)))
        firsts = [receive_any(seats[0]), receive_any(seats[1])]  # both seats connected
        watcher = stack.enter_context(connect(running.ws(created["id"]), open_timeout=TIMEOUT))
        receive_any(watcher)
        k = next(k for k in (0, 1) if firsts[k]["legal"])  # who decides first
        me, other = seats[k], seats[1 - k]
        move = firsts[k]["observation"]["move"]
        me.send(json.dumps({"type": "why", "action": "play nonsense heaven", "move": move}))
        answer = receive_any(me)
        assert answer["type"] == "why" and answer["rule"] == "R-TURN-1", answer
        assert quiet(other) and quiet(watcher), "nobody else hears of it"
        other.send(json.dumps({"type": "why", "action": "pass", "move": move}))
        assert receive_any(other)["reason"] == text("server.not-your-turn", "en")
        watcher.send(json.dumps({"type": "why", "action": "pass", "move": move}))
        assert receive_any(watcher)["reason"] == text("server.spectator", "en")
        too_long = {"type": "why", "action": "x" * 201, "move": move}
        me.send(json.dumps(too_long))
        assert receive_any(me)["type"] == "refused", "an action text over 200 characters"
        for _ in range(int(WHY_BURST) + 2):
            me.send(json.dumps({"type": "why", "action": "pass", "move": move}))
        answers = [receive_any(me) for _ in range(int(WHY_BURST) + 2)]
        kinds = [a["type"] for a in answers]
        # The burst, less the question asked above, answered; the rest refused.
        assert kinds.count("why") == WHY_BURST - 1 and kinds.count("refused") == 3, kinds
        paced = next(a for a in answers if a["type"] == "refused")
        assert paced["reason"] == text("server.why-pace", "en")


def test_nobody_else_can_tell_whether_somebody_asked_why(running: Running) -> None:
    """Two games dealt alike and played alike, in one of which the people ask why about a few
    actions as they play (on their turn, in a window whether asked or not, and when it is
    nobody's decision of theirs), within the pace the server allows: every viewer is sent the
    same state messages in both, the game is stored the same, and a person not deciding is
    told only what a refused action tells them, that it is not their decision (or that they
    asked about a move gone by), never a rule: so a seat not asked in a window learns the
    same whether its turn to be asked has come, gone or never comes."""
    store = running.hub.store
    quiet_id, quiet_tokens = same_game(store, 20261126)
    asked_id, asked_tokens = same_game(store, 20261126)
    plain, _ = played_through(running, quiet_id, quiet_tokens, manual=True)
    deciding: dict[int, list[bool]] = {k: [] for k in range(1, 4)}
    told: dict[int, list[dict[str, Any]]] = {k: [] for k in range(1, 4)}
    seen = dict.fromkeys(range(1, 4), 0)
    # Asked within the server's pace (the game itself goes faster: it waits on nobody), in
    # windows above all: a question the server declined to answer would be no test.
    pace = {k: Bucket(WHY_RATE * 0.75, WHY_BURST - 2) for k in range(1, 4)}
    windows = [0]

    def aside(k: int, message: dict[str, Any], ws: ClientConnection) -> None:
        if message["type"] != "state":
            told[k].append(message)
            return
        if k == 0:
            return
        obs, legal = message["observation"], message["legal"]
        asked_now = any(a["verb"] == "decline" for a in legal)
        window = "result" not in obs and (obs["to_act"] is None or asked_now)
        seen[k] += 1
        if (not window and seen[k] % 16) or pace[k].take() > 0:
            return
        windows[0] += window
        hand = obs.get("hand") or ["m/hp"]
        action = ["pass", "decline", f"play {hand[0]} heaven", "defend metal"][seen[k] % 4]
        deciding[k].append(bool(legal))
        ws.send(json.dumps({"type": "why", "action": action, "move": obs["move"]}))

    asked, _ = played_through(running, asked_id, asked_tokens, manual=True, aside=aside)
    assert asked[0] == plain[0], "the spectator was sent the same"
    for q in range(1, 4):
        assert asked[q] == plain[q], f"seat {q - 1} was sent the same"
    a, b = store.load(quiet_id), store.load(asked_id)
    assert a.actions == b.actions and a.result == b.result
    assert windows[0] >= 3, "asked in windows too"
    not_yours = text("server.not-your-turn", "en")
    for k in range(1, 4):
        assert len(told[k]) >= len(deciding[k]) - 3  # the last few may come after the end
        for decides, answer in zip(deciding[k], told[k], strict=False):  # one each, in order
            assert answer["type"] == "why", answer
            if not decides:
                stale = answer["reason"].startswith("That action answers move")
                assert answer["reason"] == not_yours or stale, answer
                assert "rule" not in answer and answer["allowed"] is False
