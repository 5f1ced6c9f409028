"""Pictures on the messages: the table image on the public table, the hand image on a
player's private view, the final picture on a game's final post (``cogs.listeners.final_post``).

The game UIs draw (``cogs.game_ui.DrawsImages`` / ``DrawsFinalPicture``); this module decides
whether a message gets a picture, renders it off the event loop and attaches it:

* whether: the server setting ``images`` (``on`` | ``off``; absent: the ``IMAGES``
  environment setting) for public messages; for what only one person sees, their own choice
  (user setting ``images``, set with ``/images``), else the server's. Off, a message is exactly
  its text render, with an empty list of files (an edit then removes an older picture).
* how: in a bounded pool of worker processes (``IMAGE_PROCESSES``, default 1; 0 = a pool of
  :data:`WORKERS` threads, as the tests use): a render is mostly Python (layout, painting)
  that holds the GIL, so in threads it would slow every other answer of the bot, while a
  process draws beside the event loop (``cogs.render_workers``: fed by the loop itself, no
  thread of the bot takes the GIL for a picture). A picture of a version the game has
  already left (``current``: a session's latest version) is not drawn once its turn comes:
  nobody would be shown it. Each result is kept in a bounded
  :class:`cogs.imaging.cache.RenderCache` by (session, version, viewer and language): the
  public table of one version is drawn once for every edit and copy of it. Two requests for
  the same picture at once share one render. Memory stays flat: the cache holds at most
  ``capacity`` images (finished games fall out like any other); settings are read through
  the bounded cache of ``cogs.i18n.settings_cache``, which ``/config`` and ``/images`` write
  through.
* where: the picture is the first embed's image (``attachment://table.png``); the embed's text
  stays as its caption and as the text for anyone who cannot see images. A render that fails
  leaves the message as text (and logs the error): a picture never stops a move.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.ops.metrics import METRICS
from bot.records.session import Session, Status
from cogs.game_ui import (
    DESCRIBES_PICTURES,
    DRAWS_FINAL_PICTURE,
    DRAWS_IMAGES,
    Attachment,
    GameUI,
    Render,
    able,
)
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.settings_cache import stored_settings
from cogs.i18n.words import Words
from cogs.imaging.cache import DEFAULT_CAPACITY, RenderCache, RenderKey
from cogs.render_workers import RenderWorkers
from game.base import PlayerId

if TYPE_CHECKING:
    from bot.sessions.manager import SessionManager
    from bot.store import Store

log = logging.getLogger(__name__)

IMAGES_KEY = "images"  # the server and the user setting
ON = "on"
OFF = "off"
CHOICES = (ON, OFF)
WORKERS = 2  # render threads: Pillow holds the GIL for much of a render, more would only queue
TABLE_FILE = "table.png"
HAND_FILE = "hand.png"
FINAL_FILE = "final.png"
WARM_MODULE = __name__  # what a worker process imports before its first picture

Draw = Callable[[], bytes | None]  # picklable (a partial of draw_picture) for the processes
# Session id -> its latest version (None: not running here); a newer one makes a picture stale.
CurrentVersion = Callable[[int], int | None]


def draw_picture(ui: GameUI, method: str, session: Session, language: Language,
                 *args: object) -> bytes | None:
    """``ui.<method>(session, *args, words)`` in a worker: a module-level function, so the
    call pickles to a worker process (the UI, the session and the language travel)."""
    drawn: bytes | None = getattr(ui, method)(session, *args, words_for(language))
    return drawn


def latest_version(manager: SessionManager, session_id: int) -> int | None:
    """The version of live session ``session_id`` (None once it is not live):
    :attr:`Pictures.current` of a running bot."""
    session = manager.get(session_id)
    return None if session is None else session.version


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
        self.current: CurrentVersion | None = None  # set by the table extension
        self._thread_pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._process_pool: RenderWorkers | None = None
        self._pending: dict[RenderKey, asyncio.Future[bytes | None]] = {}
        self._prerenders: set[asyncio.Future[bytes | None]] = set()

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

    def cached(self, key: RenderKey) -> bytes | None:
        """The picture under ``key`` if it is drawn already (nothing is started)."""
        return self.cache.get(key)

    def is_stale(self, key: RenderKey) -> bool:
        """Whether the game of ``key`` has moved past its version (a picture nobody sees)."""
        if self.current is None:
            return False
        latest = self.current(key[0])
        return latest is not None and latest > key[1]

    async def render(self, key: RenderKey, draw: Draw, *, droppable: bool = True) -> bytes | None:
        """The picture under ``key``: from the cache, or drawn by ``draw`` in the pool; None
        when (``droppable``) its version is stale by the time a worker is free for it."""
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
            started = time.perf_counter()
            with METRICS.pictures_in_progress.track_inprogress():
                data = await self._draw(key, draw, droppable)
            if data is not None:
                METRICS.picture_render.observe(time.perf_counter() - started)
                METRICS.pictures_drawn.labels(_kind(key)).inc()
                self.cache.put(key, data)
            future.set_result(data)
            return data
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        finally:
            del self._pending[key]

    def prerender(self, key: RenderKey, draw: Draw) -> None:
        """Start drawing ``key`` now, for an answer that will want it (errors are logged)."""
        if self.cache.get(key) is not None or key in self._pending:
            return
        task = asyncio.ensure_future(self.render(key, draw))
        self._prerenders.add(task)
        task.add_done_callback(self._prerendered)

    def _prerendered(self, task: asyncio.Future[bytes | None]) -> None:
        self._prerenders.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("could not draw a picture ahead: %s", task.exception())

    async def _draw(self, key: RenderKey, draw: Draw, droppable: bool) -> bytes | None:
        def wanted() -> bool:
            if not droppable or not self.is_stale(key):
                return True
            METRICS.pictures_skipped.labels(_kind(key)).inc()
            return False

        if self._processes:
            return await self._workers_pool().run(draw, wanted, key[0])
        if self._thread_pool is None:
            self._thread_pool = concurrent.futures.ThreadPoolExecutor(
                max_workers=self._workers, thread_name_prefix="picture"
            )
        # Asked when a thread is free for it, as a worker process asks (the threads' queue
        # can hold several versions of one game).
        return await asyncio.get_running_loop().run_in_executor(
            self._thread_pool, _draw_if, wanted, draw)

    def start(self) -> None:
        """Start the worker processes now (each takes a moment to import the renderers)."""
        if self._processes:
            self._workers_pool().start()

    def _workers_pool(self) -> RenderWorkers:
        if self._process_pool is None:
            self._process_pool = RenderWorkers(self._processes, warm=WARM_MODULE)
        return self._process_pool

    def close(self) -> None:
        """Stop the render workers (renders not started yet are dropped)."""
        for task in list(self._prerenders):
            task.cancel()
        if self._thread_pool is not None:
            self._thread_pool.shutdown(wait=False, cancel_futures=True)
            self._thread_pool = None
        if self._process_pool is not None:
            self._process_pool.close()
            self._process_pool = None


def _kind(key: RenderKey) -> str:
    """``table``, ``hand`` or ``final``: the first part of a render key's what."""
    what = key[2]
    return str(what[0]) if isinstance(what, tuple) and what else "other"


