"""``/admin health`` in the reader's words: one ephemeral message, within Discord's 2,000
characters (at most :data:`SHARDS_SHOWN` shard lines; the rest are counted)."""

from __future__ import annotations

import math
from datetime import timedelta

from bot.ops.health import DATABASE_TIMEOUT
from cogs.admin.diagnostics import CLOSED, TIMEOUT, Facts
from cogs.i18n.messages import N_, NN_
from cogs.i18n.words import Words
from cogs.kit.discord_limits import fit_content

SHARDS_SHOWN = 10
OWNER_ONLY = N_("Only the bot's owner may see its health.")
LOBBIES = NN_("{count} lobby", "{count} lobbies")
RUNNING = NN_("{count} game running", "{count} games running")
MORE_SHARDS = NN_("• and {count} more shard", "• and {count} more shards")
CHANGES = NN_("{count} change waiting for its posts", "{count} changes waiting for their posts")
PICTURES = NN_("{count} picture being drawn", "{count} pictures being drawn")
MOVES = NN_("{count} expert move being decided", "{count} expert moves being decided")
LIMITED = NN_("{count} answer 429", "{count} answers 429")
CALLS = NN_("{count} REST call", "{count} REST calls")


def _milliseconds(words: Words, seconds: float) -> str:
    return words.number(round(seconds * 1000))


def _shard_lines(words: Words, facts: Facts) -> list[str]:
    connected = sum(1 for shard in facts.shards if shard.connected)
    lines = [words.gettext("**Shards:** {connected} of {total} connected",
                           connected=words.number(connected),
                           total=words.number(len(facts.shards)))]
    for shard in facts.shards[:SHARDS_SHOWN]:
        if not shard.connected:
            lines.append(words.gettext("• shard {shard}: disconnected", shard=shard.id))
        elif shard.latency is None or not math.isfinite(shard.latency):
            lines.append(words.gettext("• shard {shard}: connected", shard=shard.id))
        else:
            lines.append(words.gettext("• shard {shard}: connected, latency {ms} ms",
                                       shard=shard.id, ms=_milliseconds(words, shard.latency)))
    hidden = len(facts.shards) - SHARDS_SHOWN
    if hidden > 0:
        lines.append(words.plural(MORE_SHARDS, hidden))
    return lines


def _game_lines(words: Words, facts: Facts) -> list[str]:
    games = sorted({game for game, _ in facts.live})
    if not games:
        return [words.gettext("**Live games:** none")]
    lines = [words.gettext("**Live games:**")]
    for game in games:
        lobbies = facts.live.get((game, "lobby"), 0)
        running = facts.live.get((game, "active"), 0)
        lines.append(words.gettext("• {game}: {lobbies}, {running}", game=game.upper(),
                                   lobbies=words.plural(LOBBIES, lobbies),
                                   running=words.plural(RUNNING, running)))
    return lines


def _error_lines(words: Words, facts: Facts) -> list[str]:
    lines = [words.gettext("**Errors logged:** {hour} in the last hour, {total} since the start",
                           hour=words.number(facts.errors_last_hour),
                           total=words.number(facts.errors_total))]
    for error in reversed(facts.recent_errors):
        ago = timedelta(seconds=max(0.0, facts.now - error.at))
        lines.append(words.gettext("• {ago}, {logger}: {message}",
                                   ago=words.duration(-ago, direction=True),
                                   logger=error.logger, message=error.message))
    return lines


def _database_line(words: Words, facts: Facts) -> str:
    name = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}.get(facts.database, facts.database)
    if facts.database_ms is not None:
        return words.gettext("**Database:** {name}, answered in {ms} ms", name=name,
                             ms=words.decimal(facts.database_ms, 1))
    if facts.database_error == TIMEOUT:
        return words.gettext("**Database:** {name}, no answer within {seconds} s", name=name,
                             seconds=words.number(DATABASE_TIMEOUT))
    if facts.database_error == CLOSED:
        return words.gettext("**Database:** closed")
    return words.gettext("**Database:** {name}, error ({error})", name=name,
                         error=facts.database_error)


def health_text(words: Words, facts: Facts) -> str:
    lines = [
        words.gettext("**Health of this bot process**"),
        words.gettext("**Up for** {duration}", duration=words.duration(facts.uptime)),
        *_shard_lines(words, facts),
        *_game_lines(words, facts),
        words.gettext("**Queues:** {changes}, {pictures}, {moves}",
                      changes=words.plural(CHANGES, facts.publish_queue),
                      pictures=words.plural(PICTURES, facts.pictures),
                      moves=words.plural(MOVES, facts.expert)),
        *_error_lines(words, facts),
        words.gettext("**Rate limits:** {limited} in {calls}",
                      limited=words.plural(LIMITED, facts.rate_limited),
                      calls=words.plural(CALLS, facts.rest_calls)),
        words.gettext("**Memory:** {megabytes} MB resident",
                      megabytes=words.decimal(facts.memory / 1_048_576, 1)),
        _database_line(words, facts),
    ]
    return fit_content("\n".join(lines)) or ""
