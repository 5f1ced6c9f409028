"""What the event posts say: the event post, a round's tables, the standings, the final
post. Mentions never ping from an embed; the round's post pings its players once."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any

import discord

from bot.events.arena import ArenaLine
from bot.events.service import EventSummary, PlayerRecord, Standing
from bot.records.events import Event, EventFormat, EventPlayer, EventStatus, EventTable
from cogs.events.controls import EventAction, EventButton
from cogs.i18n.common_words import CANCEL, JOIN, LEAVE
from cogs.i18n.words import Words
from cogs.kit.discord_limits import FIELD_VALUE, clip

SHOWN_LINES = 20  # standings lines in one embed field


def points_text(words: Words, points: Fraction) -> str:
    """Points with as many decimals as they need (1, 1.5, 0.75)."""
    if points.denominator == 1:
        return words.number(int(points))
    return words.decimal(float(points), 1 if points.denominator == 2 else 2)


def when_text(moment: datetime) -> str:
    """A moment in every reader's own time zone (Discord timestamps)."""
    return (f"{discord.utils.format_dt(moment, 'F')}"
            f" ({discord.utils.format_dt(moment, 'R')})")


def status_text(words: Words, event: Event) -> str:
    if event.status is EventStatus.OPEN:
        return words.gettext("Registration is open until the start.")
    if event.status is EventStatus.RUNNING and event.format is EventFormat.ARENA:
        return words.gettext("The arena is being played: finish a game to be seated again.")
    if event.status is EventStatus.RUNNING:
        return words.gettext("Round {round} of {rounds} is being played.",
                             round=words.number(event.round),
                             rounds=words.number(event.settings.rounds))
    if event.status is EventStatus.FINISHED:
        return words.gettext("The event is over.")
    return words.gettext("The event was cancelled.")


def fitting(words: Words, parts: Sequence[str], separator: str) -> str:
    """As many whole ``parts`` as fit in an embed field, then how many more there are."""
    for count in range(len(parts), -1, -1):
        more = len(parts) - count
        tail = [words.ngettext("and {count} more", "and {count} more", more)] if more else []
        text = separator.join([*parts[:count], *tail])
        if len(text) <= FIELD_VALUE:
            return text
    return ""


def standings_lines(words: Words, lines: Sequence[Standing]) -> str:
    if not lines:
        return words.gettext("No results yet.")
    shown = []
    for standing in lines[:SHOWN_LINES]:
        line = standing.line
        if isinstance(line, ArenaLine):
            text = words.gettext(
                "{rank}. <@{player}> · {points} pts · {games} games · wins {wins}",
                rank=words.number(line.rank), player=line.player,
                points=words.number(line.points), games=words.number(line.games),
                wins=words.number(line.wins))
            if line.on_fire:
                text += " 🔥"
        else:
            text = words.gettext(
                "{rank}. <@{player}> · {points} pts · Buchholz {buchholz} · SB {berger} ·"
                " wins {wins}", rank=words.number(line.rank), player=line.player,
                points=points_text(words, line.points),
                buchholz=points_text(words, line.buchholz),
                berger=points_text(words, line.sonneborn_berger),
                wins=words.number(line.wins))
        if standing.withdrawn:
            text += " · " + words.gettext("withdrew")
        shown.append(text)
    return fitting(words, shown, "\n")


def tie_breaks(words: Words, event: Event) -> str:
    if event.format is EventFormat.ARENA:
        return words.gettext("Points per game: 2 for first place alone, 1 for a shared first"
                             " place, 0 otherwise; after two wins in a row every game counts"
                             " double (🔥) until one is not won. Ties are broken by wins,"
                             " then fewer games, then registration order.")
    return words.gettext("Points: 1 for each player placed below you at your table, ½ for a"
                         " tie, divided by the other players; a bye scores 1. Ties are broken"
                         " by Buchholz, then Sonneborn-Berger, then wins, then registration"
                         " order.")


def event_embed(words: Words, event: Event, title: str, players: Sequence[EventPlayer],
                lines: Sequence[Standing]) -> discord.Embed:
    settings = event.settings
    if event.format is EventFormat.ARENA:
        kind = words.gettext("{game} · Arena · {minutes} minutes · tables of {size}",
                             game=title, minutes=words.number(settings.minutes),
                             size=words.number(settings.per_table))
    else:
        kind = words.gettext("{game} · Swiss · {rounds} rounds · tables of {size}", game=title,
                             rounds=words.number(settings.rounds),
                             size=words.number(settings.per_table))
    about = [
        kind,
        words.gettext("Start: {when}", when=when_text(event.starts_at)),
        words.gettext("Turn clock: {minutes} min per move",
                      minutes=words.number(settings.turn_minutes)),
    ]
    if event.format is EventFormat.ARENA:
        about.append(words.gettext("End: {when}", when=when_text(event.ends_at)))
    if settings.bots:
        about.append(words.gettext("Bot seats fill short tables."))
    about.append(status_text(words, event))
    embed = discord.Embed(title=clip(event.name, 256), description="\n".join(about))
    active = [p for p in players if not p.withdrawn]
    names = fitting(words, [f"<@{p.user_id}>" for p in active], " ") \
        or words.gettext("Nobody yet.")
    embed.add_field(name=words.ngettext("{count} player", "{count} players", len(active)),
                    value=clip(names, FIELD_VALUE), inline=False)
    if event.status is not EventStatus.OPEN and lines:
        embed.add_field(name=words.gettext("Standings"), value=standings_lines(words, lines),
                        inline=False)
    embed.set_footer(text=words.gettext("Event {number}", number=event.id))
    return embed


