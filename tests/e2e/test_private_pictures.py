"""Pictures at private tables (issue 41), at the real bot with ``IMAGES=on``: the ``/learn``
message is one card with the player's hand picture, drawn by the same workers, whose alt text
(in the player's language) names their cards in order and no card of the bot seats' hands;
with ``/images off`` the same message is text alone."""

from __future__ import annotations

import json

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import StoredMessage
from cogs.i18n.language import Language
from game.split import SplitEngine
from tests.e2e.players import GameDb, choices_on, use
from tests.e2e.scenario_support import assert_clean_log

DECISIONS = 3


def hands_now(bot: BotProcess, player: str) -> tuple[list[str], list[list[str]], list[str]]:
    """The player's hand, every other seat's, and the discard row, from the stored state."""
    [(raw,)] = GameDb(bot.database_path)._query(
        "SELECT state FROM sessions WHERE kind = 'learn' ORDER BY id DESC LIMIT 1")
    engine = SplitEngine()
    state = engine.state_model.model_validate(json.loads(raw))
    mine = engine.view(state, player)
    others = [engine.view(state, seat).hand or [] for seat in state.players if seat != player]
    return list(mine.hand or []), others, list(mine.row)


def alt_of(message: StoredMessage) -> str | None:
    shown = [alt for url, alt in message.pictures() if url == "attachment://hand.png"]
    return shown[0] if shown else None


@pytest.mark.parametrize("language", list(Language))
async def test_the_learn_table_shows_the_players_hand_picture(
    guild: FakeDiscord, pictures_bot: BotProcess, language: Language
) -> None:
    fd = guild
    alice, _, _ = fd.world.users.values()
    await fd.slash(alice, fd.general, "language", language=language.value)
    await fd.slash(alice, fd.general, "learn", game="split")
    message = fd.latest_ephemeral(alice)
    assert message is not None
    me = str(alice.id)
    for _ in range(DECISIONS):
        await pictures_bot.wait_until(
            lambda: alt_of(fd.message(message.id)) is not None and choices_on(
                fd.message(message.id)), 30.0, "the hand picture on the private table")
        shown = fd.message(message.id)
        assert shown.card and [a["filename"] for a in shown.attachments] == ["hand.png"]
        hand, others, row = hands_now(pictures_bot, me)
        alt = alt_of(shown)
        assert alt is not None and ", ".join(hand) in alt  # the cards in order
        hidden = {card for seat in others for card in seat} - set(hand) - set(row)
        assert not any(card in alt for card in hidden)
        await use(fd, alice, choices_on(shown)[-1])
    assert fd.public(fd.general) == []
    assert_clean_log(pictures_bot)


async def test_with_pictures_off_the_learn_table_is_text_alone(
    guild: FakeDiscord, pictures_bot: BotProcess
) -> None:
    fd = guild
    _, bob, _ = fd.world.users.values()
    await fd.slash(bob, fd.general, "images", show="off")
    await fd.slash(bob, fd.general, "learn", game="split")
    message = fd.latest_ephemeral(bob)
    assert message is not None
    await pictures_bot.wait_until(lambda: choices_on(fd.message(message.id)), 30.0,
                                  "the private table's controls")
    await use(fd, bob, choices_on(fd.message(message.id))[-1])
    await pictures_bot.wait_until(lambda: len(fd.message(message.id).versions) > 1, 30.0,
                                  "the answer to the click")
    shown = fd.message(message.id)
    assert shown.card and shown.attachments == [] and shown.pictures() == []
    assert not any(u.filename == "hand.png" for u in fd.world.uploads)
    assert_clean_log(pictures_bot)
