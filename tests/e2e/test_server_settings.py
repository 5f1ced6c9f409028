"""Issue 17 at the real bot: /config changes (language, turn clock, game channels) take
effect in the next game and survive a restart; the synced commands carry their Spanish
localisations."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log, reply_content, synced_bot


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.add_user("dana", admin=True)  # Administrator: Manage Server
    fake.add_user("alice")
    fake.add_user("pablo", locale="es-ES")  # a Spanish Discord client
    fake.add_user("arta")  # chooses Albanian with /language
    for name in ("games", "elsewhere"):
        fake.add_channel(name)
    async with fake:
        yield fake


@pytest.fixture
async def bot(fd: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    async with synced_bot(fd, tmp_path / "bot", BOT_ENV) as proc:
        yield proc


async def test_config_takes_effect_in_the_next_game_and_survives_a_restart(
    fd: FakeDiscord, bot: BotProcess
) -> None:
    dana, alice, pablo, arta = fd.world.users.values()
    games, elsewhere = fd.channel_named("games"), fd.channel_named("elsewhere")

    game = next(c for c in fd.commands() if c["name"] == "game")
    assert game["name_localizations"] == {"es-ES": "partida", "es-419": "partida"}
    config = next(c for c in fd.commands() if c["name"] == "config")
    assert set(config["description_localizations"]) == {"es-ES", "es-419"}

    refused = await fd.slash(alice, games, "config", turn_minutes=2)
    assert refused.ephemeral and "Manage Server" in reply_content(refused)
    changed = await fd.slash(dana, games, "config", turn_minutes=2, language="es",
                             add_channel=games)
    assert changed.ephemeral, changed.callback_data
    shown = reply_content(changed)
    assert "Changed Turn clock of a new game: 5 min per move → 2 min per move" in shown
    assert f"Channels where games may start: <#{games.id}>" in shown
    assert "setting turn_minutes changed from '(default)' to '2'" in bot.log_text()

    await bot.restart()

    outside = await fd.slash(alice, elsewhere, "game new", game="split")
    assert outside.ephemeral
    # Alice's own answer: her Discord is in English (the server's language is for public).
    assert reply_content(outside) == (
        f"On this server games start only in this channel: <#{games.id}>.")
    opened = await fd.slash(alice, games, "game new", game="split")
    assert not opened.ephemeral
    lobby = await fd.wait_for(lambda: fd.latest_public(games), what="the lobby")
    text = lobby.text
    assert "SPLIT — sala" in text and "2 min por jugada" in text, text
    assert "Unirse" in text  # the Join button, in the server's language

    # Private answers: each in their own language, whatever the server's.
    chosen = await fd.slash(arta, games, "language", language="sq")
    assert chosen.ephemeral and reply_content(chosen) == (
        "Tani e tutje ju përgjigjem në Shqip. Mesazhet publike ndjekin serverin.")
    for user in (arta, arta, pablo, pablo):
        await fd.click_label(user, lobby, "Unirse")
    refusals = [reply_content(r) for r in fd.interactions[-4:]]
    assert refusals[1] == "Ju jeni ulur tashmë në këtë tavolinë.", refusals
    assert refusals[3] == "Ya estás sentado en esta mesa.", refusals
    seats = fd.message(lobby).text
    assert "2. Arta" in seats and "3. Pablo" in seats, seats

    # Commands are named as Discord mentions (shown in the reader's client language).
    nothing = await fd.slash(pablo, elsewhere, "game status")
    assert reply_content(nothing) == (
        f"No hay ninguna partida en este canal. Abre una con </game new:{game['id']}>.")

    after = await fd.slash(dana, games, "config")
    listed = reply_content(after)
    assert f"(</config:{config['id']}> changes them)" in listed
    assert "• Turn clock of a new game: 2 min per move\n" in listed + "\n"
    assert "• Language of public messages: Español" in listed
    assert_clean_log(bot)
