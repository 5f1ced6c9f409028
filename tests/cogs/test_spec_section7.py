"""Spec section 7 of both games, as the channel sees it.

SPLIT: every player's sheet (rows and subtotals) is shown after each round, in the public
round summary. TEN: the odds are public, so the table shows the chance that the next flip
busts. Expected values are computed here from the rules, not with the code under test.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.records.change import Change
from bot.sessions.manager import SessionManager
from bot.store import open_store
from game.split import SplitEngine
from game.split.state import SplitState
from game.ten.state import Draw, TenState
from tests.cogs.conftest import ANA, BEN, CY
from tests.cogs.split_table_fixture import SEED, SplitTable
from tests.cogs.test_split_game import USERS, start_game
from tests.cogs.test_ten_support import ENGINE, open_table

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def row_value(boxes: int) -> int:
    return boxes * (boxes + 1) // 2  # 0, 1, 3, 6, 10, ... 78 (spec section 7)


def negative_value(marks: int) -> int:
    return sum(math.ceil(k / 3) for k in range(1, marks + 1))  # the k-th mark costs ⌈k/3⌉


@pytest.fixture
async def split(tmp_path: Path) -> AsyncIterator[SplitTable]:
    store = await open_store(tmp_path / "split.sqlite3")
    yield SplitTable(SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: SEED))
    await store.close()


def expected_fields(state: SplitState, names: dict[str, str],
                    before: dict[str, int]) -> dict[str, list[str]]:
    """Per player: the field title start and the pieces its sheet line must show."""
    fields = {}
    for seat, player in enumerate(state.players):
        rows = dict(zip(RANKS, state.boxes[seat], strict=True))
        total = sum(row_value(n) for n in rows.values()) - negative_value(state.negatives[seat])
        title = f"{names[player]}: {total - before[player]:+d} (total {total})"
        pieces = [f"{rank}×{n}={row_value(n)}" for rank, n in rows.items() if n]
        pieces += [f"negatives {state.negatives[seat]} (−{negative_value(state.negatives[seat])})",
                   f"**{total}** points"]
        fields[title] = pieces
        before[player] = total
    return fields


async def test_split_round_summaries_show_every_players_sheet(split: SplitTable) -> None:
    await start_game(split, (ANA, BEN, CY))
    session = split.session()
    names = {str(user.id): user.display_name for user in USERS.values()}
    ends: list[tuple[int, SplitState]] = []  # (channel posts so far, state after the round)

    async def on_round_end(change: Change) -> None:
        if any(event.kind == "round_end" for event in change.events):
            ends.append((len(split.channel.sent), change.session.state))

    split.manager.subscribe(on_round_end)  # after the announcer: its summary is posted
    rng = random.Random(11)
    while (current := split.manager.get(session.id)) is not None:
        [player] = split.engine.awaiting(current.state)
        action = split.engine.bot_action(current.state, player, "normal", rng)
        await split.manager.act(session.id, player, current.version, action)
        await split.manager.settle()
    assert len(ends) == 3
    before = dict.fromkeys(names, 0)
    filled = 0
    for number, (posted, state) in enumerate(ends, start=1):
        [summary] = [e for sent in split.channel.sent[:posted] for e in sent.embeds
                     if e.title == f"SPLIT — round {number} of 3 is over"]
        shown = {field.name: field.value for field in summary.fields}
        expected = expected_fields(state, names, before)
        assert set(shown) == set(expected), (shown.keys(), expected.keys())  # every player
        for title, pieces in expected.items():
            sheet = next(line for line in shown[title].splitlines() if line.startswith("Sheet:"))
            for piece in pieces:
                assert piece in sheet, (piece, sheet)
            filled += len(pieces) - 2
            assert "×0=" not in sheet
    assert filled > 6  # the summaries listed real rows, not only empty sheets


def busts_next(state: TenState) -> float:
    """The bust chance of the next flip, by trying every card the pile holds on top."""
    [player] = ENGINE.awaiting(state)
    pile = Counter(state.pile)
    busting = 0
    for card, copies in pile.items():
        trial = ENGINE.copy_state(state)
        trial.pile.remove(card)
        trial.pile.append(card)  # the top of the pile is the list's end
        events = ENGINE.apply(trial, player, Draw())
        busting += copies * any(event.kind == "bust" for event in events)
    return busting / len(state.pile)


async def test_ten_table_shows_the_bust_chance_of_the_next_flip(tmp_path: Path) -> None:
    table, store = await open_table(tmp_path / "odds.sqlite3", 4)
    try:
        await table.start(ANA, BEN, CY)
        assert table.table_message is not None and not table.table_message.flags.ephemeral
        rng = random.Random(2)
        shown: set[str] = set()
        while (current := table.manager.get(table.sid)) is not None:
            state: TenState = current.state
            if state.phase == "draw" and state.pile:
                chance = f"bust {busts_next(state):.0%}"
                assert chance in table.table.text, (chance, table.table.text)
                shown.add(chance)
            [player] = ENGINE.awaiting(state)
            action = ENGINE.bot_action(state, player, "normal", rng)
            await table.manager.act(table.sid, player, current.version, action)
            await table.manager.settle()
        assert len(shown) > 5  # the chance moved with the game, from 0% up
    finally:
        await store.close()
