"""An INTERACTION_CREATE as the bot parses it (``bot.process.lean_interactions``): the clicked
message made as far as it is read, and the same as discord.py's wherever it is read, for a
slash command, a button, a select and a modal, in a server's channel, a thread, a DM, a group
DM and a server that never invited the bot; and no gateway event dispatched that nobody
listens to. These tests fail when discord.py changes the shape the module relies on (the
name ``discord.interactions.Message``, ``Message.__init__``, ``_handle_components``,
``_component_factory``, ``Client.dispatch``'s listeners)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any, ClassVar

import discord
import discord.interactions
import pytest
from discord.ext import commands

from bot.process import lean_interactions
from bot.process.client import TableBot
from bot.process.env_settings import Settings
from bot.process.lean_dispatch import lean_call
from bot.process.lean_interactions import ClickedMessage, heard
from tests.interaction_parity import a_state, both, differences

GUILD, CHANNEL, THREAD, DM, GROUP, ELSEWHERE = 901, 902, 903, 904, 905, 906
APP, BOT, ALICE, BOB, MESSAGE = 801, 802, 803, 804, 700
COMMAND, COMPONENT, MODAL = 2, 3, 5
BUTTON, SELECT = 2, 3
V2, EPHEMERAL = 1 << 15, 1 << 6
PERMISSIONS = "2248473465835073"


def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "global_name": name.title(),
            "discriminator": "0", "avatar": None, "bot": bot, "system": False,
            "public_flags": 0, "flags": 0}


TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
BOT_USER = user(BOT, "tablebot", bot=True)


def member(user_id: int, name: str) -> dict[str, Any]:
    return {"user": user(user_id, name), "nick": None, "avatar": None, "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False,
            "flags": 0, "pending": False, "permissions": PERMISSIONS}


# A Components V2 table: a container with a text, a section (a button accessory), a row of
# buttons (a link among them) and a row with a select.
CARD: list[dict[str, Any]] = [
    {"type": 17, "id": 1, "components": [
        {"type": 10, "id": 2, "content": "## The table\nalice 3 · bob 5"},
        {"type": 9, "id": 3, "components": [{"type": 10, "id": 4, "content": "Scores"}],
         "accessory": {"type": 2, "id": 5, "style": 2, "label": "Scores",
                       "custom_id": "tb:info:1:scores"}},
        {"type": 14, "id": 6, "divider": True, "spacing": 1},
        {"type": 1, "id": 7, "components": [
            {"type": 2, "id": 8, "style": 1, "label": "Draw", "custom_id": "tb:act:1:2:d",
             "emoji": {"name": "🂠", "id": None}},
            {"type": 2, "id": 9, "style": 2, "label": "Stop", "custom_id": "tb:act:1:2:s",
             "disabled": True},
            {"type": 2, "id": 10, "style": 5, "label": "Rules", "url": "https://discord.com"},
        ]},
        {"type": 1, "id": 11, "components": [
            {"type": 3, "id": 12, "custom_id": "tb:sel:1:2:buy", "placeholder": "Buy",
             "min_values": 1, "max_values": 1,
             "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "b",
                                                         "default": True}]},
        ]},
    ]},
]
# A turn ping: a line linking to the table and a classic row.
PING_ROWS: list[dict[str, Any]] = [
    {"type": 1, "id": 1, "components": [
        {"type": 2, "id": 2, "style": 1, "label": "Draw", "custom_id": "tb:act:1:2:d"}]},
]
EMBED = {"type": "rich", "title": "Final", "description": "alice wins",
         "fields": [{"name": "Score", "value": "12", "inline": True}],
         "footer": {"text": "game 1"}, "color": 3447003}


def message(channel_id: int, *, components: list[dict[str, Any]] | None = None,
            flags: int = V2, **extra: Any) -> dict[str, Any]:
    return {"id": str(MESSAGE), "channel_id": str(channel_id), "author": user(BOT, "tablebot",
                                                                                bot=True),
            "content": "", "timestamp": "2026-12-07T20:00:00.000000+00:00",
            "edited_timestamp": None, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
            "components": CARD if components is None else components, "pinned": False,
            "type": 0, "flags": flags, **extra}


def text_channel(channel_id: int, name: str, guild_id: int = GUILD) -> dict[str, Any]:
    return {"id": str(channel_id), "type": 0, "name": name, "guild_id": str(guild_id),
            "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
            "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "flags": 0,
            "permissions": PERMISSIONS}


THREAD_CHANNEL = {**text_channel(THREAD, "game 1"), "type": 11, "parent_id": str(CHANNEL),
                  "owner_id": str(BOT), "message_count": 0, "member_count": 1,
                  "total_message_sent": 0,
                  "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                      "archive_timestamp": "2026-12-07T20:00:00+00:00",
                                      "locked": False}}
DM_CHANNEL = {"id": str(DM), "type": 1, "flags": 0, "recipients": [user(ALICE, "alice")],
              "last_message_id": None}
GROUP_CHANNEL = {"id": str(GROUP), "type": 3, "name": None, "icon": None, "flags": 0,
                 "owner_id": str(ALICE), "last_message_id": None,
                 "recipients": [user(ALICE, "alice"), user(BOB, "bob")]}


def interaction(kind: int, data: dict[str, Any], place: str,
                clicked: dict[str, Any] | None = None) -> dict[str, Any]:
    """An INTERACTION_CREATE's ``d`` as Discord sends it from ``place``."""
    payload: dict[str, Any] = {
        "id": "600", "application_id": str(APP), "type": kind, "data": data,
        "token": "a-token", "version": 1, "app_permissions": PERMISSIONS, "locale": "es-ES",
        "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024,
    }
    if place in ("guild", "thread"):
        channel = text_channel(CHANNEL, "tables") if place == "guild" else THREAD_CHANNEL
        payload.update(guild_id=str(GUILD), guild={"id": str(GUILD), "locale": "en-US",
                                                   "features": []},
                       channel_id=channel["id"], channel=channel,
                       member=member(ALICE, "alice"), guild_locale="en-US",
                       authorizing_integration_owners={"0": str(GUILD)}, context=0)
    elif place == "elsewhere":  # a server that never invited the bot: the user's install
        channel = text_channel(ELSEWHERE, "chat", guild_id=ELSEWHERE)
        payload.update(guild_id=str(ELSEWHERE), guild={"id": str(ELSEWHERE), "locale": "sq",
                                                       "features": []},
                       channel_id=channel["id"], channel=channel,
                       member=member(ALICE, "alice"), guild_locale="sq",
                       authorizing_integration_owners={"1": str(ALICE)}, context=0)
    else:
        channel = DM_CHANNEL if place == "dm" else GROUP_CHANNEL
        payload.update(channel_id=channel["id"], channel=channel, user=user(ALICE, "alice"),
                       authorizing_integration_owners={"1": str(ALICE)},
                       context=1 if place == "dm" else 2)
    if clicked is not None:
        payload["message"] = clicked
    return payload


