"""The game-agnostic session manager: lobbies, seats, and the one-way action path.

    click/command -> manager.act(session, player, version, action)
        -> lock(session) -> checks -> game.base.play on a copy -> store.record_action
        -> swap the in-memory session -> listeners(Change)

The manager knows no rules: it asks the engine (from any ``Mapping[str, Engine]``) whose
input the game awaits, parses and applies actions, and reads results. Every failure is a
:class:`bot.errors.TableError` with a sentence for the user, and changes nothing.

Listeners (``manager.subscribe``) are awaited after every stored change, outside the session
lock, in subscription order; an exception in one is logged and does not undo the change. A
listener may call the manager again (a bot seat playing its move). Because changes of one
session may publish close together, a renderer should draw ``manager.get(session.id)`` (the
newest) rather than rely on arrival order.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from bot import errors
from bot.deadlines import MAX_TURN_MINUTES, plan
from bot.errors import Refusal, SaveFailed, StaleVersion
from bot.models import LIVE_STATUSES, LOG_KEEP, ResultRow, Seat, Session, Status, utcnow
from bot.store import Store
from game.base import Engine, Event, IllegalAction, PlayerId, PlayerResult, play

log = logging.getLogger(__name__)

BOT_LEVELS = ("easy", "normal")
AWAY_AFTER = 2  # timeouts in a row before a bot plays the seat until "I'm back"
MAX_DEFAULT_MOVES = 200  # a safety bound on the default moves played for one timeout

ChangeKind = Literal["lobby", "started", "action", "finished", "abandoned", "seat"]


@dataclass(frozen=True)
class Change:
    """What a listener receives after a stored change.

    ``kind``: ``lobby`` (opened, joined, left, table message set), ``started``, ``action``,
    ``finished`` (the action that ended the game; ``events`` included), ``abandoned``
    (cancelled, emptied, or idle on restart) or ``seat`` (in a running game a player left,
    went away or came back). ``origin`` is whatever the caller passed (the
    cogs pass the id of the message they re-render themselves, so the table publisher can skip
    a second edit).
    """

    kind: ChangeKind
    session: Session
    events: tuple[Event, ...] = ()
    actor: PlayerId | None = None
    origin: object = None


Listener = Callable[[Change], Awaitable[None]]
Clock = Callable[[], datetime]


@dataclass(frozen=True)
class RestoreReport:
    restored: int
    abandoned: int


def _in_flight(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Count the call as a change in flight (checks, store, publish) so ``drain`` waits for it."""

    @functools.wraps(method)
    async def wrapper(self: SessionManager, *args: Any, **kwargs: Any) -> Any:
        if self._closing:
            raise Refusal(errors.SHUTTING_DOWN)
        self._in_flight += 1
        self._idle.clear()
        try:
            return await method(self, *args, **kwargs)
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()

    return wrapper


