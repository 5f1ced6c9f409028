"""A seeded three-player TEN game from /game new to the result, every move a click on the
controls the table and the private views show (chosen by the engine's bot, see
``test_ten_support.decide``)."""

from __future__ import annotations

from pathlib import Path

from bot.records.session import Status
from cogs.ten import TenUI
from tests.cogs.conftest import ANA, BEN, CY
from tests.cogs.test_ten_support import (
    ENGINE,
    Router,
    button,
    decide,
    open_table,
    payload_ids,
)

# Found by a seed search with ``decide``: an auction whose winner chooses how to pay, a number
# bust, a currency bust, and a buy paid with bust tokens and chosen collection cards.
SEED = 4
MAX_ACTIONS = 400


async def test_seeded_full_game_through_the_controls(tmp_path: Path) -> None:
    table, store = await open_table(tmp_path / "game.sqlite3", SEED)
    try:
        await table.start(ANA, BEN, CY)
        started = table.table
        assert "TEN · turn 1" in started.text and "bust 0%" in started.text
        first = table.awaited_user()
        assert payload_ids(started) == ["a:draw"]  # an empty row: Draw is the only legal move
        assert button(started, "Flip").custom_id.endswith(":a:draw")
        assert started.custom_ids[-5:] == [
            f"tb:info:{table.sid}:table", f"tb:info:{table.sid}:rules",
            f"tb:info:{table.sid}:scores", f"tb:info:{table.sid}:log", f"tb:hand:{table.sid}"]
        assert first.mention in table.channel.sent[-1].content  # the first player is pinged

        router = Router(table)
        actions = 0
        auction_checked = False
        while table.manager.get(table.sid) is not None:
            state = table.state
            player = table.awaited_user()
            if state.phase == "auction" and not auction_checked:
                auction_checked = True
                shown = table.table.text
                assert "Auction for " in shown
                assert f"▶ **{player.display_name}** bids" in shown
                assert table.channel.sent[-1].content.startswith(player.mention)
                router.samples["auction_table"] = shown
            if state.phase == "draw" and state.tableau and "draw_table" not in router.samples:
                router.samples["draw_table"] = table.table.text
            await router.play(decide(state, str(player.id)))
            actions += 1
            assert actions < MAX_ACTIONS

        kinds = [(e.kind, e.data.get("bust")) for e in table.events]
        assert ("bust", "number") in kinds and ("bust", "currency") in kinds
        assert any(e.kind == "paid" for e in table.events)  # an auction was won and paid
        mixed = [e for e in table.events
                 if e.kind == "bought" and e.data["b"] and e.data["cards"]]
        assert mixed, "no buy paid with bust tokens and collection cards"
        assert router.seen["pay_chosen_cards"] >= 1 and router.seen["bid"] >= 1
        assert any(c.session.state is not None and c.session.state.phase == "pay"
                   and c.session.state.pay_for == "wild"
                   for c in table.changes)  # the winner had a choice of payments

        # one table edit per change: 2 joins + start + every game action
        game_changes = [c for c in table.changes if c.kind in ("action", "finished")]
        assert len(table.table_message.edits) == 3 + len(game_changes)

        final = table.table
        sid = game_changes[-1].session.id
        assert "TEN — final scores" in final.text
        assert final.custom_ids == [
            f"tb:info:{sid}:rules", f"tb:info:{sid}:scores", f"tb:rp:{sid}:0:o"
        ]
        results = ENGINE.results(game_changes[-1].session.state)
        for result in results:
            assert f"#{result.placement} " in final.text
        # The finished table is phone-sized; its Scores answer has every result in full.
        assert len(final.text.splitlines()) <= 15 and "took the place of" not in final.text
        finished = game_changes[-1].session
        detail = "\n".join(str(e.description) + "".join(f"{f.name}{f.value}" for f in e.fields)
                            for e in TenUI(ENGINE).scores(finished).embeds)
        assert all(f"#{result.placement} " in detail for result in results)
        assert "took the place of" in detail or "no scoring run" in detail
        assert "🏆" in final.text
        rows = await store.results(1, "ten")
        assert sorted(r.user_id for r in rows) == ["1", "2", "3"]
        assert all(r.rated and not r.bots_in_game for r in rows)
        stored = await store.load_session(table.sid)
        assert stored.status is Status.FINISHED
        # the final buy phases, in rule order, each buyer pinged in turn
        posted = [0, *table.pings_before]
        final_buys = [(change, count) for change, count, before in zip(
            table.changes, table.pings_before, posted, strict=False)
            if any(e.kind == "final_buy" for e in change.events) and count == before + 1]
        assert len(final_buys) == 3  # each of them posted exactly one ping
        for change, count in final_buys:
            [event] = [e for e in change.events if e.kind == "final_buy"]
            assert table.channel.sent[count - 1].content.startswith(f"<@{event.actor}>")
        buyers = [next(e.actor for e in c.events if e.kind == "final_buy") for c, _ in final_buys]
        last = game_changes[-1].session.state
        final_player = last.players[last.active]
        order = last.players[last.players.index(final_player) + 1:] + last.players[
            :last.players.index(final_player) + 1]
        assert buyers == order
        pinged = {s.content.split()[0] for s in table.channel.sent}
        assert pinged == {ANA.mention, BEN.mention, CY.mention}
    finally:
        await store.close()
