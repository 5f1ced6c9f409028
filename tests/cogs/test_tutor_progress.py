"""The tutors of /learn games rebuilt from the store: the same rules met as a tutor that
followed the game live, after a restart (a new cache), for two draws at once, and for a late
draw of an older version."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.records.session import SessionKind, Status
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.learn.tutor_progress import TutorCache
from game.registry import teachers
from game.tutor import LEARN_DEALS
from tests.cogs.conftest import ANA
from tests.cogs.private_table_fixture import PrivateServer, engines


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[PrivateServer]:
    store = await open_store(tmp_path / "tutors.sqlite3")
    yield PrivateServer(SessionManager(store, engines()))
    await store.close()


async def _played(server: PrivateServer, moves: int, follow: TutorCache | None = None) -> int:
    """A /learn SPLIT game with ``moves`` of the learner's moves (the suggestions) played;
    ``follow`` draws the tutor before each of them, as the learner's message does."""
    deal = LEARN_DEALS["split"]
    session = await server.open(ANA, "split", deal.seats - 1, seed=deal.seed,
                                 kind=SessionKind.LEARN)
    me = str(ANA.id)
    for _ in range(moves):
        await server.idle()
        live = server.manager.get(session.id)
        assert live is not None and live.status is Status.ACTIVE
        if follow is not None:
            drawn = await follow.tutor(server.manager.store, server.manager.engine("split"),
                                       live, me)
            drawn.now()
        seat = live.state.players.index(me)
        await server.manager.act(live.id, me, live.version,
                                 teachers()["split"].suggestion(live.state, seat))
    await server.idle()
    return session.id


async def test_a_new_cache_rebuilds_what_the_learner_met(server: PrivateServer) -> None:
    followed = TutorCache()
    session_id = await _played(server, 12, followed)
    live = server.manager.get(session_id)
    assert live is not None
    engine = server.manager.engine("split")
    first = await followed.tutor(server.manager.store, engine, live, str(ANA.id))
    first.now()
    rebuilt = await TutorCache().tutor(server.manager.store, engine, live, str(ANA.id))
    rebuilt.now()
    assert rebuilt.met == first.met and len(first.met) >= 5
    assert rebuilt.state.model_dump() == live.state.model_dump()


async def test_two_draws_at_once_follow_the_game_once(server: PrivateServer) -> None:
    session_id = await _played(server, 6)
    live = server.manager.get(session_id)
    assert live is not None
    cache = TutorCache()
    engine = server.manager.engine("split")
    one, two = await asyncio.gather(
        cache.tutor(server.manager.store, engine, live, str(ANA.id)),
        cache.tutor(server.manager.store, engine, live, str(ANA.id)),
    )
    assert one is two
    assert one.state.model_dump() == live.state.model_dump()


async def test_a_late_draw_of_an_older_version_sees_that_version(
    server: PrivateServer
) -> None:
    deal = LEARN_DEALS["split"]
    session = await server.open(ANA, "split", deal.seats - 1, seed=deal.seed,
                                kind=SessionKind.LEARN)
    await server.idle()
    older = server.manager.get(session.id)
    assert older is not None
    me = str(ANA.id)
    seat = older.state.players.index(me)
    await server.manager.act(older.id, me, older.version,
                             teachers()["split"].suggestion(older.state, seat))
    await server.idle()
    newer = server.manager.get(session.id)
    assert newer is not None and newer.version > older.version
    cache = TutorCache()
    engine = server.manager.engine("split")
    latest = await cache.tutor(server.manager.store, engine, newer, me)
    late = await cache.tutor(server.manager.store, engine, older, me)
    assert late.state.model_dump() == older.state.model_dump()
    again = await cache.tutor(server.manager.store, engine, newer, me)
    assert again is latest
