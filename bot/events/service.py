"""The rules of a server event's life, Discord-free: registration, the start at its time,
each round's tables (played as ordinary sessions, so their results are rated as any game),
the next round when the last table ends, the standings, withdrawal, cancelling, and the
resumption after a restart or a crash.

What Discord shows is the cogs' :class:`EventHost` (the event post, each table's thread and
post, the standings and the final post). Everything the schedule needs is in the store
before it is acted on: a round's tables are stored before their sessions are opened, a
table's session id as soon as its lobby exists, its outcome once (``finish_event_table``).
:meth:`EventService.tick` (every few seconds from the process's start) carries on from
whatever was stored: a table without its session is opened, a lobby not started is filled and
started, a table whose session ended while the process was down is scored, a finished round
is followed by the next, an arena past its end is closed. A table's end also moves its event
on at once (:meth:`EventService.on_change`, a manager listener).

Sources of the pairing and scoring rules: ``bot.events.swiss`` (FIDE) and
``bot.events.arena`` (lichess).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from bot.events.arena import ArenaLine, arena_standings, seat_waiting
from bot.events.swiss import Bye, Line, Round, TableResult, pair_round, standings
from bot.records.change import Change, ChangeKind
from bot.records.errors import TableError
from bot.records.events import (
    Event,
    EventFormat,
    EventPlayer,
    EventSettings,
    EventStatus,
    EventTable,
)
from bot.records.session import Seat, Session, Status, utcnow
from bot.records.shards import ShardSet
from bot.sessions.manager import SessionManager
from bot.store import Store
from game.base import PlayerId

log = logging.getLogger(__name__)

BOT_LEVEL = "normal"
MAX_ROUNDS = 9
MAX_ARENA_MINUTES = 24 * 60


class EventRefusal(StrEnum):
    NO_EVENT = "no event"
    OTHER_SERVER = "other server"
    JOINED_ALREADY = "joined already"
    STARTED = "started"
    NOT_JOINED = "not joined"
    OVER = "over"
    NOT_ALLOWED = "not allowed"


class EventRefused(Exception):
    def __init__(self, reason: EventRefusal) -> None:
        super().__init__(reason.value)
        self.reason = reason


@dataclass(frozen=True)
class Standing:
    """A standings line (a Swiss one, or an arena one) with the player's name and whether
    they withdrew."""

    line: Line | ArenaLine
    name: str
    withdrawn: bool


@dataclass(frozen=True)
class EventSummary:
    """An event as ``/history`` lists it."""

    event: Event
    players: int
    winner: PlayerId | None


@dataclass(frozen=True)
class PlayerRecord:
    """A player's finished events in a server: played, won, best place (None: none)."""

    played: int
    won: int
    best: int | None


class EventHost(Protocol):
    """What Discord does for an event (``cogs.events``)."""

    async def table_channel(self, event: Event, table: EventTable) -> int:
        """A new thread for ``table`` under the event's channel: its id."""

    async def post_table(self, session: Session) -> None:
        """Post the table of ``session`` (a lobby about to start) in its thread."""

    async def event_changed(self, event: Event) -> None:
        """Redraw the event post (players, round, standings)."""

    async def round_started(self, event: Event, tables: Sequence[EventTable]) -> None:
        """Announce the round's tables (and a bye) in the event's channel."""

    async def round_ended(self, event: Event, lines: Sequence[Standing]) -> None:
        """Post the standings after a round."""

    async def event_ended(self, event: Event, lines: Sequence[Standing]) -> None:
        """The final post: the winners (or, cancelled, that it ended)."""


