"""Issue 34 at the real bot: a forged control whose id carries a number out of range (a
session id no SQLite or PostgreSQL BIGINT holds) gets the clear ephemeral refusal of a control
whose game is gone, changes nothing, and leaves no traceback in the bot's log.

The stand-in lets a user click only an id that is on the message, so the forged id is put on
the table message as a modified client would present it: the table's own Scores button with
its id rewritten."""

from __future__ import annotations

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import StoredMessage
from tests.e2e.scenario_support import assert_clean_log
from tests.e2e.test_scenario_split import new_play

# The refusal names /game new as a command mention with the id the stand-in gave it at the sync.
GAME_GONE = "There is no game in this channel. Open one with </game new:{id}>."
TOO_BIG = 2**63  # one more than the largest BIGINT


def forge(message: StoredMessage, custom_id: str, forged: str) -> None:
    """Rewrite the id of the component ``custom_id`` on ``message`` (as users see it now)."""
    component = message.component(custom_id)
    assert component is not None, message.custom_ids()
    component["custom_id"] = forged


async def test_an_id_out_of_range_is_refused_without_a_traceback(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    alice, bob, carol = guild.world.users.values()
    table = new_play(guild, live_bot, 5)
    await table.open("split", alice, bob)
    sid, version = table.session_id, table.row().version
    shown = table.table()
    versions = len(shown.versions)
    for user, clicked, forged in (
        (carol, f"tb:info:{sid}:scores", f"tb:info:{TOO_BIG}:scores"),  # the id of issue 34
        (alice, f"tb:hand:{sid}", f"tb:hand:{'9' * 40}"),
    ):
        forge(shown, clicked, forged)
        answer = await guild.click(user, shown, forged)
        assert answer.ephemeral, answer.callback_data
        game = next(c for c in guild.commands() if c["name"] == "game")
        assert (answer.callback_data or {}).get("content") == GAME_GONE.format(id=game["id"])
        forge(shown, forged, clicked)
    assert table.row().version == version and len(guild.message(shown).versions) == versions
    # The table still answers its own controls.
    rules = await guild.click(carol, shown, f"tb:info:{sid}:rules")
    assert rules.ephemeral and "SPLIT" in guild.message(rules.original_message_id or 0).text
    assert_clean_log(live_bot)
