from __future__ import annotations

import discord

from bot.records import errors
from bot.records.session import Status
from cogs.commands.game_commands import GameCog
from cogs.split import SplitUI
from cogs.ten import TenUI
from game.split import SplitEngine
from game.ten import TenEngine
from tests.cogs.conftest import ANA, BEN, CY, DEE, Table
from tests.fakes import FakeMessage, Sent, click, invoke


async def open_lobby(table: Table) -> tuple[int, FakeMessage]:
    ia = table.interaction(ANA)
    await invoke(GameCog.new, table.cog, ia, game="count")
    sent = ia.last
    assert sent.kind == "send_message" and not sent.ephemeral
    assert sent.message is not None
    session = table.manager.in_channel(100)
    assert session is not None and session.table_message_id == sent.message.id
    return session.id, sent.message


async def press(table: Table, user: object, message: FakeMessage, custom_id: str,
                **kwargs: object) -> Sent:
    ia = table.interaction(user, message, **kwargs)  # type: ignore[arg-type]
    await click(ia, custom_id)
    assert len(ia.sent) == 1
    return ia.last


def assert_refused(sent: Sent, message: str) -> None:
    assert sent.ephemeral and sent.content == message


async def test_new_lobby_lists_seats_limits_host_and_buttons(table: Table) -> None:
    ia = table.interaction(ANA)
    await invoke(GameCog.new, table.cog, ia, game="count")
    sent = ia.last
    assert "COUNT — lobby" in sent.text and "Ana" in sent.text and "2–3" in sent.text
    sid = table.manager.in_channel(100).id
    assert sent.custom_ids == [
        f"tb:lobby:{a}:{sid}"
        for a in (
            "join", "leave", "start", "cancel", "bot-easy", "bot-normal", "bot-expert", "unbot"
        )
    ]


async def test_join_start_flow_turns_lobby_into_table(table: Table) -> None:
    sid, message = await open_lobby(table)
    joined = await press(table, BEN, message, f"tb:lobby:join:{sid}")
    assert joined.kind == "edit_message" and "Ben" in joined.text
    started = await press(table, ANA, message, f"tb:lobby:start:{sid}")
    assert started.kind == "edit_message" and "Total: 0" in started.text
    assert started.custom_ids == [f"tb:hand:{sid}"]
    assert table.manager.get(sid).status is Status.ACTIVE
    assert message.edits == [joined, started]  # no second edit by the publisher


async def test_lobby_refusals(table: Table) -> None:
    sid, message = await open_lobby(table)
    other = table.interaction(BEN)
    await invoke(GameCog.new, table.cog, other, game="count")
    assert_refused(other.last, errors.GAME_RUNNING)
    assert_refused(await press(table, ANA, message, f"tb:lobby:join:{sid}"),
                   errors.ALREADY_SEATED)
    assert_refused(await press(table, ANA, message, f"tb:lobby:start:{sid}"),
                   errors.too_few_players("COUNT", 2, 1))
    await press(table, BEN, message, f"tb:lobby:join:{sid}")
    await press(table, CY, message, f"tb:lobby:join:{sid}")
    assert_refused(await press(table, DEE, message, f"tb:lobby:join:{sid}"),
                   errors.lobby_full(3))
    assert_refused(await press(table, BEN, message, f"tb:lobby:start:{sid}"), errors.NOT_HOST)
    assert_refused(await press(table, BEN, message, f"tb:lobby:cancel:{sid}"),
                   errors.NOT_HOST_OR_MOD)
    assert_refused(await press(table, DEE, message, f"tb:lobby:leave:{sid}"), errors.NOT_SEATED)
    assert len(table.manager.get(sid).seats) == 3
    await press(table, ANA, message, f"tb:lobby:start:{sid}")
    assert_refused(await press(table, DEE, message, f"tb:lobby:join:{sid}"),
                   errors.ALREADY_STARTED)
    unknown = table.interaction(ANA)
    await invoke(GameCog.new, table.cog, unknown, game="chess")
    assert_refused(unknown.last, errors.unknown_game("chess"))


async def test_cancel_by_moderator_and_leave(table: Table) -> None:
    sid, message = await open_lobby(table)
    await press(table, BEN, message, f"tb:lobby:join:{sid}")
    ia = table.interaction(BEN)
    await invoke(GameCog.leave, table.cog, ia)
    assert ia.last.ephemeral and len(table.manager.get(sid).seats) == 1
    assert "Ben" not in message.edits[-1].text  # the publisher refreshed the lobby message
    closed = await press(table, DEE, message, f"tb:lobby:cancel:{sid}",
                         permissions=discord.Permissions(manage_messages=True))
    assert closed.kind == "edit_message" and "closed" in closed.text and closed.view is None
    assert table.manager.in_channel(100) is None
    gone = await press(table, BEN, message, f"tb:lobby:join:{sid}")
    assert_refused(gone, errors.NO_GAME)


async def test_leave_and_status_without_game(table: Table) -> None:
    for command in (GameCog.leave, GameCog.status, GameCog.hand, GameCog.cancel):
        ia = table.interaction(ANA)
        await invoke(command, table.cog, ia)
        assert_refused(ia.last, errors.NO_GAME)


async def test_leave_running_game_hands_the_seat_to_a_bot(table: Table) -> None:
    sid, message = await open_lobby(table)
    await press(table, BEN, message, f"tb:lobby:join:{sid}")
    await press(table, ANA, message, f"tb:lobby:start:{sid}")
    ia = table.interaction(BEN)
    await invoke(GameCog.leave, table.cog, ia)
    assert not ia.last.ephemeral and "Ben left the game" in ia.last.content
    assert table.manager.get(sid).seat_of(str(BEN.id)).left
    again = table.interaction(BEN)
    await invoke(GameCog.leave, table.cog, again)
    assert_refused(again.last, errors.NOT_SEATED)


async def test_rules_are_paged_and_ephemeral(table: Table) -> None:
    # Each game's UI package brings its rules; register the two (this table plays COUNT).
    table.client.uis.register(SplitUI(SplitEngine()))
    table.client.uis.register(TenUI(TenEngine()))
    ia = table.interaction(ANA)
    await invoke(GameCog.rules, table.cog, ia, game="split")
    first = ia.last
    assert first.ephemeral and "SPLIT rules" in first.text and "Page 1 of" in first.text
    assert first.custom_ids == ["tb:rules:split:0:p", "tb:rules:split:1:n"]
    assert first.message is not None
    page = await press(table, ANA, first.message, "tb:rules:split:1:n")
    assert page.kind == "edit_message" and "Page 2 of" in page.text
    ia = table.interaction(ANA)
    await invoke(GameCog.rules, table.cog, ia, game="ten")
    assert "TEN rules" in ia.last.text and ia.last.ephemeral
    ia = table.interaction(ANA)
    await invoke(GameCog.rules, table.cog, ia, game="chess")
    assert_refused(ia.last, errors.unknown_game("chess"))


async def test_game_autocomplete_matches_key_or_title(table: Table) -> None:
    ia = table.interaction(ANA)
    found = await table.cog._game_choices(ia, "CoU")
    assert [(c.name, c.value) for c in found] == [("COUNT", "count")]
    assert await table.cog._game_choices(ia, "ten") == []
    assert await table.cog._rules_choices(ia, "Sp") == []  # COUNT has no rules pages
    table.client.uis.register(SplitUI(SplitEngine()))
    rules = await table.cog._rules_choices(ia, "Sp")
    assert [(c.name, c.value) for c in rules] == [("SPLIT", "split")]
