"""One game, three languages (issue 17): Ana's Discord is in Spanish (es-ES), Ben chose
Albanian and Cy Gujarati with /language. Each reads their own confirmations, refusals and
error texts in their language; the lobby, the public answers and the notices are in the
server's language (here: its preferred locale, English-speaking players or not).

The game UI's own texts (COUNT, a test game) are not part of the catalogs; the other helpers'
game UIs extend this when they wrap theirs."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.automation.notices import TimedOut
from bot.records import errors
from bot.records.session import Session
from cogs.commands.game_commands import GameCog
from cogs.i18n import Language, Words, words_for
from cogs.kit.refusal_texts import refusal_text
from cogs.kit.unexpected_errors import UNEXPECTED, answer_unexpected
from cogs.listeners.table_publisher import TablePublisher
from cogs.settings.language_command import LanguageCog
from tests.cogs.conftest import ANA, BEN, CY, Table
from tests.fakes import FakeGuild, FakeInteraction, FakeMessage, FakeUser, click, invoke

ES, SQ, GU, EN = (words_for(lang) for lang in (Language.ES, Language.SQ, Language.GU,
                                                Language.EN))
LOCALES = {ANA.id: discord.Locale.spain_spanish}


def as_user(table: Table, user: FakeUser, message: FakeMessage | None = None) -> FakeInteraction:
    locale = LOCALES.get(user.id, discord.Locale.american_english)
    return table.interaction(user, message, locale=locale)


def said(words: Words, english: str, **fields: object) -> str:
    """``english`` in ``words``' language, checked to be a translation (no English left)."""
    text = words.gettext(english, **fields)
    assert text != EN.gettext(english, **fields), english
    return text


@pytest.fixture
def server(table: Table) -> Table:
    """The server speaks Spanish by its preferred locale; nobody set /config language."""
    table.client.guilds[1] = FakeGuild(1, discord.Locale.spain_spanish)
    return table


async def choose_language(table: Table, user: FakeUser, code: str, words: Words) -> None:
    ia = as_user(table, user)
    await invoke(LanguageCog.language, LanguageCog(), ia,
                 language=app_commands.Choice(name=code, value=code))
    assert ia.last.ephemeral and ia.last.content == words.gettext(
        "From now on I answer you in {language}. Public messages follow the server.",
        language={"sq": "Shqip", "gu": "ગુજરાતી"}[code])


async def refused_in(table: Table, user: FakeUser, message: FakeMessage | None,
                     custom_id: str, text: str, values: list[str] | None = None) -> None:
    ia = as_user(table, user, message)
    await click(ia, custom_id, values=values)
    assert ia.last.ephemeral and ia.last.content == text


