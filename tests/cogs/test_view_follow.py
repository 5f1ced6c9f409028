"""Private views follow the game (``cogs.listeners.view_follow``): when the turn comes to a player,
the ephemeral view they last opened is edited to their current hand and controls, while its token is
young enough; an aged token, a failed edit or the game's end forget it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.click_context import enter
from cogs.commands.game_commands import GameCog
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.settings_cache import stored_settings
from cogs.kit.followed_views import ANSWERED_MESSAGE, PRUNE_EVERY, TOKEN_LIFETIME, FollowedViews
from cogs.kit.message_routes import MARGIN
from cogs.listeners.view_follow import ViewFollower
from cogs.pictures import hand_job
from cogs.rendering import message_delivery as delivery
from game.action_codes import action_code
from game.split import SplitEngine
from tests.cogs.conftest import ANA, BEN
from tests.cogs.split_table_fixture import SEED, SplitTable
from tests.cogs.test_split_game import start_game
from tests.fakes import FakeInteraction, FakeUser, Sent

EN = words_for(Language.EN)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def split(tmp_path: Path) -> AsyncIterator[tuple[SplitTable, Clock]]:
    store = await open_store(tmp_path / "follow.sqlite3")
    table = SplitTable(SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: SEED))
    clock = Clock()
    table.cog.services.views = FollowedViews(clock=clock)
    table.manager.subscribe(ViewFollower(table.client, table.client.services).on_change)
    yield table, clock
    await store.close()


async def open_hand(split: SplitTable, user: FakeUser) -> FakeInteraction:
    ia = split.interaction(user)
    await split.cog.interaction_check(ia)  # type: ignore[arg-type]
    await GameCog.hand.callback(split.cog, ia)  # type: ignore[arg-type]
    await split.manager.settle()
    return ia


def players(split: SplitTable) -> tuple[FakeUser, FakeUser]:
    awaited = split.engine.awaiting(split.session().state)
    on_turn = ANA if awaited == [str(ANA.id)] else BEN
    return on_turn, (BEN if on_turn is ANA else ANA)


async def play_turn(split: SplitTable, user: FakeUser) -> None:
    """Draw, then discard the first card offered, from the player's own view."""
    player = str(user.id)
    view = await split.hand(user)
    while split.engine.awaiting(split.session().state) == [player]:
        legal = split.engine.legal_actions(split.session().state, player)
        code = action_code(next(a for a in legal if a.type in ("draw", "discard")))
        target = next(cid for cid in view.custom_ids
                      if cid.endswith(f":a:{code}") or ":s:disc:" in cid)
        values = None if ":a:" in target else [code]
        view = await split.press(user, view.message, target, values)


def follow_edits(ia: FakeInteraction) -> list[Sent]:
    return [sent for sent in ia.sent if sent.kind == "edit_original"]


async def test_the_idle_view_shows_the_controls_when_the_turn_comes(
    split: tuple[SplitTable, Clock],
) -> None:
    table, _ = split
    await start_game(table, (ANA, BEN))
    on_turn, other = players(table)
    idle = await open_hand(table, other)
    assert "No moves for you now" in idle.sent[0].text and idle.sent[0].custom_ids == []
    await play_turn(table, on_turn)
    [edit] = follow_edits(idle)
    session = table.session()
    assert table.engine.awaiting(session.state) == [str(other.id)]
    assert "No moves for you now" not in edit.text and "**Your hand" in edit.text
    assert edit.custom_ids and all(f":{session.id}:{session.version}:" in cid
                                   for cid in edit.custom_ids)
    # The player who just finished their turn had a view too: it is not edited (not awaited).
    assert len(table.cog.services.views) == 2


async def test_a_view_opened_while_the_turn_comes_is_brought_up_to_date(
    split: tuple[SplitTable, Clock],
) -> None:
    """The race seen under load (issue 39): a view is drawn from the live game when its click
    comes in, and the change that makes its player awaited (a machine seat's move, the turn
    clock's) is published while the answer is on its way: that change's follow finds no view
    to edit. The view just remembered is then brought up to date at once."""
    table, _ = split
    await start_game(table, (ANA, BEN))
    on_turn, other = players(table)
    mover, waiter = str(on_turn.id), str(other.id)
    ia = table.interaction(other)
    await table.cog.interaction_check(ia)  # type: ignore[arg-type]
    answer = ia.response.send_message

    async def answered_as_the_turn_passes(content: str | None = None, **kwargs: Any) -> None:
        # The other player's turn ends while this answer travels; its change is delivered.
        while table.engine.awaiting(table.session().state) == [mover]:
            session = table.session()
            legal = table.engine.legal_actions(session.state, mover)
            action = next(a for a in legal if a.type in ("draw", "discard"))
            await table.manager.act(session.id, mover, session.version, action)
        await table.manager.settle()
        await answer(content, **kwargs)

    ia.response.send_message = answered_as_the_turn_passes  # type: ignore[method-assign]
    await GameCog.hand.callback(table.cog, ia)  # type: ignore[arg-type]
    await table.manager.settle()
    assert "No moves for you now" in ia.sent[0].text and ia.sent[0].custom_ids == []
    session = table.session()
    assert table.engine.awaiting(session.state) == [waiter]
    [edit] = follow_edits(ia)
    assert "No moves for you now" not in edit.text and "**Your hand" in edit.text
    assert edit.custom_ids and all(f":{session.id}:{session.version}:" in cid
                                   for cid in edit.custom_ids)
    assert table.cog.services.views.shown(session.id, waiter) == session.version


