"""Whether the bot may still post in a game's channel, and the permission check of /game new.

Interaction replies bypass a channel's permissions, so lobby and moves keep working where the
bot may not post; only the table edits, pings and announcements fail (403). The table
publisher and the turn ping call :meth:`ChannelHealth.report` with one line when a post or
edit fails: the first 403 of a game is logged once at WARNING, and the next click of each
player in that game is told privately (:meth:`ChannelHealth.tell_if_blocked`). A later
successful post (:meth:`ChannelHealth.ok`) ends the episode. One :class:`ChannelHealth` per
bot, in the services (``cogs.table_services``).

``/game new`` checks the bot's own permissions in the channel first
(:func:`missing_permissions`; a game played in a thread needs :func:`missing_thread_permissions`
as well) and refuses with the names of what is missing (:func:`refusal_text`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.process.client import TableBot
from bot.records.change import Change
from bot.records.session import Session
from cogs.i18n.messages import NP_, Message
from cogs.i18n.words import Words

log = logging.getLogger(__name__)

# (discord.Permissions flag, the name Discord's settings show for it)
CHANNEL_NEEDS: tuple[tuple[str, Message], ...] = (
    ("view_channel", NP_("permission", "View Channel")),
    ("send_messages", NP_("permission", "Send Messages")),
    ("embed_links", NP_("permission", "Embed Links")),
    ("attach_files", NP_("permission", "Attach Files")),
    ("read_message_history", NP_("permission", "Read Message History")),
)
THREAD_NEEDS: tuple[tuple[str, Message], ...] = (
    ("create_public_threads", NP_("permission", "Create Public Threads")),
    ("send_messages_in_threads", NP_("permission", "Send Messages in Threads")),
)


def _missing(permissions: discord.Permissions | None,
             needs: Sequence[tuple[str, Message]]) -> list[Message]:
    if permissions is None:
        return []  # not told (not a guild interaction): nothing to check
    return [name for flag, name in needs if not getattr(permissions, flag)]


def missing_permissions(permissions: discord.Permissions | None) -> list[Message]:
    """What the bot lacks in a channel to run a game there (``interaction.app_permissions``)."""
    return _missing(permissions, CHANNEL_NEEDS)


def missing_thread_permissions(permissions: discord.Permissions | None) -> list[Message]:
    """What the bot lacks to play a game in a public thread of the channel (in addition to
    :func:`missing_permissions`; the integrator calls it when the game is to be played in a
    thread)."""
    return _missing(permissions, THREAD_NEEDS)


def refusal_text(missing: Sequence[Message], words: Words) -> str:
    names = ", ".join(f"**{words.text(name)}**" for name in missing)
    return words.gettext(
        "I can't run a game in this channel: I am missing these permissions here: {names}."
        " A moderator can grant them in the channel's settings.", names=names)


BLOCKED_NOTE = NP_(
    "channel health",
    "I can no longer post or edit messages in this channel (missing permissions), so the"
    " table and the pings are not updated. Your moves still count; ask a moderator to give"
    " me View Channel, Send Messages, Embed Links, Attach Files and Read Message History"
    " here.",
)


@dataclass
class Blocked:
    """One game's episode of failed posts: what failed first, and who was told."""

    what: str
    told: set[str] = field(default_factory=set)


class ChannelHealth:
    """Per game (session id): whether its channel refused the bot's posts (memory only)."""

    def __init__(self) -> None:
        self._blocked: dict[int, Blocked] = {}

    def failed(self, session_id: int, channel_id: int, error: Exception, what: str) -> None:
        if getattr(error, "status", None) != 403:
            return
        if session_id in self._blocked:
            return
        self._blocked[session_id] = Blocked(what)
        log.warning("session %s: the bot may not %s in channel %s (403 missing permissions); "
                    "players are told on their next click", session_id, what, channel_id)

    def ok(self, session_id: int) -> None:
        self._blocked.pop(session_id, None)

    async def on_change(self, change: Change) -> None:
        """A manager listener: a game that ended forgets its episode."""
        if not change.session.is_live:
            self._blocked.pop(change.session.id, None)

    def blocked(self, session_id: int) -> bool:
        return session_id in self._blocked

    def to_tell(self, session_id: int, player: str) -> bool:
        """Whether ``player`` is still to be told of this game's blocked channel (once)."""
        episode = self._blocked.get(session_id)
        if episode is None or player in episode.told:
            return False
        episode.told.add(player)
        return True

    def report(self, session: Session, error: Exception, what: str) -> bool:
        """A post or edit of ``session``'s channel failed with ``error`` (one line for
        callers); True when it was a 403, which is logged (once per game)."""
        self.failed(session.id, session.channel_id, error, what)
        return getattr(error, "status", None) == 403

    async def tell_if_blocked(self, interaction: discord.Interaction[TableBot], session_id: int,
                              player: str, words: Words) -> None:
        """After a click was answered: tell the clicker privately, once, that the channel
        refuses the bot's posts."""
        if not self.to_tell(session_id, player):
            return
        text = words.text(BLOCKED_NOTE)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
