"""Whole SPLIT and TEN games in three languages (issue 17): Ana's Discord is in Spanish
(es-ES), Ben chose Albanian and Cy Gujarati with /language; the server's language is set with
/config. At every step each player opens their private view (and the one who must act plays
through it, its next steps and pages), and now and then Rules, Scores and Log; once the game is
over each pages through its replay, and a turn clock notice names moves played: nothing they
see privately holds an English text of the catalogs, and nothing public holds an English text
in place of the server's language.

"English text" is any catalog message of three words or more (its literal pieces between
``{fields}``) and every common word (``cogs.i18n.common_words``), unless the language's
catalog says the same (``total {ranks} − …`` is the same in Spanish). Card notation and names
are no catalog text. The event lines (the Log answer, a replay's steps, the notice) are checked
line by line too: each is the game's own line for that event in the reader's language, and its
English line (where it differs) is not there.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from functools import cache
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.pofile import read_po
from discord import app_commands

from bot.automation.notices import TimedOut
from bot.records.session import Session
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.commands.game_commands import GameCog
from cogs.game_ui import event_lines
from cogs.i18n import Language, words_for
from cogs.i18n import common_words as common
from cogs.i18n.messages import Message, PluralMessage
from cogs.listeners.table_publisher import TablePublisher
from cogs.rendering.replay_pages import step_lines
from cogs.settings.config_command import ConfigCog
from cogs.settings.language_command import LanguageCog
from game.action_codes import action_code
from game.split import SplitEngine
from game.ten import Pay, payment_options
from tests.cogs.conftest import ANA, BEN, CY
from tests.cogs.split_table_fixture import SplitTable
from tests.cogs.test_ten_support import ENGINE as TEN
from tests.cogs.test_ten_support import TenTable, decide, item, select_with, values_for
from tests.fakes import FakeMessage, FakeUser, Sent

LOCALES = {ANA.id: discord.Locale.spain_spanish}
CHOSEN = {BEN.id: "sq", CY.id: "gu"}
LANGUAGE_OF = {ANA.id: Language.ES, BEN.id: Language.SQ, CY.id: Language.GU}
USERS = {str(user.id): user for user in (ANA, BEN, CY)}
LOCALES_DIR = Path(__file__).resolve().parents[2] / "cogs" / "locales"
FIELD = re.compile(r"\{[^{}]*\}")
WORD = re.compile(r"[A-Za-z]{2,}")
MAX_ACTIONS = 600


def choice(value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=value, value=value)


# --- what counts as English left over ----------------------------------------------------------


def _pieces(template: str) -> list[str]:
    """The literal pieces of a template between its fields, markdown stripped."""
    return [piece.replace("**", "").strip(" .,:;()—·-\n") for piece in FIELD.split(template)]


@cache
def _translations(language: Language) -> str:
    """Every translation of ``language``'s catalog, one per line."""
    with open(LOCALES_DIR / language.value / "LC_MESSAGES" / "tablebot.po", "rb") as file:
        catalog = read_po(file)
    found = []
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.extend(_pieces_text(s) for s in strings if s)
    return "\n".join(found)


def _pieces_text(text: str) -> str:
    return text.replace("**", "")


@cache
def english_left(language: Language) -> tuple[tuple[str, ...], tuple[re.Pattern[str], ...]]:
    """(English pieces of three words or more, common words as whole-word patterns) that
    ``language``'s catalog never says itself."""
    with open(LOCALES_DIR / "tablebot.pot", "rb") as file:
        template = read_po(file)
    said = _translations(language)
    pieces: set[str] = set()
    for message in template:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for english in ids:
            for piece in _pieces(english):
                if len(WORD.findall(piece)) >= 3 and piece not in said:
                    pieces.add(piece)
    words = words_for(language)
    patterns = []
    for value in vars(common).values():
        if isinstance(value, Message):
            texts = [value.text]
            translated = [words.text(value, name="{name}", round="{round}", rounds="{rounds}")]
        elif isinstance(value, PluralMessage):
            texts = [value.singular, value.plural]
            translated = [words.plural(value, n) for n in (1, 2)]
        else:
            continue
        for english in texts:
            for piece in _pieces(english):
                if WORD.search(piece) and not any(piece in t for t in translated):
                    patterns.append(re.compile(rf"(?<![A-Za-z']){re.escape(piece)}(?![A-Za-z])"))
    return tuple(sorted(pieces, key=len, reverse=True)), tuple(patterns)


