"""SPLIT public messages: the table, the scores sheet, round summaries and the final result.

Drawn only from ``engine.view(state, None)``, ``engine.results`` and the session's public
log, so nothing here can show a card held in a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.records.session import Session, Status
from cogs.game_ui import Render
from cogs.i18n.common_words import CARDS, LOG, MY_HAND, RULES, SCORES
from cogs.i18n.words import Words
from cogs.kit.control_payloads import Rows
from cogs.kit.custom_ids import HandButton, InfoButton, InfoKind
from cogs.rendering.phone_text import LINE_WIDTH, join_lines, short, shown_length, wrap, wrap_text
from cogs.split.format import (
    COLOUR,
    fit_lines,
    gains_text,
    matches_of,
    name_of,
    round_gains,
    sheet_block,
    sheet_of,
    sheet_summary,
)
from game.base import PlayerResult
from game.split import MatchView, RoundSummary, SplitView

PLACE_MARKS = {1: "🥇", 2: "🥈", 3: "🥉"}


def table_render(
    session: Session,
    view: SplitView,
    results: Sequence[PlayerResult],
    words: Words,
) -> Render:
    if session.status is Status.FINISHED:
        return Render(embeds=[final_embed(session, view, results, words, sheets=False)])
    embed = table_embed(session, view, words)
    buttons = Rows([
        HandButton.payload(session.id, label=words.text(MY_HAND)),
        InfoButton.payload(session.id, InfoKind.RULES, label=words.text(RULES)),
        InfoButton.payload(session.id, InfoKind.SCORES, label=words.text(SCORES)),
        InfoButton.payload(session.id, InfoKind.LOG, label=words.text(LOG)),
    ])
    return Render(embeds=[embed], view=buttons)


def table_embed(session: Session, view: SplitView, words: Words) -> discord.Embed:
    """The running game in phone-sized lines: the round and the draw pile (title), who must
    act now and for what, the discard row (positions as the hand's Pick list numbers them),
    one or two lines per player, and the legend of the short words (footer)."""
    lines = [*status_lines(view, session.names, words), *row_lines(view, words)]
    for player in view.players:
        lines.extend(player_lines(view, session.names, player, words))
    embed = discord.Embed(
        title=words.gettext("SPLIT · round {round}/{rounds} · draw pile {count}",
                            round=view.round, rounds=view.rounds, count=view.pile_count),
        colour=COLOUR,
        description=join_lines(lines),
    )
    embed.set_footer(text=words.gettext(
        "P perfect · S strong · W weak match · neg. negative boxes"))
    return embed


def status_lines(view: SplitView, names: Mapping[str, str], words: Words) -> list[str]:
    """Whose input the game waits for, and for what (▶ marks who must act now)."""
    if view.step == "game_over":
        return [words.gettext("The game is over.")]
    if view.step == "laydown":
        waiting = ", ".join(f"**{short(name_of(names, p))}**" for p in view.laydown_waiting)
        return [
            *wrap_text(words.gettext("{name} went out on the first turn.",
                                     name=short(name_of(names, view.went_out)))),
            *wrap_text(words.gettext("Laying down matches: {names}", names=waiting),
                       first="▶ "),
        ]
    who = f"**{short(name_of(names, view.turn))}**"
    step = {
        "take": words.gettext("{name} draws, or picks from the discard row", name=who),
        "main": words.gettext("{name}: matches and upgrades, then a discard", name=who),
        "bonus_perfect": words.gettext("{name} chooses who marks a negative box (perfect bonus)",
                                       name=who),
        "bonus_strong": words.gettext("{name} draws a card or skips (strong bonus)", name=who),
        "bonus_weak": words.gettext("{name} swaps two matches or skips (weak bonus)", name=who),
    }[view.step]
    lines = wrap_text(step, first="▶ ")
    if view.picked is not None:
        lines.extend(wrap_text(words.gettext(
            "The picked {card} must be used before the discard.", card=view.picked)))
    return lines


def row_lines(view: SplitView, words: Words) -> list[str]:
    """The discard row, oldest first: ``Discard row (12): `1` K♠ Q♦ …``; a continued line
    starts with the position of its first card (the positions the hand's Pick list and the
    table image use)."""
    if not view.row:
        return [words.gettext("Discard row: empty")]
    head = words.gettext("Discard row ({count}):", count=len(view.row))
    lines: list[str] = []
    current = f"{head} `1`"
    for position, card in enumerate(view.row, start=1):
        candidate = f"{current} {card}"
        if position > 1 and len(candidate) > LINE_WIDTH and shown_length(candidate) > LINE_WIDTH:
            lines.append(current)
            candidate = f"`{position}` {card}"
        current = candidate
    lines.append(current)
    return lines


def player_lines(view: SplitView, names: Mapping[str, str], player: str,
                 words: Words) -> list[str]:
    """``▶ **Ana** · 9 cards · 42 pts · 2 neg. · dealer``, then the player's matches grouped
    by level (``S K♠♣ 2♥♦ · W 9♠♥``), wrapped at the phone's width."""
    sheet = sheet_of(view, player)
    marked = player == view.turn or player in view.laydown_waiting
    pieces = [
        f"{'▶ ' if marked else ''}**{short(name_of(names, player))}**",
        words.plural(CARDS, view.hand_counts[player]),
        words.ngettext("{count} pt", "{count} pts", sheet.total),
    ]
    if sheet.negatives:
        pieces.append(words.ngettext("{count} neg.", "{count} neg.", sheet.negatives))
    if player == view.dealer:
        pieces.append(words.gettext("dealer"))
    return wrap([*pieces, *match_groups(view, player, words)], indent="   ", sep=" · ")


LEVEL_LETTERS = {"perfect": "P", "strong": "S", "weak": "W"}


def match_groups(view: SplitView, player: str, words: Words) -> list[str]:
    """The player's matches by level, strongest first: ``P 7♥♥``, ``S K♠♣ 2♥♦``. A match is
    two halves of one rank, so the rank is written once before the two suits."""
    letters = {
        "perfect": words.pgettext("match level letter", "P"),
        "strong": words.pgettext("match level letter", "S"),
        "weak": words.pgettext("match level letter", "W"),
    }
    groups = []
    for level in LEVEL_LETTERS:
        pairs = [pair_text(match) for match in matches_of(view, player) if match.level == level]
        if pairs:
            groups.append(f"{letters[level]} {' '.join(pairs)}")
    return groups


def pair_text(match: MatchView) -> str:
    """``7♥♦`` for the match 7♥|7♦ (both halves have the same rank)."""
    first, second = match.halves
    return f"{first}{second[-1]}"


def scores_embed(session: Session, view: SplitView, words: Words) -> discord.Embed:
    """Every player's sheet (rank rows with boxes and values, negatives, total) and gains."""
    embed = discord.Embed(
        title=words.ngettext("SPLIT — score sheets after {done} of {count} round",
                             "SPLIT — score sheets after {done} of {count} rounds",
                             view.rounds, done=len(view.history)),
        colour=COLOUR)
    for player in view.players:
        sheet = sheet_of(view, player)
        value = f"{sheet_block(sheet, words)}{gains_text(round_gains(view, player), words)}"
        embed.add_field(name=f"{name_of(session.names, player)} — {sheet.total}", value=value,
                        inline=True)
    return embed


def round_summary_embed(session: Session, view: SplitView, summary: RoundSummary,
                        words: Words) -> discord.Embed:
    """The public summary of a finished round: how it ended, each player's gain and sheet."""
    names = session.names
    if summary.ended_by == "out":
        out = name_of(names, summary.out)
        how = (words.gettext("{name} went out on their first turn.", name=out)
               if summary.first_turn_out else words.gettext("{name} went out.", name=out))
    else:
        how = words.gettext("The draw pile ran out.")
    embed = discord.Embed(
        title=words.gettext("SPLIT — round {round} of {rounds} is over", round=summary.round,
                            rounds=view.rounds),
        description=how, colour=COLOUR)
    for entry in summary.players:
        boxes = (", ".join(f"{rank}×{count}" for rank, count in entry.boxes.items())
                 or words.pgettext("boxes", "none"))
        lines = [
            words.gettext("Matches scored: {matches} ({boxes})", matches=entry.matches,
                          boxes=boxes),
            words.ngettext("Cards left in hand: {count} → {count} negative box",
                           "Cards left in hand: {count} → {count} negative boxes",
                           entry.hand_marks),
        ]
        if entry.bonus_marks:
            lines.append(words.gettext("Marks from perfect bonuses: {count}",
                                       count=entry.bonus_marks))
        lines.append(words.gettext("Sheet: {sheet}",
                                   sheet=sheet_summary(sheet_of(view, entry.player), words)))
        gain = f"{entry.gained:+d}"
        embed.add_field(
            name=words.gettext("{name}: {gain} (total {total})",
                               name=name_of(names, entry.player), gain=gain,
                               total=entry.score_after),
            value=fit_lines(lines, keep="first"),
            inline=False,
        )
    return embed


def final_embed(
    session: Session, view: SplitView, results: Sequence[PlayerResult], words: Words,
    *, sheets: bool = True,
) -> discord.Embed:
    """The final result: the winners and the placings, with each player's sheet and gains per
    round (``sheets``; the finished table leaves them to its Scores button, the final post
    shows them)."""
    names = session.names
    lines = []
    for result in results:
        mark = PLACE_MARKS.get(result.placement, f"{result.placement}.")
        lines.append(words.gettext("{mark} **{name}** — {score} points", mark=mark,
                                   name=name_of(names, result.player), score=result.score))
    winners = [name_of(names, r.player) for r in results if r.placement == 1]
    headline = (
        words.gettext("{name} wins!", name=winners[0]) if len(winners) == 1
        else words.gettext("Shared win: {names}!", names=", ".join(winners))
    )
    embed = discord.Embed(title=words.gettext("SPLIT — final result"), colour=COLOUR,
                          description=f"{headline}\n\n" + "\n".join(lines))
    if not sheets:
        embed.set_footer(text=words.gettext("Scores: every sheet, round by round."))
        return embed
    for result in results:
        sheet = sheet_of(view, result.player)
        embed.add_field(
            name=name_of(names, result.player),
            value=fit_lines([sheet_summary(sheet, words),
                             gains_text(round_gains(view, result.player), words)]),
            inline=False,
        )
    return embed
