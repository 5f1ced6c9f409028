"""The lobby host's tools: remove a seated player, pass the host role. Bad input (not the
host, a started game, a player already gone, oneself, a bot as host, an empty choice) is
refused ephemeral and changes nothing."""

from __future__ import annotations

from bot.records import errors
from bot.records.session import Session
from cogs.commands.game_commands import GameCog
from tests.cogs.conftest import ANA, BEN, CY, Table
from tests.fakes import FakeMessage, Sent, click, invoke


async def lobby_of_three(table: Table) -> tuple[Session, FakeMessage]:
    """Ana hosts; Ben and a bot are seated."""
    ia = table.interaction(ANA)
    await invoke(GameCog.new, table.cog, ia, game="count")
    assert ia.last.message is not None
    message = ia.last.message
    session = table.manager.in_channel(100)
    assert session is not None
    await click(table.interaction(BEN, message), f"tb:lobby:join:{session.id}")
    await click(table.interaction(ANA, message), f"tb:lobby:bot-easy:{session.id}")
    current = table.manager.get(session.id)
    assert current is not None and [s.display_name for s in current.seats] == [
        "Ana", "Ben", "Bot 1"]
    return current, message


async def choose(table: Table, user: object, message: FakeMessage, custom_id: str,
                 values: list[str]) -> Sent:
    ia = table.interaction(user, message)  # type: ignore[arg-type]
    await click(ia, custom_id, values=values)
    assert len(ia.sent) == 1
    return ia.last


def selects(sent: Sent) -> dict[str, list[str]]:
    """custom_id -> option values of each select on the message."""
    assert sent.view is not None
    return {str(item.custom_id): [o.value for o in item.options]  # type: ignore[attr-defined]
            for item in sent.view.children if hasattr(item, "options")}


def refused(sent: Sent, text: str) -> None:
    assert sent.ephemeral and sent.kind == "send_message" and sent.content == text


async def test_the_host_sees_selects_of_the_seated_players(table: Table) -> None:
    session, message = await lobby_of_three(table)
    last = message.edits[-1]
    assert selects(last) == {
        f"tb:host:remove:{session.id}": [str(BEN.id), "bot:1"],
        f"tb:host:pass:{session.id}": [str(BEN.id)],  # people only
    }
    assert "Host: remove a player…" in [
        getattr(item, "placeholder", None) for item in (last.view.children if last.view else [])
    ]


async def test_the_host_removes_a_seated_player(table: Table) -> None:
    session, message = await lobby_of_three(table)
    sent = await choose(table, ANA, message, f"tb:host:remove:{session.id}", [str(BEN.id)])
    assert sent.kind == "edit_message" and "Ben" not in sent.text
    after = table.manager.get(session.id)
    assert after is not None and [s.player_id for s in after.seats] == [str(ANA.id), "bot:1"]
    # A bot seat can be removed the same way; then nobody is left to choose.
    sent = await choose(table, ANA, message, f"tb:host:remove:{session.id}", ["bot:1"])
    assert sent.kind == "edit_message" and selects(sent) == {}


async def test_the_host_passes_the_host_role(table: Table) -> None:
    session, message = await lobby_of_three(table)
    sent = await choose(table, ANA, message, f"tb:host:pass:{session.id}", [str(BEN.id)])
    assert sent.kind == "edit_message" and "2. Ben — host" in sent.text
    after = table.manager.get(session.id)
    assert after is not None and after.host_id == str(BEN.id)
    # The old host is an ordinary player now: their tools are refused.
    refused(await choose(table, ANA, message, f"tb:host:pass:{session.id}", [str(ANA.id)]),
            errors.NOT_HOST)
    # The new host may start.
    await click(table.interaction(BEN, message), f"tb:lobby:start:{session.id}")
    assert table.manager.get(session.id).status.value == "active"  # type: ignore[union-attr]


async def test_bad_host_tool_input_is_refused_and_changes_nothing(table: Table) -> None:
    session, message = await lobby_of_three(table)
    remove, give = f"tb:host:remove:{session.id}", f"tb:host:pass:{session.id}"
    version = session.version
    refused(await choose(table, BEN, message, remove, [str(ANA.id)]), errors.NOT_HOST)
    refused(await choose(table, CY, message, give, [str(BEN.id)]), errors.NOT_HOST)
    refused(await choose(table, ANA, message, remove, [str(CY.id)]), errors.NOT_SEATED_NOW)
    refused(await choose(table, ANA, message, remove, [str(ANA.id)]), errors.NOT_YOURSELF)
    refused(await choose(table, ANA, message, give, [str(ANA.id)]), errors.NOT_YOURSELF)
    refused(await choose(table, ANA, message, give, ["bot:1"]), errors.HOST_TO_BOT)
    refused(await choose(table, ANA, message, give, []), "Choose one option from the list.")
    assert table.manager.get(session.id) == session and session.version == version

    # A stale select: Ben left meanwhile, then the game started.
    await click(table.interaction(BEN, message), f"tb:lobby:leave:{session.id}")
    refused(await choose(table, ANA, message, give, [str(BEN.id)]), errors.NOT_SEATED_NOW)
    await click(table.interaction(CY, message), f"tb:lobby:join:{session.id}")
    await click(table.interaction(ANA, message), f"tb:lobby:start:{session.id}")
    started = table.manager.get(session.id)
    assert started is not None
    refused(await choose(table, ANA, message, remove, [str(CY.id)]), errors.SEATS_AFTER_START)
    assert table.manager.get(session.id) == started


async def test_a_host_select_from_another_table_is_refused(table: Table) -> None:
    session, message = await lobby_of_three(table)
    other = table.client.channel(555)
    ia = table.interaction(ANA, message)
    ia.channel = other
    await click(ia, f"tb:host:remove:{session.id}", values=[str(BEN.id)])
    refused(ia.last, "That control belongs to another table; use the buttons of this "
            "channel's table.")
    assert table.manager.get(session.id) == session
