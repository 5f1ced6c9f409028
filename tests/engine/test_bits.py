"""``game.bits``: each helper agrees with the same operation on a Python set of ints."""

from __future__ import annotations

import random

from game.bits import (
    at_most_one,
    bit_of,
    each_bit,
    has,
    index_of,
    is_subset,
    lowest_bit,
    mask_of,
    popcount,
    span,
    subsets_of,
    without,
)


def members_of(mask: int) -> set[int]:
    return {n for n in range(mask.bit_length()) if mask >> n & 1}


def random_sets(count: int) -> list[set[int]]:
    rng = random.Random(28)
    return [set(rng.sample(range(12), rng.randint(0, 6))) for _ in range(count)]


def test_masks_hold_the_members_they_are_made_of() -> None:
    for members in random_sets(200):
        mask = mask_of(members)
        assert members_of(mask) == members
        assert popcount(mask) == len(members)
        assert all(has(mask, n) == (n in members) for n in range(13))
        assert mask_of([]) == 0
        assert all(mask_of([n]) == bit_of(n) for n in members)


def test_set_operations_agree_with_python_sets() -> None:
    sets = random_sets(60)
    for first in sets:
        for second in sets:
            a, b = mask_of(first), mask_of(second)
            assert members_of(without(a, b)) == first - second
            assert is_subset(a, b) == (first <= second)
        assert at_most_one(mask_of(first)) == (len(first) <= 1)


def test_span_is_the_closed_interval() -> None:
    for start in range(10):
        for end in range(start, 10):
            assert members_of(span(start, end)) == set(range(start, end + 1))


def test_lowest_bit_and_each_bit_go_smallest_first() -> None:
    for members in random_sets(200):
        mask = mask_of(members)
        singles = list(each_bit(mask))
        assert [index_of(single) for single in singles] == sorted(members)
        assert lowest_bit(mask) == (bit_of(min(members)) if members else 0)


def test_subsets_of_lists_every_subset_once_from_the_whole_to_the_empty_set() -> None:
    for members in random_sets(40):
        mask = mask_of(members)
        found = list(subsets_of(mask))
        assert found[0] == mask and found[-1] == 0
        assert len(found) == len(set(found)) == 2 ** len(members)
        assert all(members_of(sub) <= members for sub in found)
