"""A finished (or stopped) game replayed through its engine, step by step.

From the game's seat order, seed, options and action log, :class:`Replay` rebuilds every step:
step 0 is the deal (``new_game`` and its start events), step ``i`` is the state after the
``i``-th logged action, with that action's events and who made it. Any engine of the
:class:`game.base.Engine` protocol replays; a per-game *step marker* (``game.registry.
step_markers``) tells which round and turn a state is in, so a reader can jump to them.

The log is replayed once when the replay is built: every action is checked as the session
manager checked it (the player is awaited, the engine accepts it), so a log that does not
replay fails at once with the step that was refused. Only every ``checkpoint_every``-th state
is kept; a step in between is rebuilt from the nearest earlier checkpoint (or from the step
read last, when that is nearer, so paging forward costs one action each).

The game is over or abandoned when it is replayed, so the words of a step show every private
detail (the card a player drew), as its owner saw them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic import BaseModel

from game.base import Engine, Event, GameState, IllegalAction, PlayerId, PlayerResult

DEFAULT_CHECKPOINT_EVERY = 32


class StepMarker(NamedTuple):
    """Where a state stands: its round (``None`` for a game without rounds) and its turn (the
    turn the game is in, counted from 1; per round when the game has rounds)."""

    round: int | None
    turn: int | None


StepMarkerFn = Callable[[Any], StepMarker]


def no_marker(state: Any) -> StepMarker:
    """The marker of a game that registers none: no round, no turn."""
    return StepMarker(None, None)


class LoggedAction(NamedTuple):
    """One row of the action log: who acted, the action's JSON form, the session version the
    action produced (``None`` when unknown)."""

    player: PlayerId
    action: Mapping[str, Any] | str
    version: int | None = None


class ReplayRefused(Exception):
    """The log does not replay: step ``step`` was refused (step 0: the game does not start).

    ``str(err)`` names the step, its version and player when known, and the reason.
    """

    def __init__(
        self, step: int, reason: str, *, player: PlayerId | None = None, version: int | None = None
    ) -> None:
        where = f"step {step}"
        if version is not None:
            where += f" (version {version})"
        if player is not None:
            where += f" by {player}"
        super().__init__(f"{where} refused: {reason}")
        self.step = step
        self.reason = reason
        self.player = player
        self.version = version


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay. ``state`` is the replay's own copy: the reader may keep or change
    it. ``lines`` are the step's events in words with every private detail shown."""

    index: int
    marker: StepMarker
    actor: PlayerId | None  # None for step 0, the deal
    action: BaseModel | None
    version: int | None
    state: GameState
    events: tuple[Event, ...]
    lines: tuple[str, ...]


