"""SPLIT's final picture: every player's score after each of the three rounds, as a chart
(one line per player, told apart by marker shape as well as colour) over a table of the round
gains and totals in final order.

Drawn from the final public view (its round history) and ``engine.results`` (the places).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

from cogs.imaging.layout import RGB, Align, Box, Icon, Label, Layout, Panel, Polyline
from cogs.imaging.paint import render_png
from cogs.imaging.shapes import MARKERS
from cogs.imaging.text_fit import signed
from cogs.imaging.words import _
from cogs.split import image_parts as parts
from cogs.split.card_face import SplitPainter
from game.base import PlayerResult
from game.split import SplitView

# Okabe–Ito colours (distinguishable with common colour blindness), one per seat.
SERIES: tuple[RGB, ...] = (
    (0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (230, 159, 0), (86, 180, 233),
)
CHART_HEIGHT = 330
ROW_HEIGHT = 44
GRID: RGB = (206, 216, 213)
# Table columns: place, marker + name, one per round, total (x offset, width).
COLUMNS: dict[str, tuple[int, int]] = {
    "place": (0, 40), "name": (40, 290), "r1": (330, 100), "r2": (430, 100), "r3": (530, 100),
    "total": (630, 98),
}
TABLE_PADDING = 16


def progression(view: SplitView, player: str) -> list[int]:
    """The player's score before the game and after each finished round."""
    scores = [0]
    for summary in view.history:
        entry = next((p for p in summary.players if p.player == player), None)
        scores.append(entry.score_after if entry is not None else scores[-1])
    return scores


def gains(view: SplitView, player: str) -> list[int]:
    points = progression(view, player)
    return [after - before for before, after in pairwise(points)]


def score_layout(view: SplitView, results: Sequence[PlayerResult],
                 names: Mapping[str, str]) -> Layout:
    layout = Layout(parts.WIDTH, 0, parts.BACKGROUND)
    y = parts.MARGIN
    winners = [parts.name_of(names, r.player) for r in results if r.placement == 1]
    headline = (_("{name} wins", name=winners[0]) if len(winners) == 1
                else _("Shared win: {names}", names=", ".join(winners)))
    parts.text(layout, Box(parts.MARGIN, y, parts.WIDTH - 2 * parts.MARGIN, 44),
               _("SPLIT · final scores"), parts.TITLE_SIZE, bold=True)
    y += 50
    parts.text(layout, Box(parts.MARGIN, y, parts.WIDTH - 2 * parts.MARGIN, 36), headline,
               parts.TEXT_SIZE, bold=True, colour=parts.ACCENT)
    y += 48
    y = _chart(layout, view, y)
    y = _table(layout, view, results, names, y + 16)
    layout.height = y + parts.MARGIN
    return layout


def _nice_step(span: int) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 6:
            return step
    return 2000


def _chart(layout: Layout, view: SplitView, top: int) -> int:
    box = Box(parts.MARGIN, top, parts.WIDTH - 2 * parts.MARGIN, CHART_HEIGHT)
    layout.add(Panel(box, parts.PANEL, parts.PANEL_EDGE))
    plot = Box(box.x + 90, box.y + 24, box.w - 170, box.h - 100)
    series = {player: progression(view, player) for player in view.players}
    values = [v for points in series.values() for v in points]
    step = _nice_step(max(values) - min(values) or 1)
    low = min(0, (min(values) // step) * step)
    high = max(step, -(-max(values) // step) * step)

    def y_of(value: int) -> int:
        return round(plot.bottom - (value - low) * plot.h / (high - low))

    stops = view.rounds + 1
    x_of = [round(plot.x + index * plot.w / (stops - 1)) for index in range(stops)]
    for value in range(low, high + 1, step):
        layout.add(Polyline(((plot.x, y_of(value)), (plot.right, y_of(value))),
                            parts.INK if value == 0 else GRID, width=2))
        layout.add(Label(Box(box.x + 4, y_of(value) - 14, 66, 28), signed(value),
                         parts.SMALL_SIZE, parts.SOFT_INK, align="right"))
    for index, x in enumerate(x_of):
        word = _("start") if index == 0 else _("round {number}", number=index)
        layout.add(Label(Box(x - 60, plot.bottom + 28, 120, 30), word, parts.SMALL_SIZE,
                         parts.SOFT_INK, align="center"))
    for seat, player in enumerate(view.players):
        points = tuple((x_of[i], y_of(v)) for i, v in enumerate(series[player]))
        layout.add(Polyline(points, SERIES[seat % len(SERIES)], width=5,
                            marker=MARKERS[seat % len(MARKERS)]))
    return box.bottom


def _cell(layout: Layout, column: str, y: int, words: str, *, bold: bool = False,
          colour: RGB = parts.INK) -> None:
    x, w = COLUMNS[column]
    align: Align = "left" if column == "name" else "right"
    parts.text(layout, Box(parts.MARGIN + TABLE_PADDING + x, y, w - 8, ROW_HEIGHT - 6), words,
               parts.TEXT_SIZE, bold=bold, colour=colour, align=align)


def _table(layout: Layout, view: SplitView, results: Sequence[PlayerResult],
           names: Mapping[str, str], top: int) -> int:
    height = ROW_HEIGHT * (len(results) + 1) + 20
    layout.add(Panel(Box(parts.MARGIN, top, parts.WIDTH - 2 * parts.MARGIN, height),
                     parts.PANEL, parts.PANEL_EDGE))
    y = top + 10
    for column, words in (("name", _("Player")), ("r1", _("Round {number}", number=1)),
                          ("r2", _("Round {number}", number=2)),
                          ("r3", _("Round {number}", number=3)), ("total", _("Total"))):
        _cell(layout, column, y, words, colour=parts.SOFT_INK)
    for result in results:
        y += ROW_HEIGHT
        seat = view.players.index(result.player)
        _cell(layout, "place", y, f"{result.placement}.", bold=True)
        name_x = parts.MARGIN + TABLE_PADDING + COLUMNS["name"][0]
        layout.add(Icon(Box(name_x, y + 7, 24, 24), MARKERS[seat % len(MARKERS)],
                        colour=SERIES[seat % len(SERIES)]))
        w = COLUMNS["name"][1]
        parts.text(layout, Box(name_x + 34, y, w - 44, ROW_HEIGHT - 6),
                   parts.name_of(names, result.player), parts.TEXT_SIZE, bold=True)
        for index, gain in enumerate(gains(view, result.player)[:3]):
            _cell(layout, f"r{index + 1}", y, f"+{gain}" if gain > 0 else signed(gain))
        _cell(layout, "total", y, signed(result.score), bold=True)
    return top + height


def render_scores(view: SplitView, results: Sequence[PlayerResult],
                  names: Mapping[str, str]) -> bytes:
    """PNG bytes of the final score progression."""
    return render_png(score_layout(view, results, names), SplitPainter())
