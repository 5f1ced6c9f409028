"""Pieces shared by the SPLIT images: sizes, colours, the header, the discard row, matches.

Each piece adds items to a :class:`~cogs.imaging.layout.Layout` from the engine's view model
and returns the next free y coordinate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cogs.i18n.common_words import DONE_LAYING_DOWN
from cogs.i18n.messages import N_, Message
from cogs.imaging.layout import RGB, Align, Box, CardSlot, Icon, Layout, Panel
from cogs.imaging.text_fit import display_name, fitted_label, signed
from cogs.imaging.words import _, marked
from game.split import MatchView, SheetView, SplitView

WIDTH = 800
MARGIN = 20
BACKGROUND: RGB = (232, 240, 238)
PANEL: RGB = (250, 252, 251)
PANEL_EDGE: RGB = (196, 210, 206)
TURN_PANEL_EDGE: RGB = (20, 110, 118)
INK: RGB = (26, 30, 34)
SOFT_INK: RGB = (84, 92, 100)
ACCENT: RGB = (20, 110, 118)
TITLE_SIZE = 34
TEXT_SIZE = 26
SMALL_SIZE = 24  # the smallest text: 12 px on a phone showing the image 400 px wide
ROW_CARD = (64, 100)
MATCH_CARD = (54, 84)
COVERED_CARD = (40, 62)
GAP = 10

STEP_WORDS: dict[str, Message] = {
    "take": N_("taking a card from the pile or the row"),
    "main": N_("matches and upgrades, then a discard"),
    "bonus_perfect": N_("perfect bonus: choosing who marks a negative box"),
    "bonus_strong": N_("strong bonus: drawing a card or skipping"),
    "bonus_weak": N_("weak bonus: swapping two matches or skipping"),
}
LEVEL_WORDS: dict[str, Message] = {
    "perfect": N_("perfect"), "strong": N_("strong"), "weak": N_("weak"),
}


name_of = display_name


def text(layout: Layout, box: Box, words: str, size: int = TEXT_SIZE, *, colour: RGB = INK,
         bold: bool = False, align: Align = "left") -> None:
    """Add a label of ``words`` fitted to ``box`` (shrunk down to the smallest size, then
    shortened)."""
    layout.add(fitted_label(box, words, size, colour, min_size=SMALL_SIZE, bold=bold,
                            align=align))


def status_words(view: SplitView, names: Mapping[str, str], you: str | None = None) -> str:
    """Whose move it is and what it is; ``you`` (a viewer) reads "Your turn"."""
    if view.step == "game_over":
        return _("The game is over.")
    if view.step == "laydown":
        if you is not None and you in view.laydown_waiting:
            return _("You may lay down matches, then press {done_button}.",
                     done_button=marked(DONE_LAYING_DOWN))
        waiting = ", ".join(name_of(names, p) for p in view.laydown_waiting)
        return _("{name} went out at once; laying down: {waiting}",
                 name=name_of(names, view.went_out), waiting=waiting)
    step = STEP_WORDS.get(view.step)
    what = marked(step) if step is not None else view.step
    if you is not None and view.turn == you:
        return _("Your turn: {step}", step=what)
    return _("{name}: {step}", name=name_of(names, view.turn), step=what)


def header(layout: Layout, view: SplitView, names: Mapping[str, str], title: str,
           you: str | None = None) -> int:
    """Title, round and dealer, and whose move it is; returns the next y."""
    y = MARGIN
    text(layout, Box(MARGIN, y, 460, 44), title, TITLE_SIZE, bold=True)
    text(layout, Box(WIDTH - MARGIN - 280, y, 280, 44),
         _("Dealer: {name}", name=name_of(names, view.dealer)), TEXT_SIZE, colour=SOFT_INK,
         align="right")
    y += 52
    layout.add(Icon(Box(MARGIN, y + 6, 26, 26), "turn", colour=ACCENT))
    text(layout, Box(MARGIN + 36, y, WIDTH - 2 * MARGIN - 36, 38), status_words(view, names, you),
         TEXT_SIZE, bold=True)
    return y + 46


def discard_row(layout: Layout, row: Sequence[str], *, y: int, note: str | None,
                pile_count: int | None) -> int:
    """The draw pile (when given) and the discard row, each card under its 1-based position
    (oldest first: the positions the pick controls name). Returns the next y."""
    x = MARGIN
    width = WIDTH - 2 * MARGIN
    if pile_count is not None:
        text(layout, Box(x, y, ROW_CARD[0] + 20, 30), _("Pile"), SMALL_SIZE, colour=SOFT_INK)
        layout.add(Icon(Box(x, y + 34, ROW_CARD[0] + 8, ROW_CARD[1]), "pile", str(pile_count)))
        x += ROW_CARD[0] + 8 + 24
        width -= ROW_CARD[0] + 8 + 24
    if len(row) > 1:
        title = _("Discard row ({count}): 1 = oldest, {count} = newest", count=len(row))
    else:
        title = _("Discard row: one card") if row else _("Discard row: empty")
    text(layout, Box(x, y, width, 30), title, SMALL_SIZE, colour=SOFT_INK)
    y += 34
    step = (ROW_CARD[0] + GAP)
    per_line = max(1, (width + GAP) // step)
    line_height = 28 + ROW_CARD[1] + GAP
    for index, card in enumerate(row):
        cx = x + (index % per_line) * step
        cy = y + (index // per_line) * line_height
        text(layout, Box(cx, cy, ROW_CARD[0], 26), str(index + 1), SMALL_SIZE, colour=ACCENT,
             bold=True, align="center")
        layout.add(CardSlot(Box(cx, cy + 28, *ROW_CARD), card, "row", number=index + 1))
    lines = (len(row) + per_line - 1) // per_line
    used = lines * line_height if row else 0
    bottom = y + max(used, ROW_CARD[1] + GAP if pile_count is not None else 0)
    if note is not None:
        text(layout, Box(MARGIN, bottom, WIDTH - 2 * MARGIN, 32), note, SMALL_SIZE,
             colour=SOFT_INK)
        bottom += 36
    return bottom + 6


def match_width(match: MatchView) -> int:
    covered = len(match.covered)
    return 2 * MATCH_CARD[0] + (covered * (COVERED_CARD[0] + 4) + 6 if covered else 0)


MATCH_HEIGHT = MATCH_CARD[1] + 30


def place_match(layout: Layout, match: MatchView, x: int, y: int, *, highlight: bool) -> None:
    """The two halves side by side as one card, its level under it, covered halves beside."""
    w, h = MATCH_CARD
    layout.add(CardSlot(Box(x, y, w, h), match.halves[0], "match", owner=match.owner,
                        side="left", highlight=highlight, number=match.id))
    layout.add(CardSlot(Box(x + w, y, w, h), match.halves[1], "match", owner=match.owner,
                        side="right", highlight=highlight, number=match.id))
    level = LEVEL_WORDS.get(match.level)
    text(layout, Box(x, y + h + 2, 2 * w, 26), marked(level) if level else match.level,
         SMALL_SIZE, colour=SOFT_INK, align="center")
    cx = x + 2 * w + 6
    for card in match.covered:
        layout.add(CardSlot(Box(cx, y + h - COVERED_CARD[1], *COVERED_CARD), card, "covered",
                            owner=match.owner, dimmed=True, number=match.id))
        cx += COVERED_CARD[0] + 4


def match_lines(matches: Sequence[MatchView], width: int) -> list[list[MatchView]]:
    lines: list[list[MatchView]] = [[]]
    used = 0
    for match in matches:
        need = match_width(match)
        if lines[-1] and used + GAP + need > width:
            lines.append([])
            used = 0
        used += need + (GAP if lines[-1] else 0)
        lines[-1].append(match)
    return lines if lines[0] else []


def matches_height(matches: Sequence[MatchView], width: int) -> int:
    lines = match_lines(matches, width)
    return len(lines) * (MATCH_HEIGHT + GAP) if lines else 30


def place_matches(layout: Layout, matches: Sequence[MatchView], box: Box,
                  highlight: int | None) -> None:
    lines = match_lines(matches, box.w)
    if not lines:
        text(layout, Box(box.x, box.y, box.w, 28), _("no matches"), SMALL_SIZE,
             colour=SOFT_INK)
        return
    y = box.y
    for line in lines:
        x = box.x
        for match in line:
            place_match(layout, match, x, y, highlight=match.id == highlight)
            x += match_width(match) + GAP
        y += MATCH_HEIGHT + GAP


def sheet_line(sheet: SheetView) -> str:
    return _("Sheet {ranks} − {negatives} = {total} ({count} neg.)", ranks=sheet.rank_total,
             negatives=sheet.negative_value, total=signed(sheet.total), count=sheet.negatives)


def rows_line(sheet: SheetView) -> str:
    rows = [f"{rank}×{count}" for rank, count in sheet.boxes.items() if count]
    return _("Rows: {rows}", rows=" ".join(rows)) if rows else _("Rows: none yet")


COVERED_NOTE = N_("Small grey cards: halves covered by an upgrade (out of play).")


def legend(layout: Layout, view: SplitView, y: int) -> int:
    """A line explaining the covered halves, when any are shown; returns the next y."""
    if not any(match.covered for match in view.matches):
        return y
    text(layout, Box(MARGIN, y, WIDTH - 2 * MARGIN, 30), marked(COVERED_NOTE), SMALL_SIZE,
         colour=SOFT_INK)
    return y + 36


def sheet_of(view: SplitView, player: str) -> SheetView:
    return next(sheet for sheet in view.sheets if sheet.player == player)


def player_panel_height(view: SplitView, player: str, width: int) -> int:
    mine = [m for m in view.matches if m.owner == player]
    return 12 + 40 + 32 + 32 + 8 + matches_height(mine, width - 24) + 4


def player_panel(layout: Layout, view: SplitView, names: Mapping[str, str], player: str,
                 box: Box) -> None:
    """Name (turn marker, dealer), hand size, the sheet in short and the player's matches."""
    acting = player == view.turn or player in view.laydown_waiting
    layout.add(Panel(box, PANEL, TURN_PANEL_EDGE if acting else PANEL_EDGE,
                     width=4 if acting else 2))
    x, y, w = box.x + 12, box.y + 12, box.w - 24
    name_x = x
    if acting:
        layout.add(Icon(Box(x, y + 8, 24, 24), "turn", colour=ACCENT))
        name_x += 32
    count = view.hand_counts[player]
    hand = _("{count} in hand", count=count)
    hand_w = 110
    name = name_of(names, player)
    shown = _("{name} (dealer)", name=name) if player == view.dealer else name
    text(layout, Box(name_x, y, x + w - hand_w - name_x - 8, 40), shown, 28, bold=True)
    text(layout, Box(x + w - hand_w, y, hand_w, 40), hand, SMALL_SIZE, colour=SOFT_INK,
         align="right")
    y += 40
    sheet = sheet_of(view, player)
    text(layout, Box(x, y, w, 30), sheet_line(sheet), SMALL_SIZE)
    y += 32
    text(layout, Box(x, y, w, 30), rows_line(sheet), SMALL_SIZE, colour=SOFT_INK)
    y += 40
    mine = [m for m in view.matches if m.owner == player]
    place_matches(layout, mine, Box(x, y, w, box.bottom - y), view.bonus_match)
