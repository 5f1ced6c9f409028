"""TEN's Discord components, each generated from the engine's legal actions.

Payload codes (the ``{payload}`` part of ``tb:act:``/``tb:sel:`` ids, see ``cogs.game_ui``):

=========  ==============================================================================
``d``      draw                       ``sn`` / ``sc``  stop, take numbers / currency
``panel``  table button: open the awaited player's private controls (bid, pay, buy)
``v``      redraw the clicker's private view (back from a next step)
``b:N``    bid select (chunk N), value = amount      ``p``  pass
``m:N``    buy select (chunk N), value = card         ``k``  skip the buy
``y:I``    pay with payment option I                  ``r``  back: choose another card
``yo:N``   payment option select (chunk N), value = option index
``yc:C:B`` collection-card multi-select for a payment of C currency + B bust tokens
=========  ==============================================================================

Option indices refer to ``payment_options`` at the click's version; the version check makes
that the list the control was drawn from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import discord

from bot.models import Session
from cogs.components import act_button, act_select
from game.ten import Payment
from game.ten.cards import display, sort_key
from game.ten.state import Bid, Buy, Pass, Skip, Stop, TenAction

MAX_OPTIONS = 25
MAX_LABEL = 80
MAX_OPTION_TEXT = 100
Item = discord.ui.Item[discord.ui.View]


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def chunks(options: Sequence[discord.SelectOption], limit: int) -> list[list[discord.SelectOption]]:
    """Options split into at most ``limit`` selects of 25 (the rest is left out)."""
    parts = [list(options[i : i + MAX_OPTIONS]) for i in range(0, len(options), MAX_OPTIONS)]
    return parts[:limit]


def draw_buttons(session: Session, legal: Iterable[TenAction], currency: int) -> list[Item]:
    """Draw / Stop — take numbers / Stop — take currency: only the legal ones, in that order."""
    found = {action.type if not isinstance(action, Stop) else action.take for action in legal}
    items: list[Item] = []
    if "draw" in found:
        items.append(act_button(session, "d", label="Draw", style=discord.ButtonStyle.primary,
                                emoji="🃏", row=0))
    if "numbers" in found:
        items.append(act_button(session, "sn", label="Stop — take numbers",
                                style=discord.ButtonStyle.success, row=0))
    if "currency" in found:
        items.append(act_button(session, "sc", label=f"Stop — take currency ({currency})",
                                style=discord.ButtonStyle.success, row=0))
    return items


def bid_controls(session: Session, legal: Iterable[TenAction]) -> list[Item]:
    amounts = [action.amount for action in legal if isinstance(action, Bid)]
    items: list[Item] = []
    if any(isinstance(action, Pass) for action in legal):
        items.append(act_button(session, "p", label="Pass", style=discord.ButtonStyle.danger,
                                row=0))
    options = [discord.SelectOption(label=f"Bid {amount}", value=str(amount)) for amount in amounts]
    for index, part in enumerate(chunks(options, 3)):
        low, high = part[0].value, part[-1].value
        items.append(act_select(session, f"b:{index}", part, row=1 + index,
                                placeholder=f"Bid {low}–{high}" if low != high else f"Bid {low}"))
    return items


def buy_controls(session: Session, legal: Iterable[TenAction]) -> list[Item]:
    notes = [action.card for action in legal if isinstance(action, Buy)]
    items: list[Item] = []
    if any(isinstance(action, Skip) for action in legal):
        items.append(act_button(session, "k", label="Skip — buy nothing", row=0))
    options = [
        discord.SelectOption(label=f"{display(note)} — price {note[1]}", value=note)
        for note in notes
    ]
    for index, part in enumerate(chunks(options, 2)):
        items.append(act_select(session, f"m:{index}", part, row=1 + index,
                                placeholder="Buy a market card"))
    return items


def card_keys(collection: Sequence[str]) -> list[tuple[str, str]]:
    """(select value, note) for each collection card; copies get ``.2``, ``.3`` suffixes so
    every value is unique."""
    seen: Counter[str] = Counter()
    keys = []
    for note in collection:
        seen[note] += 1
        keys.append((note if seen[note] == 1 else f"{note}.{seen[note]}", note))
    return keys


def note_of_key(key: str) -> str:
    return key.split(".", 1)[0]


def card_picker(
    session: Session, collection: Sequence[str], option: Payment, *, row: int
) -> Item:
    """A multi-select of exactly ``len(option.cards)`` collection cards, the suggested ones
    preselected. Above 25 cards, the suggested ones and the first others are offered."""
    wanted = Counter(option.cards)
    keyed = card_keys(sorted(collection, key=sort_key))
    chosen: list[tuple[str, str]] = []
    for key, note in keyed:
        if wanted[note]:
            wanted[note] -= 1
            chosen.append((key, note))
    others = [pair for pair in keyed if pair not in chosen]
    offered = sorted([*chosen, *others][:MAX_OPTIONS], key=lambda pair: keyed.index(pair))
    options = [
        discord.SelectOption(label=display(note), value=key, default=(key, note) in chosen)
        for key, note in offered
    ]
    count = len(option.cards)
    return act_select(
        session, f"yc:{option.c}:{option.b}", options, min_values=count, max_values=count,
        row=row, placeholder=f"Spend {count} collection card{'s' if count > 1 else ''}",
    )


def payment_controls(
    session: Session, options: Sequence[Payment], collection: Sequence[str], *, can_go_back: bool
) -> list[Item]:
    items: list[Item] = []
    if not options:
        return items
    best = options[0]
    items.append(act_button(session, "y:0", label=clip(f"Pay {best.label()} (suggested)",
                                                       MAX_LABEL),
                            style=discord.ButtonStyle.success, row=0))
    if can_go_back:
        items.append(act_button(session, "r", label="Choose another card", row=0))
    select_options = [
        discord.SelectOption(
            label=clip(option.label(), MAX_OPTION_TEXT),
            value=str(index),
            description="least wasteful" if option.least_wasteful
            else ("then choose the cards" if option.cards else None),
        )
        for index, option in enumerate(options)
    ]
    if len(select_options) > 1:
        for index, part in enumerate(chunks(select_options, 2)):
            items.append(act_select(session, f"yo:{index}", part, row=1 + index,
                                    placeholder="Other ways to pay"))
    if best.cards:
        items.append(card_picker(session, collection, best, row=3))
    return items
