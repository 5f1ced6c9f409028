"""Keeps each session's public table message current (a manager listener), and is the
``bot.automation.notices.Notifier`` through which the machine players and the turn clock talk (their
notices are worded by ``cogs.rendering.notice_text``).

Edits the stored table message through a PartialMessage, so it works after a restart without
any cache. Skips a change whose ``origin`` is that very message (the click handler already
re-rendered it), a change that a newer one has overtaken, and a machine's move
(``origin=AUTOMATIC``): ``bot.automation.autoplay`` and ``bot.automation.turn_clock`` call
:meth:`refresh` once their run of moves is over, so the table is edited once per bot turn rather
than once per card.

A person's run of moves from their private view is coalesced the same way: a move after which
the game still waits for that same player (the next step of one turn) is held for up to
``settings.table_run_debounce`` seconds (0.4 by default: the other players see the table at
most that much later), and dropped as soon as a newer change of the session is stored, so a
quick run of steps costs one table edit. The move that ends the run (the turn passes, a round
or the game ends) is never held and always goes out. The hold happens in the session's publish
worker, so pings and round summaries keep their order behind it.

The table stays at hand: when more than five messages are below it (``cogs.listeners.table_watch``),
the next update posts it anew at the bottom and deletes the old message (:meth:`move`); its controls
carry the session and version, so nothing else changes. ``on_moved`` (the turn ping's relink) runs
after a move. A finished game's watch is dropped.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace

import discord

from bot.automation.notices import Notice, Reminder, TimedOut
from bot.process.client import TableBot
from bot.records.change import AUTOMATIC, Change, ChangeKind
from bot.records.errors import TableError
from bot.records.session import Session, Status
from cogs.client_services import release_view
from cogs.i18n.interaction import server_words
from cogs.kit.keyed_locks import TABLE_MOVES
from cogs.kit.message_routes import Cause, MessageRoutes, Unreachable, cause_of
from cogs.listeners.table_watch import TableWatch
from cogs.rendering.message_delivery import message_turn, public_table
from cogs.rendering.notice_text import reminder_text, timed_out_text
from cogs.table_services import TableServices
from game.base import PlayerId

log = logging.getLogger(__name__)

SHOWN_KEPT = 4096  # tables whose shown version is remembered (far more than run at once)


Moved = Callable[[Session], Awaitable[object]]


class TablePublisher:
    def __init__(
        self, client: TableBot, services: TableServices, *, run_debounce: float = 0.0,
        watch: TableWatch | None = None,
    ) -> None:
        self._client = client
        self._services = services
        self._run_debounce = run_debounce  # seconds; cogs.table.extension passes the setting
        self.watch = watch  # counts the messages below each table (None: tables never move)
        self.on_moved: Moved | None = None
        self._shown: OrderedDict[int, int] = OrderedDict()  # table message id -> version shown

    async def on_change(self, change: Change) -> None:
        session = change.session
        if not session.is_live and self.watch is not None:
            self.watch.forget(session.channel_id)
        if change.origin is AUTOMATIC:
            return
        if session.table_message_id is None:
            return
        cause = cause_of(change.origin)
        if (cause.message_id if cause is not None else None) == session.table_message_id:
            # The click answered on the table itself: its token can edit the table now.
            await self._routes.adopt(cause, session)
            if not self._buried(session):
                return
        if self._overtaken(session):
            return
        if self._mid_run(change) and await self._client.manager.overtaken_within(
            session, self._run_debounce
        ):
            return
        await self._edit(session, cause)

    def _overtaken(self, session: Session) -> bool:
        return self._client.manager.overtaken(session)

    def _mid_run(self, change: Change) -> bool:
        """Whether ``change`` is one step of a person's run: a move made from a private view
        (not the table message) after which the game waits for that same player again."""
        session = change.session
        if (
            change.kind is not ChangeKind.ACTION
            or change.actor is None
            or change.origin is None
            or session.state is None
            or not session.is_live
        ):
            return False
        return change.actor in change.awaiting

    async def catch_up(
        self,
        sessions: Iterable[Session],
        *,
        pause: float = 0.2,
        then: Callable[[Session], Awaitable[object]] | None = None,
    ) -> int:
        """Redraw the table of every running session once, ``pause`` seconds apart, and
        ``await then(session)`` after each redraw (the turn ping after an unexpected stop).

        Run after a restart: a crash can lose channel posts that were queued behind a stored
        move (see ``SessionManager.settle``), which would leave a table showing an old turn.
        The pause keeps a large restore well under Discord's global rate limit.
        """
        redrawn = 0
        for session in sessions:
            if session.status is not Status.ACTIVE or session.table_message_id is None:
                continue
            if redrawn:
                await asyncio.sleep(pause)
            try:
                await self.refresh(session)
            except discord.HTTPException:
                log.warning("could not redraw the table of session %s", session.id)
                continue
            redrawn += 1
            if then is not None:
                await then(session)
        return redrawn

    # --- the Notifier ---------------------------------------------------------------------------

    async def refresh(self, session: Session) -> None:
        current = self._client.manager.get(session.id)
        if current is not None and current.version >= session.version:
            session = current
        await self._edit(session)

    async def notify(self, notice: Notice) -> None:
        words = await server_words(self._client, notice.session.guild_id)  # public messages
        if isinstance(notice, Reminder):
            await self.remind(notice.session, notice.player_id, reminder_text(notice, words))
        elif isinstance(notice, TimedOut):
            ui = self._services.uis.ui(notice.session.game)
            await self.announce(notice.session, timed_out_text(notice, ui, words))

    async def announce(self, session: Session, text: str) -> None:
        try:
            await self._routes.send(self._client, session, None, content=text,
                                    allowed_mentions=discord.AllowedMentions.none())
        except Unreachable:  # a tokens-only table: the next click there carries it
            self._routes.owe(session.channel_id, f"notice {session.id}",
                             lambda later: self._routes.send(
                                 self._client, session, later, content=text,
                                 allowed_mentions=discord.AllowedMentions.none()))
        except discord.HTTPException:
            log.warning("could not post in the channel of session %s", session.id)

    async def remind(self, session: Session, player_id: PlayerId, text: str) -> None:
        users = [discord.Object(id=int(player_id))] if player_id.isdecimal() else False
        try:
            await self._routes.send(
                self._client, session, None, content=text,
                allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=users),
            )
        except Unreachable:
            log.info("session %s: no token to remind with", session.id)
        except discord.HTTPException:
            log.warning("could not remind a player of session %s", session.id)

    # --- internals ------------------------------------------------------------------------------

    def _channel(self, session: Session) -> discord.PartialMessageable:
        # Sends and edits need only the channel id: no cache lookup, no fetch.
        return self._client.get_partial_messageable(session.channel_id)

    def _buried(self, session: Session) -> bool:
        current = self._client.manager.get(session.id) or session
        return self.watch is not None and session.is_live and self.watch.buried(current)

    async def _edit(self, session: Session, cause: Cause | None = None) -> None:
        """Bring the table up to ``session`` (or newer): edited with the token that holds it,
        else posted anew as a follow-up of ``cause`` when one can carry it (a table held by no
        token, or by one due for renewal, or buried), else edited through the channel in the
        budget's turn."""
        current = self._client.manager.get(session.id)
        table_id = current.table_message_id if current is not None else session.table_message_id
        if table_id is None:
            return
        routes = self._routes
        if current is not None and self.watch is not None and self.watch.buried(current):
            await self.move(session, table_id, cause)
            return
        if routes.renew_due(table_id) and await routes.usable(cause, session) is not None:
            await self.move(session, table_id, cause)
            return
        if routes.holder(table_id) is None and routes.budget.near:
            # Through the channel while the budget is nearly spent: queued, replaced by a
            # newer edit of this table while it waits, drawn when its turn comes.
            routes.budget.submit(lambda: self._draw(session, table_id, newest=True),
                                 key=("table", table_id))
            return
        await self._draw(session, table_id)
        if session.tokens_only and routes.behind(session.id):
            self._owe_table(session)

    def _owe_table(self, session: Session) -> None:
        """No token could write tokens-only ``session``'s table: the next click in its channel
        posts it anew as a follow-up (``cogs.kit.message_routes``)."""
        self._routes.owe(session.channel_id, "table",
                         lambda cause: self.bring_up(session.id, cause))

    async def bring_up(self, session_id: int, cause: Cause) -> None:
        """Post live game ``session_id``'s table anew with ``cause``'s token: it shows the game
        as it is now (the old one, out of every token's reach, stays as it was)."""
        current = self._client.manager.get(session_id)
        if current is None or not current.is_live or current.table_message_id is None:
            return
        if not self._routes.behind(session_id):
            return  # the click's own change posted it anew meanwhile
        await self.move(current, current.table_message_id, cause)

    async def _draw(self, session: Session, table_id: int, *, newest: bool = False) -> None:
        """Edit table message ``table_id`` to show ``session`` (``newest``: the live version,
        which a queued edit shows when its turn comes). ``newest`` also means the edit holds
        a slot of the budget already."""
        if newest:
            live = self._client.manager.get(session.id)
            if live is not None and live.version >= session.version:
                session = live
            if live is not None and live.table_message_id != table_id:
                return  # the table moved meanwhile: its move drew it
        render = await public_table(self._client, self._services, session)
        try:
            async with message_turn(table_id):
                if self._overtaken(session) or self._shown.get(table_id, -1) > session.version:
                    return  # a newer change is drawn by its own publish or click answer
                await self._routes.edit(self._client, session, table_id, in_slot=newest,
                                        **render.edit_kwargs())
                self._showing(table_id, session.version)
            self._services.health.ok(session.id)
        except discord.NotFound:
            log.warning("table message of session %s is gone", session.id)
        except discord.Forbidden as error:
            self._services.health.report(session, error, "edit the table")
        except discord.HTTPException:
            if not newest:
                raise
            log.warning("could not edit the table of session %s", session.id)
        finally:
            release_view(render.view)

    async def move(self, session: Session, old_id: int, cause: Cause | None = None) -> None:
        """Post ``session``'s table at the bottom of its channel (a follow-up of ``cause``
        when it can carry it) and delete the old one."""
        render = await public_table(self._client, self._services, session)
        routes = self._routes
        try:
            message = await routes.send(self._client, session, cause, **render.send_kwargs())
        except Unreachable:
            self._owe_table(session)
            return
        except discord.Forbidden as error:
            self._services.health.report(session, error, "move the table")
            return
        finally:
            release_view(render.view)
        async with TABLE_MOVES.of(session.id):  # the table /game status may have moved
            current = self._client.manager.get(session.id)
            if current is not None and current.table_message_id is not None:
                old_id = current.table_message_id
            try:
                moved = await self._client.manager.set_table_message(session.id, message.id)
            except TableError:  # the game ended meanwhile: the copy just posted is its table
                moved = replace(session, table_message_id=message.id)
            routes.caught_up(session.id)
            await delete_quietly(self._services.routes, self._client, session, old_id,
                                 f"the old table of session {session.id}")
            if self.on_moved is not None:
                await self.on_moved(moved)

    def _showing(self, table_id: int, version: int) -> None:
        """Remember the version table ``table_id`` shows, so that an older edit that waited in
        the budget never draws over it (the newest :data:`SHOWN_KEPT` tables are kept)."""
        self._shown[table_id] = version
        self._shown.move_to_end(table_id)
        while len(self._shown) > SHOWN_KEPT:
            self._shown.popitem(last=False)

    @property
    def _routes(self) -> MessageRoutes:
        return self._services.routes


async def delete_quietly(routes: MessageRoutes, client: TableBot, session: Session,
                         message_id: int, what: str) -> None:
    """Delete one public message of ``session`` (with the token that holds it, else
    through the channel); one already gone is fine, another failure is logged."""
    try:
        await routes.delete(client, session, message_id)
    except discord.NotFound:
        return
    except discord.HTTPException:
        log.warning("could not delete %s", what)
