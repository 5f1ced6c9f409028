"""Sets of small non-negative ints held as bit masks: bit ``n`` of a mask stands for ``n``.

TEN's scoring keeps a colour's numbers and the wilds used this way. The helpers name the
tricks, so that a reader sees the set operation rather than the arithmetic. Where a call costs
too much (the expert's playouts, ``game.ten.rollout``), the expression is inlined with the
helper's name beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

# The number of members (``int.bit_count`` itself: no call of ours in between).
popcount: Callable[[int], int] = int.bit_count


def bit_of(n: int) -> int:
    """The mask of ``n`` alone."""
    return 1 << n


def mask_of(members: Iterable[int]) -> int:
    """The mask of every member."""
    mask = 0
    for n in members:
        mask |= 1 << n
    return mask


def span(start: int, end: int) -> int:
    """The mask of ``start..end``, both included."""
    return (2 << end) - (1 << start)


def has(mask: int, n: int) -> bool:
    """Whether ``n`` is in the mask."""
    return mask >> n & 1 == 1


def without(mask: int, other: int) -> int:
    """The members of ``mask`` that are not in ``other``."""
    return mask & ~other


def is_subset(part: int, whole: int) -> bool:
    """Whether every member of ``part`` is in ``whole``."""
    return part & whole == part


def at_most_one(mask: int) -> bool:
    """Whether the mask holds no member or exactly one."""
    return not mask & (mask - 1)


def lowest_bit(mask: int) -> int:
    """The mask of the smallest member alone (0 for the empty mask)."""
    return mask & -mask


def index_of(single: int) -> int:
    """The member a one-member mask holds."""
    return single.bit_length() - 1


def each_bit(mask: int) -> Iterator[int]:
    """Each member as a one-member mask, smallest first."""
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def subsets_of(mask: int) -> Iterator[int]:
    """Every subset of the mask, the mask itself first and the empty set last."""
    sub = mask
    while True:
        yield sub
        if not sub:
            return
        sub = (sub - 1) & mask
