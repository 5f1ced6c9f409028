"""The control kinds of ``cogs.kit.custom_ids``: every id the bot posts parses back to what it
carried (messages already posted keep working), and an id whose numbers are out of range is
refused the way a control of a game that is gone is, changing nothing (issue 34)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.records.errors import NO_GAME
from bot.sessions.export import NO_SUCH_GAME
from cogs.clicks.table_clicks import table_controls
from cogs.kit.custom_ids import (
    MAX_INDEX,
    MAX_SNOWFLAKE,
    MAX_STORED,
    NOT_AVAILABLE,
    REMATCH_GONE,
    ActButton,
    ActSelect,
    BackButton,
    HandButton,
    HostSelect,
    HostTool,
    InfoButton,
    InfoKind,
    LobbyAction,
    LobbyButton,
    OutOfRange,
    RematchButton,
    ReplayButton,
    ReplayJump,
    ReplayTag,
    RulesPageButton,
    number,
    session_of_id,
    snowflake,
)
from cogs.leaderboard.commands import LeaderboardCog, LeaderboardPageButton
from cogs.table_services import TableServices
from cogs.ui_registry import GameUIs
from tests.cogs.conftest import ANA, Table
from tests.cogs.test_lobby import assert_refused
from tests.cogs.test_play import start_game
from tests.fakes import Sent, click, message_with


def registered() -> list[Any]:
    """The control classes the table and the leaderboard register."""
    services = TableServices(GameUIs({}))
    leaderboard = LeaderboardCog(services).feature()
    return [*table_controls(), *leaderboard.controls]


SNOWFLAKE = 1234567890123456789
# Ids as the bot has posted them, with the parts they carry.
POSTED: list[tuple[Any, str, tuple[object, ...]]] = [
    (ActButton, "tb:act:12:3:a:1", (12, 3, "a:1")),
    (ActButton, "tb:act:12:0:", (12, 0, "")),
    (ActSelect, "tb:sel:12:3:s:disc:0", (12, 3, "s:disc:0")),
    (HandButton, "tb:hand:12", (12,)),
    (InfoButton, "tb:info:12:scores", (12, InfoKind.SCORES)),
    (InfoButton, "tb:info:12:log", (12, InfoKind.LOG)),
    (BackButton, "tb:back:12", (12,)),
    (LobbyButton, "tb:lobby:bot-easy:12", (LobbyAction.BOT_EASY, 12)),
    (LobbyButton, "tb:lobby:join:12", (LobbyAction.JOIN, 12)),
    (HostSelect, "tb:host:pass:12", (HostTool.PASS, 12)),
    (RulesPageButton, "tb:rules:split:2:n", ("split", 2, "n")),
    (ReplayButton, "tb:rp:12:40:o", (12, 40, ReplayTag.OPEN)),
    (ReplayButton, "tb:rp:12:9999999:l", (12, 9999999, ReplayTag.LAST)),
    (ReplayJump, "tb:rpj:12:t", (12, "t")),
    (RematchButton, "tb:rematch:12", (12,)),
    (ActButton, f"tb:act:{MAX_STORED}:{MAX_STORED}:x", (MAX_STORED, MAX_STORED, "x")),
    (LeaderboardPageButton, f"tb:lb:{SNOWFLAKE}:ten:month:3:p",
     (SNOWFLAKE, "ten", "month", 3, "p")),
]


class Clicked:
    """An interaction as ``from_custom_id`` reads it (it reads nothing)."""


@pytest.mark.parametrize(("kind", "custom_id", "parts"), POSTED)
async def test_a_posted_id_parses_to_what_it_carried_and_builds_again(
    kind: Any, custom_id: str, parts: tuple[object, ...]
) -> None:
    matching = [item for item in registered()
                if item.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert matching == [kind]
    match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
    control = await kind.from_custom_id(Clicked(), discord.ui.Button(custom_id=custom_id), match)
    assert control.parts == parts
    assert [type(part) for part in control.parts] == [type(part) for part in parts]
    assert kind.build(*parts) == custom_id
    assert kind(*parts).custom_id == custom_id


def test_the_components_keep_their_looks() -> None:
    hand = HandButton(7).to_component_dict()
    assert (hand["label"], hand["style"]) == ("My hand", discord.ButtonStyle.primary.value)
    back = BackButton(7).to_component_dict()
    assert (back["label"], back["style"]) == ("I'm back", discord.ButtonStyle.success.value)
    select = ActSelect(7, 2, "move", options=[discord.SelectOption(label="a", value="a")],
                       placeholder="Pick", min_values=1, max_values=1, row=2)
    assert select.custom_id == "tb:sel:7:2:move" and select.placeholder == "Pick"
    assert [option.value for option in select.options] == ["a"] and select.item.row == 2
    assert session_of_id("tb:lobby:start:7") == 7 and session_of_id("tb:rematch:7") is None


def test_each_number_is_bounded_to_its_range() -> None:
    session, guild, page = number("sid", MAX_STORED), snowflake("guild"), number("p", MAX_INDEX)
    assert session.parse("0") == 0 and session.parse("007") == 7
    assert session.parse(str(MAX_STORED)) == MAX_STORED
    assert guild.parse(str(MAX_SNOWFLAKE)) == MAX_SNOWFLAKE and page.parse("9999999") == MAX_INDEX
    for part, text in ((session, str(MAX_STORED + 1)), (session, "9" * 90), (guild, "0"),
                       (guild, str(MAX_SNOWFLAKE + 1)), (page, "10000000")):
        with pytest.raises(OutOfRange):
            part.parse(text)


TOO_BIG = MAX_STORED + 1  # 9223372036854775808: no SQLite or PostgreSQL BIGINT holds it
GAME_GONE = "There is no game in this channel. Open one with /game new."
# (an id out of range, values for a select, the same kind's id in range that names nothing)
OUT_OF_RANGE: list[tuple[str, list[str] | None, str, str]] = [
    (f"tb:info:{TOO_BIG}:scores", None, f"tb:info:{MAX_STORED}:scores", GAME_GONE),
    (f"tb:act:{TOO_BIG}:1:add1", None, f"tb:act:{MAX_STORED}:1:add1", GAME_GONE),
    (f"tb:act:1:{TOO_BIG}:add1", None, f"tb:act:{MAX_STORED}:1:add1", GAME_GONE),
    (f"tb:sel:{TOO_BIG}:1:move", ["1"], f"tb:sel:{MAX_STORED}:1:move", GAME_GONE),
    (f"tb:hand:{'9' * 30}", None, f"tb:hand:{MAX_STORED}", GAME_GONE),
    (f"tb:back:{TOO_BIG}", None, None, GAME_GONE),
    (f"tb:lobby:join:{TOO_BIG}", None, None, GAME_GONE),
    (f"tb:host:remove:{TOO_BIG}", ["2"], None, GAME_GONE),
    (f"tb:rp:{TOO_BIG}:0:o", None, f"tb:rp:{MAX_STORED}:0:o", NO_SUCH_GAME),
    (f"tb:rpj:{TOO_BIG}:r", ["0"], f"tb:rpj:{MAX_STORED}:r", NO_SUCH_GAME),
    (f"tb:rematch:{TOO_BIG}", None, f"tb:rematch:{MAX_STORED}", REMATCH_GONE.text),
    ("tb:rules:split:10000000:n", None, None, NOT_AVAILABLE),
]


async def press(table: Table, message: Any, custom_id: str, values: list[str] | None) -> Sent:
    ia = table.interaction(ANA, message)
    await click(ia, custom_id, values)
    assert len(ia.sent) == 1
    return ia.last


@pytest.mark.parametrize(("custom_id", "values", "in_range", "refusal"), OUT_OF_RANGE)
async def test_an_id_out_of_range_is_refused_like_a_gone_game_and_changes_nothing(
    table: Table, custom_id: str, values: list[str] | None, in_range: str | None, refusal: str
) -> None:
    assert NO_GAME == GAME_GONE
    session, message = await start_game(table)
    edits = len(message.edits)
    assert_refused(await press(table, message, custom_id, values), refusal)
    if in_range is not None:  # the handler's own answer to a control whose game is gone
        # A replay page acts only on a private page that carries it (cogs.kit.page_controls).
        page = in_range.startswith("tb:rpj:")
        on = message_with(message.channel, in_range, ephemeral=True) if page else message
        assert_refused(await press(table, on, in_range, values), refusal)
    assert table.manager.get(session.id) is session and len(message.edits) == edits
    # (no traceback: the autouse fixture fails a test whose click reached
    # cogs.kit.unexpected_errors)


async def test_a_leaderboard_id_out_of_range_is_refused(table: Table) -> None:
    ia = table.interaction(ANA)
    await click(ia, f"tb:lb:{2**64}:count:all:0:n")
    assert_refused(ia.last, "This leaderboard belongs to another server.")


def test_a_payload_writes_the_id_its_kind_builds_and_refuses_one_too_long() -> None:
    """Issue 42: ``payload`` writes the id inline; it must stay ``kind.build``'s, checked."""
    button = ActButton.payload(12, 3, "a:draw", label="Flip")
    assert button.custom_id == ActButton.kind.build(12, 3, "a:draw") == "tb:act:12:3:a:draw"
    select = ActSelect.payload(12, 3, "s:buy:0", options=[discord.SelectOption(label="x")])
    assert select.custom_id == ActSelect.kind.build(12, 3, "s:buy:0")
    with pytest.raises(ValueError, match="longer than"):
        ActButton.payload(12, 3, "a:" + "x" * 100, label="Flip")
    with pytest.raises(ValueError, match="longer than"):
        ActSelect.payload(12, 3, "s:" + "x" * 100)
