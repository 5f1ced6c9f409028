"""Cards as the application's emojis (issue 41), at the real bot (``CARD_EMOJIS=on``,
``IMAGES=on``) against the stand-in, which models Discord's application emoji routes and
refuses a component naming an emoji the application does not have.

The first start uploads every face (and leaves the application's other emojis alone); a
restart creates none and reuses them by name; the controls and texts of a game name their
cards with the emojis beside the plain names, in every language; with pictures off the
reader gets plain names; an upload Discord refuses, or a message refused for an emoji that
was deleted, leaves plain names and the game plays on."""

from __future__ import annotations

import base64
import functools
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.components import walk
from bot.playground.fakediscord.model import StoredMessage
from cogs.i18n.language import Language
from cogs.split.card_face import emoji_faces as split_faces
from cogs.ten.card_face import emoji_faces as ten_faces
from game.ten import display
from tests.e2e.players import choices_on, use
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log, synced_bot

FACES = len(split_faces()) + len(ten_faces(display))
EMOJI_ENV = {**BOT_ENV, "IMAGES": "on", "CARD_EMOJIS": "on"}
UPLOAD = "/applications/{app_id}/emojis"
SPLIT_CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")
CUSTOM = re.compile(r"<:([A-Za-z0-9_]+):([0-9]+)>")
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 64).decode()


def emoji_bot(guild: FakeDiscord, tmp_path: Path) -> BotProcess:
    return BotProcess(guild, tmp_path / "bot", extra_env=EMOJI_ENV)