def event_view(words: Words, event: Event) -> discord.ui.View | None:
    """Join and Leave while it is open (Leave withdraws once it runs), and Cancel."""
    if not event.is_live:
        return None
    view = discord.ui.View(timeout=None)
    items: list[Any] = []
    if event.status is EventStatus.OPEN:
        items.append(EventButton(EventAction.JOIN, event.id, label=words.text(JOIN),
                                 style=discord.ButtonStyle.success))
        items.append(EventButton(EventAction.LEAVE, event.id, label=words.text(LEAVE)))
    else:
        items.append(EventButton(EventAction.LEAVE, event.id,
                                 label=words.pgettext("button", "Withdraw")))
    items.append(EventButton(EventAction.CANCEL, event.id,
                             label=words.text(CANCEL),
                             style=discord.ButtonStyle.danger))
    for item in items:
        view.add_item(item)
    return view


def table_title(words: Words, event: Event, table: EventTable) -> str:
    if event.format is EventFormat.ARENA:
        return clip(words.gettext("{event} · arena table {wave}-{table}", event=event.name,
                                  wave=words.number(table.round),
                                  table=words.number(table.number)), 100)
    return clip(words.gettext("{event} · round {round} · table {table}", event=event.name,
                              round=words.number(table.round),
                              table=words.number(table.number)), 100)


def table_call(words: Words, event: Event, table: EventTable) -> str:
    """The message a table's thread starts from: it pings the table's players."""
    return words.gettext("{title}: {players}. Play in this thread.",
                         title=table_title(words, event, table),
                         players=", ".join(f"<@{p}>" for p in table.players))


def round_text(words: Words, event: Event, tables: Sequence[EventTable]) -> str:
    lines = [words.gettext("**{event}**: round {round} of {rounds} begins.", event=event.name,
                           round=words.number(event.round),
                           rounds=words.number(event.settings.rounds))]
    for table in tables:
        if table.is_bye:
            lines.append(words.gettext("<@{player}> has a bye this round (1 point).",
                                       player=table.players[0]))
    return clip("\n".join(lines), 2000)


def standings_embed(words: Words, event: Event, lines: Sequence[Standing], *,
                    final: bool) -> discord.Embed:
    title = (words.gettext("{event}: final standings", event=event.name) if final else
             words.gettext("{event}: standings after round {round}", event=event.name,
                           round=words.number(event.round)))
    embed = discord.Embed(title=clip(title, 256), description=standings_lines(words, lines))
    embed.set_footer(text=clip(tie_breaks(words, event), 2048))
    return embed


def winners_text(words: Words, event: Event, lines: Sequence[Standing]) -> str:
    if event.status is EventStatus.CANCELLED or not lines:
        return words.gettext("**{event}** has ended without a winner.", event=event.name)
    best = lines[0].line
    podium = lines[1:3]
    text = words.gettext("🏆 **{event}** is over. The winner is <@{player}>!",
                         event=event.name, player=best.player)
    if podium:
        text += "\n" + words.gettext("Then: {players}.", players=", ".join(
            f"<@{s.line.player}>" for s in podium))
    return text


def history_value(words: Words, summaries: Sequence[EventSummary]) -> str:
    """This channel's newest events, one line each: name, format, players, and the winner or
    the status."""
    lines = []
    for summary in summaries:
        event = summary.event
        kind = words.gettext("Arena") if event.format is EventFormat.ARENA \
            else words.gettext("Swiss")
        if summary.winner is not None:
            outcome = words.gettext("won by <@{player}>", player=summary.winner)
        else:
            outcome = status_text(words, event)
        lines.append(words.ngettext(
            "**{event}** · {kind} · {count} player · {outcome}",
            "**{event}** · {kind} · {count} players · {outcome}", summary.players,
            event=clip(event.name, 100), kind=kind, outcome=outcome))
    return fitting(words, lines, "\n")


def record_value(words: Words, record: PlayerRecord) -> str:
    """A player's finished events in this server, for ``/stats``."""
    text = words.ngettext("{count} event played", "{count} events played", record.played)
    text += " · " + words.ngettext("{count} won", "{count} won", record.won)
    if record.best is not None:
        text += " · " + words.gettext("best place: {place}", place=words.number(record.best))
    return text
