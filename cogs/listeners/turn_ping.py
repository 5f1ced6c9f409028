"""The game's one live turn prompt: a new channel message that pings the players the game now
waits for, carrying the controls they need to act and a link to the table.

Game-agnostic manager listener (edits never ping, so the table message cannot do this). A
player is pinged when they join the set of humans the engine awaits: at the start, when the
turn passes, when a new round opens with them. Someone who stays awaited (the several steps of
one turn) is not pinged again. Bot seats and autopiloted seats are never pinged.

At most one ping per game is in the channel at any moment: the previous one is deleted before
the next goes out, and when the game no longer waits for anyone it pinged (a bot's turn, the
end, a cancelled table) it is deleted too. Its message id is stored with the session
(``Session.ping_message_id``), so a restarted process still deletes it: once per new ping (the
new id replaces the old one's, whose message is deleted first), and None only when a ping is
deleted without a new one, so a turn pass costs one write beside the move's own. A crash
between the deletion and the new id's write leaves the deleted message's id stored, which the
next clear deletes quietly again. The controls are the
game UI's (``cogs.game_ui.PingsControls``: TEN's Draw and Stop, its bid button), else "My
hand"; they carry the session and version like the table's, so a click on them goes through
the same gate (``cogs.clicks.table_clicks``).

The previous awaited set is remembered per live session in memory (dropped with the game);
after a restart the first change falls back to "only the actor was awaited", which is true of
every single action. After an unexpected stop (no clean shutdown was recorded) the restart
pings the awaited humans of every running table once more (``ping_again``), since a ping
queued behind a stored move is lost with the process; a clean shutdown delivers its posts
first, so it pings nobody again.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.process.client import TableBot
from bot.records.change import Change
from bot.records.errors import TableError
from bot.records.session import Session
from cogs.client_services import release_view
from cogs.game_ui import PINGS_CONTROLS, Render, able
from cogs.i18n.common_words import MY_HAND
from cogs.i18n.interaction import server_words
from cogs.i18n.words import Words
from cogs.kit.control_payloads import Rows
from cogs.kit.custom_ids import HandButton
from cogs.kit.message_routes import Cause, MessageRoutes, Unreachable, cause_of
from cogs.listeners.awaited_players import AwaitedHumans, humans_awaited
from cogs.listeners.table_publisher import delete_quietly
from cogs.rendering.notice_text import mention
from cogs.table_services import TableServices
from cogs.ui_registry import GameUIs
from game.base import PlayerId

log = logging.getLogger(__name__)

DISCORD_WEB = "https://discord.com"


def table_link(session: Session) -> str | None:
    """The jump URL of ``session``'s table message (None before it has one)."""
    if session.table_message_id is None:
        return None
    # A DM's or group DM's place is its channel (cogs.kit.places): Discord's links say @me.
    where = "@me" if session.guild_id == session.channel_id else session.guild_id
    return f"{DISCORD_WEB}/channels/{where}/{session.channel_id}/{session.table_message_id}"


def ping_text(words: Words, title: str, players: Sequence[PlayerId], link: str | None, *,
              back: bool = False) -> str:
    mentions = " ".join(mention(player) for player in players)
    if link is None:
        text = words.gettext("{mentions} — your turn in {game}.", mentions=mentions, game=title)
    else:
        text = words.gettext("{mentions} — your turn in {game}. The table: {link}",
                             mentions=mentions, game=title, link=link)
    if back:
        return words.gettext("The table is back after an unexpected stop. {ping}", ping=text)
    return text


def only(players: Sequence[PlayerId]) -> discord.AllowedMentions:
    """Mentions that notify exactly ``players`` (the client's default notifies nobody)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(id=int(player)) for player in players if player.isdecimal()],
    )


def ping_view(uis: GameUIs, session: Session, players: Sequence[PlayerId],
              words: Words) -> Rows:
    """The ping's controls: the game UI's, else "My hand" (both carry the session)."""
    pings = able(uis.ui(session.game), PINGS_CONTROLS)
    items = (
        pings.ping_controls(session, players, words) if pings is not None
        else [HandButton.payload(session.id, label=words.text(MY_HAND))]
    )
    return Rows(items)


async def ping_render(client: TableBot, uis: GameUIs, session: Session,
                      players: Sequence[PlayerId], *, back: bool = False,
                      drawn: Session | None = None) -> Render:
    """The turn ping of ``session`` for ``players`` (public: no hidden information).
    ``drawn``: the very ``Session`` object of the same stored version that the change's other
    renders (the table, the answer) were drawn from, when ``session`` is a copy of it that
    differs only by its messages' ids (``SessionManager.set_table_message`` and
    ``set_ping_message`` swap in such a copy): the controls are drawn from it, so the game's
    public view of that version is built once (``cogs.kit.view_memo`` serves only the object
    it was built for), and the link from ``session``."""
    words = await server_words(client, session.guild_id)
    title = client.manager.engine(session.game).title
    return Render(content=ping_text(words, title, players, table_link(session), back=back),
                  view=ping_view(uis, same_version(session, drawn), players, words))


def same_version(session: Session, drawn: Session | None) -> Session:
    """``drawn`` when it is ``session``'s stored version (the same version and the very same
    state object: a copy that differs by its messages' ids), else ``session``."""
    if drawn is not None and drawn.version == session.version and drawn.state is session.state:
        return drawn
    return session


@dataclass(frozen=True)
class LivePing:
    message_id: int
    players: frozenset[PlayerId]  # whom it mentions (empty: not known after a restart)
    table_message_id: int | None  # the table its link points to