class Replay:
    """Every step of one game; build it once, then read steps in any order."""

    def __init__(
        self,
        engine: Engine[Any, Any],
        players: Sequence[PlayerId],
        seed: int,
        options: Mapping[str, Any] | None,
        actions: Sequence[LoggedAction],
        *,
        names: Mapping[PlayerId, str] | None = None,
        marker: StepMarkerFn = no_marker,
        checkpoint_every: int = DEFAULT_CHECKPOINT_EVERY,
    ) -> None:
        if checkpoint_every < 1:
            raise ValueError("checkpoint_every must be at least 1")
        self.engine = engine
        self.names: dict[PlayerId, str] = dict(names or {})
        self._every = checkpoint_every
        try:
            state, start_events = engine.new_game(list(players), seed, options)
        except IllegalAction as err:
            raise ReplayRefused(0, str(err)) from None
        self._rows: list[LoggedAction | None] = [None]
        self._actions: list[BaseModel | None] = [None]
        self._events: list[tuple[Event, ...]] = [tuple(start_events)]
        self._markers: list[StepMarker] = [marker(state)]
        self._checkpoints: dict[int, Any] = {0: engine.copy_state(state)}
        for index, row in enumerate(actions, start=1):
            parsed = self._check(state, index, row)
            try:
                events = engine.apply(state, row.player, parsed)
            except IllegalAction as err:
                raise ReplayRefused(
                    index, str(err), player=row.player, version=row.version
                ) from None
            self._rows.append(row)
            self._actions.append(parsed)
            self._events.append(tuple(events))
            self._markers.append(marker(state))
            if index % checkpoint_every == 0:
                self._checkpoints[index] = engine.copy_state(state)
        self._last = len(self._rows) - 1
        self._final = state  # never mutated again: steps are rebuilt on copies
        self._cursor: tuple[int, Any] = (0, engine.copy_state(self._checkpoints[0]))

    def _check(self, state: Any, index: int, row: LoggedAction) -> BaseModel:
        """The parsed action of ``row``, refused as the session manager would refuse it."""
        if row.player not in self.engine.awaiting(state):
            reason = (
                "the game is already over"
                if self.engine.is_over(state)
                else f"the game was not waiting for {row.player}"
            )
            raise ReplayRefused(index, reason, player=row.player, version=row.version)
        try:
            return self.engine.parse_action(row.action)
        except IllegalAction as err:
            raise ReplayRefused(index, str(err), player=row.player, version=row.version) from None

    # --- what the whole replay knows --------------------------------------------------------

    def __len__(self) -> int:
        """The number of steps: the deal plus one per action."""
        return self._last + 1

    @property
    def last_index(self) -> int:
        return self._last

    @property
    def markers(self) -> tuple[StepMarker, ...]:
        """The marker of every step, by index."""
        return tuple(self._markers)

    @property
    def is_over(self) -> bool:
        """Whether the game reached its end (an abandoned game stops before)."""
        return self.engine.is_over(self._final)

    def results(self) -> list[PlayerResult]:
        """The engine's final standings; empty when the game did not reach its end."""
        return self.engine.results(self._final) if self.is_over else []

    def final_state(self) -> Any:
        """A copy of the state after the last step."""
        return self.engine.copy_state(self._final)

    def clamp(self, index: int) -> int:
        """``index`` moved into ``0 .. last_index`` (paging past either end stays there)."""
        return max(0, min(self._last, index))

    def rounds(self) -> list[int]:
        """The rounds the replay reaches, in order (empty for a game without rounds)."""
        return sorted({m.round for m in self._markers if m.round is not None})

    def turns(self, round: int | None = None) -> list[int]:
        """The turns the replay reaches (within ``round`` when given), in order."""
        return sorted(
            {
                m.turn
                for m in self._markers
                if m.turn is not None and (round is None or m.round == round)
            }
        )

    def first_step_of(self, round: int | None = None, turn: int | None = None) -> int | None:
        """The first step whose state is in ``round`` and ``turn`` (``None``: any), or None."""
        for index, marker in enumerate(self._markers):
            if (round is None or marker.round == round) and (turn is None or marker.turn == turn):
                return index
        return None

    # --- one step ---------------------------------------------------------------------------

    def step(self, index: int) -> ReplayStep:
        """Step ``index`` (``0 .. last_index``; IndexError outside)."""
        if not 0 <= index <= self._last:
            raise IndexError(f"step {index} is outside 0..{self._last}")
        row = self._rows[index]
        events = self._events[index]
        return ReplayStep(
            index=index,
            marker=self._markers[index],
            actor=None if row is None else row.player,
            action=self._actions[index],
            version=None if row is None else row.version,
            state=self.engine.copy_state(self._state_at(index)),
            events=events,
            lines=self.words(index),
        )

    def events(self, index: int) -> tuple[Event, ...]:
        """Step ``index``'s events, without rebuilding its state (IndexError outside)."""
        if not 0 <= index <= self._last:
            raise IndexError(f"step {index} is outside 0..{self._last}")
        return self._events[index]

    def words(
        self, index: int, viewer: PlayerId | None = None, *, reveal: bool = True
    ) -> tuple[str, ...]:
        """Step ``index``'s events in words: by default with every private detail (each
        event as the player it was private to saw it); ``reveal=False``: as ``viewer`` saw it."""
        return tuple(
            self.engine.describe(event, event.private_to if reveal else viewer, self.names)
            for event in self._events[index]
        )

    def _state_at(self, index: int) -> Any:
        """The state after step ``index``; owned by the replay (the cursor), do not mutate."""
        if index == self._last:
            return self._final
        base = max(i for i in self._checkpoints if i <= index)
        at, cursor = self._cursor
        if not base <= at <= index:
            at, cursor = base, self.engine.copy_state(self._checkpoints[base])
        for step in range(at + 1, index + 1):
            row = self._rows[step]
            assert row is not None
            self.engine.apply(cursor, row.player, self._actions[step])
        self._cursor = (index, cursor)
        return cursor
