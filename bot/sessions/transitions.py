"""The pure session transitions: what each operation changes in a session, with no I/O.

Every function here takes the live :class:`bot.records.session.Session` (and what else it needs) and
either raises :class:`bot.records.errors.Refusal` (nothing changes) or returns a :class:`Step`: the
session fields that change, the kind of change to publish and, for a game action, the action
and its events. ``bot.sessions.manager.SessionManager`` applies a step with its one transition
helper (lock -> transition -> store -> swap -> publish); nothing here knows about locks, the store
or listeners, so each rule of the table is in one place and testable without them.

Groups: the gate of a move (:func:`check_move`, :func:`check_timeout`), lobby and seats
(:func:`join`, :func:`leave`, :func:`add_bot`, :func:`remove_bot`, :func:`start`,
:func:`cancel`), away (:func:`set_away`, :func:`count_timeout`), the move itself
(:func:`play_action`), the results rows (:func:`result_rows`) and the public table log
(:func:`extend_log`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from bot.records import errors
from bot.records.change import ChangeKind
from bot.records.errors import NotYourTurn, Refusal, StaleVersion
from bot.records.session import (
    HINTS,
    LOG_KEEP,
    ResultRow,
    Seat,
    Session,
    Status,
    engine_options,
    public_event,
)
from game.base import Engine, Event, IllegalAction, PlayerId, play
from game.standings import leavers_last

BOT_LEVELS = ("easy", "normal", "expert")
AWAY_AFTER = 2  # timeouts in a row before a bot plays the seat until "I'm back"


@dataclass(frozen=True)
class Step:
    """One transition's outcome.

    ``fields``: the session fields that change (the version and the deadlines are the
    manager's). ``action``: the game action to store as an action row with the snapshot (None:
    a session row change only). ``mover``: whose own move restarts their turn clock.
    """

    kind: ChangeKind
    fields: Mapping[str, Any] = field(default_factory=dict)
    events: tuple[Event, ...] = ()
    action: BaseModel | None = None
    mover: PlayerId | None = None


# --- seats ----------------------------------------------------------------------------------


def with_seat(seats: tuple[Seat, ...], changed: Seat) -> tuple[Seat, ...]:
    """``seats`` with the seat of ``changed.player_id`` replaced by ``changed``."""
    return tuple(changed if seat.player_id == changed.player_id else seat for seat in seats)


def next_host(session: Session, leaving: PlayerId) -> PlayerId:
    """Who hosts once ``leaving`` left a running game: the host, else the next human playing."""
    if session.host_id != leaving:
        return session.host_id
    playing = [s for s in session.seats if not s.is_bot and not s.left and s.player_id != leaving]
    return playing[0].player_id if playing else session.host_id


def bot_seat(seats: tuple[Seat, ...], level: str) -> Seat:
    """A new bot seat ``bot:N`` (the smallest N not taken), named "Bot N"."""
    taken = {seat.player_id for seat in seats}
    number = next(n for n in range(1, len(seats) + 2) if f"bot:{n}" not in taken)
    return Seat(player_id=f"bot:{number}", display_name=f"Bot {number}", is_bot=True,
                bot_level=level)


# --- lobby ----------------------------------------------------------------------------------


def _check_host_in_lobby(session: Session, player_id: PlayerId, after_start: str) -> None:
    """``after_start``: the refusal, naming what was asked, once the game has started."""
    if session.status is not Status.LOBBY:
        raise Refusal(after_start)
    if player_id != session.host_id:
        raise Refusal(errors.NOT_HOST)


def _check_room(session: Session, max_players: int) -> None:
    if len(session.seats) >= max_players:
        raise Refusal(errors.LOBBY_FULL, max_players=max_players)


def join(session: Session, seat: Seat, max_players: int) -> Step:
    """Seat a player (or a bot seat) in a lobby."""
    if session.status is not Status.LOBBY:
        raise Refusal(errors.ALREADY_STARTED)
    if session.seat_of(seat.player_id) is not None:
        raise Refusal(errors.ALREADY_SEATED)
    _check_room(session, max_players)
    return Step(ChangeKind.LOBBY, {"seats": (*session.seats, seat)})


def leave(session: Session, player_id: PlayerId) -> Step:
    """Leave a lobby, or a running game for good (a bot plays the seat from then on).

    The host's role passes to the next human still playing; an empty lobby is abandoned.
    A running game goes on even when every human left: the bots finish it.
    """
    me = session.seat_of(player_id)
    if me is None or me.left:
        raise Refusal(errors.NOT_SEATED)
    if session.status is not Status.LOBBY:
        return Step(ChangeKind.SEAT, {
            "seats": with_seat(session.seats, me.model_copy(update={"left": True})),
            "host_id": next_host(session, player_id),
        })
    seats = tuple(seat for seat in session.seats if seat.player_id != player_id)
    humans = [seat for seat in seats if not seat.is_bot]
    if not humans:
        return Step(ChangeKind.ABANDONED, {"seats": seats, "status": Status.ABANDONED})
    host = session.host_id if session.host_id != player_id else humans[0].player_id
    return Step(ChangeKind.LOBBY, {"seats": seats, "host_id": host})


def add_bot(session: Session, player_id: PlayerId, level: str, max_players: int) -> Step:
    """Seat a bot (``level`` one of BOT_LEVELS) in a lobby (host only)."""
    if level not in BOT_LEVELS:
        raise Refusal(errors.BAD_BOT_LEVEL, levels=", ".join(BOT_LEVELS))
    _check_host_in_lobby(session, player_id, errors.SEATS_AFTER_START)
    _check_room(session, max_players)
    return Step(ChangeKind.LOBBY, {"seats": (*session.seats, bot_seat(session.seats, level))})


def remove_bot(session: Session, player_id: PlayerId, bot_id: PlayerId | None) -> Step:
    """Remove a bot seat from a lobby (host only): ``bot_id``, or the last bot seated."""
    _check_host_in_lobby(session, player_id, errors.SEATS_AFTER_START)
    bots = [seat for seat in session.seats if seat.is_bot]
    if bot_id is not None:
        bots = [seat for seat in bots if seat.player_id == bot_id]
    if not bots:
        raise Refusal(errors.NO_BOT)
    gone = bots[-1].player_id
    return Step(ChangeKind.LOBBY,
                {"seats": tuple(s for s in session.seats if s.player_id != gone)})


def _other_seat(session: Session, player_id: PlayerId, target: PlayerId,
                after_start: str = errors.SEATS_AFTER_START) -> Seat:
    """The seat of ``target`` that the host acts on (host only, in a lobby, not their own)."""
    _check_host_in_lobby(session, player_id, after_start)
    if target == player_id:
        raise Refusal(errors.NOT_YOURSELF)
    seat = session.seat_of(target)
    if seat is None:
        raise Refusal(errors.NOT_SEATED_NOW)
    return seat


def remove_player(session: Session, player_id: PlayerId, target: PlayerId) -> Step:
    """The host takes ``target``'s seat away in a lobby (a person or a bot)."""
    gone = _other_seat(session, player_id, target).player_id
    return Step(ChangeKind.LOBBY,
                {"seats": tuple(s for s in session.seats if s.player_id != gone)})


