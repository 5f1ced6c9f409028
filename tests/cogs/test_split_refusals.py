"""Every refusal path of the SPLIT table, stale clicks, restarts and the info buttons."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.records import errors
from bot.records.session import Session
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.commands.game_commands import GameCog
from cogs.i18n import Language, words_for
from cogs.kit.control_menus import NOT_AVAILABLE, OUTDATED, UNKNOWN_CONTROL
from cogs.split.events import event_line
from game.split import SplitEngine
from game.split.cards import FACE_NAMES
from tests.cogs.conftest import ANA, BEN, CY
from tests.cogs.split_table_fixture import SEED, SplitTable, faces_in
from tests.cogs.test_split_game import start_game
from tests.fakes import FakeMessage, FakeUser, Sent


@pytest.fixture
async def split(tmp_path: Path) -> AsyncIterator[SplitTable]:
    store = await open_store(tmp_path / "split.sqlite3")
    yield SplitTable(SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: SEED))
    await store.close()


def log_lines(session: Session) -> list[str]:
    """The session's log in English words, for no viewer (as the Log answer words it)."""
    english = words_for(Language.EN)
    return [event_line(event, None, session.names, english) for event in session.log]


def refused(sent: Sent, message: str) -> None:
    assert sent.kind == "send_message" and sent.ephemeral, (sent.kind, sent.ephemeral)
    assert sent.content == message, sent.content


def public_marks(split: SplitTable, *messages: FakeMessage | None) -> tuple[int, ...]:
    """How much has been shown so far: edits of each message, and new channel posts."""
    assert all(message is not None for message in messages)
    return (*(len(m.edits) for m in messages if m is not None), len(split.channel.sent))


async def two_player_game(
    split: SplitTable,
) -> tuple[FakeMessage, tuple[FakeUser, FakeUser]]:
    table = await start_game(split, (ANA, BEN))
    session = split.session()
    on_turn = ANA if split.engine.awaiting(session.state) == [str(ANA.id)] else BEN
    other = BEN if on_turn is ANA else ANA
    return table, (on_turn, other)


async def test_refusals_change_nothing(split: SplitTable) -> None:
    table, (on_turn, other) = await two_player_game(split)
    session = split.session()
    sid, version = session.id, session.version
    mine = await split.hand(on_turn)
    draw = mine.custom_ids[0]
    assert draw == f"tb:act:{sid}:{version}:a:draw"
    shown = public_marks(split, table, mine.message)
    # Not seated: hand command, My hand button, a game control (also an old table's Scores).
    refused(await split.hand(CY), errors.NOT_SEATED)
    refused(await split.press(CY, table, f"tb:hand:{sid}"), errors.NOT_SEATED)
    refused(await split.press(CY, mine.message, draw), errors.NOT_SEATED)
    refused(await split.press(CY, table, f"tb:act:{sid}:{version}:scores"), errors.NOT_SEATED)
    # Seated but not on turn: any game control.
    refused(await split.press(other, mine.message, draw), errors.NOT_YOUR_TURN)
    refused(await split.press(other, mine.message, f"tb:sel:{sid}:{version}:s:pick:0", ["1"]),
            errors.NOT_YOUR_TURN)
    # On turn, forged or impossible payloads.
    refused(await split.press(on_turn, mine.message, f"tb:act:{sid}:{version}:a:77"),
            OUTDATED)  # a list index: a control drawn before actions had codes
    refused(await split.press(on_turn, mine.message, f"tb:act:{sid}:{version}:a:bonus_draw"),
            NOT_AVAILABLE)  # an action, but not a legal one now
    refused(await split.press(on_turn, mine.message, f"tb:act:{sid}:{version}:xyz"),
            UNKNOWN_CONTROL)
    refused(await split.press(on_turn, mine.message, f"tb:sel:{sid}:{version}:s:disc:0",
                              ["draw"]), NOT_AVAILABLE)  # the draw, not a discard
    refused(await split.press(on_turn, mine.message, f"tb:sel:{sid}:{version}:s:disc:0", ["0"]),
            OUTDATED)
    # No game behind the id.
    refused(await split.press(on_turn, mine.message, f"tb:act:999:{version}:a:0"), errors.NO_GAME)
    assert split.manager.get(sid) is session
    assert public_marks(split, table, mine.message) == shown  # no edit, no channel post


