from __future__ import annotations

from bot.records import errors
from bot.records.session import Session, Status
from cogs.commands.game_commands import GameCog
from tests.cogs.conftest import ANA, BEN, CY, Table
from tests.cogs.test_lobby import assert_refused, open_lobby, press
from tests.fakes import FakeMessage, FakeUser, Sent, click, invoke


async def start_game(table: Table) -> tuple[Session, FakeMessage]:
    sid, message = await open_lobby(table)
    await press(table, BEN, message, f"tb:lobby:join:{sid}")
    await press(table, ANA, message, f"tb:lobby:start:{sid}")
    return table.manager.get(sid), message


async def hand(table: Table, user: FakeUser) -> Sent:
    ia = table.interaction(user)
    await invoke(GameCog.hand, table.cog, ia)
    return ia.last


def secret(session: Session, user: FakeUser) -> str:
    return str(session.state.secrets[str(user.id)])


async def test_hand_is_ephemeral_and_public_views_hide_secrets(table: Table) -> None:
    session, message = await start_game(table)
    mine = await hand(table, ANA)
    assert mine.ephemeral and secret(session, ANA) in mine.text
    assert secret(session, BEN) not in mine.text
    assert mine.custom_ids == [f"tb:act:{session.id}:{session.version}:add{n}" for n in (1, 2)]
    by_button = await press(table, BEN, message, f"tb:hand:{session.id}")
    assert by_button.ephemeral and secret(session, BEN) in by_button.text
    status = table.interaction(CY)
    await invoke(GameCog.status, table.cog, status)
    public = status.last
    assert not public.ephemeral and "Total: 0" in public.text
    for user in (ANA, BEN):
        assert secret(session, user) not in public.text
        assert all(secret(session, user) not in edit.text for edit in message.edits)
    # /game status reposts the table; later changes edit the new copy.
    assert table.manager.get(session.id).table_message_id == public.message.id


async def test_hand_refusals(table: Table) -> None:
    sid, message = await open_lobby(table)
    assert_refused(await hand(table, ANA), errors.NOT_STARTED)
    await press(table, BEN, message, f"tb:lobby:join:{sid}")
    await press(table, ANA, message, f"tb:lobby:start:{sid}")
    assert_refused(await hand(table, CY), errors.NOT_SEATED)
    assert_refused(await press(table, CY, message, f"tb:hand:{sid}"), errors.NOT_SEATED)


async def test_action_from_private_view_updates_both_messages(table: Table) -> None:
    session, table_message = await start_game(table)
    mine = await hand(table, ANA)
    played = await press(table, ANA, mine.message, mine.custom_ids[1])
    assert played.kind == "edit_message" and played.message is mine.message
    after = table.manager.get(session.id)
    assert after.state.total == 2 and after.version == session.version + 1
    assert played.custom_ids == []  # Ana's turn is over: no buttons in her view
    assert secret(session, ANA) in played.text
    assert "Total: 2" in table_message.edits[-1].text  # the publisher edited the table


async def test_action_refusals_change_nothing(table: Table) -> None:
    session, _ = await start_game(table)
    ben_hand = await hand(table, BEN)
    ana_hand = await hand(table, ANA)
    assert ben_hand.custom_ids == []
    not_turn = await press(table, BEN, ben_hand.message,
                           f"tb:act:{session.id}:{session.version}:add1")
    assert_refused(not_turn, errors.NOT_YOUR_TURN)
    stranger = await press(table, CY, ana_hand.message, ana_hand.custom_ids[0])
    assert_refused(stranger, errors.NOT_SEATED)
    illegal = await press(table, ANA, ana_hand.message,
                          f"tb:act:{session.id}:{session.version}:add7")
    assert_refused(illegal, "You can only add 1 or 2.")
    nonsense = await press(table, ANA, ana_hand.message,
                           f"tb:act:{session.id}:{session.version}:dance")
    assert_refused(nonsense, "That button is not part of this game.")
    missing = await press(table, ANA, ana_hand.message, "tb:act:999:1:add1")
    assert_refused(missing, errors.NO_GAME)
    assert table.manager.get(session.id) is session


async def test_stale_click_changes_nothing_and_answers_with_fresh_view(table: Table) -> None:
    session, _ = await start_game(table)
    old = await hand(table, ANA)
    await press(table, ANA, old.message, old.custom_ids[0])
    await press(table, BEN, (await hand(table, BEN)).message,
                f"tb:act:{session.id}:{session.version + 1}:add1")
    current = table.manager.get(session.id)
    assert current.state.total == 2
    stale = await press(table, ANA, old.message, old.custom_ids[0])
    assert stale.kind == "send_message" and stale.ephemeral
    assert stale.content.startswith(errors.STALE)
    assert stale.custom_ids == [f"tb:act:{session.id}:{current.version}:add{n}" for n in (1, 2)]
    assert table.manager.get(session.id) is current


async def test_select_and_next_step_and_public_button(table: Table) -> None:
    session, table_message = await start_game(table)
    mine = await hand(table, ANA)
    step = await press(table, ANA, mine.message, f"tb:act:{session.id}:{session.version}:peek")
    assert step.kind == "edit_message" and step.content == "Total so far: 0"
    assert table.manager.get(session.id) is session
    ia = table.interaction(ANA, mine.message)
    await click(ia, f"tb:sel:{session.id}:{session.version}:pick", values=["2"])
    assert table.manager.get(session.id).state.total == 2
    # A game button on the public table re-renders the table itself, not a private view.
    current = table.manager.get(session.id)
    public = await press(table, BEN, table_message, f"tb:act:{session.id}:{current.version}:add1")
    assert public.kind == "edit_message" and "Total: 3" in public.text
    assert secret(session, BEN) not in public.text


async def test_finished_game_shows_result_and_frees_channel(table: Table) -> None:
    session, table_message = await start_game(table)
    players = {str(ANA.id): ANA, str(BEN.id): BEN}
    while (current := table.manager.get(session.id)) is not None:
        user = players[current.state.players[current.state.turn]]
        view = await hand(table, user)
        await press(table, user, view.message, view.custom_ids[1])
    assert table.manager.in_channel(100) is None
    final = table_message.edits[-1]
    assert "Total: 10" in final.text and final.custom_ids == [f"tb:rp:{session.id}:0:o"]
    results = await table.manager.store.results(1, "count")
    assert len(results) == 2
    stored = await table.manager.store.load_session(session.id)
    assert stored.status is Status.FINISHED


async def test_info_buttons_answer_spectators_and_refuse_a_missing_score_sheet(
    table: Table,
) -> None:
    session, message = await start_game(table)
    copy = await press(table, CY, message, f"tb:info:{session.id}:table")  # CY is not seated
    assert copy.ephemeral and copy.view is None and "Total: 0" in copy.text
    for user in (ANA, CY):  # the COUNT UI draws no score sheet
        assert_refused(await press(table, user, message, f"tb:info:{session.id}:scores"),
                       errors.NO_SCORE_SHEET)
    assert table.manager.get(session.id) is session