def pass_host(session: Session, player_id: PlayerId, target: PlayerId) -> Step:
    """The host hands the host role to ``target``, a person seated in the lobby."""
    if _other_seat(session, player_id, target, errors.HOST_AFTER_START).is_bot:
        raise Refusal(errors.HOST_TO_BOT)
    return Step(ChangeKind.LOBBY, {"host_id": target})


def start(session: Session, player_id: PlayerId, engine: Engine[Any, Any], seed: int) -> Step:
    """Deal the game (host only, at least the engine's minimum players)."""
    _check_host_in_lobby(session, player_id, errors.START_AFTER_START)
    if len(session.seats) < engine.min_players:
        raise Refusal(
            errors.TOO_FEW_PLAYERS, title=engine.title, min_players=engine.min_players,
            seated=len(session.seats),
        )
    seats = session.seats
    if len(seats) == 1:
        # A game that opens to one player is played solo against the engine's normal bot
        # (TEN, spec section 6); a bot in the game means it is never rated.
        seats = (*seats, bot_seat(seats, "normal"))
    try:
        state, events = engine.new_game([seat.player_id for seat in seats], seed,
                                        engine_options(session.options))
    except IllegalAction as err:
        raise Refusal(str(err)) from None
    seated = replace(session, seats=seats)
    return Step(
        ChangeKind.STARTED,
        {"status": Status.ACTIVE, "state": state, "seats": seats,
         "log": extend_log(seated, events)},
        events=tuple(events),
    )


def set_hints(session: Session, player_id: PlayerId, on: bool) -> Step:
    """The host turns hints on or off in the lobby (a game with hints is never rated)."""
    _check_host_in_lobby(session, player_id, errors.HINTS_AFTER_START)
    options = {key: value for key, value in session.options.items() if key != HINTS}
    if on:
        options[HINTS] = True
    return Step(ChangeKind.LOBBY, {"options": options})


def cancel(session: Session, player_id: PlayerId, *, moderator: bool) -> Step:
    """End a lobby or a running game without results (host, or ``moderator``)."""
    if player_id != session.host_id and not moderator:
        raise Refusal(errors.NOT_HOST_OR_MOD)
    return Step(ChangeKind.ABANDONED, {"status": Status.ABANDONED})


def abandon_idle(session: Session, version: int) -> Step:
    """End a private table left idle at ``version`` (the turn clock); stale once it moved."""
    if session.version != version:
        raise StaleVersion()
    return Step(ChangeKind.ABANDONED, {"status": Status.ABANDONED})


# --- away and the turn clock ----------------------------------------------------------------


