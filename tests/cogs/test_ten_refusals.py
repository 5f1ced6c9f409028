"""TEN controls at the edges: who may click what, stale and forged clicks, the info buttons
and restarts. Every refusal is ephemeral and changes nothing."""

from __future__ import annotations

from pathlib import Path

from bot.records import errors
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.kit.control_menus import NOT_AVAILABLE, OUTDATED, UNKNOWN_CONTROL
from cogs.ten.colour_words import card_name
from game.action_codes import action_code
from game.ten import payment_options
from game.ten.cards import NOTATION
from game.ten.payments import wealth
from game.ten.state import Buy, Pay, TenState
from tests.cogs.conftest import ANA, BEN, CY, DEE
from tests.cogs.test_ten_game import SEED
from tests.cogs.test_ten_support import (
    ENGINE,
    Router,
    TenTable,
    button,
    decide,
    item,
    open_table,
    option_with,
    payload_ids,
    play_until,
)
from tests.fakes import FakeMessage, FakeUser, Sent

ENGLISH_WORDS = words_for(Language.EN)


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
        draw = button(table.table, "Flip").custom_id
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
        assert copy.ephemeral and "TEN · turn 1" in copy.text and copy.custom_ids == []
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
        old_draw = button(table.table, "Flip").custom_id
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
            ("zzz", UNKNOWN_CONTROL),
            ("y:99", OUTDATED),  # a list index: a control drawn before actions had codes
            ("a:99", OUTDATED),
            ("y:١", NOT_AVAILABLE),  # an Arabic-Indic one is not a digit here
            ("y:pay:0:0:", NOT_AVAILABLE),  # no payment is due
            ("a:bid:1", NOT_AVAILABLE),  # not legal in the draw phase (nor a button)
            ("a:stop:all", NOT_AVAILABLE),  # no such reward
            ("yc:x:1", UNKNOWN_CONTROL),
            ("d", OUTDATED),  # the Draw of a table drawn before the controls toolkit
            ("sn", OUTDATED),
        ]:
            assert_refused(await table.press(player, table.table_message, prefix + payload),
                           message)
        bad_bid = f"tb:sel:{table.sid}:{current.version}:s:bid:0"
        assert_refused(await table.press(player, table.table_message, bad_bid, ["many"]),
                       NOT_AVAILABLE)
        for old_select in ("b:0", "m:1", "yo:0"):
            assert_refused(await table.press(
                player, table.table_message,
                f"tb:sel:{table.sid}:{current.version}:{old_select}", ["0"]), OUTDATED)
        assert table.session is current
        gone = await table.press(player, table.table_message, "tb:act:999:1:a:0")
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
        bid_select = f"tb:sel:{table.sid}:{version}:s:bid:0"
        assert_refused(await table.press(other, table.table_message, bid_select, ["bid:1"]),
                       f"It is {bidder.display_name}'s turn to bid.")
        panel = await table.press(bidder, table.table_message, panel_id)
        assert panel.ephemeral and "s:bid:0" in payload_ids(panel)
        assert button(panel, "Pass").custom_id.endswith(":a:pass")
        amounts = [o.label for o in item(panel, "s:bid:0").options]
        most = wealth(state, state.players.index(str(bidder.id)))
        assert amounts == [f"Bid {n}" for n in range(1, most + 1)]
        before = table.session
        # Values are the codes of legal bids: beyond the bidder's wealth, or the Pass button's.
        too_much = await table.press(bidder, panel.message, bid_select, [f"bid:{most + 1}"])
        assert_refused(too_much, NOT_AVAILABLE)
        not_a_bid = await table.press(bidder, panel.message, bid_select, ["pass"])
        assert_refused(not_a_bid, NOT_AVAILABLE)
        index = await table.press(bidder, panel.message, bid_select, ["1"])
        assert_refused(index, OUTDATED)
        empty = await table.press(bidder, panel.message, bid_select, [])
        assert_refused(empty, "Choose one option from the list.")
        assert table.session is before
        assert public_marks(table) == shown and panel.message.edits == []
        # a real bid: the next bidder is pinged and the table names them
        _, bid_one = option_with(panel, "s:bid:", "Bid 1")
        done = await table.press(bidder, panel.message, bid_select, [bid_one])
        assert done.kind == "edit_message" and done.message is panel.message
        nxt = table.awaited_user()
        assert table.channel.sent[-1].content.startswith(nxt.mention)
        assert f"▶ **{nxt.display_name}** bids" in table.table.text
        assert "high bid 1 by " + bidder.display_name in table.table.text
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
        actions = ENGINE.legal_actions(state, str(buyer.id))
        codes = {action_code(action): action for action in actions}
        offered = {codes[o.value] for child in panel.view.children
                   for o in getattr(child, "options", [])}
        assert {a.card for a in offered if isinstance(a, Buy)} == legal == {
            a.card for a in actions if isinstance(a, Buy)}
        assert dear not in legal  # the dear card is not offered at all
        skip = button(panel, "Skip — buy nothing").custom_id
        buy = f"tb:sel:{table.sid}:{table.session.version}:s:buy:0"
        skip_code = skip.rsplit(":", 1)[1]
        before = table.session
        shown = public_marks(table, panel.message)
        assert skip_code == "skip"
        assert_refused(await table.press(buyer, panel.message, buy, [skip_code]),
                       NOT_AVAILABLE)  # the Skip button's action is not a buy
        assert_refused(await table.press(buyer, panel.message, buy, ["R0"]), NOT_AVAILABLE)
        assert_refused(await table.press(buyer, panel.message, buy, [f"buy:{dear}"]),
                       NOT_AVAILABLE)  # a market card the buyer cannot pay for
        assert_refused(await table.press(bystander(table), panel.message, buy, ["skip"]),
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
        label = f"{card_name(choice.card, ENGLISH_WORDS)} — price"
        select, value = option_with(panel, "s:buy:", label)
        paying = await table.press(payer, panel.message, select.custom_id, [value])
        assert "chooses how to pay" in paying.text
        back_button = button(paying, "Choose another card")
        before = table.session
        shown = public_marks(table, panel.message)
        state = table.state
        price = int(choice.card[1])
        listed = next(action for action in ENGINE.legal_actions(state, str(payer.id))
                      if isinstance(action, Pay) and action.cards)
        picker = f"tb:sel:{table.sid}:{before.version}:yc:{listed.c}:{listed.b}"
        notes = sorted(NOTATION[c] for c in state.collections[state.buyer])
        count = len(listed.cards) // 2
        wrong = notes[: count - 1] if count > 1 else notes[: count + 1]
        paid = listed.c + 3 * listed.b + len(wrong)
        sent = await table.press(payer, panel.message, picker, wrong)
        assert_refused(sent, f"That pays {paid}, but the price is {price}." if paid < price
                       else f"That pays {paid} for a price of {price}: leave out what you do"
                            " not need.")
        unlisted = f"tb:sel:{table.sid}:{before.version}:yc:{listed.c + 1}:9"
        assert_refused(await table.press(payer, panel.message, unlisted, notes[:1]),
                       NOT_AVAILABLE)  # no payment of that many tokens is listed
        assert table.session is before
        assert public_marks(table, panel.message) == shown
        back = await table.press(payer, panel.message, back_button.custom_id)
        assert back.kind == "edit_message" and table.state.phase == "buy"
        assert "s:buy:0" in payload_ids(back)  # the buy select again
    finally:
        await store.close()


async def test_controls_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    table, store = await open_table(path, SEED)
    await table.start(ANA, BEN, CY)
    message = table.table_message
    active = table.awaited_user()
    draw = button(table.table, "Flip").custom_id
    version = table.session.version
    await store.close()

    store = await open_store(path)
    try:
        manager = SessionManager(store, {"ten": ENGINE})
        await manager.restore()
        again = TenTable(manager)
        again.sid, again.table_message = table.sid, message
        sent = await again.press(active, message, draw)
        assert sent.kind == "edit_message" and again.session.version == version + 1
        assert "flips again or stops" in sent.text
    finally:
        await store.close()
