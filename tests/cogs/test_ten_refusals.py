"""TEN controls at the edges: who may click what, stale and forged clicks, the info buttons
and restarts. Every refusal is ephemeral and changes nothing."""

from __future__ import annotations

from pathlib import Path

from bot import errors
from bot.manager import SessionManager
from bot.store import Store
from game.ten import payment_options
from game.ten.cards import NOTATION
from game.ten.payments import wealth
from game.ten.state import Buy, TenState
from tests.cogs.conftest import ANA, BEN, CY, DEE
from tests.cogs.test_ten_game import SEED
from tests.cogs.test_ten_support import (
    ENGINE,
    Router,
    TenTable,
    decide,
    item,
    open_table,
    payload_ids,
    play_until,
)
from tests.fakes import FakeMessage, FakeUser, Sent


def assert_refused(sent: Sent, message: str) -> None:
    assert sent.ephemeral and sent.kind == "send_message" and sent.content == message


def public_marks(table: TenTable, *messages: FakeMessage | None) -> tuple[int, ...]:
    """How much has been shown so far: edits of the table (and of ``messages``), and new
    channel posts."""
    shown = [table.table_message, *messages]
    return (*(len(m.edits) for m in shown if m is not None), len(table.channel.sent))


def bystander(table: TenTable) -> FakeUser:
    """A seated player the game does not wait for."""
    awaited = table.awaited_user()
    return next(user for user in (ANA, BEN, CY) if user is not awaited)


async def started(tmp_path: Path, seed: int = SEED) -> tuple[TenTable, Store]:
    table, store = await open_table(tmp_path / "edges.sqlite3", seed)
    await table.start(ANA, BEN, CY)
    return table, store


async def test_turn_and_seat_refusals_and_info_buttons(tmp_path: Path) -> None:
    table, store = await started(tmp_path)
    try:
        session = table.session
        draw = item(table.table, "d").custom_id
        active = table.awaited_user()
        other = bystander(table)
        shown = public_marks(table)
        assert_refused(await table.press(DEE, table.table_message, draw), errors.NOT_SEATED)
        assert_refused(await table.press(other, table.table_message, draw),
                       f"It is {active.display_name}'s turn.")
        assert_refused(await table.press(DEE, table.table_message, f"tb:hand:{table.sid}"),
                       errors.NOT_SEATED)
        # Table and Rules work for anyone, answered ephemeral, and change nothing.
        copy = await table.press(DEE, table.table_message, f"tb:info:{table.sid}:table")
        assert copy.ephemeral and "TEN — turn 1" in copy.text and copy.custom_ids == []
        rules = await table.press(DEE, table.table_message, f"tb:info:{table.sid}:rules")
        assert rules.ephemeral and "TEN rules" in rules.text
        assert rules.custom_ids == ["tb:rules:ten:0:p", "tb:rules:ten:1:n"]
        assert table.session is session and public_marks(table) == shown
        # a private view of someone who is not awaited has no controls
        mine = await table.press(other, table.table_message, f"tb:hand:{table.sid}")
        assert mine.ephemeral and payload_ids(mine) == []
        assert f"Waiting for {active.display_name}." in mine.text
    finally:
        await store.close()


async def test_stale_and_forged_clicks_change_nothing(tmp_path: Path) -> None:
    table, store = await started(tmp_path)
    try:
        active = table.awaited_user()
        old_draw = item(table.table, "d").custom_id
        await table.press(active, table.table_message, old_draw)  # a real draw
        current = table.session
        shown = public_marks(table)
        stale = await table.press(active, table.table_message, old_draw)
        assert stale.ephemeral and stale.content.startswith(errors.STALE)
        assert table.session is current
        assert f"TEN — {active.display_name}'s view" in stale.text  # the current view
        assert all(f":{current.version}:" in cid for cid in stale.custom_ids)
        prefix = f"tb:act:{table.sid}:{current.version}:"
        player = table.awaited_user()
        for payload, message in [
            ("zzz", "That button is not part of this game."),
            ("y:99", "That payment is not offered."),
            ("yc:x:1", "That button is not part of this game."),
        ]:
            assert_refused(await table.press(player, table.table_message, prefix + payload),
                           message)
        bad_bid = f"tb:sel:{table.sid}:{current.version}:b:0"
        assert_refused(await table.press(player, table.table_message, bad_bid, ["many"]),
                       "Choose a bid from the list.")
        assert table.session is current
        gone = await table.press(player, table.table_message, "tb:act:999:1:d")
        assert_refused(gone, errors.NO_GAME)
        assert public_marks(table) == shown  # no table edit, no channel post
    finally:
        await store.close()


def _auction(state: TenState) -> bool:
    if state.phase != "auction" or state.bid_index != 0:
        return False
    bidder = state.bidders[0]
    return wealth(state, bidder) >= 2