def _draw_if(wanted: Callable[[], bool], draw: Draw) -> bytes | None:
    """``draw()`` in a render thread, unless ``wanted()`` says nobody would see it by now."""
    return draw() if wanted() else None


@dataclass(frozen=True)
class PictureJob:
    """One picture to attach: its cache key, how to draw it, its file name and alt text."""

    key: RenderKey
    draw: Draw
    filename: str
    alt: str
    droppable: bool = True  # may be skipped once its version is stale (not a final picture)

    def attachment(self, data: bytes | None) -> Attachment | None:
        return None if data is None else Attachment(self.filename, data, self.alt)


async def _attachment(pictures: Pictures, job: PictureJob | None) -> Attachment | None:
    if job is None:
        return None
    try:
        data = await pictures.render(job.key, job.draw, droppable=job.droppable)
    except Exception:  # a picture is an extra: the message goes out as text
        # The error is logged once.
        log.exception("could not draw %s (session %s)", job.filename, job.key[0])
        return None
    return job.attachment(data)


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


def text_only(render: Render) -> Render:
    """``render`` for a reader with pictures off (the text-only mode): no files, and cards
    named in plain text, without their emojis (``cogs.kit.card_emojis``)."""
    # ``replace(render, files=[], emojis=False)`` written out, as ``cogs.game_ui.as_card``
    # does (issue 42, sixth pass).
    return Render(render.content, render.embeds, render.view, [], render.card, False)


