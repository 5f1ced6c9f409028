"""A stored game as an export (``/game export``), and the refusals for games that cannot be.

The export's format is :class:`game.export_format.GameExport` (the engines' command line reads
it too). A game is exported once it is over or abandoned, up to where it stopped; a running
game is refused, since its seed and log would reveal every hidden card.

The Replay button builds on the same export: ``replay_export(await export_session(...))``
replays the log through the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from bot.records.errors import Refusal
from bot.records.session import ActionRow, ResultRow, Session, Status, engine_options
from bot.store import Store
from game.export_format import (
    FORMAT_VERSION,
    ExportAction,
    ExportResult,
    ExportSeat,
    GameExport,
    dump_export,
    parse_export,
)
from game.registry import replay_export

__all__ = [
    "FORMAT_VERSION",
    "ExportRefused",
    "GameExport",
    "build_export",
    "check_exportable",
    "dump_export",
    "export_file",
    "export_session",
    "parse_export",
    "replay_export",
]

NO_SUCH_GAME = "There is no such game."
STILL_IN_LOBBY = "That game has not started yet, so there is nothing to replay."
NEVER_STARTED = "That game was cancelled before it started, so there is nothing to replay."
STILL_RUNNING = (
    "That game is still running; it can be replayed or exported once it is over "
    "(it would reveal hidden cards)."
)


class ExportRefused(Refusal):
    """The game cannot be exported or replayed (yet); ``message`` says why."""


def check_exportable(session: Session) -> None:
    """Refuse (ExportRefused) a session that is not an over or abandoned game."""
    if session.status is Status.ACTIVE:
        raise ExportRefused(STILL_RUNNING)
    if session.status is Status.LOBBY:
        raise ExportRefused(STILL_IN_LOBBY)
    if session.state is None:
        raise ExportRefused(NEVER_STARTED)


def _state_field(state: Any, name: str) -> Any:
    """A field of a state held as its model (a live session) or as its JSON (from the store)."""
    return getattr(state, name) if isinstance(state, BaseModel) else state[name]


def build_export(
    session: Session, actions: Sequence[ActionRow], results: Sequence[ResultRow]
) -> GameExport:
    """The export of ``session`` from its action log and its results rows (other sessions'
    rows are left out). Refuses (ExportRefused) a game that is not over or abandoned."""
    check_exportable(session)
    players: list[str] = list(_state_field(session.state, "players"))
    seats = {seat.player_id: seat for seat in session.seats}
    if sorted(seats) != sorted(players):
        raise ValueError(f"session {session.id}: its seats are not its game's players")
    return GameExport(
        format_version=FORMAT_VERSION,
        game=session.game,
        status="finished" if session.status is Status.FINISHED else "abandoned",
        session_id=session.id,
        options=engine_options(session.options),
        seed=int(_state_field(session.state, "seed")),
        seats=[
            ExportSeat(
                player_id=seat.player_id,
                display_name=seat.display_name,
                is_bot=seat.is_bot,
                bot_level=seat.bot_level,
                left=seat.left,
                machine_moves=list(seat.machine_moves),
            )
            for seat in (seats[player] for player in players)
        ],
        actions=[
            ExportAction(version=row.seq, player=row.user_id, action=row.action,
                         at=row.created_at)
            for row in actions
            if row.session_id == session.id
        ],
        results=[
            ExportResult(player=row.user_id, placement=row.placement, score=row.score)
            for row in results
            if row.session_id == session.id
        ],
        created_at=session.created_at,
        ended_at=session.updated_at,
    )


def export_file(export: GameExport) -> tuple[str, bytes]:
    """The attachment: a file name and the JSON bytes."""
    return f"{export.game}-game-{export.session_id}.json", dump_export(export).encode()


async def export_session(store: Store, session_id: int) -> GameExport:
    """The export of stored session ``session_id``; ExportRefused when there is no such
    session or it is not an over or abandoned game."""
    session = await store.load_session(session_id)
    if session is None:
        raise ExportRefused(NO_SUCH_GAME)
    check_exportable(session)
    results = (
        await store.results(session.guild_id, session.game)
        if session.status is Status.FINISHED
        else []
    )
    return build_export(session, await store.actions(session_id), results)