@pytest.fixture
async def bot(guild: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    async with synced_bot(guild, tmp_path / "bot", EMOJI_ENV) as proc:
        yield proc


def uploads(fd: FakeDiscord) -> int:
    return sum(1 for call in fd.world.calls
               if call.method == "POST" and call.path.endswith("/emojis") and call.status == 201)


def option_emojis(message: StoredMessage) -> list[tuple[str, dict[str, Any] | None]]:
    """(label, emoji) of every select option and button of the message."""
    found: list[tuple[str, dict[str, Any] | None]] = []
    for component in walk(message.components):
        if component.get("type") == 2 and component.get("custom_id"):
            found.append((component.get("label") or "", component.get("emoji")))
        for option in component.get("options") or []:
            found.append((option.get("label") or "", option.get("emoji")))
    return found


def card_controls(message: StoredMessage) -> list[tuple[str, dict[str, Any] | None]]:
    return [(label, emoji) for label, emoji in option_emojis(message)
            if SPLIT_CARD.search(label)]


def answered(fd: FakeDiscord, message_id: int, versions: int) -> bool:
    """Whether the message has more than ``versions`` versions (edited since a click)."""
    return len(fd.message(message_id).versions) > versions


def texts(message: StoredMessage) -> str:
    return "\n".join(c.get("content") or "" for c in walk(message.components)
                     if c.get("type") == 10)


async def learn_message(fd: FakeDiscord, bot: BotProcess, user_index: int = 0) -> StoredMessage:
    user = list(fd.world.users.values())[user_index]
    await fd.slash(user, fd.general, "learn", game="split")
    message = fd.latest_ephemeral(user)
    assert message is not None
    await bot.wait_until(lambda: card_controls(fd.message(message.id)), 30.0,
                         "the private table's card controls")
    return fd.message(message.id)


async def test_the_first_start_uploads_the_faces_and_a_restart_reuses_them(
    guild: FakeDiscord, tmp_path: Path
) -> None:
    fd = guild
    # An emoji of the application's owner, there before the bot: never touched.
    fd.world.app_emojis.create(fd.world.app_id, fd.world.ids.next(),
                               {"name": "owners_logo", "image": f"data:image/png;base64,{PNG}"},
                               fd.world.user_json(fd.world.bot_user))
    proc = emoji_bot(fd, tmp_path)
    try:
        await proc.start()
        await proc.wait_until(lambda: f"{FACES} created, 0 reused" in proc.log_text(), 60.0,
                              "the first upload")
        assert uploads(fd) == FACES
        names = [emoji["name"] for emoji in fd.app_emojis()]
        assert names[0] == "owners_logo" and len(names) == FACES + 1 == len(set(names))
        await proc.restart(hard=False)
        await proc.wait_until(lambda: f"0 created, {FACES} reused" in proc.log_text(), 60.0,
                              "the reuse after the restart")
        assert uploads(fd) == FACES  # nothing created again
        assert [emoji["name"] for emoji in fd.app_emojis()] == names
        assert_clean_log(proc)
    finally:
        await proc.close()


async def test_the_game_names_its_cards_with_their_emojis_in_every_language(
    guild: FakeDiscord, bot: BotProcess
) -> None:
    fd = guild
    await bot.wait_until(lambda: "card emojis in use" in bot.log_text(), 60.0, "the upload")
    ids = {int(emoji["id"]): emoji["name"] for emoji in fd.app_emojis()}
    players = [*fd.world.users.values(), fd.add_user("dan")]
    for index, language in enumerate(Language):  # a player each: one /learn table each
        alice = players[index]
        await fd.slash(alice, fd.general, "language", language=language.value)
        message = await learn_message(fd, bot, user_index=index)
        controls = card_controls(message)
        for label, emoji in controls:
            assert emoji is not None and int(emoji["id"]) in ids, label
            card = SPLIT_CARD.search(label)
            assert card is not None and ids[int(emoji["id"])].startswith("split_")
            assert not CUSTOM.search(label)  # the label keeps the card's plain name
        # The hand's text: each card's emoji, then its plain name.
        shown = texts(message)
        named = CUSTOM.findall(shown)
        assert named and all(int(emoji_id) in ids for _, emoji_id in named)
        assert all(re.search(rf"<:{name}:{emoji_id}>(?:10|[2-9AJQK])[♠♥♦♣]", shown)
                   for name, emoji_id in named)
        versions = len(message.versions)
        await use(fd, alice, choices_on(message)[-1])
        await bot.wait_until(functools.partial(answered, fd, message.id, versions), 30.0,
                             "the answer to the click")
    assert_clean_log(bot)


async def test_with_pictures_off_the_cards_are_plain_names(
    guild: FakeDiscord, bot: BotProcess
) -> None:
    fd = guild
    await bot.wait_until(lambda: "card emojis in use" in bot.log_text(), 60.0, "the upload")
    bob = list(fd.world.users.values())[1]
    await fd.slash(bob, fd.general, "images", show="off")
    message = await learn_message(fd, bot, user_index=1)
    assert all(emoji is None for _, emoji in card_controls(message))
    assert not CUSTOM.search(texts(message))
    assert_clean_log(bot)


async def test_refused_uploads_leave_plain_names_and_the_game_plays_on(
    guild: FakeDiscord, tmp_path: Path
) -> None:
    fd = guild
    fd.refuse_emoji_uploads()
    proc = emoji_bot(fd, tmp_path)
    try:
        await proc.start()
        await proc.wait_until(lambda: "card emojis are no longer used" in proc.log_text(),
                              60.0, "the refused upload")
        message = await learn_message(fd, proc)
        assert all(emoji is None for _, emoji in card_controls(message))
        assert not CUSTOM.search(texts(message))
        alice = next(iter(fd.world.users.values()))
        before = len(message.versions)
        await use(fd, alice, choices_on(message)[-1])
        await proc.wait_until(lambda: len(fd.message(message.id).versions) > before, 30.0,
                              "the game going on")
        assert proc.log_text().count("card emojis are no longer used") == 1
    finally:
        await proc.close()


async def test_a_message_refused_for_a_deleted_emoji_goes_out_plain(
    guild: FakeDiscord, bot: BotProcess
) -> None:
    fd = guild
    await bot.wait_until(lambda: "card emojis in use" in bot.log_text(), 60.0, "the upload")
    fd.delete_app_emojis()  # as the owner may, in the Developer Portal
    message = await learn_message(fd, bot)
    assert all(emoji is None for _, emoji in card_controls(message))
    assert not CUSTOM.search(texts(message))
    refused = [call for call in fd.world.calls if call.status == 400]
    assert refused and all("BUTTON_COMPONENT_INVALID_EMOJI" in str(call.body)
                           for call in refused)
    alice = next(iter(fd.world.users.values()))
    before = len(message.versions)
    await use(fd, alice, choices_on(message)[-1])
    await bot.wait_until(lambda: len(fd.message(message.id).versions) > before, 30.0,
                         "the game going on")
    assert bot.log_text().count("card emojis are no longer used") == 1


async def test_ten_names_its_cards_with_their_emojis_and_colour_words(
    guild: FakeDiscord, bot: BotProcess
) -> None:
    """TEN at ``/learn``: the cards flipped onto the tableau are named with their emoji, then
    their square and their colour's word."""
    fd = guild
    await bot.wait_until(lambda: "card emojis in use" in bot.log_text(), 60.0, "the upload")
    carol = list(fd.world.users.values())[2]
    await fd.slash(carol, fd.general, "learn", game="ten")
    message = fd.latest_ephemeral(carol)
    assert message is not None
    ten_card = re.compile(r"<:ten_[a-z0-9]+_v1:[0-9]+>(?:🟥|🟦|🟧|🟩|🌈|\$)")
    for _ in range(6):
        await bot.wait_until(lambda: choices_on(fd.message(message.id)), 30.0, "TEN's controls")
        shown = fd.message(message.id)
        if ten_card.search(texts(shown)):
            break
        versions = len(shown.versions)
        await use(fd, carol, choices_on(shown)[0])
        await bot.wait_until(functools.partial(answered, fd, message.id, versions), 30.0,
                             "the answer to the click")
    shown = fd.message(message.id)
    found = ten_card.search(texts(shown))
    assert found, texts(shown)
    assert re.search(r">(🟥\d red|🟦\d blue|🟧\d orange|🟩\d green|🌈|\$)", texts(shown))
    assert_clean_log(bot)
