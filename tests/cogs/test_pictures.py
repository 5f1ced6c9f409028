"""Pictures on what the bot sends (issue 16): the table image on the public table, the hand
image on the private view, the final picture on the finished table; the server setting and
the per-user /images choice; the text when pictures are off; Discord's file limits; renders
off the event loop, cached, and a late picture that never overwrites a newer answer."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image

from bot.ops.metrics import METRICS
from bot.records.session import Session, Status
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.click_context import enter
from cogs.commands.game_commands import GameCog
from cogs.commands.images_command import ImagesCog
from cogs.game_ui import (
    DESCRIBES_PICTURES,
    DRAWS_FINAL_PICTURE,
    DRAWS_IMAGES,
    Attachment,
    Render,
    able,
)
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.settings_cache import stored_settings
from cogs.kit.discord_limits import FILE_BYTES, FILES
from cogs.listeners.final_post import with_final_picture
from cogs.pictures import Pictures, final_attachment, table_attachment, with_table_picture
from cogs.rendering import message_delivery as delivery
from cogs.rendering.table_renders import table_render
from cogs.split import SplitUI
from cogs.ten import TenUI
from game.split import SplitEngine
from game.ten import TenEngine
from tests.cogs.conftest import ANA, BEN
from tests.cogs.split_table_fixture import SEED, SplitTable
from tests.fakes import FakeInteraction, FakeMessage, Sent, card_texts, click, invoke
from tests.images import samples

EN = words_for(Language.EN)
AT = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
async def split(tmp_path: Path) -> AsyncIterator[SplitTable]:
    store = await open_store(tmp_path / "pictures.sqlite3")
    manager = SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: SEED)
    table = SplitTable(manager)
    table.cog.services.pictures = Pictures(default_on=True)
    yield table
    table.cog.services.pictures.close()
    await store.close()


async def started(split: SplitTable) -> FakeMessage:
    opened = await split.command(GameCog.new, ANA, game="split")
    table = opened.message
    assert table is not None
    split.session_id = split.session().id
    await split.press(BEN, table, f"tb:lobby:join:{split.session_id}")
    await click(split.interaction(ANA, table), f"tb:lobby:start:{split.session_id}")
    return table


def png_of(file: discord.File) -> Image.Image:
    file.fp.seek(0)
    image = Image.open(io.BytesIO(file.fp.read()))
    image.load()
    return image


def picture_names(sent: Sent) -> list[str]:
    return [file.filename for file in sent.files]


def embed_image(sent: Sent) -> str | None:
    """The picture a message shows (a card's media, issue 41)."""
    return sent.picture


async def hand_view(split: SplitTable, user: Any) -> FakeInteraction:
    ia = split.interaction(user)
    await invoke(GameCog.hand, split.cog, ia)
    return ia


# --- the public table and the private view ----


async def test_the_public_table_shows_the_table_picture_with_its_text(split: SplitTable) -> None:
    table = await started(split)
    session = split.session()
    start = table.edits[-1]  # Start's answer, or the picture just after it
    edit = next(e for e in reversed(table.edits) if e.files)
    assert picture_names(edit) == ["table.png"]
    assert embed_image(edit) == "attachment://table.png"
    assert edit.attachments_set
    assert png_of(edit.files[0]).width == 800
    # The text stays beside the picture in the card: the same text as without pictures.
    text = table_render(split.client, split.client.services, session)  # type: ignore[arg-type]
    assert str(text.embeds[0].description) in edit.text
    assert all(str(f.value) in edit.text for f in text.embeds[0].fields)
    assert "SPLIT · round 1/3" in start.text


async def test_the_private_view_shows_the_hand_picture(split: SplitTable) -> None:
    await started(split)
    ia = await hand_view(split, ANA)
    pictured = [sent for sent in ia.sent if sent.files]
    assert pictured, [sent.kind for sent in ia.sent]
    assert picture_names(pictured[-1]) == ["hand.png"]
    assert embed_image(pictured[-1]) == "attachment://hand.png"
    assert all(sent.ephemeral or sent.kind == "edit_original" for sent in ia.sent)


async def test_a_picture_still_drawn_follows_the_text_answer(split: SplitTable) -> None:
    await started(split)
    ia = await hand_view(split, ANA)
    first, *rest = ia.sent
    assert first.kind == "send_message" and first.ephemeral and not first.files
    assert embed_image(first) is None  # no picture named before it is there
    assert [sent.kind for sent in rest] == ["edit_original"]
    assert picture_names(rest[0]) == ["hand.png"]
    # Asked again at the same version, the picture is cached and goes with the answer.
    again = await hand_view(split, ANA)
    assert [sent.kind for sent in again.sent] == ["send_message"]
    assert picture_names(again.sent[0]) == ["hand.png"]


async def test_a_late_picture_is_dropped_once_the_game_moved_on(split: SplitTable) -> None:
    await started(split)
    session = split.session()
    ui = split.client.uis.ui("split")
    ia = split.interaction(ANA)

    async def slow() -> Render:
        # Drawn after the answer went out; meanwhile the game moves on (a newer version).
        await split.manager.set_away(session.id, str(ANA.id), True)
        return Render(embeds=[discord.Embed(title="x")],
                      files=[Attachment("hand.png", b"png")])

    await delivery.answer(ia, delivery.Shown(ui.private(session, str(ANA.id)), slow(), session),
                          edit=False)
    assert [sent.kind for sent in ia.sent] == ["send_message"]


async def test_the_edit_after_an_answer_sends_only_the_picture(split: SplitTable) -> None:
    await started(split)
    session = split.session()
    ia = split.interaction(ANA)
    sent_keys: list[set[str]] = []
    original = ia.edit_original_response

    async def spy(**kwargs: Any) -> FakeMessage:
        sent_keys.append(set(kwargs))
        return await original(**kwargs)

    ia.edit_original_response = spy  # type: ignore[method-assign]
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Discard", custom_id="x"))
    text = Render(content="your turn", embeds=[discord.Embed(title="hand")], view=view)

    async def drawn() -> Render:
        return Render(content=text.content, embeds=[discord.Embed(title="hand")], view=view,
                      files=[Attachment("hand.png", b"png")])

    await delivery.answer(ia, delivery.Shown(text, drawn(), session), edit=False)
    # The answer's content and controls stay as they were sent; the edit adds the picture.
    assert sent_keys == [{"embeds", "attachments"}]


async def test_a_late_picture_never_overwrites_a_newer_answer(split: SplitTable) -> None:
    await started(split)
    session = split.session()
    message = FakeMessage(split.channel, ephemeral=True)
    release = asyncio.Event()

    async def late() -> Render:
        await release.wait()
        return Render(embeds=[discord.Embed(title="old")],
                      files=[Attachment("hand.png", b"old")])

    older = split.interaction(ANA, message)
    newer = split.interaction(ANA, message)
    for ia in (older, newer):
        enter(ia, split.client.services)  # type: ignore[arg-type]  # as a control's dispatch
    text = Render(embeds=[discord.Embed(title="text")])
    first = asyncio.ensure_future(delivery.answer(older, delivery.Shown(text, late(), session),
                                                  edit=True))
    async with asyncio.timeout(5.0):  # until the older answer's text is out (its picture
        while not older.sent:  # waits for ``release``)
            await asyncio.sleep(0)
    await delivery.answer(newer, delivery.Shown(Render(embeds=[discord.Embed(title="new")])),
                          edit=True)
    release.set()
    await first
    assert [sent.kind for sent in older.sent] == ["edit_message"]
    assert message.edits[-1].embeds[0].title == "new"
    assert not delivery._latest  # nothing kept once the answers are done


# --- switching pictures off ----


async def test_with_the_server_setting_off_the_table_is_exactly_the_text(
    split: SplitTable,
) -> None:
    await split.manager.store.set_guild_setting(1, "images", "off", by="0", at=AT)
    table = await started(split)
    session = split.session()
    text = table_render(split.client, split.client.services, session)  # type: ignore[arg-type]
    last = table.edits[-1]
    assert all(not edit.files for edit in table.edits)
    assert last.content == text.content
    assert last.card is not None and embed_image(last) is None
    assert card_texts(last.card) == card_texts(text.send_kwargs()["view"])
    assert last.custom_ids == [str(getattr(i, "custom_id", "")) for i in text.view.children]  # type: ignore[union-attr]
    assert last.attachments_set  # an edit removes a picture left from when it was on
    hand = await hand_view(split, ANA)
    assert [sent.kind for sent in hand.sent] == ["send_message"] and not hand.sent[0].files


async def test_the_env_default_applies_without_a_server_setting(split: SplitTable) -> None:
    split.cog.services.pictures = Pictures(default_on=False)
    table = await started(split)
    assert all(not edit.files for edit in table.edits)
    await stored_settings(split.manager.store).set_guild(1, "images", "on", by="0", at=AT)
    await hand_view(split, ANA)
    await split.manager.settle()
    ia = await hand_view(split, BEN)
    assert any(sent.files for sent in ia.sent)


async def test_images_off_for_one_person_keeps_the_public_picture(split: SplitTable) -> None:
    table = await started(split)
    ia = split.interaction(ANA)
    await ImagesCog.images.callback(ImagesCog(split.client.services.pictures), ia, show="off")  # type: ignore[arg-type]
    answer = ia.last
    assert answer.ephemeral and "Pictures off" in (answer.content or "")
    assert (await split.manager.store.user_settings(ANA.id)) == {"images": "off"}
    mine = await hand_view(split, ANA)
    assert all(not sent.files for sent in mine.sent)
    theirs = await hand_view(split, BEN)
    assert any(sent.files for sent in theirs.sent)
    assert any(edit.files for edit in table.edits)  # the public table follows the server


async def test_the_images_command_answers_in_the_persons_language(split: SplitTable) -> None:
    await split.manager.store.set_user_setting(ANA.id, "language", "es", at=AT)
    ia = split.interaction(ANA)
    await ImagesCog.images.callback(ImagesCog(split.client.services.pictures), ia, show="on")  # type: ignore[arg-type]
    text = ia.last.content or ""
    assert ia.last.ephemeral and text and "Pictures on" not in text
    assert text == words_for(Language.ES).gettext(
        "Pictures on: your hand and your copies of the table show the cards as pictures, with"
        " the text.")


async def test_an_unknown_choice_changes_nothing(split: SplitTable) -> None:
    ia = split.interaction(ANA)
    await ImagesCog.images.callback(ImagesCog(split.client.services.pictures), ia, show="maybe")  # type: ignore[arg-type]
    assert ia.last.ephemeral and ia.last.content == "Choose on or off."
    assert await split.manager.store.user_settings(ANA.id) == {}


# --- Discord's limits ----


def test_files_past_discords_limits_are_dropped_with_their_embed_image() -> None:
    embed = discord.Embed(title="t").set_image(url="attachment://big.png")
    big = Attachment("big.png", b"x" * FILE_BYTES)
    small = [Attachment(f"f{i}.png", b"png") for i in range(FILES + 2)]
    render = Render(embeds=[embed], files=[big, *small])
    sent = render.send_kwargs()
    assert [f.filename for f in sent["files"]] == [f"f{i}.png" for i in range(FILES)]
    assert sent["embeds"][0].image.url is None
    edit = Render(files=[big]).edit_kwargs()
    assert edit["attachments"] == []


def test_a_render_without_files_leaves_attachments_alone() -> None:
    assert "attachments" not in Render(content="x").edit_kwargs()
    assert "files" not in Render(content="x", files=[]).send_kwargs()
    assert Render(content="x", files=[]).edit_kwargs()["attachments"] == []


def test_alt_text_is_clipped_to_discords_limit() -> None:
    file = Attachment("a.png", b"png", "x" * 5000).file()
    assert file.description is not None and len(file.description) == 1024


@pytest.mark.parametrize(("game", "count"), [("split", 6), ("ten", 5)])
def test_every_picture_of_a_whole_game_fits_discords_limits(game: str, count: int) -> None:
    engine: Any = SplitEngine() if game == "split" else TenEngine()
    ui: Any = SplitUI(engine) if game == "split" else TenUI(engine)
    for actions in (30, None):
        state = samples.play(engine, count, 11, actions)
        session = _session(game, state, count, finished=actions is None)
        images = [ui.table_image(session, EN)]
        if actions is None:
            images.append(ui.final_picture(session, EN))
        else:
            images.append(ui.hand_image(session, "p1", EN))
        for data in images:
            assert data is not None and len(data) < FILE_BYTES
            assert Image.open(io.BytesIO(data)).size[0] <= 800


def _session(game: str, state: Any, count: int, *, finished: bool = False) -> Session:
    from bot.records.session import Seat

    return Session(
        id=5, guild_id=1, channel_id=2, game=game, host_id="p1",
        status=Status.FINISHED if finished else Status.ACTIVE, version=3, state=state,
        seats=tuple(Seat(player_id=p, display_name=n) for p, n in samples.names(count).items()),
        created_at=AT, updated_at=AT,
    )


# --- the public view only; the final pictures ----


def test_the_table_picture_is_drawn_from_the_public_view_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for engine, ui_class, count in ((SplitEngine(), SplitUI, 4), (TenEngine(), TenUI, 3)):
        asked: list[object] = []
        view = engine.view

        def recording(state: Any, viewer: Any, view: Any = view, asked: list[object] = asked) \
                -> Any:
            asked.append(viewer)
            return view(state, viewer)

        ui: Any = ui_class(engine)
        monkeypatch.setattr(engine, "view", recording)
        session = _session(ui.key, samples.play(engine, count, 4, 20), count)
        assert ui.table_image(session, EN)
        assert asked == [None]


def test_both_games_draw_pictures_and_a_final_picture() -> None:
    for ui in (SplitUI(SplitEngine()), TenUI(TenEngine())):
        assert able(ui, DRAWS_IMAGES) and able(ui, DRAWS_FINAL_PICTURE)


@pytest.mark.parametrize("game", ["split", "ten"])
async def test_the_final_post_carries_the_final_picture(game: str) -> None:
    engine: Any = SplitEngine() if game == "split" else TenEngine()
    ui: Any = SplitUI(engine) if game == "split" else TenUI(engine)
    running = _session(game, samples.play(engine, 3, 8, 20), 3)
    assert ui.final_picture(running, EN) is None
    finished = _session(game, samples.play(engine, 3, 8, None), 3, finished=True)
    pictures = Pictures(default_on=True)
    try:
        table = await with_table_picture(pictures, ui, finished, ui.table(finished), EN)
        picture = await final_attachment(pictures, ui, finished, EN)
    finally:
        pictures.close()
    # The finished table keeps the picture of its last state; the final post gets the final one.
    assert [f.filename for f in table.files or []] == ["table.png"]
    post = with_final_picture(Render(embeds=[discord.Embed(title="standings")]), picture)
    assert [f.filename for f in post.files or []] == ["final.png"]
    assert post.embeds[-1].image.url == "attachment://final.png"


# --- the pool and the cache ----


async def test_renders_run_off_the_event_loop_once_per_key() -> None:
    pictures = Pictures(default_on=True, capacity=2)
    threads: list[str] = []

    def draw() -> bytes:
        threads.append(threading.current_thread().name)
        return b"png"

    timed = METRICS.value("tablebot_picture_render_seconds_count")
    try:
        results = await asyncio.gather(*(pictures.render((1, 1, None), draw) for _ in range(5)))
        assert results == [b"png"] * 5
        assert len(threads) == 1 and threads[0].startswith("picture")
        assert threading.current_thread().name not in threads
        for version in range(2, 10):
            await pictures.render((1, version, None), draw)
        assert len(pictures.cache) == 2  # bounded: finished games fall out like any other
        # Each drawing is timed once (tablebot_picture_render_seconds, bot.ops.metrics).
        assert METRICS.value("tablebot_picture_render_seconds_count") - timed == len(threads) == 9
    finally:
        pictures.close()


async def test_a_failing_render_leaves_the_message_as_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Broken(SplitUI):
        def table_image(self, session: Session, words: Any) -> bytes | None:
            raise RuntimeError("boom")

    engine = SplitEngine()
    ui = Broken(engine)
    session = _session("split", samples.play(engine, 2, 3, 5), 2)
    pictures = Pictures(default_on=True)
    try:
        render = await with_table_picture(pictures, ui, session, ui.table(session), EN)
    finally:
        pictures.close()
    assert render.files == [] and render.embeds[0].image.url is None
    assert "could not draw table.png" in caplog.text


async def test_a_worker_process_draws_what_a_thread_draws() -> None:
    engine = SplitEngine()
    ui = SplitUI(engine)
    session = _session("split", samples.play(engine, 3, 6, 25), 3)
    threads = Pictures(default_on=True)
    processes = Pictures(default_on=True, processes=1)
    try:
        in_thread = await table_attachment(threads, ui, session, EN)
        in_process = await table_attachment(processes, ui, session, EN)
    finally:
        threads.close()
        processes.close()
    assert in_thread is not None and in_process is not None
    assert in_process.data == in_thread.data


@pytest.mark.parametrize(("language", "words"), [
    (Language.EN, "Discard row"), (Language.ES, "Fila de descarte"),
    (Language.SQ, "Rreshti i hedhjes"), (Language.GU, "કાઢી નાખવાની પંક્તિ"),
])
def test_picture_labels_are_in_the_messages_language(language: Language, words: str) -> None:
    from cogs.imaging.layout import Label
    from cogs.imaging.words import words_in
    from cogs.split.table_image import table_layout

    view = SplitEngine().view(samples.split_state(3, 2, 20), None)
    with words_in(words_for(language)):
        layout = table_layout(view, samples.names(3))
    labels = [item.text for item in layout.items if isinstance(item, Label)]
    assert any(label.startswith(words) for label in labels), labels


async def test_a_dead_worker_process_is_replaced() -> None:
    import os
    import signal

    engine = SplitEngine()
    ui = SplitUI(engine)
    session = _session("split", samples.play(engine, 2, 6, 10), 2)
    pictures = Pictures(default_on=True, processes=1)
    try:
        assert await table_attachment(pictures, ui, session, EN) is not None
        pool = pictures._process_pool
        assert pool is not None and len(pool.pids) == 1
        for pid in pool.pids:
            os.kill(pid, signal.SIGKILL)
        later = replace_version(session, 4)
        first = await table_attachment(pictures, ui, later, EN)  # may meet the dead worker
        again = await table_attachment(pictures, ui, replace_version(session, 5), EN)
        assert again is not None
        assert first is None or first.data
    finally:
        pictures.close()


async def test_a_picture_of_a_version_the_game_left_is_not_drawn() -> None:
    engine = SplitEngine()
    ui = SplitUI(engine)
    session = _session("split", samples.play(engine, 2, 6, 10), 2)
    latest = {session.id: session.version}
    for processes in (0, 1):
        pictures = Pictures(default_on=True, processes=processes)
        pictures.current = latest.get
        try:
            assert await table_attachment(pictures, ui, session, EN) is not None
            latest[session.id] = session.version + 1
            stale = replace_version(session, session.version)  # not cached: another language
            text = await with_table_picture(pictures, ui, stale, ui.table(stale),
                                            words_for(Language.ES))
            assert text.files == [] and text.embeds[0].image.url is None
            finished = replace_version(_session("split", samples.play(engine, 2, 6, None), 2,
                                                 finished=True), session.version)
            assert await final_attachment(pictures, ui, finished, EN) is not None  # kept
        finally:
            pictures.close()
            latest[session.id] = session.version


async def test_a_render_thread_asks_whether_a_picture_is_wanted_when_it_starts_it() -> None:
    """Render threads (``IMAGE_PROCESSES=0``) queue pictures as the worker processes do: one
    whose version the game left while it waited for a thread is not drawn (issue 42, fourth
    pass: it was asked only when queued, so every waiting version was drawn)."""
    pictures = Pictures(default_on=True, processes=0, workers=1)
    latest = {1: 1}
    pictures.current = latest.get
    busy, free = threading.Event(), threading.Event()
    drawn: list[str] = []

    def blocking() -> bytes:
        busy.set()
        free.wait(5)
        drawn.append("first")
        return b"first"

    def queued() -> bytes:
        drawn.append("queued")
        return b"queued"

    skipped = METRICS.pictures_skipped.labels("hand")._value.get()
    try:
        first = asyncio.ensure_future(pictures.render((1, 1, ("table", "en")), blocking))
        await asyncio.to_thread(busy.wait, 5)  # the one thread draws the first picture
        second = asyncio.ensure_future(pictures.render((1, 1, ("hand", "p", "en")), queued))
        await asyncio.sleep(0.05)  # queued behind it, still current
        latest[1] = 2  # the game moves on while it waits
        free.set()
        assert await first == b"first" and await second is None
        assert drawn == ["first"]
        assert METRICS.pictures_skipped.labels("hand")._value.get() == skipped + 1
    finally:
        pictures.close()


async def test_a_hand_drawn_ahead_goes_with_the_first_callback(split: SplitTable) -> None:
    from cogs.imaging.cache import RenderCache
    from cogs.pictures import hand_job, prerender_hand

    await started(split)
    pictures = split.cog.services.pictures
    pictures.cache = RenderCache()
    session, me = split.session(), str(ANA.id)
    ui = split.client.uis.ui("split")
    prerender_hand(pictures, ui, session, me, EN)
    job = hand_job(ui, session, me, EN)
    assert job is not None
    for _ in range(500):
        if pictures.cached(job.key) is not None:
            break
        await asyncio.sleep(0.01)
    ia = await hand_view(split, ANA)
    assert [sent.kind for sent in ia.sent] == ["send_message"]  # no edit after the answer
    assert picture_names(ia.sent[0]) == ["hand.png"]


def replace_version(session: Session, version: int) -> Session:
    import dataclasses

    return dataclasses.replace(session, version=version)


# --- what the pictures show, in words (issue 41) ----


async def test_the_hand_picture_says_the_cards_in_order_and_the_table_picture_hides_them(
    split: SplitTable,
) -> None:
    await started(split)
    session = split.session()
    engine = split.manager.engine("split")
    hand = list(engine.view(session.state, str(ANA.id)).hand or [])
    public = engine.view(session.state, None)
    ia = await hand_view(split, ANA)
    alt = next(sent.alt_texts for sent in reversed(ia.sent) if sent.alt_texts)
    assert len(alt) == 1 and f"{len(hand)} cards in order: {', '.join(hand)}." in alt[0]
    # The table's picture says the state in short, from the public view: no hand card.
    ui = split.cog.services.uis.ui("split")
    describer = able(ui, DESCRIBES_PICTURES)
    assert describer is not None
    table_alt = describer.table_alt(session, EN)
    assert table_alt.startswith("Picture of the SPLIT table, round 1 of 3.")
    assert f"Discard row, oldest first: {', '.join(public.row)}." in table_alt
    assert all(f"{name}: " in table_alt for name in session.names.values())
    hidden = [card for card in hand if card not in public.row]
    assert hidden and not any(card in table_alt for card in hidden)


@pytest.mark.parametrize("language", [lang for lang in Language if lang is not Language.EN])
async def test_the_alt_texts_read_in_every_language(split: SplitTable,
                                                    language: Language) -> None:
    await started(split)
    session = split.session()
    describer = able(split.cog.services.uis.ui("split"), DESCRIBES_PICTURES)
    assert describer is not None
    words = words_for(language)
    for english, theirs in (
        (describer.table_alt(session, EN), describer.table_alt(session, words)),
        (describer.hand_alt(session, str(ANA.id), EN),
         describer.hand_alt(session, str(ANA.id), words)),
    ):
        assert english.split(". ")[0] not in theirs  # its first sentence is translated
