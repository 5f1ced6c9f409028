"""Issue 29 (/learn) at the real bot: a guided game on a private table, in every language.

The simulated player reads the tutor's comment on their ephemeral message and clicks the
control labelled as the suggestion says, until the game ends: the end lists every rule of the
issue as learned, and the tutor rebuilt from the bot's database (seed + action log) met them
all. A player who always takes the last control still reaches the end. Leaving (a new
command) resumes the same game. Not one request touches a channel: the message of the
command and its webhook edits are the game's only surface.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.components import TEXT_DISPLAY, walk
from bot.playground.fakediscord.model import FakeUser, StoredMessage
from cogs.i18n.catalogs import words_for
from cogs.i18n.common_words import MORE
from cogs.i18n.language import Language
from cogs.learn.tutor_render import LEARNED_TITLE, NOT_MET, TUTOR_TITLE
from game.registry import engines, teachers
from game.tutor import replay
from tests.e2e.players import Choice, GameDb, choices_on, use

BOLD = re.compile(r"\*\*(.+?)\*\*")


def _embed(message: StoredMessage, title: str) -> dict | None:  # type: ignore[type-arg]
    """The part of the message headed ``title``: an embed, or in a card (issue 41) the text
    under its ``### title`` heading, as ``{"title", "description"}``."""
    found = next((e for e in message.embeds if e.get("title") == title), None)
    if found is not None or not message.card:
        return found
    heading = f"### {title}\n"
    for component in walk(message.components):
        text = component.get("content") if component.get("type") == TEXT_DISPLAY else None
        if isinstance(text, str) and heading in text:
            body = text.split(heading, 1)[1].split("\n### ", 1)[0]
            return {"title": title, "description": body}
    return None


def _channel_writes(fd: FakeDiscord, since: float) -> list[str]:
    return [route for route in fd.calls_by_route(since)
            if route.split()[1].startswith("/channels/")]


async def _set_language(fd: FakeDiscord, user: FakeUser, language: Language) -> None:
    await fd.slash(user, fd.general, "language", language=language.value)


class Learner:
    """One player at /learn: waits for their decision on the message, then plays it."""

    def __init__(self, fd: FakeDiscord, bot: BotProcess, user: FakeUser,
                 language: Language) -> None:
        self.fd, self.bot, self.user = fd, bot, user
        self.words = words_for(language)
        self.tutor = self.words.text(TUTOR_TITLE)
        self.learned = self.words.text(LEARNED_TITLE)
        self.more = self.words.text(MORE)

    def message(self) -> StoredMessage:
        found = self.fd.latest_ephemeral(self.user)
        assert found is not None
        return found

    def _ready(self) -> StoredMessage | None:
        """The message when it waits for the player (the tutor suggests a move) or the game
        is over (what was learned is shown)."""
        message = self.fd.message(self.message().id)
        if _embed(message, self.learned) is not None:
            return message
        tutor = _embed(message, self.tutor)
        if tutor is not None and BOLD.findall(tutor.get("description", ""))[-1:] and \
                choices_on(message):
            return message
        return None

    async def next_decision(self) -> StoredMessage:
        try:
            await self.bot.wait_until(self._ready, 30.0, "the player's next decision")
        except TimeoutError:
            shown = self.fd.message(self.message().id)
            print("EMBEDS", [(e.get("title"), e.get("description")) for e in shown.embeds])
            print("CHOICES", choices_on(shown))
            raise
        ready = self._ready()
        assert ready is not None
        return ready

    def suggested(self, message: StoredMessage) -> str:
        tutor = _embed(message, self.tutor)
        assert tutor is not None
        return BOLD.findall(tutor["description"].splitlines()[-1])[-1]

    async def play(self, pick: str, limit: int = 2000) -> StoredMessage:
        """Play until the end; ``pick``: "suggested" or "last"."""
        for _ in range(limit):
            message = await self.next_decision()
            if _embed(message, self.learned) is not None:
                return message
            choice = await self._choice(message, pick)
            record = await use(self.fd, self.user, choice)
            assert record.callback_type == 7, record.callback_data
        raise AssertionError("the game did not end")

    async def _choice(self, message: StoredMessage, pick: str) -> Choice:
        choices = choices_on(message)
        if pick == "last":
            playable = [c for c in choices if c.label != self.more]
            return (playable or choices)[-1]
        wanted = self.suggested(message)
        for _ in range(10):
            for choice in choices:
                if choice.label == wanted or choice.label.startswith(wanted):
                    return choice
            more = [c for c in choices if c.label == self.more]
            assert more, f"no control labelled {wanted!r}: {[c.label for c in choices]}"
            await use(self.fd, self.user, more[0])
            message = self.fd.message(message.id)
            choices = choices_on(message)
        raise AssertionError(f"no control labelled {wanted!r}")


