"""The JSON file a game is exported as, and its replay.

The process writes it (``bot.sessions.export``) and anyone replays it through the engine
(``python -m game.split replay FILE``), so the format lives here, below both, with no
knowledge of the store. ``format_version`` changes whenever a reader of an older version
could misread a newer file.

It holds a game that is over or was abandoned: the seed and the log reveal every card, so a
running game is never exported.
"""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from game.base import Engine, PlayerId, PlayerResult
from game.replay import DEFAULT_CHECKPOINT_EVERY, LoggedAction, Replay, StepMarkerFn, no_marker

FORMAT_VERSION: Final = 1


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ExportSeat(_Part):
    """A seat as the session stored it (in play order). ``left``: the player left the
    running game and a bot played the seat; such a seat is placed last."""

    player_id: PlayerId
    display_name: str
    is_bot: bool = False
    bot_level: str | None = None
    left: bool = False
    # versions whose move the turn clock or a bot made for this person
    machine_moves: list[int] = Field(default_factory=list)


class ExportAction(_Part):
    """One logged action: the session version it produced, who made it, its JSON form."""

    version: int
    player: PlayerId
    action: dict[str, Any] | str
    at: datetime | None = None


class ExportResult(_Part):
    """One stored final standing (leavers already placed last)."""

    player: PlayerId
    placement: int
    score: int


class GameExport(_Part):
    format_version: Literal[1] = FORMAT_VERSION
    game: str
    status: Literal["finished", "abandoned"]
    session_id: int
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    seats: list[ExportSeat] = Field(min_length=1)
    actions: list[ExportAction] = Field(default_factory=list)
    results: list[ExportResult] = Field(default_factory=list)  # empty unless finished
    created_at: datetime | None = None  # the table was opened
    ended_at: datetime | None = None  # its last change: the end, or when it was abandoned

    @model_validator(mode="after")
    def _consistent(self) -> GameExport:
        ids = [seat.player_id for seat in self.seats]
        if len(set(ids)) != len(ids):
            raise ValueError("a player holds two seats")
        versions = [action.version for action in self.actions]
        if any(later <= earlier for earlier, later in pairwise(versions)):
            raise ValueError("action versions do not increase")
        ranked = [result.player for result in self.results]
        if len(set(ranked)) != len(ranked):
            raise ValueError("a player has two results")
        return self

    @property
    def players(self) -> list[PlayerId]:
        return [seat.player_id for seat in self.seats]

    @property
    def names(self) -> dict[PlayerId, str]:
        return {seat.player_id: seat.display_name for seat in self.seats}

    @property
    def leavers(self) -> set[PlayerId]:
        return {seat.player_id for seat in self.seats if seat.left}

    def standings(self) -> list[PlayerResult]:
        """The stored results as standings, best placement first."""
        return [
            PlayerResult(player=r.player, placement=r.placement, score=r.score)
            for r in sorted(self.results, key=lambda r: r.placement)
        ]


class ExportFormatError(ValueError):
    """The text is not a game export this version reads; ``str(err)`` is one line."""


def parse_export(text: str | bytes) -> GameExport:
    """A game export from its JSON text; ExportFormatError (one line) when malformed."""
    try:
        return GameExport.model_validate_json(text)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "file"
        more = f" (and {err.error_count() - 1} more)" if err.error_count() > 1 else ""
        raise ExportFormatError(f"not a game export: {where}: {first['msg']}{more}") from None


def dump_export(export: GameExport) -> str:
    """The export's JSON text (indented, so it reads and diffs well)."""
    return export.model_dump_json(indent=1)


def replay_export(
    export: GameExport,
    engine: Engine[Any, Any],
    *,
    marker: StepMarkerFn = no_marker,
    checkpoint_every: int = DEFAULT_CHECKPOINT_EVERY,
) -> Replay:
    """Replay an export through ``engine``, marking its steps with ``marker``
    (``game.registry.replay_export`` finds both by the export's game). Raises ReplayRefused
    when the log does not replay."""
    return Replay(
        engine,
        export.players,
        export.seed,
        export.options,
        [LoggedAction(a.player, a.action, a.version) for a in export.actions],
        names=export.names,
        marker=marker,
        checkpoint_every=checkpoint_every,
    )
