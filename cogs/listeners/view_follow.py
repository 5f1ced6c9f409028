"""Private views that follow the game: when it becomes a player's turn, the ephemeral view they
last opened or clicked is edited to show their current hand and controls.

An ephemeral message can only be edited through the token of the interaction that answered with
it (``PATCH /webhooks/{app}/{token}/messages/@original``), and Discord keeps that token valid
for 15 minutes. :class:`cogs.kit.followed_views.FollowedViews` (in the services)
remembers, per game and player, the latest such interaction (the click handlers call
``cogs.client_services.remember_view`` whenever they answer with a private view);
:class:`ViewFollower`, a manager listener, edits it when the player becomes awaited. A token
older than Discord's 15 minutes (less a margin) is not used, and an edit that fails forgets the
view: the ping's and table's buttons open a fresh one. The edit shows the player's hand picture
when they have pictures on (``cogs.rendering.message_delivery.followed_view``; else it removes
an older one); for a player without such a view, the picture is drawn ahead, so the hand they
open comes with it at once.

A view is drawn from the live game when its click comes in and remembered once it is answered.
A change that makes its player awaited can be published in between (a machine seat's move, the
turn clock's, stored while the click was on its way): its follow then found only the player's
older view, or none, and the new one would show "Waiting for …" without controls while the
game waits for them. So a view just remembered is looked at at once
(:meth:`ViewFollower.catch_up`, through ``FollowedViews.catch_up``): when the game has moved
past the version it shows and awaits its player, it is brought up to date. The edits of one
player's view go one at a time, each drawn from the newest version, and a view that already
shows that version is not edited again.

Memory stays flat: one entry per seated human at most, dropped when the game ends, when the
token ages out, or after a failed edit.
"""

from __future__ import annotations

import logging

import discord

from bot.process.client import TableBot
from bot.records.change import Change, ChangeKind
from bot.records.session import Session
from cogs.client_services import Interaction, release_view
from cogs.game_ui import private_in
from cogs.i18n.interaction import player_words
from cogs.kit.followed_views import ANSWERED_MESSAGE, FollowedViews
from cogs.kit.keyed_locks import Turns
from cogs.listeners.awaited_players import AwaitedHumans, humans_awaited
from cogs.rendering.message_delivery import draw_hand_ahead, followed_view
from cogs.table_services import TableServices
from game.base import PlayerId

log = logging.getLogger(__name__)

REDRAWS = 3  # drawings of one follow that a faster game may overtake before it gives up

class ViewFollower:
    """Edits an awaited player's latest private view when the turn comes to them."""

    def __init__(self, client: TableBot, services: TableServices) -> None:
        self._client = client
        self._services = services
        self._awaited = AwaitedHumans()
        self._turns = Turns()  # (session id, player): one edit of their view at a time
        services.views.catch_up = self.catch_up

    async def on_change(self, change: Change) -> None:
        views = self._services.views
        session = change.session
        if not session.is_live:
            views.ended(session.id)
            self._awaited.forget(session.id)
            return
        if change.kind not in (ChangeKind.STARTED, ChangeKind.ACTION) or session.state is None:
            return
        for player in self._awaited.newly_awaited(change):
            if views.usable(session.id, player) is not None:
                await self._follow(session, player)
            else:  # they will open their hand: its picture is drawn by then
                await draw_hand_ahead(self._client, self._services, session, player,
                                      await player_words(self._client, player))

    async def catch_up(self, session_id: int, player: PlayerId) -> None:
        """``player``'s view was just remembered: when the live game awaits them and moved
        past the version it shows (the change that made them awaited was published while it
        was drawn and answered), bring it up to date."""
        live = self._client.manager.get(session_id)
        if live is None or live.is_private or player not in humans_awaited(self._client, live):
            return
        shown = self._services.views.shown(session_id, player)
        if shown is not None and shown < live.version:
            log.info("session %s: a private view opened as the turn came is brought up to "
                     "date (version %s -> %s)", session_id, shown, live.version)
            await self._follow(live, player)

    async def _follow(self, session: Session, player: PlayerId) -> None:
        """Edit ``player``'s followed view to the newest version (``session`` or a newer live
        one), unless it shows that version already."""
        views = self._services.views
        async with self._turns.of((session.id, player)):
            for _ in range(REDRAWS):
                current = self._client.manager.get(session.id)
                if current is not None and current.version > session.version:
                    session = current  # overtaken meanwhile: show the game as it is now
                interaction = views.usable(session.id, player)
                shown = views.shown(session.id, player)
                if interaction is None or (shown is not None and shown >= session.version):
                    return
                if await self._edit(views, interaction, session, player):
                    return
                # The game moved on while the view was drawn (a picture can take a while): an
                # edit now could overwrite the player's own newer answer with the older turn.

    def _moved_on(self, session: Session) -> bool:
        current = self._client.manager.get(session.id)
        return current is not None and current.version > session.version

    async def _edit(self, views: FollowedViews, interaction: Interaction, session: Session,
                    player: PlayerId) -> bool:
        """Edit the view to ``session``; False (nothing sent) when the game moved past it while
        the view was drawn."""
        locale = getattr(interaction, "locale", None)
        words = await player_words(self._client, int(player) if player.isdigit() else 0,
                                   getattr(locale, "value", locale))
        features = self._services.features
        render = private_in(self._services.uis.ui(session.game), session, player, words,
                            lambda: features.turn_items(session, player, words))
        render = await followed_view(self._client, self._services, session, player, render, words)
        if self._moved_on(session):
            release_view(render.view)
            return False
        shown = views.shown_on(session.id, player, interaction.extras.get(ANSWERED_MESSAGE))
        if shown is not None and shown >= session.version:
            # While it was drawn, the player's own click answered on this very message with
            # this version: the same edit again would only send the same picture again.
            release_view(render.view)
            return True
        try:
            await interaction.client.token_writes.edit_original(interaction,
                                                                **render.edit_kwargs())
        except discord.HTTPException as error:
            log.info("session %s: a private view could not follow the game (%s)",
                     session.id, error.status)
            if views.usable(session.id, player) is interaction:  # not a view opened meanwhile
                views.forget(session.id, player)
        else:
            views.showing(session.id, player, interaction, session.version)
        finally:
            release_view(render.view)
        return True