async def test_a_view_is_edited_once_per_version(split: tuple[SplitTable, Clock]) -> None:
    """A view opened after the change that made its player awaited shows that version
    already: neither that change's follow nor the catch-up edits it again."""
    table, _ = split
    await start_game(table, (ANA, BEN))
    on_turn, other = players(table)
    await play_turn(table, on_turn)
    opened = await open_hand(table, other)
    assert [sent.kind for sent in opened.sent] == ["send_message"]
    assert "**Your hand" in opened.sent[0].text


async def test_an_aged_token_is_not_used_and_is_dropped(split: tuple[SplitTable, Clock]) -> None:
    table, clock = split
    await start_game(table, (ANA, BEN))
    on_turn, other = players(table)
    idle = await open_hand(table, other)
    clock.now += TOKEN_LIFETIME  # 15 minutes later: Discord no longer accepts the token
    await play_turn(table, on_turn)
    assert follow_edits(idle) == []
    views = table.cog.services.views
    assert views.usable(table.session().id, str(other.id)) is None
    # The turn's own clicks renewed the other player's entry; nothing else is kept.
    assert len(views) == 1


async def test_a_failed_edit_forgets_the_view(split: tuple[SplitTable, Clock]) -> None:
    table, _ = split
    await start_game(table, (ANA, BEN))
    on_turn, other = players(table)
    idle = await open_hand(table, other)
    calls: list[dict[str, Any]] = []

    async def gone(**kwargs: Any) -> None:
        calls.append(kwargs)
        raise discord.NotFound(FakeResponse(404), "Unknown Message")

    idle.edit_original_response = gone  # type: ignore[method-assign]
    await play_turn(table, on_turn)
    assert len(calls) == 1
    assert table.cog.services.views.usable(table.session().id, str(other.id)) is None


async def test_the_game_end_drops_every_entry(split: tuple[SplitTable, Clock]) -> None:
    table, _ = split
    await start_game(table, (ANA, BEN))
    await open_hand(table, ANA)
    await open_hand(table, BEN)
    assert len(table.cog.services.views) == 2
    await table.command(GameCog.cancel, ANA)
    assert len(table.cog.services.views) == 0


