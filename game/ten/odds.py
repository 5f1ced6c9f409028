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


def _bust_rule(note: str) -> tuple[bool, int | None]:
    """(a currency card, the value it adds) for a card that can bust; None: it cannot (a wild,
    a colour wild)."""
    if note[0] == "$":
        return True, int(note[1])
    if note[1] != "#" and note[0] != "W":
        return False, int(note[1])
    return False, None


_BUST_RULES = {note: _bust_rule(note) for note in cards.KNOWN_NOTATIONS}


def bust_chance(state: TenState) -> float:
    """Probability that the next card flipped busts the active player (0.0 on an empty pile)."""
    return bust_chance_at(state, running_total(state.tableau), tableau_currency(state.tableau))


def bust_chance_at(state: TenState, total: int, currency: int) -> float:
    """:func:`bust_chance` with the tableau's running total and currency already summed."""
    seen = Counter(map(cards.NOTATION.__getitem__, seen_cards(state)))
    remaining = busting = 0
    for note, count in cards.deck_counts(len(state.players)).items():
        left = count - seen[note]
        if left <= 0:
            continue
        remaining += left
        is_currency, value = _BUST_RULES[note]
        if value is None:
            continue
        if is_currency:
            if currency + value >= data.CURRENCY_BUST_AT:
                busting += left
        elif total + value >= data.NUMBER_BUST_AT:
            busting += left
    if not remaining:
        return 0.0
    return busting / remaining
