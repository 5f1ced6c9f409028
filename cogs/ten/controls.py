"""TEN's Discord controls, built with the controls toolkit (``cogs.kit.control_menus``).

Every control stands for one of the player's legal actions (``engine.legal_actions``, the
engine's one list; a control carries the action's code), offered two ways:

- :data:`cogs.kit.control_menus.LEGAL`: Draw / Stop, Pass and the bid select, Skip and the buy
  select, "Choose another card";
- :data:`PAYMENTS`, the list's Pay actions (a payment phase lists every way to pay, least
  wasteful first): the suggested one as a button (``y:{code}``), all of them in a select
  (``yo:pay:{chunk}``), where one that spends collection cards opens the card step.

Which control an action gets is decided by its structure (:func:`group_of`), never by its
words. Besides: ``panel`` (table button: open the awaited player's private controls), ``v``
(back from a next step to the private view) and ``yc:{c}:{b}`` (the collection-card
multi-select of the listed payment of c currency + b bust tokens; its values are card keys,
see :func:`card_keys`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

import discord

from bot.records.errors import Refusal
from bot.records.session import Session
from cogs.i18n.catalogs import words_for
from cogs.i18n.common_words import BACK, FLIP, PASS
from cogs.i18n.language import Language
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
    number,
)
from cogs.kit.control_payloads import ButtonPayload, Option, SelectPayload
from cogs.kit.custom_ids import NOT_AVAILABLE, ActButton, ActSelect
from cogs.ten.colour_words import card_name
from game.ten import (
    SORT_KEYS,
    Back,
    Bid,
    Buy,
    Draw,
    Pass,
    Pay,
    Payment,
    Skip,
    Stop,
    TenAction,
    pay_action,
    payment_of,
    sort_key,
)

PAYMENTS = Menu(button="y", select="yo")
# The payloads of TEN's controls before they were built with the toolkit (draw, stop, pass,
# skip, back; bid, buy and payment selects): a table drawn then and clicked at the same
# version after an upgrade is answered as outdated.
OLD_PAYLOAD = re.compile(r"d|sn|sc|p|k|r|(b|m|yo):[0-9]+")
PAY_GROUP = "pay"
BID_GROUP = "bid"
BUY_GROUP = "buy"
PANEL = "panel"
VIEW = "v"
CARDS = "yc"


ENGLISH = words_for(Language.EN)
_AMOUNT = re.compile(r"[0-9]+")


def _amount(option: Option) -> str:
    found = _AMOUNT.findall(option.label)
    return found[-1] if found else option.label


def groups(words: Words) -> tuple[Group, ...]:
    """The bid and buy selects, their placeholders in ``words`` (made once per Words: a
    Group is frozen, issue 42)."""
    found = words.derived.get(groups)
    if found is None:
        found = words.derived[groups] = _groups(words)
    return found  # type: ignore[return-value]


def _groups(words: Words) -> tuple[Group, ...]:

    def bid_placeholder(options: Sequence[Option], chunk: int,
                        chunks: int) -> str:
        low, high = _amount(options[0]), _amount(options[-1])
        if low != high:
            return words.gettext("Bid {low}–{high}", low=low, high=high)
        return words.gettext("Bid {amount}", amount=low)

    return (
        Group(BID_GROUP, bid_placeholder, max_selects=3),
        Group(BUY_GROUP, words.gettext("Buy a market card"), max_selects=2),
    )


def group_of(action: TenAction) -> str | None:
    """The select an action is offered in (None: a button of its own): bids and buys in
    theirs, payments in the payment select (:data:`PAYMENTS`)."""
    if isinstance(action, Bid):
        return BID_GROUP
    if isinstance(action, Buy):
        return BUY_GROUP
    if isinstance(action, Pay):
        return PAY_GROUP
    return None


def look(action: TenAction, currency: int, words: Words = ENGLISH) -> Look | None:
    """How a legal action is shown (None: not offered as a control of its own)."""
    # The action's own class, compared (the TEN actions have no subclasses): no isinstance
    # call per kind tried, for every legal action of every render (issue 42). mypy narrows
    # no union by a class held in a variable: hence the ignores.
    kind = type(action)
    if kind is Bid:
        return Look(words.gettext("Bid {amount}", amount=action.amount),  # type: ignore[union-attr]
                    group=BID_GROUP)
    if kind is Buy:
        card = action.card  # type: ignore[union-attr]
        return Look(words.gettext("{card} — price {price}", card=card_name(card, words),
                                  price=card[1]), group=BUY_GROUP)
    if kind is Draw:
        return Look(words.text(FLIP), style=discord.ButtonStyle.primary, emoji="🃏")
    if kind is Stop:
        label = (words.gettext("Stop — take numbers")
                 if action.take == "numbers"  # type: ignore[union-attr]
                 else words.gettext("Stop — take currency ({currency})", currency=currency))
        return Look(label, style=discord.ButtonStyle.success)
    if kind is Pass:
        return Look(words.text(PASS), style=discord.ButtonStyle.danger)
    if kind is Skip:
        return Look(words.gettext("Skip — buy nothing"))
    if kind is Back:
        return Look(words.gettext("Choose another card"))
    return None  # a payment: offered through PAYMENTS


def option_order(action: TenAction) -> tuple[object, ...]:
    """Market cards by colour, then price (the market's order); bids by amount."""
    kind = type(action)  # as in look()
    if kind is Buy:
        return sort_key(action.card)  # type: ignore[union-attr]
    if kind is Bid:
        return (action.amount,)  # type: ignore[union-attr]
    return ()


def legal_controls(session: Session, legal: Sequence[TenAction], currency: int = 0,
                   words: Words = ENGLISH) -> Controls:
    return LEGAL.controls(session, legal, [look(action, currency, words) for action in legal],
                          groups(words), order=_orders(legal))


def _orders(legal: Sequence[TenAction]) -> list[tuple[object, ...]]:
    """:func:`option_order` of each action, in one list without a call per action (issue 42:
    a render's auction or buy lists up to 30 actions)."""
    return [SORT_KEYS[action.card] if (kind := type(action)) is Buy  # type: ignore[union-attr]
            else (action.amount,) if kind is Bid else ()  # type: ignore[union-attr]
            for action in legal]


def quick_controls(session: Session, legal: Sequence[TenAction],
                   words: Words = ENGLISH) -> Controls:
    """The table's one-click answers for the awaited player: Pass (an auction) and Skip (a
    buy phase); every other choice is in their private view."""
    looks = [look(action, 0, words) if isinstance(action, Pass | Skip) else None
             for action in legal]
    return LEGAL.controls(session, legal, looks, groups(words))


def pays_in(legal: Sequence[TenAction]) -> list[Pay]:
    """The legal list's payments, least wasteful first (the engine's order)."""
    return [action for action in legal if isinstance(action, Pay)]


def payments(pays: Sequence[Pay], price: int) -> list[Payment]:
    """What each listed payment spends and overpays (the first is the least wasteful)."""
    return [payment_of(pay, price, least_wasteful=index == 0) for index, pay in enumerate(pays)]


def payment_label(option: Payment, words: Words = ENGLISH) -> str:
    """``3 currency + 1 bust + 🟥5 red (1 lost)``: what a payment gives, as
    ``Payment.label``."""
    parts = []
    if option.c:
        parts.append(words.gettext("{count} currency", count=option.c))
    if option.b:
        parts.append(words.gettext("{count} bust", count=option.b))
    if option.cards:
        parts.append(", ".join(card_name(note, words) for note in option.cards))
    text = " + ".join(parts) or words.gettext("nothing")
    if option.overpay:
        return words.gettext("{payment} ({count} lost)", payment=text, count=option.overpay)
    return text


def _payment_note(option: Payment, words: Words) -> str | None:
    if option.least_wasteful:
        return words.gettext("least wasteful")
    return words.gettext("then choose the cards") if option.cards else None


def payment_controls(session: Session, pays: Sequence[Pay], options: Sequence[Payment],
                     words: Words = ENGLISH) -> Controls:
    """The suggested payment as a button and, when there are others, a select of all
    (``options[i]`` describes ``pays[i]``)."""
    if not pays:
        return Controls()
    suggested = payment_label(options[0], words)
    best = Look(words.gettext("Pay {payment} (suggested)", payment=suggested),
                style=discord.ButtonStyle.success)
    controls = PAYMENTS.controls(session, pays[:1], [best])
    if len(pays) > 1:
        others = [
            Look(payment_label(option, words), group=PAY_GROUP,
                 description=_payment_note(option, words))
            for option in options
        ]
        chosen = PAYMENTS.controls(
            session, pays, others,
            (Group(PAY_GROUP, words.gettext("Other ways to pay"), max_selects=2),)
        )
        controls.selects.extend(chosen.selects)
    return controls


def chosen_payment(payload: str, values: Sequence[str] | None,
                   legal: Callable[[str], TenAction]) -> Pay:
    """The listed payment a payment control stands for (``legal``: the legal action a code
    names now, else Refusal): the button any of them (the card step's button pays the one
    chosen), the select each of them."""
    group = None if values is None else PAY_GROUP

    def legal_pay(code: str) -> Pay:
        action = legal(code)
        if not isinstance(action, Pay):
            raise Refusal(NOT_AVAILABLE)
        return action

    return PAYMENTS.choice(payload, values, legal_pay, lambda pay: group)


def picker_split(arg: str) -> tuple[int, int] | None:
    """(currency, bust tokens) of a card picker's payload ``yc:{c}:{b}`` (``arg``: "c:b")."""
    currency, _, bust = arg.partition(":")
    c, b = number(currency), number(bust)
    return None if c is None or b is None else (c, b)


def picked_payment(c: int, b: int, values: Sequence[str], pays: Sequence[Pay]) -> Pay | None:
    """The listed payment of c currency + b bust tokens and collection cards, spending the
    cards chosen in the picker (``values``: card keys) in place of the listed ones; None when
    ``pays`` lists no such payment. Whether those cards may pay (how many, whose) is the
    engine's to check, in its own words."""
    for pay in pays:
        if pay.c == c and pay.b == b and pay.cards:
            return pay_action(c, b, "".join(note_of_key(value) for value in values))
    return None


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
                words: Words = ENGLISH) -> SelectPayload:
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
        discord.SelectOption(label=clip(card_name(note, words), MAX_OPTION_TEXT), value=key,
                             default=(key, note) in chosen)
        for key, note in offered
    ]
    count = len(option.cards)
    return ActSelect.payload(
        session.id, session.version, f"{CARDS}:{option.c}:{option.b}", options=options,
        min_values=count, max_values=count,
        placeholder=words.ngettext("Spend {count} collection card",
                                   "Spend {count} collection cards", count),
    )


def panel_button(session: Session, label: str) -> ButtonPayload:
    return ActButton.payload(session.id, session.version, PANEL,
                             label=clip(label, MAX_BUTTON_LABEL),
                             style=discord.ButtonStyle.primary)


def card_step_controls(session: Session, pay: Pay, option: Payment,
                       collection: Sequence[str], words: Words = ENGLISH) -> Controls:
    """Pay ``pay`` (``option`` describes it) as suggested, go back, or choose the cards to
    spend."""
    looks = [Look(words.gettext("Pay {payment}", payment=payment_label(option, words)),
                  style=discord.ButtonStyle.success)]
    controls = PAYMENTS.controls(session, [pay], looks)
    controls.buttons.append(ActButton.payload(session.id, session.version, VIEW,
                                              label=words.text(BACK)))
    controls.selects.append(card_picker(session, collection, option, words))
    return controls
