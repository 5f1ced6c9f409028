from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.rankings.leaderboard import Leaderboards
from bot.records.session import Seat
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from cogs.leaderboard.commands import LeaderboardCog
from tests.bot.test_leaderboard import finish
from tests.fakes import (
    FakeClient,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    click,
    invoke,
    message_with,
)
from tests.testgame import Add, CountEngine, CountUI

NOW = datetime(2024, 5, 15, 12, 0, tzinfo=UTC)
ALL, MONTH, WEEK = (app_commands.Choice(name=p, value=p) for p in ("all", "month", "week"))
ANA = FakeUser(1, "Ana")


class Room:
    def __init__(self, store: Store, min_games: int) -> None:
        self.store = store
        self.manager = SessionManager(store, {"count": CountEngine()}, clock=lambda: NOW,
                                      seed_source=lambda: 7)
        self.client = FakeClient(self.manager, {"count": CountUI(CountEngine())})
        # The environment's minimum, which a server's /config may change.
        self.client.settings = self.client.settings.model_copy(
            update={"leaderboard_min_games": min_games})
        self.client.leaderboards = Leaderboards(  # type: ignore[attr-defined]
            store, min_games=min_games, clock=lambda: NOW
        )
        self.cog = LeaderboardCog(self.client.services)

    def interaction(self, user: FakeUser = ANA, message: FakeMessage | None = None,
                    guild: int = 1, channel: int = 100) -> FakeInteraction:
        return FakeInteraction(self.client, user=user, channel=self.client.channel(channel),
                               guild=FakeGuild(guild), message=message)

    async def click(self, custom_id: str, message: FakeMessage, guild: int = 1) -> Any:
        return (await self.click_interaction(custom_id, message, guild)).last

    async def click_interaction(
        self, custom_id: str, message: FakeMessage, guild: int = 1
    ) -> FakeInteraction:
        ia = self.interaction(message=message, guild=guild)
        ia.original = message  # a component's original response is the message it sits on
        await click(ia, custom_id)  # the page button as the leaderboard registers it
        return ia


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[Room]:
    store = await open_store(tmp_path / "board.sqlite3")
    yield Room(store, min_games=1)
    await store.close()


async def twelve_games(store: Store) -> None:
    """24 players: 100+n beat 200+n in game n."""
    for n in range(12):
        await finish(store, {str(100 + n): 1, str(200 + n): 2}, NOW - timedelta(hours=20 - n),
                     channel=100)


def buttons(sent: Any) -> list[tuple[str, bool]]:
    return [(item.custom_id, item.disabled) for item in sent.view.children]


async def test_leaderboard_is_public_and_pages_with_buttons(room: Room) -> None:
    await twelve_games(room.store)
    ia = room.interaction()
    await invoke(LeaderboardCog.leaderboard, room.cog, ia, game="count", period=ALL)
    # Nothing cached yet: the full replay runs behind a deferred ("thinking") response.
    assert [(sent.kind, sent.ephemeral) for sent in ia.sent] == [
        ("defer", False), ("followup", False)
    ]
    ia = room.interaction()
    await invoke(LeaderboardCog.leaderboard, room.cog, ia, game="count", period=ALL)
    first = ia.last
    assert first.kind == "send_message" and not first.ephemeral
    assert first.text == ia.sent[-1].text
    assert "COUNT leaderboard · all time" in first.text
    assert "**1.** <@100>" in first.text and "Page 1 of 3" in first.text
    assert "1 game · 1 win (100%) · best 10 · avg 10.0" in first.text
    assert buttons(first) == [
        ("tb:lb:1:count:all:0:p", True), ("tb:lb:1:count:all:1:n", False)
    ]
    assert first.embeds[0].description.count("\n") == 9  # ten players a page

    second = await room.click("tb:lb:1:count:all:1:n", first.message)
    assert second.kind == "edit_message" and "Page 2 of 3" in second.text
    assert buttons(second) == [
        ("tb:lb:1:count:all:0:p", False), ("tb:lb:1:count:all:2:n", False)
    ]
    back = await room.click("tb:lb:1:count:all:0:p", first.message)
    assert back.text == first.text

    # An old message still pages after new games (and a restart): it re-queries and clamps.
    await finish(room.store, {"100": 1, "999": 2}, NOW - timedelta(minutes=5))
    last = await room.click("tb:lb:1:count:all:7:n", first.message)
    assert "Page 3 of 3" in last.text
    assert buttons(last)[1] == ("tb:lb:1:count:all:2:n", True)
    top = await room.click("tb:lb:1:count:all:0:p", first.message)
    assert "2 games · 2 wins (100%)" in top.text
    pages = [await room.click(f"tb:lb:1:count:all:{n}:n", first.message) for n in range(3)]
    assert sum(page.text.count("<@999>") for page in pages) == 1

    # After a restart the cache is empty: the click defers, then edits the same message.
    room.client.leaderboards = Leaderboards(  # type: ignore[attr-defined]
        room.store, min_games=1, clock=lambda: NOW
    )
    ia = await room.click_interaction("tb:lb:1:count:all:1:n", first.message)
    assert [sent.kind for sent in ia.sent] == ["defer", "edit_original"]
    assert ia.last.message is first.message and ia.last.text == pages[1].text


