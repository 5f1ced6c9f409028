"""``forms.split_form`` (the stand-in's one-pass multipart reading, spec check off) reads a
message's form as aiohttp's part reader does, and the stand-in still stores, counts and sizes
every upload with it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any
from unittest import mock

import aiohttp
import pytest
from aiohttp import BodyPartReader, MultipartReader, streams
from aiohttp.test_utils import make_mocked_request

from bot.playground.fakediscord import FakeDiscord, forms

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40 + b"\r\n--not-the-boundary\r\n"


def form(payload: dict[str, Any], *files: tuple[str, bytes]) -> aiohttp.FormData:
    """A message's form as discord.py builds it: payload_json, then files[n]."""
    data = aiohttp.FormData(quote_fields=False)
    data.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for index, (name, content) in enumerate(files):
        data.add_field(f"files[{index}]", content, filename=name, content_type="image/png")
    return data


async def encoded(data: aiohttp.FormData) -> tuple[bytes, str]:
    payload = data()
    chunks: list[bytes] = []

    class Sink:
        async def write(self, chunk: bytes) -> None:
            chunks.append(bytes(chunk))

    await payload.write(Sink())  # type: ignore[arg-type]
    return b"".join(chunks), str(payload.content_type)


async def by_aiohttp(body: bytes, content_type: str) -> tuple[Any, list[tuple[str, str, bytes]]]:
    protocol = mock.Mock(_reading_paused=False)
    stream = streams.StreamReader(protocol, 2**16, loop=asyncio.get_running_loop())
    stream.feed_data(body)
    stream.feed_eof()
    request = make_mocked_request("POST", "/", headers={"Content-Type": content_type})
    reader = MultipartReader(request.headers, stream)
    payload: Any = None
    files: list[tuple[str, str, bytes]] = []
    while (part := await reader.next()) is not None:
        assert isinstance(part, BodyPartReader)
        data = await part.read()
        if part.name == "payload_json":
            payload = json.loads(data)
        elif part.filename:
            files.append((part.filename, part.headers.get("Content-Type", ""), bytes(data)))
    return payload, files


@pytest.mark.parametrize("files", [(), (("table.png", PNG),),
                                   (("a.png", PNG), ("b.png", b""), ("c é.png", PNG[:7]))])
async def test_split_form_reads_what_aiohttp_reads(files: tuple[tuple[str, bytes], ...]) -> None:
    body, content_type = await encoded(form({"content": "héllo", "attachments": []}, *files))
    quick = forms.split_form(body, content_type)
    assert quick == await by_aiohttp(body, content_type)
    assert [len(data) for _, _, data in quick[1]] == [len(content) for _, content in files]


def test_an_unusual_form_is_read_by_the_mime_parser() -> None:
    body = (b'--XyZ\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{"a": 1}\r\n'
            b"--XyZ\r\nContent-Disposition: form-data; name=\"files[0]\";"
            b" filename*=utf-8''caf%C3%A9.png\r\nContent-Type: image/png\r\n\r\nPNG\r\n--XyZ--\r\n")
    assert forms._split(body, b"XyZ") is None
    assert forms.split_form(body, "multipart/form-data; boundary=XyZ") == (
        {"a": 1}, [("café.png", "image/png", b"PNG")])


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    async with fake:
        yield fake


@pytest.mark.parametrize("checked", [True, False])
async def test_uploads_are_stored_counted_and_sized(fd: FakeDiscord, checked: bool) -> None:
    fd.set_validation(checked)
    url = f"{fd.base_url}/api/v10/channels/{fd.general.id}/messages"
    async with aiohttp.ClientSession() as http:
        answer = await http.post(url, data=form({"content": "look"}, ("table.png", PNG)),
                                 headers={"Authorization": f"Bot {fd.token}"})
        assert answer.status == 200, await answer.text()
        posted = await answer.json()
    [attachment] = posted["attachments"]
    assert attachment["filename"] == "table.png" and attachment["size"] == len(PNG)
    [upload] = fd.world.uploads
    assert upload.size == len(PNG) and upload.filename == "table.png"
    assert fd.world.attachments[int(attachment["id"])] == PNG
