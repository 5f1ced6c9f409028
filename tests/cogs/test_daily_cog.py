"""/daily through the cogs: a private table (no channel request) from the command, its end
(score, the server's board, the best score, the streak, Share once), a second try refused
with the next deal's time, the board, a past day's replay (never today's), the streak in
/stats, and each language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import discord
import pytest

from bot.daily.service import DailyDeals
from bot.records.session import SessionKind
from bot.reviews.reviewer import FAILED, PENDING, Stored
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.click_context import enter
from cogs.daily.commands import DailyCog
from cogs.kit.refusal_texts import WRONG_TABLE
from cogs.leaderboard.commands import LeaderboardCog
from cogs.rendering.replay_pages import export_command
from tests.bot.conftest import FakeClock
from tests.cogs.conftest import ANA, BEN
from tests.cogs.private_table_fixture import PrivateServer, engines
from tests.fakes import FakeGuild, FakeInteraction, FakeMessage, FakeUser, Sent, click

NOON = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
NEXT_DEAL = int(datetime(2026, 12, 3, tzinfo=UTC).timestamp())


class DailyServer(PrivateServer):
    def __init__(self, manager: SessionManager, clock: FakeClock) -> None:
        super().__init__(manager)
        self.clock = clock
        self.daily = DailyDeals(manager, secret="cog test secret")
        self.cog = DailyCog(self.client.services, self.daily)
        self.client.services.features.register(self.cog.feature())  # as its cog_load does

    async def command(self, name: str, user: FakeUser, locale: discord.Locale =
                      discord.Locale.american_english, **params: object) -> FakeInteraction:
        ia = self.interaction(user, locale=locale)
        await self.cog.interaction_check(ia)  # type: ignore[arg-type]
        await getattr(DailyCog, name).callback(self.cog, ia, **params)
        await self.idle()
        return ia

    async def play_daily(self, user: FakeUser, game: str = "ten") -> tuple[FakeInteraction, Sent]:
        ia = await self.command("play", user, game=game)
        assert ia.original is not None and ia.sent[0].ephemeral
        final = await self.play_through(user, self.daily_session(user, ia), ia.original,
                                        ia.sent[0])
        return ia, final

    def daily_session(self, user: FakeUser, ia: FakeInteraction) -> int:
        """The live daily of ``user`` (the one the command showed)."""
        [session] = self.manager.private_of(str(user.id), SessionKind.DAILY)
        return session.id


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[DailyServer]:
    store = await open_store(tmp_path / "daily.sqlite3")
    clock = FakeClock()
    clock.now = NOON
    yield DailyServer(SessionManager(store, engines(), clock=clock), clock)
    await store.close()


def share_id(sent: Sent) -> str:
    [found] = [str(item.custom_id) for item in sent.view.children  # type: ignore[union-attr]
               if str(getattr(item, "custom_id", "")).startswith("tb:dshare:")]
    return found


async def test_a_whole_daily_then_share_once_and_a_second_try_refused(
    server: DailyServer,
) -> None:
    ia, final = await server.play_daily(ANA)
    assert server.channel_traffic() == []  # played privately: no channel request at all
    assert "Your score: **" in final.text and "This server's board" in final.text
    assert f"<@{ANA.id}>" in final.text and "Best score across all servers" in final.text
    assert "1 day in a row (best 1)" in final.text
    assert f"<t:{NEXT_DEAL}:R>" in final.text
    assert ia.original is not None
    elsewhere = server.interaction(ANA, ia.original, guild=FakeGuild(id=2))
    await click(elsewhere, share_id(final))  # a forged Share on another server
    assert elsewhere.last.ephemeral
    assert elsewhere.last.text == "That game was played in another server."
    shared = server.interaction(ANA, ia.original)
    await click(shared, share_id(final))
    post = shared.last
    assert post.kind == "send_message" and not post.ephemeral
    assert f"<@{ANA.id}> played the daily TEN deal of" in post.text and "streak" in post.text
    assert post.allowed_mentions is not None and not post.allowed_mentions.users
    again = server.interaction(ANA, ia.original)
    await click(again, share_id(final))
    assert again.last.ephemeral and "shared this deal already" in again.last.text
    other = server.interaction(BEN, ia.original)
    await click(other, share_id(final))
    assert other.last.ephemeral and "another player's daily deal" in other.last.text

    second = await server.command("play", ANA, game="ten")
    assert second.last.ephemeral
    assert "You have played today's deal" in second.last.text
    assert f"<t:{NEXT_DEAL}:R>" in second.last.text


async def test_an_unfinished_daily_resumes_with_a_new_message(server: DailyServer) -> None:
    first = await server.command("play", ANA, game="split")
    session_id = server.daily_session(ANA, first)
    again = await server.command("play", ANA, game="split")
    assert again.last.ephemeral and again.last.kind == "send_message"
    assert server.daily_session(ANA, again) == session_id
    live = server.manager.get(session_id)
    assert live is not None and [s.bot_level for s in live.seats] == [None, "expert", "expert"]
    assert server.channel_traffic() == []


async def test_the_board_and_a_replay_only_once_the_day_is_over(server: DailyServer) -> None:
    await server.play_daily(ANA)
    await server.play_daily(BEN)
    board = await server.command("board", ANA, game="ten")
    assert not board.last.ephemeral
    assert f"<@{ANA.id}>" in board.last.text and f"<@{BEN.id}>" in board.last.text
    refused = await server.command("replay", ANA, game="ten", day="2026-12-02")
    assert refused.last.ephemeral and "once its day is over" in refused.last.text
    assert f"<t:{NEXT_DEAL}:R>" in refused.last.text
    # Nor through a forged Replay button or /game export while the day runs (its cards).
    [ben_daily] = [p.session_id for p in await server.daily.board(1, "ten", NOON.date())
                   if p.user_id == str(BEN.id)]
    forged = server.interaction(ANA)
    await click(forged, f"tb:rp:{ben_daily}:0:o")
    assert forged.last.ephemeral and "once its day is over" in forged.last.text
    export = server.interaction(BEN)
    enter(export, server.client.services)  # type: ignore[arg-type]  # as /game's cog does
    await export_command(export, ben_daily)  # type: ignore[arg-type]
    assert export.last.ephemeral and "once its day is over" in export.last.text
    # Nor through a forged Table/Scores button or Rematch in the channel it was played from.
    for forged_id in (f"tb:info:{ben_daily}:table", f"tb:info:{ben_daily}:scores",
                      f"tb:rematch:{ben_daily}"):
        peek = server.interaction(ANA)
        await click(peek, forged_id)
        assert peek.last.ephemeral and "Your score" not in peek.last.text, forged_id
        assert len(peek.sent) == 1 and not peek.last.embeds, forged_id
    assert server.manager.in_channel(100) is None  # no rematch lobby opened
    bad = await server.command("replay", ANA, game="ten", day="2026-02-30")
    assert bad.last.ephemeral and "YYYY-MM-DD" in bad.last.text
    server.clock.advance(days=1)  # midnight has passed: yesterday's deal may be watched
    shown = await server.command("replay", ANA, game="ten")
    assert shown.last.ephemeral and shown.last.kind == "send_message"
    assert any(str(c).startswith("tb:rp:") for c in shown.last.custom_ids)
    nobody = await server.command("replay", ANA, game="split")
    assert nobody.last.ephemeral and "Nobody in this server finished" in nobody.last.text
    # A new day, a new deal.
    fresh = await server.command("play", ANA, game="ten")
    assert fresh.sent[0].kind == "send_message" and fresh.sent[0].ephemeral
    assert "You have played" not in fresh.sent[0].text


async def test_the_streak_shows_in_stats(server: DailyServer) -> None:
    await server.play_daily(ANA)
    server.clock.advance(days=1)
    await server.play_daily(ANA)
    ia = server.interaction(ANA)
    ia.client.leaderboards = _Leaderboards()  # type: ignore[attr-defined]
    cog = LeaderboardCog(server.client.services)
    await LeaderboardCog.stats.callback(cog, ia, game="ten")  # type: ignore[arg-type]
    assert "Daily deal streaks" in ia.last.text
    assert "TEN: 2 days in a row (best 2)" in ia.last.text


class _Leaderboards:
    """/stats' reads with nothing on the ordinary boards (a daily is never counted there)."""

    def is_cached(self, guild_id: int, game: str) -> bool:
        return True

    async def board(self, guild_id: int, game: str, period: str, *, min_games: int) -> object:
        from bot.rankings.leaderboard import Board
        return Board(guild_id=guild_id, game=game, period=period, since=None, standings=[],
                     min_games=min_games)  # type: ignore[call-arg]

    async def recent_games(self, *args: object) -> list[object]:
        return []

    async def season_titles(self, *args: object) -> list[object]:
        return []


