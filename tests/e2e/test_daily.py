"""Issue 33 (the daily deal) at the real bot: ``/daily play`` for TEN and SPLIT played whole,
privately (the stand-in sees no channel request for them: only the player's ephemeral message,
its clicks answered with UPDATE_MESSAGE and the machine seats' moves shown through the
interaction token's ``@original``); an unfinished daily resumed after a restart; a second try
refused with the next deal's time; Share posts once; ``/daily board`` shows the score; today's
replay refused; then the bot's clock moved past midnight (``CLOCK_OFFSET_SECONDS``) deals a
new deal and opens yesterday's replay."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.daily.deal import daily_seed, next_deal_at
from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import FakeUser, InteractionRecord, StoredMessage
from game.action_codes import action_code
from game.split import SplitEngine
from game.ten import TenEngine
from tests.e2e.players import GameDb, choices_on, use
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log, reply_content, synced_bot

SECRET = "e2e daily secret"
ENGINES: dict[str, Any] = {"ten": TenEngine(), "split": SplitEngine()}
ENV = {**BOT_ENV, "DAILY_SECRET": SECRET, "EXPERT_DEADLINE_MS": "20"}
WAIT = 60.0


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.add_user("alice")
    fake.add_user("bob")
    fake.add_channel("daily")
    async with fake:
        yield fake


@pytest.fixture
async def bot(fd: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    async with synced_bot(fd, tmp_path / "bot", ENV, keep_lines=20_000) as proc:
        yield proc


class Daily:
    """One player's daily of one game, read from the bot's database and the stand-in."""

    def __init__(self, fd: FakeDiscord, bot: BotProcess, user: FakeUser, game: str) -> None:
        self.fd, self.bot, self.user, self.game = fd, bot, user, game
        self.db = GameDb(bot.database_path)
        self.engine = ENGINES[game]
        self.me = str(user.id)

    def row(self) -> tuple[int, str, int, dict[str, Any]]:
        """(id, status, version, state) of the player's newest daily of this game."""
        rows = self.db._query(
            "SELECT id, status, version, state FROM sessions WHERE kind = 'daily'"
            " AND host_id = ? AND game = ? ORDER BY id DESC LIMIT 1", self.me, self.game)
        assert rows, "no daily session stored"
        sid, status, version, state = rows[0]
        return int(sid), str(status), int(version), json.loads(state)

    async def message(self, record: InteractionRecord) -> StoredMessage:
        def shown() -> StoredMessage | None:
            if not record.original_message_id:
                return None
            message = self.fd.message(record.original_message_id)
            return None if message.loading else message
        return await self.fd.wait_for(shown, WAIT, "the command's answer")

    async def settled(self, message: StoredMessage) -> tuple[str, int, dict[str, Any]]:
        """Wait until the game awaits the player and the message shows controls of the
        stored version, or the game is over and the message shows its end."""
        found: list[tuple[str, int, dict[str, Any]]] = []

        def ready() -> bool:
            _, status, version, state = self.row()
            current = self.fd.message(message.id)
            if status == "finished":
                done = "Your score" in current.text
            else:
                parsed = self.engine.state_model.model_validate(state)
                versions = {c.version for c in choices_on(current) if c.is_game_control}
                done = self.me in self.engine.awaiting(parsed) and versions == {version}
            if done:
                found[:] = [(status, version, state)]
            return done

        await self.bot.wait_until(ready, WAIT, f"the {self.game} daily's next turn")
        return found[0]

    async def play(self, message: StoredMessage, moves: int | None = None) -> StoredMessage:
        """Play the engine's default moves from the message's controls until the game ends
        (or ``moves`` were made); returns the message as it stands."""
        made = 0
        while moves is None or made < moves:
            status, _, state = await self.settled(message)
            if status == "finished":
                break
            action = self.engine.default_action(self.engine.state_model.model_validate(state),
                                                self.me)
            code = action_code(action)
            for _ in range(10):
                current = self.fd.message(message.id)
                found = [c for c in choices_on(current)
                         if c.custom_id.endswith(f":a:{code}") or c.values == (code,)]
                if found:
                    break
                more = [c for c in choices_on(current)
                        if ":pg:" in c.custom_id and "More" in c.label]
                assert more, f"no control for {action!r} on {current.text}"
                await use(self.fd, self.user, more[0])
            record = await use(self.fd, self.user, found[0])
            assert record.callback_type == 7, record.callback_data  # UPDATE_MESSAGE
            made += 1
        return self.fd.message(message.id)


def channel_requests(fd: FakeDiscord) -> list[str]:
    """The bot's requests that post, edit or delete anything in a channel."""
    return [f"{call.method} {call.path}" for call in fd.world.calls
            if call.path.startswith("/api/v10/channels/") and call.method != "GET"]


