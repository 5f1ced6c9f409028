"""A plain-text GameUI for any engine: the public view as text, a select of legal moves.

Used for a game until its own UI package (``cogs/<game key>/``) registers one. It shows the engine's
``view`` models as JSON (public: ``view(state, None)``; private: ``view(state, player)``).
Moves whose JSON does not fit a select option (100 characters) are left out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import discord

from bot.errors import Refusal
from bot.models import Session, Status
from cogs.game_ui import Click, Move, Page, Render
from cogs.ids import ActSelect, HandButton
from game.base import Engine, IllegalAction, PlayerId

_MAX_OPTIONS = 25
_MAX_VALUE = 100
_MAX_DESCRIPTION = 4000


def _block(data: Any) -> str:
    text = json.dumps(data, indent=1, ensure_ascii=False)
    if len(text) > _MAX_DESCRIPTION:
        text = text[: _MAX_DESCRIPTION - 1] + "…"
    return f"```json\n{text}\n```"


class PlainUI:
    rules: Sequence[Page] = ()

    def __init__(self, engine: Engine[Any, Any]) -> None:
        self.engine = engine
        self.key = engine.key
        self.title = engine.title

    def table(self, session: Session) -> Render:
        public = self.engine.view(session.state, None).model_dump(mode="json")
        embed = discord.Embed(title=self.engine.title, description=_block(public))
        names = session.names
        if session.status is Status.FINISHED:
            lines = [
                f"#{r.placement} {names.get(r.player, r.player)} — {r.score}"
                for r in sorted(self.engine.results(session.state), key=lambda r: r.placement)
            ]
            embed.add_field(name="Result", value="\n".join(lines), inline=False)
            return Render(embeds=[embed])
        waiting = ", ".join(names.get(p, p) for p in self.engine.awaiting(session.state))
        embed.add_field(name="Waiting for", value=waiting or "—", inline=False)
        view = discord.ui.View(timeout=None)
        view.add_item(HandButton(session.id))
        return Render(embeds=[embed], view=view)

    def private(self, session: Session, viewer: PlayerId) -> Render:
        mine = self.engine.view(session.state, viewer).model_dump(mode="json")
        embed = discord.Embed(title=f"{self.engine.title} — your view", description=_block(mine))
        if session.status is not Status.ACTIVE:
            return Render(embeds=[embed])
        options: list[discord.SelectOption] = []
        for action in self.engine.legal_actions(session.state, viewer):
            value = action.model_dump_json()
            if len(value) <= _MAX_VALUE and len(options) < _MAX_OPTIONS:
                options.append(discord.SelectOption(label=value, value=value))
        view = discord.ui.View(timeout=None)
        if options:
            view.add_item(ActSelect(session.id, session.version, "move", options,
                                    placeholder="Your move"))
        return Render(embeds=[embed], view=view)

    def action_for(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str] | None
    ) -> Click:
        if payload != "move" or values is None or len(values) != 1:
            raise Refusal("Choose one move from the list.")
        try:
            return Move(self.engine.parse_action(values[0]))
        except IllegalAction as err:
            raise Refusal(str(err)) from None
