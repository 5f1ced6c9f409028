"""Pictures on the messages: the table image on the public table, the hand image on a
player's private view, the final picture on a game's final post (``cogs.final_post``).

The game UIs draw (``cogs.game_ui.DrawsImages`` / ``DrawsFinalPicture``); this module decides
whether a message gets a picture, renders it off the event loop and attaches it:

* whether: the server setting ``images`` (``on`` | ``off``; absent: the ``IMAGES``
  environment setting) for public messages; for what only one person sees, their own choice
  (user setting ``images``, set with ``/images``), else the server's. Off, a message is exactly
  its text render, with an empty list of files (an edit then removes an older picture).
* how: in a bounded pool of worker processes (``IMAGE_PROCESSES``, default 1; 0 = a pool of
  :data:`WORKERS` threads, as the tests use): a render is mostly Python (layout, painting)
  that holds the GIL, so in threads it would slow every other answer of the bot, while a
  process draws beside the event loop. Each result is kept in a bounded
  :class:`cogs.imaging.cache.RenderCache` by (session, version, viewer and language): the
  public table of one version is drawn once for every edit and copy of it. Two requests for
  the same picture at once share one render. Memory stays flat: the cache holds at most
  ``capacity`` images (finished games fall out like any other); settings are read through
  the bounded cache of ``cogs.stored_settings``, which ``/config`` and ``/images`` write
  through.
* where: the picture is the first embed's image (``attachment://table.png``); the embed's text
  stays as its caption and as the text for anyone who cannot see images. A render that fails
  leaves the message as text (and logs the error): a picture never stops a move.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.models import Session, Status
from cogs.game_ui import Attachment, DrawsFinalPicture, DrawsImages, GameUI, Render
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.words import Words
from cogs.imaging.cache import DEFAULT_CAPACITY, RenderCache, RenderKey
from cogs.stored_settings import stored_settings
from game.base import PlayerId

if TYPE_CHECKING:
    from bot.store import Store

log = logging.getLogger(__name__)

IMAGES_KEY = "images"  # the server and the user setting
ON = "on"
OFF = "off"
CHOICES = (ON, OFF)
WORKER_NICENESS = 10  # how much lower a worker process's CPU priority is than the bot's
WORKERS = 2  # render threads: Pillow holds the GIL for much of a render, more would only queue
TABLE_FILE = "table.png"
HAND_FILE = "hand.png"
FINAL_FILE = "final.png"

Draw = Callable[[], bytes | None]  # picklable (a partial of draw_picture) for the processes


def draw_picture(ui: GameUI, method: str, session: Session, language: Language,
                 *args: object) -> bytes | None:
    """``ui.<method>(session, *args, words)`` in a worker: a module-level function, so the
    call pickles to a worker process (the UI, the session and the language travel)."""
    drawn: bytes | None = getattr(ui, method)(session, *args, words_for(language))
    return drawn


def _warm() -> None:
    """A worker's first task: import the drawing toolkit before the first real render (a
    game's renderers come with its UI, the first time one is unpickled)."""
    import cogs.imaging.paint  # noqa: F401


