"""Flat memory: no view the bot sends is kept per message in discord.py's view store.

discord.py keeps every view sent or edited with ``timeout=None`` per message
(``client._connection._view_store``) unless all its items are DynamicItems; ours are
(``cogs.kit.custom_ids``), so the registered classes serve every click. The test plays a whole TEN
game through the controls and hands every view it sent or edited to a real ``ViewStore``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
from discord.ui.view import ViewStore

import tests.fakes
from cogs.client_services import release_view
from cogs.kit.card_layout import Card
from cogs.kit.control_payloads import Rows
from cogs.kit.custom_ids import HandButton
from tests.cogs.conftest import ANA, BEN, CY
from tests.cogs.test_ten_game import MAX_ACTIONS, SEED
from tests.cogs.test_ten_support import Router, decide, open_table


async def test_after_a_full_game_the_view_store_holds_no_message_views(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[discord.ui.View] = []
    record = tests.fakes._record

    def keep(kind: str, kwargs: dict[str, Any], message: Any = None) -> tests.fakes.Sent:
        if kwargs.get("view") is not None:
            sent.append(kwargs["view"])
        return record(kind, kwargs, message)

    monkeypatch.setattr(tests.fakes, "_record", keep)
    table, store = await open_table(tmp_path / "game.sqlite3", SEED)
    try:
        await table.start(ANA, BEN, CY)
        router = Router(table)
        for _ in range(MAX_ACTIONS):
            if table.manager.get(table.sid) is None:
                break
            await router.play(decide(table.state, str(table.awaited_user().id)))
        assert table.manager.get(table.sid) is None  # the game is over
    finally:
        await store.close()

    view_store = ViewStore(None)  # type: ignore[arg-type]
    for message_id, view in enumerate(sent, start=1):
        if isinstance(view, Card | Rows):  # payloads: discord.py stores no finished view
            assert view.is_finished()
        else:
            view_store.add_view(view, message_id)
    # a card's controls are what it walks (``cogs.kit.card_layout.Card``)
    assert len(sent) > 100 and sum(
        len(list(view.walk_children() if not isinstance(view, Rows) else view.children))
        for view in sent) > 300
    assert view_store._views == {} and view_store._synced_message_views == {}

    # The check can fail: a view of plain buttons is kept for its message.
    plain = discord.ui.View(timeout=None)
    plain.add_item(discord.ui.Button(custom_id="tb:hand:1", label="My hand"))
    view_store.add_view(plain, len(sent) + 1)
    assert list(view_store._views) == [len(sent) + 1]


async def test_a_private_view_is_released_after_sending() -> None:
    """discord.py gives an ephemeral message's view a 15-minute timeout and keeps it, with a
    timer task, that long (``InteractionResponse.send_message``); ``release_view`` ends that,
    and the registered DynamicItem classes still serve the clicks."""
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(7))
    view.timeout = 15 * 60.0  # what send_message(ephemeral=True) does to a timeout-less view
    view_store = ViewStore(None)  # type: ignore[arg-type]
    view_store.add_view(view, None)
    assert not view.is_finished()
    release_view(view)
    assert view.is_finished()
    assert view_store._dynamic_items  # the id pattern stays registered
    assert view_store._views == {} and view_store._synced_message_views == {}
