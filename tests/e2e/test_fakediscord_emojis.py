"""The stand-in's application emojis (``fakediscord/app_emojis.py``, issue 41): listed and
created as Discord does (name pattern, a data URI image, at most 256 KiB, 2,000 per
application, a name taken refused), every request checked against the spec, and a
component naming an emoji the application lacks refused with 50035 Invalid emoji."""

from __future__ import annotations

import base64
from typing import Any

import aiohttp
import pytest

from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.app_emojis import MAX_EMOJIS

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32


def image(data: bytes = PNG) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


async def call(fd: FakeDiscord, method: str, path: str,
               body: Any = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fd.token}"}
    async with aiohttp.ClientSession() as session, session.request(
            method, f"{fd.base_url}/api/v10{path}", json=body, headers=headers) as answer:
        return answer.status, await answer.json()


def emojis_path(fd: FakeDiscord) -> str:
    return f"/applications/{fd.world.app_id}/emojis"


async def test_created_emojis_are_listed_per_application(fd: FakeDiscord) -> None:
    status, made = await call(fd, "POST", emojis_path(fd), {"name": "split_7h_v1",
                                                            "image": image()})
    assert status == 201 and made["name"] == "split_7h_v1" and made["require_colons"]
    status, listed = await call(fd, "GET", emojis_path(fd))
    assert status == 200 and listed == {"items": [made]}
    status, _ = await call(fd, "GET", "/applications/1/emojis")
    assert status == 403  # another application's
    assert fd.take_violations() == []


@pytest.mark.parametrize(("body", "field"), [
    ({"name": "bad-name", "image": image()}, "STRING_TYPE_REGEX"),
    ({"name": "x", "image": image()}, "BASE_TYPE_BAD_LENGTH"),  # the spec's minLength
    ({"name": "fine", "image": "not a data uri"}, "IMAGE_INVALID"),
])
async def test_a_bad_emoji_is_refused_as_a_violation(fd: FakeDiscord, body: dict[str, str],
                                                     field: str) -> None:
    status, answer = await call(fd, "POST", emojis_path(fd), body)
    assert status == 400 and answer["code"] == 50035
    violations = fd.take_violations()
    assert len(violations) == 1 and fd.app_emojis() == []


async def test_a_taken_name_an_oversized_image_and_the_cap_are_refused(
    fd: FakeDiscord
) -> None:
    assert (await call(fd, "POST", emojis_path(fd), {"name": "card", "image": image()}))[0] \
        == 201
    status, answer = await call(fd, "POST", emojis_path(fd), {"name": "card",
                                                              "image": image()})
    assert status == 400
    assert answer["errors"]["name"]["_errors"][0]["code"] == \
        "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"
    status, answer = await call(fd, "POST", emojis_path(fd), {
        "name": "big", "image": image(PNG + b"\0" * (256 * 1024))})
    assert status == 400 and "maximum size" in answer["message"]
    assert len(fd.take_violations()) == 2
    stored = fd.world.app_emojis.of(fd.world.app_id)
    for index in range(MAX_EMOJIS - 1):
        stored[10_000 + index] = {"id": str(10_000 + index), "name": f"e{index}"}
    status, answer = await call(fd, "POST", emojis_path(fd), {"name": "one_more",
                                                              "image": image()})
    assert status == 400 and answer["code"] == 30008
    fd.take_violations()


async def test_a_component_naming_an_unknown_emoji_is_refused(fd: FakeDiscord) -> None:
    status, made = await call(fd, "POST", emojis_path(fd), {"name": "split_7h_v1",
                                                            "image": image()})
    channel = fd.general
    row = {"type": 1, "components": [{"type": 2, "style": 2, "custom_id": "a",
                                      "label": "Discard 7♥",
                                      "emoji": {"id": made["id"], "name": made["name"]}}]}
    status, _ = await call(fd, "POST", f"/channels/{channel.id}/messages",
                           {"content": "x", "components": [row]})
    assert status == 200
    row["components"][0]["emoji"] = {"id": "123456789", "name": "nope"}
    status, answer = await call(fd, "POST", f"/channels/{channel.id}/messages",
                                {"content": "x", "components": [row]})
    assert status == 400 and answer["code"] == 50035
    assert "BUTTON_COMPONENT_INVALID_EMOJI" in str(answer["errors"])
    assert len(fd.take_violations()) == 1  # the bot never names an emoji it lacks
    fd.delete_app_emojis()
    row["components"][0]["emoji"] = {"id": made["id"], "name": made["name"]}
    status, _ = await call(fd, "POST", f"/channels/{channel.id}/messages",
                           {"content": "x", "components": [row]})
    assert status == 400 and fd.take_violations() == []  # deleted on purpose: deliberate