def assert_lines(language: Language, sent: Sent, lines: Iterable[str],
                 english: Iterable[str], where: str) -> int:
    """``sent`` shows each event line in ``language`` and none of their English lines (those
    that differ); returns how many lines were checked."""
    text = shown(sent)
    lines, english = list(lines), list(english)
    assert lines, where
    for line, in_english in zip(lines, english, strict=True):
        assert f"• {line}" in text, f"{where} ({language.value}) lacks {line!r}:\n{text}"
        if in_english != line:
            assert in_english not in text, f"{where} ({language.value}) says {in_english!r}"
    return len(lines)


def shown(sent: Sent) -> str:
    """Everything a message shows in words: its text and its components' labels."""
    parts = [sent.text]
    for child in sent.view.children if sent.view is not None else []:
        parts += [str(getattr(child, "label", None) or ""),
                  str(getattr(child, "placeholder", None) or "")]
        for option in getattr(child, "options", []):
            parts += [option.label, option.description or ""]
    return "\n".join(parts)


def assert_in(language: Language, sent: Sent, where: str) -> None:
    """``sent`` holds no English text that ``language`` says otherwise."""
    text = shown(sent)
    pieces, patterns = english_left(language)
    left = [piece for piece in pieces if piece in text]
    left += [p.pattern for p in patterns if p.search(text)]
    assert not left, f"{where} ({language.value}) holds English {left}:\n{text}"


# --- the two games --------------------------------------------------------------------------


async def set_languages(table: Any, server: str) -> None:
    """Ben and Cy choose theirs with /language, the server's is set with /config; pictures
    off (they have their own tests), so only words are shown."""
    for user_id, code in CHOSEN.items():
        ia = table.interaction(USERS[str(user_id)])
        await _invoke(LanguageCog.language, LanguageCog(), ia, language=choice(code))
    ia = table.interaction(ANA, permissions=discord.Permissions(manage_guild=True))
    await _invoke(ConfigCog.config, ConfigCog(), ia, language=choice(server),
                  images=choice("off"))
    assert ia.last.ephemeral


async def _invoke(command: Any, cog: Any, ia: Any, **params: Any) -> None:
    from tests.fakes import invoke

    await invoke(command, cog, ia, **params)


