"""Each player's latest private view, per game: the interaction that answered with it, whose
token can still edit it, and the version of the game it shows (``cogs.listeners.view_follow``
makes the view follow the game). One per bot, in the services (``cogs.table_services``); the
click handlers remember a view with ``cogs.client_services.remember_view``, which hands it to
the follower's :attr:`FollowedViews.catch_up` at once: a change that made its player awaited
may have been published while the view was being drawn and answered, when the follower could
find only the player's older view (or none) to edit.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.process.client import TableBot
from cogs.kit.message_routes import MARGIN, TOKEN_LIFETIME
from game.base import PlayerId

Interaction = discord.Interaction[TableBot]
# ``interaction.extras`` key under which an answer leaves the id of the message it answered
# with (``cogs.rendering.message_delivery``): the message a remembered view is.
ANSWERED_MESSAGE = "answered_message"
CatchUp = Callable[[int, PlayerId], Awaitable[None]]  # (session id, player)
# Seconds between two sweeps of the aged entries (:meth:`FollowedViews.prune`). A sweep walks
# every live game's views: once per remembered view, it grew with the number of tables (issue
# 42, the sixth pass). An entry outlives its token by at most this; :meth:`FollowedViews.usable`
# never hands out an aged one.
PRUNE_EVERY = 60.0


@dataclass
class Followed:
    interaction: Interaction  # its original response is the private view
    at: float  # when it was answered (the token's start), on FollowedViews' clock
    version: int  # the version of the game the view shows
    message_id: int | None = None  # the message the view is (None: not known)


class FollowedViews:
    """Game (session id) -> player -> the interaction of their latest private view."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 lifetime: float = TOKEN_LIFETIME) -> None:
        self._clock = clock
        self._lifetime = lifetime
        self._views: dict[int, dict[PlayerId, Followed]] = {}
        # Game -> player -> (message id, version) of their latest answer on a private message.
        self._answered: dict[int, dict[PlayerId, tuple[int, int]]] = {}
        self._pruned_at = float("-inf")  # when prune last swept, on the clock above
        # The follower's (cogs.listeners.view_follow): brings a view just remembered up to date
        # when the game moved on while it was drawn and answered.
        self.catch_up: CatchUp | None = None

    def remember(self, session_id: int, player: PlayerId, interaction: Interaction,
                 version: int) -> None:
        """``interaction`` answered with ``player``'s view of version ``version`` (on a
        message a newer answer is already showing a newer version on, that version stays)."""
        message_id = interaction.extras.get(ANSWERED_MESSAGE)
        version = max(version, self.shown_on(session_id, player, message_id) or version)
        self._views.setdefault(session_id, {})[player] = Followed(
            interaction, self._clock(), version, message_id)
        if self._clock() - self._pruned_at >= PRUNE_EVERY:
            self.prune()

    def shown(self, session_id: int, player: PlayerId) -> int | None:
        """The version ``player``'s followed view shows (None: no view is followed): as last
        remembered or edited, or as an answer of theirs on its message since."""
        entry = self._views.get(session_id, {}).get(player)
        if entry is None:
            return None
        return self.shown_on(session_id, player, entry.message_id) or entry.version

    def showing(self, session_id: int, player: PlayerId, interaction: Interaction,
                version: int) -> None:
        """``interaction``'s view now shows version ``version`` (an edit that followed the
        game); nothing when a newer view replaced it meanwhile."""
        entry = self._views.get(session_id, {}).get(player)
        if entry is not None and entry.interaction is interaction:
            entry.version = version

    def shown_on(self, session_id: int, player: PlayerId, message_id: int | None) -> int | None:
        """The version message ``message_id`` shows when it is ``player``'s followed view
        (None otherwise, or for an unknown message)."""
        if message_id is None:
            return None
        entry = self._views.get(session_id, {}).get(player)
        shown = entry.version if entry is not None and entry.message_id == message_id else None
        answered = self._answered.get(session_id, {}).get(player)
        if answered is not None and answered[0] == message_id:
            shown = answered[1] if shown is None else max(shown, answered[1])
        return shown

    def answering(self, session_id: int, player: PlayerId, message_id: int,
                  version: int) -> None:
        """A click of ``player`` is answering on message ``message_id`` with version
        ``version`` of the game: that message shows that version from now on, so the follower
        does not edit it to the same version again, whichever of the player's answers on it
        is remembered first (their answers finish in any order: each waits for its picture).
        One per player (their latest answer), dropped with the game."""
        answered = self._answered.setdefault(session_id, {})
        before = answered.get(player)
        if before is None or before[0] != message_id or before[1] < version:
            answered[player] = (message_id, version)

    def answer_failed(self, session_id: int, player: PlayerId, message_id: int,
                      version: int, before: tuple[int, int] | None) -> None:
        """The answer recorded by :meth:`answering` did not reach the message (refused, too
        late): the message shows what it showed, so the record goes back to ``before`` unless
        a later answer replaced it meanwhile."""
        answered = self._answered.get(session_id)
        if answered is None or answered.get(player) != (message_id, version):
            return
        if before is None:
            del answered[player]
        else:
            answered[player] = before

    def answered(self, session_id: int, player: PlayerId) -> tuple[int, int] | None:
        """(message id, version) of ``player``'s latest recorded answer in the game."""
        return self._answered.get(session_id, {}).get(player)

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
        self._answered.pop(session_id, None)

    def prune(self) -> None:
        """Drop every entry whose token has aged out, and the answers of games without one."""
        now = self._pruned_at = self._clock()
        for session_id in list(self._views):
            for player, entry in list(self._views[session_id].items()):
                if now - entry.at > self._lifetime - MARGIN:
                    self.forget(session_id, player)
        for session_id in [s for s in self._answered if s not in self._views]:
            del self._answered[session_id]

    def __len__(self) -> int:
        return sum(len(views) for views in self._views.values())
