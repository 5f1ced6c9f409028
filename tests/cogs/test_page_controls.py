"""Page controls (rules, leaderboard and replay pages) edit only a message of their own kind:
forged onto a running table or a final post they are refused, ephemeral, and the message
keeps its content and buttons (issue 34)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.kit.page_controls import NOT_THIS_MESSAGE
from tests.cogs.conftest import ANA, BEN, CY
from tests.cogs.test_channel_flow import Flow, finish
from tests.fakes import FakeMessage, message_with
from tests.testgame import CountEngine


@pytest.fixture
async def flow(tmp_path: Path) -> AsyncIterator[Flow]:
    store = await open_store(tmp_path / "flow.sqlite3")
    yield Flow(SessionManager(store, {"count": CountEngine()}, seed_source=lambda: 7))
    await store.close()


def forged_pages(session_id: int) -> list[str]:
    return ["tb:rules:count:1:n", "tb:lb:1:count:all:1:n", f"tb:rp:{session_id}:1:n",
            f"tb:rp:{session_id}:0:l"]


async def assert_untouched_by_pages(flow: Flow, message: FakeMessage, session_id: int) -> None:
    edits, view = len(message.edits), message.view
    for custom_id in forged_pages(session_id):
        answer = await flow.press(CY, message, custom_id)
        assert answer.ephemeral and answer.content == NOT_THIS_MESSAGE.text, custom_id
    assert len(message.edits) == edits and message.view is view


async def test_page_controls_forged_onto_a_running_table_are_refused(flow: Flow) -> None:
    session = await flow.started(ANA, BEN)
    table = flow.table_message(session)
    await assert_untouched_by_pages(flow, table, session.id)
    assert flow.session().version == session.version


async def test_page_controls_forged_onto_a_final_post_are_refused(flow: Flow) -> None:
    session = await flow.started(ANA, BEN)
    old = await finish(flow, session)
    final = flow.channel.sent[-1].message
    assert final is not None and f"tb:rematch:{old.id}" in [
        getattr(item, "custom_id", None) for item in (final.view.children if final.view else [])]
    await assert_untouched_by_pages(flow, final, old.id)
    # The final table message, buttons gone, is not a page either.
    await assert_untouched_by_pages(flow, flow.table_message(old), old.id)


async def test_a_replay_page_of_another_game_is_refused(flow: Flow) -> None:
    page = message_with(flow.channel, "tb:rp:7:0:f", "tb:rp:7:2:n", ephemeral=True)
    answer = await flow.press(CY, page, "tb:rp:8:2:n")
    assert answer.ephemeral and answer.content == NOT_THIS_MESSAGE.text
    assert page.edits == []


async def test_a_forged_copy_of_a_final_post_with_only_leaderboard_buttons_is_refused(
    flow: Flow,
) -> None:
    """A click carries the message's components as the client claims them: a forged copy of
    the final post, or of the finished table, that shows only leaderboard buttons is still
    that message (its id is stored), so the page control is refused and nothing is edited."""
    session = await flow.started(ANA, BEN)
    old = await finish(flow, session)
    final = flow.channel.sent[-1].message
    assert final is not None
    lb = "tb:lb:1:count:all:1:n"
    for real in (final, flow.table_message(old)):
        edits = len(real.edits)
        forged = message_with(flow.channel, lb)
        forged.id = real.id
        answer = await flow.press(CY, forged, lb)
        assert answer.ephemeral and answer.content == NOT_THIS_MESSAGE.text, real
        assert forged.edits == [] and len(real.edits) == edits
