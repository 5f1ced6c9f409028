"""Hints in Discord (issue 29): the lobby's toggle and the server default, the Hint button in
the private view on the seat's turn only, its ephemeral answer (the expert seat's move in the
words of the controls, and a reason), a read that changes nothing, and its refusals."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.automation.decision_pool import move_rng
from bot.automation.hints import Hint
from bot.records.session import HINTS, Seat, Session, Status
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.commands.game_commands import GameCog
from cogs.game_ui import HintUnit
from cogs.hints import hint_click
from cogs.hints.hint_button import hint_buttons
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.settings_cache import stored_settings
from cogs.kit.refusal_texts import WRONG_TABLE
from cogs.kit.server_settings import server_settings
from cogs.settings.config_command import ConfigCog
from cogs.split import SplitUI
from cogs.split.labels import action_label
from cogs.ten import TenUI
from game.registry import engines
from game.split import SplitEngine
from tests import fakes
from tests.cogs.conftest import ANA, BEN, Table
from tests.cogs.split_table_fixture import SEED, SplitTable
from tests.cogs.test_split_controls import check_limits, crowded_main_step, items
from tests.cogs.test_split_game import play
from tests.fakes import FakeInteraction, FakeMessage, FakeUser, Sent, click, invoke

ENGLISH = words_for(Language.EN)
USERS = {str(user.id): user for user in (ANA, BEN)}


@pytest.fixture
async def split(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[SplitTable]:
    # No deadline cut in tests: the level's simulation count decides, as on an idle machine.
    monkeypatch.setattr(fakes.ThreadHints, "deadline", 60.0)
    store = await open_store(tmp_path / "hints.sqlite3")
    manager = SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: SEED)
    yield SplitTable(manager)
    await store.close()


def labels(sent: Sent) -> list[str]:
    return [str(item.label) for item in (sent.view.children if sent.view else [])
            if getattr(item, "label", None)]


def hint_ids(sent: Sent) -> list[str]:
    return [custom_id for custom_id in sent.custom_ids if custom_id.startswith("tb:hint:")]


async def open_table(split: SplitTable, *, hints: bool) -> FakeMessage:
    opened = await split.command(GameCog.new, ANA, game="split")
    table = opened.message
    assert table is not None
    sid = split.session().id
    split.session_id = sid
    await split.press(BEN, table, f"tb:lobby:join:{sid}")
    if hints:
        toggled = await split.press(ANA, table, f"tb:lobby:hints:{sid}")
        assert toggled.kind == "edit_message"
        assert "The game is recorded but not rated." in toggled.text
    await split.press(ANA, table, f"tb:lobby:start:{sid}")
    return table


async def press_hint(split: SplitTable, user: FakeUser, message: FakeMessage | None,
                     custom_id: str) -> list[Sent]:
    ia = split.interaction(user, message)
    await click(ia, custom_id)
    return ia.sent


def turn_player(split: SplitTable) -> FakeUser:
    return USERS[split.engine.awaiting(split.session().state)[0]]


async def test_the_lobby_toggle_is_the_hosts_and_says_the_game_is_not_rated(
    split: SplitTable,
) -> None:
    opened = await split.command(GameCog.new, ANA, game="split")
    table = opened.message
    sid = split.session().id
    assert f"tb:lobby:hints:{sid}" in opened.custom_ids and "Hints: off" in labels(opened)
    assert "**Hints**\noff" in opened.text
    await split.press(BEN, table, f"tb:lobby:join:{sid}")
    refused = await split.press(BEN, table, f"tb:lobby:hints:{sid}")
    assert refused.ephemeral and refused.text == "Only the host can do that."
    assert not split.session().hints
    on = await split.press(ANA, table, f"tb:lobby:hints:{sid}")
    assert "Hints: on" in labels(on) and "recorded but not rated" in on.text
    assert split.session().hints
    off = await split.press(ANA, table, f"tb:lobby:hints:{sid}")
    assert "Hints: off" in labels(off) and not split.session().hints


async def test_the_servers_default_turns_hints_on_in_a_new_lobby(split: SplitTable) -> None:
    await stored_settings(split.manager.store).set_guild(
        1, HINTS, "on", by="1", at=datetime(2026, 1, 1, tzinfo=UTC))
    opened = await split.command(GameCog.new, ANA, game="split")
    assert split.session().hints and "Hints: on" in labels(opened)


async def test_the_hint_is_the_expert_seats_move_on_the_seats_turn_only(
    split: SplitTable, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    await open_table(split, hints=True)
    for _ in range(3):  # a few turns: each view offers the Hint to the turn's player only
        session = split.session()
        mover = turn_player(split)
        other = BEN if mover is ANA else ANA
        mine = await split.hand(mover)
        theirs = await split.hand(other)
        assert hint_ids(mine) == [f"tb:hint:{session.id}:{session.version}"]
        assert hint_ids(theirs) == []
        logged = len(await split.manager.store.actions(session.id))
        caplog.clear()
        answer = await press_hint(split, mover, mine.message, hint_ids(mine)[0])
        said = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
        assert any("a hint for" in line for line in said)
        assert [sent.kind for sent in answer] == ["defer", "followup"]
        assert all(sent.ephemeral for sent in answer)
        # The expert seat's move for that seat at that version, in the controls' words.
        player = str(mover.id)
        engine = split.engine
        expected = engine.bot_action(session.state, player, "expert",
                                     move_rng(session.state.seed, session.version, player))
        label = action_label(session.state, expected, session.names, ENGLISH)
        text = answer[1].text
        assert text.startswith(f"💡 **The expert suggests:** {label}\n")
        assert not any(label in line for line in said)  # INFO never shows the move
        assert "simulations" in text or "only legal move" in text
        # A read: no new version, no action row.
        assert split.session() is session
        assert len(await split.manager.store.actions(session.id)) == logged
        await play(split, mover, expected)


async def test_the_same_hint_clicked_again_is_searched_once(
    split: SplitTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The decision workers are shared by every table's expert seats: five clicks of one Hint
    # (one seat, one version) run one search, and each gets its answer.
    searched: list[object] = []
    real = fakes.suggest

    def counting(*args: Any) -> Any:
        searched.append(args[2])
        return real(*args)

    monkeypatch.setattr(fakes, "suggest", counting)
    await open_table(split, hints=True)
    mover = turn_player(split)
    mine = await split.hand(mover)
    [own] = hint_ids(mine)
    answers = [await press_hint(split, mover, mine.message, own) for _ in range(5)]
    assert all([s.kind for s in answer] == ["defer", "followup"] for answer in answers)
    assert len({answer[-1].text for answer in answers}) == 1
    assert len(searched) == 1


async def test_stale_foreign_and_forged_hints_are_refused(split: SplitTable) -> None:
    table = await open_table(split, hints=True)
    session = split.session()
    mover = turn_player(split)
    other = BEN if mover is ANA else ANA
    own = f"tb:hint:{session.id}:{session.version}"
    [refused] = await press_hint(split, other, table, own)
    assert refused.ephemeral
    assert refused.text == "A hint is for your own turn, and it is not your turn now."
    [refused] = await press_hint(split, mover, table, f"tb:hint:{session.id}:{session.version - 1}")
    assert refused.text == ("That Hint button is from an earlier moment of the game: use the"
                            " one in your latest view.")
    [refused] = await press_hint(split, mover, table, f"tb:hint:{session.id + 9}:1")
    assert refused.ephemeral and "no longer running" in refused.text
    [refused] = await press_hint(split, mover, table, "tb:hint:99999999999999999999:1")
    assert refused.ephemeral and "There is no game in this channel" in refused.text
    elsewhere = FakeInteraction(split.client, user=mover, channel=split.client.channel(200))
    await click(elsewhere, own)  # a control of this table, clicked in another channel
    assert elsewhere.last.ephemeral and elsewhere.last.text == WRONG_TABLE
    outsider = FakeUser(77, "Zed")
    [refused] = await press_hint(split, outsider, table, own)
    assert refused.text == "You are not seated at this table."
    assert split.session() is session


async def test_a_game_without_hints_has_no_hint_button_and_refuses_a_forged_one(
    split: SplitTable,
) -> None:
    table = await open_table(split, hints=False)
    session = split.session()
    mover = turn_player(split)
    assert hint_ids(await split.hand(mover)) == []
    [refused] = await press_hint(split, mover, table, f"tb:hint:{session.id}:{session.version}")
    assert refused.text == "This game is played without hints."


async def test_a_hint_after_the_game_is_refused(split: SplitTable) -> None:
    table = await open_table(split, hints=True)
    session = split.session()
    mover = turn_player(split)
    await split.press(ANA, table, f"tb:lobby:cancel:{session.id}")
    assert split.manager.get(session.id) is None
    [refused] = await press_hint(split, mover, table, f"tb:hint:{session.id}:{session.version}")
    assert refused.text == "That game is no longer running: hints are only for a game under way."


def test_every_page_of_a_crowded_hand_has_the_hint_within_discords_limits() -> None:
    ui = SplitUI(SplitEngine())
    state = crowded_main_step()
    seats = tuple(Seat(player_id=p, display_name=p) for p in ("1", "2", "3"))
    session = Session(id=7, guild_id=1, channel_id=100, game="split", status=Status.ACTIVE,
                      host_id="1", seats=seats, state=state, version=5,
                      options={HINTS: True})
    english = words_for(Language.EN)
    # The hints feature's turn items, as the table hands them to the game's UI.
    first = ui.private_in(session, "1", english, lambda: hint_buttons(session, "1", english))
    check_limits(first)
    assert [str(i.custom_id) for i in items(first)].count("tb:hint:7:5") == 1
    second = ui.action_in(session, "1", "pg:1", None, english,
                          lambda: hint_buttons(session, "1", english))
    check_limits(second.render)  # type: ignore[union-attr]
    assert "tb:hint:7:5" in [str(i.custom_id) for i in items(second.render)]  # type: ignore[union-attr]

    def never() -> list[Any]:
        raise AssertionError("the turn items are asked only on the viewer's turn")

    assert ui.private_in(session, "2", english, never).view is None  # no controls, no hint


def _session(game: str, hints: bool = True) -> Session:
    engine = engines()[game]
    state, _ = engine.new_game(["1", "2"], 5)
    seats = (Seat(player_id="1", display_name="Ana"), Seat(player_id="2", display_name="Ben"))
    return Session(id=3, guild_id=1, channel_id=2, game=game, status=Status.ACTIVE,
                   host_id="1", seats=seats, state=state, version=4,
                   options={HINTS: True} if hints else {})


def _ten_choice() -> tuple[TenUI, Session, str, Any, Any]:
    """A TEN position where the awaited player has two moves or more, and two of them."""
    ten = TenUI(engines()["ten"])
    session = _session("ten")
    while True:
        player = ten.engine.awaiting(session.state)[0]
        legal = ten.engine.legal_actions(session.state, player)
        if len(legal) >= 2:
            return ten, session, player, legal[0], legal[1]
        ten.engine.apply(session.state, player, legal[0])


def test_the_reason_says_the_gap_in_the_games_unit_and_the_simulations() -> None:
    ui = SplitUI(SplitEngine())
    session = _session("split")
    player = ui.engine.awaiting(session.state)[0]
    ui.engine.apply(session.state, player, ui.engine.legal_actions(session.state, player)[0])
    best, other = ui.engine.legal_actions(session.state, player)[-2:]  # two discards
    points = Hint(best, other, 2.34, 40, 200, True)
    assert ui.hint_unit(session) is HintUnit.POINTS  # round 1 of 3
    line = hint_click.reason(ui, session, player, points, ENGLISH)
    other_label = action_label(session.state, other, session.names, ENGLISH)
    assert line == (f"About 2.3 points more than the next-best move ({other_label}), by 200"
                    " simulations.")
    close = hint_click.reason(ui, session, player, replace(points, gap=-0.2), ENGLISH)
    assert close.startswith("About as good as the next-best move")
    only = Hint(best, None, None, 0, 0, False)
    assert hint_click.reason(ui, session, player, only, ENGLISH) == "It is your only legal move."
    cut = Hint(best, other, None, 0, 3, False)
    assert "no time" in hint_click.reason(ui, session, player, cut, ENGLISH)
    ten, ten_session, mover, first, second = _ten_choice()
    assert ten.hint_unit(ten_session) is HintUnit.WIN
    line = hint_click.reason(ten, ten_session, mover, Hint(first, second, 0.123, 30, 60, True),
                             ENGLISH)
    assert line.startswith("Worth about 12 % of a win more than the next-best move (")


@pytest.mark.parametrize("language", list(Language))
def test_the_hint_texts_in_every_language(language: Language) -> None:
    words = words_for(language)
    ten, session, mover, first, second = _ten_choice()
    text = hint_click.hint_text(ten, session, mover, Hint(first, second, 0.2, 30, 60, True),
                                words)
    assert text.count("\n") == 1 and len(text) <= 2000
    assert ten.hint_move(session, mover, first, words) in text
    assert ten.hint_move(session, mover, second, words) in text


async def test_a_game_without_hints_in_its_ui_has_no_toggle(table: Table) -> None:
    ia = table.interaction(ANA)
    await invoke(GameCog.new, table.cog, ia, game="count")
    sid = table.manager.in_channel(100).id  # type: ignore[union-attr]
    assert not any("hints" in custom_id for custom_id in ia.last.custom_ids)
    forged = table.interaction(ANA, ia.last.message)
    await click(forged, f"tb:lobby:hints:{sid}")
    assert forged.last.ephemeral and forged.last.text == "This game is played without hints."
    assert not table.manager.get(sid).hints  # type: ignore[union-attr]


async def test_config_sets_the_servers_hints_default(split: SplitTable) -> None:
    ia = split.interaction(ANA, permissions=discord.Permissions(manage_guild=True))
    await invoke(ConfigCog.config, ConfigCog(), ia,
                 hints=app_commands.Choice(name="on", value="on"))
    assert ia.last.ephemeral
    assert "Changed Hints in a new game (such games are not rated): off → on" in ia.last.text
    assert (await server_settings(split.client, 1)).hints  # type: ignore[arg-type]
    await invoke(ConfigCog.config, ConfigCog(), split.interaction(
        ANA, permissions=discord.Permissions(manage_guild=True)),
        hints=app_commands.Choice(name="off", value="off"))
    assert not (await server_settings(split.client, 1)).hints  # type: ignore[arg-type]