def _tutor_from_db(bot: BotProcess, user: FakeUser, game: str):  # type: ignore[no-untyped-def]
    db = GameDb(bot.database_path)
    [(session_id, players, state)] = db._query(
        "SELECT id, seats, state FROM sessions WHERE kind = 'learn' AND game = ?"
        " ORDER BY id DESC LIMIT 1", game)
    seats = [seat["player_id"] for seat in json.loads(players)]
    actions = [(player, action) for _, player, action in db.actions(session_id)]
    return replay(engines()[game], teachers()[game], seats, json.loads(state)["seed"],
                  str(user.id), actions)


@pytest.mark.parametrize("language", list(Language))
@pytest.mark.parametrize("game", ["split", "ten"])
async def test_following_the_tutor_meets_every_rule(
    guild: FakeDiscord, live_bot: BotProcess, game: str, language: Language
) -> None:
    fd = guild
    alice, _, _ = guild.world.users.values()
    await _set_language(fd, alice, language)
    since = time.monotonic()
    opened = await fd.slash(alice, fd.general, "learn", game=game)
    assert opened.callback_type == 4
    learner = Learner(fd, live_bot, alice, language)
    final = await learner.play("suggested")
    learned = _embed(final, learner.learned)
    assert learned is not None
    ui_words = learner.words
    assert ui_words.text(NOT_MET, lessons="").split("{")[0][:12] not in learned["description"]
    tutor = _tutor_from_db(live_bot, alice, game)
    assert tutor.engine.is_over(tutor.state)
    assert tutor.missing() == []
    assert _channel_writes(fd, since) == []
    assert fd.public(fd.general) == []
    assert "Traceback" not in live_bot.log_text()


@pytest.mark.parametrize("language", list(Language))
@pytest.mark.parametrize("game", ["split", "ten"])
async def test_ignoring_the_tutor_still_ends_cleanly(
    guild: FakeDiscord, live_bot: BotProcess, game: str, language: Language
) -> None:
    fd = guild
    _, bob, _ = guild.world.users.values()
    await _set_language(fd, bob, language)
    since = time.monotonic()
    await fd.slash(bob, fd.general, "learn", game=game)
    learner = Learner(fd, live_bot, bob, language)
    final = await learner.play("last")
    assert _embed(final, learner.learned) is not None
    assert _tutor_from_db(live_bot, bob, game).engine.is_over(
        _tutor_from_db(live_bot, bob, game).state)
    assert _channel_writes(fd, since) == []
    assert "Traceback" not in live_bot.log_text()


@pytest.mark.parametrize("language", list(Language))
async def test_leaving_and_running_learn_again_resumes(
    guild: FakeDiscord, live_bot: BotProcess, language: Language
) -> None:
    fd = guild
    _, _, carol = guild.world.users.values()
    await _set_language(fd, carol, language)
    await fd.slash(carol, fd.general, "learn", game="split")
    learner = Learner(fd, live_bot, carol, language)
    first = learner.message()
    for _ in range(3):
        message = await learner.next_decision()
        await use(fd, carol, await learner._choice(message, "suggested"))
    played = len(GameDb(live_bot.database_path).actions(_tutor_id(live_bot)))
    # A restart on top: the game is in the store, the tutor rebuilt from its log.
    await live_bot.restart(hard=True)
    await live_bot.wait_until(lambda: fd.commands(), 20.0, "the command sync")
    again = await fd.slash(carol, fd.general, "learn", game="split")
    assert again.callback_type == 4
    resumed = learner.message()
    assert resumed.id != first.id
    assert _embed(await learner.next_decision(), learner.tutor) is not None
    assert len(GameDb(live_bot.database_path).actions(_tutor_id(live_bot))) >= played
    rows = GameDb(live_bot.database_path)._query(
        "SELECT COUNT(*) FROM sessions WHERE kind = 'learn'")
    assert rows == [(1,)]
    final = await learner.play("suggested")
    assert _embed(final, learner.learned) is not None
    assert fd.public(fd.general) == []


def _tutor_id(bot: BotProcess) -> int:
    [(session_id,)] = GameDb(bot.database_path)._query(
        "SELECT id FROM sessions WHERE kind = 'learn' ORDER BY id DESC LIMIT 1")
    return int(session_id)
