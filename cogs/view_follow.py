"""Private views that follow the game: when it becomes a player's turn, the ephemeral view they
last opened or clicked is edited to show their current hand and controls.

An ephemeral message can only be edited through the token of the interaction that answered
with it (``PATCH /webhooks/{app}/{token}/messages/@original``), and Discord keeps that token
valid for 15 minutes. :class:`FollowedViews` remembers, per game and player, the latest such
interaction (the click handlers call :meth:`FollowedViews.remember` whenever they answer with a
private view); :class:`ViewFollower`, a manager listener, edits it when the player becomes
awaited. A token older than :data:`TOKEN_LIFETIME` (less a margin) is not used, and an edit
that fails forgets the view: the ping's and table's buttons open a fresh one. The edit shows
the player's hand picture when they have pictures on (``cogs.shown.followed_view``; else it
removes an older one); for a player without such a view, the picture is drawn ahead, so the
hand they open comes with it at once.

Memory stays flat: one entry per seated human at most, dropped when the game ends, when the
token ages out, or after a failed edit.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.client import TableBot
from bot.manager import Change, ChangeKind
from bot.models import Session
from cogs.awaited import AwaitedHumans
from cogs.context import Interaction, game_uis, release_view
from cogs.game_ui import private_in
from cogs.i18n.interaction import player_words
from cogs.ids import TABLE_COG
from cogs.shown import draw_hand_ahead, followed_view
from game.base import PlayerId

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 15 * 60.0  # seconds Discord accepts an interaction token for
MARGIN = 30.0  # an edit is not started this close to the token's end


@dataclass
class Followed:
    interaction: Interaction  # its original response is the private view
    at: float  # when it was answered (the token's start), on FollowedViews' clock


class FollowedViews:
    """Game (session id) -> player -> the interaction of their latest private view."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 lifetime: float = TOKEN_LIFETIME) -> None:
        self._clock = clock
        self._lifetime = lifetime
        self._views: dict[int, dict[PlayerId, Followed]] = {}

    def remember(self, session_id: int, player: PlayerId, interaction: Interaction) -> None:
        self._views.setdefault(session_id, {})[player] = Followed(interaction, self._clock())
        self.prune()

    def usable(self, session_id: int, player: PlayerId) -> Interaction | None:
        """The interaction to edit ``player``'s view with, None when there is none or its
        token is (about to be) too old; an aged entry is dropped."""
        entry = self._views.get(session_id, {}).get(player)
        if entry is None:
            return None
        if self._clock() - entry.at > self._lifetime - MARGIN:
            self.forget(session_id, player)
            return None
        return entry.interaction

    def forget(self, session_id: int, player: PlayerId) -> None:
        views = self._views.get(session_id)
        if views is not None:
            views.pop(player, None)
            if not views:
                del self._views[session_id]

    def ended(self, session_id: int) -> None:
        self._views.pop(session_id, None)

    def prune(self) -> None:
        """Drop every entry whose token has aged out."""
        now = self._clock()
        for session_id in list(self._views):
            for player, entry in list(self._views[session_id].items()):
                if now - entry.at > self._lifetime - MARGIN:
                    self.forget(session_id, player)

    def __len__(self) -> int:
        return sum(len(views) for views in self._views.values())


def followed_views(client: TableBot) -> FollowedViews | None:
    found = getattr(client.get_cog(TABLE_COG), "views", None)
    return found if isinstance(found, FollowedViews) else None


def remember_view(interaction: Interaction, session_id: int, player: PlayerId) -> None:
    """The click handlers' one line: ``interaction`` just answered with ``player``'s view."""
    views = followed_views(interaction.client)
    if views is not None:
        views.remember(session_id, player, interaction)


class ViewFollower:
    """Edits an awaited player's latest private view when the turn comes to them."""

    def __init__(self, client: TableBot) -> None:
        self._client = client
        self._awaited = AwaitedHumans()

    async def on_change(self, change: Change) -> None:
        views = followed_views(self._client)
        session = change.session
        if views is None:
            return
        if not session.is_live:
            views.ended(session.id)
            self._awaited.forget(session.id)
            return
        if change.kind not in (ChangeKind.STARTED, ChangeKind.ACTION) or session.state is None:
            return
        for player in self._awaited.newly_awaited(change):
            interaction = views.usable(session.id, player)
            if interaction is not None:
                await self._edit(views, interaction, session, player)
            else:  # they will open their hand: its picture is drawn by then
                await draw_hand_ahead(self._client, session, player,
                                      await player_words(self._client, player))

    async def _edit(self, views: FollowedViews, interaction: Interaction, session: Session,
                    player: PlayerId) -> None:
        current = self._client.manager.get(session.id)
        if current is not None and current.version > session.version:
            session = current  # overtaken meanwhile: show the game as it is now
        locale = getattr(interaction, "locale", None)
        words = await player_words(self._client, int(player) if player.isdigit() else 0,
                                   getattr(locale, "value", locale))
        render = private_in(game_uis(self._client).ui(session.game), session, player, words)
        render = await followed_view(self._client, session, player, render, words)
        try:
            await interaction.edit_original_response(**render.edit_kwargs())
        except discord.HTTPException as error:
            log.info("session %s: a private view could not follow the game (%s)",
                     session.id, error.status)
            views.forget(session.id, player)
        finally:
            release_view(render.view)
