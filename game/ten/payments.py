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
from functools import lru_cache

from game.base import PlayerId
from game.ten import cards, data
from game.ten.scoring import score_notes
from game.ten.state import Pay, TenState


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


_PAYS: dict[tuple[int, int, str], Pay] = {}
_PAYS_KEPT = 4096


def pay_action(c: int, b: int, spent: str) -> Pay:
    """A shared (frozen) Pay action: the legal lists are rebuilt at every step."""
    key = (c, b, spent)
    action = _PAYS.get(key)
    if action is None:
        if len(_PAYS) >= _PAYS_KEPT:
            _PAYS.clear()
        action = _PAYS[key] = Pay(c=c, b=b, cards=spent)
    return action


def wealth(state: TenState, seat: int) -> int:
    """What a player can bid: currency tokens + 3 x bust tokens."""
    return state.currency[seat] + data.BUST_TOKEN_VALUE * state.bust[seat]


def cheapest_cards(collection: list[str], count: int) -> tuple[str, ...]:
    """``count`` collection cards to spend, a canonical choice (not a search): first the cards
    outside every scoring run (duplicates, short side runs, unused wilds), then cards of the
    shortest runs; number cards before wilds, then table order."""
    if count <= 0:
        return ()
    return _spending_order(tuple(sorted(collection)))[:count]


@lru_cache(maxsize=16384)
def _spending_order(collection: tuple[str, ...]) -> tuple[str, ...]:
    score = score_notes(collection)
    # note -> the points of the runs it stands in, one entry per copy, in run order
    in_runs: dict[str, list[int]] = {}
    for run in score.runs:
        for n in run.cards:
            in_runs.setdefault(n, []).append(run.points)
    ranked: list[tuple[int, bool, tuple[int, int, str], str]] = []
    for note in collection:
        places = in_runs.get(note)
        points = places.pop(0) if places else 0
        wild = "#" in note or note[0] == "W"
        ranked.append((points, wild, cards.sort_key(note), note))
    ranked.sort()
    return tuple(item[3] for item in ranked)


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


def payment_options(
    state: TenState, player: PlayerId, price: int, *, cards_allowed: bool = True
) -> list[Payment]:
    """Every valid payment of ``price`` by ``player``, least wasteful first (flagged)."""
    seat = state.players.index(player)
    collection = [cards.NOTATION[card] for card in state.collections[seat]]
    card_count = len(collection) if cards_allowed else 0
    splits = _splits(price, state.currency[seat], state.bust[seat], card_count)
    splits.sort(key=lambda s: (s[0] + data.BUST_TOKEN_VALUE * s[1] + s[2] - price, s[2], s[1]))
    most_cards = max((s[2] for s in splits), default=0)
    canonical = cheapest_cards(collection, most_cards) if most_cards else ()
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


def payment_error(
    state: TenState, seat: int, price: int, pay: Pay, *, cards_allowed: bool
) -> str | None:
    """Why ``pay`` cannot pay ``price`` (one sentence), or None when it is valid."""
    try:
        notes = cards.split_notes(pay.cards)
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
        owned = Counter(cards.NOTATION[card] for card in state.collections[seat])
        missing = Counter(notes) - owned
        if missing:
            return f"{', '.join(sorted(missing))} is not in your collection."
    total = pay.c + data.BUST_TOKEN_VALUE * pay.b + len(notes) * data.COLLECTION_CARD_VALUE
    if total < price:
        return f"That pays {total}, but the price is {price}."
    if (pay.c or notes) and total > price:
        return f"That pays {total} for a price of {price}: leave out what you do not need."
    if pay.b and total - data.BUST_TOKEN_VALUE >= price:
        return f"That pays {total} for a price of {price}: one bust token fewer still covers it."
    return None


def execute_payment(state: TenState, seat: int, pay: Pay) -> list[str]:
    """Take the (validated) payment from the player; spent cards leave the game."""
    state.currency[seat] -= pay.c
    state.bust[seat] -= pay.b
    spent = cards.split_notes(pay.cards)
    collection = state.collections[seat]
    for note in spent:
        card = next(card for card in collection if cards.NOTATION[card] == note)
        collection.remove(card)
        state.removed.append(card)
    return spent
