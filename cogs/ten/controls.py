"""TEN's Discord controls, built with the controls toolkit (``cogs.kit.control_menus``).

Two lists are offered as controls:

- the player's legal actions (``engine.legal_actions``; :data:`cogs.kit.control_menus.LEGAL`):
  Draw / Stop, Pass and the bid select, Skip and the buy select, "Choose another card".
  Payments are not offered from this list (it holds every way to pay);
- the payment options (``payment_options``; :data:`PAYMENTS`): the suggested one as a
  button (``y:{i}``), all of them in a select (``yo:pay:{chunk}``).

Besides: ``panel`` (table button: open the awaited player's private controls), ``v`` (back
from a next step to the private view) and ``yc:{c}:{b}`` (the collection-card multi-select of
a payment of c currency + b bust tokens; its values are card keys, see :func:`card_keys`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import discord

from bot.sessions.models import Session
from cogs.i18n.catalogs import words_for
from cogs.i18n.common_words import BACK, FLIP, PASS
from cogs.i18n.language import Language
from cogs.i18n.messages import N_
from cogs.i18n.words import Words
from cogs.kit.control_menus import (
    LEGAL,
    MAX_BUTTON_LABEL,
    MAX_OPTION_TEXT,
    MAX_OPTIONS,
    Controls,
    Group,
    Look,
    Menu,
    clip,
)
from cogs.kit.custom_ids import ActButton, ActSelect, Item
from game.ten import Back, Bid, Buy, Draw, Pass, Payment, Skip, Stop, TenAction, display, sort_key

PAYMENTS = Menu(button="y", select="yo")
# The payloads of TEN's controls before they were built with the toolkit (draw, stop, pass,
# skip, back; bid, buy and payment selects): a table drawn then and clicked at the same
# version after an upgrade is answered as outdated.
OLD_PAYLOAD = re.compile(r"d|sn|sc|p|k|r|(b|m|yo):[0-9]+")
OUTDATED = N_("That control is from an older table; open your view again from the table.").text
PAY_GROUP = "pay"
PANEL = "panel"
VIEW = "v"
CARDS = "yc"


ENGLISH = words_for(Language.EN)
_AMOUNT = re.compile(r"[0-9]+")


def _amount(option: discord.SelectOption) -> str:
    found = _AMOUNT.findall(option.label)
    return found[-1] if found else option.label


def groups(words: Words) -> tuple[Group, ...]:
    """The bid and buy selects, their placeholders in ``words``."""

    def bid_placeholder(options: Sequence[discord.SelectOption], chunk: int,
                        chunks: int) -> str:
        low, high = _amount(options[0]), _amount(options[-1])
        if low != high:
            return words.gettext("Bid {low}–{high}", low=low, high=high)
        return words.gettext("Bid {amount}", amount=low)

    return (
        Group("bid", bid_placeholder, max_selects=3),
        Group("buy", words.gettext("Buy a market card"), max_selects=2),
    )


def look(action: TenAction, currency: int, words: Words = ENGLISH) -> Look | None:
    """How a legal action is shown (None: not offered as a control of its own)."""
    if isinstance(action, Draw):
        return Look(words.text(FLIP), style=discord.ButtonStyle.primary, emoji="🃏")
    if isinstance(action, Stop):
        label = (words.gettext("Stop — take numbers") if action.take == "numbers"
                 else words.gettext("Stop — take currency ({currency})", currency=currency))
        return Look(label, style=discord.ButtonStyle.success)
    if isinstance(action, Pass):
        return Look(words.text(PASS), style=discord.ButtonStyle.danger)
    if isinstance(action, Bid):
        return Look(words.gettext("Bid {amount}", amount=action.amount), group="bid")
    if isinstance(action, Skip):
        return Look(words.gettext("Skip — buy nothing"))
    if isinstance(action, Buy):
        return Look(words.gettext("{card} — price {price}", card=display(action.card),
                                  price=action.card[1]), group="buy")
    if isinstance(action, Back):
        return Look(words.gettext("Choose another card"))
    return None  # a payment: offered through PAYMENTS


def option_order(action: TenAction) -> tuple[object, ...]:
    """Market cards by colour, then price (the market's order); bids by amount."""
    if isinstance(action, Buy):
        return sort_key(action.card)
    if isinstance(action, Bid):
        return (action.amount,)
    return ()


def legal_controls(session: Session, legal: Sequence[TenAction], currency: int = 0,
                   words: Words = ENGLISH) -> Controls:
    return LEGAL.controls(session, [look(action, currency, words) for action in legal],
                          groups(words), order=[option_order(action) for action in legal])


def quick_controls(session: Session, legal: Sequence[TenAction],
                   words: Words = ENGLISH) -> Controls:
    """The table's one-click answers for the awaited player: Pass (an auction) and Skip (a
    buy phase); every other choice is in their private view."""
    looks = [look(action, 0, words) if isinstance(action, Pass | Skip) else None
             for action in legal]
    return LEGAL.controls(session, looks, groups(words))


def groups_of(legal: Sequence[TenAction]) -> list[str | None]:
    """Each legal action's group as :func:`legal_controls` draws it (for resolving a click)."""
    found = [look(action, 0) for action in legal]
    return [entry.group if entry is not None else "-" for entry in found]


def payment_label(option: Payment, words: Words = ENGLISH) -> str:
    """``3 currency + 1 bust + 🟥5 (1 lost)``: what a payment gives, as ``Payment.label``."""
    parts = []
    if option.c:
        parts.append(words.gettext("{count} currency", count=option.c))
    if option.b:
        parts.append(words.gettext("{count} bust", count=option.b))
    if option.cards:
        parts.append(" ".join(option.cards))
    text = " + ".join(parts) or words.gettext("nothing")
    if option.overpay:
        return words.gettext("{payment} ({count} lost)", payment=text, count=option.overpay)
    return text


def _payment_note(option: Payment, words: Words) -> str | None:
    if option.least_wasteful:
        return words.gettext("least wasteful")
    return words.gettext("then choose the cards") if option.cards else None


def payment_controls(session: Session, options: Sequence[Payment],
                     words: Words = ENGLISH) -> Controls:
    """The suggested payment as a button and, when there are others, a select of all."""
    if not options:
        return Controls()
    suggested = payment_label(options[0], words)
    best = Look(words.gettext("Pay {payment} (suggested)", payment=suggested),
                style=discord.ButtonStyle.success)
    controls = PAYMENTS.controls(session, [best])
    if len(options) > 1:
        others = [
            Look(payment_label(option, words), group=PAY_GROUP,
                 description=_payment_note(option, words))
            for option in options
        ]
        chosen = PAYMENTS.controls(
            session, others,
            (Group(PAY_GROUP, words.gettext("Other ways to pay"), max_selects=2),)
        )
        controls.selects.extend(chosen.selects)
    return controls


def payment_groups(options: Sequence[Payment], values: Sequence[str] | None) -> list[str | None]:
    """The payment list's groups for a click: the button offers any option (the card step
    pays the chosen one), the select every option."""
    return [None if values is None else PAY_GROUP] * len(options)


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


def card_picker(session: Session, collection: Sequence[str], option: Payment,
                words: Words = ENGLISH) -> Item:
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
        discord.SelectOption(label=clip(display(note), MAX_OPTION_TEXT), value=key,
                             default=(key, note) in chosen)
        for key, note in offered
    ]
    count = len(option.cards)
    return ActSelect(
        session.id, session.version, f"{CARDS}:{option.c}:{option.b}", options=options,
        min_values=count, max_values=count,
        placeholder=words.ngettext("Spend {count} collection card",
                                   "Spend {count} collection cards", count),
    )


def panel_button(session: Session, label: str) -> Item:
    return ActButton(session.id, session.version, PANEL, label=clip(label, MAX_BUTTON_LABEL),
                     style=discord.ButtonStyle.primary)


def card_step_controls(session: Session, index: int, option: Payment,
                       collection: Sequence[str], words: Words = ENGLISH) -> Controls:
    """Pay with option ``index`` as suggested, go back, or choose the cards to spend."""
    looks: list[Look | None] = [None] * index
    looks.append(Look(words.gettext("Pay {payment}", payment=payment_label(option, words)),
                      style=discord.ButtonStyle.success))
    controls = PAYMENTS.controls(session, looks)
    controls.buttons.append(ActButton(session.id, session.version, VIEW,
                                      label=words.text(BACK)))
    controls.selects.append(card_picker(session, collection, option, words))
    return controls
