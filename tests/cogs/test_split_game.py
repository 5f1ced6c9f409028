from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.records import errors
from bot.records.session import LOG_KEEP, Status
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.commands.game_commands import GameCog
from game.split import SplitEngine
from game.split.cards import FACE_NAMES
from tests.cogs.conftest import ANA, BEN, CY
from tests.cogs.split_table_fixture import (
    SEED,
    SplitTable,
    control_for,
    faces_in,
    more_button,
)
from tests.fakes import FakeInteraction, FakeMessage, FakeUser, Sent, click

USERS = {str(user.id): user for user in (ANA, BEN, CY)}


@pytest.fixture
async def split(tmp_path: Path) -> AsyncIterator[SplitTable]:
    store = await open_store(tmp_path / "split.sqlite3")
    manager = SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: SEED)
    yield SplitTable(manager)
    await store.close()


async def start_game(split: SplitTable, users: tuple[FakeUser, ...]) -> FakeMessage:
    opened = await split.command(GameCog.new, users[0], game="split")
    assert opened.kind == "send_message" and not opened.ephemeral
    table = opened.message
    assert table is not None
    sid = split.session().id
    for user in users[1:]:
        await split.press(user, table, f"tb:lobby:join:{sid}")
    started = await split.press(users[0], table, f"tb:lobby:start:{sid}")
    assert started.kind == "edit_message" and "SPLIT · round 1/3" in started.text
    return table


async def play(split: SplitTable, user: FakeUser, action: Any) -> tuple[Sent, Sent]:
    """Play legal ``action`` through ``user``'s hand view; returns (view, response)."""
    view = await split.hand(user)
    assert view.ephemeral
    hand_message = view.message
    shown = view
    while (control := control_for(shown, action)) is None:
        more = more_button(shown)
        assert more is not None, f"{action!r} has no control"
        shown = await split.press(user, hand_message, more)
        assert shown.kind == "edit_message" and shown.message is hand_message
    custom_id, values = control
    response = await split.press(user, hand_message, custom_id, values)
    return view, response


class PublicWatch:
    """Collects every public text posted since the last check and checks it for hand cards.

    Soundness of the hidden-card check. A card *face* (``7♥``) is what a text can show; two
    identical halves share one face, so a text cannot tell which copy it names. A face is
    *secret* at a moment when a copy of it is in some hand and no public source names it:
    the public view (discard row, match halves, covered halves, the picked card) and the public
    data (``Event.visible_to(None)``) of the events still inside the table log window. Faces in
    both a hand and a public source are skipped: showing them is no leak (the other copy, or
    the same card publicly picked). Every public text made at that moment — table edits,
    channel messages (pings, round summaries, the final result) — must contain no secret face.
    Private event data (the card a player drew) is never counted as public, so a leak of a
    drawn card is caught.
    """

    def __init__(self, split: SplitTable, table: FakeMessage) -> None:
        self.split = split
        self.table = table
        self.seen_edits = 0
        self.seen_sends = 0
        self.checked_texts = 0

    def secret_faces(self) -> set[str]:
        session = self.split.manager.get(self.split.session_id)
        if session is None:
            return set()
        state = session.state
        public = self.split.engine.view(state, None)
        allowed = set(public.row)
        for match in public.matches:
            allowed |= {*match.halves, *match.covered}
        if public.picked:
            allowed.add(public.picked)
        for event in self.split.events[-LOG_KEEP:]:
            allowed |= faces_in(event.visible_to(None))
        held = {FACE_NAMES[card >> 1] for hand in state.hands for card in hand}
        return held - allowed

    def check(self) -> list[str]:
        texts = [edit.text for edit in self.table.edits[self.seen_edits:]]
        sends = self.split.channel.sent[self.seen_sends:]
        assert all(not sent.ephemeral for sent in sends)
        texts += [sent.text for sent in sends]
        self.seen_edits = len(self.table.edits)
        self.seen_sends = len(self.split.channel.sent)
        secret = self.secret_faces()
        for text in texts:
            leaked = secret & faces_in(text)
            assert not leaked, f"public text shows hand cards {leaked}:\n{text}"
        self.checked_texts += len(texts)
        return texts


