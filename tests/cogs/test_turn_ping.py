from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.records.change import Change
from bot.records.session import Seat
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.listeners.table_publisher import TablePublisher
from cogs.listeners.turn_ping import TurnPing, ping_text, table_link
from game.action_codes import action_code
from game.split import SplitEngine
from tests.cogs.conftest import ANA, BEN
from tests.cogs.split_table_fixture import CHANNEL, SEED, SplitTable
from tests.cogs.test_split_game import start_game
from tests.fakes import Sent


@pytest.fixture
async def split(tmp_path: Path) -> AsyncIterator[SplitTable]:
    store = await open_store(tmp_path / "ping.sqlite3")
    yield SplitTable(SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: SEED))
    await store.close()


def pings(split: SplitTable) -> list[str]:
    return [s.content or "" for s in split.channel.sent if "<@" in (s.content or "")]


def live_pings(split: SplitTable) -> list[Sent]:
    return [s for s in split.channel.live() if "<@" in (s.content or "")]


def text(split: SplitTable, players: list[str]) -> str:
    session = split.session()
    return ping_text(words_for(Language.EN), "SPLIT", players, table_link(session))


async def test_next_player_is_pinged_once_per_turn(split: SplitTable) -> None:
    await start_game(split, (ANA, BEN))
    state = split.session().state
    first = split.engine.awaiting(state)[0]
    second = next(p for p in state.players if p != first)
    assert pings(split) == [text(split, [first])]
    link = f"https://discord.com/channels/1/{CHANNEL}/{split.session().table_message_id}"
    assert link in pings(split)[0]
    [ping] = live_pings(split)
    assert ping.custom_ids == [f"tb:hand:{split.session().id}"]  # SPLIT: My hand
    assert split.session().ping_message_id == ping.message.id  # stored with the session
    user = ANA if first == str(ANA.id) else BEN
    while split.engine.awaiting(split.session().state) == [first]:
        view = await split.hand(user)
        legal = split.engine.legal_actions(split.session().state, first)
        # Draw, then discard the first card offered: a turn of two steps.
        code = action_code(next(a for a in legal if a.type in ("draw", "discard")))
        target = next(
            cid for cid in view.custom_ids if cid.endswith(f":a:{code}") or ":s:disc:" in cid
        )
        values = None if ":a:" in target else [code]
        await split.press(user, view.message, target, values)
        if split.engine.awaiting(split.session().state) == [first]:
            assert len(pings(split)) == 1  # still the same turn: nobody new to ping
    assert pings(split) == [text(split, [first]), text(split, [second])]
    assert all(not sent.ephemeral for sent in split.channel.sent)
    # The first ping was deleted before the second went out: one live ping per game.
    assert [p.content for p in live_pings(split)] == [text(split, [second])]
    assert split.channel.deleted == [ping.message.id]
    assert split.session().ping_message_id == live_pings(split)[0].message.id


async def test_bots_are_not_pinged_and_restart_falls_back_to_the_actor(
    split: SplitTable,
) -> None:
    await start_game(split, (ANA, BEN))
    session = split.session()
    awaiting = tuple(split.engine.awaiting(session.state))  # what the manager's change says
    first = awaiting[0]
    fresh = TurnPing(split.client, split.client.services)  # as after a restart: nothing remembered
    assert fresh.to_ping(Change("action", session, actor=first, awaiting=awaiting)) == []
    other = next(p for p in session.state.players if p != first)
    assert TurnPing(split.client, split.client.services).to_ping(
        Change("action", session, actor=other, awaiting=awaiting)) == [first]
    as_bot = replace(session, seats=tuple(
        Seat(player_id=s.player_id, display_name=s.display_name, is_bot=s.player_id == first)
        for s in session.seats
    ))
    assert TurnPing(split.client, split.client.services).to_ping(
        Change("started", as_bot, awaiting=awaiting)) == []
    late = TurnPing(split.client, split.client.services)
    assert late.to_ping(Change("started", session, awaiting=awaiting)) == [first]
    older = replace(session, version=session.version - 1)
    assert late.to_ping(Change("action", older, actor=other, awaiting=awaiting)) == []


