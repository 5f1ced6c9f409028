"""The game-agnostic session manager: lobbies, seats, and the one-way action path.

    click -> manager.click(session, player, version, decode)
          (command, machine seat -> manager.act(session, player, version, action model))
        -> lock(session) -> the gate (bot.sessions.transitions.check_move), once
        -> decode(session) -> one legal action (the game's UI has the engine read the
           control's code and check that one action: no list of every legal action)
        -> the engine on a copy
        -> store the action row + snapshot in one transaction -> swap the live session
        -> queue the Change, with whom the game now awaits; return (the click is answered)
    the session's publish worker -> listeners(Change), one change at a time, in version order

Every operation takes the session's lock (which also names the session in what is logged
meanwhile), computes a pure :class:`bot.sessions.transitions.Step` (the rules of the table live
in ``bot.sessions.transitions``; the rules of the game in the engine) and hands it to one
helper, :meth:`SessionManager._step`, which stores it, swaps the new version in and publishes
it. The manager knows no game rules: it asks the engine (from any
``Mapping[str, Engine]``) whose input the game awaits (once per stored version: the gate
and the listeners read the answer, :meth:`SessionManager.awaiting` and ``Change.awaiting``),
applies actions and reads results.
Every failure is a :class:`bot.records.errors.TableError` with a sentence for the user, and changes
nothing.

Listeners (``manager.subscribe``) get every stored change from a per-session publish worker
(a background task while the session has changes queued), outside the session lock, in
subscription order; changes of one session arrive strictly in version order, one at a time;
sessions do not wait for each other. An exception in a listener is logged and does not undo
the change. ``await manager.settle(session_id=None)`` waits until the queued changes were
delivered (tests, shutdown; never from a listener of that session). A listener may call the
manager again (a bot seat playing its move). Because a change is delivered after the operation
returned, newer versions may already be live: a renderer should draw
``manager.get(session.id)`` (the newest) or skip a change that was overtaken.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Concatenate, ParamSpec, TypeVar

from pydantic import BaseModel, ValidationError

from bot.ops import log_context
from bot.ops.metrics import METRICS, add
from bot.records import errors
from bot.records.change import Change, ChangeKind, Origin
from bot.records.errors import Refusal, SaveFailed, StaleWrite
from bot.records.session import (
    LIVE_STATUSES,
    Seat,
    Session,
    SessionKind,
    Status,
    engine_options,
    replaced,
    table_options,
    utcnow,
)
from bot.records.shards import ShardSet, session_shard
from bot.sessions import transitions
from bot.sessions.deadlines import MAX_TURN_MINUTES, plan
from bot.sessions.transitions import AWAY_AFTER, BOT_LEVELS, Step, result_rows
from bot.store import Store
from game.base import Engine, IllegalAction, PlayerId, rng_for

__all__ = [
    "AWAY_AFTER",
    "BOT_LEVELS",
    "MAX_DEFAULT_MOVES",
    "Clock",
    "Decode",
    "Listener",
    "RestoreReport",
    "SessionManager",
]

log = logging.getLogger(__name__)

MAX_DEFAULT_MOVES = 200  # a safety bound on the default moves played for one timeout


Listener = Callable[[Change], Awaitable[None]]
Clock = Callable[[], datetime]


@dataclass(frozen=True)
class RestoreReport:
    restored: int
    abandoned: int


Manager = TypeVar("Manager", bound="SessionManager")
Params = ParamSpec("Params")
Result = TypeVar("Result")
Other = TypeVar("Other")
# A click's decoder (``SessionManager.click``): the live session -> one of the clicker's legal
# actions, or something else to answer with (nothing is changed).
Decode = Callable[[Session], "BaseModel | Other"]


def in_flight(
    method: Callable[Concatenate[Manager, Params], Awaitable[Result]],
) -> Callable[Concatenate[Manager, Params], Awaitable[Result]]:
    """Count the call as a change in flight (checks, store, queueing for the listeners) so
    ``drain`` waits for it."""

    @functools.wraps(method)
    async def wrapper(self: Manager, *args: Params.args, **kwargs: Params.kwargs) -> Result:
        if self._closing:
            raise Refusal(errors.SHUTTING_DOWN)
        with self._counted():
            return await method(self, *args, **kwargs)

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
        game_seed: int | None = None,
        idle_after: timedelta = timedelta(days=7),
        turn_minutes: int = 0,
    ) -> None:
        """``game_seed`` (tests and replays only): every game's seed is derived from it and
        the session id instead of taken from ``seed_source``."""
        self.store = store
        self.turn_minutes = turn_minutes  # the turn clock of a new lobby unless it names one
        self.engines = dict(engines)
        self.clock = clock
        self._seed_source = seed_source
        self._game_seed = game_seed
        self._idle_after = idle_after
        self._shards: ShardSet | None = None  # the process's, once restored (log lines name it)
        self._sessions: dict[int, Session] = {}
        self._by_channel: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        # session id -> (the live version's state, whom its game awaits): asked once per state
        self._awaiting: dict[int, tuple[object, tuple[PlayerId, ...]]] = {}
        self._open_lock = asyncio.Lock()
        self._listeners: list[Listener] = []
        self._outbox: dict[int, deque[Change]] = {}  # session id -> changes not yet published
        self._publishers: dict[int, asyncio.Task[None]] = {}  # session id -> its worker
        # session id -> the waiters of overtaken_within, woken when a version is swapped in
        self._overtaking: dict[int, list[asyncio.Future[None]]] = {}
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._in_flight_block = _InFlight(self)
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

    def overtaken(self, session: Session) -> bool:
        """Whether a newer version of ``session`` is live."""
        current = self._sessions.get(session.id)
        return current is not None and current.version > session.version

    async def overtaken_within(self, session: Session, seconds: float) -> bool:
        """Wait up to ``seconds`` for a newer version of ``session`` to be live (a change is
        swapped in before it is published: a listener can wait for the next one); True as
        soon as one is. Woken by the swap, not by polling: a wait costs no timer per step of
        the clock (issue 42, the sixth pass)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not self.overtaken(session):
            left = deadline - loop.time()
            if left <= 0:
                return False
            waiter: asyncio.Future[None] = loop.create_future()
            waiters = self._overtaking.setdefault(session.id, [])
            waiters.append(waiter)
            try:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(left):
                        await waiter
            finally:
                if waiter in waiters:
                    waiters.remove(waiter)
                if not waiters and self._overtaking.get(session.id) is waiters:
                    del self._overtaking[session.id]
        return True

    def private_of(self, player_id: PlayerId, kind: SessionKind,
                   game: str | None = None) -> list[Session]:
        """The live private tables of ``kind`` (and ``game``) that ``player_id`` plays, oldest
        first (they are in no channel: :meth:`in_channel` never returns one)."""
        return [
            session for session in self._sessions.values()
            if session.kind is kind and (game is None or session.game == game)
            and session.host_id == player_id
        ]

    def pending_changes(self) -> int:
        """Stored changes whose listeners (channel posts) have not run yet."""
        return sum(len(queue) for queue in self._outbox.values())

    def engine(self, game: str) -> Engine[Any, Any]:
        try:
            return self.engines[game]
        except KeyError:
            raise errors.unknown_game_refusal(game) from None

    def awaiting(self, session: Session) -> tuple[PlayerId, ...]:
        """Whom the game of ``session`` awaits (empty unless it runs): the engine is asked once
        per stored state, and the answer kept while that state is the live one."""
        if session.status is not Status.ACTIVE or session.state is None:
            return ()
        known = self._awaiting.get(session.id)
        if known is not None and known[0] is session.state:
            return known[1]
        engine = self.engines.get(session.game)
        found = tuple(engine.awaiting(session.state)) if engine is not None else ()
        live = self._sessions.get(session.id)
        if live is not None and live.state is session.state:
            self._awaiting[session.id] = (session.state, found)
        return found

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(change)`` after every stored change (from the session's publish
        worker, in version order). A listener must not ``settle`` its own session."""
        self._listeners.append(listener)

    def seed_for(self, session_id: int) -> int:
        """The seed of the game dealt in session ``session_id``."""
        if self._game_seed is not None:
            return rng_for(self._game_seed, "session", session_id).getrandbits(63)
        return self._seed_source()

    def log_bound(self, session: Session) -> contextlib.AbstractContextManager[None]:
        """Bind what a log line is about inside the block: ``session``, its guild and channel,
        and the shard it is on once :meth:`restore` was given the process's shards."""
        shards = self._shards
        return log_context.bound(
            guild=session.guild_id, channel=session.channel_id, session=session.id,
            shard=session_shard(session.guild_id, session.channel_id, shards.count)
            if shards is not None else None,
        )

    # --- start-up and shutdown --------------------------------------------------------------

    async def restore(self, shards: ShardSet | None = None) -> RestoreReport:
        """Load every lobby and active session; mark the idle ones (and unknown games) abandoned.

        The cyclic garbage collector is paused meanwhile: decoding thousands of snapshots
        allocates millions of objects, and its passes over the growing heap would take most of
        the time. Afterwards the restored sessions (with the rest of the start-up heap) are
        frozen (``gc.freeze``): they are long-lived, and later full collections need not
        traverse them again; refcounting still frees them when their game ends.
        """
        collecting = gc.isenabled()
        gc.disable()
        try:
            report = await self._restore(shards)
        finally:
            if collecting:
                gc.enable()
        gc.freeze()
        log.info("restored %d sessions, abandoned %d", report.restored, report.abandoned)
        return report

    async def _restore(self, shards: ShardSet | None) -> RestoreReport:
        self._shards = shards
        now = self.clock()
        restored = abandoned = 0
        for stored in await self.store.load_sessions(LIVE_STATUSES, raw_state=True,
                                                     shards=shards):
            engine = self.engines.get(stored.game)
            idle = now - stored.updated_at > self._idle_after
            if engine is None or idle:
                state = json.loads(stored.state) if stored.state is not None else None
                await self.store.save_session(
                    replace(stored, state=state, status=Status.ABANDONED,
                            version=stored.version + 1, updated_at=now)
                )
                abandoned += 1
                log.info("session %s (%s) abandoned on start: %s", stored.id, stored.game,
                         "idle" if engine else "unknown game")
                continue
            state = (
                engine.state_model.model_validate_json(stored.state)
                if stored.state is not None
                else None
            )
            self._register(replace(stored, state=state))
            restored += 1
        return RestoreReport(restored, abandoned)

    def _counted(self) -> _InFlight:
        """Count what runs meanwhile as a change in flight (``drain`` waits for it)."""
        return self._in_flight_block

    @property
    def closing(self) -> bool:
        """True once :meth:`drain` began: every new change is refused."""
        return self._closing

    async def drain(self) -> None:
        """Refuse new changes and wait until the ones in flight are stored and published."""
        self._closing = True
        await self._idle.wait()
        await self.settle()

    async def settle(self, session_id: int | None = None) -> None:
        """Wait until every change queued so far (of ``session_id``, or of every session) has
        been handed to the listeners, and any queued meanwhile too."""
        while True:
            if session_id is None:
                workers = list(self._publishers.values())
            else:
                worker = self._publishers.get(session_id)
                workers = [worker] if worker is not None else []
            if not workers:
                return
            # asyncio.wait, unlike gather, leaves the workers running if the caller is cancelled.
            await asyncio.wait(workers)

    # --- lobby and seats --------------------------------------------------------------------

    @in_flight
    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        host: Seat,
        options: Mapping[str, object] | None = None,
        *,
        turn_minutes: int | None = None,
        origin: Origin = None,
    ) -> Session:
        """Open a lobby with ``host`` in the first seat.

        ``turn_minutes``: the turn clock (0 = off; None = the manager's default).
        """
        engine = self.engine(game)
        minutes = self.turn_minutes if turn_minutes is None else turn_minutes
        if not 0 <= minutes <= MAX_TURN_MINUTES:
            raise Refusal(errors.BAD_TURN_MINUTES, most=MAX_TURN_MINUTES)
        options = dict(options or {})
        try:
            checked = engine.options_model.model_validate(engine_options(options))
        except ValidationError as err:
            raise Refusal(errors.BAD_OPTIONS, reason=err.errors()[0]["msg"]) from None
        table = table_options(options)
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
                options={**checked.model_dump(mode="json"), **table},
                turn_minutes=minutes,
                created_at=now,
                updated_at=now,
            )
            session = await self._save(self.store.create_session(draft))
            self._register(session)
            with self.log_bound(session):
                self._publish(Change(ChangeKind.LOBBY, session, actor=host.player_id,
                                     origin=origin))
                log.info("session %s: %s lobby opened in channel %s", session.id, game,
                         channel_id)
        return session

    @in_flight
    async def open_private(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        player: Seat,
        bots: Sequence[Seat] = (),
        *,
        kind: SessionKind,
        seed: int,
        options: Mapping[str, object] | None = None,
        origin: Origin = None,
    ) -> Session:
        """Deal a private table (``kind`` not ``table``) at once: ``player`` (the one human,
        its host) in the first seat, then the ``bots`` (bot seats), the game dealt from
        ``seed``. No turn clock; it takes no channel (``channel_id`` is where it was opened).
        Published as a ``started`` change, so the machine seats move; the cogs' listeners make
        no channel post for a private kind (``cogs.listeners.private_tables``)."""
        if kind is SessionKind.TABLE:
            raise ValueError("a private table needs a private kind")
        engine = self.engine(game)
        try:
            checked = engine.options_model.model_validate(dict(options or {}))
        except ValidationError as err:
            raise Refusal(errors.BAD_OPTIONS, reason=err.errors()[0]["msg"]) from None
        seats = (player, *bots)
        if player.is_bot or not all(seat.is_bot for seat in bots):
            raise ValueError("a private table has one human, in the first seat")
        opts = checked.model_dump(mode="json")
        try:
            state, events = engine.new_game([seat.player_id for seat in seats], seed, opts)
        except IllegalAction as err:
            raise Refusal(str(err)) from None
        now = self.clock()
        draft = Session(
            id=0, guild_id=guild_id, channel_id=channel_id, game=game, status=Status.ACTIVE,
            host_id=player.player_id, seats=seats, options=opts, state=state,
            created_at=now, updated_at=now, kind=kind,
        )
        draft = replace(draft, log=transitions.extend_log(draft, events))
        session = await self._save(self.store.create_session(draft))
        self._register(session)
        awaiting = self.awaiting(session)
        with self.log_bound(session):
            self._publish(Change(ChangeKind.STARTED, session, tuple(events),
                                 actor=player.player_id, origin=origin, awaiting=awaiting))
            log.info("session %s: private %s table (%s) dealt with %d seats", session.id,
                     game, kind.value, len(seats))
        return session

    @in_flight
    async def join(self, session_id: int, seat: Seat, *, origin: Origin = None) -> Session:
        """Seat a player (or a bot seat) in a lobby."""
        change = await self._transition(
            session_id,
            lambda s: transitions.join(s, seat, self.engine(s.game).max_players),
            actor=seat.player_id, origin=origin,
        )
        return change.session

    @in_flight
    async def leave(
        self, session_id: int, player_id: PlayerId, *, origin: Origin = None
    ) -> Session:
        """Leave a lobby, or a running game for good (see
        :func:`bot.sessions.transitions.leave`)."""
        change = await self._transition(
            session_id, lambda s: transitions.leave(s, player_id), actor=player_id, origin=origin
        )
        if change.kind == ChangeKind.SEAT:
            log.info("session %s: %s left the running game", session_id, player_id)
        return change.session

    @in_flight
    async def add_bot(
        self, session_id: int, player_id: PlayerId, level: str, *, origin: Origin = None
    ) -> Session:
        """Seat a bot (``level`` one of BOT_LEVELS) in a lobby (host only)."""
        if level not in BOT_LEVELS:
            raise Refusal(errors.BAD_BOT_LEVEL, levels=", ".join(BOT_LEVELS))
        change = await self._transition(
            session_id,
            lambda s: transitions.add_bot(s, player_id, level, self.engine(s.game).max_players),
            actor=player_id, origin=origin,
        )
        return change.session

    @in_flight
    async def remove_bot(
        self,
        session_id: int,
        player_id: PlayerId,
        bot_id: PlayerId | None = None,
        *,
        origin: Origin = None,
    ) -> Session:
        """Remove a bot seat from a lobby (host only): ``bot_id``, or the last bot seated."""
        change = await self._transition(
            session_id, lambda s: transitions.remove_bot(s, player_id, bot_id),
            actor=player_id, origin=origin,
        )
        return change.session

    @in_flight
    async def remove_player(
        self, session_id: int, player_id: PlayerId, target: PlayerId, *, origin: Origin = None
    ) -> Session:
        """The host removes ``target``'s seat from a lobby (a person or a bot)."""
        change = await self._transition(
            session_id, lambda s: transitions.remove_player(s, player_id, target),
            actor=player_id, origin=origin,
        )
        log.info("session %s: host %s removed %s from the lobby", session_id, player_id, target)
        return change.session

    @in_flight
    async def pass_host(
        self, session_id: int, player_id: PlayerId, target: PlayerId, *, origin: Origin = None
    ) -> Session:
        """The host passes the host role to ``target``, a person seated in the lobby."""
        change = await self._transition(
            session_id, lambda s: transitions.pass_host(s, player_id, target),
            actor=player_id, origin=origin,
        )
        log.info("session %s: host role passed from %s to %s", session_id, player_id, target)
        return change.session

    @in_flight
    async def set_hints(
        self, session_id: int, player_id: PlayerId, on: bool, *, origin: Origin = None
    ) -> Session:
        """The host turns hints on or off in the lobby (a game with hints is never rated)."""
        change = await self._transition(
            session_id, lambda s: transitions.set_hints(s, player_id, on),
            actor=player_id, origin=origin,
        )
        log.info("session %s: hints turned %s by %s", session_id, "on" if on else "off",
                 player_id)
        return change.session

    @in_flight
    async def start(
        self, session_id: int, player_id: PlayerId, *, origin: Origin = None
    ) -> Session:
        """Deal the game (host only, at least the engine's minimum players)."""
        change = await self._transition(
            session_id,
            lambda s: transitions.start(s, player_id, self.engine(s.game), self.seed_for(s.id)),
            actor=player_id, origin=origin,
        )
        new = change.session
        with self.log_bound(new):
            log.info("session %s: %s started with %d seats", new.id, new.game, len(new.seats))
        return new

    @in_flight
    async def cancel(
        self,
        session_id: int,
        player_id: PlayerId,
        *,
        moderator: bool = False,
        origin: Origin = None,
    ) -> Session:
        """End a lobby or a running game without results (host, or ``moderator``)."""
        change = await self._transition(
            session_id, lambda s: transitions.cancel(s, player_id, moderator=moderator),
            actor=player_id, origin=origin,
        )
        log.info("session %s cancelled", session_id)
        return change.session

    @in_flight
    async def abandon_idle(self, session_id: int, version: int, *,
                           origin: Origin = None) -> Session:
        """End private table ``session_id`` left idle at ``version`` (the turn clock) without
        results; refused as stale when it changed since."""
        change = await self._transition(
            session_id, lambda s: transitions.abandon_idle(s, version), actor=None,
            origin=origin,
        )
        return change.session

    @in_flight
    async def set_table_message(self, session_id: int, message_id: int | None) -> Session:
        """Remember the public table message so renderers can edit it later (no version bump,
        nothing published)."""
        async with self._locked(session_id) as session:
            new = replaced(session, table_message_id=message_id, updated_at=self.clock())
            await self._store_then_swap(self.store.save_session(new), new)
        return new

    @in_flight
    async def set_ping_message(self, session_id: int, message_id: int | None) -> Session:
        """Remember the game's live turn ping (None: there is none), so that it is deleted
        when the turn passes, after a restart too (no version bump, nothing published)."""
        async with self._locked(session_id) as session:
            new = replaced(session, ping_message_id=message_id, updated_at=self.clock())
            await self._store_then_swap(self.store.save_session(new), new)
        return new

    # --- moves ------------------------------------------------------------------------------

    @staticmethod
    def check_viewer(session: Session, player_id: PlayerId) -> None:
        """Refused unless ``player_id`` may open a private view of ``session``."""
        transitions.check_viewer(session, player_id)

    def check_turn(self, session: Session, player_id: PlayerId, version: int) -> None:
        """Refused as a move against ``version`` would be (the gate of :meth:`act`, which
        changes nothing): for a read that only the player whose turn it is may make."""
        self._gate(session, player_id, version, autopilot=False)

    @in_flight
    async def act(
        self,
        session_id: int,
        player_id: PlayerId,
        version: int,
        action: BaseModel,
        *,
        autopilot: bool = False,
        origin: Origin = None,
    ) -> Change:
        """Apply one game action (the engine's action model) made against ``version``; returns
        the stored change, which is queued for the listeners (``settle`` waits until they have
        it).

        The one gate of a move (:func:`bot.sessions.transitions.check_move`), under the
        session's lock: no game, not started, not seated (or left), stale version, not your
        turn; then the engine's IllegalAction text. A storage failure raises SaveFailed; in
        every failure case the session stays exactly as it was.

        ``autopilot``: a machine moves for the seat (``bot.automation.autoplay``); refused unless
        the seat is a bot seat or its player is away or left.
        """
        async with self._locked(session_id) as session:
            engine, seats = self._gate(session, player_id, version, autopilot=autopilot)
            step = transitions.play_action(session, engine, player_id, action, seats,
                                           by_machine=autopilot)
            return await self._step(session, step, player_id, origin)

    async def click(
        self,
        session_id: int,
        player_id: PlayerId,
        version: int,
        decode: Decode[Other],
        *,
        origin: Origin = None,
    ) -> Change | Other:
        """A player's click on a game control made against ``version``: under the session's
        lock, the gate of :meth:`act` (once), then ``decode(session)`` turns the click into
        one of the player's legal actions (the game's UI asks the engine about that one
        action), applied and stored as by :meth:`act` (the change is returned), or into
        anything else (a next step to show), returned as it is with nothing changed. A refusal that
        ``decode`` raises changes nothing either. ``decode`` runs under the lock: it must
        not block. Once :meth:`drain` began, a next step is still shown; a move is refused.
        """
        with self._counted():
            async with self._locked(session_id) as session:
                engine, seats = self._gate(session, player_id, version, autopilot=False)
                chosen = decode(session)
                if not isinstance(chosen, BaseModel):
                    return chosen
                if self._closing:
                    raise Refusal(errors.SHUTTING_DOWN)
                step = transitions.play_action(session, engine, player_id, chosen, seats)
                return await self._step(session, step, player_id, origin)

    def _gate(
        self, session: Session, player_id: PlayerId, version: int, *, autopilot: bool
    ) -> tuple[Engine[Any, Any], tuple[Seat, ...]]:
        """The engine of ``session`` and the seats to store with the move, or the gate's
        refusal (:func:`bot.sessions.transitions.check_move`)."""
        engine = self.engine(session.game)
        seats = transitions.check_move(session, player_id, version, self.awaiting(session),
                                       autopilot=autopilot)
        return engine, seats

    # --- the turn clock ---------------------------------------------------------------------

    @in_flight
    async def time_out(
        self,
        session_id: int,
        player_id: PlayerId,
        version: int,
        *,
        now: datetime | None = None,
        origin: Origin = None,
    ) -> list[Change]:
        """The player's deadline (stored with ``version``) passed: play the engine's default
        moves for them until the game no longer waits for them, each stored and published like
        any action. Counts a timeout; the second in a row makes the seat away. Returns the
        stored changes (queued for the listeners in order, like ``act``'s).

        A second call for the same deadline is refused as stale: the first moved the version.
        """
        changes: list[Change] = []
        async with self._locked(session_id) as session:
            seat = transitions.check_timeout(session, player_id, version, now or self.clock())
            engine = self.engine(session.game)
            seats = transitions.count_timeout(session.seats, seat)
            current = session
            for _ in range(MAX_DEFAULT_MOVES):
                if current.status is not Status.ACTIVE:
                    break
                if player_id not in self.awaiting(current):
                    break
                try:
                    action = engine.default_action(current.state, player_id)
                except IllegalAction:
                    log.exception("session %s: no default move for %s", current.id, player_id)
                    break
                # Each stored move is queued at once: a later failure leaves them published.
                step = transitions.play_action(current, engine, player_id, action, seats,
                                               by_machine=True)
                changes.append(await self._step(current, step, player_id, origin))
                current = changes[-1].session
                seats = current.seats
            if not changes:  # nothing to play, but the timeout still counts
                step = Step(ChangeKind.SEAT, {"seats": seats})
                changes.append(await self._step(session, step, player_id, origin))
        with self.log_bound(session):
            log.info("session %s: %s timed out (%d in a row)", session_id, player_id,
                     seat.timeouts + 1)
        return changes

    @in_flight
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
            await self._store_then_swap(self.store.save_session(new), new)
        return new

    @in_flight
    async def set_away(
        self, session_id: int, player_id: PlayerId, away: bool, *, origin: Origin = None
    ) -> Session:
        """Mark a player of a running game away (a bot plays for them) or back ("I'm back")."""
        change = await self._transition(
            session_id, lambda s: transitions.set_away(s, player_id, away),
            actor=player_id, origin=origin,
        )
        log.info("session %s: %s is %s", session_id, player_id, "away" if away else "back")
        return change.session

    # --- the transition helper and its steps ----------------------------------------------

    async def _transition(
        self,
        session_id: int,
        transition: Callable[[Session], Step],
        *,
        actor: PlayerId | None,
        origin: Origin,
    ) -> Change:
        """The one path of a change: lock the session, compute the pure ``transition`` of its
        live version (a refusal raises and changes nothing), then :meth:`_step`."""
        async with self._locked(session_id) as session:
            return await self._step(session, transition(session), actor, origin)

    async def _step(
        self, session: Session, step: Step, actor: PlayerId | None, origin: Origin
    ) -> Change:
        """Store ``step`` as the next version of ``session`` (an action row with its snapshot
        for a game action, else the session row), swap it in and publish it. Under the
        session lock."""
        new, awaiting = self._next(session, actor=step.mover, **step.fields)
        if step.action is None:
            write: Awaitable[object] = self.store.save_session(new)
        else:
            finished = new.status is Status.FINISHED
            results = result_rows(new, self.engine(new.game)) if finished else []
            assert actor is not None  # a game action always has its player
            write = self.store.record_action(
                new, actor, step.action.model_dump(mode="json"), results
            )
            log.debug("session %s: action by %s -> version %s", new.id, actor, new.version)
            if finished:
                log.info("session %s: %s finished: %s", new.id, new.game,
                         ", ".join(f"{r.user_id} #{r.placement} ({r.score})" for r in results))
        await self._store_then_swap(write, new)
        if step.action is not None:
            add(METRICS.child(METRICS.actions_stored, game=new.game))
            if new.status is Status.FINISHED:
                add(METRICS.child(METRICS.games_finished, game=new.game))
        if awaiting:
            self._awaiting[new.id] = (new.state, awaiting)
        change = Change(step.kind, new, step.events, actor, origin, awaiting)
        self._publish(change)
        return change

    def _next(
        self, session: Session, *, actor: PlayerId | None = None, **changes: Any
    ) -> tuple[Session, tuple[PlayerId, ...]]:
        """The next version of ``session``, with its turn deadlines planned for the new state,
        and whom its game awaits (asked here, once per stored change)."""
        now = self.clock()
        new = replaced(session, version=session.version + 1, updated_at=now, **changes)
        engine = self.engines.get(new.game)
        if new.status is not Status.ACTIVE or new.state is None or engine is None:
            return (replaced(new, deadlines=()) if new.deadlines else new), ()
        awaiting = tuple(engine.awaiting(new.state))
        deadlines = plan(
            session.deadlines, awaiting, new.seats,
            actor=actor, now=now, minutes=new.turn_minutes,
        )
        return replaced(new, deadlines=deadlines), awaiting

    def _register(self, session: Session) -> None:
        self._sessions[session.id] = session
        for waiter in self._overtaking.pop(session.id, ()):
            if not waiter.done():
                waiter.set_result(None)
        if not session.is_private:  # a private table takes no channel
            self._by_channel[session.channel_id] = session.id
        if session.id not in self._locks:  # not a new Lock made per change to be dropped
            self._locks[session.id] = asyncio.Lock()

    def _swap(self, session: Session) -> None:
        if session.is_live:
            self._register(session)
            return
        self._sessions.pop(session.id, None)
        self._awaiting.pop(session.id, None)
        if self._by_channel.get(session.channel_id) == session.id:
            del self._by_channel[session.channel_id]
        self._locks.pop(session.id, None)

    async def _store_then_swap(self, write: Awaitable[object], new: Session) -> None:
        """Store ``new``, then make it the live version. A caller cancelled meanwhile does not
        stop it halfway (a stored row without the swap would make every later write collide
        with it): the step finishes, still under the session lock, before the cancellation
        goes on."""

        async def step() -> None:
            try:
                await self._save(write)
            except StaleWrite:
                await self._reload(new.id)
                raise
            self._swap(new)

        task = asyncio.get_running_loop().create_task(step())
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            await asyncio.wait([task])
            if not task.cancelled():
                task.exception()  # retrieved: the caller sees its cancellation instead
            raise

    async def _reload(self, session_id: int) -> None:
        """After a refused write (another process moved this session on), make the stored
        version the live one, so the next click is made against it."""
        stored = await self.store.load_session(session_id)
        if stored is None:
            return
        engine = self.engines.get(stored.game)
        if engine is not None and isinstance(stored.state, dict):
            stored = replace(stored, state=engine.state_model.model_validate(stored.state))
        self._swap(stored)

    async def _save(self, write: Awaitable[Result]) -> Result:
        try:
            with METRICS.timed(METRICS.store_write):
                return await write
        except StaleWrite:
            log.warning("a session write was refused as stale: reloading the stored version")
            raise
        except Exception:  # any storage failure: nothing swapped in, the player reads SaveFailed
            log.exception("storing a session change failed")
            raise SaveFailed(errors.SAVE_FAILED) from None

    def _locked(self, session_id: int) -> _SessionLock:
        return _SessionLock(self, session_id)

    def _publish(self, change: Change) -> None:
        """Queue ``change`` for the listeners; called under the session lock (or right after
        the store wrote it, for a new lobby), so a session's queue is in version order."""
        session_id = change.session.id
        queue = self._outbox.setdefault(session_id, deque())
        queue.append(change)
        if session_id not in self._publishers:
            self._publishers[session_id] = asyncio.create_task(
                self._deliver(session_id, queue), name=f"publish-{session_id}"
            )

    async def _deliver(self, session_id: int, queue: deque[Change]) -> None:
        """The session's publish worker: one change at a time, until its queue is empty."""
        try:
            while queue:
                await self._notify(queue.popleft())
        finally:
            # No await between the empty check and here: nothing can be queued unseen.
            del self._outbox[session_id]
            del self._publishers[session_id]

    async def _notify(self, change: Change) -> None:
        for listener in list(self._listeners):
            try:
                await listener(change)
            except Exception:  # a listener's failure is logged and never undoes the change
                log.exception("listener %r failed on %s of session %s",
                              listener, change.kind, change.session.id)


class _InFlight:
    """:meth:`SessionManager._counted`'s block (one object per manager, entered by every
    click and change: a class, not a generator, issue 42)."""

    __slots__ = ("_manager",)

    def __init__(self, manager: SessionManager) -> None:
        self._manager = manager

    def __enter__(self) -> None:
        manager = self._manager
        manager._in_flight += 1
        manager._idle.clear()

    def __exit__(self, *exc: object) -> None:
        manager = self._manager
        manager._in_flight -= 1
        if manager._in_flight == 0:
            manager._idle.set()


class _SessionLock:
    """``async with``: hold the session's lock and yield its current live version."""

    def __init__(self, manager: SessionManager, session_id: int) -> None:
        self._manager = manager
        self._session_id = session_id
        self._lock: asyncio.Lock | None = None
        self._bound: contextlib.AbstractContextManager[None] | None = None

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
        # What is logged in the block (and by the publish worker it starts) names the session.
        bound = self._manager.log_bound(session)
        bound.__enter__()
        self._bound = bound
        return session

    async def __aexit__(self, *exc: object) -> None:
        bound, self._bound = self._bound, None
        if bound is not None:
            bound.__exit__(None, None, None)
        if self._lock is not None:
            self._lock.release()
            self._lock = None
