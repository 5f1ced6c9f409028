"""Posts SPLIT round summaries and the final result as new public channel messages.

A manager listener: the engine deals the next round in the same action that ends a round, so
the summary is taken from that change's ``round_end`` event and its session snapshot (the
sheets right after scoring). Public data only.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.manager import Change
from cogs.services import Services
from cogs.split_table import final_embed, round_summary_embed
from game.split.engine import SplitEngine
from game.split.state import RoundSummary

log = logging.getLogger(__name__)


class SplitAnnouncer:
    def __init__(self, client: Any, services: Services) -> None:
        self._client = client
        self._services = services

    def embeds_for(self, change: Change) -> list[discord.Embed]:
        """The public announcement embeds this change calls for (none for most changes)."""
        session = change.session
        if session.game != "split" or change.kind not in ("action", "finished"):
            return []
        engine = self._services.manager.engine(session.game)
        if not isinstance(engine, SplitEngine):
            return []
        view = engine.view(session.state, None)
        embeds = [
            round_summary_embed(session, view, RoundSummary.model_validate(event.data))
            for event in change.events
            if event.kind == "round_end"
        ]
        if change.kind == "finished":
            embeds.append(final_embed(session, view, engine.results(session.state)))
        return embeds

    async def on_change(self, change: Change) -> None:
        embeds = self.embeds_for(change)
        if not embeds:
            return
        session = change.session
        channel = self._client.get_partial_messageable(session.channel_id)
        try:
            await channel.send(embeds=embeds)
        except discord.HTTPException:
            log.warning("could not post the round summary of session %s", session.id)
