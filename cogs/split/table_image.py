"""The SPLIT public table as an image, drawn from the public view only.

The input is ``engine.view(state, None)``: it holds no hand, so no hand card can reach the
image (a private view is refused, not drawn).
"""

from __future__ import annotations

from collections.abc import Mapping

from cogs.i18n.messages import N_
from cogs.imaging.layout import Box, Layout
from cogs.imaging.paint import render_png
from cogs.imaging.words import _, marked
from cogs.split import image_parts as parts
from cogs.split.card_face import SplitPainter
from cogs.split.palette import PALETTE
from game.split import SplitView

PANEL_GAP = 12
PICK_NOTE = N_("The card just picked from the row must be used before the discard.")


class PrivateViewRefused(ValueError):
    """The public table was asked to draw a player's view (which holds a hand)."""


def table_layout(view: SplitView, names: Mapping[str, str]) -> Layout:
    if view.viewer is not None or view.hand is not None:
        raise PrivateViewRefused("the public table is drawn from engine.view(state, None)")
    layout = Layout(parts.WIDTH, 0, parts.BACKGROUND)
    y = parts.header(layout, view, names,
                     _("SPLIT · round {round} of {rounds}", round=view.round, rounds=view.rounds))
    y = parts.discard_row(layout, view.row, y=y,
                          note=marked(PICK_NOTE) if view.picked else None,
                          pile_count=view.pile_count)
    columns = 1 if len(view.players) <= 2 else 2
    width = (parts.WIDTH - 2 * parts.MARGIN - (columns - 1) * PANEL_GAP) // columns
    players = view.players
    for start in range(0, len(players), columns):
        line = players[start : start + columns]
        height = max(parts.player_panel_height(view, p, width) for p in line)
        for column, player in enumerate(line):
            box = Box(parts.MARGIN + column * (width + PANEL_GAP), y, width, height)
            parts.player_panel(layout, view, names, player, box)
        y += height + PANEL_GAP
    y = parts.legend(layout, view, y)
    layout.height = y + parts.MARGIN - PANEL_GAP
    return layout


def render_table(view: SplitView, names: Mapping[str, str]) -> bytes:
    """PNG bytes of the public table."""
    return render_png(table_layout(view, names), SplitPainter(), PALETTE)
