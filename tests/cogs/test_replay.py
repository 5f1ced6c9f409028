"""The Replay button, /game export and /config, through the cog fakes on a real SPLIT game."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.sessions.export import STILL_RUNNING, parse_export
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.commands.game_commands import GameCog
from cogs.game_ui import Render
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.kit.card_layout import MAX_TEXT
from cogs.rendering import replay_pages
from cogs.rendering.replay_pages import (
    MAX_EMBED_TOTAL,
    MAX_EMBEDS,
    OUT_OF_RANGE,
    PLAYERS_ONLY,
    card_size,
    replay_render,
    window,
)
from cogs.replay_cache import ReplayCache
from cogs.settings.config_command import NEEDS_MANAGE_SERVER, ConfigCog
from game.split import SplitEngine
from tests.cogs.conftest import ANA, BEN, CY
from tests.cogs.split_table_fixture import SEED, SplitTable
from tests.fakes import FakeMessage, FakeUser, Sent, click, message_with

MANAGE = discord.Permissions(manage_guild=True)
ENGLISH = words_for(Language.EN)


@pytest.fixture
async def split(tmp_path: Path) -> AsyncIterator[SplitTable]:
    store = await open_store(tmp_path / "replay.sqlite3")
    manager = SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: SEED)
    yield SplitTable(manager)
    await store.close()


async def open_and_start(split: SplitTable) -> FakeMessage:
    opened = await split.command(GameCog.new, ANA, game="split")
    assert opened.message is not None
    sid = split.session().id
    await split.press(BEN, opened.message, f"tb:lobby:join:{sid}")
    await split.press(ANA, opened.message, f"tb:lobby:start:{sid}")
    split.session_id = sid
    return opened.message


async def finish(split: SplitTable) -> FakeMessage:
    """A two-player SPLIT game played to its end through the manager (greedy moves)."""
    table = await open_and_start(split)
    rng = random.Random(5)
    while (session := split.manager.get(split.session_id)) is not None:
        player = split.engine.awaiting(session.state)[0]
        action = split.engine.bot_action(session.state, player, "normal", rng)
        await split.manager.act(session.id, player, session.version, action)
        await split.manager.settle()
    return table


def sizes_fit(sent: Sent) -> None:
    assert len(sent.embeds) <= MAX_EMBEDS
    assert sum(len(embed) for embed in sent.embeds) <= MAX_EMBED_TOTAL
    assert len(sent.content or "") <= 2000
    for item in sent.view.children if sent.view else []:
        assert len(getattr(item, "options", [])) <= 25


def nav(sent: Sent, tag: str) -> str:
    return next(i for i in sent.custom_ids if i.startswith("tb:rp:") and i.endswith(f":{tag}"))


async def test_replay_pages_from_the_deal_to_the_final_table(split: SplitTable) -> None:
    table = await finish(split)
    sid = split.session_id
    final = table.edits[-1]
    assert f"tb:rp:{sid}:0:o" in final.custom_ids
    opened = await split.press(CY, table, f"tb:rp:{sid}:0:o")  # anyone in the server, by default
    assert opened.kind == "send_message" and opened.ephemeral
    assert "step 0 of" in opened.text and "The deal." in opened.text
    sizes_fit(opened)
    first_buttons = {item.custom_id: item for item in opened.view.children}  # type: ignore[union-attr]
    assert first_buttons[f"tb:rp:{sid}:0:f"].disabled  # paging at the start end
    assert first_buttons[f"tb:rp:{sid}:0:p"].disabled
    # Every hand shows at the deal (the game is over): both players' names.
    assert "Ana" in opened.text and "Ben" in opened.text
    stepped = await split.press(CY, opened.message, nav(opened, "n"))
    assert stepped.kind == "edit_message" and "step 1 of" in stepped.text
    assert "moved." in stepped.text
    last = await split.press(CY, opened.message, nav(stepped, "l"))
    cache = split.cog.services.replays
    assert isinstance(cache, ReplayCache) and len(cache) == 1
    built = cache.get(sid)
    assert built is not None
    end = built.replay.last_index
    assert f"step {end} of {end}" in last.text
    sizes_fit(last)
    # The last step's table is the final table (same embeds as the table message).
    assert [e.to_dict() for e in final.embeds] == [e.to_dict() for e in last.embeds[
        :len(final.embeds)]]
    last_buttons = {item.custom_id: item for item in last.view.children}  # type: ignore[union-attr]
    assert last_buttons[f"tb:rp:{sid}:{end}:n"].disabled
    assert last_buttons[f"tb:rp:{sid}:{end}:l"].disabled
    # Jump to round 2 and to a turn.
    rounds = next(i for i in last.view.children  # type: ignore[union-attr]
              if getattr(i, "custom_id", "") == f"tb:rpj:{sid}:r")
    round_two = next(o for o in rounds.options if o.label == "Round 2")
    ia = split.interaction(CY, opened.message)
    await click(ia, f"tb:rpj:{sid}:r", values=[round_two.value])
    assert "round 2, turn 1" in ia.last.text and f"step {round_two.value} of" in ia.last.text
    turns = next(i for i in ia.last.view.children  # type: ignore[union-attr]
             if getattr(i, "custom_id", "") == f"tb:rpj:{sid}:t")
    assert 1 < len(turns.options) <= 25
    ia = split.interaction(CY, opened.message)
    await click(ia, f"tb:rpj:{sid}:t", values=[turns.options[1].value])
    assert "round 2, turn 2" in ia.last.text
    assert len(cache) == 1  # paging did not rebuild


async def test_replay_refusals(split: SplitTable) -> None:
    await open_and_start(split)
    sid = split.session_id
    running = await split.press(ANA, None, f"tb:rp:{sid}:0:o")
    assert running.ephemeral and running.content == STILL_RUNNING
    while (session := split.manager.get(sid)) is not None:
        player = split.engine.awaiting(session.state)[0]
        action = split.engine.bot_action(session.state, player, "normal", random.Random(1))
        await split.manager.act(session.id, player, session.version, action)
    await split.manager.settle()
    beyond = f"tb:rp:{sid}:9999999:n"
    forged = await split.press(ANA, message_with(None, beyond, ephemeral=True), beyond)
    assert forged.ephemeral and forged.content == OUT_OF_RANGE
    ia = split.interaction(ANA)
    await click(ia, f"tb:rpj:{sid}:r", values=["٣"])
    assert ia.last.ephemeral and ia.last.content == "Choose one step from the list."
    missing = await split.press(ANA, None, "tb:rp:424242:0:o")
    assert missing.ephemeral and missing.content == "There is no such game."
    # Players only: a non-player is refused, a player and Manage Server are not.
    config = ConfigCog()
    ia = split.interaction(ANA)
    players = app_commands.Choice(name="players", value="players")
    await ConfigCog.config.callback(config, ia, replays=players)
    assert ia.last.ephemeral and ia.last.content == NEEDS_MANAGE_SERVER.text
    assert await split.manager.store.guild_settings(1) == {}
    ia = split.interaction(CY, permissions=MANAGE)
    await ConfigCog.config.callback(config, ia, replays=players)
    assert ia.last.ephemeral and "only the game's players" in ia.last.text
    assert await split.manager.store.guild_settings(1) == {"replays": "players"}
    refused = await split.press(CY, None, f"tb:rp:{sid}:0:o")
    assert refused.ephemeral and refused.content == PLAYERS_ONLY
    assert "step 0 of" in (await split.press(BEN, None, f"tb:rp:{sid}:0:o")).text
    assert "step 0 of" in (await split.press(CY, None, f"tb:rp:{sid}:0:o",
                                              permissions=MANAGE)).text


async def test_export_as_a_player_and_refusals(split: SplitTable) -> None:
    await open_and_start(split)
    sid = split.session_id
    running = await split.command(GameCog.export, ANA)
    assert running.ephemeral and running.content == "There is no finished game in this channel."
    by_id = await split.command(GameCog.export, ANA, session=sid)
    assert by_id.ephemeral and by_id.content == STILL_RUNNING
    while (session := split.manager.get(sid)) is not None:
        player = split.engine.awaiting(session.state)[0]
        action = split.engine.bot_action(session.state, player, "normal", random.Random(2))
        await split.manager.act(session.id, player, session.version, action)
    await split.manager.settle()
    ia = split.interaction(BEN)
    await split.cog.interaction_check(ia)  # type: ignore[arg-type]
    await GameCog.export.callback(split.cog, ia)
    sent = ia.last
    assert sent.ephemeral and sent.files
    export = parse_export(sent.files[0].fp.read().decode())
    assert export.session_id == sid and export.game == "split"
    assert json.loads(export.model_dump_json())["seed"] == SEED
    outsider = await split.command(GameCog.export, CY, session=sid)
    assert outsider.ephemeral and outsider.content == "Only the game's players (or Manage " \
        "Server) may export it."


async def test_every_step_of_a_five_player_ten_replay_fits_discord(tmp_path: Path) -> None:
    from tests.cogs.test_ten_support import ENGINE, open_table

    table, store = await open_table(tmp_path / "ten.sqlite3", 4)
    try:
        await table.start(ANA, BEN, CY, *(FakeUser(n, f"P{n}") for n in (5, 6)))
        rng = random.Random(3)
        while (session := table.manager.get(table.sid)) is not None:
            player = ENGINE.awaiting(session.state)[0]
            action = ENGINE.bot_action(session.state, player, "normal", rng)
            await table.manager.act(session.id, player, session.version, action)
        await table.manager.settle()
        final = table.table
        opened = await table.press(CY, table.table_message, f"tb:rp:{table.sid}:0:o")
        built = table.cog.services.replays.get(table.sid)
        assert built is not None and built.replay.is_over
        shown = opened
        for index in range(1, built.replay.last_index + 1):
            sizes_fit(shown)
            shown = await table.press(CY, opened.message, nav(shown, "n"))
            assert f"step {index} of" in shown.text
        sizes_fit(shown)
        assert [e.to_dict() for e in final.embeds] == [
            e.to_dict() for e in shown.embeds[:len(final.embeds)]]
    finally:
        await store.close()


async def test_a_game_closed_mid_way_replays_up_to_where_it_stopped(split: SplitTable) -> None:
    table = await open_and_start(split)
    sid = split.session_id
    rng = random.Random(4)
    for _ in range(6):
        session = split.manager.get(sid)
        assert session is not None
        player = split.engine.awaiting(session.state)[0]
        await split.manager.act(sid, player, session.version,
                                split.engine.bot_action(session.state, player, "normal", rng))
    closed = await split.command(GameCog.cancel, ANA)
    assert closed.content == "The table is closed."
    assert table.edits[-1].custom_ids == [f"tb:rp:{sid}:0:o"]
    opened = await split.press(BEN, table, f"tb:rp:{sid}:0:o")
    last = await split.press(BEN, opened.message, nav(opened, "l"))
    assert "step 6 of 6" in last.text and "The game stopped here." in last.text
    exported = await split.command(GameCog.export, ANA, session=sid)
    assert exported.ephemeral and exported.files
    assert parse_export(exported.files[0].fp.read().decode()).status == "abandoned"


def test_the_replay_cache_is_bounded_and_jumps_stay_within_25_options() -> None:
    cache = ReplayCache(size=2)
    marker = object()
    for session_id in (1, 2):
        cache.put(session_id, marker)  # type: ignore[arg-type]
    assert cache.get(1) is marker  # 1 is now the most recent
    cache.put(3, marker)  # type: ignore[arg-type]
    assert len(cache) == 2 and cache.get(2) is None and cache.get(1) is marker
    turns = list(range(1, 61))
    assert window(turns[:10], 3) == turns[:10]
    assert window(turns, 1) == turns[:25]
    assert window(turns, 40) == turns[27:52]
    assert window(turns, 60) == turns[35:]


def card_text_size(render: Render) -> int:
    """The characters a replay card's texts take, with their joins (at most 4,000 fit)."""
    return len(render.content or "") + 1 + card_size(render.embeds)


