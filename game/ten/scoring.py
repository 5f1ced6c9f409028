"""Spec section 5: longest run per colour, wilds assigned for the highest total (exact).

The search is a dynamic programme over the four colours. Colour wilds can only serve their
own colour, so they are a per-colour allowance; number wilds and the full wild are shared, so
the programme's state is (number wilds used as a bit mask, full wilds used). For each colour
every interval 1..9 is tried with every minimal set of shared wilds that fills its gaps.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from game.ten import data


@dataclass(frozen=True)
class ColourRun:
    colour: str
    start: int  # 0 when the colour scores nothing
    end: int
    points: int
    cards: tuple[str, ...]  # the card standing at each number start..end (a wild's own note)


@dataclass(frozen=True)
class Score:
    total: int
    runs: tuple[ColourRun, ...]  # one per colour, table order
    assignment: tuple[tuple[str, str], ...]  # (wild, what it stands for), e.g. ("R#", "R5")
    unused_wilds: tuple[str, ...]


def run_points(length: int) -> int:
    if length >= data.COMPLETE_RUN_LENGTH:
        return length + data.COMPLETE_RUN_BONUS
    return length


# option: (number-wild mask, full wilds used) -> (points, start, end)
_Options = dict[tuple[int, int], tuple[int, int, int]]
# per colour so far: (mask, full wilds, points, start, end)
_Chosen = tuple[tuple[int, int, int, int, int], ...]


@lru_cache(maxsize=65536)
def _colour_options(
    numbers: frozenset[int], allowance: int, wild_mask: int, fulls: int
) -> _Options:
    options: _Options = {(0, 0): (0, 0, 0)}
    last = data.NUMBERS[-1]
    for start in data.NUMBERS:
        missing: list[int] = []
        for end in range(start, last + 1):
            if end not in numbers:
                missing.append(end)
            points = run_points(end - start + 1)
            if len(missing) <= allowance:
                if options[(0, 0)][0] < points:
                    options[(0, 0)] = (points, start, end)
                continue
            if not wild_mask and not fulls:
                break  # the gaps only grow from here
            coverable = [n for n in missing if wild_mask >> n & 1]
            for full in range(fulls + 1):
                need = len(missing) - allowance - full
                if full and need + 1 <= 0:
                    break  # a full wild here would be wasted
                if need > len(coverable):
                    continue
                for chosen in combinations(coverable, max(need, 0)):
                    mask = 0
                    for n in chosen:
                        mask |= 1 << n
                    key = (mask, full)
                    if key not in options or options[key][0] < points:
                        options[key] = (points, start, end)
    # drop options another one beats with a subset of the same wilds
    kept: _Options = {}
    for key, value in sorted(options.items(), key=lambda item: -item[1][0]):
        mask, full = key
        if not any(
            k_mask & mask == k_mask and k_full <= full and v[0] >= value[0]
            for (k_mask, k_full), v in kept.items()
        ):
            kept[key] = value
    return kept


def score_notes(notes: Iterable[str]) -> Score:
    """The best score of a collection and the wild assignment that reaches it."""
    return _score(tuple(sorted(notes)))


def score_total(notes: Iterable[str]) -> int:
    """Only the best total (cheaper: no assignment is rebuilt)."""
    return _total(tuple(sorted(notes)))


@lru_cache(maxsize=65536)
def _total(notes: tuple[str, ...]) -> int:
    numbers, allowance, wild_mask, fulls = _tally(notes)
    states: dict[tuple[int, int], int] = {(0, 0): 0}
    for colour in data.COLOURS:
        options = _colour_options(frozenset(numbers[colour]), allowance[colour], wild_mask, fulls)
        next_states: dict[tuple[int, int], int] = {}
        for (used_mask, used_full), total in states.items():
            for (mask, full), (points, _, _) in options.items():
                if mask & used_mask or used_full + full > fulls:
                    continue
                key = (used_mask | mask, used_full + full)
                if next_states.get(key, -1) < total + points:
                    next_states[key] = total + points
        states = next_states
    return max(states.values())


def _tally(notes: tuple[str, ...]) -> tuple[dict[str, set[int]], dict[str, int], int, int]:
    numbers: dict[str, set[int]] = {c: set() for c in data.COLOURS}
    allowance = dict.fromkeys(data.COLOURS, 0)
    wild_mask = 0
    fulls = 0
    for note in notes:
        head, tail = note[0], note[1]
        if head == "W":
            if tail == "#":
                fulls += 1
            else:
                wild_mask |= 1 << int(tail)
        elif head in allowance:
            if tail == "#":
                allowance[head] += 1
            else:
                numbers[head].add(int(tail))
    return numbers, allowance, wild_mask, fulls


@lru_cache(maxsize=65536)
def _score(notes: tuple[str, ...]) -> Score:
    numbers, allowance, wild_mask, fulls = _tally(notes)
    # state (mask, fulls used) -> ((total, sum of squared run points), choices so far).
    # The squares only break ties between equal totals: a wild extends a run rather than
    # starting a one-card run elsewhere (spec example 5 shows W7 as red 7).
    states: dict[tuple[int, int], tuple[tuple[int, int], _Chosen]] = {(0, 0): ((0, 0), ())}
    for colour in data.COLOURS:
        options = _colour_options(frozenset(numbers[colour]), allowance[colour], wild_mask, fulls)
        next_states: dict[tuple[int, int], tuple[tuple[int, int], _Chosen]] = {}
        for (used_mask, used_full), ((total, squares), chosen) in states.items():
            for (mask, full), (points, start, end) in options.items():
                if mask & used_mask or used_full + full > fulls:
                    continue
                key = (used_mask | mask, used_full + full)
                candidate = (
                    (total + points, squares + points * points),
                    (*chosen, (mask, full, points, start, end)),
                )
                if key not in next_states or next_states[key][0] < candidate[0]:
                    next_states[key] = candidate
        states = next_states
    (total, _), chosen = max(states.values(), key=lambda item: item[0])
    return _explain(total, chosen, numbers, allowance, wild_mask, fulls)


def _explain(
    total: int,
    chosen: _Chosen,
    numbers: dict[str, set[int]],
    allowance: dict[str, int],
    wild_mask: int,
    fulls: int,
) -> Score:
    runs: list[ColourRun] = []
    assignment: list[tuple[str, str]] = []
    used_numbers_wilds = 0
    fulls_used = 0
    unused: list[str] = []
    for colour, (mask, full, points, start, end) in zip(data.COLOURS, chosen, strict=True):
        colour_wilds_left = allowance[colour]
        full_left = full
        cards: list[str] = []
        if points:
            for n in range(start, end + 1):
                if n in numbers[colour]:
                    cards.append(f"{colour}{n}")
                elif mask >> n & 1:
                    cards.append(f"W{n}")
                    assignment.append((f"W{n}", f"{colour}{n}"))
                elif full_left:
                    full_left -= 1
                    cards.append("W#")
                    assignment.append(("W#", f"{colour}{n}"))
                else:
                    colour_wilds_left -= 1
                    cards.append(f"{colour}#")
                    assignment.append((f"{colour}#", f"{colour}{n}"))
        unused.extend([f"{colour}#"] * colour_wilds_left)
        used_numbers_wilds |= mask
        fulls_used += full
        runs.append(ColourRun(colour, start, end, points, tuple(cards)))
    unused.extend(
        f"W{n}" for n in data.NUMBERS if wild_mask >> n & 1 and not used_numbers_wilds >> n & 1
    )
    unused.extend(["W#"] * (fulls - fulls_used))
    return Score(total, tuple(runs), tuple(assignment), tuple(unused))
