"""The shape every rules engine shares, so the session manager and the cogs treat games alike.

An engine is a stateless object; all game data lives in a pydantic state model that the
engine creates, inspects and mutates. Engines are pure: no discord, no I/O, no clock and no
global random. Randomness comes from ``rng_for(state.seed, ...)`` so that a game replays
exactly from its seed and its action log.

Player ids are strings (a Discord user id in decimal, or ``"bot:N"`` for a bot seat).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, NoReturn, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, Field

from game.search.budget import Budget
from game.search.flat import Decision

PlayerId = str


class IllegalAction(Exception):
    """The rules refuse an action.

    ``str(err)`` is one sentence a player can read ("7♥ and 8♥ are different ranks"). It
    never mentions hidden information the acting player may not see.
    """


class _NoData(dict[str, Any]):
    """An event's default ``data``: one shared empty dict that refuses changes (and, unlike a
    mapping proxy, still pickles and deep-copies)."""

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("an event's default data is read-only")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse


_NO_DATA: Mapping[str, Any] = _NoData()


class Event(NamedTuple):
    """Something that happened, for the table log.

    ``data`` is public. ``private`` holds details only ``private_to`` may see (the card you
    drew); everyone else sees the event without them.

    Engines make several events per action, so an event is an immutable typed tuple rather
    than a pydantic model (a third of the cost to build). Nobody mutates ``data``.
    """

    kind: str
    actor: PlayerId | None = None
    data: Mapping[str, Any] = _NO_DATA
    private: Mapping[str, Any] | None = None
    private_to: PlayerId | None = None

    def visible_to(self, viewer: PlayerId | None) -> dict[str, Any]:
        """The event's data as ``viewer`` may see it (``None`` = spectator / public)."""
        if self.private is not None and viewer is not None and viewer == self.private_to:
            return {**self.data, **self.private}
        return dict(self.data)


class PlayerResult(BaseModel):
    """One player's final standing. Tied players share a placement (1, 1, 3, ...)."""

    player: PlayerId
    placement: int
    score: int
    breakdown: dict[str, Any] = Field(default_factory=dict)


class GameState(BaseModel):
    """Fields every game state has. Engines subclass it."""

    players: list[PlayerId]
    seed: int


S = TypeVar("S", bound=GameState)
A = TypeVar("A", bound=BaseModel)


@runtime_checkable
class Engine(Protocol[S, A]):
    """What the process needs from a rules engine.

    ``apply`` mutates ``state`` in place and returns the events. It validates before it
    mutates where it can, but a caller must treat a state as spoiled once ``apply`` raised:
    use :func:`play` (copy, then apply) unless you own a throwaway copy.
    """

    key: ClassVar[str]  # "split" / "ten": the registry key and the slash-command choice
    title: ClassVar[str]  # "SPLIT" / "TEN"
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    @property
    def state_model(self) -> type[GameState]:
        """The pydantic model of this game's state (to load snapshots)."""
        ...

    @property
    def options_model(self) -> type[BaseModel]:
        """The pydantic model of this game's options (``/game new`` choices)."""
        ...

    def new_game(
        self, players: Sequence[PlayerId], seed: int, options: Mapping[str, object] | None = None
    ) -> tuple[S, list[Event]]:
        """A new game and the events of its start (the deal, who plays first), for the log;
        raises IllegalAction when the players or options do not make a game."""
        ...

    def parse_action(self, data: Mapping[str, Any] | str) -> A:
        """An action from its JSON form; raises IllegalAction on malformed input."""
        ...

    def legal_actions(self, state: S, player: PlayerId) -> list[A]:
        """Every action ``player`` may take now (empty when it is not their input)."""
        ...

    def parse_code(self, code: str) -> A:
        """The action a control's code names (``game.action_codes``: the inverse of
        ``action_code``); raises IllegalAction when it names none. Legal or not:
        :meth:`is_legal` says."""
        ...

    def is_legal(self, state: S, player: PlayerId, action: A) -> bool:
        """Whether ``action`` is one of ``legal_actions(state, player)``, answered without
        listing them all."""
        ...

    def awaiting(self, state: S) -> list[PlayerId]:
        """The players whose input the game waits for now (empty when over)."""
        ...

    def apply(self, state: S, player: PlayerId, action: A) -> list[Event]: ...

    def copy_state(self, state: S) -> S: ...

    def view(self, state: S, player: PlayerId | None) -> BaseModel:
        """What ``player`` may see (``None``: a spectator, the public part only)."""
        ...

    def view_for(self, state: S, view: Any, player: PlayerId | None) -> BaseModel:
        """``view(state, player)``, made from ``view``: another viewer's view of the same
        ``state`` (what every viewer sees is shared, not built again; what only ``player``
        may see comes from ``state``, never from ``view``)."""
        ...

    def describe(self, event: Event, viewer: PlayerId | None, names: Mapping[PlayerId, str]) -> str:
        """One line of words for the table log, as ``viewer`` may see it."""
        ...

    def is_over(self, state: S) -> bool: ...

    def results(self, state: S) -> list[PlayerResult]:
        """Final standings; only meaningful once ``is_over``."""
        ...

    def default_action(self, state: S, player: PlayerId) -> A:
        """The safe move played for an absent player when their turn clock runs out."""
        ...

    def bot_action(
        self, state: S, player: PlayerId, level: str, rng: random.Random,
        limit: Budget | None = None,
    ) -> A:
        """A machine player's move; ``level`` is ``"easy"`` (random legal), ``"normal"``
        (greedy) or ``"expert"`` (search over sampled hidden states; ``game.search``).
        ``limit`` may stop a search before the level's own simulation count (the bot
        process passes a deadline); without it the move depends only on ``rng``."""
        ...

    def expert_decision(
        self, state: S, player: PlayerId, rng: random.Random, limit: Budget | None = None
    ) -> Decision[A]:
        """The search an expert seat runs for ``player``'s move, with what it saw: its
        ``action`` is what ``bot_action(state, player, "expert", rng, limit)`` plays. It reads
        only what ``player`` may see (hidden cards are sampled afresh)."""
        ...


def play(engine: Engine[S, A], state: S, player: PlayerId, action: A) -> tuple[S, list[Event]]:
    """Apply ``action`` to a copy of ``state``; the original is never touched."""
    new_state = engine.copy_state(state)
    events = engine.apply(new_state, player, action)
    return new_state, events


def rng_for(seed: int, *salt: object) -> random.Random:
    """A deterministic random generator for one purpose of one game ("deal", round 2, ...)."""
    text = ":".join([str(seed), *map(str, salt)])
    digest = hashlib.sha256(text.encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def placements(scores: Mapping[PlayerId, Sequence[int | float]]) -> dict[PlayerId, int]:
    """Competition ranking (1, 1, 3) from sort keys where higher is better."""
    ordered = sorted(scores.items(), key=lambda item: tuple(item[1]), reverse=True)
    result: dict[PlayerId, int] = {}
    for index, (player, key) in enumerate(ordered):
        if index and tuple(key) == tuple(ordered[index - 1][1]):
            result[player] = result[ordered[index - 1][0]]
        else:
            result[player] = index + 1
    return result
