"""Posts what a game UI announces for a change (``cogs.game_ui.Announces``: SPLIT's round
summaries and final result) as new public channel messages (follow-ups of the click that made
the change when it can carry them, ``cogs.kit.message_routes``). A manager listener; public data
only. Games whose UI announces nothing are not touched."""

from __future__ import annotations

import logging

import discord

from bot.process.client import TableBot
from bot.records.change import Change
from cogs.game_ui import ANNOUNCES, able
from cogs.i18n.interaction import server_words
from cogs.i18n.words import Words
from cogs.kit.message_routes import Unreachable, cause_of
from cogs.table_services import TableServices

log = logging.getLogger(__name__)


class Announcer:
    def __init__(self, client: TableBot, services: TableServices) -> None:
        self._client = client
        self._services = services

    def embeds_for(self, change: Change, words: Words) -> list[discord.Embed]:
        """The public announcement embeds this change calls for (none for most changes), in
        ``words`` (the server's)."""
        ui = able(self._services.uis.ui(change.session.game), ANNOUNCES)
        return ui.announcement(change, words) if ui is not None else []

    async def on_change(self, change: Change) -> None:
        session = change.session
        if able(self._services.uis.ui(session.game), ANNOUNCES) is None:
            return
        embeds = self.embeds_for(change, await server_words(self._client, session.guild_id))
        if not embeds:
            return
        routes = self._services.routes
        try:
            await routes.send(self._client, session, cause_of(change.origin), embeds=embeds)
        except Unreachable:
            log.info("session %s: no token to announce with", session.id)
        except discord.HTTPException:
            log.warning("could not post the announcement of session %s", session.id)
