"""Every TEN message the UI draws fits Discord's limits, in every state of whole machine games
(five players, long collections), and the public table never holds the draw pile's order."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.records.session import HINTS, Seat, Session, Status
from cogs.game_ui import OpenStep, Render
from cogs.hints.hint_button import hint_buttons
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.kit.control_payloads import ButtonPayload, SelectPayload
from cogs.ten import TenUI
from game.action_codes import action_code
from game.base import play
from game.ten import payment_options
from game.ten.cards import NOTATION
from game.ten.state import TenState
from tests.cogs.test_ten_support import ENGINE

UI = TenUI(ENGINE)
ENGLISH = words_for(Language.EN)


def _session(state: TenState, log: tuple[str, ...], status: Status = Status.ACTIVE) -> Session:
    seats = tuple(Seat(player_id=p, display_name=f"Player with a long name {p}")
                  for p in state.players)
    # Hints on: the private view's controls leave room for the Hint button too.
    return Session(id=123456, guild_id=1, channel_id=2, game="ten", status=status,
                   host_id=state.players[0], seats=seats, state=state, version=98765, log=log,
                   options={HINTS: True})


def _check(render: Render) -> None:
    assert len(render.embeds) <= 10
    for embed in render.embeds:
        assert len(embed) <= 6000
        assert len(embed.description or "") <= 4096 and len(embed.fields) <= 25
        for field in embed.fields:
            assert 0 < len(field.value) <= 1024 and 0 < len(field.name) <= 256
    if render.view is None:
        return
    rows: dict[int, int] = {}
    for control in render.view.children:
        assert len(str(getattr(control, "custom_id", ""))) <= 100
        item = getattr(control, "item", control)  # a DynamicItem wraps the component
        if isinstance(item, discord.ui.Select | SelectPayload):
            assert 1 <= len(item.options) <= 25
            assert item.max_values <= len(item.options)
            assert sum(o.default for o in item.options) in (0, item.min_values)
            assert all(len(o.label) <= 100 and len(o.value) <= 100 for o in item.options)
            rows[item.row or 0] = rows.get(item.row or 0, 0) + 5
        else:
            assert isinstance(item, discord.ui.Button | ButtonPayload)
            assert len(item.label or "") <= 80
            rows[item.row or 0] = rows.get(item.row or 0, 0) + 1
    assert all(width <= 5 for width in rows.values()) and len(rows) <= 5


def _pile_leak(state: TenState, rendered: str) -> bool:
    """True if the next cards of the pile appear in their order (a sign the pile was read)."""
    upcoming = " ".join(NOTATION[card] for card in reversed(state.pile[-4:]))
    return len(state.pile) >= 4 and upcoming in rendered


@pytest.mark.parametrize(("players", "seed"), [(5, 1), (3, 0), (2, 3)])
def test_every_render_fits_discord(players: int, seed: int) -> None:
    state, _ = ENGINE.new_game([str(n) for n in range(1, players + 1)], seed)
    rng = random.Random(seed)
    log: tuple[str, ...] = ()
    names = {p: p for p in state.players}
    while not ENGINE.is_over(state):
        [player] = ENGINE.awaiting(state)
        session = _session(state, log)
        table = UI.table(session)
        _check(table)
        text: Any = "".join(f.value for e in table.embeds for f in e.fields)
        assert not _pile_leak(state, text)
        mine = UI.private_in(session, player, ENGLISH,
                             lambda s=session, p=player: hint_buttons(s, p, ENGLISH))
        _check(mine)
        assert mine.view is not None
        assert "tb:hint:123456:98765" in [str(c.custom_id) for c in mine.view.children]
        for other in state.players:
            if other != player:
                _check(UI.private(session, other))
        if state.phase == "pay":
            options = payment_options(state, player, state.pay_price,
                                      cards_allowed=state.pay_for == "card")
            for option in options:
                code = action_code(option.action())
                step = UI.action_for(session, player, "yo:pay:0", [code])
                if option.cards:
                    assert isinstance(step, OpenStep)
                    _check(step.render)
        level = "easy" if rng.random() < 0.3 else "normal"
        action = ENGINE.bot_action(state, player, level, rng)
        state, events = play(ENGINE, state, player, action)
        log = (*log, *(ENGINE.describe(e, None, names) for e in events))[-12:]
    final = _session(state, log, Status.FINISHED)
    _check(UI.table(final))
    for player in state.players:
        _check(UI.private(final, player))
