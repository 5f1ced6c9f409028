"""The token writes without discord.py's message objects (``bot.process.token_writes``): each
sends what discord.py's own call sends, against the stand-in with its contract check on; errors
come out as before; a 429 is waited out and retried on the token writes' own wire
(``bot.process.token_requests``); the REST trace counts every attempt; pictures go as
multipart; and the discord.py internals the path rests on still have the shape it uses."""

from __future__ import annotations

import inspect
import io
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import MultipartParameters, handle_message_parameters
from discord.webhook.async_ import interaction_message_response_params

from bot.playground.fakediscord.ratelimit import Limits
from bot.process.token_writes import DiscordWrites, TokenWrites
from cogs.kit.message_routes import token_refused
from tests.token_wire import Wire, token_wire

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00"
       b"\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8"
       b"N\x00\x00\x00\x00IEND\xaeB`\x82")


@pytest.fixture
async def wire() -> AsyncIterator[Wire]:
    async with token_wire() as wire:
        yield wire
        assert not wire.fd.take_violations()


def button_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Go", custom_id="b1"))
    return view


async def every_write(wire: Wire, writes: TokenWrites) -> list[dict[str, Any]]:
    """Each write once, in a game's order; what went out, ids and tokens replaced by names."""
    start = len(wire.sent)
    slash, _ = await wire.interaction()
    answer_id = await writes.send_message(slash, content="hi", embeds=[discord.Embed(title="T")],
                                          view=button_view())
    assert answer_id is not None
    follow = await writes.send_followup(slash, content="ping <@1>",
                                        allowed_mentions=discord.AllowedMentions(users=False))
    private = await writes.send_followup(slash, ephemeral=True, content="only you")
    await writes.edit_followup(slash, follow.id, content="ping again", view=button_view())
    await writes.edit_original(slash, content="edited", embeds=[])
    click, _ = await wire.interaction(on=answer_id)
    await writes.update_message(click, content="clicked", view=None)
    await writes.delete_followup(slash, private.id)
    await writes.delete_original(slash)
    names = {str(slash.id): "{slash}", str(click.id): "{click}", slash.token: "{token}",
             click.token: "{click_token}", str(follow.id): "{follow}",
             str(private.id): "{private}"}
    pattern = re.compile("|".join(re.escape(key) for key in names))
    out = []
    for request in wire.sent[start:]:
        body = json.loads(request["body"]) if request["body"] else None
        out.append({"method": request["method"],
                    "url": pattern.sub(lambda m: names[m[0]], request["url"]), "body": body})
    return out


async def test_each_write_sends_what_discord_py_sends(wire: Wire) -> None:
    reference = await every_write(wire, DiscordWrites())
    lean = await every_write(wire, wire.lean())
    assert wire.requests.pool.opened == 1  # the 8 lean writes on one kept-alive connection
    assert len(lean) == len(reference) == 8
    update = 5  # the click's update: its answer is not asked for (the message is the clicked one)
    assert reference[update]["url"].endswith("/callback?with_response=1")
    assert lean[update]["url"] == reference[update]["url"].removesuffix("?with_response=1")
    lean[update]["url"] = reference[update]["url"]
    assert lean == reference
    assert [r["method"] for r in lean] == ["POST", "POST", "POST", "PATCH", "PATCH", "POST",
                                           "DELETE", "DELETE"]


async def test_a_follow_up_gives_its_id_not_a_message(wire: Wire) -> None:
    slash, record = await wire.interaction()
    writes = wire.lean()
    answer_id = await writes.send_message(slash, content="hi")
    sent = await writes.send_followup(slash, content="next")
    assert type(sent) is discord.Object
    assert sent.id == record.followup_ids[-1] and answer_id == record.original_message_id
    assert slash.response.is_done()
    assert slash.response.type is discord.InteractionResponseType.channel_message
    with pytest.raises(discord.InteractionResponded):
        await writes.send_message(slash, content="twice")


Refusal = tuple[type[BaseException], int, int, bool]


async def refused(call: Callable[[], Awaitable[object]]) -> Refusal:
    with pytest.raises(discord.HTTPException) as caught:
        await call()
    error = caught.value
    return type(error), error.status, error.code, token_refused(error)


async def refusals(wire: Wire, writes: TokenWrites) -> list[Refusal]:
    """Each write refused: a message not of the token, then the token expired, then a token
    Discord does not know."""
    slash, record = await wire.interaction()
    await writes.send_message(slash, content="hi")
    sent = await writes.send_followup(slash, content="next")
    seen = [await refused(lambda: writes.delete_followup(slash, 4242)),
            await refused(lambda: writes.edit_followup(slash, 4242, content="x"))]
    wire.fd.expire_token(record)  # 15 minutes later: 401 Invalid Webhook Token
    seen += [await refused(lambda: writes.edit_original(slash, content="late")),
             await refused(lambda: writes.send_followup(slash, content="late")),
             await refused(lambda: writes.edit_followup(slash, sent.id, content="late")),
             await refused(lambda: writes.delete_followup(slash, sent.id)),
             await refused(lambda: writes.delete_original(slash))]
    unknown, _ = await wire.interaction()
    unknown.token = "not-a-token"  # Discord does not know it: 404 Unknown Webhook
    seen.append(await refused(lambda: writes.edit_original(unknown, content="?")))
    return seen