PLACES = ("guild", "thread", "dm", "group", "elsewhere")
CHANNEL_OF = {"guild": CHANNEL, "thread": THREAD, "dm": DM, "group": GROUP,
              "elsewhere": ELSEWHERE}
BUTTON_DATA = {"custom_id": "tb:act:1:2:d", "component_type": BUTTON}
SELECT_DATA = {"custom_id": "tb:sel:1:2:buy", "component_type": SELECT, "values": ["a"]}
MODAL_DATA = {"custom_id": "tb:note:1", "components": [
    {"type": 18, "id": 1, "component": {"type": 4, "id": 2, "custom_id": "text",
                                         "value": "hello"}}]}
COMMAND_DATA = {"id": "500", "name": "game", "type": 1, "options": [
    {"name": "new", "type": 1, "options": [{"name": "game", "type": 3, "value": "ten"}]}]}


def cases() -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    for place in PLACES:
        here = CHANNEL_OF[place]
        found += [
            (f"{place}: slash command", interaction(COMMAND, COMMAND_DATA, place)),
            (f"{place}: button on the table", interaction(COMPONENT, BUTTON_DATA, place,
                                                          message(here))),
            (f"{place}: select on the table", interaction(COMPONENT, SELECT_DATA, place,
                                                          message(here))),
            (f"{place}: button on a private view",
             interaction(COMPONENT, BUTTON_DATA, place, message(
                 here, flags=V2 | EPHEMERAL, webhook_id=str(APP), application_id=str(APP),
                 interaction_metadata={"id": "599", "type": 3, "user": user(ALICE, "alice"),
                                       "authorizing_integration_owners": {"0": str(GUILD)}}))),
            (f"{place}: button on a turn ping", interaction(COMPONENT, BUTTON_DATA, place, message(
                here, components=PING_ROWS, flags=0,
                content=f"<@{ALICE}> your turn: https://discord.com/channels/{GUILD}/{here}/1",
                mentions=[user(ALICE, "alice")]))),
            (f"{place}: button on a final post", interaction(COMPONENT, BUTTON_DATA, place, message(
                here, components=PING_ROWS, flags=0, embeds=[EMBED],
                message_reference={"type": 0, "message_id": "1", "channel_id": str(here)}))),
            (f"{place}: modal from a button", interaction(MODAL, MODAL_DATA, place,
                                                          message(here))),
        ]
    return found