async def test_seeded_full_game_from_new_to_result(split: SplitTable) -> None:
    users = (ANA, BEN, CY)
    table = await start_game(split, users)
    split.session_id = split.session().id
    watch = PublicWatch(split, table)
    watch.check()
    session = split.session()
    first = USERS[split.engine.awaiting(session.state)[0]]
    # The first player is pinged in a new message; the table shows the opening position.
    assert f"<@{first.id}>" in split.channel.sent[0].text
    opening = table.edits[-1]
    assert "draw pile 76" in opening.text and "`1` " in opening.text
    assert opening.custom_ids[0] == f"tb:hand:{session.id}"

    rng = random.Random(5)
    actions = 0
    pings_before = len([s for s in split.channel.sent if "<@" in (s.content or "")])
    checked_views = 0
    while (session := split.manager.get(split.session_id)) is not None:
        state = session.state
        player = split.engine.awaiting(state)[0]
        user = USERS[player]
        # Everyone else sees their hand without controls, and why.
        for other in users:
            if str(other.id) in split.engine.awaiting(state):
                continue
            idle = await split.hand(other)
            assert idle.ephemeral and idle.custom_ids == []
            assert "No moves for you now" in idle.text
            hand_faces = [FACE_NAMES[c >> 1] for c in sorted(state.hands[state.players.index(
                str(other.id))])]
            assert " ".join(hand_faces) in idle.text
            checked_views += 1
        choice = split.engine.bot_action(state, player, "normal", rng)
        assert choice in split.engine.legal_actions(state, player)
        view, response = await play(split, user, choice)
        # The same ephemeral message is updated in place to the new hand.
        assert response.kind == "edit_message" and response.message is view.message
        assert response.message.flags.ephemeral
        actions += 1
        watch.check()
        after = split.manager.get(split.session_id)
        if after is not None:
            table_text = table.edits[-1].text
            view_after = split.engine.view(after.state, None)
            assert f"round {view_after.round}/3" in table_text
            assert f"draw pile {view_after.pile_count}" in table_text
    assert actions > 30
    final = split.manager.get(split.session_id)
    assert final is None and split.manager.in_channel(100) is None
    # Round summaries and the final result were posted publicly.
    summaries = [s for s in split.channel.sent if any(
        "is over" in (e.title or "") for e in s.embeds)]
    assert [e.title for s in summaries for e in s.embeds if "is over" in (e.title or "")] == [
        f"SPLIT — round {n} of 3 is over" for n in (1, 2, 3)]
    result_msg = split.channel.sent[-1]
    assert "SPLIT — final result" in result_msg.text
    assert result_msg.custom_ids == [f"tb:rematch:{split.session_id}",
                                     f"tb:rv:{split.session_id}:0:o"]
    # The final table shows the result and keeps Rules, Scores and Replay; no game controls.
    assert "SPLIT — final result" in table.edits[-1].text
    sid = split.session_id
    assert table.edits[-1].custom_ids == [
        f"tb:info:{sid}:rules", f"tb:info:{sid}:scores", f"tb:rp:{sid}:0:o"]
    # Those answer from the stored game, for anyone in the channel.
    scores = await split.press(CY, table, f"tb:info:{sid}:scores")
    assert scores.ephemeral and "Ana" in scores.text and "Ben" in scores.text
    rules = await split.press(CY, table, f"tb:info:{sid}:rules")
    assert rules.ephemeral and "SPLIT rules" in rules.text
    ia = FakeInteraction(split.client, user=CY, channel=split.client.channel(999), message=table)
    await click(ia, f"tb:info:{sid}:scores")  # the same button seen from another channel
    assert ia.last.ephemeral and ia.last.content == errors.NO_GAME
    stored = await split.manager.store.load_session(split.session_id)
    assert stored is not None and stored.status is Status.FINISHED
    results = await split.manager.store.results(1, "split")
    assert sorted(r.user_id for r in results) == sorted(USERS)
    engine_results = split.engine.results(SplitEngine.state_model.model_validate(stored.state))
    assert {r.user_id: r.score for r in results} == {r.player: r.score for r in engine_results}
    for result in engine_results:
        assert f"{USERS[result.player].display_name}** — {result.score} points" in \
            result_msg.text
    pings = [s for s in split.channel.sent if "<@" in (s.content or "")]
    assert len(pings) > pings_before and checked_views > 0
    assert watch.checked_texts > actions
