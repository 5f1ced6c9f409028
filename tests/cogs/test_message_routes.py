"""Where a game's public messages are written (``cogs.kit.message_routes``), with the COUNT
game: a person's click carries its table edit, ping and final post through interaction tokens;
a token past its lifetime (or refused) falls back to the channel, inside the budget; a table
held by an aging token is posted anew with a fresh one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.ops.metrics import Metrics
from bot.ops.request_budget import RequestBudget
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from cogs.commands.game_commands import GameCog
from cogs.kit.message_routes import CHANNEL, RENEW_AFTER, TOKEN, TOKEN_LIFETIME, MessageRoutes
from tests.cogs.conftest import ANA, BEN
from tests.cogs.test_channel_flow import Flow, play_one
from tests.fakes import FakeInteraction, FakeMessage, invoke
from tests.fakes import click as fake_click
from tests.testgame import CountEngine


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(tmp_path / "routes.sqlite3")
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def flow(store: Store, clock: Clock) -> Flow:
    made = Flow(SessionManager(store, {"count": CountEngine()}, seed_source=lambda: 7))
    made.client.services.routes = MessageRoutes(clock=clock)
    return made


def routes(flow: Flow) -> MessageRoutes:
    return flow.client.services.routes


def channel_posts(flow: Flow) -> list[str]:
    """How each live public message after the lobby was made: "followup" or "channel_send"."""
    return [sent.kind for sent in flow.channel.sent]


def ping_holder(flow: Flow) -> FakeInteraction:
    ping = flow.session().ping_message_id
    assert ping is not None
    held = routes(flow).holder(ping)
    assert held is not None, "no token holds the ping"
    return held.interaction  # type: ignore[return-value]


async def test_a_persons_clicks_write_the_table_ping_and_final_post_through_tokens(
    flow: Flow,
) -> None:
    await flow.started(ANA, BEN)
    while flow.manager.in_channel(flow.channel.id) is not None:
        await play_one(flow)
    # Every public message after the lobby is a follow-up; every edit and deletion went with
    # a token: nothing through the channel, nothing waited in the budget.
    assert channel_posts(flow) and set(channel_posts(flow)) == {"followup"}
    assert routes(flow).counts[CHANNEL] == 0 and routes(flow).budget.started == 0
    assert routes(flow).counts[TOKEN] > 0
    assert flow.pings() == []  # the last ping went with the game
    assert "final standings" in flow.channel.live()[-1].text  # the final post is last


async def test_the_next_ping_is_a_follow_up_of_the_click_that_passed_the_turn(
    flow: Flow,
) -> None:
    await flow.started(ANA, BEN)
    mover = flow.user_to_move()
    await play_one(flow)
    [ping] = flow.pings()
    assert ping.kind == "followup" and mover is not flow.user_to_move()
    held = ping_holder(flow)
    assert held.user is mover and ping.message in held.followups


async def test_a_refused_token_falls_back_to_the_channel_and_nothing_is_lost(
    flow: Flow,
) -> None:
    await flow.started(ANA, BEN)
    await play_one(flow)
    old_ping = flow.session().ping_message_id
    ping_holder(flow).token_expired = True  # Discord answers 401/50027 from now on
    await play_one(flow)
    # The old ping was deleted through the channel (in the budget), the new one is a
    # follow-up of the new click: still exactly one live ping, for the right player.
    assert routes(flow).counts[CHANNEL] == 1 and routes(flow).budget.started == 1
    assert old_ping in flow.channel.deleted
    [ping] = flow.pings()
    assert ping.kind == "followup" and str(flow.user_to_move().id) in (ping.content or "")


async def test_a_token_past_its_lifetime_is_not_used(flow: Flow, clock: Clock) -> None:
    await flow.started(ANA, BEN)
    await play_one(flow)
    old_ping = flow.session().ping_message_id
    old_table = flow.session().table_message_id
    clock.now += TOKEN_LIFETIME  # 15 minutes: Discord would refuse the ping's and table's token
    await play_one(flow)
    # The table is posted anew as a follow-up of the click; the old table and the old ping
    # are deleted through the channel (their tokens are too old), and the old ping was pointed
    # at the new table just before it went: three calls in the budget.
    session = flow.session()
    assert session.table_message_id != old_table
    assert {old_ping, old_table} <= set(flow.channel.deleted)
    assert routes(flow).budget.started == 3
    assert set(channel_posts(flow)) == {"followup"}
    [ping] = flow.pings()
    assert f"/{session.table_message_id}" in (ping.content or "")  # it links the new table


async def test_a_table_held_by_an_aging_token_is_renewed_before_it_ends(
    flow: Flow, clock: Clock
) -> None:
    await flow.started(ANA, BEN)
    old_table = flow.session().table_message_id
    clock.now += RENEW_AFTER + 1  # the Start click's token has less than 5 minutes left
    await play_one(flow)
    # Posted anew with the new click's token while the old one can still delete the old table:
    # not one call through the channel.
    assert flow.session().table_message_id != old_table and old_table in flow.channel.deleted
    assert routes(flow).budget.started == 0
    new_table = flow.session().table_message_id
    assert new_table is not None
    held = routes(flow).holder(new_table)
    assert held is not None and not held.original


async def test_a_refused_click_changes_no_route(flow: Flow) -> None:
    await flow.started(ANA, BEN)
    session = flow.session()
    waiting = BEN if flow.user_to_move() is ANA else ANA
    ia = flow.interaction(waiting)
    await invoke(GameCog.hand, flow.client.cog, ia)
    before = dict(routes(flow).counts)
    refused = flow.interaction(waiting, ia.last.message)
    await fake_click(refused, f"tb:act:{session.id}:{session.version}:add2")
    assert refused.last.ephemeral  # "not your turn", privately
    assert dict(routes(flow).counts) == before and flow.session().version == session.version


async def test_tokens_are_not_kept_past_their_lifetime(flow: Flow, clock: Clock) -> None:
    await flow.started(ANA, BEN)
    for _ in range(3):
        await play_one(flow)
    assert len(routes(flow)) >= 2  # at least the table and the ping
    clock.now += TOKEN_LIFETIME
    routes(flow).hold(0, 1, flow.interaction(ANA), original=True)  # any newer hold prunes
    assert len(routes(flow)) == 1


class SlowClock(Clock):
    """A clock that moves only when the budget sleeps for a slot."""

    async def sleep(self, seconds: float) -> None:
        for _ in range(3):
            await asyncio.sleep(0)
        self.now += seconds


async def test_near_the_budget_waiting_table_edits_merge_and_posts_keep_their_place(
    store: Store,
) -> None:
    clock = SlowClock()
    flow = Flow(SessionManager(store, {"count": CountEngine()}, seed_source=lambda: 7))
    budget = RequestBudget(1, 1.0, clock=clock, sleep=clock.sleep, metrics=Metrics())
    # No token is usable (a machine seat's or the clock's changes): everything goes by channel.
    flow.client.services.routes = MessageRoutes(budget, clock=clock, lifetime=0.0)
    await flow.started(ANA, BEN)
    await budget.drain()
    session = flow.session()
    table = flow.table_message(session)
    edits_before = len(table.edits)

    async def spend() -> None:
        return None

    await budget.run(spend)  # the one slot of this second is used: the budget is near
    assert budget.near
    order: list[str] = []
    edit = table.edit

    async def recorded_edit(**kwargs: Any) -> FakeMessage:
        order.append("edit")
        return await edit(**kwargs)

    table.edit = recorded_edit  # type: ignore[method-assign]
    for _ in range(3):  # three redraws of the table while no slot is free
        await flow.publisher.refresh(session)
    notice = asyncio.ensure_future(flow.client.services.routes.send(
        flow.client, session, None, content="a notice"))  # type: ignore[arg-type]
    notice.add_done_callback(lambda _: order.append("notice"))
    await flow.publisher.refresh(session)  # after the notice: merged into the waiting edit
    await notice
    await budget.drain()
    # One edit went out for the four redraws, before the notice that was queued after the
    # first of them, and it shows the game as it is.
    assert len(table.edits) == edits_before + 1 and budget.merged == 3
    assert order == ["edit", "notice"] and flow.channel.sent[-1].content == "a notice"
    assert f"Total: {flow.session().state.total}" in table.edits[-1].text


async def test_a_late_redraw_never_shows_an_older_state_over_the_final_table(
    flow: Flow,
) -> None:
    await flow.started(ANA, BEN)
    early = flow.session()
    while flow.manager.in_channel(flow.channel.id) is not None:
        await play_one(flow)
    assert early.table_message_id is not None
    table = flow.channel.get_partial_message(early.table_message_id)
    final = table.edits[-1].text
    edits = len(table.edits)
    # A redraw of an early version that comes after the end (as one that waited in the
    # budget would): the game is gone from the manager, the table shows its end and stays so.
    await flow.publisher.refresh(early)
    assert len(table.edits) == edits and table.edits[-1].text == final


async def test_a_finished_games_tokens_are_forgotten(flow: Flow) -> None:
    flow.manager.subscribe(routes(flow).on_change)  # as the table extension subscribes it
    await flow.started(ANA, BEN)
    await play_one(flow)
    assert len(routes(flow)) >= 2
    while flow.manager.in_channel(flow.channel.id) is not None:
        await play_one(flow)
    assert len(routes(flow)) == 0