class FakeResponse:
    """Enough of an aiohttp response for ``discord.HTTPException``."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Not Found"


# --- pictures (issue 16) ----


async def pictures_for(table: SplitTable, user: FakeUser) -> None:
    """Pictures on for ``user`` only (their /images choice; the server's stay off)."""
    await stored_settings(table.manager.store).set_user(user.id, "images", "on",
                                                         at=datetime(2026, 1, 1, tzinfo=UTC))


async def test_a_followed_view_shows_the_hand_picture_of_its_version(
    split: tuple[SplitTable, Clock],
) -> None:
    table, _ = split
    try:
        await start_game(table, (ANA, BEN))
        on_turn, other = players(table)
        await pictures_for(table, other)
        idle = await open_hand(table, other)
        await play_turn(table, on_turn)
        edit = follow_edits(idle)[-1]  # after the picture of the answer that opened it
        session = table.session()
        assert "**Your hand" in edit.text
        assert all(f":{session.version}:" in cid for cid in edit.custom_ids)
        assert [f.filename for f in edit.files] == ["hand.png"] and edit.attachments_set
        assert edit.picture == "attachment://hand.png"
    finally:
        table.cog.services.pictures.close()


async def test_with_pictures_off_a_followed_view_keeps_no_older_picture(
    split: tuple[SplitTable, Clock],
) -> None:
    table, _ = split
    await start_game(table, (ANA, BEN))
    on_turn, other = players(table)
    idle = await open_hand(table, other)
    await play_turn(table, on_turn)
    [edit] = follow_edits(idle)
    assert edit.attachments_set and edit.files == []


async def test_the_hand_of_a_player_without_a_followed_view_is_drawn_ahead(
    split: tuple[SplitTable, Clock],
) -> None:
    table, _ = split
    pictures = table.cog.services.pictures
    try:
        await start_game(table, (ANA, BEN))
        on_turn, other = players(table)
        await pictures_for(table, other)
        await play_turn(table, on_turn)
        session = table.session()
        job = hand_job(table.client.uis.ui("split"), session, str(other.id), EN)
        assert job is not None
        for _ in range(500):
            if pictures.cached(job.key) is not None:
                break
            await asyncio.sleep(0.01)
        assert pictures.cached(job.key) is not None
        opened = await open_hand(table, other)
        assert [sent.kind for sent in opened.sent] == ["send_message"]  # no edit after it
        assert [f.filename for f in opened.sent[0].files] == ["hand.png"]
    finally:
        pictures.close()


async def test_a_view_drawn_while_the_game_moves_on_is_drawn_again_not_sent_stale(
    split: tuple[SplitTable, Clock], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seen under load with pictures on (bench.global_calls): the follower drew a view for the
    turn that came to the player, the player moved meanwhile from that view, and the older
    drawing then overwrote their newer answer (its controls stale). A drawing the game moved
    past is dropped and the view drawn again from the live game."""
    import cogs.listeners.view_follow as view_follow

    table, _ = split
    await start_game(table, (ANA, BEN))
    on_turn, other = players(table)
    waiter = str(other.id)
    idle = await open_hand(table, other)
    draw = view_follow.followed_view
    overtaken: list[int] = []

    async def drawn_while_the_player_moves(client: Any, services: Any, session: Any,
                                           player: Any, render: Any, words: Any) -> Any:
        drawn = await draw(client, services, session, player, render, words)
        if not overtaken:
            overtaken.append(session.version)
            legal = table.engine.legal_actions(session.state, waiter)
            action = next(a for a in legal if a.type == "draw")
            await asyncio.wait_for(
                table.manager.act(session.id, waiter, session.version, action), 5)
        return drawn

    monkeypatch.setattr(view_follow, "followed_view", drawn_while_the_player_moves)
    await play_turn(table, on_turn)
    await table.manager.settle()
    edits = follow_edits(idle)
    assert overtaken and edits
    assert not any(f":{overtaken[0]}:" in cid for edit in edits for cid in edit.custom_ids)
    session = table.session()
    assert all(f":{session.id}:{session.version}:" in cid for cid in edits[-1].custom_ids)


ClickOnView = Callable[[FakeInteraction, Any, Any], Awaitable[None]]  # (click, render, session)


async def click_while_the_follower_draws(
    split: tuple[SplitTable, Clock], monkeypatch: pytest.MonkeyPatch, click_on: ClickOnView,
) -> tuple[FakeInteraction, FakeInteraction, FakeUser]:
    """A game where the idle player's open view is followed into their turn, and ``click_on``
    answers their click on that view once, while the follower draws it: (the view, the
    click, the player)."""
    import cogs.listeners.view_follow as view_follow

    table, _ = split
    await start_game(table, (ANA, BEN))
    on_turn, other = players(table)
    idle = await open_hand(table, other)
    assert idle.original is not None
    original = idle.original
    draw = view_follow.followed_view
    clicks: list[FakeInteraction] = []

    async def clicked_while_drawn(client: Any, services: Any, session: Any, player: Any,
                                  render: Any, words: Any) -> Any:
        drawn = await draw(client, services, session, player, render, words)
        if not clicks:
            click = table.interaction(other, original)
            enter(click, table.client.services)  # type: ignore[arg-type]
            clicks.append(click)
            await click_on(click, render, session)
        return drawn

    monkeypatch.setattr(view_follow, "followed_view", clicked_while_drawn)
    await play_turn(table, on_turn)
    await table.manager.settle()
    assert clicks
    return idle, clicks[0], other


async def test_a_view_the_players_own_click_answered_meanwhile_is_not_edited_again(
    split: tuple[SplitTable, Clock], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seen in bench.action_cpu (issue 42, fourth pass): while the follower drew a player's
    view for the version that awaits them, their own click on that very message answered it
    with the same version; the follower then edited it again to the same version (a fifth to
    a third of the hand pictures the stand-in received were such copies). It is not."""
    async def answered(click: FakeInteraction, render: Any, session: Any) -> None:
        await delivery.answer(click, delivery.Shown(render, session=session),  # type: ignore[arg-type]
                              edit=True)

    idle, click, other = await click_while_the_follower_draws(split, monkeypatch, answered)
    assert [sent.kind for sent in click.sent] == ["edit_message"]
    assert follow_edits(idle) == []
    table, _ = split
    session = table.session()
    assert table.cog.services.views.shown(session.id, str(other.id)) == session.version


async def test_an_answer_refused_while_the_view_is_drawn_leaves_the_view_to_the_follower(
    split: tuple[SplitTable, Clock], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The player's click on their view is answered with the version the follower is drawing,
    but Discord refuses the answer (10062: too late): the message still shows the older
    version, so the follower still brings it up to date (found in review: the answer was
    recorded as shown before it was sent, and never taken back)."""
    async def refused(**kwargs: Any) -> None:
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),  # type: ignore[arg-type]
                               {"code": 10062, "message": "Unknown interaction"})

    async def refused_answer(click: FakeInteraction, render: Any, session: Any) -> None:
        click.response.edit_message = refused  # type: ignore[method-assign]
        with pytest.raises(discord.NotFound):
            await delivery.answer(click, delivery.Shown(render, session=session),  # type: ignore[arg-type]
                                  edit=True)

    idle, click, other = await click_while_the_follower_draws(split, monkeypatch,
                                                              refused_answer)
    assert click.sent == []
    assert follow_edits(idle) != []
    table, _ = split
    session = table.session()
    assert table.cog.services.views.shown(session.id, str(other.id)) == session.version


def test_a_refused_answer_gives_back_the_record_it_replaced() -> None:
    views = FollowedViews()
    views.answering(1, "p", 11, 5)
    views.answering(1, "p", 11, 6)
    views.answer_failed(1, "p", 11, 6, (11, 5))
    assert views.answered(1, "p") == (11, 5)
    views.answering(1, "p", 11, 7)
    views.answer_failed(1, "p", 11, 6, (11, 5))  # a later answer replaced it: kept
    assert views.answered(1, "p") == (11, 7)
    views.answering(2, "q", 12, 3)
    views.answer_failed(2, "q", 12, 3, None)
    assert views.answered(2, "q") is None


def test_answers_finishing_out_of_order_leave_the_newest_version_on_their_message(
    split: tuple[SplitTable, Clock],
) -> None:
    """A player's quick clicks on one view are answered in order but remembered in any order
    (each answer waits for its picture): the version their message shows is the newest
    answer's, also when it was answered before the view on that message was remembered, so
    the follower does not edit it again to a version it already shows."""
    table, _ = split
    views = table.cog.services.views
    older, on_it, newer = (table.interaction(ANA) for _ in range(3))
    older.extras[ANSWERED_MESSAGE] = 10  # their hand, sent as a new message
    on_it.extras[ANSWERED_MESSAGE] = newer.extras[ANSWERED_MESSAGE] = 11  # then clicked on
    views.remember(1, "p", older, 3)  # type: ignore[arg-type]
    views.answering(1, "p", 11, 6)  # the latest click on message 11, answered with version 6
    views.remember(1, "p", on_it, 4)  # type: ignore[arg-type]  # an earlier click's answer
    assert views.shown(1, "p") == 6 and views.shown_on(1, "p", 11) == 6
    assert views.shown_on(1, "p", 10) is None  # not their followed view any more
    views.answering(1, "p", 11, 7)
    views.remember(1, "p", newer, 5)  # type: ignore[arg-type]
    assert views.shown(1, "p") == 7
    views.ended(1)
    assert views.shown_on(1, "p", 11) is None and len(views) == 0


def test_aged_views_are_swept_once_a_minute_and_never_handed_out() -> None:
    """Remembering a view sweeps every game's aged views at most once per ``PRUNE_EVERY`` (a
    sweep walks every live table: once per view it grew with the tables, issue 42): memory
    stays flat, and an aged view is never used between two sweeps."""
    now = [0.0]
    views = FollowedViews(clock=lambda: now[0])

    def remember(session_id: int, player: str) -> None:
        views.remember(session_id, player, SimpleNamespace(extras={}), 1)  # type: ignore[arg-type]

    aged = TOKEN_LIFETIME - MARGIN + 1
    remember(1, "p")
    views.answering(1, "p", 11, 1)
    now[0] = PRUNE_EVERY / 2
    remember(2, "q")
    now[0] = aged  # game 1's view aged: this remembering sweeps it, its answers with it
    remember(3, "r")
    assert len(views) == 2 and views.answered(1, "p") is None
    now[0] = PRUNE_EVERY / 2 + aged  # game 2's aged too, but the last sweep was just now
    remember(4, "s")
    assert len(views) == 3
    assert views.usable(2, "q") is None  # aged: not handed out, and dropped
    assert len(views) == 2
    now[0] = aged + PRUNE_EVERY + aged  # games 3 and 4 aged: the next remembering sweeps
    remember(5, "t")
    assert len(views) == 1 and views.usable(5, "t") is not None
