"""``/admin health``'s text (``cogs.admin.health_text``) in every language: every part of the
report is there, nothing is left untranslated, and it fits one Discord message however many
shards and errors there are."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.ops.error_log import LoggedError
from cogs.admin.diagnostics import CLOSED, TIMEOUT, Facts, Shard
from cogs.admin.health_text import health_text
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.kit.discord_limits import CONTENT

NOW = 1_800_000_000.0


def facts(**changes: object) -> Facts:
    base: dict[str, object] = dict(
        uptime=timedelta(hours=5, minutes=3),
        shards=(Shard(0, True, 0.042), Shard(1, False, None)),
        live={("split", "active"): 2, ("split", "lobby"): 1, ("ten", "active"): 1},
        publish_queue=3, pictures=1, expert=0, errors_last_hour=1, errors_total=4,
        recent_errors=(
            LoggedError(NOW - 600, "cogs.listeners.table_publisher", "could not post a table"),
        ),
        rate_limited=2, rest_calls=1234, memory=150 * 1_048_576, database="sqlite",
        database_ms=0.42, now=NOW,
    )
    base.update(changes)
    return Facts(**base)  # type: ignore[arg-type]


def test_the_english_report_names_every_part() -> None:
    text = health_text(words_for(Language.EN), facts())
    assert text.splitlines() == [
        "**Health of this bot process**",
        "**Up for** 5 hours",
        "**Shards:** 1 of 2 connected",
        "• shard 0: connected, latency 42 ms",
        "• shard 1: disconnected",
        "**Live games:**",
        "• SPLIT: 1 lobby, 2 games running",
        "• TEN: 0 lobbies, 1 game running",
        "**Queues:** 3 changes waiting for their posts, 1 picture being drawn,"
        " 0 expert moves being decided",
        "**Errors logged:** 1 in the last hour, 4 since the start",
        "• 10 minutes ago, cogs.listeners.table_publisher: could not post a table",
        "**Rate limits:** 2 answers 429 in 1,234 REST calls",
        "**Memory:** 150.0 MB resident",
        "**Database:** SQLite, answered in 0.4 ms",
    ]


@pytest.mark.parametrize("language", [Language.ES, Language.SQ, Language.GU])
def test_every_line_is_translated(language: Language) -> None:
    english = health_text(words_for(Language.EN), facts()).splitlines()
    translated = health_text(words_for(language), facts()).splitlines()
    assert len(translated) == len(english)
    # Lines made only of names and numbers ("• SPLIT: ...") differ through their parts.
    same = [line for line, source in zip(translated, english, strict=True) if line == source]
    assert same == [], same
    assert not any("{" in line for line in translated)


@pytest.mark.parametrize("language", list(Language))
def test_the_report_fits_one_message_with_many_shards_and_long_errors(
    language: Language,
) -> None:
    many = facts(
        shards=tuple(Shard(n, n % 3 != 0, 0.1) for n in range(64)),
        recent_errors=tuple(LoggedError(NOW - n, "x" * 80, "y" * 150) for n in range(3)),
        live={(f"game{n}", "active"): n for n in range(40)},
    )
    text = health_text(words_for(language), many)
    assert len(text) <= CONTENT
    if language is Language.EN:
        assert "• and 54 more shards" in text and "**Shards:** 42 of 64 connected" in text


@pytest.mark.parametrize(("changes", "line"), [
    ({"database_ms": None, "database_error": TIMEOUT},
     "**Database:** SQLite, no answer within 1 s"),
    ({"database_ms": None, "database_error": CLOSED}, "**Database:** closed"),
    ({"database_ms": None, "database_error": "OperationalError", "database": "postgresql"},
     "**Database:** PostgreSQL, error (OperationalError)"),
    ({"live": {}}, "**Live games:** none"),
])
def test_the_other_states_read_plainly(changes: dict[str, object], line: str) -> None:
    assert line in health_text(words_for(Language.EN), facts(**changes)).splitlines()