async def test_malformed_select_values_are_refused_and_change_nothing(
    split: SplitTable,
) -> None:
    table, (on_turn, _other) = await two_player_game(split)
    first = await split.hand(on_turn)
    await split.press(on_turn, first.message, first.custom_ids[0])  # draw: now discard
    session = split.session()
    mine = await split.hand(on_turn)
    discard = next(str(item.custom_id) for item in mine.view.children
                   if ":s:disc:" in str(item.custom_id))
    assert discard.startswith(f"tb:sel:{session.id}:{session.version}:")
    shown = public_marks(split, table, mine.message)
    for values in (["x"], ["-1"], [""], ["1.0"], ["discard:"], ["discard:7♥:7♥"], ["draw"]):
        refused(await split.press(on_turn, mine.message, discard, values), NOT_AVAILABLE)
    refused(await split.press(on_turn, mine.message, discard, ["99"]), OUTDATED)
    refused(await split.press(on_turn, mine.message, discard, ["0", "1"]),
            "Choose one option from the list.")
    refused(await split.press(on_turn, mine.message, discard, []),
            "Choose one option from the list.")
    assert split.session() is session
    assert public_marks(split, table, mine.message) == shown


async def test_stale_click_answers_with_a_fresh_current_view(split: SplitTable) -> None:
    _, (on_turn, _other) = await two_player_game(split)
    session = split.session()
    old = await split.hand(on_turn)
    played = await split.press(on_turn, old.message, old.custom_ids[0])  # draw
    assert played.kind == "edit_message" and played.message is old.message
    current = split.session()
    assert current.version == session.version + 1
    stale = await split.press(on_turn, old.message, old.custom_ids[0])
    assert stale.kind == "send_message" and stale.ephemeral
    assert stale.content == errors.STALE
    assert all(f":{current.version}:" in cid for cid in stale.custom_ids)
    assert "Make **matches or upgrades**" in stale.text
    assert split.session() is current


async def test_private_views_are_ephemeral_and_idle_players_see_why(split: SplitTable) -> None:
    table, (on_turn, other) = await two_player_game(split)
    session = split.session()
    idle = await split.hand(other)
    assert idle.ephemeral and idle.view is None
    assert "No moves for you now" in idle.text and "taking a card" in idle.text
    by_button = await split.press(other, table, f"tb:hand:{session.id}")
    assert by_button.ephemeral and by_button.text == idle.text
    mine = await split.hand(on_turn)
    assert mine.ephemeral and "Draw a card" in [getattr(i, "label", "") for i in
                                                 mine.view.children]
    seat = session.state.players.index(str(on_turn.id))
    assert len(session.state.hands[seat]) == 9 and "**Your hand (9):**" in mine.text


async def test_scores_and_rules_buttons_answer_anyone_privately(split: SplitTable) -> None:
    table, (_on_turn, other) = await two_player_game(split)
    session = split.session()
    ids = table.edits[-1].custom_ids
    assert ids == [f"tb:hand:{session.id}", f"tb:info:{session.id}:rules",
                   f"tb:info:{session.id}:scores", f"tb:info:{session.id}:log"]
    shown = public_marks(split, table)
    for who in (other, CY):  # a seated player and a spectator (CY is not seated)
        scores = await split.press(who, table, ids[2])
        assert scores.kind == "send_message" and scores.ephemeral
        assert "score sheets after 0 of 3 rounds" in scores.text
        assert " K □□□□□□□□□□□□   0" in scores.text and "no round finished yet" in scores.text
        assert scores.view is None
    rules = await split.press(CY, table, ids[1])
    assert rules.ephemeral and "SPLIT rules" in rules.text
    log = await split.press(CY, table, ids[3])  # the event log, off the table, on request
    assert log.kind == "send_message" and log.ephemeral and log.view is None
    lines = log_lines(session)
    assert lines and all(f"• {line}" in log.text for line in lines)
    assert f"The last {len(session.log)} event" in log.text
    assert not any(line in table.edits[-1].text for line in lines)
    assert table.edits[-1].custom_ids == ids  # the table itself was not replaced
    assert public_marks(split, table) == shown
    assert split.session() is session  # and nothing changed


