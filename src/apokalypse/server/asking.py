"""What a connection's action or "why not?" asks of a game in play: checked as the rules and the
table would check it, changing nothing (:func:`check`, :func:`why`). The action itself is then
applied by :meth:`apokalypse.server.games.LiveGame.play`."""

from __future__ import annotations

from apokalypse.engine.errors import NotationError
from apokalypse.engine.protocol import ActionValue, refusal
from apokalypse.i18n import notation_reason, text
from apokalypse.wire import WIRE_VERSION, ActionMessage, WhyAnswer, WhyMessage

from .games import LiveGame
from .refusals import Refused, message


def check(
    live: LiveGame, seat: int | None, request: ActionMessage | WhyMessage, shown: int | None
) -> ActionValue:
    """The action a seat's message asks for (or asks about), parsed; a :class:`Refused`
    otherwise. ``shown``: the move of the observation this connection was last sent."""
    lang = live.lang
    if seat is None:
        raise Refused(message("spectator", lang))
    if request.move != shown:
        raise Refused(message("stale", lang, sent=request.move, move=shown))
    state = live.state
    if state.is_over:
        raise Refused(message("over", lang))
    if state.to_act != seat:
        raise Refused(message("not-your-turn", lang))
    try:
        action: ActionValue = live.game.parse_action(request.action)
    except NotationError as exc:
        reason = notation_reason(exc, live.record.game, lang)
        raise Refused(text("ui.error.notation", lang, message=reason)) from None
    except ValueError as exc:  # a parser's own slip: still only a typo
        reason = f"{request.action!r}: {exc}"
        raise Refused(text("ui.error.notation", lang, message=reason)) from None
    return action


def why(live: LiveGame, seat: int | None, request: WhyMessage, shown: int | None) -> WhyAnswer:
    """Whether the action a seat asks about would be refused now, and why, changing
    nothing: the checks of a real action (:func:`check`, then the rules on a clone of the
    game, :func:`refusal`), so the answer is the very refusal that action would get, in the
    same words. It says only what a refused action would: a seat that does not decide now
    (in a window: whether it was not asked yet, was asked already or is never asked) is
    told it is not its decision, and the rules are asked only for the seat that decides,
    about its own hand and the table."""
    answer: WhyAnswer = {
        "type": "why",
        "wire": WIRE_VERSION,
        "action": request.action,
        "move": request.move,
        "allowed": False,
        "reason": "",
    }
    try:
        exc = refusal(live.state, check(live, seat, request, shown))
        if exc is not None:
            raise Refused.by_rules(exc, live.texts)
    except Refused as refused:
        answer["reason"] = refused.reason
        if refused.rule is not None:
            answer["rule"] = refused.rule
        return answer
    answer["allowed"] = True
    answer["reason"] = message("why-allowed", live.lang)
    return answer
