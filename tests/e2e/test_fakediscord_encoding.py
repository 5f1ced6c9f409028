"""The stand-in encodes a message's JSON once per request (its REST answer and its gateway
event share it, ``rest.encoded_response``, ``Gateway.dispatch_message_event``): what goes on
the wire must be, byte for byte, ``json.dumps`` of what it answers and of the frames it keeps
for a RESUME."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from bot.playground.fakediscord import FakeDiscord

GUILD_MESSAGES = 1 << 9


def plain(text: str) -> Any:
    """The JSON of ``text``, which must be exactly what ``json.dumps`` makes of it."""
    data = json.loads(text)
    assert json.dumps(data) == text, text
    return data


async def test_answers_and_events_are_encoded_as_json_dumps_would(fd: FakeDiscord) -> None:
    alice = next(iter(fd.world.users.values()))
    auth = {"Authorization": f"Bot {fd.token}"}
    api = fd.base_url + "/api/v10"
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(fd.base_url.replace("http", "ws", 1) + "/")
        plain((await ws.receive()).data)  # HELLO
        await ws.send_str(json.dumps({"op": 2, "d": {"token": fd.token, "intents": GUILD_MESSAGES,
                                                      "properties": {}}}))
        texts: list[str] = []

        async def frame() -> dict[str, Any]:
            text = (await ws.receive(timeout=5)).data
            texts.append(text)
            return dict(plain(text))

        assert (await frame())["t"] == "READY"
        assert (await frame())["t"] == "GUILD_CREATE"

        channel = f"{api}/channels/{fd.general.id}/messages"
        body = {"content": f"Olá <@{alice.id}> — naïve",
                "components": [{"type": 1, "components": [
                    {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}]}
        sent = await http.post(channel, json=body, headers=auth)
        posted = plain(await sent.text())
        event = await frame()
        assert event["t"] == "MESSAGE_CREATE"
        assert event["d"] == {**posted, "guild_id": str(fd.guild_id)}

        edited = await http.patch(f"{channel}/{posted['id']}", json={"content": "é"},
                                  headers=auth)
        answer = plain(await edited.text())
        event = await frame()
        assert event["t"] == "MESSAGE_UPDATE" and event["d"]["content"] == answer["content"]

        # A click answered with an edit, with_response: the answer carries the message.
        record = await fd.click(alice, int(posted["id"]), "go", wait=False)
        assert (await frame())["t"] == "INTERACTION_CREATE"
        callback = await http.post(
            f"{api}/interactions/{record.id}/{record.token}/callback?with_response=true",
            json={"type": 7, "data": {"content": "after the click"}})
        answered = plain(await callback.text())
        assert answered["resource"]["type"] == 7
        assert answered["resource"]["message"]["content"] == "after the click"
        assert answered["interaction"]["id"] == str(record.id)
        assert (await frame())["d"]["content"] == "after the click"

        # A follow-up with wait=true.
        follow = await http.post(f"{api}/webhooks/{fd.world.app_id}/{record.token}?wait=true",
                                 json={"content": "more"})
        followed = plain(await follow.text())
        assert (await frame())["d"] == {**followed, "guild_id": str(fd.guild_id)}

        # The frames kept for a RESUME are what went on the wire.
        session = fd.gateway.current
        assert session is not None
        assert [json.dumps(f) for f in session.sent] == texts
        await ws.close()