async def test_each_player_reads_their_own_language(
    server: Table, caplog: pytest.LogCaptureFixture
) -> None:
    table = server
    await choose_language(table, BEN, "sq", SQ)
    await choose_language(table, CY, "gu", GU)

    # The lobby is public: the server's Spanish, for everyone.
    opened = as_user(table, ANA)
    await invoke(GameCog.new, table.cog, opened, game="count")
    lobby = opened.last
    assert lobby.message is not None and not lobby.ephemeral
    assert said(ES, "{title} — lobby", title="COUNT") in lobby.text
    assert said(ES, "Turn limit") in lobby.text
    session = table.manager.in_channel(100)
    assert session is not None
    sid = session.id
    await click(as_user(table, BEN, lobby.message), f"tb:lobby:join:{sid}")
    joined = lobby.message.edits[-1]
    assert "2. Ben" in joined.text and said(ES, "{seat} — host", seat="1. Ana") in joined.text
    assert ES.pgettext("button", "Join") in [getattr(b, "label", None) for b in
                                             (joined.view.children if joined.view else [])]

    # Private refusals: each in their own language.
    await refused_in(table, BEN, lobby.message, f"tb:lobby:join:{sid}",
                     said(SQ, errors.ALREADY_SEATED))
    await click(as_user(table, CY, lobby.message), f"tb:lobby:join:{sid}")
    await refused_in(table, CY, lobby.message, f"tb:lobby:start:{sid}", said(GU, errors.NOT_HOST))
    await refused_in(table, ANA, lobby.message, f"tb:host:remove:{sid}",
                     refusal_text(ES, errors.Refusal(errors.NOT_YOURSELF)), values=[str(ANA.id)])
    # ... naming the Leave button as Ana's Spanish lobby labels it
    assert "usa Salir para" in refusal_text(ES, errors.Refusal(errors.NOT_YOURSELF))
    await refused_in(table, CY, lobby.message, f"tb:host:pass:{sid}",
                     said(GU, errors.NOT_HOST), values=[str(BEN.id)])

    await click(as_user(table, ANA, lobby.message), f"tb:lobby:start:{sid}")
    await refused_in(table, BEN, lobby.message, f"tb:lobby:join:{sid}",
                     said(SQ, errors.ALREADY_STARTED))
    started = table.manager.get(sid)
    assert started is not None
    await not_your_turn_and_stale(table, started)

    # Notices are public: Spanish.
    notice = TimedOut(session=started, player_id=str(BEN.id), moves=(), timeouts=2, away=True)
    await TablePublisher(table.client, table.client.services).notify(notice)  # type: ignore[arg-type]
    posted = table.channel.sent[-1].content or ""
    assert posted.splitlines() == [
        said(ES, "⏰ {name} ran out of time.", name="Ben"),
        said(ES, "💤 {name} is away — a bot plays for them until they click"
             " {im_back_button}.", name="Ben", im_back_button="Ya estoy aquí"),
    ]

    # An unexpected error answers in the user's language, without the error's text.
    ia = as_user(table, CY)
    await answer_unexpected(ia, RuntimeError("boom"), "a test")  # type: ignore[arg-type]
    assert ia.last.ephemeral and ia.last.content == said(GU, UNEXPECTED)
    assert [r.getMessage() for r in caplog.records if r.name == "cogs.kit.unexpected_errors"] == [
        "unexpected error in a test"]
    caplog.clear()  # provoked on purpose

    # Leaving the running game is said in public, in Spanish.
    leave = as_user(table, CY)
    await invoke(GameCog.leave, table.cog, leave)
    assert not leave.last.ephemeral
    assert leave.last.content == said(
        ES, "{name} left the game; a bot plays their seat to the end.", name="Cy")


async def not_your_turn_and_stale(table: Table, session: Session) -> None:
    """A move out of turn, and one from an old view: refused in the clicker's language."""
    (waiting,) = table.manager.engine(session.game).awaiting(session.state)
    others = [u for u in (ANA, BEN, CY) if str(u.id) != waiting]
    texts = {ANA.id: ES, BEN.id: SQ, CY.id: GU}
    for user in others:
        view = FakeMessage(table.channel, ephemeral=True)
        await refused_in(table, user, view, f"tb:act:{session.id}:{session.version}:add1",
                         said(texts[user.id], errors.NOT_YOUR_TURN))
    mover = next(u for u in (ANA, BEN, CY) if str(u.id) == waiting)
    view = FakeMessage(table.channel, ephemeral=True)
    ia = as_user(table, mover, view)
    await click(ia, f"tb:act:{session.id}:{session.version - 1}:add1")
    note = texts[mover.id].gettext(errors.STALE)
    assert ia.last.ephemeral and (ia.last.content or "").startswith(note) and note != errors.STALE


def test_rules_pages_come_in_the_readers_language() -> None:
    from cogs.rendering.rules_pages import rules_page
    from cogs.split import SplitUI
    from cogs.split.rules_text import PAGES
    from game.split import SplitEngine

    page = rules_page(SplitUI(SplitEngine()), 1, GU)
    (embed,) = page.embeds
    heading = GU.text(PAGES[1].title)
    assert heading != EN.text(PAGES[1].title)
    assert embed.title == GU.pgettext("rules-page-title", "{game} rules — {heading}",
                                      game="SPLIT", heading=heading)
    assert embed.description == GU.text(PAGES[1].text)
    assert embed.footer.text == GU.pgettext("rules-page-footer", "Page {page} of {pages}",
                                            page="2", pages=str(len(PAGES)))