async def test_refusals_come_out_as_discord_py_raises_them(wire: Wire) -> None:
    lean = await refusals(wire, wire.lean())
    assert lean == await refusals(wire, DiscordWrites())
    assert lean[0] == lean[1] == (discord.NotFound, 404, 10008, False)
    assert lean[2:7] == [(discord.HTTPException, 401, 50027, True)] * 5
    assert lean[7] == (discord.NotFound, 404, 10015, True)


async def test_a_429_is_waited_out_and_retried_and_each_attempt_counted(wire: Wire) -> None:
    slash, record = await wire.interaction()
    writes = wire.lean()
    await writes.send_message(slash, content="hi")
    wire.fd.set_rate_limits(Limits(token_writes=1, token_window=0.3))
    # Another writer (another process of the bot) spends the token's bucket first.
    async with aiohttp.ClientSession() as other:
        url = f"{wire.fd.base_url}/api/v10/webhooks/{slash.application_id}/{slash.token}" \
              "/messages/@original"
        async with other.patch(url, json={"content": "first"}) as answer:
            assert answer.status == 200
    route = "PATCH /webhooks/{id}/{token}/messages/@original"
    before = wire.calls(route)
    await writes.edit_original(slash, content="second")
    assert wire.fd.rate_limited["token-writes"] == 1
    assert wire.calls(route) - before == 2  # the 429 and the retry
    limited = wire.metrics.registry.get_sample_value("tablebot_rest_429_total",
                                                     {"scope": "user"})
    assert limited == 1
    assert wire.fd.message(record.original_message_id).content == "second"


async def test_the_trace_counts_every_token_write(wire: Wire) -> None:
    await every_write(wire, wire.lean())
    assert wire.calls("POST /interactions/{id}/{token}/callback") == 2
    assert wire.calls("POST /webhooks/{id}/{token}") == 2
    assert wire.calls("PATCH /webhooks/{id}/{token}/messages/{id}") == 1
    assert wire.calls("PATCH /webhooks/{id}/{token}/messages/@original") == 1
    assert wire.calls("DELETE /webhooks/{id}/{token}/messages/{id}") == 1
    assert wire.calls("DELETE /webhooks/{id}/{token}/messages/@original") == 1
    assert wire.metrics.registry.get_sample_value("tablebot_global_calls_total") == 0


async def test_pictures_go_as_multipart(wire: Wire) -> None:
    slash, record = await wire.interaction()
    writes = wire.lean()
    embed = discord.Embed(title="T").set_image(url="attachment://table.png")
    await writes.send_message(slash, content="hi", embeds=[embed],
                              files=[discord.File(io.BytesIO(PNG), "table.png")])
    sent = await writes.send_followup(slash, content="f", embeds=[embed],
                                      files=[discord.File(io.BytesIO(PNG), "table.png")])
    await writes.edit_followup(slash, sent.id, embeds=[embed],
                               attachments=[discord.File(io.BytesIO(PNG), "table.png")])
    await writes.edit_original(slash, embeds=[embed],
                               attachments=[discord.File(io.BytesIO(PNG), "table.png")])
    assert [r["body"][:2] for r in wire.sent[-4:]] == [b"--"] * 4  # multipart bodies
    for message_id in (record.original_message_id, sent.id):
        message = wire.fd.message(message_id)
        assert [a["filename"] for a in wire.fd.world.message_json(message)["attachments"]] \
            == ["table.png"]


def test_discord_py_internals_keep_the_shape_the_path_uses() -> None:
    """Fails when discord.py changes what ``bot.process.token_writes`` calls or reads."""
    builder = inspect.signature(interaction_message_response_params).parameters
    assert {"type", "previous_allowed_mentions", "flags", "view", "files",
            "attachments"} <= set(builder)
    handler = inspect.signature(handle_message_parameters).parameters
    assert {"previous_allowed_mentions", "flags", "view", "files", "attachments"} <= set(handler)
    assert {"payload", "multipart", "files"} <= set(MultipartParameters._fields)
    assert hasattr(MultipartParameters, "__enter__")
    assert "_response_type" in discord.InteractionResponse.__slots__
    assert {"_state", "extras"} <= set(discord.Interaction.__slots__)
    state = inspect.signature(discord.state.ConnectionState.store_view).parameters
    assert list(state)[:3] == ["self", "view", "message_id"]
    assert hasattr(discord.state.ConnectionState, "prevent_view_updates_for")