def set_away(session: Session, player_id: PlayerId, away: bool) -> Step:
    """Mark a player of a running game away (a bot plays for them) or back ("I'm back")."""
    if session.status is not Status.ACTIVE:
        raise Refusal(errors.NOT_STARTED)
    seat = session.seat_of(player_id)
    if seat is None or seat.is_bot:
        raise Refusal(errors.NOT_SEATED)
    if seat.left:
        raise Refusal(errors.LEFT_GAME)
    if seat.away == away:
        raise Refusal(errors.ALREADY_AWAY if away else errors.NOT_AWAY)
    seats = with_seat(session.seats, seat.model_copy(update={"away": away, "timeouts": 0}))
    return Step(ChangeKind.SEAT, {"seats": seats}, mover=None if away else player_id)


def check_timeout(session: Session, player_id: PlayerId, version: int, now: datetime) -> Seat:
    """The seat whose deadline (stored with ``version``) ran out by ``now``; refused when it
    did not (a second firing for the same deadline is stale: the first moved the version)."""
    if session.status is not Status.ACTIVE:
        raise Refusal(errors.NOT_STARTED)
    if version != session.version:
        raise StaleVersion()
    deadline = session.deadline_of(player_id)
    seat = session.seat_of(player_id)
    if deadline is None or seat is None or deadline.due_at > now:
        raise Refusal(errors.NOT_TIMED_OUT)
    return seat


def count_timeout(seats: tuple[Seat, ...], seat: Seat) -> tuple[Seat, ...]:
    """``seats`` after ``seat`` timed out once more; the second in a row makes it away."""
    timeouts = seat.timeouts + 1
    return with_seat(
        seats, seat.model_copy(update={"timeouts": timeouts, "away": timeouts >= AWAY_AFTER})
    )


# --- moves ----------------------------------------------------------------------------------


def check_move(
    session: Session,
    player_id: PlayerId,
    version: int,
    awaiting: Collection[PlayerId],
    *,
    autopilot: bool,
) -> tuple[Seat, ...]:
    """The one gate of a move: the seats to store with it, or a refusal. ``awaiting``: whom
    the game of ``session`` awaits (the engine's answer for its state).

    Refusals, in order: not started, not seated, (autopilot: the player came back, stale),
    left the game, stale version, not your turn. A player who moves themselves is back: their
    away flag and timeout count are cleared.
    """
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
    if player_id not in awaiting:
        raise NotYourTurn()
    if not autopilot and (seat.away or seat.timeouts):
        return with_seat(session.seats, seat.model_copy(update={"away": False, "timeouts": 0}))
    return session.seats


def check_viewer(session: Session, player_id: PlayerId) -> None:
    """Who may open a private view: a seated player of a started game."""
    if session.seat_of(player_id) is None:
        raise Refusal(errors.NOT_SEATED)
    if session.status is Status.LOBBY:
        raise Refusal(errors.NOT_STARTED)


def play_action(
    session: Session,
    engine: Engine[Any, Any],
    player_id: PlayerId,
    action: BaseModel,
    seats: tuple[Seat, ...],
    *,
    by_machine: bool = False,
) -> Step:
    """Apply one checked action on a copy of the state; the engine's IllegalAction becomes a
    refusal in its own words. ``by_machine``: the turn clock or a bot moves for the seat; a
    person's seat keeps the move's version in ``machine_moves``."""
    try:
        state, events = play(engine, session.state, player_id, action)
    except IllegalAction as err:
        raise Refusal(str(err)) from None
    if by_machine:
        seats = tuple(
            seat.model_copy(update={"machine_moves": (*seat.machine_moves, session.version + 1)})
            if seat.player_id == player_id and not seat.is_bot else seat
            for seat in seats
        )
    finished = engine.is_over(state)
    return Step(
        ChangeKind.FINISHED if finished else ChangeKind.ACTION,
        {
            "state": state,
            "status": Status.FINISHED if finished else Status.ACTIVE,
            "log": extend_log(session, events),
            "seats": seats,
        },
        events=tuple(events),
        action=action,
        mover=player_id,
    )


# --- results --------------------------------------------------------------------------------


def result_rows(session: Session, engine: Engine[Any, Any]) -> list[ResultRow]:
    """The rows of a finished ``session``, one per seat, leavers placed last. Rated only with
    two seats or more, no bot seat and no hints; ``finished_at`` is the session's last
    change. A private table (``Session.is_private``) has none: it is never rated nor counted
    on the boards."""
    if session.is_private:
        return []
    bots = session.has_bots
    rated = not bots and len(session.seats) >= 2 and not session.hints
    results = engine.results(session.state)
    places = leavers_last(results, {seat.player_id for seat in session.seats if seat.left})
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
                finished_at=session.updated_at,
            )
        )
    return rows


# --- the public table log -------------------------------------------------------------------


def extend_log(session: Session, events: Sequence[Event]) -> tuple[Event, ...]:
    """The session's public log with the new events (the last LOG_KEEP).

    Each event is kept without its private part (:func:`bot.records.session.public_event`), so
    neither the store nor a line worded from the log can name a hidden card.
    """
    return (*session.log, *(public_event(event) for event in events))[-LOG_KEEP:]
