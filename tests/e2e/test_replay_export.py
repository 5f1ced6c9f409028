"""Issue 21 at the real bot: a finished SPLIT game's Replay button, paging, jumps, /game export
(replayed by ``python -m game.split replay FILE``) and the refusals (a running game, /config
without Manage Server)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from tests.e2e.scenario_support import assert_clean_log
from tests.e2e.test_scenario_split import new_play, play_checked_game

STILL_RUNNING_START = "That game is still running"


async def test_replay_and_export_of_a_finished_split_game(
    guild: FakeDiscord, live_bot: BotProcess, tmp_path: Path
) -> None:
    alice, bob, carol = guild.world.users.values()
    table, _ = await play_checked_game(guild, live_bot, "split-table", crashes=False)
    sid = table.session_id
    final = table.table()
    assert [c["custom_id"] for c in final.interactive()] == [
        f"tb:info:{sid}:rules", f"tb:info:{sid}:scores", f"tb:rp:{sid}:0:o"]

    opened = await guild.click(carol, final, f"tb:rp:{sid}:0:o")
    assert opened.ephemeral and opened.original_message_id is not None, opened.callback_data
    replay = guild.message(opened.original_message_id)
    assert "step 0 of" in replay.text and "The deal." in replay.text
    assert replay.component(f"tb:rp:{sid}:0:p")["disabled"]  # type: ignore[index]
    nxt = next(c["custom_id"] for c in replay.interactive() if c["custom_id"].endswith(":n"))
    await guild.click(carol, replay, nxt)
    assert "step 1 of" in guild.message(replay).text
    last = next(c["custom_id"] for c in guild.message(replay).interactive()
                if c["custom_id"].endswith(":l"))
    end = int(last.split(":")[3])
    await guild.click(carol, replay, last)
    at_end = guild.message(replay)
    assert f"step {end} of {end}" in at_end.text
    assert at_end.component(f"tb:rp:{sid}:{end}:n")["disabled"]  # type: ignore[index]
    # The last step's table is the final table (its buttons are the table's, not the replay's).
    buttons = {c.get("label") for c in final.interactive()}
    for text in final.versions[-1].texts():
        assert text in at_end.text or text in buttons
    rounds = at_end.component(f"tb:rpj:{sid}:r")
    assert rounds is not None
    round_two = next(o for o in rounds["options"] if o["label"] == "Round 2")
    await guild.select(carol, replay, f"tb:rpj:{sid}:r", [round_two["value"]])
    assert "round 2, turn 1" in guild.message(replay).text

    exported = await guild.slash(alice, table.channel, "game export")
    assert exported.ephemeral and exported.original_message_id is not None
    (attachment,) = guild.message(exported.original_message_id).attachments
    path = tmp_path / attachment["filename"]
    path.write_bytes(guild.world.attachments[int(attachment["id"])])
    ran = subprocess.run([sys.executable, "-m", "game.split", "replay", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stdout + ran.stderr

    config = await guild.slash(alice, table.channel, "config", replays="players")
    assert config.ephemeral and "Manage Server" in (config.callback_data or {})["content"]

    running = new_play(guild, live_bot, seed=3, channel_name="split-replay")
    await running.open("split", alice, bob)
    refused = await guild.slash(alice, running.channel, "game export", session=running.session_id)
    assert refused.ephemeral
    assert (refused.callback_data or {})["content"].startswith(STILL_RUNNING_START)
    assert_clean_log(live_bot)
