"""The My review button through the cog fakes on a real SPLIT game: a non-player refused, a
player's first click answered "being prepared" and edited into the review once it is stored,
the next click shown at once, a page out of range and paging on another message refused."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import discord
import pytest

from bot.reviews.analysis import review_json
from bot.reviews.pool import ReviewPool
from bot.reviews.reviewer import Reviewer
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.kit.page_controls import NOT_THIS_MESSAGE
from cogs.reviews.review_pages import NOT_A_PLAYER, PAGE_GONE
from game.split import SplitEngine
from tests.cogs.conftest import ANA, BEN, CY
from tests.cogs.split_table_fixture import SEED, SplitTable
from tests.cogs.test_replay import finish
from tests.fakes import FakeInteraction, Sent
from tests.fakes import click as fake_click


class InProcessPool(ReviewPool):
    """The review computed in the test's process (the worker pool has its own tests)."""

    def __init__(self) -> None:
        super().__init__(1)

    async def review(self, export_json: str, player: str, cpu_seconds: float) -> str | None:
        return await asyncio.to_thread(review_json, export_json, player, cpu_seconds)


@pytest.fixture
async def split(tmp_path: Path) -> AsyncIterator[SplitTable]:
    store = await open_store(tmp_path / "review.sqlite3")
    manager = SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: SEED)
    table = SplitTable(manager)
    reviewer = Reviewer(store, InProcessPool(), 0.5, lambda: datetime.now(UTC))
    reviewer.start()
    table.client.reviews = reviewer  # type: ignore[attr-defined]
    yield table
    await reviewer.close()
    await store.close()


def final_post(split: SplitTable) -> Sent:
    return next(s for s in reversed(split.channel.sent)
                if any(i.startswith("tb:rv:") for i in s.custom_ids))


async def click(split: SplitTable, user: object, message: object, custom_id: str
                ) -> FakeInteraction:
    ia = split.interaction(user, message)  # type: ignore[arg-type]
    await fake_click(ia, custom_id, None)
    return ia


async def test_my_review_from_the_final_post(split: SplitTable) -> None:
    await finish(split)
    sid = split.session_id
    post = final_post(split)
    button = f"tb:rv:{sid}:0:o"
    assert button in post.custom_ids

    stranger = await click(split, CY, post.message, button)
    assert stranger.last.ephemeral and stranger.last.content == NOT_A_PLAYER

    first = await click(split, ANA, post.message, button)
    assert first.last.ephemeral and "being prepared" in (first.last.content or "")
    async with asyncio.timeout(60):
        while first.last.kind != "edit_original":
            await asyncio.sleep(0.02)
    shown = first.last
    assert shown.embeds[0].title == "Your review · SPLIT" and not shown.content

    again = await click(split, ANA, post.message, button)
    assert again.last.kind != "edit_original" and again.last.ephemeral
    assert again.last.embeds[0].title == "Your review · SPLIT"
    review = again.last.message
    assert review is not None and review.flags.ephemeral

    beyond = await click(split, ANA, review, f"tb:rv:{sid}:99:n")
    assert beyond.last.content == PAGE_GONE
    forged = await click(split, ANA, post.message, f"tb:rv:{sid}:1:n")
    assert forged.last.content == NOT_THIS_MESSAGE.text


class HeldPool(InProcessPool):
    """Reviews that wait for ``release`` (the backlog stays full meanwhile)."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()

    async def review(self, export_json: str, player: str, cpu_seconds: float) -> str | None:
        await self.release.wait()
        return await super().review(export_json, player, cpu_seconds)


@pytest.mark.parametrize(("locale", "words"), [
    (discord.Locale.american_english, "too many reviews"),
    (discord.Locale.spain_spanish, "demasiadas revisiones"),
])
async def test_my_review_past_the_backlog_is_answered_busy_privately(
    split: SplitTable, locale: discord.Locale, words: str
) -> None:
    await finish(split)
    sid = split.session_id
    pool = HeldPool()
    reviewer = Reviewer(split.manager.store, pool, 0.5, lambda: datetime.now(UTC), backlog=1)
    reviewer.start()
    split.client.reviews = reviewer  # type: ignore[attr-defined]
    post = final_post(split)
    button = f"tb:rv:{sid}:0:o"
    try:
        first = await click(split, ANA, post.message, button)
        assert first.last.ephemeral and "being prepared" in (first.last.content or "")
        ia = split.interaction(BEN, post.message, locale=locale)
        await fake_click(ia, button, None)
        assert ia.last.ephemeral and words in (ia.last.content or "")
        assert await split.manager.store.pending_reviews() == [(sid, str(ANA.id))]
        pool.release.set()  # Ana's review is stored: the backlog has room again
        async with asyncio.timeout(60):
            while first.last.kind != "edit_original":
                await asyncio.sleep(0.02)
        again = await click(split, BEN, post.message, button)
        assert "being prepared" in (again.last.content or "")
    finally:
        await reviewer.close()
