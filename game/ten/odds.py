"""Spec section 7: the bust chance of the next flip, from public information only.

The unseen cards are the deck for the player count minus every card that has left the draw
pile (all of them were flipped face up). The pile's order is never read.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

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
    number_at = data.NUMBER_BUST_AT - total  # a number card this high busts
    currency_at = data.CURRENCY_BUST_AT - currency  # a currency card this high busts
    remaining = busting = 0
    for note, count, is_currency, value in _deck_rules(len(state.players)):
        # (``in`` first: a Counter's missing key is a Python call, ``__missing__``)
        left = count - seen[note] if note in seen else count
        if left <= 0:
            continue
        remaining += left
        if value is not None and value >= (currency_at if is_currency else number_at):
            busting += left
    if not remaining:
        return 0.0
    return busting / remaining


@cache
def _deck_rules(players: int) -> tuple[tuple[str, int, bool, int | None], ...]:
    """Each card of the deck for ``players``: (notation, copies, a currency card, the value it
    adds when it can bust)."""
    return tuple((note, count, *_BUST_RULES[note])
                 for note, count in cards.deck_counts(players).items())