async def test_an_old_tables_scores_game_button_still_answers_seated_players(
    split: SplitTable,
) -> None:
    table, (_on_turn, other) = await two_player_game(split)
    session = split.session()
    shown = public_marks(split, table)
    scores = await split.press(other, table, f"tb:act:{session.id}:{session.version}:scores")
    assert scores.kind == "send_message" and scores.ephemeral
    assert "score sheets after 0 of 3 rounds" in scores.text
    assert split.session() is session
    assert public_marks(split, table) == shown


async def test_scores_of_an_ended_game_or_a_lobby_are_refused(split: SplitTable) -> None:
    lobby = await split.command(GameCog.new, ANA, game="split")
    session = split.session()
    refused(await split.press(CY, lobby.message, f"tb:info:{session.id}:scores"),
            errors.NOT_STARTED)
    refused(await split.press(CY, lobby.message, "tb:info:999:scores"), errors.NO_GAME)


async def test_controls_and_log_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    store = await open_store(path)
    split = SplitTable(SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: SEED))
    _, (on_turn, _other) = await two_player_game(split)
    first = await split.hand(on_turn)
    await split.press(on_turn, first.message, first.custom_ids[0])  # draw
    before = split.session()
    assert len(before.log) == 2 and "drew a card" in log_lines(before)[1]  # round 1 starts it
    assert before.log[1].private is None  # the drawn card is not kept
    view = await split.hand(on_turn)
    await store.close()

    store = await open_store(path)
    try:
        manager = SessionManager(store, {"split": SplitEngine()})
        await manager.restore()
        revived = SplitTable(manager)
        restored = revived.session()
        assert restored.version == before.version and restored.log == before.log
        discard = next(item for item in view.view.children
                       if ":s:disc:" in str(item.custom_id))
        played = await revived.press(on_turn, view.message, str(discard.custom_id),
                                     [discard.options[0].value])
        assert played.kind == "edit_message" and played.message is view.message
        after = revived.session()
        assert after.version == before.version + 1 and "discarded" in log_lines(after)[-1]
        status = await revived.command(GameCog.status, CY)
        assert not status.ephemeral and status.message is not None
        log = await revived.press(CY, status.message, f"tb:info:{after.id}:log")
        assert log.ephemeral and log_lines(after)[0] in log.text  # it survived the restart
    finally:
        await store.close()


async def test_opening_table_shows_no_dealt_card(split: SplitTable) -> None:
    table = await start_game(split, (ANA, BEN, CY))
    state = split.session().state
    public = table.edits[-1].text
    row = set(split.engine.view(state, None).row)
    dealt = {FACE_NAMES[card >> 1] for hand in state.hands for card in hand} - row
    assert len(dealt) > 15 and not dealt & faces_in(public)
    assert "`1` " + FACE_NAMES[state.row[0] >> 1] in public


async def test_forged_superscript_digits_are_refused(split: SplitTable) -> None:
    # "²".isdigit() is true but int("²") fails: these must be refusals, not crashes.
    table, (on_turn, _) = await two_player_game(split)
    session = split.session()
    sid, version = session.id, session.version
    mine = await split.hand(on_turn)
    shown = public_marks(split, table, mine.message)
    refused(await split.press(on_turn, mine.message, f"tb:act:{sid}:{version}:a:²"),
            NOT_AVAILABLE)
    refused(await split.press(on_turn, mine.message, f"tb:sel:{sid}:{version}:s:disc:0", ["²"]),
            NOT_AVAILABLE)
    refused(await split.press(on_turn, mine.message, f"tb:act:{sid}:{version}:pg:²"),
            UNKNOWN_CONTROL)
    assert split.session().version == version
    assert public_marks(split, table, mine.message) == shown