def pings_only(sent: Sent, user: str) -> None:
    """``sent`` pings ``user`` and nobody else, over the client's no-ping default."""
    assert sent.allowed_mentions is not None
    effective = discord.AllowedMentions.none().merge(sent.allowed_mentions).to_dict()
    assert effective == {"parse": [], "users": [int(user)]}


async def test_pings_still_reach_their_player_over_the_no_ping_default(
    split: SplitTable,
) -> None:
    await start_game(split, (ANA, BEN))
    first = split.engine.awaiting(split.session().state)[0]
    [ping] = [s for s in split.channel.sent if "<@" in (s.content or "")]
    pings_only(ping, first)
    publisher = TablePublisher(split.client, split.client.services)
    await publisher.remind(split.session(), first, f"<@{first}>, your move")
    pings_only(split.channel.sent[-1], first)


async def test_posts_and_table_edits_need_no_channel_lookup(
    split: SplitTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def no_fetch(channel_id: int) -> None:
        raise AssertionError("a post fetched its channel")

    monkeypatch.setattr(split.client, "get_channel", lambda channel_id: None)
    monkeypatch.setattr(split.client, "fetch_channel", no_fetch)
    table = await start_game(split, (ANA, BEN))
    first = split.engine.awaiting(split.session().state)[0]
    assert pings(split) == [text(split, [first])]
    edits = len(table.edits)
    await TablePublisher(split.client, split.client.services).refresh(split.session())
    assert len(table.edits) == edits + 1


async def test_a_turn_pass_costs_two_writes(split: SplitTable) -> None:
    """The move's own write and the new ping's id (replacing the old one's, deleted first);
    a step that keeps the turn writes only the move."""
    await start_game(split, (ANA, BEN))
    session = split.session()
    first = split.engine.awaiting(session.state)[0]
    user = ANA if first == str(ANA.id) else BEN
    [old_ping] = live_pings(split)
    store = split.manager.store
    writes: list[str] = []
    record_action, save_session = store.record_action, store.save_session

    def counted(name: str, write: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            writes.append(name)
            return write(*args, **kwargs)
        return call

    store.record_action = counted("action", record_action)  # type: ignore[method-assign]
    store.save_session = counted("session", save_session)  # type: ignore[method-assign]
    view = await split.hand(user)
    draw = next(cid for cid in view.custom_ids if cid.endswith(":a:draw"))
    view = await split.press(user, view.message, draw)
    assert writes == ["action"]  # the same turn: the ping stays
    writes.clear()
    discard = next(item for item in view.view.children if ":s:disc:" in str(item.custom_id))
    await split.press(user, view.message, str(discard.custom_id), [discard.options[0].value])
    assert split.engine.awaiting(split.session().state) != [first]
    assert writes == ["action", "session"]
    [new_ping] = live_pings(split)
    assert split.channel.deleted == [old_ping.message.id]
    assert split.session().ping_message_id == new_ping.message.id


def test_the_ping_draws_its_controls_from_the_version_the_table_was_drawn_from() -> None:
    """The manager swaps in a copy of a stored version when it stores the ping's or the
    table's message id: the ping's controls are drawn from the change's own session, whose
    public view the table built already (``cogs.kit.view_memo``), not built again; never
    from another version's or another state's."""
    from bench.table_size import sessions
    from cogs.listeners.turn_ping import ping_view, same_version
    from cogs.ten import TenUI
    from cogs.ui_registry import GameUIs
    from game.registry import engines

    ui = TenUI(engines()["ten"])
    uis = GameUIs(engines(), {"ten": ui})
    words = words_for(Language.EN)
    drawn = replace(next(iter(sessions("ten", 3, 0))), version=4)
    ui.table_in(drawn, words)
    built = ui.views.built
    stored = replace(drawn, ping_message_id=77)  # the manager's copy, same version and state
    assert same_version(stored, drawn) is drawn
    players = [drawn.seats[0].player_id]
    view = ping_view(uis, same_version(stored, drawn), players, words)
    assert ui.views.built == built  # the table's public view served the ping
    plain = ping_view(uis, stored, players, words)  # what the ping showed before
    assert view.to_components() == plain.to_components()
    newer = replace(drawn, version=5)
    assert same_version(newer, drawn) is newer
    other_state = replace(drawn, state=drawn.state.model_copy(deep=True))
    assert same_version(other_state, drawn) is other_state
    assert same_version(stored, None) is stored