class Players:
    """Presses and commands as Ana, Ben or Cy (each with their Discord locale), checking every
    answer in the clicker's language."""

    def __init__(self, table: Any, server: Language) -> None:
        self.table = table
        self.server = server
        self.checked = Counter[str]()
        self.sid = 0
        self.stored: Session | None = None

    def session(self) -> Session:
        """The live session, or once the game is over the stored one (its final events)."""
        session = self.table.manager.get(self.sid) or self.stored
        assert session is not None
        return session

    async def finished(self) -> None:
        """The game is over: keep the session as stored."""
        self.stored = await self.table.manager.store.load_session(self.sid)

    def log_lines(self, language: Language) -> list[str]:
        """The Log answer's lines in ``language``: the log's public events, for no viewer."""
        session = self.session()
        ui = self.table.client.services.uis.ui(session.game)
        return event_lines(ui, session.log, None, session.names, words_for(language))

    def locale(self, user: FakeUser) -> discord.Locale:
        return LOCALES.get(user.id, discord.Locale.american_english)

    def check(self, user: FakeUser, sent: Sent, where: str) -> Sent:
        language = LANGUAGE_OF[user.id] if sent.ephemeral else self.server
        assert_in(language, sent, where)
        self.checked["private" if sent.ephemeral else "public"] += 1
        return sent

    async def press(self, user: FakeUser, message: FakeMessage | None, custom_id: str,
                    values: list[str] | None = None) -> Sent:
        from tests.fakes import click

        ia = self.table.interaction(user, message, locale=self.locale(user))
        await click(ia, custom_id, values)
        assert len(ia.sent) == 1, ia.sent
        return self.check(user, ia.last, custom_id)

    async def hand(self, user: FakeUser) -> Sent:
        ia = self.table.interaction(user, locale=self.locale(user))
        await _invoke(GameCog.hand, self.table.cog, ia)
        assert ia.last.ephemeral
        return self.check(user, ia.last, "/game hand")

    async def info(self, table_message: FakeMessage) -> None:
        """Rules, Scores and Log, asked by each player: answered in their language."""
        for user in USERS.values():
            for what in ("rules", "scores", "log"):
                sent = await self.press(user, table_message, f"tb:info:{self.sid}:{what}")
                assert sent.ephemeral, what
            language = LANGUAGE_OF[user.id]
            self.checked["log lines"] += assert_lines(
                language, sent, self.log_lines(language), self.log_lines(Language.EN), "Log")

    async def replays(self, table_message: FakeMessage) -> None:
        """Each player opens the replay and pages through a third of its steps (together
        every step): each step's events in their language."""
        built = self.table.cog.services.replays
        for offset, user in enumerate(USERS.values()):
            opened = await self.press(user, table_message, f"tb:rp:{self.sid}:0:o")
            replay = built.get(self.sid)
            assert opened.ephemeral and replay is not None
            ui = self.table.client.services.uis.ui(replay.session.game)
            language = LANGUAGE_OF[user.id]
            for index in range(offset, replay.replay.last_index + 1, len(USERS)):
                sent = opened if index == 0 else await self.press(
                    user, opened.message, f"tb:rp:{self.sid}:{index}:n")
                step = replay.replay.step(index)
                self.checked["replay lines"] += assert_lines(
                    language, sent, step_lines(ui, replay, step, words_for(language)),
                    step_lines(ui, replay, step, words_for(Language.EN)), f"replay {index}")

    async def timed_out(self) -> None:
        """A turn clock notice naming the last moves (public: the server's language)."""
        session = self.session()
        moves = session.log[-4:]
        await TablePublisher(self.table.client, self.table.client.services).notify(TimedOut(
            session=session, player_id=str(BEN.id), moves=moves, timeouts=1, away=False))
        sent = self.table.channel.sent[-1]
        assert not sent.ephemeral
        assert_in(self.server, sent, "notice")
        ui = self.table.client.services.uis.ui(session.game)
        for language in (self.server, Language.EN):
            lines = event_lines(ui, moves, None, session.names, words_for(language))
            assert (" ".join(lines) in sent.text) is (language is self.server), sent.text

    async def public(self, table_message: FakeMessage, seen: int) -> int:
        """Check every public message since ``seen`` (table edits and channel posts)."""
        if self.table.manager.get(self.sid) is None:
            await self.finished()
        channel = self.table.channel
        for sent in [*table_message.edits[-1:], *channel.sent[seen:]]:
            assert not sent.ephemeral
            assert_in(self.server, sent, "public")
            self.checked["public"] += 1
        return len(channel.sent)


# --- SPLIT ------------------------------------------------------------------------------------


@pytest.fixture
async def split(tmp_path: Path) -> AsyncIterator[SplitTable]:
    store = await open_store(tmp_path / "split.sqlite3")
    manager = SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: 20240501)
    yield SplitTable(manager)
    await store.close()


def split_control(sent: Sent, action: Any) -> tuple[str, list[str] | None] | None:
    """The button or select option of ``sent`` that carries ``action``'s code."""
    code = action_code(action)
    for child in sent.view.children if sent.view is not None else []:
        custom_id = str(child.custom_id)
        if custom_id.endswith(f":a:{code}"):
            return custom_id, None
        for option in getattr(child, "options", []):
            if option.value == code and ":s:" in custom_id:
                return custom_id, [option.value]
    return None


def next_page(sent: Sent) -> str | None:
    """The enabled page button that goes forward (its page is past the current one)."""
    pages = [(int(str(c.custom_id).rsplit(":", 1)[1]), str(c.custom_id))
             for c in (sent.view.children if sent.view is not None else [])
             if ":pg:" in str(c.custom_id) and not c.disabled]
    return max(pages)[1] if pages else None


