"""Issue 9, TEN: a whole game at the real bot process, from ``/game new`` to ``/leaderboard``.

Alice and Bob click what they see: the active player's Draw / Stop on the public table, and
bids, payments and buys in the private view that the table's panel button opens. Checked
throughout: no text lists the draw pile's next cards in order and none shows the seed; the
stored game is exactly the engine's replay of its seed and actions; the answers' latency is
reported.
"""

from __future__ import annotations

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.driver import gather_clicks
from game.ten import TenEngine
from tests.e2e.hidden_info import SeedCheck, TenPileCheck
from tests.e2e.players import HAND_ID, Choice, GameDb, Replica, Strategy, choices_on, use
from tests.e2e.scenario_support import (
    assert_clean_log,
    assert_leaderboard_ranks,
    report_latency,
)
from tests.e2e.table_play import EDIT_MESSAGE, TablePlay

# Lower is preferred: draw on, pass auctions, buy what is offered and pay the suggested way.
# Buttons by label, selects by placeholder (see cogs/ten/controls.py).
BUTTON_RANKS = (("Flip", 0), ("Pass", 0), ("Pay ", 0), ("Skip", 3), ("Stop", 3),
                ("Choose another card", 9))
SELECT_RANKS = (("Buy", 1), ("Bid", 5), ("Other ways to pay", 5), ("Spend", 6))


def ten_rank(choice: Choice) -> int | None:
    """How much a TEN player likes a control (None: not a move, such as opening a view)."""
    if not choice.is_game_control:
        return None
    if choice.values is None:
        ranks, shown = BUTTON_RANKS, choice.label
    else:
        ranks, shown = SELECT_RANKS, choice.placeholder
    return next((rank for prefix, rank in ranks if shown.startswith(prefix)), None)


def table_is_current(table: TablePlay) -> None:
    """The public table shows the game as it is now (the bot keeps it current)."""
    if table.oracle.over:
        return
    view = table.oracle.engine.view(table.oracle.state, None)
    text = table.table().text
    assert f"TEN · turn {view.turn}" in text, text
    assert f"draw pile {view.pile_size}" in text or view.pile_size == 0, text


async def twenty_draw_clicks(table: TablePlay) -> None:
    """The active player's Draw on the public table, clicked 20 times at once: one draw."""
    while not (draws := [c for c in table.public_choices() if c.label == "Flip"]):
        await table.step()
    player = table.oracle.awaiting()[0]
    before = table.oracle.seq
    answers = await gather_clicks(
        table.fd, [table.users[player]] * 20, draws[0].message_id, draws[0].custom_id
    )
    assert [a.callback_type for a in answers].count(EDIT_MESSAGE) == 1
    assert all(a.ephemeral for a in answers if a.callback_type != EDIT_MESSAGE)
    assert table.oracle.sync(table.db, table.session_id) == 1
    assert table.oracle.actions[-1] == (player, {"type": "draw"}) and table.oracle.seq > before
    table.run_checks()


async def test_ten_game_from_new_to_leaderboard(guild: FakeDiscord, live_bot: BotProcess) -> None:
    alice, bob, _ = guild.world.users.values()
    channel = guild.channel_named("ten-table")
    table = TablePlay(guild, live_bot, channel, TenEngine(), Strategy(ten_rank, seed=10))
    await table.open("ten", alice, bob)
    pile = TenPileCheck(guild, table.oracle)
    table.checks += [pile, SeedCheck(guild, table.oracle), lambda: table_is_current(table)]

    await table.play_to_end(at_step={20: lambda: twenty_draw_clicks(table),
                                     40: table.restart_checked,
                                     60: lambda: table.restart_checked(hard=False)})

    row = table.row()
    assert row.status == "finished" and table.steps > 60
    assert table.oracle.matches_stored(row), "the stored final state is not the replay's"
    replay = Replica.from_row(TenEngine(), row)
    replay.sync(GameDb(live_bot.database_path), table.session_id)
    expected = {r.player: (r.placement, r.score) for r in replay.engine.results(replay.state)}
    assert table.db.results(table.session_id) == expected
    kinds = {data["type"] for _, data in table.oracle.actions}
    assert {"draw", "pass"} <= kinds, kinds  # the table's buttons and the private panel

    final = table.table()
    assert "TEN — final scores" in final.text
    assert [c["custom_id"] for c in final.interactive()] == [
        f"tb:info:{table.session_id}:rules", f"tb:info:{table.session_id}:scores",
        f"tb:rp:{table.session_id}:0:o"]

    await assert_leaderboard_ranks(guild, alice, channel, "ten", "TEN", expected)

    assert pile.checked > 100
    assert_clean_log(live_bot)
    assert guild.unknown_routes == [], live_bot.log_text()
    print(report_latency(
        guild, f"TEN, {table.steps} clicks + {table.openings} private views, 2 restarts"
    ))


async def test_a_turn_starts_with_draw_alone_and_the_texts_say_so(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    """Before anything is flipped only Flip is offered: the table and the player's view say
    "flips a card", not "flips again or stops"; after one flip both are offered and said."""
    alice, bob, _ = guild.world.users.values()
    table = TablePlay(guild, live_bot, guild.channel_named("ten-table"), TenEngine(),
                      Strategy(ten_rank, seed=10))
    await table.open("ten", alice, bob)
    player = table.oracle.awaiting()[0]
    user = table.users[player]
    shown = table.table()
    assert [c.label for c in table.public_choices()] == ["Flip"]
    assert "** flips a card" in shown.text and "or stop" not in shown.text, shown.text

    mine = next(c for c in choices_on(shown) if HAND_ID.fullmatch(c.custom_id))
    opened = await use(guild, user, mine)
    assert opened.ephemeral and opened.original_message_id is not None
    view = guild.message(opened.original_message_id).text
    assert ("Your turn: press **Flip** to flip a card; you may stop once the tableau shows one."
            in view), view

    await table.step()  # the Draw (of a number card, in this seeded game): Draw again or Stop
    labels = [c.label for c in table.public_choices()]
    assert "Flip" in labels and any(label.startswith("Stop") for label in labels), labels
    assert "** flips again or stops" in table.table().text
    assert_clean_log(live_bot)
