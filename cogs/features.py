"""How a feature plugs into the table: one typed registration, :class:`Feature`.

A feature (``cogs/daily``, ``cogs/learn``, ``cogs/hints``, ``cogs/reviews``, ...) is one package
with one extension that the client loads by name. Its cog is made with what it needs (the
table's :class:`TableFeatures` among it) and registers itself in ``cog_load``::

    async def cog_load(self) -> None:
        self.table.register(Feature(
            "daily",
            controls={ShareButton: lambda ia, parts, _: self.share_click(ia, *parts)},
            listeners={Place.DAILY_SCORES: self.daily.on_change},
            private={SessionKind.DAILY: self.addon},
        ))

- ``controls``: its control kinds (the classes that draw them), each with its click: a click
  on one is dispatched there (``cogs.click_context.dispatcher``), after the interaction's
  context is made;
- ``listeners``: what it does after each stored change, each at its named :class:`Place` of the
  one ordered list (the table subscribes one slot per place, in order, so the order never
  depends on which extension loaded first);
- ``private``: what it adds to a private table's message of its kind
  (:data:`PrivateAddOn`, :class:`PrivateExtras`);
- ``turn_items``: what it adds to a person's private view on their turn (:data:`TurnItems`:
  the Hint button), laid out by the game's UI after its own controls;
- ``sealed``: for a kind of session it owns, whether a stored game of that kind may be shown
  yet (replayed, exported, reviewed) (:data:`Sealed`: today's daily deal may not);
- ``stats``: what it adds to a person's ``/stats`` (:data:`StatsLines`: the daily's streaks,
  the server events played and won);
- ``history``: what it adds to a channel's ``/history`` (:data:`HistoryLines`: the server
  events opened there).

The table core places its own listeners the same way (``cogs.table.extension.listeners``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import discord

from bot.records.change import Change
from bot.records.session import Session, SessionKind
from bot.sessions.manager import Listener, SessionManager
from cogs.i18n.words import Words
from cogs.kit.control_payloads import Shown
from cogs.kit.custom_ids import AnyControl, AnyKind, Click
from game.base import PlayerId

Item = Shown  # a control a feature adds to a render


class Place(Enum):
    """The named places of the one ordered list of the manager's listeners, in the order each
    change reaches them: the table, the round summaries, the ping, the final post, a game's
    thread archived and the tokens of its messages forgotten, the followed private views, the
    channel health; then the machine seats and the turn clock (a change is drawn and posted
    before a machine seat's worker or the clock looks at it); a private table that ended
    without a last move forgets its followed view; the reviews of a finished game are queued,
    and a finished daily is scored; a server event's table that ended moves its event on
    (its next round, its end). ``public``: the place hears only the changes
    of public tables (``Session.is_private``: a private table makes no channel noise)."""

    TABLE = ("table", True)
    SUMMARIES = ("summaries", True)
    PING = ("ping", True)
    FINAL_POST = ("final post", True)
    THREADS = ("threads", True)
    ROUTES = ("routes", True)
    VIEWS = ("views", True)
    HEALTH = ("health", True)
    MACHINES = ("machines", False)
    CLOCK = ("clock", False)
    ENDED_PRIVATE = ("ended private tables", False)
    REVIEWS = ("reviews", True)
    DAILY_SCORES = ("daily scores", False)
    EVENTS = ("events", True)

    @property
    def public(self) -> bool:
        return self.value[1]


@dataclass(frozen=True)
class PrivateExtras:
    """What a private kind adds to its table's message (``cogs.rendering.private_table``):
    embeds above the table (a commentary), embeds below the hand (the daily's result) and
    buttons after the controls (Share)."""

    above: Sequence[discord.Embed] = ()
    below: Sequence[discord.Embed] = ()
    items: Sequence[Item] = ()


# Runs on every draw of a private table of its kind, so it must be quick (one store read at
# most).
PrivateAddOn = Callable[[Session, PlayerId, Words], Awaitable[PrivateExtras]]


# What a feature adds to a person's private view on their turn (the Hint button): the game's UI
# lays the items out after its own controls. Called on every draw of a view: quick, no I/O.
TurnItems = Callable[[Session, PlayerId, Words], Sequence[Item]]


# None when a stored game of its kind may be shown (replayed, exported, reviewed); else the
# refusal to say, a template marked for the catalogs where it is defined (raised as a Refusal).
Sealed = Callable[[Session], Awaitable[str | None]]


@dataclass(frozen=True)
class StatsField:
    """One field a feature adds to a person's ``/stats``: its heading and its lines."""

    name: str
    value: str


# What a feature adds to ``/stats`` of a person in some games (game key -> title, in /stats'
# order) in a server (its id first), worded for the reader; None when it has nothing to say
# of them.
StatsLines = Callable[[int, PlayerId, Mapping[str, str], Words], Awaitable[StatsField | None]]

# What a feature adds to ``/history`` of a channel (server id, channel id), worded for the
# reader; None when it has nothing to say of it.
HistoryLines = Callable[[int, int, Words], Awaitable[StatsField | None]]


ControlClick = Click[*tuple[Any, ...]]


@dataclass(frozen=True)
class Feature:
    """A feature's one registration (see the module doc)."""

    name: str
    controls: Mapping[type[AnyControl], ControlClick] = field(default_factory=dict)
    listeners: Mapping[Place, Listener] = field(default_factory=dict)
    private: Mapping[SessionKind, PrivateAddOn] = field(default_factory=dict)
    sealed: Mapping[SessionKind, Sealed] = field(default_factory=dict)
    turn_items: TurnItems | None = None
    stats: StatsLines | None = None
    history: HistoryLines | None = None


class TakenPlace(ValueError):
    """Two registrations for one place, one private kind (add-on or seal) or one control
    kind."""


class _Slot:
    """The manager's listener at one place: calls what is registered there, if anything."""

    def __init__(self, place: Place) -> None:
        self.place = place
        self.public = place.public  # read at every change (issue 42): once here
        self.listener: Listener | None = None
        self.__qualname__ = f"place {place.value[0]}"

    async def __call__(self, change: Change) -> None:
        if self.listener is None or (self.public and change.session.is_private):
            return
        await self.listener(change)

    def __repr__(self) -> str:
        return f"<{self.__qualname__}: {self.listener!r}>"


class TableFeatures:
    """What the features registered with the table: the click of each control kind, the
    listener of each place, the add-on of each private kind, the features by name.
    ``add_controls`` registers the controls with discord.py (the client's
    ``add_dynamic_items``)."""

    def __init__(self, add_controls: Callable[..., None] | None = None) -> None:
        self._slots = {place: _Slot(place) for place in Place}
        self._private: dict[SessionKind, PrivateAddOn] = {}
        self._sealed: dict[SessionKind, Sealed] = {}
        self._turn_items: list[TurnItems] = []
        self._stats: list[StatsLines] = []
        self._history: list[HistoryLines] = []
        self._clicks: dict[str, ControlClick] = {}
        self._add_controls = add_controls
        self.names: list[str] = []

    def register(self, feature: Feature) -> None:
        for place in feature.listeners:
            if self._slots[place].listener is not None:
                raise TakenPlace(f"{feature.name}: the place {place.name} is taken")
        for kind in feature.private:
            if kind in self._private:
                raise TakenPlace(f"{feature.name}: the private kind {kind} has its add-on")
        for kind in feature.sealed:
            if kind in self._sealed:
                raise TakenPlace(f"{feature.name}: the kind {kind} has its seal")
        for control in feature.controls:
            if control.kind.prefix in self._clicks:
                raise TakenPlace(f"{feature.name}: the control kind {control.kind.prefix}"
                                 " has its click")
        for place, listener in feature.listeners.items():
            self._slots[place].listener = listener
        self._private.update(feature.private)
        self._sealed.update(feature.sealed)
        if feature.turn_items is not None:
            self._turn_items.append(feature.turn_items)
        if feature.stats is not None:
            self._stats.append(feature.stats)
        if feature.history is not None:
            self._history.append(feature.history)
        self._clicks.update({control.kind.prefix: click
                             for control, click in feature.controls.items()})
        if feature.controls and self._add_controls is not None:
            self._add_controls(*feature.controls)
        self.names.append(feature.name)

    def ordered(self) -> tuple[Listener, ...]:
        """One listener per place, in the places' order."""
        return tuple(self._slots[place] for place in Place)

    def subscribe(self, manager: SessionManager) -> None:
        """Subscribe every place, in order, once (before any change is stored)."""
        for listener in self.ordered():
            manager.subscribe(listener)

    def private_addon(self, kind: SessionKind) -> PrivateAddOn | None:
        return self._private.get(kind)

    def turn_items(self, session: Session, viewer: PlayerId, words: Words) -> list[Item]:
        """What the features add to ``viewer``'s private view of ``session`` on their turn (the
        UI shows them only then), in the order they registered."""
        return [item for items in self._turn_items for item in items(session, viewer, words)]

    async def stats_fields(self, guild_id: int, player: PlayerId, games: Mapping[str, str],
                           words: Words) -> list[StatsField]:
        """What the features add to ``player``'s ``/stats`` in ``games`` of server
        ``guild_id``, in the order they registered."""
        fields = [await lines(guild_id, player, games, words) for lines in self._stats]
        return [field for field in fields if field is not None]

    async def history_fields(self, guild_id: int, channel_id: int,
                             words: Words) -> list[StatsField]:
        """What the features add to ``/history`` of a channel, in the order they
        registered."""
        fields = [await lines(guild_id, channel_id, words) for lines in self._history]
        return [field for field in fields if field is not None]

    async def seal_of(self, session: Session) -> str | None:
        """Why stored ``session`` may not be shown yet (the feature of its kind says), or None."""
        sealed = self._sealed.get(session.kind)
        return None if sealed is None else await sealed(session)

    def click(self, kind: AnyKind) -> ControlClick:
        """The click registered for ``kind`` (KeyError: no feature registered it)."""
        return self._clicks[kind.prefix]
