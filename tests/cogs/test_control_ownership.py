"""A control acts only on its own table; empty selects and non-ASCII digits are refused;
info buttons never replace the table message (issue 20's "controls trust their message")."""

from __future__ import annotations

from bot.records.session import Session
from cogs.clicks.table_clicks import WRONG_TABLE
from cogs.commands.game_commands import GameCog
from cogs.kit.control_menus import CHOOSE_ONE, number
from cogs.kit.custom_ids import ActButton, HandButton
from tests.cogs.conftest import ANA, BEN, Table
from tests.cogs.test_lobby import assert_refused, press
from tests.cogs.test_play import hand, start_game
from tests.fakes import FakeChannel, FakeInteraction, FakeMessage, Sent, click, invoke


async def second_table(table: Table) -> tuple[Session, FakeChannel, FakeMessage]:
    """A running COUNT game in channel 200 (Ana and Ben)."""
    channel = table.client.channel(200)
    ia = FakeInteraction(table.client, user=ANA, channel=channel)  # type: ignore[arg-type]
    await invoke(GameCog.new, table.cog, ia, game="count")
    message = ia.last.message
    assert message is not None
    session = table.manager.in_channel(200)
    assert session is not None
    for user, action in ((BEN, "join"), (ANA, "start")):
        join = FakeInteraction(table.client, user=user, channel=channel,  # type: ignore[arg-type]
                               message=message)
        await click(join, f"tb:lobby:{action}:{session.id}")
    started = table.manager.get(session.id)
    assert started is not None
    return started, channel, message


async def click_in(table: Table, channel: FakeChannel, message: FakeMessage, custom_id: str,
                   values: list[str] | None = None) -> Sent:
    ia = FakeInteraction(table.client, user=ANA, channel=channel,  # type: ignore[arg-type]
                         message=message)
    await click(ia, custom_id, values)
    assert len(ia.sent) == 1
    return ia.last


async def test_a_control_of_another_table_is_refused_and_changes_nothing(table: Table) -> None:
    first, first_message = await start_game(table)
    second, channel, second_message = await second_table(table)
    mine = await hand(table, ANA)  # Ana's view of the first table, with its +1 button
    move = mine.custom_ids[0]
    assert move.startswith(f"tb:act:{first.id}:")
    edits = (len(first_message.edits), len(second_message.edits))
    # the first table's control clicked in the second table's channel
    assert_refused(await click_in(table, channel, second_message, move), WRONG_TABLE)
    assert_refused(await click_in(table, channel, second_message, f"tb:hand:{first.id}"),
                   WRONG_TABLE)
    # the second table's control, placed on a message that carries the first table's
    forged = ActButton.build(second.id, second.version, "add1")
    assert_refused(await click_in(table, table.channel, mine.message, forged), WRONG_TABLE)
    assert table.manager.get(first.id) is first and table.manager.get(second.id) is second
    assert (len(first_message.edits), len(second_message.edits)) == edits


async def test_an_empty_select_is_refused(table: Table) -> None:
    session, _ = await start_game(table)
    mine = await hand(table, ANA)
    select = f"tb:sel:{session.id}:{session.version}:pick"
    ia = table.interaction(ANA, mine.message)
    await click(ia, select, [])
    assert_refused(ia.last, CHOOSE_ONE)
    assert table.manager.get(session.id) is session


async def test_only_ascii_digits_parse(table: Table) -> None:
    session, _ = await start_game(table)
    mine = await hand(table, ANA)
    arabic_one = "\u0661"
    assert int(arabic_one) == 1 and number(arabic_one) is None and number("12") == 12
    refused = await press(table, ANA, mine.message,
                          f"tb:act:{session.id}:{session.version}:add{arabic_one}")
    assert_refused(refused, "That button is not part of this game.")
    for custom_id in (f"tb:hand:{arabic_one}", f"tb:act:{arabic_one}:1:add1",
                      f"tb:act:{session.id}:{arabic_one}:add1"):
        assert not any(kind.__discord_ui_compiled_template__.fullmatch(custom_id)
                       for kind in table.client.controls)
    assert table.manager.get(session.id) is session


async def test_info_buttons_answer_ephemeral_and_never_replace_the_table(table: Table) -> None:
    session, message = await start_game(table)
    edits = len(message.edits)
    for what in ("table", "rules", "scores"):
        answer = await press(table, BEN, message, f"tb:info:{session.id}:{what}")
        assert answer.ephemeral and answer.kind == "send_message"
    assert len(message.edits) == edits
    assert HandButton(session.id).custom_id == f"tb:hand:{session.id}"
