"""Spec section 7: the bust chance of the next flip, from public information only.

The unseen cards are the deck for the player count minus every card that has left the draw
pile (all of them were flipped face up). The pile's order is never read.
"""

from __future__ import annotations

from collections import Counter

from game.ten import cards, data
from game.ten.state import TenState


def seen_cards(state: TenState) -> list[int]:
    seen = [*state.tableau, *state.market, *state.discard, *state.removed]
    for collection in state.collections:
        seen.extend(collection)
    if state.auction_card is not None:
        seen.append(state.auction_card)
    return seen


def unseen_counts(state: TenState) -> Counter[str]:
    """Notation -> copies not yet seen (what the draw pile holds, in unknown order)."""
    unseen = Counter(cards.deck_counts(len(state.players)))
    unseen.subtract(cards.NOTATION[card] for card in seen_cards(state))
    return +unseen


def running_total(tableau: list[int]) -> int:
    return sum(cards.NUMBER[c] for c in tableau) - sum(cards.CURRENCY_VALUE[c] for c in tableau)


def tableau_currency(tableau: list[int]) -> int:
    return sum(cards.CURRENCY_VALUE[c] for c in tableau)


def bust_chance(state: TenState) -> float:
    """Probability that the next card flipped busts the active player (0.0 on an empty pile)."""
    unseen = unseen_counts(state)
    remaining = sum(unseen.values())
    if not remaining:
        return 0.0
    total = running_total(state.tableau)
    currency = tableau_currency(state.tableau)
    busting = 0
    for note, count in unseen.items():
        if note[0] == "$":
            if currency + int(note[1]) >= data.CURRENCY_BUST_AT:
                busting += count
        elif note[1] != "#" and note[0] != "W" and total + int(note[1]) >= data.NUMBER_BUST_AT:
            busting += count
    return busting / remaining
