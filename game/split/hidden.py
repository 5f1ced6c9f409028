"""What a SPLIT player may know, and worlds consistent with it, for search.

Hidden from a seat: the other hands, the order of the draw pile and the seed (which decides
later deals). Public: the discard row, the matches with their covered halves, hand sizes,
turns started this round, and the faces each player is known to hold because they took them
from the discard row and have not played a card of that face since (``SplitState.known``).

``sample_hidden`` re-deals the hidden part at random. It reads only what the seat may see and
builds the world canonically (the unseen cards sorted before the shuffle), so two real states
that look the same to the seat give the same world for the same rng.
"""

from __future__ import annotations

import random
from collections import Counter

from game.split.cards import DECK_SIZE, FACE_OF
from game.split.state import SplitState, copy_state


def known_faces(state: SplitState, seat: int) -> list[int]:
    """The faces everyone knows ``seat`` holds (empty for a snapshot without the record)."""
    return list(state.known[seat]) if seat < len(state.known) else []


def visible_cards(state: SplitState, seat: int) -> set[int]:
    """Card ids ``seat`` sees: their hand, the discard row, the matches and covered halves."""
    seen = set(state.hands[seat])
    seen.update(state.row)
    for match in state.matches:
        seen.update(match.halves)
        seen.update(match.covered)
    return seen


def sample_hidden(state: SplitState, seat: int, rng: random.Random) -> SplitState:
    """A full state the seat cannot tell from the real one: the other hands (beyond their
    known faces) and the pile dealt afresh from the unseen cards; a new seed."""
    seen = visible_cards(state, seat)
    unseen = [card for card in range(DECK_SIZE) if card not in seen]  # sorted
    count = len(state.players)
    kept: list[list[int]] = [[] for _ in range(count)]
    for other in range(count):
        if other == seat:
            continue
        wanted = Counter(known_faces(state, other))
        for face, copies in sorted(wanted.items()):
            for _ in range(copies):
                card = next(c for c in unseen if FACE_OF[c] == face)
                unseen.remove(card)
                kept[other].append(card)
    rng.shuffle(unseen)
    world = copy_state(state)
    for other in range(count):
        if other == seat:
            continue
        free = len(state.hands[other]) - len(kept[other])
        world.hands[other] = kept[other] + unseen[:free]
        del unseen[:free]
    world.pile = unseen
    world.seed = rng.getrandbits(63)
    return world