@pytest.mark.parametrize(("language", "score", "played"), [
    (None, "Your score: **", "You have played today's deal."),
    ("es", "Tu puntuación: **", "Ya has jugado el reparto de hoy."),
    ("sq", "Rezultati juaj: **", "E keni luajtur shpërndarjen e sotme."),
    ("gu", "તમારો સ્કોર: **", "તમે આજની બાજી રમી લીધી છે."),
])
async def test_each_language(server: DailyServer, language: str | None, score: str,
                             played: str) -> None:
    if language is not None:
        await server.manager.store.set_user_setting(ANA.id, "language", language, at=NOON)
    _, final = await server.play_daily(ANA)
    assert score in final.text, final.text
    assert share_id(final)
    again = await server.command("play", ANA, game="ten")
    assert again.last.ephemeral and played in again.last.text, again.last.text
    assert f"<t:{NEXT_DEAL}:R>" in again.last.text


class AskedReviews:
    """The reviewer's place: records the reviews asked for (none is ever computed)."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, str]] = []

    async def on_change(self, change: object) -> None:
        return None

    async def request(self, session_id: int, player: str) -> Stored:
        self.asked.append((session_id, player))
        return Stored(PENDING)

    async def wait(self, session_id: int, player: str) -> Stored:
        return Stored(FAILED)


async def test_my_review_of_todays_daily_is_refused_and_nothing_is_asked(
    server: DailyServer,
) -> None:
    reviews = AskedReviews()
    server.client.reviews = reviews  # type: ignore[attr-defined]
    await server.play_daily(ANA)
    [play] = await server.daily.board(1, "ten", NOON.date())
    forged = server.interaction(ANA)
    await click(forged, f"tb:rv:{play.session_id}:0:o")
    assert forged.last.ephemeral
    assert forged.last.text == "That daily deal can be replayed or exported once its day is over."
    assert reviews.asked == []


async def test_a_private_tables_control_on_a_public_message_is_refused(
    server: DailyServer,
) -> None:
    # Clicked on a channel message (a forged control), it would draw today's deal there.
    ia = await server.command("play", ANA, game="ten")
    session = server.manager.get(server.daily_session(ANA, ia))
    assert session is not None and ia.original is not None
    shown = ia.original.edits[-1] if ia.original.edits else ia.sent[0]
    [act, *_] = [c for c in shown.custom_ids if c.startswith("tb:act:")]
    forged = server.interaction(ANA, FakeMessage(server.channel))
    await click(forged, act)
    await server.idle()
    assert forged.last.kind == "send_message" and forged.last.ephemeral
    assert forged.last.text == WRONG_TABLE
    assert server.manager.get(session.id) == session  # nothing changed
    assert server.channel_traffic() == []
