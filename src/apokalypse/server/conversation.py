"""What a connection's ``name`` and ``say`` messages do to a game: checked by the wire's rules
(:mod:`apokalypse.wire.talk`), kept in the store, taken into the game's memory; the hub then
sends each connection what it may read (:mod:`.talk`)."""

from __future__ import annotations

from apokalypse.i18n import seat_names, text
from apokalypse.wire.talk import (
    BadText,
    NameMessage,
    SayMessage,
    channel_of,
    check_name,
    check_text,
)

from .entries import Said
from .games import LiveGame
from .refusals import Refused, message
from .store import Store
from .talk import MOST_LINES, Listener


def hear(
    store: Store,
    live: LiveGame,
    seat: int | None,
    listener: Listener,
    request: NameMessage | SayMessage,
) -> bool:
    """Take a name or a line from the connection of ``seat`` (None: a spectator), whose part of
    the talk is ``listener`` (blocking; on its room's turn); whether the game's names or
    talk changed. A :class:`Refused` names what is wrong and changes nothing."""
    lang = live.lang
    try:
        said = check_name(request.name) if isinstance(request, NameMessage) else None
        line = check_text(request.text) if isinstance(request, SayMessage) else None
    except BadText as exc:
        raise Refused(message(exc.key, lang, **exc.values)) from None
    if said is not None:
        if seat is None:  # a spectator's name goes with their lines only
            listener.name = said
            return False
        return live.set_name(store, seat, said)
    assert line is not None
    if not listener.may_say():
        raise Refused(message("talk-flood", lang))
    if seat is None:
        speaker = listener.name or text("names.spectator", lang)
    else:  # as everybody reads it, without anybody's "(you)"
        speaker = seat_names(len(live.kinds), None, lang, live.names, live.kinds)[seat]
    if not live.say(store, Said(channel_of(seat), seat, speaker, line), MOST_LINES):
        raise Refused(message("talk-full", lang))
    return True