class EventService:
    def __init__(self, store: Store, manager: SessionManager, *,
                 clock: Callable[[], datetime] = utcnow, shards: ShardSet | None = None) -> None:
        """``shards``: the process's (its tick handles the events of its guilds only; another
        process owns the others)."""
        self.store = store
        self.manager = manager
        self.clock = clock
        self.shards = shards or ShardSet.whole()
        self.host: EventHost | None = None
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, event_id: int) -> asyncio.Lock:
        return self._locks.setdefault(event_id, asyncio.Lock())

    # --- the organiser ------------------------------------------------------------------

    async def create(self, *, guild_id: int, channel_id: int, game: str, name: str,
                     created_by: PlayerId, starts_at: datetime, settings: EventSettings,
                     format: EventFormat = EventFormat.SWISS) -> Event:
        engine = self.manager.engine(game)
        if not 2 <= settings.per_table <= min(4, engine.max_players):
            raise ValueError("players per table out of range")
        if format is EventFormat.SWISS and not 1 <= settings.rounds <= MAX_ROUNDS:
            raise ValueError("rounds out of range")
        if format is EventFormat.ARENA and not 1 <= settings.minutes <= MAX_ARENA_MINUTES:
            raise ValueError("an arena's minutes out of range")
        now = self.clock()
        return await self.store.create_event(Event(
            id=0, guild_id=guild_id, channel_id=channel_id, game=game,
            format=format, name=name, created_by=created_by,
            starts_at=max(starts_at, now), settings=settings, created_at=now, updated_at=now))

    async def set_message(self, event: Event, message_id: int,
                          scheduled_event_id: int | None = None) -> Event:
        settings = replace(event.settings, scheduled_event_id=scheduled_event_id)
        updated = replace(event, message_id=message_id, settings=settings,
                          updated_at=self.clock())
        await self.store.save_event(updated)
        return updated

    async def event_in(self, event_id: int, guild_id: int) -> Event:
        """The event ``event_id`` of server ``guild_id`` (refused for another server's)."""
        event = await self.store.load_event(event_id)
        if event is None:
            raise EventRefused(EventRefusal.NO_EVENT)
        if event.guild_id != guild_id:
            raise EventRefused(EventRefusal.OTHER_SERVER)
        return event

    async def cancel(self, event_id: int, guild_id: int) -> Event:
        """End the event now (the caller checked the permission): its running tables are
        cancelled without results; nothing more is paired."""
        async with self._lock(event_id):
            event = await self.event_in(event_id, guild_id)
            if not event.is_live:
                raise EventRefused(EventRefusal.OVER)
            event = replace(event, status=EventStatus.CANCELLED, updated_at=self.clock())
            await self.store.save_event(event)
        for table in await self.store.event_tables(event_id):
            live = self.manager.get(table.session_id) if table.session_id else None
            if live is not None and live.is_live:
                try:
                    await self.manager.cancel(live.id, live.host_id, moderator=True)
                except TableError:
                    log.warning("event %s: table %s could not be cancelled", event_id, live.id)
        await self._say(lambda host: host.event_changed(event))
        await self._say(lambda host: host.event_ended(event, []))
        log.info("event %s cancelled", event_id)
        return event

    # --- players ------------------------------------------------------------------------

    async def join(self, event_id: int, guild_id: int, player: PlayerId, name: str) -> Event:
        """Register before the start (refused once it started, twice, or from another
        server)."""
        async with self._lock(event_id):
            event = await self.event_in(event_id, guild_id)
            if not event.is_live:
                raise EventRefused(EventRefusal.OVER)
            if event.status is not EventStatus.OPEN:
                raise EventRefused(EventRefusal.STARTED)
            if not await self.store.join_event(EventPlayer(event_id, player, name,
                                                           self.clock())):
                raise EventRefused(EventRefusal.JOINED_ALREADY)
        return event  # the click that joined redraws the event post

    async def leave(self, event_id: int, guild_id: int, player: PlayerId) -> Event:
        """Before the start: unregister. Once it runs: withdraw (no more rounds; a bot plays
        the seat of a table still running, as when a player leaves a game)."""
        async with self._lock(event_id):
            event = await self.event_in(event_id, guild_id)
            if not event.is_live:
                raise EventRefused(EventRefusal.OVER)
            if event.status is EventStatus.OPEN:
                if not await self.store.leave_event(event_id, player):
                    raise EventRefused(EventRefusal.NOT_JOINED)
            elif not await self.store.withdraw_from_event(event_id, player):
                raise EventRefused(EventRefusal.NOT_JOINED)
        if event.status is EventStatus.RUNNING:
            for table in await self.store.event_tables(event_id):
                live = self.manager.get(table.session_id) if table.session_id else None
                if live is not None and live.is_live and live.seat_of(player) is not None:
                    with contextlib.suppress(TableError):
                        await self.manager.leave(live.id, player)
            log.info("event %s: %s withdrew", event_id, player)
        return event  # the click redraws the event post

    async def players(self, event_id: int) -> list[EventPlayer]:
        return await self.store.event_players(event_id)

    # --- the schedule -------------------------------------------------------------------

    async def tick(self) -> None:
        """Start the events whose time came; carry on every running one (see the module
        doc). Called every few seconds by the cogs, and once at start."""
        now = self.clock()
        for event in await self.store.live_events():
            if not self.shards.owns(event.guild_id):
                continue
            try:
                if event.status is EventStatus.OPEN and event.starts_at <= now:
                    await self._start(event.id)
                elif event.status is EventStatus.RUNNING:
                    await self._carry_on(event.id)
            except Exception:
                log.exception("event %s: its schedule failed; retried at the next tick",
                              event.id)

    async def on_change(self, change: Change) -> None:
        """A manager listener: a table of an event ended (finished, or abandoned)."""
        if change.kind not in (ChangeKind.FINISHED, ChangeKind.ABANDONED):
            return
        table = await self.store.event_of_session(change.session.id)
        if table is None:
            return
        await self._carry_on(table.event_id)

    async def _start(self, event_id: int) -> None:
        async with self._lock(event_id):
            event = await self.store.load_event(event_id)
            if event is None or event.status is not EventStatus.OPEN:
                return
            players = [p for p in await self.store.event_players(event_id) if not p.withdrawn]
            if len(players) < 2:
                empty = replace(event, status=EventStatus.CANCELLED, updated_at=self.clock())
                await self.store.save_event(empty)
                log.info("event %s: fewer than two players at the start", event_id)
                await self._say(lambda host: host.event_changed(empty))
                await self._say(lambda host: host.event_ended(empty, []))
                return
            if event.format is EventFormat.ARENA:
                event = replace(event, status=EventStatus.RUNNING, updated_at=self.clock())
                await self.store.save_event(event)
                log.info("event %s: arena started with %d players", event_id, len(players))
                tables: list[EventTable] = []
            else:
                event = replace(event, status=EventStatus.RUNNING, round=1,
                                updated_at=self.clock())
                tables = self._pair(event, players, [])
                await self.store.add_event_tables(tables)
                await self.store.save_event(event)
                log.info("event %s started: %d players, round 1 of %d", event_id,
                         len(players), event.settings.rounds)
        await self._say(lambda host: host.event_changed(event))
        if tables:
            await self._say(lambda host: host.round_started(event, tables))
        await self._carry_on(event_id)

    def _pair(self, event: Event, players: Sequence[EventPlayer],
              tables: Sequence[EventTable]) -> list[EventTable]:
        ids = [p.user_id for p in players]
        done = rounds_of(tables)
        ranked = [line.player for line in standings(ids, done)]
        pairing = pair_round(ranked, done, event.settings.per_table,
                             fill_with_bots=event.settings.bots)
        made = [EventTable(event.id, event.round, number, seated)
                for number, seated in enumerate(pairing.tables, start=1)]
        if pairing.bye is not None:
            made.append(EventTable(event.id, event.round, len(made) + 1, (pairing.bye,),
                                   outcome={pairing.bye: 1}, finished_at=self.clock()))
        return made

    async def _carry_on(self, event_id: int) -> None:
        """Bring a running event up to date with what is stored (the module doc)."""
        async with self._lock(event_id):
            event = await self.store.load_event(event_id)
            if event is None or event.status is not EventStatus.RUNNING:
                return
            if event.format is EventFormat.ARENA:
                news = await self._carry_on_arena(event)
            else:
                news = None
        if news is not None:
            for say in news:
                await self._say(say)
            return
        await self._carry_on_swiss(event_id)

    async def _carry_on_swiss(self, event_id: int) -> None:
        async with self._lock(event_id):
            event = await self.store.load_event(event_id)
            if event is None or event.status is not EventStatus.RUNNING:
                return
            tables = [t for t in await self.store.event_tables(event_id)
                      if t.round == event.round]
            for table in tables:
                if not table.done:
                    await self._play(event, table)
            tables = [t for t in await self.store.event_tables(event_id)
                      if t.round == event.round]
            if not all(table.done for table in tables):
                return
            everything = await self.store.event_tables(event_id)
            players = await self.store.event_players(event_id)
            lines = self._standing(players, everything, event)
            if event.round >= event.settings.rounds:
                event = replace(event, status=EventStatus.FINISHED, updated_at=self.clock())
                await self.store.save_event(event)
                log.info("event %s finished after round %d", event_id, event.round)
                ended: Event = event
                await self._say(lambda host: host.event_changed(ended))
                await self._say(lambda host: host.event_ended(ended, lines))
                return
            active = [p for p in players if not p.withdrawn]
            finished_round = event
            event = replace(event, round=event.round + 1, updated_at=self.clock())
            if len(active) < 2:
                event = replace(finished_round, status=EventStatus.FINISHED,
                                updated_at=self.clock())
                await self.store.save_event(event)
                closed: Event = event
                await self._say(lambda host: host.event_changed(closed))
                await self._say(lambda host: host.event_ended(closed, lines))
                return
            new_tables = self._pair(event, active, everything)
            await self.store.add_event_tables(new_tables)
            await self.store.save_event(event)
            log.info("event %s: round %d paired", event_id, event.round)
            started: Event = event
        await self._say(lambda host: host.round_ended(finished_round, lines))
        await self._say(lambda host: host.event_changed(started))
        await self._say(lambda host: host.round_started(started, new_tables))
        await self._carry_on(event_id)

    async def _carry_on_arena(self, event: Event) -> list[Say]:
        """Under the event's lock: score the tables that ended, close the arena at its end,
        else seat the waiting players; returns what to tell Discord."""
        news: list[Say] = []
        scored = False
        for table in await self.store.event_tables(event.id):
            if not table.done:
                scored |= await self._play(event, table)
        players = await self.store.event_players(event.id)
        if self.clock() >= event.ends_at:
            closed = replace(event, status=EventStatus.FINISHED, updated_at=self.clock())
            await self.store.save_event(closed)
            lines = self._standing(players, await self.store.event_tables(event.id), closed)
            log.info("event %s: the arena is over", event.id)
            return [lambda host: host.event_changed(closed),
                    lambda host: host.event_ended(closed, lines)]
        tables = await self.store.event_tables(event.id)
        busy = {p for t in tables if not t.done for p in t.players}
        last: dict[PlayerId, frozenset[PlayerId]] = {}
        for table in sorted((t for t in tables if t.done), key=_finish_order):
            for player in table.players:
                last[player] = frozenset(table.players) - {player}
        ranked = [s.line.player for s in self._standing(players, tables, event)]
        withdrawn = {p.user_id for p in players if p.withdrawn}
        waiting = [p for p in ranked if p not in busy and p not in withdrawn]
        seated = seat_waiting(waiting, event.settings.per_table, last_table=last,
                              others_playing=bool(busy))
        alone = [p for p in waiting if all(p not in t for t in seated)]
        if event.settings.bots and not busy and not seated and len(alone) == 1:
            seated = [(alone[0],)]  # nobody else will come: bot seats fill the table
        if seated:
            event = replace(event, round=event.round + 1, updated_at=self.clock())
            made = [EventTable(event.id, event.round, number, players_at)
                    for number, players_at in enumerate(seated, start=1)]
            await self.store.add_event_tables(made)
            await self.store.save_event(event)
            for table in made:
                await self._play(event, table)
        if scored or seated:
            current = event
            news.append(lambda host: host.event_changed(current))
        return news

    async def _play(self, event: Event, table: EventTable) -> bool:
        """Open, fill and start ``table``'s session as far as it is not yet; score it when it
        ended (True when this call scored it)."""
        session: Session | None = None
        if table.session_id is not None:
            session = self.manager.get(table.session_id) \
                or await self.store.load_session(table.session_id)
        if session is None:
            if self.host is None:
                return False
            channel_id = await self.host.table_channel(event, table)
            names = {p.user_id: p.display_name for p in await self.store.event_players(event.id)}
            session = await self.manager.open_lobby(
                event.guild_id, channel_id, event.game,
                Seat(player_id=table.players[0], display_name=names.get(table.players[0], "?")),
                turn_minutes=event.settings.turn_minutes)
            await self.store.set_event_table_session(event.id, table.round, table.number,
                                                     session.id)
        if session.status is Status.LOBBY:
            names = {p.user_id: p.display_name for p in await self.store.event_players(event.id)}
            for player in table.players:
                if session.seat_of(player) is None:
                    session = await self.manager.join(
                        session.id, Seat(player_id=player, display_name=names.get(player, "?")))
            engine = self.manager.engine(event.game)
            want = max(event.settings.per_table if event.settings.bots else len(table.players),
                       engine.min_players, 2)
            while len(session.seats) < want:
                session = await self.manager.add_bot(session.id, session.host_id, BOT_LEVEL)
            if session.table_message_id is None and self.host is not None:
                await self.host.post_table(session)
            await self.manager.start(session.id, session.host_id)
            return False
        if session.is_live:
            return False
        outcome = await self._outcome(session, table)
        # the game's own end, not when it was seen: an arena counts the games that ended in time
        if await self.store.finish_event_table(event.id, table.round, table.number, outcome,
                                               session.updated_at):
            log.info("event %s: round %d table %d scored", event.id, table.round,
                     table.number)
            return True
        return False

    async def _outcome(self, session: Session, table: EventTable) -> dict[PlayerId, int]:
        """Each event player's placement at an ended table, as its stored results say (the
        rows the ratings count; bot seats left out); a table abandoned without results is a
        tie for all."""
        rows = await self.store.query(
            "SELECT user_id, placement FROM results WHERE session_id = ?", (session.id,))
        places = {str(user): int(place) for user, place in rows}
        if session.status is not Status.FINISHED or not places:
            return {player: 1 for player in table.players}
        return {player: places.get(player, len(session.seats)) for player in table.players}

    def _standing(self, players: Sequence[EventPlayer], tables: Sequence[EventTable],
                  event: Event) -> list[Standing]:
        by_id = {p.user_id: p for p in players}
        ids = [p.user_id for p in players]
        lines: Sequence[Line | ArenaLine]
        if event.format is EventFormat.ARENA:
            ended = [t for t in tables if t.outcome is not None and t.finished_at is not None
                     and t.finished_at <= event.ends_at]
            games = [t.outcome for t in sorted(ended, key=_finish_order)
                     if t.outcome is not None]
            lines = arena_standings(ids, games)
        else:
            lines = standings(ids, rounds_of(tables))
        return [Standing(line, by_id[line.player].display_name, by_id[line.player].withdrawn)
                for line in lines]

    async def standing(self, event: Event) -> list[Standing]:
        """The standings so far (the tables that ended count)."""
        return self._standing(await self.store.event_players(event.id),
                              await self.store.event_tables(event.id), event)

    async def channel_events(self, guild_id: int, channel_id: int,
                             limit: int) -> list[EventSummary]:
        """The newest events opened in a channel (for ``/history``), each with its winner
        once it finished."""
        found = [e for e in await self.store.guild_events(guild_id, limit * 4)
                 if e.channel_id == channel_id][:limit]
        return [await self._summary(event) for event in found]

    async def player_record(self, guild_id: int, player: PlayerId) -> PlayerRecord:
        """How a player fared in a server's finished events (for ``/stats``)."""
        played = won = 0
        best: int | None = None
        for event in await self.store.player_events(guild_id, player):
            if event.status is not EventStatus.FINISHED:
                continue
            lines = await self.standing(event)
            rank = next((s.line.rank for s in lines if s.line.player == player), None)
            if rank is None:
                continue
            played += 1
            won += rank == 1
            best = rank if best is None else min(best, rank)
        return PlayerRecord(played, won, best)

    async def _summary(self, event: Event) -> EventSummary:
        winner = None
        if event.status is EventStatus.FINISHED:
            lines = await self.standing(event)
            winner = lines[0].line.player if lines else None
        players = await self.store.event_players(event.id)
        return EventSummary(event, len(players), winner)

    async def tables(self, event_id: int) -> list[EventTable]:
        return await self.store.event_tables(event_id)

    async def _say(self, action: Callable[[EventHost], Awaitable[Any]]) -> None:
        """Tell Discord; a failure there is logged and changes nothing stored."""
        if self.host is None:
            return
        try:
            await action(self.host)
        except Exception:
            log.exception("an event post failed")


Say = Callable[[EventHost], Awaitable[Any]]


def _finish_order(table: EventTable) -> tuple[datetime, int, int]:
    """Tables in the order their games ended (then as they were seated)."""
    assert table.finished_at is not None
    return (table.finished_at, table.round, table.number)


def rounds_of(tables: Sequence[EventTable]) -> list[Round]:
    """The finished tables as the pairing's rounds (a bye as a :class:`Bye`); a round counts
    with its ended tables only."""
    rounds: dict[int, list[TableResult | Bye]] = {}
    for table in tables:
        if table.outcome is None:
            continue
        entry: TableResult | Bye = Bye(table.players[0]) if table.is_bye \
            else TableResult(table.outcome)
        rounds.setdefault(table.round, []).append(entry)
    return [rounds[number] for number in sorted(rounds)]