@pytest.mark.parametrize(("case", "payload"), cases(), ids=[name for name, _ in cases()])
def test_what_is_read_is_what_discord_py_gives(case: str, payload: dict[str, Any]) -> None:
    assert differences(payload, a_state(BOT_USER)) == []


def test_the_clicked_message_is_made_only_as_far_as_it_is_read() -> None:
    assert discord.interactions.Message is ClickedMessage  # installed by the client module
    payload = interaction(COMPONENT, BUTTON_DATA, "guild", message(CHANNEL))
    lean, _ = both(payload, a_state(BOT_USER))
    clicked = lean.message
    assert isinstance(clicked, ClickedMessage) and isinstance(clicked, discord.Message)

    def unset(name: str) -> bool:
        try:
            object.__getattribute__(clicked, name)
        except AttributeError:
            return True
        return False

    assert all(unset(name) for name in ("author", "components", "embeds", "mentions", "type"))
    # What the bot reads of a click leaves the rest unmade.
    assert (clicked.id, clicked.flags.ephemeral, clicked.content) == (MESSAGE, False, "")
    assert clicked.custom_ids() == ["tb:info:1:scores", "tb:act:1:2:d", "tb:act:1:2:s",
                                    "tb:sel:1:2:buy"]
    draw = clicked.component(BUTTON, "tb:act:1:2:d")
    assert isinstance(draw, discord.components.Button) and draw.label == "Draw"
    select = clicked.component(SELECT, "tb:sel:1:2:buy")
    assert isinstance(select, discord.components.SelectMenu)
    assert clicked.component(SELECT, "tb:act:1:2:d") is None  # the wrong type
    assert clicked.guild is not None and clicked.guild.id == GUILD
    assert all(unset(name) for name in ("author", "components", "embeds", "type"))
    # Components and embeds are parsed alone when read; anything else completes the message.
    assert [c.type for c in clicked.components] == [discord.ComponentType.container]
    assert clicked.embeds == [] and unset("author")
    assert clicked.author.id == BOT and not unset("type") and not unset("mentions")
    with pytest.raises(AttributeError):
        clicked.no_such_attribute  # noqa: B018