def table_job(ui: GameUI, session: Session, words: Words) -> PictureJob | None:
    """The picture of a public table (its last state once finished: the final picture goes on
    the final post, ``cogs.listeners.final_post``); None for lobbies, closed tables and UIs without
    images."""
    if session.status not in (Status.ACTIVE, Status.FINISHED) or able(ui, DRAWS_IMAGES) is None:
        return None
    key: RenderKey = (session.id, session.version, ("table", words.language))
    describer = able(ui, DESCRIBES_PICTURES)
    alt = describer.table_alt(session, words) if describer is not None else words.gettext(
        "{game}: the table as a picture; the text above says the same.", game=ui.title)
    draw = functools.partial(draw_picture, ui, "table_image", session, words.language)
    return PictureJob(key, draw, TABLE_FILE, alt)


def final_job(ui: GameUI, session: Session, words: Words) -> PictureJob | None:
    """The final picture of a finished game (``DrawsFinalPicture``), for its final post."""
    if session.status is not Status.FINISHED or able(ui, DRAWS_FINAL_PICTURE) is None:
        return None
    key: RenderKey = (session.id, session.version, ("final", words.language))
    alt = words.gettext("{game}: the final scores as a picture.", game=ui.title)
    draw = functools.partial(draw_picture, ui, "final_picture", session, words.language)
    return PictureJob(key, draw, FINAL_FILE, alt, droppable=False)


def hand_job(ui: GameUI, session: Session, viewer: PlayerId, words: Words) -> PictureJob | None:
    """The picture of ``viewer``'s own view of a running game (None otherwise)."""
    if session.status is not Status.ACTIVE or able(ui, DRAWS_IMAGES) is None:
        return None
    key: RenderKey = (session.id, session.version, ("hand", viewer, words.language))
    describer = able(ui, DESCRIBES_PICTURES)
    alt = describer.hand_alt(session, viewer, words) if describer is not None else \
        words.gettext("{game}: your hand as a picture; the text says the same.", game=ui.title)
    draw = functools.partial(draw_picture, ui, "hand_image", session, words.language, viewer)
    return PictureJob(key, draw, HAND_FILE, alt)


async def table_attachment(
    pictures: Pictures, ui: GameUI, session: Session, words: Words
) -> Attachment | None:
    return await _attachment(pictures, table_job(ui, session, words))


async def final_attachment(
    pictures: Pictures, ui: GameUI, session: Session, words: Words
) -> Attachment | None:
    return await _attachment(pictures, final_job(ui, session, words))


async def hand_attachment(
    pictures: Pictures, ui: GameUI, session: Session, viewer: PlayerId, words: Words
) -> Attachment | None:
    return await _attachment(pictures, hand_job(ui, session, viewer, words))


def ready_picture(pictures: Pictures, job: PictureJob | None, render: Render) -> Render | None:
    """``render`` with the picture of ``job`` when there is nothing to wait for (drawn
    already, or no picture to draw); None while it still has to be drawn. Starts nothing:
    an answer calls this before its first callback."""
    if job is None:
        return _with_picture(render, None)
    data = pictures.cached(job.key)
    return None if data is None else _with_picture(render, job.attachment(data))


def prerender_hand(
    pictures: Pictures, ui: GameUI, session: Session, viewer: PlayerId, words: Words
) -> None:
    """Start drawing ``viewer``'s hand picture of this version, for the answer that will show
    it (their turn came: they open their hand, or their view follows the game)."""
    job = hand_job(ui, session, viewer, words)
    if job is not None:
        pictures.prerender(job.key, job.draw)


async def with_table_picture(
    pictures: Pictures, ui: GameUI, session: Session, render: Render, words: Words | None
) -> Render:
    """The table ``render`` with its picture in ``words``' language, or (``words`` None:
    pictures off) exactly as text, with its files emptied."""
    if words is None:
        return text_only(render)
    return _with_picture(render, await table_attachment(pictures, ui, session, words))


async def with_hand_picture(
    pictures: Pictures, ui: GameUI, session: Session, viewer: PlayerId, render: Render,
    words: Words | None,
) -> Render:
    """A private ``render`` with ``viewer``'s hand picture, or (``words`` None) as text."""
    if words is None:
        return text_only(render)
    return _with_picture(render, await hand_attachment(pictures, ui, session, viewer, words))
