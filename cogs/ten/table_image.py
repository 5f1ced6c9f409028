"""The TEN public table as an image: draw pile and odds, the tableau and any auction, the
market by colour and price, and every player's tokens and collection.

Drawn from ``engine.view(state, None)``. TEN hides only the draw pile's order, which no view
holds; a player's view is refused all the same, so the table never depends on who asks.
"""

from __future__ import annotations

from collections.abc import Mapping

from cogs.imaging.layout import Layout
from cogs.imaging.paint import render_png
from cogs.imaging.words import _
from cogs.ten import image_parts as parts
from cogs.ten.card_face import TenPainter
from cogs.ten.palette import PALETTE
from game.ten import TenView


class PrivateViewRefused(ValueError):
    """The public table was asked to draw a player's view."""


def table_layout(view: TenView, names: Mapping[str, str]) -> Layout:
    if view.viewer is not None:
        raise PrivateViewRefused("the public table is drawn from engine.view(state, None)")
    layout = Layout(parts.WIDTH, 0, parts.BACKGROUND)
    y = parts.header(layout, view, names, _("TEN · turn {turn}", turn=view.turn))
    y = parts.tableau(layout, view, names, y)
    y = parts.market(layout, view, y)
    y = parts.players_grid(layout, view, names, view.players, y)
    layout.height = y - parts.GAP + parts.MARGIN
    return layout


def render_table(view: TenView, names: Mapping[str, str]) -> bytes:
    """PNG bytes of the public table."""
    return render_png(table_layout(view, names), TenPainter(), PALETTE)