async def test_players_below_the_minimum_come_after_the_ranked(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "min.sqlite3")
    try:
        room = Room(store, min_games=2)
        for minute in range(2):
            await finish(store, {"1": 1, "2": 2}, NOW - timedelta(minutes=10 - minute))
        await finish(store, {"3": 1, "1": 2}, NOW - timedelta(minutes=1))
        ia = room.interaction()
        await invoke(LeaderboardCog.leaderboard, room.cog, ia, game="count", period=WEEK)
        lines = ia.last.embeds[0].description.splitlines()
        assert lines[0].startswith("**1.** <@1>") and lines[1].startswith("**2.** <@2>")
        assert lines[2] == "*Fewer than 2 rated games (not ranked yet):*"
        assert lines[3].startswith("– <@3> · 1 rated · 1 game · 1 win")
        assert "Week (from Monday): since May 13, 2024, 00:00 UTC" in ia.last.text
    finally:
        await store.close()


async def test_empty_board_and_refusals(room: Room) -> None:
    ia = room.interaction()
    await invoke(LeaderboardCog.leaderboard, room.cog, ia, game="count", period=MONTH)
    assert "No finished games here for this period yet." in ia.last.text
    assert "Month: since May 1, 2024, 00:00 UTC" in ia.last.text
    assert buttons(ia.last) == [
        ("tb:lb:1:count:month:0:p", True), ("tb:lb:1:count:month:0:n", True)
    ]
    ia = room.interaction()
    await invoke(LeaderboardCog.leaderboard, room.cog, ia, game="chess", period=ALL)
    assert ia.last.ephemeral and "chess" in ia.last.text
    page = "tb:lb:1:count:all:0:n"
    other_guild = await room.click(page, message_with(None, page), guild=2)
    assert other_guild.ephemeral and "another server" in other_guild.text


async def test_stats_shows_record_rating_rank_and_last_games(room: Room) -> None:
    for minute in range(6):
        second = minute in (1, 3)
        await finish(room.store, {"1": 1 + second, "2": 2 - second, "3": 3},
                     NOW - timedelta(minutes=60 - minute), scores={"1": minute, "2": 0, "3": 0})
    ia = room.interaction()
    await invoke(LeaderboardCog.stats, room.cog, ia, user=None, game=None)
    sent = ia.last
    assert sent.ephemeral
    assert "Ana in this server" in sent.text and "<@1>" in sent.text
    assert "6 games · 4 wins (67%)" in sent.text and "best 5 · average 2.5" in sent.text
    assert "rank **1** of 3" in sent.text
    last_games = sent.embeds[0].fields[-1]
    assert last_games.name == "Last games"
    assert last_games.value.splitlines() == [
        "May 15, 2024 · COUNT · #1 of 3 · 5", "May 15, 2024 · COUNT · #1 of 3 · 4",
        "May 15, 2024 · COUNT · #2 of 3 · 3", "May 15, 2024 · COUNT · #1 of 3 · 2",
        "May 15, 2024 · COUNT · #2 of 3 · 1",
    ]
    ia = room.interaction()
    await invoke(LeaderboardCog.stats, room.cog, ia, user=FakeUser(3, "Cy"), game="count")
    assert "Cy in this server" in ia.last.text and "rank **3** of 3" in ia.last.text
    ia = room.interaction()
    await invoke(LeaderboardCog.stats, room.cog, ia, user=FakeUser(9, "New"), game=None)
    assert "No finished games yet." in ia.last.text and "rank" not in ia.last.text


async def test_history_lists_the_channels_last_games(room: Room) -> None:
    manager = room.manager
    lobby = await manager.open_lobby(1, 100, "count", Seat(player_id="1", display_name="Ana"))
    await manager.join(lobby.id, Seat(player_id="bot:1", display_name="Robo", is_bot=True,
                                      bot_level="easy"))
    session = await manager.start(lobby.id, "1")
    player = "1"
    while (current := manager.get(session.id)) is not None:
        await manager.act(session.id, player, current.version, Add(add=2),
                          autopilot=player.startswith("bot"))
        player = "bot:1" if player == "1" else "1"
    await finish(room.store, {"7": 1, "8": 2}, NOW, channel=555)  # another channel
    ia = room.interaction()
    await invoke(LeaderboardCog.history, room.cog, ia)
    sent = ia.last
    assert sent.ephemeral and "Recent games in this channel" in sent.text
    (field,) = sent.embeds[0].fields
    assert field.name == "1. COUNT · May 15, 2024 · unrated"
    assert field.value.splitlines() == ["1. <@1> · 10", "2. Robo (bot) · 0"]
    assert sent.custom_ids == [f"tb:rp:{session.id}:0:o"]  # its Replay button
    empty = room.interaction(channel=101)
    await invoke(LeaderboardCog.history, room.cog, empty)
    assert "No finished games in this channel yet." in empty.last.text
