"""Issue 29's review at the real bot: a finished SPLIT game's My review button on the final post
opens the clicker's own review privately (shown once the background worker stored it), in
each of the four languages; a non-player is refused; a player opens theirs from a replay
page too. The stand-in validates every request (embeds, buttons, limits)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import StoredMessage
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log
from tests.e2e.test_scenario_split import play_checked_game

REVIEW_TIMEOUT = 120.0  # a review's CPU budget here is 4 s, at the lowest priority
TITLES = {"en": "Your review · SPLIT", "es": "Tu revisión · SPLIT",
          "gu": "તમારી સમીક્ષા · SPLIT", "sq": "Rishikimi juaj · SPLIT"}


@pytest.fixture
async def review_bot(guild: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    proc = BotProcess(guild, tmp_path / "bot",
                      extra_env={**BOT_ENV, "REVIEW_CPU_SECONDS": "4"})
    try:
        await proc.start()
        await proc.wait_until(lambda: guild.commands(), 20.0, "the command sync")
        yield proc
    finally:
        await proc.close()


def final_post(guild: FakeDiscord, channel_id: int) -> StoredMessage | None:
    posts = [m for m in guild.world.messages.values()
             if m.channel_id == channel_id and not m.ephemeral and "tb:rematch" in
             str(m.components)]
    return posts[-1] if posts else None


async def open_review(guild: FakeDiscord, bot: BotProcess, user: object, message: StoredMessage,
                      custom_id: str, title: str) -> StoredMessage:
    opened = await guild.click(user, message, custom_id)  # type: ignore[arg-type]
    assert opened.ephemeral and opened.original_message_id is not None, opened.callback_data
    answer_id = opened.original_message_id
    await bot.wait_until(lambda: title in guild.message(answer_id).text, REVIEW_TIMEOUT,
                         f"the review titled {title!r}")
    return guild.message(answer_id)


async def test_review_from_the_final_post_and_the_replay_in_every_language(
    guild: FakeDiscord, review_bot: BotProcess
) -> None:
    alice, bob, carol = guild.world.users.values()
    table, _ = await play_checked_game(guild, review_bot, "split-table", crashes=False)
    sid = table.session_id
    await review_bot.wait_until(lambda: final_post(guild, table.channel.id) is not None, 30.0,
                                "the final post")
    post = final_post(guild, table.channel.id)
    assert post is not None
    button = f"tb:rv:{sid}:0:o"
    assert post.button("My review")["custom_id"] == button

    refused = await guild.click(carol, post, button)
    assert refused.ephemeral
    assert "Only the game's own players" in str(refused.callback_data), refused.callback_data

    review = await open_review(guild, review_bot, alice, post, button, TITLES["en"])
    assert "Accuracy" in review.text and "simulations per decision" in review.text
    # The seeded players do not play as the expert does: a page per differing decision.
    assert review.component(f"tb:rv:{sid}:1:n") is not None, review.text
    await guild.click(alice, review, f"tb:rv:{sid}:1:n")
    page = guild.message(review)
    assert "Decision 1 of" in page.text and "You played" in page.text
    assert "The expert plays" in page.text and "Estimated cost" in page.text
    assert "Your hand" in page.text  # the position as Alice saw it

    for language in ("es", "gu", "sq"):
        chosen = await guild.slash(alice, table.channel, "language", language=language)
        assert chosen.ephemeral
        await open_review(guild, review_bot, alice, post, button, TITLES[language])

    opened = await guild.click(bob, table.table(), f"tb:rp:{sid}:0:o")
    assert opened.ephemeral and opened.original_message_id is not None
    replay = guild.message(opened.original_message_id)
    assert replay.button("My review")["custom_id"] == button
    await open_review(guild, review_bot, bob, replay, button, TITLES["en"])
    # Stored once: two players' reviews, each computed one time.
    rows = table.db._query("SELECT user_id, status FROM reviews WHERE session_id = ?", sid)
    assert sorted(rows) == sorted([(str(alice.id), "done"), (str(bob.id), "done")])
    assert sum("review of session" in line and "stored" in line
               for line in review_bot.output) == 2
    assert_clean_log(review_bot)
