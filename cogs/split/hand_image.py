"""A SPLIT player's private hand as an image: their cards, the discard row with the positions
the pick control names, and their own matches and sheet.

Drawn from ``engine.view(state, player)``. The hand cards appear in the view's order (sorted),
each face showing the name the controls use (``Discard 7♥``, ``Match 7♥+7♦``).
"""

from __future__ import annotations

from collections.abc import Mapping

from cogs.i18n.messages import N_
from cogs.imaging.layout import Box, CardSlot, Layout
from cogs.imaging.paint import render_png
from cogs.imaging.words import _, marked, ngettext
from cogs.split import image_parts as parts
from cogs.split.card_face import SplitPainter
from cogs.split.palette import PALETTE
from game.split import SplitView

HAND_CARD = (74, 114)
PICK_NOTE = N_("Marked card: use it in a match or an upgrade before you discard.")


class NotAPlayerView(ValueError):
    """The hand image was asked for a view without a hand (a spectator's or the table's)."""


def hand_layout(view: SplitView, names: Mapping[str, str]) -> Layout:
    if view.viewer is None or view.hand is None:
        raise NotAPlayerView("a hand image is drawn from engine.view(state, player)")
    layout = Layout(parts.WIDTH, 0, parts.BACKGROUND)
    y = parts.header(layout, view, names,
                     _("Your hand · round {round} of {rounds}", round=view.round,
                       rounds=view.rounds), you=view.viewer)
    hand = view.hand
    parts.text(layout, Box(parts.MARGIN, y, parts.WIDTH - 2 * parts.MARGIN, 32),
               ngettext("{name}: {count} card in hand", "{name}: {count} cards in hand",
                        len(hand), name=parts.name_of(names, view.viewer)),
               parts.TEXT_SIZE, bold=True)
    y += 40
    width = parts.WIDTH - 2 * parts.MARGIN
    per_line = max(1, (width + parts.GAP) // (HAND_CARD[0] + parts.GAP))
    picked_index = hand.index(view.picked) if view.picked in hand else None
    for index, card in enumerate(hand):
        box = Box(parts.MARGIN + (index % per_line) * (HAND_CARD[0] + parts.GAP),
                  y + (index // per_line) * (HAND_CARD[1] + parts.GAP), *HAND_CARD)
        layout.add(CardSlot(box, card, "hand", owner=view.viewer,
                            highlight=index == picked_index))
    lines = (len(hand) + per_line - 1) // per_line
    y += lines * (HAND_CARD[1] + parts.GAP) + 8 if hand else 36
    if not hand:
        parts.text(layout, Box(parts.MARGIN, y - 36, width, 30), _("no cards"), parts.SMALL_SIZE,
                   colour=parts.SOFT_INK)
    y = parts.discard_row(layout, view.row, y=y,
                          note=marked(PICK_NOTE) if picked_index is not None else None,
                          pile_count=view.pile_count)
    panel_height = parts.player_panel_height(view, view.viewer, width)
    parts.player_panel(layout, view, names, view.viewer,
                       Box(parts.MARGIN, y, width, panel_height))
    y = parts.legend(layout, view, y + panel_height + 12)
    layout.height = y + parts.MARGIN - 12
    return layout


def render_hand(view: SplitView, names: Mapping[str, str]) -> bytes:
    """PNG bytes of the viewer's hand."""
    return render_png(hand_layout(view, names), SplitPainter(), PALETTE)
