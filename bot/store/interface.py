"""The store's interface: sessions, the append-only action log and results, derived
standings, settings and a meta table. It knows none of its backends; ``bot.store`` opens one.

Exactly once, in order: a session write names the version it replaces. The row is updated
``WHERE id = ? AND version = ?`` in the transaction that also appends the action row (and,
when the game ends, the results and standings); when no row matched (another process or an
older copy wrote first) nothing is written and :class:`bot.records.errors.StaleWrite` is raised.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from bot.records.daily_play import DailyPlay
from bot.records.period_standings import DerivedLine
from bot.records.session import ActionRow, ResultRow, Session, Status
from bot.store.event_rows import EventStore

if TYPE_CHECKING:
    from bot.records.shards import ShardSet


class Store(EventStore, ABC):
    """Async access to the database. Open one with ``await bot.store.open_store(url_or_path)``."""

    backend: ClassVar[str]
    # What a broken constraint (unique, append-only, foreign key) raises on this backend.
    IntegrityError: ClassVar[type[Exception]]

    @abstractmethod
    async def close(self) -> None:
        """Close once the writes under way are committed."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def migrate(self) -> int:
        """Apply every migration not applied yet; returns the resulting version."""

    # --- sessions -------------------------------------------------------------------------

    @abstractmethod
    async def create_session(self, session: Session) -> Session:
        """Insert a new session; returns it with its database id."""

    @abstractmethod
    async def save_session(
        self, session: Session, *, expected_version: int | None = None
    ) -> None:
        """Overwrite a session's row with ``session`` (lobby changes, start, cancel, ...).

        The stored version must be ``expected_version``; when None, ``session.version - 1``
        or ``session.version`` itself (a change that keeps the version, such as the table
        message id). Otherwise :class:`StaleWrite` and nothing is written."""

    @abstractmethod
    async def record_action(
        self,
        session: Session,
        user_id: str,
        action: dict[str, object] | str,
        results: Iterable[ResultRow] = (),
    ) -> None:
        """Store one applied action atomically; returns once it is committed.

        ``session`` is the state after the action; its ``version`` is the action's ``seq``
        and the stored version must be the one before it (else :class:`StaleWrite`).
        ``results`` (when the action ended the game) are written in the same transaction,
        with the standings they change."""

    @abstractmethod
    async def load_sessions(
        self,
        statuses: Iterable[Status],
        *,
        raw_state: bool = False,
        shards: ShardSet | None = None,
    ) -> list[Session]:
        """Sessions with these statuses, oldest first. ``state`` is the decoded JSON (dict or
        None), or with ``raw_state`` the stored JSON text itself. With ``shards``, only the
        sessions of the guilds on those shards (``bot.records.shards``)."""

    @abstractmethod
    async def load_session(self, session_id: int) -> Session | None: ...

    # --- log, results, standings ------------------------------------------------------------

    @abstractmethod
    async def actions(self, session_id: int) -> list[ActionRow]: ...

    @abstractmethod
    async def results(
        self, guild_id: int, game: str, *, since: datetime | None = None
    ) -> list[ResultRow]:
        """Results of one game in one guild, in replay order."""

    @abstractmethod
    async def standings(self, guild_id: int, game: str, period_key: str) -> list[DerivedLine]:
        """The stored standings of one period (see ``bot.records.period_standings.period_key``)."""

    @abstractmethod
    async def rebuild_standings(
        self, guild_id: int | None = None, game: str | None = None
    ) -> int:
        """Recompute the standings from the results (all, or one guild's game) in one
        transaction; returns the number of results rows replayed."""

    @abstractmethod
    async def query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """Run a read-only statement with ``?`` placeholders (both backends' schemas have the
        same tables and columns; keep to SQL both dialects read)."""

    # --- seasons (bot.automation.season_watcher) -----------------------------------------------

    @abstractmethod
    async def claim_season(
        self, guild_id: int, season: str, champions: Mapping[str, str], *, owner: str,
        now: datetime, stale_before: datetime,
    ) -> bool:
        """Claim the end-of-season post of ``season`` in server ``guild_id`` for ``owner``, in
        one transaction: the first claim stores ``champions`` (game -> user id) with it; a
        claim that is not marked posted and was made before ``stale_before`` is taken over
        (its champions stay). True when ``owner`` now holds the claim; False when the post went
        out already or another owner's claim is still fresh."""

    @abstractmethod
    async def finish_season_post(
        self, guild_id: int, season: str, *, owner: str, message_id: int | None, at: datetime
    ) -> bool:
        """Mark ``owner``'s claim posted (``message_id``: the post, None when none could be
        made); False when the claim is no longer ``owner``'s or was marked already."""

    @abstractmethod
    async def season_titles(self, guild_id: int, user_id: str) -> list[tuple[str, str]]:
        """The seasons a player won in server ``guild_id``: (season name, game), newest first."""

    # --- a finished game's public messages (cogs.listeners.final_post) -------------------------

    @abstractmethod
    async def record_final_posts(self, session_id: int, messages: Mapping[int, str], *,
                                 at: datetime) -> None:
        """Keep the public messages finished ``session_id`` left in its channel: message id ->
        ``"post"`` (its final post) or ``"table"`` (its last table); kept once."""

    @abstractmethod
    async def is_final_post(self, message_id: int) -> bool:
        """Whether ``message_id`` is a finished game's final post or last table."""

    # --- the daily deal (bot.daily) ---------------------------------------------------------

    @abstractmethod
    async def claim_daily(self, play: DailyPlay) -> bool:
        """Store ``play`` (not dealt yet) unless its player has one of that game and day:
        True when this call stored it (once per player, game and day)."""

    @abstractmethod
    async def set_daily_session(self, game: str, day: date, user_id: str,
                                session_id: int) -> bool:
        """Record the session dealt for a claimed play; False when one was recorded already."""

    @abstractmethod
    async def finish_daily(self, session_id: int, score: int, at: datetime) -> bool:
        """Record the score of the play of ``session_id`` (once; False when it had one)."""

    @abstractmethod
    async def share_daily(self, session_id: int, at: datetime) -> bool:
        """Mark the finished play of ``session_id`` shared; False when it was, or is not
        finished."""

    @abstractmethod
    async def daily_play(self, game: str, day: date, user_id: str) -> DailyPlay | None: ...

    @abstractmethod
    async def daily_play_of(self, session_id: int) -> DailyPlay | None: ...

    @abstractmethod
    async def daily_board(self, guild_id: int, game: str, day: date,
                          limit: int) -> list[DailyPlay]:
        """The finished plays of one day in one server: best score first, then the earliest
        finished."""

    @abstractmethod
    async def daily_best(self, game: str, day: date) -> int | None:
        """The best score of that day's deal across every server (None: nobody finished)."""

    @abstractmethod
    async def daily_days(self, user_id: str, game: str) -> list[date]:
        """The days on which the player finished that game's daily deal, oldest first."""

    # --- reviews (bot.reviews: one row per game and player, its body stored once) ----------

    @abstractmethod
    async def queue_review(
        self, session_id: int, user_id: str, *, at: datetime
    ) -> tuple[str, str | None]:
        """Mark ``user_id``'s review of ``session_id`` pending unless a row exists; returns
        the row's status and body: ("pending", None), ("done", the review's JSON) or
        ("failed", None)."""

    @abstractmethod
    async def stored_review(self, session_id: int, user_id: str) -> tuple[str, str | None] | None:
        """The row's status and body, or None when the review was never asked for."""

    @abstractmethod
    async def pending_reviews(self, *, shards: ShardSet | None = None) -> list[tuple[int, str]]:
        """(session id, user id) of every pending review (with ``shards``: of their guilds),
        oldest first: the ones a crash or a stop interrupted."""

    @abstractmethod
    async def finish_review(
        self, session_id: int, user_id: str, body: str | None, *, at: datetime
    ) -> bool:
        """Store a pending review once: ``body`` its JSON, None when it could not be made
        (status "failed"). False when the row is not pending (stored already: never
        recomputed)."""

    # --- meta -------------------------------------------------------------------------------

    @abstractmethod
    async def get_meta(self, key: str) -> str | None: ...

    @abstractmethod
    async def set_meta(self, key: str, value: str) -> None: ...

    @abstractmethod
    async def claim_meta(self, key: str, value: str) -> str:
        """Store ``key = value`` unless the key has a value; returns the stored value (two
        processes that claim one key at once agree on the first)."""

    # --- per-server settings ----------------------------------------------------------------

    @abstractmethod
    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        """Every stored setting of server ``guild_id``, key -> value (unset keys absent)."""

    @abstractmethod
    async def set_guild_setting(
        self, guild_id: int, key: str, value: str, *, by: str, at: datetime
    ) -> None:
        """Store ``key = value`` for server ``guild_id``; ``by``: who changed it, ``at``: when."""

    # --- per-user settings (a person's own choices, e.g. language, wherever they play) ------

    @abstractmethod
    async def user_settings(self, user_id: int) -> dict[str, str]:
        """Every stored setting of user ``user_id``, key -> value (unset keys absent)."""

    @abstractmethod
    async def set_user_setting(
        self, user_id: int, key: str, value: str | None, *, at: datetime
    ) -> None:
        """Store ``key = value`` for user ``user_id``; ``value=None`` forgets the choice."""

