"""Private tables (``Session.is_private``: the daily deal, /learn) make no channel noise: no
table post, turn ping, announcement, round summary or final post. Two things keep them out of
the channel:

- each listener that talks to the channel sits at a public place of the one ordered list
  (``cogs.features.Place.public``): a change of a private table never reaches it;
- :class:`PrivateTables` is the notifier of the machine seats and the turn clock: a public
  table's redraws and notices go to the table publisher; a private table's redraw (after the
  machine seats moved) edits its player's latest private message instead
  (``cogs.rendering.private_table``), and a notice is not said.

That message is edited with the token of the player's latest interaction that answered with
it (``cogs.kit.followed_views``), through Discord's "Edit Original Interaction Response"
(``PATCH /webhooks/{application.id}/{interaction.token}/messages/@original``); the token is
valid for 15 minutes after the interaction
(https://discord.com/developers/docs/interactions/receiving-and-responding#edit-original-interaction-response).
After that the message stays as it was, and running the command again draws a new one from
the stored game.
"""

from __future__ import annotations

import logging

import discord

from bot.automation.notices import Notice, Notifier
from bot.process.client import TableBot
from bot.records.change import Change, ChangeKind
from bot.records.session import Session
from cogs.client_services import release_view
from cogs.i18n.interaction import player_words
from cogs.rendering.message_delivery import followed_view
from cogs.rendering.private_table import private_table
from cogs.table_services import TableServices

log = logging.getLogger(__name__)


class EndedPrivateTables:
    """The manager listener that forgets a private table's followed view once it ended
    without a last move (abandoned: by its player's next daily, or idle, by the turn clock):
    no redraw is due, and its token may be long gone, so nothing is sent."""

    def __init__(self, services: TableServices) -> None:
        self._services = services

    async def on_change(self, change: Change) -> None:
        # A finished one keeps it: its last redraw (the machine seats' final move) uses it.
        if change.session.is_private and change.kind is ChangeKind.ABANDONED:
            self._services.views.ended(change.session.id)


class PrivateTables:
    """The notifier of the machine seats and the turn clock (see the module doc)."""

    def __init__(self, client: TableBot, services: TableServices, public: Notifier) -> None:
        self._client = client
        self._services = services
        self._public = public

    async def refresh(self, session: Session) -> None:
        if not session.is_private:
            await self._public.refresh(session)
            return
        current = self._client.manager.get(session.id)
        if current is not None and current.version >= session.version:
            session = current
        await self.redraw(session)

    async def notify(self, notice: Notice) -> None:
        if not notice.session.is_private:
            await self._public.notify(notice)

    async def redraw(self, session: Session) -> None:
        """Edit the player's latest private message of ``session`` to show it as it is (when
        that message's token is still valid); once the game is over, forget the message."""
        views = self._services.views
        player = session.host_id
        interaction = views.usable(session.id, player)
        if interaction is None:
            return
        locale = getattr(interaction, "locale", None)
        words = await player_words(self._client, int(player) if player.isdigit() else 0,
                                   getattr(locale, "value", locale))
        render = await followed_view(self._client, self._services, session, player,
                                     await private_table(self._services, session, player, words),
                                     words)
        try:
            await interaction.client.token_writes.edit_original(interaction,
                                                                **render.edit_kwargs())
        except discord.HTTPException as error:
            log.info("session %s: the private table could not be redrawn (%s)",
                     session.id, error.status)
            views.forget(session.id, player)
        finally:
            release_view(render.view)
        if not session.is_live:
            views.ended(session.id)