async def test_a_whole_split_game_in_three_languages(split: SplitTable) -> None:
    await set_languages(split, "sq")
    players = Players(split, Language.SQ)
    opened = split.interaction(ANA, locale=players.locale(ANA))
    await _invoke(GameCog.new, split.cog, opened, game="split")
    table = opened.last.message
    assert table is not None
    players.sid = sid = split.session().id
    for user in (BEN, CY):
        await players.press(user, table, f"tb:lobby:join:{sid}")
    await players.press(ANA, table, f"tb:lobby:start:{sid}")
    seen = await players.public(table, 0)
    await players.info(table)

    rng = random.Random(5)
    actions = 0
    while (session := split.manager.get(sid)) is not None:
        state = session.state
        mover = split.engine.awaiting(state)[0]
        for user in USERS.values():
            view = await players.hand(user)
            if str(user.id) != mover:
                assert view.custom_ids == []
        action = split.engine.bot_action(state, mover, "normal", rng)
        assert action in split.engine.legal_actions(state, mover)
        user = USERS[mover]
        view = await players.hand(user)
        while (control := split_control(view, action)) is None:
            page = next_page(view)
            assert page is not None, f"{action!r} has no control"
            view = await players.press(user, view.message, page)
        await players.press(user, view.message, *control)
        seen = await players.public(table, seen)
        actions += 1
        assert actions < MAX_ACTIONS
    await players.finished()
    await players.info(table)
    seen = await players.public(table, seen)
    final = split.channel.sent[-1]
    assert words_for(Language.SQ).gettext("SPLIT — final result") in final.text
    await players.replays(table)
    await players.timed_out()
    await players.public(table, seen)
    assert players.checked["private"] > 3 * actions and players.checked["public"] > actions
    assert players.checked["replay lines"] > actions and players.checked["log lines"] > 0


# --- TEN --------------------------------------------------------------------------------------


async def test_a_whole_ten_game_in_three_languages(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "ten.sqlite3")
    try:
        ten = TenTable(SessionManager(store, {"ten": TEN}, seed_source=lambda: 4))
        await play_ten(ten)
    finally:
        await store.close()


async def play_ten(ten: TenTable) -> None:
    await set_languages(ten, "es")
    players = Players(ten, Language.ES)
    opened = ten.interaction(ANA, locale=players.locale(ANA))
    await _invoke(GameCog.new, ten.cog, opened, game="ten")
    table = opened.last.message
    assert table is not None
    ten.table_message = table
    players.sid = ten.sid = sid = ten.manager.in_channel(100).id  # type: ignore[union-attr]
    for user in (BEN, CY):
        await players.press(user, table, f"tb:lobby:join:{sid}")
    await players.press(ANA, table, f"tb:lobby:start:{sid}")
    seen = await players.public(table, 0)
    await players.info(table)

    actions = 0
    turns_refused = Counter[str]()
    while (session := ten.manager.get(sid)) is not None:
        state = session.state
        [mover] = TEN.awaiting(state)
        for user in USERS.values():
            view = await players.hand(user)
            if str(user.id) != mover and state.phase not in turns_refused:
                # a table control out of turn: the game's own words, in the clicker's
                controls = [cid for cid in ten.table.custom_ids if cid.startswith("tb:act")]
                if controls:
                    await players.press(user, table, controls[0])
                    turns_refused[state.phase] += 1
        user = USERS[mover]
        panel = [cid for cid in ten.table.custom_ids if cid.endswith(":panel")]
        if panel:  # the table's button opens the awaited player's controls (a next step)
            view = await players.press(user, table, panel[0])
        else:
            view = await players.hand(user)
        await play_in(players, user, view, decide(state, mover))
        seen = await players.public(table, seen)
        actions += 1
        assert actions < MAX_ACTIONS
    await players.finished()
    await players.info(table)
    seen = await players.public(table, seen)
    await players.replays(table)
    await players.timed_out()
    await players.public(table, seen)
    assert len(turns_refused) >= 3, turns_refused  # draw, auction, pay or buy
    assert players.checked["private"] > 3 * actions
    assert players.checked["replay lines"] > actions and players.checked["log lines"] > 0


async def play_in(players: Players, user: FakeUser, view: Sent, action: Any) -> None:
    """Play ``action`` through the controls of ``user``'s private ``view``."""
    ten: TenTable = players.table
    state = ten.state
    if not isinstance(action, Pay):
        control = split_control(view, action)
        assert control is not None, action
        await players.press(user, view.message, *control)
        return
    options = payment_options(state, str(user.id), state.pay_price,
                              cards_allowed=state.pay_for == "card")
    notes = [action.cards[i:i + 2] for i in range(0, len(action.cards), 2)]
    [index] = [i for i, o in enumerate(options)
               if (o.c, o.b, len(o.cards)) == (action.c, action.b, len(notes))]
    option = options[index]
    code = action_code(option.action())
    if index > 0:
        select = select_with(view, "yo:pay:", code)
        view = await players.press(user, view.message, str(select.custom_id), [code])
        if not option.cards:
            return
    if Counter(option.cards) == Counter(notes):
        await players.press(user, view.message, str(item(view, f"y:{code}").custom_id))
        return
    picker = item(view, f"yc:{option.c}:{option.b}")
    await players.press(user, view.message, str(picker.custom_id), values_for(picker, notes))
