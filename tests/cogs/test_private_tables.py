"""Private tables: one human against bot seats, played in ephemeral messages only. Not a
single request reaches a channel; the machine seats' moves edit the player's message; the
game is stored (results: none, so never rated nor counted) and resumes from the store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.automation.turn_clock import PRIVATE_IDLE
from bot.records.session import SessionKind, Status
from bot.sessions.manager import SessionManager
from bot.store import open_store
from tests.bot.conftest import FakeClock
from tests.cogs.conftest import ANA, BEN
from tests.cogs.private_table_fixture import CHANNEL, PrivateServer, engines
from tests.fakes import click


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[PrivateServer]:
    store = await open_store(tmp_path / "private.sqlite3")
    yield PrivateServer(SessionManager(store, engines()))
    await store.close()


@pytest.mark.parametrize(("game", "bots"), [("split", 2), ("ten", 1)])
async def test_a_private_table_plays_through_without_a_channel_request(
    server: PrivateServer, game: str, bots: int
) -> None:
    session = await server.open(ANA, game, bots)
    assert session.is_private and server.manager.in_channel(CHANNEL) is None
    ia = await server.show(ANA, session)
    first = ia.sent[0]
    assert first.kind == "send_message" and first.ephemeral
    assert ia.original is not None
    final = await server.play_through(ANA, session.id, ia.original, first)
    assert server.channel_traffic() == []
    stored = await server.manager.store.load_session(session.id)
    assert stored is not None and stored.status is Status.FINISHED
    assert stored.kind is SessionKind.DAILY
    assert await server.manager.store.results(1, game) == []  # never rated nor counted
    assert server.reviews.changes == []  # no review queued: it opens from a final post
    assert final.view is None or not [
        c for c in (getattr(i, "custom_id", "") for i in final.view.children)
        if str(c).startswith("tb:act:")]


async def test_machine_moves_edit_the_players_message(server: PrivateServer) -> None:
    session = await server.open(ANA, "split", 2)
    ia = await server.show(ANA, session)
    message = ia.original
    assert message is not None
    # After the player's moves the bot seats moved: their runs redrew the message through the
    # token of the player's latest interaction.
    await server.play_through(ANA, session.id, message, ia.sent[0], moves=3)
    edits = [sent.kind for sent in message.edits]
    assert "edit_original" in edits
    assert server.channel_traffic() == []


async def test_only_its_player_may_click_a_private_table(server: PrivateServer) -> None:
    session = await server.open(ANA, "ten", 1)
    ia = await server.show(ANA, session)
    assert ia.original is not None
    custom_id = next(str(item.custom_id) for item in ia.sent[0].view.children
                     if str(getattr(item, "custom_id", "")).startswith("tb:act:"))
    other = server.interaction(BEN, ia.original)
    await click(other, custom_id)
    assert other.last.ephemeral and other.last.kind == "send_message"
    assert server.manager.get(session.id).version == session.version  # nothing changed


async def test_a_private_table_survives_a_restart(server: PrivateServer,
                                                   tmp_path: Path) -> None:
    session = await server.open(ANA, "ten", 1)
    await server.idle()
    again = SessionManager(server.manager.store, engines())
    report = await again.restore()
    assert report.restored == 1
    restored = again.get(session.id)
    assert restored is not None and restored.kind is SessionKind.DAILY
    assert again.in_channel(CHANNEL) is None
    assert again.private_of(str(ANA.id), SessionKind.DAILY) == [restored]


async def test_an_idle_learn_table_ends_by_itself_without_a_word(tmp_path: Path) -> None:
    """An abandoned /learn: after PRIVATE_IDLE the turn clock ends it; its player's message is
    not edited (its token is long gone), nothing reaches a channel and no view is kept."""
    store = await open_store(tmp_path / "idle.sqlite3")
    clock = FakeClock()
    server = PrivateServer(SessionManager(store, engines(), clock=clock))
    try:
        session = await server.open(ANA, "split", 2, kind=SessionKind.LEARN)
        ia = await server.show(ANA, session)
        message = ia.original
        assert message is not None
        edits = len(message.edits)
        assert server.client.services.views.usable(session.id, str(ANA.id)) is not None
        clock.advance(seconds=PRIVATE_IDLE[SessionKind.LEARN].total_seconds())
        assert await server.turn_clock.tick() == 1
        await server.turn_clock.idle()
        await server.idle()
        assert server.manager.get(session.id) is None
        assert len(message.edits) == edits and server.channel_traffic() == []
        assert len(server.client.services.views) == 0
        stored = await store.load_session(session.id)
        assert stored is not None and stored.status is Status.ABANDONED
    finally:
        await store.close()
