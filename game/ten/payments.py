"""Payments (spec 3.4 and 3.5): which token/card splits may pay a price.

A payment may hold nothing it could do without: with any currency token or collection card in
it, it covers the price exactly; made of bust tokens only it may overpay by at most 2 (one
bust token fewer would not cover the price).

**Least wasteful** order: smallest overpayment, then fewest collection cards, then fewest bust
tokens (so currency tokens are spent first). ``payment_options`` returns the options in that
order and flags the first one.

Collection cards: the options name a canonical set of cards (``cheapest_cards``: cards that
score nothing first, then cards of the shortest runs). ``apply`` accepts any cards of the
payer's collection of the same count.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from game.base import PlayerId
from game.fast import construct
from game.ten import cards, data
from game.ten.spending import joined_order, spending_order
from game.ten.state import Pay, TenState
from game.ten.vocabulary import ActionType


@dataclass(frozen=True)
class Payment:
    c: int  # currency tokens
    b: int  # bust tokens
    cards: tuple[str, ...]  # collection cards, notation
    overpay: int
    least_wasteful: bool = False

    def action(self) -> Pay:
        return pay_action(self.c, self.b, cards.join_notes(self.cards))

    def label(self) -> str:
        parts = []
        if self.c:
            parts.append(f"{self.c} currency")
        if self.b:
            parts.append(f"{self.b} bust")
        if self.cards:
            parts.append(" ".join(self.cards))
        text = " + ".join(parts) or "nothing"
        return f"{text} ({self.overpay} lost)" if self.overpay else text


def payment_of(pay: Pay, price: int, *, least_wasteful: bool = False) -> Payment:
    """What a Pay action of the legal list spends and overpays, for a price of ``price``
    (``least_wasteful``: it is the list's first payment)."""
    notes = tuple(cards.split_notes(pay.cards)) if pay.cards else ()
    total = pay.c + data.BUST_TOKEN_VALUE * pay.b + data.COLLECTION_CARD_VALUE * len(notes)
    return Payment(c=pay.c, b=pay.b, cards=notes, overpay=total - price,
                   least_wasteful=least_wasteful)


# Token-only Pay actions recur in every game, so one object serves every legal list that
# holds it; a Pay with cards names cards of one collection, so it is built with that list
# (which _LEGAL_PAYS then keeps for its situation). The cache stays small on purpose: its
# objects then die young, which keeps them out of the garbage collector's full passes.
_PAYS: dict[tuple[int, int], Pay] = {}
_PAYS_KEPT = 512


def pay_action(c: int, b: int, spent: str) -> Pay:
    """``Pay(c=c, b=b, cards=spent)`` without its validation (ints and a notation string);
    Pay actions are frozen, so token-only ones are shared."""
    if spent:
        return _new_pay(c, b, spent)
    key = (c, b)
    action = _PAYS.get(key)
    if action is None:
        if len(_PAYS) >= _PAYS_KEPT:
            _PAYS.clear()
        action = _PAYS[key] = _new_pay(c, b, "")
    return action


def _new_pay(c: int, b: int, spent: str) -> Pay:
    return construct(Pay, {"type": ActionType.PAY, "c": c, "b": b, "cards": spent}, _PAY_SET)


_PAY_SET = frozenset({"c", "b", "cards"})  # what Pay(c=…, b=…, cards=…) marks as set


def wealth(state: TenState, seat: int) -> int:
    """What a player can bid: currency tokens + 3 x bust tokens."""
    return state.currency[seat] + data.BUST_TOKEN_VALUE * state.bust[seat]


def cheapest_cards(collection: list[str], count: int) -> tuple[str, ...]:
    """``count`` collection cards to spend, a canonical choice (not a search): first the cards
    outside every scoring run (duplicates, short side runs, unused wilds), then cards of the
    shortest runs; number cards before wilds, then table order."""
    if count <= 0:
        return ()
    return spending_order(collection)[:count]


def _splits(price: int, currency: int, busts: int, card_count: int) -> list[tuple[int, int, int]]:
    """(currency, bust, cards) splits that pay ``price`` with nothing to spare."""
    bust_value = data.BUST_TOKEN_VALUE
    found: list[tuple[int, int, int]] = []
    for b in range(min(busts, price // bust_value) + 1):
        rest = price - b * bust_value
        for c in range(max(0, rest - card_count), min(currency, rest) + 1):
            found.append((c, b, rest - c))
    only_busts = -(-price // bust_value)
    if price % bust_value and only_busts <= busts:
        found.append((0, only_busts, 0))
    return found


_SplitOrder = tuple[tuple[tuple[int, int, int], ...], int]
# (price, currency, busts, card count) -> _ordered_splits: a plain dict (cheaper to ask than
# an lru_cache; a few thousand situations occur)
_SPLIT_ORDERS: dict[tuple[int, int, int, int], _SplitOrder] = {}
_SPLIT_ORDERS_KEPT = 8192


def _ordered_splits(price: int, currency: int, busts: int, card_count: int) -> _SplitOrder:
    """The splits, least wasteful first, and the most cards any of them spends."""
    key = (price, currency, busts, card_count)
    found = _SPLIT_ORDERS.get(key)
    if found is None:
        splits = _splits(price, currency, busts, card_count)
        splits.sort(key=lambda s: (s[0] + data.BUST_TOKEN_VALUE * s[1] + s[2] - price, s[2], s[1]))
        if len(_SPLIT_ORDERS) >= _SPLIT_ORDERS_KEPT:
            _SPLIT_ORDERS.clear()
        found = _SPLIT_ORDERS[key] = (tuple(splits), max((s[2] for s in splits), default=0))
    return found


def _canonical(state: TenState, seat: int, count: int) -> tuple[str, ...]:
    if not count:
        return ()
    notation = cards.NOTATION
    return cheapest_cards([notation[card] for card in state.collections[seat]], count)


def payment_options(
    state: TenState, player: PlayerId, price: int, *, cards_allowed: bool = True
) -> list[Payment]:
    """Every valid payment of ``price`` by ``player``, least wasteful first (flagged)."""
    seat = state.players.index(player)
    card_count = len(state.collections[seat]) if cards_allowed else 0
    splits, most_cards = _ordered_splits(price, state.currency[seat], state.bust[seat], card_count)
    canonical = _canonical(state, seat, most_cards)
    return [
        Payment(
            c=c,
            b=b,
            cards=canonical[:k],
            overpay=c + data.BUST_TOKEN_VALUE * b + k - price,
            least_wasteful=index == 0,
        )
        for index, (c, b, k) in enumerate(splits)
    ]


# (price, currency, busts, the collection's card ids or None when cards may not pay) -> the
# Pay actions in order
_LEGAL_PAYS: dict[tuple[int, int, int, tuple[int, ...] | None], tuple[Pay, ...]] = {}
_LEGAL_PAYS_KEPT = 128


def legal_payments(
    state: TenState, seat: int, price: int, *, cards_allowed: bool
) -> tuple[Pay, ...]:
    """``[option.action() for option in payment_options(...)]``, built once per situation."""
    currency = state.currency[seat]
    busts = state.bust[seat]
    owned = tuple(state.collections[seat]) if cards_allowed else None
    key = (price, currency, busts, owned)
    pays = _LEGAL_PAYS.get(key)
    if pays is None:
        splits, most_cards = _ordered_splits(
            price, currency, busts, len(owned) if owned is not None else 0
        )
        joined = joined_order(owned) if most_cards and owned is not None else ""
        if len(_LEGAL_PAYS) >= _LEGAL_PAYS_KEPT:
            _LEGAL_PAYS.clear()
        pays = _LEGAL_PAYS[key] = tuple(
            [_new_pay(c, b, joined[: 2 * k]) if k else pay_action(c, b, "") for c, b, k in splits]
        )
    return pays


def is_listed_payment(
    state: TenState, seat: int, price: int, pay: Pay, *, cards_allowed: bool
) -> bool:
    """Whether ``pay`` is one of the very Pay objects the legal list of this situation holds
    (then it is valid and needs no check); False only means "check it"."""
    collection = state.collections[seat]
    key = (
        price,
        state.currency[seat],
        state.bust[seat],
        tuple(collection) if cards_allowed else None,
    )
    pays = _LEGAL_PAYS.get(key)
    if pays is None:
        return False
    for listed in pays:
        if listed is pay:
            break
    else:
        return False
    return True


def is_valid_payment(
    state: TenState, seat: int, price: int, pay: Pay, *, cards_allowed: bool
) -> bool:
    """Whether ``pay`` may pay ``price``: its (currency, bust, card count) split is one of the
    splits the options are made of, and its cards are in the payer's collection (any cards
    of the right count, not only the options' canonical ones)."""
    try:
        notes = cards.split_notes(pay.cards) if pay.cards else []
    except ValueError:
        return False
    card_count = len(state.collections[seat]) if cards_allowed else 0
    splits, _ = _ordered_splits(price, state.currency[seat], state.bust[seat], card_count)
    if (pay.c, pay.b, len(notes)) not in splits:
        return False
    held = Counter(cards.NOTATION[card] for card in state.collections[seat])
    return not Counter(notes) - held


def payment_refusal(
    state: TenState, seat: int, price: int, pay: Pay, *, cards_allowed: bool
) -> str:
    """Why ``is_valid_payment`` refuses ``pay`` (one sentence)."""
    try:
        notes = cards.split_notes(pay.cards) if pay.cards else []
    except ValueError as err:
        return f"{err}."
    if pay.c < 0 or pay.b < 0:
        return "A payment cannot hold a negative number of tokens."
    if notes and not cards_allowed:
        return "Only tokens can pay for a wild."
    if pay.c > state.currency[seat]:
        return f"You have only {state.currency[seat]} currency tokens."
    if pay.b > state.bust[seat]:
        return f"You have only {state.bust[seat]} bust tokens."
    if notes:
        wanted: dict[str, int] = {}
        for note in notes:
            wanted[note] = wanted.get(note, 0) + 1
        notation = cards.NOTATION
        for card in state.collections[seat]:
            note = notation[card]
            if note in wanted:
                wanted[note] -= 1
        missing = [note for note, count in wanted.items() if count > 0]
        if missing:
            return f"{', '.join(sorted(missing))} is not in your collection."
    total = pay.c + data.BUST_TOKEN_VALUE * pay.b + len(notes) * data.COLLECTION_CARD_VALUE
    if total < price:
        return f"That pays {total}, but the price is {price}."
    if (pay.c or notes) and total > price:
        return f"That pays {total} for a price of {price}: leave out what you do not need."
    if pay.b and total - data.BUST_TOKEN_VALUE >= price:
        return f"That pays {total} for a price of {price}: one bust token fewer still covers it."
    return f"That is not a payment of {price} you can make."


def execute_payment(state: TenState, seat: int, pay: Pay) -> list[str]:
    """Take the (validated) payment from the player; spent cards leave the game. Each
    spent note takes the first card of that notation in the collection."""
    state.currency[seat] -= pay.c
    state.bust[seat] -= pay.b
    text = pay.cards
    if not text:
        return []
    spent = [text[i : i + 2] for i in range(0, len(text), 2)]
    collection = state.collections[seat]
    removed = state.removed
    notation = cards.NOTATION
    for note in spent:
        for index, card in enumerate(collection):
            if notation[card] == note:
                del collection[index]
                removed.append(card)
                break
    return spent