async def test_a_long_ten_replay_fits_each_card_and_pages_its_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41: a replay page is one card of at most 4,000 characters, never cut. The
    longest game here (five TEN players with 32-character names, in Albanian) stays under it
    whole; with a page of 2,500 characters its later steps do not, and each page still fits:
    the hands left out are on the step's "More hands" page, with a button back."""
    from tests.cogs.test_ten_support import ENGINE, open_table

    names = [(f"Player_{n}_" + "ë" * 32)[:32] for n in range(1, 6)]
    table, store = await open_table(tmp_path / "ten.sqlite3", 4)
    try:
        await table.start(*(FakeUser(n, name) for n, name in enumerate(names, start=1)))
        rng = random.Random(3)
        while (session := table.manager.get(table.sid)) is not None:
            player = ENGINE.awaiting(session.state)[0]
            action = ENGINE.bot_action(session.state, player, "normal", rng)
            await table.manager.act(session.id, player, session.version, action)
        await table.manager.settle()
        opened = await table.press(names_user(1, names), table.table_message,
                                   f"tb:rp:{table.sid}:0:o")
        built = table.cog.services.replays.get(table.sid)
        assert built is not None
        ui = table.cog.services.uis.ui("ten")
        albanian = words_for(Language.SQ)
        steps = range(built.replay.last_index + 1)
        for index in steps:
            page = replay_render(ui, built, index, albanian)
            assert card_text_size(page) <= MAX_TEXT
            assert not any("more hand" in (e.description or "") for e in page.embeds)
        monkeypatch.setattr(replay_pages, "PAGE_TEXT", 2500)
        paged = 0
        for index in steps:
            page = replay_render(ui, built, index, ENGLISH)
            assert card_text_size(page) <= 2500
            if f"tb:rp:{table.sid}:{index}:h" not in custom_ids(page):
                continue
            paged += 1
            hands = replay_render(ui, built, index, ENGLISH, hands=True)
            assert card_text_size(hands) <= 2500
            assert f"tb:rp:{table.sid}:{index}:t" in custom_ids(hands)
            on_pages = " ".join(e.title or "" for e in [*page.embeds, *hands.embeds])
            assert all(name in on_pages for name in names)  # every hand on one of the two
        assert paged
        shown = await table.press(names_user(1, names), opened.message,
                                  f"tb:rp:{table.sid}:{built.replay.last_index}:h")
        assert "tb:rp:" in " ".join(shown.custom_ids)
    finally:
        await store.close()


def names_user(number: int, names: list[str]) -> FakeUser:
    return FakeUser(number, names[number - 1])


def custom_ids(render: Render) -> list[str]:
    return [str(getattr(item, "custom_id", "")) for item in
            (render.view.children if render.view else [])]