@pytest.mark.parametrize("missing", ["id", "type", "content"])
def test_a_payload_discord_py_could_not_read_gives_no_message(missing: str) -> None:
    broken = message(CHANNEL)
    del broken[missing]  # discord.py's Message raises KeyError: the interaction has none
    lean, whole = both(interaction(COMPONENT, BUTTON_DATA, "guild", broken), a_state(BOT_USER))
    assert lean.message is None and whole.message is None


def test_a_message_that_fails_to_complete_fails_again_at_each_read() -> None:
    broken = message(CHANNEL)
    broken["attachments"] = [{"id": "1"}]  # an attachment without its fields: KeyError
    lean, _ = both(interaction(COMPONENT, BUTTON_DATA, "guild", broken), a_state(BOT_USER))
    assert lean.message is not None
    for _ in range(2):  # not left half made and taken as whole
        with pytest.raises(KeyError):
            lean.message.author  # noqa: B018


class Probe(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tb:act:(?P<rest>.*)"):
    calls: ClassVar[list[tuple[str, str | None, bool | None]]] = []
    __tablebot_lean_dispatch__: ClassVar[bool] = True

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: re.Match[str]) -> Probe:
        return cls(item)

    async def callback(self, interaction: Any) -> None:
        Probe.calls.append((self.custom_id, self.item.label, self.item.disabled))


async def test_the_lean_dispatch_makes_the_clicked_component_alone() -> None:
    Probe.calls = []
    state = a_state(BOT_USER)
    for custom_id in ("tb:act:1:2:s", "tb:act:9:9:z"):  # on the message, then not
        payload = interaction(COMPONENT, {"custom_id": custom_id, "component_type": BUTTON},
                              "thread", message(THREAD))
        lean, _ = both(payload, state)
        match = Probe.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None
        await lean_call(Probe, lean, BUTTON, custom_id, match)
        with pytest.raises(AttributeError):
            object.__getattribute__(lean.message, "components")  # the card was not parsed
    assert Probe.calls == [("tb:act:1:2:s", "Stop", True)]


def test_an_event_is_heard_only_with_a_listener() -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    assert not heard(bot, "socket_event_type") and not heard(bot, "interaction")
    assert heard(bot, "message")  # commands.Bot's own on_message
    assert heard(bot, "error")  # Client.on_error

    async def on_interaction(interaction: Any) -> None:
        return None

    bot.add_listener(on_interaction)
    assert heard(bot, "interaction")
    bot.remove_listener(on_interaction)
    assert not heard(bot, "interaction")

    @bot.event
    async def on_socket_event_type(event: str) -> None:
        return None

    assert heard(bot, "socket_event_type")


async def test_the_client_dispatches_only_what_is_heard(tmp_path: Path) -> None:
    settings = Settings(discord_token=TOKEN, database_path=tmp_path / "db.sqlite3",
                        _env_file=None)  # type: ignore[call-arg]
    bot = TableBot(settings, engines={})
    await bot._async_setup_hook()  # the client's loop, without logging in
    try:
        # discord.py's gateway and state dispatch through the client's own method.
        assert bot._connection.dispatch == bot.dispatch
        scheduled: list[str] = []
        bot._schedule_event = (  # type: ignore[method-assign]
            lambda coro, name, *args, **kwargs: scheduled.append(name))
        bot.dispatch("socket_event_type", "INTERACTION_CREATE")
        bot.dispatch("interaction", object())
        assert scheduled == []
        waiter = bot.wait_for("interaction")
        task = asyncio.ensure_future(waiter)
        await asyncio.sleep(0)  # the waiter is registered
        sent = object()
        bot.dispatch("interaction", sent)
        assert await asyncio.wait_for(task, 5.0) is sent

        async def on_interaction(interaction: Any) -> None:
            return None

        bot.add_listener(on_interaction)
        bot.dispatch("interaction", sent)
        assert scheduled == ["on_interaction"]
    finally:
        await bot.close()


def test_installed_once() -> None:
    lean_interactions.install()
    assert discord.interactions.Message is ClickedMessage
