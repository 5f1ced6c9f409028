"""/learn on the fake server: the command opens (or resumes) a private table of the fixed
deal, the tutor's comment stands above the table before each of the player's decisions, a
player who follows the suggestions meets every rule, one who ignores them still finishes, the
end says what was learned; not one channel request; in every language."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.records.session import SessionKind, Status
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.click_context import enter
from cogs.i18n.catalogs import words_for
from cogs.i18n.command_mentions import mention
from cogs.i18n.interaction import LANGUAGE_KEY, player_words
from cogs.i18n.language import Language
from cogs.i18n.settings_cache import stored_settings
from cogs.kit.card_layout import MAX_TEXT, text_length
from cogs.kit.discord_limits import EMBED_DESCRIPTION, EMBED_TOTAL, EMBEDS
from cogs.learn.command import LearnCog
from cogs.learn.tutor_render import LEARNED_TITLE, TUTOR_TITLE
from cogs.rendering.private_table import private_table, send_private_table
from game.registry import teachers
from game.tutor import LEARN_DEALS
from tests.cogs.conftest import ANA
from tests.cogs.private_table_fixture import PrivateServer, engines
from tests.fakes import FakeInteraction, FakeMessage, FakeUser, Sent

Choose = Callable[[Any, int, list[Any]], Any]


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[tuple[PrivateServer, LearnCog]]:
    store = await open_store(tmp_path / "learn.sqlite3")
    private = PrivateServer(SessionManager(store, engines()))
    cog = LearnCog(private.client.services, private.manager)
    await cog.cog_load()  # registers its add-on with the table, as when its extension loads
    yield private, cog
    await store.close()


async def speak(server: PrivateServer, user: FakeUser, language: Language) -> None:
    await stored_settings(server.manager.store).set_user(
        user.id, LANGUAGE_KEY, language.value, at=server.manager.clock())


async def learn(server: PrivateServer, cog: LearnCog, user: FakeUser,
                game: str) -> FakeInteraction:
    ia = server.interaction(user)
    await cog.interaction_check(ia)  # type: ignore[arg-type]
    await cog.learn.callback(cog, ia, game)  # type: ignore[arg-type]
    await server.idle()
    return ia


def suggested(teacher: Any) -> Choose:
    return lambda state, seat, legal: teacher.suggestion(state, seat)


def last_legal(state: Any, seat: int, legal: list[Any]) -> Any:
    return legal[-1]


async def play(server: PrivateServer, user: FakeUser, session_id: int, message: FakeMessage,
               first: Sent, choose: Choose, moves: int = 3000) -> Sent:
    """Click the chosen legal move among the message's controls until the game ends (or
    ``moves`` were made); returns the message as drawn last."""
    me = str(user.id)
    shown = first
    for _ in range(moves):
        await server.idle()
        shown = message.edits[-1] if message.edits else first
        live = server.manager.get(session_id)
        if live is None or live.status is Status.FINISHED:
            return shown
        engine = server.manager.engine(live.game)
        assert me in server.manager.awaiting(live), "the machine seats stopped"
        assert words_in(shown, TUTOR_TITLE), "no tutor before a decision"
        # Within Discord's limits as drawn: nothing is cut or dropped to fit.
        drawn = await private_table(server.client.services, live, me,  # type: ignore[arg-type]
                                    await player_words(server.client, user.id))  # type: ignore[arg-type]
        assert sum(len(embed) for embed in drawn.embeds) <= EMBED_TOTAL
        assert len(drawn.embeds) <= EMBEDS
        assert all(len(embed.description or "") <= EMBED_DESCRIPTION for embed in drawn.embeds)
        # a card holds 4,000 characters of text: nothing is cut
        assert text_length(drawn.content, drawn.embeds) <= MAX_TEXT
        seat = live.state.players.index(me)
        action = choose(live.state, seat, engine.legal_actions(live.state, me))
        await server.press(user, message, shown, action)
    await server.idle()
    return message.edits[-1] if message.edits else first


def words_in(sent: Sent, title: Any) -> bool:
    """Whether the message shows ``title`` as a heading (of its card, issue 41)."""
    return any(f"### {words_for(lang).text(title)}" in sent.text for lang in Language)


@pytest.mark.parametrize("language", list(Language))
@pytest.mark.parametrize("game", ["split", "ten"])
async def test_following_the_suggestions_meets_every_rule(
    server: tuple[PrivateServer, LearnCog], game: str, language: Language
) -> None:
    private, cog = server
    await speak(private, ANA, language)
    ia = await learn(private, cog, ANA, game)
    first = ia.sent[0]
    assert first.ephemeral and first.kind == "send_message"
    assert ia.original is not None
    [session] = private.manager.private_of(str(ANA.id), SessionKind.LEARN, game)
    assert session.state.seed == LEARN_DEALS[game].seed
    assert len(session.seats) == LEARN_DEALS[game].seats
    final = await play(private, ANA, session.id, ia.original, first,
                       suggested(teachers()[game]))
    stored = await private.manager.store.load_session(session.id)
    assert stored is not None and stored.status is Status.FINISHED
    tutor = await cog.tutors.tutor(private.manager.store, private.manager.engine(game),
                                   stored, str(ANA.id))
    assert tutor.missing() == []
    words = words_for(language)
    assert words_in(final, LEARNED_TITLE)
    learned = final.text.split(f"### {words.text(LEARNED_TITLE)}", 1)[1]
    assert mention(words, "rules") in learned
    assert private.channel_traffic() == []


@pytest.mark.parametrize("game", ["split", "ten"])
async def test_ignoring_the_suggestions_still_ends_cleanly(
    server: tuple[PrivateServer, LearnCog], game: str
) -> None:
    private, cog = server
    ia = await learn(private, cog, ANA, game)
    assert ia.original is not None
    [session] = private.manager.private_of(str(ANA.id), SessionKind.LEARN, game)
    final = await play(private, ANA, session.id, ia.original, ia.sent[0], last_legal)
    stored = await private.manager.store.load_session(session.id)
    assert stored is not None and stored.status is Status.FINISHED
    assert words_in(final, LEARNED_TITLE)
    assert private.channel_traffic() == []


async def test_running_learn_again_resumes_the_same_game(
    server: tuple[PrivateServer, LearnCog]
) -> None:
    private, cog = server
    ia = await learn(private, cog, ANA, "split")
    assert ia.original is not None
    [session] = private.manager.private_of(str(ANA.id), SessionKind.LEARN, "split")
    await play(private, ANA, session.id, ia.original, ia.sent[0],
               suggested(teachers()["split"]), moves=4)
    moved = private.manager.get(session.id)
    assert moved is not None and moved.version > session.version
    again = await learn(private, cog, ANA, "split")
    assert again.sent[0].ephemeral and words_in(again.sent[0], TUTOR_TITLE)
    assert private.manager.private_of(str(ANA.id), SessionKind.LEARN, "split") == [moved]
    assert private.channel_traffic() == []


async def test_learn_refuses_a_game_it_does_not_teach(
    server: tuple[PrivateServer, LearnCog]
) -> None:
    private, cog = server
    ia = await learn(private, cog, ANA, "chess")
    assert ia.last.ephemeral and ia.last.kind == "send_message"
    assert private.manager.private_of(str(ANA.id), SessionKind.LEARN) == []
    assert private.channel_traffic() == []


async def test_a_table_the_bots_moved_on_before_it_was_shown_is_redrawn(
    server: tuple[PrivateServer, LearnCog]
) -> None:
    """The bot seats move first in the SPLIT deal: when they are done before the command's
    answer is followed, the answer is redrawn at once (their own redraw had nothing to edit)."""
    private, _ = server
    deal = LEARN_DEALS["split"]
    session = await private.open(ANA, "split", deal.seats - 1, seed=deal.seed,
                                 kind=SessionKind.LEARN)
    await private.idle()
    live = private.manager.get(session.id)
    assert live is not None and live.version > session.version
    ia = private.interaction(ANA)
    enter(ia, private.client.services)  # type: ignore[arg-type]  # as the command's dispatch
    await send_private_table(ia, session)  # type: ignore[arg-type]
    assert ia.sent[0].kind == "send_message"
    assert ia.last.kind == "edit_original"
    assert any(f":{live.version}:" in custom_id for custom_id in ia.last.custom_ids)
    assert words_in(ia.last, TUTOR_TITLE)