def _start_worker() -> None:
    """A worker process yields the CPU to the bot (a lower priority: an answer matters more
    than a picture, which may follow), and ends with it: a bot killed outright (SIGKILL)
    cannot stop its pool, so each worker watches its parent and exits when it is gone."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch(sentinel: int) -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)

    threading.Thread(target=watch, args=(parent.sentinel,), name="parent-watch",
                     daemon=True).start()
    _warm()


def parse_choice(value: str | None) -> bool | None:
    """``on`` / ``off`` as True / False; anything else (absent, unknown) as None."""
    if value == ON:
        return True
    if value == OFF:
        return False
    return None


class Pictures:
    """The render pool, the image cache and the settings that switch pictures on and off."""

    def __init__(
        self,
        *,
        default_on: bool,
        processes: int = 0,
        workers: int = WORKERS,
        capacity: int = DEFAULT_CAPACITY,
    ) -> None:
        self.default_on = default_on
        self.cache = RenderCache(capacity)
        self._processes = processes
        self._workers = workers
        self._pool: concurrent.futures.Executor | None = None
        self._pending: dict[RenderKey, asyncio.Future[bytes | None]] = {}

    # --- settings -----------------------------------------------------------------------------

    async def server_settings(self, store: Store, guild_id: int) -> dict[str, str]:
        return await stored_settings(store).guild(guild_id)

    async def user_settings(self, store: Store, user_id: int) -> dict[str, str]:
        return await stored_settings(store).user(user_id)

    async def public_on(self, store: Store, guild_id: int) -> bool:
        """Whether public messages in server ``guild_id`` show pictures."""
        choice = parse_choice((await self.server_settings(store, guild_id)).get(IMAGES_KEY))
        return self.default_on if choice is None else choice

    async def private_on(self, store: Store, guild_id: int, user_id: int | None) -> bool:
        """Whether what only ``user_id`` sees shows pictures: their choice, else the server's."""
        if user_id is not None:
            mine = parse_choice((await self.user_settings(store, user_id)).get(IMAGES_KEY))
            if mine is not None:
                return mine
        return await self.public_on(store, guild_id)

    # --- rendering ----------------------------------------------------------------------------

    async def render(self, key: RenderKey, draw: Draw) -> bytes | None:
        """The picture under ``key``: from the cache, or drawn by ``draw`` in the pool."""
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes | None] = loop.create_future()
        self._pending[key] = future
        try:
            try:
                data = await loop.run_in_executor(self._executor(), draw)
            except concurrent.futures.BrokenExecutor:
                self._pool = None  # a worker died (killed, out of memory): start afresh
                raise
            if data is not None:
                self.cache.put(key, data)
            future.set_result(data)
            return data
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        finally:
            del self._pending[key]

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self._processes:
                # spawn: a fork of a process with an event loop and threads is not safe.
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self._processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                )
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(
                    max_workers=self._workers, thread_name_prefix="picture"
                )
        return self._pool

    def start(self) -> None:
        """Start the workers now (a process pool takes a moment to import the renderers)."""
        self._executor().submit(_warm)

    def close(self) -> None:
        """Stop the render threads (renders not started yet are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


async def _attachment(
    pictures: Pictures, key: RenderKey, draw: Draw, filename: str, alt: str
) -> Attachment | None:
    try:
        data = await pictures.render(key, draw)
    except Exception:
        # A picture is an extra: the message goes out as text, the error is logged once.
        log.exception("could not draw %s (session %s)", filename, key[0])
        return None
    return None if data is None else Attachment(filename, data, alt)


def _with_picture(render: Render, attachment: Attachment | None) -> Render:
    """``render`` with ``attachment`` as its first embed's image (none: files emptied)."""
    if attachment is None:
        return replace(render, files=[])
    embeds = list(render.embeds)
    if embeds:
        first = embeds[0].copy()
        first.set_image(url=attachment.url)
        embeds[0] = first
    return replace(render, embeds=embeds, files=[attachment])


def without_picture(render: Render) -> Render:
    """The text render with no files (an edit removes an earlier picture)."""
    return replace(render, files=[])


async def table_attachment(
    pictures: Pictures, ui: GameUI, session: Session, words: Words
) -> Attachment | None:
    """The picture of a public table (its last state once finished: the final picture goes on
    the final post, ``cogs.final_post``); None for lobbies, closed tables and UIs without
    images."""
    if session.status not in (Status.ACTIVE, Status.FINISHED) or not isinstance(ui, DrawsImages):
        return None
    key: RenderKey = (session.id, session.version, ("table", words.language))
    alt = words.gettext("{game}: the table as a picture; the text above says the same.",
                        game=ui.title)
    draw = functools.partial(draw_picture, ui, "table_image", session, words.language)
    return await _attachment(pictures, key, draw, TABLE_FILE, alt)


async def final_attachment(
    pictures: Pictures, ui: GameUI, session: Session, words: Words
) -> Attachment | None:
    """The final picture of a finished game (``DrawsFinalPicture``), for its final post."""
    if session.status is not Status.FINISHED or not isinstance(ui, DrawsFinalPicture):
        return None
    key: RenderKey = (session.id, session.version, ("final", words.language))
    alt = words.gettext("{game}: the final scores as a picture.", game=ui.title)
    draw = functools.partial(draw_picture, ui, "final_picture", session, words.language)
    return await _attachment(pictures, key, draw, FINAL_FILE, alt)


async def hand_attachment(
    pictures: Pictures, ui: GameUI, session: Session, viewer: PlayerId, words: Words
) -> Attachment | None:
    """The picture of ``viewer``'s own view of a running game (None otherwise)."""
    if session.status is not Status.ACTIVE or not isinstance(ui, DrawsImages):
        return None
    key: RenderKey = (session.id, session.version, ("hand", viewer, words.language))
    alt = words.gettext("{game}: your hand as a picture, numbered as the controls.",
                        game=ui.title)
    draw = functools.partial(draw_picture, ui, "hand_image", session, words.language, viewer)
    return await _attachment(pictures, key, draw, HAND_FILE, alt)


async def with_table_picture(
    pictures: Pictures, ui: GameUI, session: Session, render: Render, words: Words | None
) -> Render:
    """The table ``render`` with its picture in ``words``' language, or (``words`` None:
    pictures off) exactly as text, with its files emptied."""
    if words is None:
        return without_picture(render)
    return _with_picture(render, await table_attachment(pictures, ui, session, words))


async def with_hand_picture(
    pictures: Pictures, ui: GameUI, session: Session, viewer: PlayerId, render: Render,
    words: Words | None,
) -> Render:
    """A private ``render`` with ``viewer``'s hand picture, or (``words`` None) as text."""
    if words is None:
        return without_picture(render)
    return _with_picture(render, await hand_attachment(pictures, ui, session, viewer, words))
