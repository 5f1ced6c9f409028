"""A game's views once per stored version: ``engine.view(session.state, viewer)`` is built
once for each (session, version, viewer) and shared by every render of that version (the
public table, the turn ping's controls, the clicker's answer, the view follower's edit).

Issue 42: an action built the same view 2.6 times (TEN 54 µs each, pydantic models). A
stored version's state never changes (the manager applies the engine to a copy and swaps in
a new ``Session``), and the renders of one version are handed that one ``Session`` object
(the change's, the manager's). So an entry refers (weakly) to the ``Session`` object it was
built for and serves only that very object, while it lives: a session made up for another
purpose (a replay step, a bench stepping one state in place, each a new ``Session`` whose
``version`` may repeat the stored one's) never reads a view of another state. The views are
read only (no renderer changes one; they are the engine's answers).

Hidden information: an entry is keyed by its viewer, and ``None`` (the public view) is its
own key, so a player's view is only ever handed back to a render for that player.

The views of one version for several viewers share most of their content (TEN's differ only
by their viewer, SPLIT's by the viewer's hand): the first view of a version is built, the
others are made from it by ``engine.view_for(state, first, viewer)``, which takes what only
that viewer may see from the state, never from the first view (fifth pass of issue 42;
``tests/engine/test_view_build.py`` compares each with a fresh build).

Memory stays flat: at most :data:`KEPT` entries (a view each, ~10 KB; the sessions are not
kept alive by the memo), the least recently used dropped first.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, Protocol, TypeVar

from bot.records.session import Session
from game.base import PlayerId

KEPT = 256  # entries: the renders of one version come within its click's handling


class Views(Protocol):
    def view(self, state: Any, player: PlayerId | None) -> Any: ...

    def view_for(self, state: Any, view: Any, player: PlayerId | None) -> Any: ...


# The key of a version's first view, whoever it was for (the views made from it).
_FIRST = object()


class ViewMemo:
    """``memo.of(session, viewer)``: ``engine.view(session.state, viewer)``, built once per
    stored version."""

    def __init__(self, engine: Views, kept: int = KEPT) -> None:
        self._engine = engine
        self._kept = kept
        # (session id, version, viewer) -> (the Session it was built for, the view); the
        # viewer _FIRST: the version's first view
        self._views: OrderedDict[
            tuple[int, int, object], tuple[weakref.ref[Session], Any]] = OrderedDict()
        self.built = 0  # views built (tests, figures)
        self.derived = 0  # views made from a version's first view
        # With IMAGE_PROCESSES=0 the pictures are drawn in threads that read the memo too.
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._views)

    def __getstate__(self) -> dict[str, Any]:
        # A picture job pickles its game UI for the workers (cogs.render_workers): the memo
        # goes along empty (its entries hold weak references, and are this process's).
        return {"_engine": self._engine, "_kept": self._kept}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["_engine"], state["_kept"])  # type: ignore[misc]

    def of(self, session: Session, viewer: PlayerId | None) -> Any:
        key = (session.id, session.version, viewer)
        first_key = (session.id, session.version, _FIRST)
        views = self._views
        with self._lock:
            found = views.get(key)
            if found is not None and found[0]() is session:
                views.move_to_end(key)
                return found[1]
            found = views.get(first_key)
            first = found[1] if found is not None and found[0]() is session else None
        if first is None:
            view = self._engine.view(session.state, viewer)
        else:
            view = self._engine.view_for(session.state, first, viewer)
        held = (weakref.ref(session), view)
        with self._lock:
            if first is None:
                self.built += 1
                views[first_key] = held
                views.move_to_end(first_key)
            else:
                self.derived += 1
            views[key] = held
            views.move_to_end(key)
            while len(views) > self._kept:
                views.popitem(last=False)
        return view


T = TypeVar("T")


class VersionMemo(Generic[T]):
    """``memo.of(session, key, build)``: ``build()`` once per stored version and ``key``, for
    public parts of a render that several sends of one version draw alike (TEN's table
    controls: the table and the turn ping, issue 42's fifth pass). The same rules as
    :class:`ViewMemo`: an entry serves only the very ``Session`` object it was built for,
    at most ``kept`` entries, the least recently used dropped first. What it keeps is
    shared: a caller hands out copies of anything a send changes (rows, emojis)."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._entries: OrderedDict[tuple[int, int, Hashable], tuple[weakref.ref[Session], T]] \
            = OrderedDict()
        self.built = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def __getstate__(self) -> dict[str, Any]:
        return {"_kept": self._kept}  # goes to a picture worker empty, as ViewMemo does

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["_kept"])  # type: ignore[misc]

    def of(self, session: Session, key: Hashable, build: Callable[[], T]) -> T:
        entry = (session.id, session.version, key)
        with self._lock:
            found = self._entries.get(entry)
            if found is not None and found[0]() is session:
                self._entries.move_to_end(entry)
                return found[1]
        made = build()
        with self._lock:
            self.built += 1
            self._entries[entry] = (weakref.ref(session), made)
            self._entries.move_to_end(entry)
            if len(self._entries) > self._kept:
                self._entries.popitem(last=False)
        return made
