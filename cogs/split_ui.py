"""The SPLIT GameUI: public table, private hand with controls, and click translation.

Registered in ``cogs.ui_registry``. Layout and words live in ``cogs.split_table`` (public),
``cogs.split_hand`` (private) and ``cogs.split_format``; round summaries and the final result
are posted by ``cogs.split_announce``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.errors import Refusal
from bot.models import Session, Status
from cogs.game_ui import Render
from cogs.rules_text import rules_page
from cogs.split_hand import UNKNOWN_CONTROL, private_render, resolve
from cogs.split_table import scores_embed, table_render
from game.base import Engine, PlayerId
from game.split.engine import SplitEngine

# Tables drawn before Rules and Scores became info buttons (``tb:info``) carry them as game
# buttons; a restarted bot still answers those for the seated players.
LEGACY_RULES_PAYLOAD = "rules"
LEGACY_SCORES_PAYLOAD = "scores"


class SplitUI:
    def __init__(self, engine: Engine[Any, Any]) -> None:
        if not isinstance(engine, SplitEngine):
            raise TypeError("SplitUI draws SPLIT games only")
        self.engine: SplitEngine = engine

    def table(self, session: Session) -> Render:
        view = self.engine.view(session.state, None)
        results = (
            self.engine.results(session.state) if session.status is Status.FINISHED else []
        )
        return table_render(session, view, results)

    def private(self, session: Session, viewer: PlayerId) -> Render:
        return private_render(self.engine, session, viewer)

    def scores(self, session: Session) -> Render:
        return Render(embeds=[scores_embed(session, self.engine.view(session.state, None))])

    def action_for(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str]
    ) -> Mapping[str, Any] | str | Render:
        if payload == LEGACY_RULES_PAYLOAD:
            return rules_page(self.engine.key, 0)
        if payload == LEGACY_SCORES_PAYLOAD:
            return self.scores(session)
        if payload.startswith("pg:"):
            page = payload[3:]
            if not page.isdecimal():
                raise Refusal(UNKNOWN_CONTROL)
            return private_render(self.engine, session, viewer, page=int(page))
        return resolve(self.engine, session, viewer, payload, values)
