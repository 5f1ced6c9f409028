"""Issue 19 at the real bot process: solo TEN against an expert seat.

Alice opens ``/game new game:ten level:expert`` (the lobby shows the expert bot seated) and
starts. She plays her turns by clicking; the expert's moves are searched in the bot's process
pool and stored like anyone's (the oracle replays every stored move through the engine, so
each one was legal). While the expert is on turn Alice asks for the table: the bot answers
at once, within Discord's 3 s like every other interaction.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from game.ten import TenEngine
from tests.e2e.players import Strategy
from tests.e2e.scenario_support import assert_clean_log, report_latency
from tests.e2e.table_play import TablePlay
from tests.e2e.test_scenario_ten import ten_rank

BOT = "bot:1"
EXPERT_MOVES = 8  # at least this many expert moves, then Alice stops


async def test_solo_ten_against_an_expert(guild: FakeDiscord, live_bot: BotProcess) -> None:
    alice = next(iter(guild.world.users.values()))
    channel = guild.channel_named("ten-table")
    table = TablePlay(guild, live_bot, channel, TenEngine(), Strategy(ten_rank, seed=4))
    await table.open("ten", alice, level="expert")
    assert table.oracle.state.players == [str(alice.id), BOT]
    lobby = guild.message(table.row().table_message_id or 0)
    assert any("Bot 1 (bot, expert)" in text for text in lobby.all_texts())
    expert_moves = 0
    asked_meanwhile = 0
    while expert_moves < EXPERT_MOVES and not table.oracle.over:
        if table.oracle.awaiting()[0] == BOT:
            # The expert is thinking (or pacing its moves): the table is answered meanwhile.
            status = await guild.slash(alice, channel, "game status")
            assert status.callback_type == 4, status.callback_data
            asked_meanwhile += 1
            expert_moves += await table.machine_moves()
        else:
            await table.step()
    assert expert_moves >= EXPERT_MOVES and asked_meanwhile > 0
    bot_rows = [row for row in table.db.actions(table.session_id) if row[1] == BOT]
    assert len(bot_rows) == expert_moves
    assert "machine moves: 1 decision worker process(es)" in live_bot.log_text()
    report_latency(guild, "TEN solo against an expert")
    # SIGTERM: a clean exit, and the decision workers stop with the bot.
    assert live_bot.proc is not None
    workers = children(live_bot.proc.pid)
    assert workers, "no decision worker process runs"
    assert await live_bot.terminate() == 0
    async with asyncio.timeout(5.0):  # the workers see their pipes close, then exit
        while [pid for pid in workers if alive(pid)]:
            await asyncio.sleep(0.05)
    assert_clean_log(live_bot)


def children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in found]


def alive(pid: int) -> bool:
    """Running, not gone and not a zombie waiting for its parent."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")
