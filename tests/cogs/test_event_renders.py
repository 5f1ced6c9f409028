"""The event posts within Discord's limits in every language: a crowded event lists whole
mentions and says how many more; long standings keep whole lines; the arena's and the
Swiss's words differ where they should."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

import pytest

from bot.events.arena import ArenaLine
from bot.events.service import Standing
from bot.events.swiss import Line
from bot.records.events import (
    Event,
    EventFormat,
    EventPlayer,
    EventSettings,
    EventStatus,
)
from cogs.events.renders import event_embed, event_view, standings_embed, winners_text
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.kit.discord_limits import FIELD_VALUE

START = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)


def event(format: EventFormat = EventFormat.SWISS,
          status: EventStatus = EventStatus.RUNNING) -> Event:
    return Event(id=7, guild_id=1, channel_id=2, game="ten", format=format, name="N" * 100,
                 created_by="1", starts_at=START, status=status, round=2,
                 settings=EventSettings(rounds=3, per_table=3, turn_minutes=5, minutes=20))


PLAYERS = [EventPlayer(7, str(10**17 + n), f"P{n}", START) for n in range(80)]


def swiss_lines() -> list[Standing]:
    return [Standing(Line(p.user_id, n + 1, Fraction(5, 2), Fraction(31, 4), Fraction(9, 4),
                          2, 3, 0), p.display_name, n % 7 == 0) for n, p in enumerate(PLAYERS)]


@pytest.mark.parametrize("language", list(Language))
def test_a_crowded_event_fits_with_whole_mentions(language: Language) -> None:
    words = words_for(language)
    embed = event_embed(words, event(), "TEN", PLAYERS, swiss_lines())
    players, standings = embed.fields
    assert len(players.value) <= FIELD_VALUE and len(standings.value) <= FIELD_VALUE
    mentions = [f"<@{p.user_id}>" for p in PLAYERS]
    shown = [m for m in mentions if m in (players.value or "")]
    more = words.ngettext("and {count} more", "and {count} more", len(PLAYERS) - len(shown))
    assert 0 < len(shown) < len(PLAYERS)
    assert players.value == " ".join([*shown, more])  # whole mentions, then how many more
    lines = (standings.value or "").splitlines()
    assert all(line.count("<@") == 1 and " · " in line for line in lines[:-1])
    assert len(embed) <= 6000
    final = standings_embed(words, event(status=EventStatus.FINISHED), swiss_lines(),
                            final=True)
    assert len(final) <= 6000 and final.footer.text


@pytest.mark.parametrize("language", list(Language))
def test_arena_words(language: Language) -> None:
    words = words_for(language)
    arena = event(EventFormat.ARENA)
    lines = [Standing(ArenaLine("1", 1, 12, 5, 4, True), "A", False),
             Standing(ArenaLine("2", 2, 4, 5, 1, False), "B", False)]
    embed = event_embed(words, arena, "TEN", PLAYERS[:2], lines)
    assert "🔥" in (embed.fields[1].value or "")
    assert "<t:" in (embed.description or "")  # the start and the end, in the reader's zone
    text = winners_text(words, event(EventFormat.ARENA, EventStatus.FINISHED), lines)
    assert "<@1>" in text and "<@2>" in text


def test_buttons_follow_the_status() -> None:
    words = words_for(Language.EN)
    open_view = event_view(words, event(status=EventStatus.OPEN))
    assert open_view is not None
    assert [getattr(item, "label", None) for item in open_view.children] == [
        "Join", "Leave", "Cancel"]
    running = event_view(words, event())
    assert running is not None
    assert [getattr(item, "label", None) for item in running.children] == [
        "Withdraw", "Cancel"]
    assert event_view(words, event(status=EventStatus.FINISHED)) is None
    embed = event_embed(words_for(Language.ES), event(status=EventStatus.OPEN), "TEN", [], [])
    assert f"<t:{int(START.timestamp())}:F>" in (embed.description or "")