async def test_auction_refusals(tmp_path: Path) -> None:
    table, store = await started(tmp_path)
    try:
        router = Router(table)
        await play_until(table, router, _auction)
        state = table.state
        bidder = table.awaited_user()
        other = bystander(table)
        panel_id = item(table.table, "panel").custom_id
        shown = public_marks(table)
        assert_refused(await table.press(other, table.table_message, panel_id),
                       f"It is {bidder.display_name}'s turn to bid.")
        version = table.session.version
        bid_select = f"tb:sel:{table.sid}:{version}:b:0"
        assert_refused(await table.press(other, table.table_message, bid_select, ["1"]),
                       f"It is {bidder.display_name}'s turn to bid.")
        panel = await table.press(bidder, table.table_message, panel_id)
        assert panel.ephemeral and "p" in payload_ids(panel) and "b:0" in payload_ids(panel)
        amounts = [o.value for o in item(panel, "b:0").options]
        most = wealth(state, state.players.index(str(bidder.id)))
        assert amounts == [str(n) for n in range(1, most + 1)]
        before = table.session
        too_much = await table.press(bidder, panel.message, bid_select, [str(most + 1)])
        assert_refused(too_much, f"You can bid at most {most} (your wealth).")
        too_little = await table.press(bidder, panel.message, bid_select, ["0"])
        assert_refused(too_little, "Bid at least 1.")
        assert table.session is before
        assert public_marks(table) == shown and panel.message.edits == []
        # a real bid: the next bidder is pinged and the table names them
        done = await table.press(bidder, panel.message, bid_select, ["1"])
        assert done.kind == "edit_message" and done.message is panel.message
        nxt = table.awaited_user()
        assert table.channel.sent[-1].content.startswith(nxt.mention)
        assert f"**{nxt.display_name}** to bid" in table.table.text
        assert "high bid **1** by " + bidder.display_name in table.table.text
    finally:
        await store.close()


def _unaffordable_buy(state: TenState) -> bool:
    if state.phase != "buy":
        return False
    buyer = state.players[state.buyer]
    legal = {a.card for a in ENGINE.legal_actions(state, buyer) if isinstance(a, Buy)}
    owned = {NOTATION[c] for c in state.collections[state.buyer]}
    return any(NOTATION[c] not in legal | owned for c in state.market)


# A seed whose normal-bot game reaches a buy phase with a market card the buyer cannot pay.
BUY_SEED = 5


async def test_buy_refusals(tmp_path: Path) -> None:
    table, store = await started(tmp_path, BUY_SEED)
    try:
        router = Router(table)
        await play_until(table, router, _unaffordable_buy)
        state = table.state
        buyer = table.awaited_user()
        seat = state.players.index(str(buyer.id))
        legal = {a.card for a in ENGINE.legal_actions(state, str(buyer.id)) if isinstance(a, Buy)}
        owned = {NOTATION[c] for c in state.collections[seat]}
        dear = next(NOTATION[c] for c in state.market if NOTATION[c] not in legal | owned)
        panel = await table.press(buyer, table.table_message, item(table.table, "panel").custom_id)
        offered = {o.value for child in panel.view.children for o in getattr(child, "options", [])}
        assert offered == legal and "k" in payload_ids(panel)
        buy = f"tb:sel:{table.sid}:{table.session.version}:m:0"
        before = table.session
        shown = public_marks(table, panel.message)
        assert_refused(await table.press(buyer, panel.message, buy, [dear]),
                       f"You cannot pay {dear[1]} for {dear}.")
        assert_refused(await table.press(buyer, panel.message, buy, ["R0"]),
                       "There is no R0 in the market.")
        assert_refused(await table.press(bystander(table), panel.message, buy, [dear]),
                       f"It is {buyer.display_name}'s buy phase.")
        assert table.session is before
        assert public_marks(table, panel.message) == shown
    finally:
        await store.close()


def _buys_with_cards(state: TenState) -> bool:
    if state.phase != "buy":
        return False
    action = decide(state, state.players[state.buyer])
    return isinstance(action, Buy) and int(action.card[1]) >= 2 and any(
        option.cards for option in payment_options(
            state, state.players[state.buyer], int(action.card[1]), cards_allowed=True))


async def test_payment_with_cards_refuses_a_wrong_card_count(tmp_path: Path) -> None:
    table, store = await started(tmp_path)
    try:
        router = Router(table)
        await play_until(table, router, _buys_with_cards)
        payer = table.awaited_user()
        choice = decide(table.state, str(payer.id))
        assert isinstance(choice, Buy)
        panel = await table.press(payer, table.table_message, item(table.table, "panel").custom_id)
        paying = await table.press(payer, panel.message, item(panel, "m:0").custom_id,
                                   [choice.card])
        assert "chooses how to pay" in paying.text and "r" in payload_ids(paying)
        before = table.session
        shown = public_marks(table, panel.message)
        picker = f"tb:sel:{table.sid}:{before.version}:yc:0:0"
        state = table.state
        notes = sorted(NOTATION[c] for c in state.collections[state.buyer])
        sent = await table.press(payer, panel.message, picker, notes[:1])
        assert_refused(sent, f"That pays 1, but the price is {choice.card[1]}.")
        assert table.session is before
        assert public_marks(table, panel.message) == shown
        back = await table.press(payer, panel.message, item(paying, "r").custom_id)
        assert back.kind == "edit_message" and table.state.phase == "buy"
        assert "m:0" in payload_ids(back)  # the buy select again
    finally:
        await store.close()


async def test_controls_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    table, store = await open_table(path, SEED)
    await table.start(ANA, BEN, CY)
    message = table.table_message
    active = table.awaited_user()
    draw = item(table.table, "d").custom_id
    version = table.session.version
    await store.close()

    store = await Store.open(path)
    try:
        manager = SessionManager(store, {"ten": ENGINE})
        await manager.restore()
        again = TenTable(manager)
        again.sid, again.table_message = table.sid, message
        sent = await again.press(active, message, draw)
        assert sent.kind == "edit_message" and again.session.version == version + 1
        assert "flips" in sent.text
    finally:
        await store.close()
