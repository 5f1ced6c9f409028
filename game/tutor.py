"""The tutor of ``/learn``: a guided first game against bot seats, pure.

Before each of the learner's decisions the tutor comments: the rules the events since their
last decision brought up (``happened``), the rule that applies to the move it suggests
(``now``) and the move itself (the game's greedy policy, from the learner's seat view only).
The learner may play anything legal; the comments are read from the actual state, never from
a script. Which rules the learner has met (shown in a comment, or played) is derived from the
seed and the action log alone, so a resumed or restarted game knows it without storing it.

The fixed deals (``LEARN_DEALS``) were found by ``python -m game.registry.learn_deals`` (see
there): a learner who follows every suggestion meets every rule of ``Teacher.REQUIRED`` early.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel

from game.base import Engine, Event, PlayerId, play

# A comment names at most this many rules that just came up (those not met yet first), so
# that it stays short next to the table; the end names them all.
MAX_HAPPENED = 2


class Teacher(Protocol):
    """One game's lessons (``game/<game>/lessons.py`` as a module satisfies it)."""

    @property
    def REQUIRED(self) -> tuple[str, ...]: ...

    def suggestion(self, state: Any, seat: int) -> Any: ...

    def decision_lesson(self, state: Any, seat: int, action: Any) -> str: ...

    def event_lessons(self, events: Iterable[Event], player: str, state: Any) -> list[str]: ...


@dataclass(frozen=True)
class Deal:
    """A fixed deal: the seed, and how many seats (the learner in seat 0, bot seats after)."""

    seed: int
    seats: int


@dataclass(frozen=True)
class Comment:
    """What the tutor says before a decision of the learner (or at the end: ``now`` and
    ``suggestion`` None)."""

    happened: tuple[str, ...]
    now: str | None
    suggestion: BaseModel | None

    @property
    def lessons(self) -> tuple[str, ...]:
        return (*self.happened, *((self.now,) if self.now else ()))


@dataclass
class Tutor:
    """Follows one learner's game action by action; ``met`` grows as rules come up."""

    engine: Engine[Any, Any]
    teacher: Teacher
    learner: PlayerId
    state: Any
    pending: list[Event] = field(default_factory=list)  # events since the learner's last move
    met: list[str] = field(default_factory=list)  # in the order met
    # ``met`` as the learner's last move left it: what counts as new in the comment after it,
    # whenever (and however often) that comment is drawn.
    met_before: frozenset[str] = frozenset()

    @classmethod
    def start(
        cls, engine: Engine[Any, Any], teacher: Teacher, players: Sequence[PlayerId],
        seed: int, learner: PlayerId, options: Mapping[str, Any] | None = None,
    ) -> Tutor:
        state, events = engine.new_game(players, seed, options)
        return cls(engine, teacher, learner, state, list(events))

    @property
    def seat(self) -> int:
        return list(self.state.players).index(self.learner)

    def comment(self) -> Comment | None:
        """The comment for the state now: before the learner's decision, or the game's end;
        None while the game waits for someone else."""
        over = self.engine.is_over(self.state)
        if not over and self.learner not in self.engine.awaiting(self.state):
            return None
        found = self.teacher.event_lessons(self.pending, self.learner, self.state)
        fresh = [lesson for lesson in found if lesson not in self.met_before]
        happened = tuple((fresh or found)[:MAX_HAPPENED]) if not over else tuple(found)
        if over:
            return Comment(happened, None, None)
        move = self.teacher.suggestion(self.state, self.seat)
        return Comment(happened, self.teacher.decision_lesson(self.state, self.seat, move), move)

    def _meet(self, lessons: Iterable[str]) -> None:
        for lesson in lessons:
            if lesson not in self.met:
                self.met.append(lesson)

    def step(self, player: PlayerId, action: Any) -> list[Event]:
        """Play one logged action (a model or its JSON form) and follow it."""
        if not isinstance(action, BaseModel):
            action = self.engine.parse_action(action)
        if player == self.learner:
            shown = self.comment()
            if shown is not None:
                self._meet(shown.lessons)
            self._meet([self.teacher.decision_lesson(self.state, self.seat, action)])
            self.pending = []
            self.met_before = frozenset(self.met)
        self.state, events = play(self.engine, self.state, player, action)
        self.pending.extend(events)
        return events

    def now(self) -> Comment | None:
        """The comment shown now, counted as met (the learner reads it)."""
        shown = self.comment()
        if shown is not None:
            self._meet(shown.lessons)
        return shown

    def missing(self) -> list[str]:
        return [lesson for lesson in self.teacher.REQUIRED if lesson not in self.met]


def replay(
    engine: Engine[Any, Any], teacher: Teacher, players: Sequence[PlayerId], seed: int,
    learner: PlayerId, actions: Iterable[tuple[PlayerId, Any]],
    options: Mapping[str, Any] | None = None,
) -> Tutor:
    """The tutor of a stored game: its deal, then each logged action (player, action)."""
    tutor = Tutor.start(engine, teacher, players, seed, learner, options)
    for player, action in actions:
        tutor.step(player, action)
    tutor.now()
    return tutor


# Found by ``python -m game.registry.learn_deals split --seats 3 --count 400`` (every rule by the
# learner's 10th decision; three seats, so that the perfect bonus asks whom to mark) and
# ``python -m game.registry.learn_deals ten --seats 2 --count 400`` (the shortest TEN deck).
LEARN_DEALS: dict[str, Deal] = {"split": Deal(seed=110, seats=3), "ten": Deal(seed=16, seats=2)}
