"""Words and small text blocks shared by the SPLIT table, hand, scores and announcements.

Everything here formats the engine's view models (``game.split.view``); nothing decides a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import discord

from cogs.i18n.messages import N_, Message
from cogs.i18n.words import Words
from cogs.split.labels import level_word
from game.split import MatchView, SheetView, SplitView

COLOUR = discord.Colour.dark_teal()
FIELD_LIMIT = 1024
EMBED_TOTAL_LIMIT = 6000
MAX_BOXES = 12  # a rank row holds at most 12 boxes (spec section 7)

# What the turn player does now (the private view's waiting text).
STEP_WORDS: dict[str, Message] = {
    "take": N_("taking a card from the draw pile or the discard row"),
    "main": N_("matches and upgrades, then a discard"),
    "bonus_perfect": N_("perfect bonus: choosing who marks a negative box"),
    "bonus_strong": N_("strong bonus: drawing a card or skipping"),
    "bonus_weak": N_("weak bonus: swapping two matches or skipping"),
}


def name_of(names: Mapping[str, str], player: str | None) -> str:
    if player is None:
        return "—"
    return names.get(player, player)


def row_chunks(row: Sequence[str], *, per_line: int = 10) -> list[str]:
    """The discard row with 1-based positions, as lines of ``per_line`` cards (oldest first)."""
    items = [f"`{pos}` {card}" for pos, card in enumerate(row, start=1)]
    return ["  ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]


def match_text(match: MatchView, words: Words) -> str:
    text = f"{'|'.join(match.halves)} {level_word(words, match.level)}"
    if match.covered:
        text = words.gettext("{match} (covers {cards})", match=text,
                             cards=" ".join(match.covered))
    return text


def matches_of(view: SplitView, player: str) -> list[MatchView]:
    return [match for match in view.matches if match.owner == player]


def matches_line(view: SplitView, player: str, words: Words) -> str:
    mine = matches_of(view, player)
    return " · ".join(match_text(match, words) for match in mine) if mine else "—"


def sheet_of(view: SplitView, player: str) -> SheetView:
    return next(sheet for sheet in view.sheets if sheet.player == player)


def sheet_summary(sheet: SheetView, words: Words) -> str:
    """One line: the filled rank rows with their values, the negatives and the total."""
    rows = [f"{rank}×{count}={sheet.row_values[rank]}"
            for rank, count in sheet.boxes.items() if count]
    ranks = " ".join(rows) if rows else words.gettext("no boxes")
    return words.gettext("{ranks} · negatives {negatives} (−{value}) · **{total}** points",
                         ranks=ranks, negatives=sheet.negatives, value=sheet.negative_value,
                         total=sheet.total)


def sheet_block(sheet: SheetView, words: Words) -> str:
    """The whole score sheet as a fixed-width block: 13 rank rows, the negative row, total."""
    lines = []
    for rank, count in sheet.boxes.items():
        boxes = "■" * count + "□" * (MAX_BOXES - count)
        lines.append(f"{rank:>2} {boxes} {sheet.row_values[rank]:>3}")
    negatives = words.ngettext("{count} negative box", "{count} negative boxes",
                               sheet.negatives)
    lines.append(f" − {negatives} {-sheet.negative_value:>4}")
    lines.append("   " + words.gettext("total {ranks} − {negatives} = {total}",
                                       ranks=sheet.rank_total, negatives=sheet.negative_value,
                                       total=sheet.total))
    return "```\n" + "\n".join(lines) + "\n```"


def round_gains(view: SplitView, player: str) -> list[int]:
    gains = []
    for summary in view.history:
        entry = next((p for p in summary.players if p.player == player), None)
        gains.append(entry.gained if entry is not None else 0)
    return gains


def gains_text(gains: Sequence[int], words: Words) -> str:
    if not gains:
        return words.gettext("no round finished yet")
    signed = [f"{gain:+d}" for gain in gains]
    return ", ".join(words.gettext("round {round}: {gain}", round=n, gain=gain)
                     for n, gain in enumerate(signed, start=1))


def fit_lines(lines: Iterable[str], limit: int = FIELD_LIMIT, *, keep: str = "last") -> str:
    """Join ``lines`` with newlines, dropping whole lines (the oldest when ``keep='last'``)
    until the text fits ``limit``."""
    kept = list(lines)
    while kept and len("\n".join(kept)) > limit:
        kept.pop(0 if keep == "last" else -1)
    text = "\n".join(kept)
    return text if text else "—"
