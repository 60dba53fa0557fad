"""What the server tells a client that asked for something it does not do: :class:`Refused`, in
the game's language, with the rule id when the rules refused it."""

from __future__ import annotations

from apokalypse.engine.erased import Erased
from apokalypse.engine.errors import IllegalAction
from apokalypse.i18n import text
from apokalypse.i18n.texts import Texts
from apokalypse.wire import WIRE_VERSION, RefusedMessage


def message(key: str, lang: str, **values: object) -> str:
    """The server's own refusals (the rules' refusals come from each game's catalog)."""
    return text(f"server.{key}", lang, **values)


class Refused(Exception):
    """An action the server does not apply: ``reason`` in the game's language, ``rule`` the
    rule id when the rules refused it."""

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule

    @classmethod
    def by_rules(cls, exc: IllegalAction, texts: Texts[Erased, Erased]) -> Refused:
        """The rules' refusal, told in the game's language with its rule id."""
        return cls(texts.refusal(exc), exc.rule)

    def to_json(self) -> RefusedMessage:
        data: RefusedMessage = {"type": "refused", "wire": WIRE_VERSION, "reason": self.reason}
        if self.rule is not None:
            data["rule"] = self.rule
        return data
