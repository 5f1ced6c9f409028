"""Words and small text blocks shared by the SPLIT table, hand, scores and announcements.

Everything here formats the engine's view models (``game.split.view``); nothing decides a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import discord

from game.split import MatchView, SheetView, SplitView

COLOUR = discord.Colour.dark_teal()
FIELD_LIMIT = 1024
EMBED_TOTAL_LIMIT = 6000
MAX_BOXES = 12  # a rank row holds at most 12 boxes (spec section 7)

STEP_WORDS: dict[str, str] = {
    "take": "take a card (draw, or pick from the discard row)",
    "main": "matches and upgrades, then discard",
    "bonus_perfect": "perfect bonus: choosing who marks a negative box",
    "bonus_strong": "strong bonus: draw a card or skip",
    "bonus_weak": "weak bonus: swap two matches or skip",
}


def name_of(names: Mapping[str, str], player: str | None) -> str:
    if player is None:
        return "—"
    return names.get(player, player)


def status_line(view: SplitView, names: Mapping[str, str]) -> str:
    """Whose input the game waits for, and for what, in public words."""
    if view.step == "game_over":
        return "The game is over."
    if view.step == "laydown":
        waiting = ", ".join(f"**{name_of(names, p)}**" for p in view.laydown_waiting)
        out = name_of(names, view.went_out)
        return f"{out} went out on their first turn. Laying down matches: {waiting}."
    line = f"▶ **{name_of(names, view.turn)}**'s turn — {STEP_WORDS[view.step]}"
    if view.picked is not None:
        line += f"\nThe picked {view.picked} must be used before the discard."
    return line


def row_chunks(row: Sequence[str], *, per_line: int = 10) -> list[str]:
    """The discard row with 1-based positions, as lines of ``per_line`` cards (oldest first)."""
    items = [f"`{pos}` {card}" for pos, card in enumerate(row, start=1)]
    return ["  ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]


def match_text(match: MatchView) -> str:
    text = f"{'|'.join(match.halves)} {match.level}"
    if match.covered:
        text += f" (covers {' '.join(match.covered)})"
    return text


def matches_of(view: SplitView, player: str) -> list[MatchView]:
    return [match for match in view.matches if match.owner == player]


def matches_line(view: SplitView, player: str) -> str:
    mine = matches_of(view, player)
    return " · ".join(match_text(match) for match in mine) if mine else "—"


def sheet_of(view: SplitView, player: str) -> SheetView:
    return next(sheet for sheet in view.sheets if sheet.player == player)


def sheet_summary(sheet: SheetView) -> str:
    """One line: the filled rank rows with their values, the negatives and the total."""
    rows = [f"{rank}×{count}={sheet.row_values[rank]}"
            for rank, count in sheet.boxes.items() if count]
    ranks = " ".join(rows) if rows else "no boxes"
    return (
        f"{ranks} · negatives {sheet.negatives} (−{sheet.negative_value})"
        f" · **{sheet.total}** points"
    )


def sheet_block(sheet: SheetView) -> str:
    """The whole score sheet as a fixed-width block: 13 rank rows, the negative row, total."""
    lines = []
    for rank, count in sheet.boxes.items():
        boxes = "■" * count + "□" * (MAX_BOXES - count)
        lines.append(f"{rank:>2} {boxes} {sheet.row_values[rank]:>3}")
    lines.append(f" − {sheet.negatives} negative box{'es' if sheet.negatives != 1 else ''}"
                 f" {-sheet.negative_value:>4}")
    lines.append(f"   total {sheet.rank_total} − {sheet.negative_value} = {sheet.total}")
    return "```\n" + "\n".join(lines) + "\n```"


def round_gains(view: SplitView, player: str) -> list[int]:
    gains = []
    for summary in view.history:
        entry = next((p for p in summary.players if p.player == player), None)
        gains.append(entry.gained if entry is not None else 0)
    return gains


def gains_text(gains: Sequence[int]) -> str:
    if not gains:
        return "no round finished yet"
    return ", ".join(f"round {n}: {gain:+d}" for n, gain in enumerate(gains, start=1))


def fit_lines(lines: Iterable[str], limit: int = FIELD_LIMIT, *, keep: str = "last") -> str:
    """Join ``lines`` with newlines, dropping whole lines (the oldest when ``keep='last'``)
    until the text fits ``limit``."""
    kept = list(lines)
    while kept and len("\n".join(kept)) > limit:
        kept.pop(0 if keep == "last" else -1)
    text = "\n".join(kept)
    return text if text else "—"


def add_chunked_field(embed: discord.Embed, name: str, lines: Sequence[str]) -> None:
    """Add ``lines`` as one field, continued in further fields when it exceeds 1024 chars."""
    chunk: list[str] = []
    first = True
    for line in lines:
        if chunk and len("\n".join([*chunk, line])) > FIELD_LIMIT:
            embed.add_field(name=name if first else f"{name} (cont.)",
                            value="\n".join(chunk), inline=False)
            chunk, first = [], False
        chunk.append(line[:FIELD_LIMIT])
    embed.add_field(name=name if first else f"{name} (cont.)",
                    value="\n".join(chunk) if chunk else "—", inline=False)
