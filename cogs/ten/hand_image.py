"""A TEN player's own view as an image: tokens and wealth, the collection by colour with the
cards that score nothing faded and each wild's current place, and, when the player is the one
to act, the tableau and auction (to bid) or the market (to buy).

Drawn from ``engine.view(state, player)``. Cards carry the engine's notation, which the buy
and pay controls use as their values (``R5``), and show it on their faces (letter, number).
"""

from __future__ import annotations

from collections.abc import Mapping

from cogs.imaging.layout import Box, CardSlot, Icon, Layout, Panel
from cogs.imaging.paint import render_png
from cogs.imaging.words import _
from cogs.ten import image_parts as parts
from cogs.ten.card_face import TenPainter
from cogs.ten.palette import PALETTE
from cogs.ten.text import spare_cards
from cogs.ten.wild_notation import card_text
from game.ten import PlayerView, TenView

CAPTION_H = 30


class NotAPlayerView(ValueError):
    """The view is not a seated player's."""


def _me(view: TenView) -> PlayerView:
    for player in view.players:
        if player.player == view.viewer:
            return player
    raise NotAPlayerView("a hand image is drawn from engine.view(state, player)")


def collection_block(layout: Layout, player: PlayerView, y: int) -> int:
    """Big cards by colour, spare ones faded, wilds captioned with their place."""
    width = parts.WIDTH - 2 * parts.MARGIN
    card = parts.BIG_CARD
    per_line = max(1, (width - 24 - 40 + parts.GAP) // (card[0] + parts.GAP))
    groups = parts.collection_groups(player)
    line_heights = []
    for key, notes in groups:
        lines = (len(notes) + per_line - 1) // per_line
        line_heights.append(lines * (card[1] + parts.GAP + (CAPTION_H if key == "W" else 0)))
    height = 12 + 40 + 36 + (sum(line_heights) if groups else 34) + 12
    layout.add(Panel(Box(parts.MARGIN, y, width, height), parts.PANEL, parts.PANEL_EDGE))
    x0, top = parts.MARGIN + 12, y + 12
    spare = spare_cards(player)
    heading = (_("Your collection: {points} · faded cards score nothing",
                 points=parts.points(player.score)) if spare
               else _("Your collection: {points}", points=parts.points(player.score)))
    parts.text(layout, Box(x0, top, width - 24, 36), heading, parts.TEXT_SIZE, bold=True)
    top += 40
    parts.text(layout, Box(x0, top, width - 24, 32), parts.run_words(player),
               parts.SMALL_SIZE, colour=parts.SOFT_INK)
    top += 36
    if not groups:
        parts.text(layout, Box(x0, top, width - 24, 30), _("no cards yet"), parts.SMALL_SIZE,
                   colour=parts.SOFT_INK)
    places = parts.assignment_of(player)
    for (key, notes), line_height in zip(groups, line_heights, strict=True):
        layout.add(Icon(Box(x0, top + 4, 30, 30),
                              "wild" if key == "W" else f"colour:{key}"))
        if key != "W":
            parts.text(layout, Box(x0, top + 38, 34, 30), key, parts.TEXT_SIZE, bold=True)
        step_h = card[1] + parts.GAP + (CAPTION_H if key == "W" else 0)
        for index, note in enumerate(notes):
            faded = note in spare
            if faded:
                spare.remove(note)
            place = places[note].pop(0) if places.get(note) else None
            box = Box(x0 + 40 + (index % per_line) * (card[0] + parts.GAP),
                      top + (index // per_line) * step_h, *card)
            caption = None
            if key == "W":
                caption = f"={place}" if place else _("unused")
            layout.add(CardSlot(box, note, "hand", owner=player.player, dimmed=faded,
                                caption=caption))
            if caption is not None:
                parts.text(layout, Box(box.x - 4, box.bottom + 2, box.w + 8, CAPTION_H - 4),
                           caption, parts.SMALL_SIZE, colour=parts.SOFT_INK, align="center")
        top += line_height
    return y + height + parts.GAP


def hand_layout(view: TenView, names: Mapping[str, str]) -> Layout:
    me = _me(view)
    you = me.player
    layout = Layout(parts.WIDTH, 0, parts.BACKGROUND)
    y = parts.header(layout, view, names, _("Your view · turn {turn}", turn=view.turn),
                     you=you)
    parts.text(layout, Box(parts.MARGIN, y, 300, parts.TOKEN), parts.name_of(names, you),
               28, bold=True)
    parts.tokens(layout, me, parts.MARGIN + 310, y, wealth=True)
    y += parts.TOKEN + 14
    y = collection_block(layout, me, y)
    acting = view.awaiting == you
    if view.phase == "auction" or (view.phase == "draw" and acting):
        y = parts.tableau(layout, view, names, y)
    if acting and view.phase in ("buy", "final buys"):
        y = parts.market(layout, view, y)
    if view.payment is not None and view.payment.payer == you:
        pay = view.payment
        if pay.paying_for == "wild":
            paying = _("You pay {price} for the wild {card}", price=pay.price,
                       card=card_text(pay.card))
        else:
            paying = _("You pay {price} for the card {card}", price=pay.price,
                       card=card_text(pay.card))
        parts.text(layout, Box(parts.MARGIN, y, parts.WIDTH - 2 * parts.MARGIN - 90, 40),
                   paying, parts.TEXT_SIZE, bold=True)
        layout.add(CardSlot(Box(parts.WIDTH - parts.MARGIN - 66, y, *parts.BIG_CARD), pay.card,
                            "paying", highlight=True))
        y += parts.BIG_CARD[1] + parts.GAP
    layout.height = y - parts.GAP + parts.MARGIN
    return layout


def render_hand(view: TenView, names: Mapping[str, str]) -> bytes:
    """PNG bytes of the viewer's own view."""
    return render_png(hand_layout(view, names), TenPainter(), PALETTE)