class TurnPing:
    def __init__(self, client: TableBot, services: TableServices) -> None:
        self._client = client
        self._services = services
        self._awaited = AwaitedHumans()
        self._pings: dict[int, LivePing] = {}  # session id -> its ping, while the game runs

    def __len__(self) -> int:
        """How many sessions this listener remembers anything of (memory checks)."""
        return len(self._awaited) + len([sid for sid in self._pings if sid not in self._awaited])

    def to_ping(self, change: Change) -> list[PlayerId]:
        """Who this change should ping; also remembers the new awaited set."""
        if not change.session.is_live:
            self._awaited.forget(change.session.id)
        return self._awaited.newly_awaited(change)

    async def on_change(self, change: Change) -> None:
        session = change.session
        cause = cause_of(change.origin)
        live = self._pings.get(session.id)
        clicked = cause.message_id if cause is not None else None
        if live is not None and clicked == live.message_id:
            await self._routes.adopt(cause, session)  # its token can delete the ping too
        if not session.is_live:
            self._awaited.forget(session.id)
            await self.clear(session)
            return
        known = self._awaited.awaited(session.id)
        players = self.to_ping(change)
        if players:
            await self._replace(session, players, cause)
            return
        after = self._awaited.awaited(session.id)
        if after is None or after is known:
            return  # not a change of whom the game waits for
        ping = self._ping_of(session)
        if ping is not None and not (ping.players & after):
            await self.clear(session)  # nobody it pinged is awaited any more

    async def ping_again(self, session: Session) -> bool:
        """After an unexpected stop, ping the humans the table waits for: the ping of the
        last stored move may have died with the process. Returns whether anyone was pinged."""
        current = self._client.manager.get(session.id) or session
        players = humans_awaited(self._client, current)
        self._awaited.remember(current, players)
        if not players:
            return False
        await self._replace(current, players, back=True)
        return True

    async def relink(self, session: Session) -> None:
        """The table was posted anew (``cogs.listeners.table_publisher``): point the live ping at
        it."""
        ping = self._ping_of(session)
        if ping is None or ping.table_message_id == session.table_message_id:
            return
        players = sorted(ping.players) or humans_awaited(self._client, session)
        if not players:
            return
        words = await server_words(self._client, session.guild_id)
        title = self._client.manager.engine(session.game).title
        try:
            await self._routes.edit(
                self._client, session, ping.message_id,
                content=ping_text(words, title, players, table_link(session)),
                allowed_mentions=only(players),
            )
        except discord.HTTPException:
            log.warning("could not point the ping of session %s at its table", session.id)
            return
        self._pings[session.id] = LivePing(ping.message_id, ping.players,
                                           session.table_message_id)

    async def clear(self, session: Session, *, store: bool = True) -> None:
        """Delete the game's live ping, if it has one; ``store``: and store that it has none
        (not when a new ping's id is about to replace it)."""
        ping = self._ping_of(session)
        self._pings.pop(session.id, None)
        if ping is None:
            return
        await delete_quietly(self._services.routes, self._client, session, ping.message_id,
                             f"the turn ping of session {session.id}")
        if store:
            await self._forget_stored(session.id)

    # --- internals ------------------------------------------------------------------------------

    def _ping_of(self, session: Session) -> LivePing | None:
        known = self._pings.get(session.id)
        if known is not None:
            return known
        current = self._client.manager.get(session.id) or session
        if current.ping_message_id is None:
            return None
        return LivePing(current.ping_message_id, frozenset(), current.table_message_id)

    @property
    def _routes(self) -> MessageRoutes:
        return self._services.routes

    async def _replace(self, session: Session, players: list[PlayerId],
                       cause: Cause | None = None, *, back: bool = False) -> None:
        """Delete the live ping, then post the new one (a follow-up of ``cause`` when it can
        carry it): never two at a time."""
        await self.clear(session, store=False)
        current = self._client.manager.get(session.id) or session
        render = await ping_render(self._client, self._services.uis, current, players, back=back,
                                   drawn=session)
        try:
            message = await self._routes.send(
                self._client, session, cause, **render.send_kwargs(),
                allowed_mentions=only(players),
            )
        except Unreachable:  # a tokens-only table with no fresh token: the next click pings
            await self._forget_stored(session.id)
            self._routes.owe(session.channel_id, "ping",
                             lambda later: self._ping_owed(session.id, later))
            return
        except discord.HTTPException as error:
            health = self._services.health
            if not health.report(session, error, "post a turn ping"):
                log.warning("could not ping the next player of session %s", session.id)
            await self._forget_stored(session.id)
            return
        finally:
            release_view(render.view)
        self._pings[session.id] = LivePing(message.id, frozenset(players),
                                           current.table_message_id)
        await self._remember(session.id, message.id)

    async def _ping_owed(self, session_id: int, cause: Cause) -> None:
        """The ping no token could carry, with the next click's: whom the game awaits now."""
        current = self._client.manager.get(session_id)
        if current is None or not current.is_live:
            return
        players = humans_awaited(self._client, current)
        self._awaited.remember(current, players)
        if players:
            await self._replace(current, players, cause)

    async def _forget_stored(self, session_id: int) -> None:
        """Store that the live game has no ping (unless that is what is stored already)."""
        current = self._client.manager.get(session_id)
        if current is not None and current.ping_message_id is not None:
            await self._remember(session_id, None)

    async def _remember(self, session_id: int, message_id: int | None) -> None:
        # The game may have ended meanwhile: its end clears the ping from memory.
        with contextlib.suppress(TableError):
            await self._client.manager.set_ping_message(session_id, message_id)