class SessionManager:
    """Owns every live (lobby or active) session; one per channel."""

    def __init__(
        self,
        store: Store,
        engines: Mapping[str, Engine[Any, Any]],
        *,
        clock: Clock = utcnow,
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
        idle_after: timedelta = timedelta(days=7),
        turn_minutes: int = 0,
    ) -> None:
        self.store = store
        self.turn_minutes = turn_minutes  # the turn clock of a new lobby unless it names one
        self.engines = dict(engines)
        self.clock = clock
        self._seed_source = seed_source
        self._idle_after = idle_after
        self._sessions: dict[int, Session] = {}
        self._by_channel: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._open_lock = asyncio.Lock()
        self._listeners: list[Listener] = []
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._closing = False

    # --- lookups --------------------------------------------------------------------------

    def get(self, session_id: int) -> Session | None:
        """The live session with this id, or None."""
        return self._sessions.get(session_id)

    def in_channel(self, channel_id: int) -> Session | None:
        """The live session of a channel (text channel or thread), or None."""
        session_id = self._by_channel.get(channel_id)
        return self._sessions.get(session_id) if session_id is not None else None

    def live_sessions(self) -> list[Session]:
        return list(self._sessions.values())

    def engine(self, game: str) -> Engine[Any, Any]:
        try:
            return self.engines[game]
        except KeyError:
            raise Refusal(errors.unknown_game(game)) from None

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(change)`` after every stored change."""
        self._listeners.append(listener)

    # --- start-up and shutdown --------------------------------------------------------------

    async def restore(self) -> RestoreReport:
        """Load every lobby and active session; mark the idle ones (and unknown games) abandoned."""
        now = self.clock()
        restored = abandoned = 0
        for stored in await self.store.load_sessions(LIVE_STATUSES):
            engine = self.engines.get(stored.game)
            idle = now - stored.updated_at > self._idle_after
            if engine is None or idle:
                await self.store.save_session(
                    replace(stored, status=Status.ABANDONED, version=stored.version + 1,
                            updated_at=now)
                )
                abandoned += 1
                log.info("session %s (%s) abandoned on start: %s", stored.id, stored.game,
                         "idle" if engine else "unknown game")
                continue
            state = (
                engine.state_model.model_validate(stored.state)
                if stored.state is not None
                else None
            )
            self._register(replace(stored, state=state))
            restored += 1
        log.info("restored %d sessions, abandoned %d", restored, abandoned)
        return RestoreReport(restored, abandoned)

    async def drain(self) -> None:
        """Refuse new changes and wait until the ones in flight are stored and published."""
        self._closing = True
        await self._idle.wait()

    # --- lobby ----------------------------------------------------------------------------

    @_in_flight
    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        host: Seat,
        options: Mapping[str, Any] | None = None,
        *,
        turn_minutes: int | None = None,
        origin: object = None,
    ) -> Session:
        """Open a lobby with ``host`` in the first seat.

        ``turn_minutes``: the turn clock (0 = off; None = the manager's default).
        """
        engine = self.engine(game)
        minutes = self.turn_minutes if turn_minutes is None else turn_minutes
        if not 0 <= minutes <= MAX_TURN_MINUTES:
            raise Refusal(errors.bad_turn_minutes(MAX_TURN_MINUTES))
        try:
            checked = engine.options_model.model_validate(dict(options or {}))
        except ValidationError as err:
            raise Refusal(f"Those game options are not valid: {err.errors()[0]['msg']}.") from None
        async with self._open_lock:
            if self.in_channel(channel_id) is not None:
                raise Refusal(errors.GAME_RUNNING)
            now = self.clock()
            draft = Session(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                status=Status.LOBBY,
                host_id=host.player_id,
                seats=(host,),
                options=checked.model_dump(mode="json"),
                turn_minutes=minutes,
                created_at=now,
                updated_at=now,
            )
            session = await self._save(self.store.create_session(draft))
            self._register(session)
        log.info("session %s: %s lobby opened in channel %s", session.id, game, channel_id)
        await self._publish(Change("lobby", session, actor=host.player_id, origin=origin))
        return session

    @_in_flight
    async def join(self, session_id: int, seat: Seat, *, origin: object = None) -> Session:
        """Seat a player (or a bot seat) in a lobby."""
        async with self._locked(session_id) as session:
            if session.status is not Status.LOBBY:
                raise Refusal(errors.ALREADY_STARTED)
            if session.seat_of(seat.player_id) is not None:
                raise Refusal(errors.ALREADY_SEATED)
            engine = self.engine(session.game)
            if len(session.seats) >= engine.max_players:
                raise Refusal(errors.lobby_full(engine.max_players))
            new = self._next(session, seats=(*session.seats, seat))
            await self._save(self.store.save_session(new))
            self._swap(new)
        await self._publish(Change("lobby", new, actor=seat.player_id, origin=origin))
        return new

    @_in_flight
    async def leave(
        self, session_id: int, player_id: PlayerId, *, origin: object = None
    ) -> Session:
        """Leave a lobby, or a running game for good (a bot plays the seat from then on).

        The host's role passes to the next human still playing; an empty lobby is abandoned.
        A running game goes on even when every human left: the bots finish it.
        """
        async with self._locked(session_id) as session:
            me = session.seat_of(player_id)
            if me is None or me.left:
                raise Refusal(errors.NOT_SEATED)
            if session.status is not Status.LOBBY:
                new = self._next(
                    session,
                    seats=_with_seat(session.seats, me.model_copy(update={"left": True})),
                    host_id=_next_host(session, player_id),
                )
            else:
                seats = tuple(seat for seat in session.seats if seat.player_id != player_id)
                humans = [seat for seat in seats if not seat.is_bot]
                if not humans:
                    new = self._next(session, seats=seats, status=Status.ABANDONED)
                else:
                    host = (
                        session.host_id if session.host_id != player_id else humans[0].player_id
                    )
                    new = self._next(session, seats=seats, host_id=host)
            await self._save(self.store.save_session(new))
            self._swap(new)
        kind: ChangeKind
        if new.status is Status.ACTIVE:
            kind = "seat"
            log.info("session %s: %s left the running game", new.id, player_id)
        else:
            kind = "lobby" if new.is_live else "abandoned"
        await self._publish(Change(kind, new, actor=player_id, origin=origin))
        return new

    @_in_flight
    async def add_bot(
        self, session_id: int, player_id: PlayerId, level: str, *, origin: object = None
    ) -> Session:
        """Seat a bot (``level`` "easy" or "normal") in a lobby (host only)."""
        if level not in BOT_LEVELS:
            raise Refusal(errors.bad_bot_level(BOT_LEVELS))
        async with self._locked(session_id) as session:
            self._check_host_in_lobby(session, player_id)
            engine = self.engine(session.game)
            if len(session.seats) >= engine.max_players:
                raise Refusal(errors.lobby_full(engine.max_players))
            new = self._next(session, seats=(*session.seats, _bot_seat(session.seats, level)))
            await self._save(self.store.save_session(new))
            self._swap(new)
        await self._publish(Change("lobby", new, actor=player_id, origin=origin))
        return new

    @_in_flight
    async def remove_bot(
        self,
        session_id: int,
        player_id: PlayerId,
        bot_id: PlayerId | None = None,
        *,
        origin: object = None,
    ) -> Session:
        """Remove a bot seat from a lobby (host only): ``bot_id``, or the last bot seated."""
        async with self._locked(session_id) as session:
            self._check_host_in_lobby(session, player_id)
            bots = [seat for seat in session.seats if seat.is_bot]
            if bot_id is not None:
                bots = [seat for seat in bots if seat.player_id == bot_id]
            if not bots:
                raise Refusal(errors.NO_BOT)
            gone = bots[-1].player_id
            new = self._next(
                session, seats=tuple(s for s in session.seats if s.player_id != gone)
            )
            await self._save(self.store.save_session(new))
            self._swap(new)
        await self._publish(Change("lobby", new, actor=player_id, origin=origin))
        return new

    @staticmethod
    def _check_host_in_lobby(session: Session, player_id: PlayerId) -> None:
        if session.status is not Status.LOBBY:
            raise Refusal(errors.ALREADY_STARTED)
        if player_id != session.host_id:
            raise Refusal(errors.NOT_HOST)

    @_in_flight
    async def start(
        self, session_id: int, player_id: PlayerId, *, origin: object = None
    ) -> Session:
        """Deal the game (host only, at least the engine's minimum players)."""
        async with self._locked(session_id) as session:
            if session.status is not Status.LOBBY:
                raise Refusal(errors.ALREADY_STARTED)
            if player_id != session.host_id:
                raise Refusal(errors.NOT_HOST)
            engine = self.engine(session.game)
            if len(session.seats) < engine.min_players:
                raise Refusal(
                    errors.too_few_players(engine.title, engine.min_players, len(session.seats))
                )
            seats = session.seats
            if len(seats) == 1:
                # A game that opens to one player is played solo against the engine's normal
                # bot (TEN, spec section 6); a bot in the game means it is never rated.
                seats = (*seats, _bot_seat(seats, "normal"))
            try:
                state = engine.new_game(
                    [seat.player_id for seat in seats], self._seed_source(), session.options
                )
            except IllegalAction as err:
                raise Refusal(str(err)) from None
            new = self._next(session, status=Status.ACTIVE, state=state, seats=seats)
            await self._save(self.store.save_session(new))
            self._swap(new)
        log.info("session %s: %s started with %d seats", new.id, new.game, len(new.seats))
        await self._publish(Change("started", new, actor=player_id, origin=origin))
        return new

    @_in_flight
    async def cancel(
        self,
        session_id: int,
        player_id: PlayerId,
        *,
        moderator: bool = False,
        origin: object = None,
    ) -> Session:
        """End a lobby or a running game without results (host, or ``moderator``)."""
        async with self._locked(session_id) as session:
            if player_id != session.host_id and not moderator:
                raise Refusal(errors.NOT_HOST_OR_MOD)
            new = self._next(session, status=Status.ABANDONED)
            await self._save(self.store.save_session(new))
            self._swap(new)
        log.info("session %s cancelled", new.id)
        await self._publish(Change("abandoned", new, actor=player_id, origin=origin))
        return new

    @_in_flight
    async def set_table_message(self, session_id: int, message_id: int | None) -> Session:
        """Remember the public table message so renderers can edit it later (no version bump)."""
        async with self._locked(session_id) as session:
            new = replace(session, table_message_id=message_id, updated_at=self.clock())
            await self._save(self.store.save_session(new))
            self._swap(new)
        return new

    # --- the action path ----------------------------------------------------------------------

    @_in_flight
    async def act(
        self,
        session_id: int,
        player_id: PlayerId,
        version: int,
        action: Mapping[str, Any] | str | BaseModel,
        *,
        autopilot: bool = False,
        origin: object = None,
    ) -> Change:
        """Apply one game action made against ``version``; returns the published change.

        Refusals, in order: no game, not started, not seated (or left), stale version, not your
        turn, the engine's IllegalAction text. A storage failure raises SaveFailed; in every
        failure case the session stays exactly as it was.

        ``autopilot``: a machine moves for the seat (``bot.autoplay``); refused unless the seat
        is a bot seat or its player is away or left. A player who moves themselves is back:
        their away flag and timeout count are cleared.
        """
        async with self._locked(session_id) as session:
            if session.status is not Status.ACTIVE:
                raise Refusal(errors.NOT_STARTED)
            seat = session.seat_of(player_id)
            if seat is None:
                raise Refusal(errors.NOT_SEATED)
            if autopilot and not seat.autopiloted:
                raise StaleVersion()  # its player came back meanwhile
            if not autopilot and seat.left:
                raise Refusal(errors.LEFT_GAME)
            if version != session.version:
                raise StaleVersion()
            engine = self.engine(session.game)
            if player_id not in engine.awaiting(session.state):
                raise Refusal(errors.NOT_YOUR_TURN)
            try:
                parsed = (
                    action
                    if isinstance(action, BaseModel)
                    else engine.parse_action(action)
                )
            except IllegalAction as err:
                raise Refusal(str(err)) from None
            seats = session.seats
            if not autopilot and (seat.away or seat.timeouts):
                seats = _with_seat(seats, seat.model_copy(update={"away": False, "timeouts": 0}))
            change = await self._apply(session, engine, player_id, parsed, seats, origin)
        await self._publish(change)
        return change

    @_in_flight
    async def time_out(
        self,
        session_id: int,
        player_id: PlayerId,
        version: int,
        *,
        now: datetime | None = None,
        origin: object = None,
    ) -> list[Change]:
        """The player's deadline (stored with ``version``) passed: play the engine's default
        moves for them until the game no longer waits for them, each stored and published like
        any action. Counts a timeout; the second in a row makes the seat away.

        A second call for the same deadline is refused as stale: the first moved the version.
        """
        changes: list[Change] = []
        try:
            async with self._locked(session_id) as session:
                if session.status is not Status.ACTIVE:
                    raise Refusal(errors.NOT_STARTED)
                if version != session.version:
                    raise StaleVersion()
                deadline = session.deadline_of(player_id)
                seat = session.seat_of(player_id)
                if deadline is None or seat is None or deadline.due_at > (now or self.clock()):
                    raise Refusal(errors.NOT_TIMED_OUT)
                engine = self.engine(session.game)
                timeouts = seat.timeouts + 1
                seats = _with_seat(
                    session.seats,
                    seat.model_copy(update={"timeouts": timeouts, "away": timeouts >= AWAY_AFTER}),
                )
                current = session
                for _ in range(MAX_DEFAULT_MOVES):
                    if current.status is not Status.ACTIVE:
                        break
                    if player_id not in engine.awaiting(current.state):
                        break
                    try:
                        action = engine.default_action(current.state, player_id)
                    except IllegalAction:
                        log.exception("session %s: no default move for %s", current.id,
                                      player_id)
                        break
                    change = await self._apply(current, engine, player_id, action, seats, origin)
                    changes.append(change)
                    current = change.session
                    seats = current.seats
                if not changes:  # nothing to play, but the timeout still counts
                    new = self._next(session, seats=seats)
                    await self._save(self.store.save_session(new))
                    self._swap(new)
                    changes.append(Change("seat", new, actor=player_id, origin=origin))
            log.info("session %s: %s timed out (%d in a row)", session_id, player_id, timeouts)
        finally:
            for change in changes:
                await self._publish(change)
        return changes

    @_in_flight
    async def mark_reminded(
        self, session_id: int, player_id: PlayerId, version: int
    ) -> Session | None:
        """Record that the player's reminder went out (no version bump). None when that
        deadline is gone or was already reminded, so a reminder is sent at most once."""
        async with self._locked(session_id) as session:
            deadline = session.deadline_of(player_id)
            if version != session.version or deadline is None or deadline.reminded:
                return None
            marked = deadline.model_copy(update={"reminded": True})
            new = replace(
                session,
                deadlines=tuple(marked if d is deadline else d for d in session.deadlines),
            )
            await self._save(self.store.save_session(new))
            self._swap(new)
        return new

    @_in_flight
    async def set_away(
        self, session_id: int, player_id: PlayerId, away: bool, *, origin: object = None
    ) -> Session:
        """Mark a player of a running game away (a bot plays for them) or back ("I'm back")."""
        async with self._locked(session_id) as session:
            if session.status is not Status.ACTIVE:
                raise Refusal(errors.NOT_STARTED)
            seat = session.seat_of(player_id)
            if seat is None or seat.is_bot:
                raise Refusal(errors.NOT_SEATED)
            if seat.left:
                raise Refusal(errors.LEFT_GAME)
            if seat.away == away:
                raise Refusal(errors.ALREADY_AWAY if away else errors.NOT_AWAY)
            new = self._next(
                session,
                seats=_with_seat(session.seats, seat.model_copy(update={"away": away,
                                                                        "timeouts": 0})),
                actor=None if away else player_id,
            )
            await self._save(self.store.save_session(new))
            self._swap(new)
        log.info("session %s: %s is %s", new.id, player_id, "away" if away else "back")
        await self._publish(Change("seat", new, actor=player_id, origin=origin))
        return new

    # --- internals ----------------------------------------------------------------------------

    def _results(self, session: Session, engine: Engine[Any, Any]) -> list[ResultRow]:
        bots = session.has_bots
        rated = not bots and len(session.seats) >= 2
        finished_at = session.updated_at
        results = engine.results(session.state)
        places = _leavers_last(results, {seat.player_id for seat in session.seats if seat.left})
        rows = []
        for result in results:
            seat = session.seat_of(result.player)
            rows.append(
                ResultRow(
                    session_id=session.id,
                    guild_id=session.guild_id,
                    game=session.game,
                    user_id=result.player,
                    placement=places[result.player],
                    score=result.score,
                    is_bot_seat=bool(seat and seat.is_bot),
                    bots_in_game=bots,
                    rated=rated,
                    finished_at=finished_at,
                )
            )
        return rows

    async def _apply(
        self,
        session: Session,
        engine: Engine[Any, Any],
        player_id: PlayerId,
        parsed: BaseModel,
        seats: tuple[Seat, ...],
        origin: object,
    ) -> Change:
        """Apply, store and swap in one checked action (under the session lock)."""
        try:
            state, events = play(engine, session.state, player_id, parsed)
        except IllegalAction as err:
            raise Refusal(str(err)) from None
        finished = engine.is_over(state)
        new = self._next(
            session,
            state=state,
            status=Status.FINISHED if finished else Status.ACTIVE,
            log=_table_log(session, engine, events),
            seats=seats,
            actor=player_id,
        )
        results = self._results(new, engine) if finished else []
        await self._save(
            self.store.record_action(new, player_id, parsed.model_dump(mode="json"), results)
        )
        self._swap(new)
        log.debug("session %s: action by %s -> version %s", new.id, player_id, new.version)
        if finished:
            log.info("session %s: %s finished: %s", new.id, new.game,
                     ", ".join(f"{r.user_id} #{r.placement} ({r.score})" for r in results))
        return Change("finished" if finished else "action", new, tuple(events), player_id, origin)

    def _next(self, session: Session, *, actor: PlayerId | None = None, **changes: Any) -> Session:
        """The next version of ``session``, with its turn deadlines planned for the new state."""
        now = self.clock()
        new = replace(session, version=session.version + 1, updated_at=now, **changes)
        engine = self.engines.get(new.game)
        if new.status is not Status.ACTIVE or new.state is None or engine is None:
            return replace(new, deadlines=()) if new.deadlines else new
        deadlines = plan(
            session.deadlines, engine.awaiting(new.state), new.seats,
            actor=actor, now=now, minutes=new.turn_minutes,
        )
        return replace(new, deadlines=deadlines)

    def _register(self, session: Session) -> None:
        self._sessions[session.id] = session
        self._by_channel[session.channel_id] = session.id
        self._locks.setdefault(session.id, asyncio.Lock())

    def _swap(self, session: Session) -> None:
        if session.is_live:
            self._register(session)
            return
        self._sessions.pop(session.id, None)
        if self._by_channel.get(session.channel_id) == session.id:
            del self._by_channel[session.channel_id]
        self._locks.pop(session.id, None)

    async def _save(self, write: Awaitable[Any]) -> Any:
        try:
            return await write
        except Exception:
            log.exception("storing a session change failed")
            raise SaveFailed(errors.SAVE_FAILED) from None

    def _locked(self, session_id: int) -> _SessionLock:
        return _SessionLock(self, session_id)

    async def _publish(self, change: Change) -> None:
        for listener in list(self._listeners):
            try:
                await listener(change)
            except Exception:
                log.exception("listener %r failed on %s of session %s",
                              listener, change.kind, change.session.id)


def _with_seat(seats: tuple[Seat, ...], changed: Seat) -> tuple[Seat, ...]:
    return tuple(changed if seat.player_id == changed.player_id else seat for seat in seats)


def _next_host(session: Session, leaving: PlayerId) -> PlayerId:
    """Who hosts once ``leaving`` left a running game: the host, else the next human playing."""
    if session.host_id != leaving:
        return session.host_id
    playing = [s for s in session.seats if not s.is_bot and not s.left and s.player_id != leaving]
    return playing[0].player_id if playing else session.host_id


def _bot_seat(seats: tuple[Seat, ...], level: str) -> Seat:
    """A new bot seat ``bot:N`` (the smallest N not taken), named "Bot N"."""
    taken = {seat.player_id for seat in seats}
    number = next(n for n in range(1, len(seats) + 2) if f"bot:{n}" not in taken)
    return Seat(player_id=f"bot:{number}", display_name=f"Bot {number}", is_bot=True,
                bot_level=level)


def _table_log(
    session: Session, engine: Engine[Any, Any], events: Sequence[Event]
) -> tuple[str, ...]:
    """The session's public log with one line per new event (the last LOG_KEEP lines)."""
    names = session.names
    lines = []
    for event in events:
        try:
            lines.append(engine.describe(event, None, names))
        except Exception:  # a wording bug must not block the game
            log.exception("describing a %s event of session %s failed", event.kind, session.id)
            lines.append(event.kind)
    return (*session.log, *lines)[-LOG_KEEP:]


def _leavers_last(results: Sequence[PlayerResult], leavers: set[PlayerId]) -> dict[PlayerId, int]:
    """Placements with every leaver after everyone who stayed (leavers share last place);
    the others keep their order, ties included (1, 1, 3)."""
    stayed = [r.placement for r in results if r.player not in leavers]
    last = len(stayed) + 1
    return {
        r.player: last if r.player in leavers else 1 + sum(p < r.placement for p in stayed)
        for r in results
    }


class _SessionLock:
    """``async with``: hold the session's lock and yield its current live version."""

    def __init__(self, manager: SessionManager, session_id: int) -> None:
        self._manager = manager
        self._session_id = session_id
        self._lock: asyncio.Lock | None = None

    async def __aenter__(self) -> Session:
        lock = self._manager._locks.get(self._session_id)
        if lock is None:
            raise Refusal(errors.NO_GAME)
        await lock.acquire()
        self._lock = lock
        session = self._manager._sessions.get(self._session_id)
        if session is None:  # ended while we waited for the lock
            await self.__aexit__()
            raise Refusal(errors.NO_GAME)
        return session

    async def __aexit__(self, *exc: object) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None
