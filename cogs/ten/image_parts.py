"""Pieces shared by the TEN images: sizes, colours, the header, tableau, auction, market and
collections. Each piece adds items to a layout from ``TenView`` and returns the next y."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cogs.i18n.messages import N_, Message
from cogs.imaging.layout import RGB, Align, Box, CardSlot, Icon, Layout, Panel
from cogs.imaging.text_fit import display_name, fitted_label, signed
from cogs.imaging.words import _, marked, ngettext
from cogs.ten.text import draw_choices
from cogs.ten.wild_notation import card_text
from game.ten import BUST_TOKEN_VALUE, COLOURS, PlayerView, TenView

WIDTH = 800
MARGIN = 20
GAP = 8
BACKGROUND: RGB = (244, 238, 228)
PANEL: RGB = (255, 253, 249)
PANEL_EDGE: RGB = (214, 204, 188)
ACTIVE_EDGE: RGB = (200, 120, 20)
INK: RGB = (30, 30, 34)
SOFT_INK: RGB = (96, 90, 84)
ACCENT: RGB = (176, 92, 0)
TITLE_SIZE = 34
TEXT_SIZE = 26
SMALL_SIZE = 24
BIG_CARD = (66, 96)
SMALL_CARD = (46, 64)
TOKEN = 36


name_of = display_name
NO_CARD_OF: dict[str, Message] = {
    "R": N_("no red card"), "B": N_("no blue card"), "O": N_("no orange card"),
    "G": N_("no green card"),
}


def text(layout: Layout, box: Box, words: str, size: int = TEXT_SIZE, *, colour: RGB = INK,
         bold: bool = False, align: Align = "left") -> None:
    """Add a label of ``words`` fitted to ``box`` (shrunk down to the smallest size, then
    shortened)."""
    layout.add(fitted_label(box, words, size, colour, min_size=SMALL_SIZE, bold=bold,
                            align=align))


def points(score: int) -> str:
    return ngettext("{count} pt", "{count} pts", score)


def situation(view: TenView, names: Mapping[str, str], you: str | None = None) -> str:
    """What the table waits for, in a few words (``you``: the viewer reads "Your turn")."""

    def mine(player: str | None) -> bool:
        return you is not None and player == you

    if view.phase == "draw":
        may_flip, may_stop = draw_choices(view)
        if mine(view.active):
            if not may_stop:
                return _("Your turn: flip a card")
            if not may_flip:
                return _("Your turn: stop (the draw pile is empty)")
            return _("Your turn: flip again or stop")
        name = name_of(names, view.active)
        if not may_stop:
            return _("{name} flips a card", name=name)
        if not may_flip:
            return _("{name} must stop: the draw pile is empty", name=name)
        return _("{name} flips again or stops", name=name)
    if view.phase == "auction" and view.auction is not None:
        if mine(view.auction.to_bid):
            return _("Auction: your bid")
        return _("Auction: {name} to bid", name=name_of(names, view.auction.to_bid))
    if view.phase == "payment" and view.payment is not None:
        pay = view.payment
        if mine(pay.payer):
            if pay.paying_for == "wild":
                return _("Your turn: pay {price} for the wild", price=pay.price)
            return _("Your turn: pay {price} for the {card}", price=pay.price,
                     card=card_text(pay.card))
        if pay.paying_for == "wild":
            return _("{name} pays {price} for the wild", name=name_of(names, pay.payer),
                     price=pay.price)
        return _("{name} pays {price} for the {card}", name=name_of(names, pay.payer),
                 price=pay.price, card=card_text(pay.card))
    if view.phase == "buy":
        if mine(view.buyer):
            return _("Your turn: buy one market card or skip")
        return _("{name} may buy a market card or skip", name=name_of(names, view.buyer))
    if view.phase == "final buys":
        if mine(view.buyer):
            return _("Final buys: your turn")
        return _("Final buys: {name} now", name=name_of(names, view.buyer))
    return _("The game is over.")


def header(layout: Layout, view: TenView, names: Mapping[str, str], title: str,
           you: str | None = None) -> int:
    y = MARGIN
    text(layout, Box(MARGIN, y, 440, 44), title, TITLE_SIZE, bold=True)
    if view.pile_size:
        chance = f"{view.bust_chance:.0%}"
        pile = _("Pile {count} · next flip busts {chance}", count=view.pile_size, chance=chance)
    else:
        pile = _("Pile empty: last card flipped")
    text(layout, Box(WIDTH - MARGIN - 320, y, 320, 44), pile, SMALL_SIZE, colour=SOFT_INK,
         align="right")
    y += 52
    layout.add(Icon(Box(MARGIN, y + 6, 26, 26), "turn", colour=ACCENT))
    text(layout, Box(MARGIN + 36, y, WIDTH - 2 * MARGIN - 36, 38), situation(view, names, you),
         TEXT_SIZE, bold=True)
    return y + 48


def tableau(layout: Layout, view: TenView, names: Mapping[str, str], y: int) -> int:
    """The flipped cards in order with the running total and currency, and the auction."""
    width = WIDTH - 2 * MARGIN
    cards = view.tableau
    per_line = max(1, (width - 24 + GAP) // (BIG_CARD[0] + GAP))
    lines = (len(cards) + per_line - 1) // per_line
    height = 12 + 36 + (lines * (BIG_CARD[1] + GAP) if cards else 34) + 8
    auction_lines = _auction_words(view, names)
    if auction_lines:
        height += max(BIG_CARD[1], 46 + 36 * len(auction_lines)) + 8
    layout.add(Panel(Box(MARGIN, y, width, height), PANEL, PANEL_EDGE))
    x0, top = MARGIN + 12, y + 12
    text(layout, Box(x0, top, width - 24, 32),
         _("Tableau: total {total} · currency {currency}", total=signed(view.running_total),
           currency=view.tableau_currency),
         TEXT_SIZE, bold=True)
    top += 38
    if not cards:
        text(layout, Box(x0, top, width - 24, 30), _("no card flipped yet"), SMALL_SIZE,
             colour=SOFT_INK)
    for index, note in enumerate(cards):
        box = Box(x0 + (index % per_line) * (BIG_CARD[0] + GAP),
                  top + (index // per_line) * (BIG_CARD[1] + GAP), *BIG_CARD)
        layout.add(CardSlot(box, note, "tableau", number=index + 1))
    top += (lines * (BIG_CARD[1] + GAP) if cards else 34) + 4
    if auction_lines and view.auction is not None:
        layout.add(CardSlot(Box(x0, top, *BIG_CARD), view.auction.wild, "auction",
                            highlight=True))
        text(layout, Box(x0 + BIG_CARD[0] + 16, top + 8, width - BIG_CARD[0] - 40, 34),
             _("Auction for the wild {card}", card=card_text(view.auction.wild)), TEXT_SIZE,
             bold=True)
        for index, words in enumerate(auction_lines):
            text(layout, Box(x0 + BIG_CARD[0] + 16, top + 46 + index * 36,
                             width - BIG_CARD[0] - 40, 32), words, SMALL_SIZE)
    return y + height + GAP


def _auction_words(view: TenView, names: Mapping[str, str]) -> list[str]:
    auction = view.auction
    if auction is None:
        return []
    high = (_("High bid {bid} by {name}", bid=auction.high_bid,
              name=name_of(names, auction.high_bidder))
            if auction.high_bidder is not None else _("No bid yet"))
    if auction.to_bid is None:
        return [_("{high}: bidding is over", high=high)]
    later = ", ".join(name_of(names, p) for p in auction.still_to_bid[1:])
    first = name_of(names, auction.to_bid)
    order = (_("To bid: {name}, then {later}", name=first, later=later) if later
             else _("To bid: {name} (last)", name=first))
    return [high, order]


def market(layout: Layout, view: TenView, y: int, *, group: str = "market") -> int:
    """Cards for sale by colour (letter and symbol head each row), by price; ``×2`` under a
    card with copies."""
    width = WIDTH - 2 * MARGIN
    column_w = (width - GAP) // 2
    inner = column_w - 24 - 40
    per_line = max(1, (inner + GAP) // (SMALL_CARD[0] + GAP))
    cell_h = SMALL_CARD[1] + 30

    def rows_of(colour: str) -> int:
        count = len(view.market.get(colour, []))
        return max(1, (count + per_line - 1) // per_line)

    pairs = [COLOURS[0:2], COLOURS[2:4]]
    heights = [max(rows_of(c) for c in pair) * (cell_h + 4) for pair in pairs]
    height = 12 + 36 + sum(heights) + 8
    layout.add(Panel(Box(MARGIN, y, width, height), PANEL, PANEL_EDGE))
    text(layout, Box(MARGIN + 12, y + 12, width - 24, 32), _("Market: price = number"),
         TEXT_SIZE, bold=True)
    top = y + 12 + 36
    for pair, pair_height in zip(pairs, heights, strict=True):
        for column, colour in enumerate(pair):
            x = MARGIN + 12 + column * (column_w + GAP)
            layout.add(Icon(Box(x, top + 4, 26, 26), f"colour:{colour}"))
            text(layout, Box(x, top + 32, 34, 30), colour, SMALL_SIZE, bold=True)
            on_sale = view.market.get(colour, [])
            if not on_sale:
                text(layout, Box(x + 40, top + 14, inner, 30),
                     marked(NO_CARD_OF[colour]), SMALL_SIZE, colour=SOFT_INK)
            for index, card in enumerate(on_sale):
                box = Box(x + 40 + (index % per_line) * (SMALL_CARD[0] + GAP),
                          top + (index // per_line) * (cell_h + 4), *SMALL_CARD)
                layout.add(CardSlot(box, card.card, group, number=card.price,
                                    caption=f"×{card.copies}" if card.copies > 1 else None))
                if card.copies > 1:
                    text(layout, Box(box.x - 4, box.bottom + 2, box.w + 8, 26),
                         f"×{card.copies}", SMALL_SIZE, colour=SOFT_INK, align="center")
        top += pair_height
    return y + height + GAP


def tokens(layout: Layout, player: PlayerView, x: int, y: int, *, wealth: bool) -> None:
    """Currency and bust tokens (and the wealth a bid may reach)."""
    layout.add(Icon(Box(x, y, TOKEN, TOKEN), "coin", "1"))
    text(layout, Box(x + TOKEN + 6, y, 56, TOKEN), f"×{player.currency}", TEXT_SIZE, bold=True)
    x += TOKEN + 66
    layout.add(Icon(Box(x, y - 2, TOKEN + 4, TOKEN + 4), "bust", str(BUST_TOKEN_VALUE)))
    text(layout, Box(x + TOKEN + 10, y, 56, TOKEN), f"×{player.bust_tokens}", TEXT_SIZE,
         bold=True)
    if wealth:
        total = player.currency + BUST_TOKEN_VALUE * player.bust_tokens
        text(layout, Box(x + TOKEN + 70, y, 220, TOKEN), _("wealth {total}", total=total),
             TEXT_SIZE,
             colour=SOFT_INK)


def collection_groups(player: PlayerView) -> list[tuple[str, list[str]]]:
    """(colour letter or ``W`` for wilds, cards) in display order, non-empty groups only."""
    groups: dict[str, list[str]] = {colour: [] for colour in (*COLOURS, "W")}
    for note in player.collection:
        key = "W" if note[1] == "#" or note[0] == "W" else note[0]
        groups[key].append(note)
    return [(key, notes) for key, notes in groups.items() if notes]


GROUP_HEAD = 36  # a group's symbol and letter, left of its cards
GROUP_GAP = 16


def _group_blocks(player: PlayerView, width: int,
                  card: tuple[int, int]) -> list[tuple[str, list[str], int, int]]:
    """(group key, cards, x, y) blocks: the colour groups side by side while they fit in
    ``width``, a long group split over several lines."""
    per_line = max(1, (width - GROUP_HEAD + GAP) // (card[0] + GAP))
    blocks: list[tuple[str, list[str], int, int]] = []
    x = y = 0
    for key, notes in collection_groups(player):
        for start in range(0, len(notes), per_line):
            part = notes[start : start + per_line]
            need = GROUP_HEAD + len(part) * (card[0] + GAP) - GAP
            if x and x + need > width:
                x, y = 0, y + card[1] + GAP
            blocks.append((key, part, x, y))
            x += need + GROUP_GAP
    return blocks


def collection_height(player: PlayerView, width: int, card: tuple[int, int]) -> int:
    blocks = _group_blocks(player, width, card)
    if not blocks:
        return 34
    return blocks[-1][3] + card[1]


def collection(layout: Layout, player: PlayerView, box: Box, card: tuple[int, int], *,
               group: str) -> None:
    """The collection by colour (wilds last), each group headed by its symbol and letter."""
    blocks = _group_blocks(player, box.w, card)
    if not blocks:
        text(layout, Box(box.x, box.y, box.w, 30), _("no cards yet"), SMALL_SIZE,
             colour=SOFT_INK)
        return
    for key, notes, bx, by in blocks:
        x, y = box.x + bx, box.y + by
        layout.add(Icon(Box(x, y + 2, 26, 26), "wild" if key == "W" else f"colour:{key}"))
        if key != "W":
            text(layout, Box(x, y + 30, 30, 28), key, SMALL_SIZE, bold=True)
        for index, note in enumerate(notes):
            slot_box = Box(x + GROUP_HEAD + index * (card[0] + GAP), y, *card)
            layout.add(CardSlot(slot_box, note, group, owner=player.player))


def player_panel_height(player: PlayerView, width: int) -> int:
    return 12 + 40 + TOKEN + 10 + collection_height(player, width - 24, SMALL_CARD) + 12


def player_panel(layout: Layout, view: TenView, names: Mapping[str, str], player: PlayerView,
                 box: Box) -> None:
    active = player.player == view.active and view.phase != "over"
    layout.add(Panel(box, PANEL, ACTIVE_EDGE if active else PANEL_EDGE,
                     width=4 if active else 2))
    x, y, w = box.x + 12, box.y + 12, box.w - 24
    name_x = x
    if active:
        layout.add(Icon(Box(x, y + 8, 24, 24), "turn", colour=ACCENT))
        name_x += 32
    text(layout, Box(name_x, y, x + w - name_x - 100, 40), name_of(names, player.player), 28,
         bold=True)
    text(layout, Box(x + w - 96, y, 96, 40), points(player.score), TEXT_SIZE, bold=True,
         colour=ACCENT, align="right")
    y += 42
    tokens(layout, player, x, y, wealth=False)
    y += TOKEN + 10
    collection(layout, player, Box(x, y, w, box.bottom - y), SMALL_CARD, group="collection")


def players_grid(layout: Layout, view: TenView, names: Mapping[str, str],
                 players: Sequence[PlayerView], y: int) -> int:
    columns = 2
    width = (WIDTH - 2 * MARGIN - (columns - 1) * GAP) // columns
    for start in range(0, len(players), columns):
        line = players[start : start + columns]
        height = max(player_panel_height(p, width) for p in line)
        for column, player in enumerate(line):
            player_panel(layout, view, names, player,
                         Box(MARGIN + column * (width + GAP), y, width, height))
        y += height + GAP
    return y


def run_words(player: PlayerView) -> str:
    """``Runs: R 3–7 (5) · B 1–3 (3)``: each scoring colour's run and its points."""
    runs = [f"{run.colour} {run.start}–{run.end} ({run.points})" for run in player.runs
            if run.points]
    return _("Runs: {runs}", runs=" · ".join(runs)) if runs else _("Runs: none yet")


def assignment_of(player: PlayerView) -> dict[str, list[str]]:
    """Wild notation -> the places its copies take in the runs (in order)."""
    places: dict[str, list[str]] = {}
    for wild, place in player.wild_assignment:
        places.setdefault(wild, []).append(place)
    return places