async def test_the_daily_deal_at_the_real_bot(fd: FakeDiscord, bot: BotProcess) -> None:
    alice, bob = fd.world.users.values()
    channel = fd.channel_named("daily")

    # TEN, played whole, privately.
    ten = Daily(fd, bot, alice, "ten")
    opened = await fd.slash(alice, channel, "daily play", game="ten")
    assert opened.ephemeral and opened.callback_type == 4
    message = await ten.message(opened)
    ten_id, _, _, state = ten.row()
    today = datetime.now(UTC).date()
    assert state["seed"] == daily_seed(SECRET, "ten", today)  # the day's deal, from the secret
    final = await ten.play(message)
    assert "Your score" in final.text and "This server's board" in final.text
    assert f"<t:{int(next_deal_at(datetime.now(UTC)).timestamp())}:R>" in final.text
    edits = [call for call in fd.world.calls
             if call.method == "PATCH" and call.path.endswith("/messages/@original")]
    assert edits, "the machine seat's moves never edited the private message"

    # SPLIT: a few moves, a restart, the same table resumed in a new message, then to its end.
    split = Daily(fd, bot, alice, "split")
    first = await split.message(await fd.slash(alice, channel, "daily play", game="split"))
    await split.play(first, moves=3)
    split_id, _, version, _ = split.row()
    await bot.restart(hard=True)
    await bot.wait_until(lambda: fd.commands(), 20.0, "the command sync")
    resumed = await fd.slash(alice, channel, "daily play", game="split")
    assert resumed.ephemeral and resumed.callback_type == 4
    again = await split.message(resumed)
    assert again.id != first.id and split.row()[0] == split_id and split.row()[2] >= version
    final_split = await split.play(again)
    assert "Your score" in final_split.text

    # Nothing of either game reached the channel.
    assert fd.public(channel) == [] and channel_requests(fd) == []
    results = ten.db._query("SELECT count(*) FROM results")
    assert results == [(0,)]  # never rated, never on the ordinary boards

    # A second try, refused with the next deal's time.
    refused = await fd.slash(alice, channel, "daily play", game="ten")
    assert refused.ephemeral and "You have played today's deal" in reply_content(refused)
    assert "<t:" in reply_content(refused) and ":R>" in reply_content(refused)

    # Share posts the summary (no cards) once.
    [share] = [c for c in choices_on(fd.message(final.id)) if c.custom_id.startswith("tb:dshare:")]
    shared = await use(fd, alice, share)
    assert shared.callback_type == 4 and not shared.ephemeral
    [post] = fd.public(channel)
    assert f"<@{alice.id}> played the daily TEN deal" in post.text and "streak" in post.text
    twice = await use(fd, alice, share)
    assert twice.ephemeral and "shared this deal already" in reply_content(twice)
    assert len(fd.public(channel)) == 1

    # /stats shows the daily's streaks (the lines the daily feature registers for /stats).
    stats = await ten.message(await fd.slash(alice, channel, "stats", game="ten"))
    assert stats.ephemeral_for == alice.id and "Daily deal streaks" in stats.text, stats.text
    assert "TEN: 1 day in a row (best 1)" in stats.text, stats.text

    # The server's board shows the score.
    [(score,)] = ten.db._query("SELECT score FROM daily_plays WHERE session_id = ?", ten_id)
    board = await ten.message(await fd.slash(bob, channel, "daily board", game="ten"))
    assert f"<@{alice.id}> · {score}" in board.text, board.text

    # Today's deal is not replayed while the day runs.
    early = await fd.slash(bob, channel, "daily replay", game="ten", day=today.isoformat())
    assert early.ephemeral and "once its day is over" in reply_content(early)

    # Past midnight: yesterday's replay opens, and a new deal is dealt.
    midnight = datetime.combine(today + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    offset = midnight + timedelta(minutes=5) - datetime.now(UTC)
    bot.extra_env["CLOCK_OFFSET_SECONDS"] = str(offset.total_seconds())
    await bot.restart(hard=False)
    await bot.wait_until(lambda: fd.commands(), 20.0, "the command sync")
    replay = await ten.message(await fd.slash(bob, channel, "daily replay", game="ten"))
    assert replay.ephemeral_for == bob.id
    assert any(c.custom_id.startswith("tb:rp:") for c in choices_on(replay))
    fresh = await fd.slash(alice, channel, "daily play", game="ten")
    assert fresh.ephemeral and "You have played" not in reply_content(fresh)
    await ten.message(fresh)
    new_id, _, _, new_state = ten.row()
    assert new_id != ten_id
    assert new_state["seed"] == daily_seed(SECRET, "ten", today + timedelta(days=1))
    assert new_state["seed"] != state["seed"]
    assert fd.public(channel) == [post, board]  # what players asked to show: Share, the board
    assert channel_requests(fd) == []
    assert_clean_log(bot)
    assert fd.unknown_routes == [], bot.log_text()
