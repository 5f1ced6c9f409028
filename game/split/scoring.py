"""The score pad: values of the rank rows and of the negative row (spec section 7).

The values are data so that a corrected pad is a one-line change.
"""

from __future__ import annotations

from collections.abc import Sequence

# [house] Value of a rank row by number of boxes filled (0..12): triangular numbers.
RANK_ROW_VALUES: tuple[int, ...] = (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78)
# [house] The k-th negative mark costs ceil(k / NEGATIVE_GROUP) points.
NEGATIVE_GROUP = 3


def rank_row_value(boxes: int) -> int:
    """Value of one rank row with ``boxes`` filled (a row never holds more than 12: each
    rank has 8 halves, so at most 4 matches a round)."""
    return RANK_ROW_VALUES[boxes]


def negative_value(marks: int) -> int:
    """Points subtracted for ``marks`` negative boxes: the k-th mark costs ceil(k/3)."""
    full_groups, rest = divmod(marks, NEGATIVE_GROUP)
    # Groups 1..g cost NEGATIVE_GROUP * (1 + 2 + ... + g); the rest cost g + 1 each.
    return NEGATIVE_GROUP * full_groups * (full_groups + 1) // 2 + rest * (full_groups + 1)


def sheet_score(boxes: Sequence[int], negatives: int) -> int:
    """Score of a sheet: sum of the rank-row values minus the negative-row value."""
    values = RANK_ROW_VALUES
    return sum([values[count] for count in boxes]) - negative_value(negatives)
