"""SPLIT public messages: the table, the scores sheet, round summaries and the final result.

Drawn only from ``engine.view(state, None)``, ``engine.results`` and the session's public
log, so nothing here can show a card held in a hand.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.models import Session, Status
from cogs.game_ui import Render
from cogs.ids import HandButton, InfoButton, InfoKind
from cogs.split.format import (
    COLOUR,
    EMBED_TOTAL_LIMIT,
    add_chunked_field,
    fit_lines,
    gains_text,
    matches_line,
    name_of,
    round_gains,
    row_chunks,
    sheet_block,
    sheet_of,
    sheet_summary,
    status_line,
)
from game.base import PlayerResult
from game.split import RoundSummary, SplitView

TABLE_LOG_LINES = 8
PLACE_MARKS = {1: "🥇", 2: "🥈", 3: "🥉"}


def table_render(session: Session, view: SplitView, results: Sequence[PlayerResult]) -> Render:
    if session.status is Status.FINISHED:
        return Render(embeds=[final_embed(session, view, results)])
    embed = _table_embed(session, view)
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(HandButton(session.id))
    buttons.add_item(InfoButton(session.id, InfoKind.RULES, label="Rules"))
    buttons.add_item(InfoButton(session.id, InfoKind.SCORES, label="Scores"))
    return Render(embeds=[embed], view=buttons)


def _table_embed(session: Session, view: SplitView) -> discord.Embed:
    names = session.names
    embed = discord.Embed(
        title=f"SPLIT — round {view.round}/{view.rounds}",
        colour=COLOUR,
        description=(
            f"Dealer: {name_of(names, view.dealer)} · Draw pile: {view.pile_count} cards\n"
            f"{status_line(view, names)}"
        ),
    )
    add_chunked_field(embed, f"Discard row, oldest → newest ({len(view.row)})",
                      row_chunks(view.row))
    for player in view.players:
        marks = []
        if player == view.turn or player in view.laydown_waiting:
            marks.append("▶")
        marks.append(name_of(names, player))
        if player == view.dealer:
            marks.append("(dealer)")
        sheet = sheet_of(view, player)
        value = (
            f"Hand: {_cards(view.hand_counts[player])} · Sheet: {sheet.rank_total}"
            f" − {sheet.negative_value} ({sheet.negatives} neg.) = **{sheet.total}**\n"
            f"Matches: {matches_line(view, player)}"
        )
        embed.add_field(name=" ".join(marks), value=fit_lines([value]), inline=False)
    log = [f"• {line}" for line in session.log[-TABLE_LOG_LINES:]]
    embed.add_field(name="Recent events", value=fit_lines(log), inline=False)
    embed.set_footer(text="My hand shows your cards and moves (only to you).")
    while len(embed) > EMBED_TOTAL_LIMIT and len(log) > 1:
        log.pop(0)
        embed.set_field_at(len(embed.fields) - 1, name="Recent events", value=fit_lines(log),
                           inline=False)
    return embed


def _cards(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"


def scores_embed(session: Session, view: SplitView) -> discord.Embed:
    """Every player's sheet (rank rows with boxes and values, negatives, total) and gains."""
    embed = discord.Embed(title=f"SPLIT — score sheets after {len(view.history)} of"
                                f" {view.rounds} rounds", colour=COLOUR)
    for player in view.players:
        sheet = sheet_of(view, player)
        value = f"{sheet_block(sheet)}{gains_text(round_gains(view, player))}"
        embed.add_field(name=f"{name_of(session.names, player)} — {sheet.total}", value=value,
                        inline=True)
    return embed


def round_summary_embed(session: Session, view: SplitView, summary: RoundSummary) -> discord.Embed:
    """The public summary of a finished round: how it ended, each player's gain and sheet."""
    names = session.names
    if summary.ended_by == "out":
        how = f"{name_of(names, summary.out)} went out"
        if summary.first_turn_out:
            how += " on their first turn"
    else:
        how = "The draw pile ran out"
    embed = discord.Embed(title=f"SPLIT — round {summary.round} of {view.rounds} is over",
                          description=f"{how}.", colour=COLOUR)
    for entry in summary.players:
        boxes = ", ".join(f"{rank}×{count}" for rank, count in entry.boxes.items()) or "none"
        lines = [
            f"Matches scored: {entry.matches} ({boxes})",
            f"Cards left in hand: {entry.hand_marks} → {entry.hand_marks} negative boxes",
        ]
        if entry.bonus_marks:
            lines.append(f"Marks from perfect bonuses: {entry.bonus_marks}")
        lines.append(f"Sheet: {sheet_summary(sheet_of(view, entry.player))}")
        embed.add_field(
            name=f"{name_of(names, entry.player)}: {entry.gained:+d} (total {entry.score_after})",
            value=fit_lines(lines, keep="first"),
            inline=False,
        )
    return embed


def final_embed(
    session: Session, view: SplitView, results: Sequence[PlayerResult]
) -> discord.Embed:
    names = session.names
    lines = []
    for result in results:
        mark = PLACE_MARKS.get(result.placement, f"{result.placement}.")
        lines.append(f"{mark} **{name_of(names, result.player)}** — {result.score} points")
    winners = [name_of(names, r.player) for r in results if r.placement == 1]
    headline = (
        f"{winners[0]} wins!" if len(winners) == 1 else f"Shared win: {', '.join(winners)}!"
    )
    embed = discord.Embed(title="SPLIT — final result", colour=COLOUR,
                          description=f"{headline}\n\n" + "\n".join(lines))
    for result in results:
        sheet = sheet_of(view, result.player)
        embed.add_field(
            name=name_of(names, result.player),
            value=fit_lines([sheet_summary(sheet),
                             gains_text(round_gains(view, result.player))]),
            inline=False,
        )
    return embed
