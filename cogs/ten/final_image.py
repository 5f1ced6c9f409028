"""TEN's final picture: each player in final order with their points and how the place was
decided, tokens, every scoring run laid out number by number (a wild standing in a run is
captioned with the place it takes: ``=R5``), and the cards that scored nothing.

Drawn from the final public view (runs and wild assignment per player) and
``engine.results`` (places and tie-breaks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cogs.i18n.messages import N_, Message
from cogs.imaging.layout import Box, CardSlot, Icon, Layout, Panel
from cogs.imaging.paint import render_png
from cogs.imaging.words import _, marked
from cogs.ten import image_parts as parts
from cogs.ten.card_face import TenPainter
from cogs.ten.text import spare_cards
from game.base import PlayerResult
from game.ten import PlayerView, RunView, TenView

CARD = (48, 70)
CAPTION_H = 30
RUN_HEAD = 40
RUN_POINTS = 56
RUN_GAP = 18
LINE_H = CARD[1] + CAPTION_H + 8
SPARE_HEAD = 190
DECIDED_BY: dict[str, Message] = {
    "score": N_("on points"),
    "currency tokens": N_("tie broken by currency tokens"),
    "fewest cards": N_("tie broken by fewest cards"),
    "shared": N_("shared place"),
}


def _run_width(run: RunView) -> int:
    return RUN_HEAD + len(run.cards) * (CARD[0] + parts.GAP) + RUN_POINTS


def _run_lines(player: PlayerView, width: int) -> list[list[RunView]]:
    lines: list[list[RunView]] = []
    used = width
    for run in (r for r in player.runs if r.points):
        need = _run_width(run)
        if lines and used + RUN_GAP + need <= width:
            lines[-1].append(run)
            used += RUN_GAP + need
        else:
            lines.append([run])
            used = need
    return lines


def _spare_height(player: PlayerView, width: int) -> int:
    spare = spare_cards(player)
    if not spare:
        return 0
    per_line = max(1, (width - SPARE_HEAD + parts.GAP) // (CARD[0] + parts.GAP))
    return ((len(spare) + per_line - 1) // per_line) * (CARD[1] + parts.GAP) + 8


def _panel_height(player: PlayerView, width: int) -> int:
    lines = _run_lines(player, width) or [[]]
    return 12 + 44 + parts.TOKEN + 14 + len(lines) * LINE_H + _spare_height(player, width) + 8


def _run(layout: Layout, player: PlayerView, run: RunView, x: int, y: int,
         places: dict[str, list[str]]) -> None:
    layout.add(Icon(Box(x, y + 4, 28, 28), f"colour:{run.colour}"))
    parts.text(layout, Box(x, y + 36, 34, 30), run.colour, parts.SMALL_SIZE, bold=True)
    for index, (number, note) in enumerate(zip(range(run.start, run.end + 1), run.cards,
                                               strict=True)):
        cx = x + RUN_HEAD + index * (CARD[0] + parts.GAP)
        is_wild = note[0] == "W" or note[1] == "#"
        place = None
        if is_wild and places.get(note):
            place = places[note].pop(0)
        box = Box(cx, y, *CARD)
        layout.add(CardSlot(box, note, "run", number=number, owner=player.player,
                            caption=f"={place}" if place else None))
        if place:
            parts.text(layout, Box(cx - 6, box.bottom + 2, CARD[0] + 12, CAPTION_H - 4),
                       f"={place}", parts.SMALL_SIZE, colour=parts.ACCENT, bold=True,
                       align="center")
    points_x = x + RUN_HEAD + len(run.cards) * (CARD[0] + parts.GAP)
    parts.text(layout, Box(points_x, y, RUN_POINTS, CARD[1]), f"= {run.points}",
               parts.TEXT_SIZE, bold=True, align="left")


def _panel(layout: Layout, player: PlayerView, result: PlayerResult, names: Mapping[str, str],
           box: Box) -> None:
    winner = result.placement == 1
    layout.add(Panel(box, parts.PANEL, parts.ACTIVE_EDGE if winner else parts.PANEL_EDGE,
                     width=4 if winner else 2))
    x, y, w = box.x + 12, box.y + 12, box.w - 24
    how = DECIDED_BY.get(str(result.breakdown.get("decided_by")))
    decided = marked(how) if how is not None else ""
    parts.text(layout, Box(x, y, w - 130, 40),
               f"{result.placement}. {parts.name_of(names, player.player)}", 30, bold=True)
    parts.text(layout, Box(x + w - 120, y, 120, 40), parts.points(result.score), 30,
               bold=True, colour=parts.ACCENT, align="right")
    y += 44
    parts.tokens(layout, player, x, y, wealth=False)
    parts.text(layout, Box(x + 300, y, w - 300, parts.TOKEN), decided, parts.SMALL_SIZE,
               colour=parts.SOFT_INK, align="right")
    y += parts.TOKEN + 14
    places = parts.assignment_of(player)
    lines = _run_lines(player, w)
    if not lines:
        parts.text(layout, Box(x, y, w, 30), _("no scoring run"), parts.SMALL_SIZE,
                   colour=parts.SOFT_INK)
    for line in lines:
        rx = x
        for run in line:
            _run(layout, player, run, rx, y, places)
            rx += _run_width(run) + RUN_GAP
        y += LINE_H
    if not lines:
        y += LINE_H
    spare = spare_cards(player)
    if spare:
        parts.text(layout, Box(x, y + CARD[1] // 2 - 16, SPARE_HEAD - 10, 32),
                   _("scored nothing:"), parts.SMALL_SIZE, colour=parts.SOFT_INK)
        per_line = max(1, (w - SPARE_HEAD + parts.GAP) // (CARD[0] + parts.GAP))
        for index, note in enumerate(spare):
            slot = Box(x + SPARE_HEAD + (index % per_line) * (CARD[0] + parts.GAP),
                       y + (index // per_line) * (CARD[1] + parts.GAP), *CARD)
            layout.add(CardSlot(slot, note, "spare", owner=player.player, dimmed=True))


def final_layout(view: TenView, results: Sequence[PlayerResult],
                 names: Mapping[str, str]) -> Layout:
    layout = Layout(parts.WIDTH, 0, parts.BACKGROUND)
    y = parts.MARGIN
    parts.text(layout, Box(parts.MARGIN, y, parts.WIDTH - 2 * parts.MARGIN, 44),
               _("TEN · final scores"), parts.TITLE_SIZE, bold=True)
    y += 52
    by_player = {player.player: player for player in view.players}
    width = parts.WIDTH - 2 * parts.MARGIN
    for result in results:
        player = by_player[result.player]
        height = _panel_height(player, width - 24)
        _panel(layout, player, result, names, Box(parts.MARGIN, y, width, height))
        y += height + parts.GAP
    layout.height = y - parts.GAP + parts.MARGIN
    return layout


def render_final(view: TenView, results: Sequence[PlayerResult],
                 names: Mapping[str, str]) -> bytes:
    """PNG bytes of the final collections."""
    return render_png(final_layout(view, results, names), TenPainter())
