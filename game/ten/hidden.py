"""What a TEN player may know, and worlds consistent with it, for search.

TEN hides only the order of the draw pile (and the seed). Which cards are still in the pile
is public (spec section 7): the deck for the player count minus every card seen.

``sample_hidden`` re-shuffles the pile from the unseen cards, sorted first, so two real states
that differ only in the pile's order give the same world for the same rng.
"""

from __future__ import annotations

import random
from collections import Counter

from game.ten import cards
from game.ten.odds import seen_cards, unseen_counts
from game.ten.state import TenState, copy_state


def unseen_by_kind(state: TenState) -> Counter[str]:
    """Notation -> copies still in the draw pile (public: every card that left it was seen)."""
    return unseen_counts(state)


def sample_hidden(state: TenState, seat: int, rng: random.Random) -> TenState:
    """A full state ``seat`` cannot tell from the real one: the unseen cards in a random order
    as the pile, and a new seed. (Every seat sees the same in TEN; ``seat`` is for symmetry
    with SPLIT.)"""
    seen = set(seen_cards(state))
    unseen = [card for card in cards.deck_for(len(state.players)) if card not in seen]
    rng.shuffle(unseen)
    world = copy_state(state)
    world.pile = unseen
    world.seed = rng.getrandbits(63)
    return world
