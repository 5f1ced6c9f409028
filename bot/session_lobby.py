"""Lobby and seat operations: open, join, leave, bot seats, start, cancel, the table message."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from bot import errors
from bot.deadlines import MAX_TURN_MINUTES
from bot.errors import Refusal
from bot.models import Seat, Session, Status
from bot.seats import bot_seat, next_host, with_seat
from bot.session_core import Change, ChangeKind, ManagerCore, in_flight
from game.base import IllegalAction, PlayerId

log = logging.getLogger(__name__)

BOT_LEVELS = ("easy", "normal")


class LobbyOps(ManagerCore):
    @in_flight
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
            self._publish(Change("lobby", session, actor=host.player_id, origin=origin))
        log.info("session %s: %s lobby opened in channel %s", session.id, game, channel_id)
        return session

    @in_flight
    async def join(self, session_id: int, seat: Seat, *, origin: object = None) -> Session:
        """Seat a player (or a bot seat) in a lobby."""
        async with self._locked(session_id) as session:
            if session.status is not Status.LOBBY:
                raise Refusal(errors.ALREADY_STARTED)
            if session.seat_of(seat.player_id) is not None:
                raise Refusal(errors.ALREADY_SEATED)
            self._check_room(session)
            new = self._next(session, seats=(*session.seats, seat))
            await self._commit(new)
            self._publish(Change("lobby", new, actor=seat.player_id, origin=origin))
        return new

    @in_flight
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
                    seats=with_seat(session.seats, me.model_copy(update={"left": True})),
                    host_id=next_host(session, player_id),
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
            await self._commit(new)
            kind: ChangeKind
            if new.status is Status.ACTIVE:
                kind = "seat"
            else:
                kind = "lobby" if new.is_live else "abandoned"
            self._publish(Change(kind, new, actor=player_id, origin=origin))
        if kind == "seat":
            log.info("session %s: %s left the running game", new.id, player_id)
        return new

    @in_flight
    async def add_bot(
        self, session_id: int, player_id: PlayerId, level: str, *, origin: object = None
    ) -> Session:
        """Seat a bot (``level`` "easy" or "normal") in a lobby (host only)."""
        if level not in BOT_LEVELS:
            raise Refusal(errors.bad_bot_level(BOT_LEVELS))
        async with self._locked(session_id) as session:
            self._check_host_in_lobby(session, player_id)
            self._check_room(session)
            new = self._next(session, seats=(*session.seats, bot_seat(session.seats, level)))
            await self._commit(new)
            self._publish(Change("lobby", new, actor=player_id, origin=origin))
        return new

    @in_flight
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
            await self._commit(new)
            self._publish(Change("lobby", new, actor=player_id, origin=origin))
        return new

    @in_flight
    async def start(
        self, session_id: int, player_id: PlayerId, *, origin: object = None
    ) -> Session:
        """Deal the game (host only, at least the engine's minimum players)."""
        async with self._locked(session_id) as session:
            self._check_host_in_lobby(session, player_id)
            engine = self.engine(session.game)
            if len(session.seats) < engine.min_players:
                raise Refusal(
                    errors.too_few_players(engine.title, engine.min_players, len(session.seats))
                )
            seats = session.seats
            if len(seats) == 1:
                # A game that opens to one player is played solo against the engine's normal
                # bot (TEN, spec section 6); a bot in the game means it is never rated.
                seats = (*seats, bot_seat(seats, "normal"))
            try:
                state, _ = engine.new_game(
                    [seat.player_id for seat in seats], self.seed_for(session.id), session.options
                )
            except IllegalAction as err:
                raise Refusal(str(err)) from None
            new = self._next(session, status=Status.ACTIVE, state=state, seats=seats)
            await self._commit(new)
            self._publish(Change("started", new, actor=player_id, origin=origin))
        log.info("session %s: %s started with %d seats", new.id, new.game, len(new.seats))
        return new

    @in_flight
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
            await self._commit(new)
            self._publish(Change("abandoned", new, actor=player_id, origin=origin))
        log.info("session %s cancelled", new.id)
        return new

    @in_flight
    async def set_table_message(self, session_id: int, message_id: int | None) -> Session:
        """Remember the public table message so renderers can edit it later (no version bump)."""
        async with self._locked(session_id) as session:
            new = replace(session, table_message_id=message_id, updated_at=self.clock())
            await self._commit(new)
        return new

    @staticmethod
    def _check_host_in_lobby(session: Session, player_id: PlayerId) -> None:
        if session.status is not Status.LOBBY:
            raise Refusal(errors.ALREADY_STARTED)
        if player_id != session.host_id:
            raise Refusal(errors.NOT_HOST)

    def _check_room(self, session: Session) -> None:
        engine = self.engine(session.game)
        if len(session.seats) >= engine.max_players:
            raise Refusal(errors.lobby_full(engine.max_players))
