"""The cards' faces uploaded as the application's emojis, once, at start (issue 41).

After the gateway is ready (the application's id is known since the login), a background
task, which delays nothing: lists the application's emojis (``GET /applications/{id}/emojis``,
discord.py's ``Client.fetch_application_emojis``), draws and creates each face whose name is
missing (``POST``, ``Client.create_application_emoji``), one at a time in the process's share
of the global limit (``bot.ops.request_budget``; discord.py waits out a 429), and reuses the
ones found by name; then the card emojis are used (``cogs.kit.card_emojis``). A face's name
carries its design's version, so a new design uploads new faces; no emoji is ever deleted or
renamed, so the application's other emojis (and older faces) stay as they are.

Several processes of one bot (shards) upload at once: a name another one created meanwhile
is refused as taken, and listed again and reused. Refused otherwise, it stops without
emojis (logged once at WARNING) and the game goes on in plain text: too many emojis for
Discord's 2,000 per application, or an upload Discord refuses.
See https://discord.com/developers/docs/resources/emoji ("Application-Owned Emoji", "List
Application Emojis", "Create Application Emoji": at most 256 KiB, 128x128).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass

import discord

from bot.process.client import TableBot
from cogs.game_ui import DRAWS_CARD_EMOJIS, GameUI, able
from cogs.kit.card_emojis import (
    CARD_EMOJIS,
    MAX_APPLICATION_EMOJIS,
    MAX_EMOJI_BYTES,
    CardEmojis,
    Face,
    install_fallback,
)

log = logging.getLogger(__name__)
# Discord's answer to a name the application already has (the processes of a sharded bot
# upload at the same start): the emoji is there, listed again and reused.
NAME_TAKEN = "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"


@dataclass(frozen=True)
class Uploaded:
    """What a start did: faces created, faces reused (found by name)."""

    created: int
    reused: int


def faces_of(uis: Iterable[GameUI]) -> list[Face]:
    """Every face the game UIs draw as emojis (their tokens and names unique)."""
    faces: dict[str, Face] = {}
    for ui in uis:
        drawer = able(ui, DRAWS_CARD_EMOJIS)
        if drawer is not None:
            for face in drawer.card_faces():
                faces.setdefault(face.name, face)
    return list(faces.values())


async def upload(client: TableBot, faces: list[Face],
                 emojis: CardEmojis = CARD_EMOJIS) -> Uploaded | None:
    """Create the missing faces, reuse the others, and use them all; None when refused (the
    cards stay plain text)."""
    try:
        existing = await client.fetch_application_emojis()
    except discord.HTTPException as error:
        emojis.stop(f"the application's emojis could not be listed ({error.status})")
        return None
    by_name = {emoji.name: emoji for emoji in existing}
    missing = [face for face in faces if face.name not in by_name]
    if len(existing) + len(missing) > MAX_APPLICATION_EMOJIS:
        emojis.stop(f"{len(missing)} more would pass Discord's {MAX_APPLICATION_EMOJIS}"
                    f" emojis per application ({len(existing)} already)")
        return None
    taken: list[str] = []  # names another process created meanwhile (shards)
    for face in missing:
        image = await asyncio.to_thread(face.draw)
        if len(image) > MAX_EMOJI_BYTES:
            emojis.stop(f"the face {face.name} is over 256 KiB ({len(image)} bytes)")
            return None

        async def create(face: Face = face, image: bytes = image) -> discord.Emoji:
            return await client.create_application_emoji(name=face.name, image=image)

        try:
            by_name[face.name] = await client.budget.run(create)
        except discord.HTTPException as error:
            if NAME_TAKEN in str(error.text):  # another process of the bot made it meanwhile
                taken.append(face.name)
                continue
            emojis.stop(f"Discord refused the upload of {face.name} ({error.status}:"
                        f" {error.text})")
            return None
    if taken:
        by_name.update({emoji.name: emoji for emoji in await client.fetch_application_emojis()})
        if any(name not in by_name for name in taken):
            emojis.stop("an emoji name was taken but is not listed")
            return None
    emojis.use({face.token: discord.PartialEmoji(name=face.name, id=by_name[face.name].id)
                for face in faces})
    created = len(missing) - len(taken)
    done = Uploaded(created=created, reused=len(faces) - created)
    log.info("card emojis in use: %d created, %d reused", done.created, done.reused)
    return done


_TASKS: set[asyncio.Task[None]] = set()


def start(client: TableBot, uis: Iterable[GameUI]) -> None:
    """The upload as a background task once the gateway is ready (``CARD_EMOJIS`` on), and
    the plain fallback of every request (``cogs.kit.card_emojis.install_fallback``)."""
    install_fallback(client.http, client.token_requests)
    CARD_EMOJIS.clear()

    async def run() -> None:
        await client.wait_until_ready()
        try:
            await upload(client, faces_of(uis))
        except Exception:  # emojis are an extra: the cards stay plain text
            log.exception("the card emojis could not be set up")

    task = asyncio.get_running_loop().create_task(run(), name="card-emojis")
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
