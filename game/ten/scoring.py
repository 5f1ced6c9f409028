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
from typing import Any

from game.bits import at_most_one, bit_of, has, is_subset, mask_of, without
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
_Choice = tuple[int, int, int, int, int]
_Chosen = tuple[_Choice, ...]


_ALL_NUMBERS = mask_of(data.NUMBERS)
_RUN_POINTS: tuple[int, ...] = tuple(run_points(length) for length in range(len(data.NUMBERS) + 1))


def _options_for(held: int, allowance: int, wild_mask: int, fulls: int) -> _Options:
    """The colour's options; the shared wilds of numbers the colour holds never matter, so
    they are left out of the cache key (many more collections then share an entry)."""
    return _colour_options(held, allowance, _fillers(wild_mask, held), fulls)


def _fillers(wild_mask: int, held: int) -> int:
    """The shared number wilds that could fill a gap of a colour holding ``held``."""
    return without(wild_mask, held) & _ALL_NUMBERS


@lru_cache(maxsize=4096)
def plain_best(held: int, allowance: int) -> tuple[int, int, int]:
    """(points, start, end) of the longest run the colour's own cards make: the first
    interval (by start, then end) of the highest points whose gaps its colour wilds fill."""
    best = (0, 0, 0)
    last = data.NUMBERS[-1]
    for start in data.NUMBERS:
        gaps = 0
        for end in range(start, last + 1):
            if not has(held, end):
                gaps += 1
                if gaps > allowance:
                    break
            points = _RUN_POINTS[end - start + 1]
            if best[0] < points:
                best = (points, start, end)
    return best


@lru_cache(maxsize=65536)
def _colour_options(held: int, allowance: int, wild_mask: int, fulls: int) -> _Options:
    """``held``: bit mask of the colour's numbers; ``wild_mask``: the shared number wilds
    (bit n for W n) that could fill one of its gaps."""
    if not wild_mask and not fulls:
        return {(0, 0): plain_best(held, allowance)}
    options: _Options = {(0, 0): (0, 0, 0)}
    get = options.get
    last = data.NUMBERS[-1]
    for start in data.NUMBERS:
        missing = 0
        coverable: list[int] = []  # the gaps a shared number wild fills, as bits
        for end in range(start, last + 1):
            if not has(held, end):
                missing += 1
                if has(wild_mask, end):
                    coverable.append(bit_of(end))
            points = _RUN_POINTS[end - start + 1]
            if missing <= allowance:
                if options[(0, 0)][0] < points:
                    options[(0, 0)] = (points, start, end)
                continue
            if missing - len(coverable) > allowance + fulls:
                # Gaps no shared wild fills outnumber the colour and full wilds, and they
                # only grow with ``end``.
                break
            for full in range(fulls + 1):
                need = missing - allowance - full
                if full and need < 0:
                    break  # a full wild here would be wasted
                if need > len(coverable):
                    continue
                for chosen in combinations(coverable, need if need > 0 else 0):
                    key = (sum(chosen), full)
                    old = get(key)
                    if old is None or old[0] < points:
                        options[key] = (points, start, end)
    if len(options) == 1:
        return options
    # Drop options another one beats with a subset of the same wilds. In this order every
    # option kept earlier scores at least as much, so only the subset test remains.
    kept: _Options = {}
    for key, value in sorted(options.items(), key=_minus_points):
        mask, full = key
        for k_mask, k_full in kept:
            if is_subset(k_mask, mask) and k_full <= full:
                break
        else:
            kept[key] = value
    return kept


def _minus_points(item: tuple[tuple[int, int], tuple[int, int, int]]) -> int:
    return -item[1][0]


def score_notes(notes: Iterable[str]) -> Score:
    """The best score of a collection and the wild assignment that reaches it."""
    return _score(tuple(sorted(notes)))


def score_total(notes: Iterable[str]) -> int:
    """Only the best total (cheaper: no assignment is rebuilt)."""
    return _total(tuple(sorted(notes)))


_Tally = tuple[tuple[int, ...], tuple[int, ...], int, int]
_COLOUR_INDEX: dict[str, int] = {colour: index for index, colour in enumerate(data.COLOURS)}


def _tally(notes: tuple[str, ...]) -> _Tally:
    """(per colour: bit mask of its numbers held, per colour: its colour wilds, number-wild
    bit mask, full wilds)."""
    held = [0] * len(data.COLOURS)
    allowance = [0] * len(data.COLOURS)
    wild_mask = 0
    fulls = 0
    parts = _NOTE_PARTS
    for note in notes:
        part = parts.get(note)
        if part is None:
            return _tally_any(notes)
        what, index, bit = part
        if what == _HELD:
            held[index] |= bit
        elif what == _COLOUR_WILD:
            allowance[index] += 1
        elif what == _NUMBER_WILD:
            wild_mask |= bit
        elif what == _FULL_WILD:
            fulls += 1
    return tuple(held), tuple(allowance), wild_mask, fulls


def _tally_any(notes: tuple[str, ...]) -> _Tally:
    """``_tally`` for any text (a note ``_NOTE_PARTS`` does not know)."""
    held = [0] * len(data.COLOURS)
    allowance = [0] * len(data.COLOURS)
    wild_mask = 0
    fulls = 0
    for note in notes:
        head, tail = note[0], note[1]
        if head == "W":
            if tail == "#":
                fulls += 1
            else:
                wild_mask |= bit_of(int(tail))
        else:
            index = _COLOUR_INDEX.get(head)
            if index is None:
                continue
            if tail == "#":
                allowance[index] += 1
            else:
                held[index] |= bit_of(int(tail))
    return tuple(held), tuple(allowance), wild_mask, fulls


_HELD, _COLOUR_WILD, _NUMBER_WILD, _FULL_WILD, _IGNORED = range(5)


def _note_part(note: str) -> tuple[int, int, int]:
    """What one card adds to the tally: (which part, colour index, bit)."""
    head, tail = note[0], note[1]
    if head == "W":
        return (_FULL_WILD, 0, 0) if tail == "#" else (_NUMBER_WILD, 0, bit_of(int(tail)))
    index = _COLOUR_INDEX.get(head)
    if index is None:
        return (_IGNORED, 0, 0)
    return (_COLOUR_WILD, index, 0) if tail == "#" else (_HELD, index, bit_of(int(tail)))


_NOTE_PARTS: dict[str, tuple[int, int, int]] = {
    note: _note_part(note)
    for note in [f"{c}{n}" for c in (*data.COLOURS, "W", "$") for n in (*data.NUMBERS, "#")]
}


@lru_cache(maxsize=65536)
def _total(notes: tuple[str, ...]) -> int:
    held, allowance, wild_mask, fulls = _tally(notes)
    if not wild_mask and not fulls:
        return sum(plain_best(h, a)[0] for h, a in zip(held, allowance, strict=True))
    states: dict[tuple[int, int], int] = {(0, 0): 0}
    for index in range(len(data.COLOURS)):
        options = _options_for(held[index], allowance[index], wild_mask, fulls)
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


# A programme state's value packs (total, sum of squared run points) into one int, compared
# like the pair: the squares stay below _SQUARES_BASE (at most 4 runs of 10 points).
_SQUARES_BASE = 1024
# per option: (mask, full, value added, the colour's choice)
_Encoded = tuple[tuple[int, int, int, tuple[int, int, int, int, int]], ...]


@lru_cache(maxsize=65536)
def _encoded(held: int, allowance: int, wild_mask: int, fulls: int) -> _Encoded:
    options = _colour_options(held, allowance, wild_mask, fulls)
    return tuple(
        (mask, full, points * _SQUARES_BASE + points * points, (mask, full, points, start, end))
        for (mask, full), (points, start, end) in options.items()
    )


@lru_cache(maxsize=65536)
def _score(notes: tuple[str, ...]) -> Score:
    return _explain(*best_choices(notes))


_Best = tuple[int, _Chosen, _Tally]


@lru_cache(maxsize=4096)
def best_choices(notes: tuple[str, ...]) -> _Best:
    """(best total, per colour (number-wild mask, full wilds, points, start, end), tally) of
    a sorted collection: ``_explain`` turns it into the Score."""
    return best_choices_for_tally(_tally(notes))


def best_choices_for_tally(tally: _Tally) -> _Best:
    held, allowance, wild_mask, fulls = tally
    if not wild_mask and not fulls:
        # No shared wilds: every colour scores on its own (the programme below would keep
        # one state throughout).
        chosen: _Chosen = tuple(
            (0, 0, *plain_best(h, a)) for h, a in zip(held, allowance, strict=True)
        )
        return sum(choice[2] for choice in chosen), chosen, tally
    if at_most_one(wild_mask) and fulls + (wild_mask > 0) == 1:
        return _one_shared_wild(tally)
    return _programme(tally)


def _programme(tally: _Tally) -> _Best:
    """The dynamic programme over the colours, for any number of shared wilds."""
    held, allowance, wild_mask, fulls = tally
    # state (mask, fulls used) -> ((total, sum of squared run points), choices so far).
    # The squares only break ties between equal totals: a wild extends a run rather than
    # starting a one-card run elsewhere (spec example 5 shows W7 as red 7).
    # A colour with one option (no shared wild helps it) adds the same to every state, so
    # it stays out of the programme and is put back in its place afterwards.
    chosen_list: list[tuple[int, int, int, int, int] | None] = []
    searched: list[_Encoded] = []
    fixed_total = 0
    for index in range(len(data.COLOURS)):
        h = held[index]
        encoded = _encoded(h, allowance[index], _fillers(wild_mask, h), fulls)
        if len(encoded) == 1:  # only (0, 0): no wilds used
            choice = encoded[0][3]
            chosen_list.append(choice)
            fixed_total += choice[2]
        else:
            chosen_list.append(None)
            searched.append(encoded)
    # The programme keeps the first best value per state in the order states are reached,
    # and the first best state at the end (ties stay as the plain tuple programme had them).
    if fulls <= 1:
        best_value, best = _programme_one_full(searched)
    else:
        best_value, best = _programme_any_fulls(searched, fulls)
    picks = iter(best)
    chosen = tuple(next(picks) if c is None else c for c in chosen_list)
    return best_value // _SQUARES_BASE + fixed_total, chosen, tally


_Path = tuple[Any, ...]  # (earlier path, choice), or () at the start: a linked list


def _programme_one_full(searched: list[_Encoded]) -> tuple[int, list[_Choice]]:
    """The programme when at most one full wild exists (always, with the real deck).

    The full wild is bit 0 of a state's key (the numbers use bits 1-9): one test of the bits
    then says whether an option's wilds are still free. The choices so far are a linked
    path, so that reaching a state copies nothing."""
    states: dict[int, tuple[int, _Path]] = {0: (0, ())}
    for encoded in searched:
        options = [(mask | full, gain, choice) for mask, full, gain, choice in encoded]
        reached: dict[int, tuple[int, _Path]] = {}
        get = reached.get
        for key, (value, path) in states.items():
            for bits, gain, choice in options:
                if bits & key:
                    continue
                new_key = key | bits
                candidate = value + gain
                old = get(new_key)
                if old is None or old[0] < candidate:
                    reached[new_key] = (candidate, (path, choice))
        states = reached
    best_value, path = max(states.values(), key=_first)
    picked: list[_Choice] = []
    while path:
        path, choice = path
        picked.append(choice)
    picked.reverse()
    return best_value, picked


def _programme_any_fulls(searched: list[_Encoded], fulls: int) -> tuple[int, list[_Choice]]:
    """The programme for any number of full wilds (collections the real deck cannot make)."""
    # state (number wilds used, full wilds used) -> (value, choices so far)
    states: dict[tuple[int, int], tuple[int, tuple[_Choice, ...]]] = {(0, 0): (0, ())}
    for encoded in searched:
        next_states: dict[tuple[int, int], tuple[int, tuple[_Choice, ...]]] = {}
        for (used_mask, used_full), (value, so_far) in states.items():
            for mask, full, gain, choice in encoded:
                if mask & used_mask or used_full + full > fulls:
                    continue
                new_key = (used_mask | mask, used_full + full)
                candidate = value + gain
                old = next_states.get(new_key)
                if old is None or old[0] < candidate:
                    next_states[new_key] = (candidate, (*so_far, choice))
        states = next_states
    best_value, best = max(states.values(), key=_first)
    return best_value, list(best)


def _first(item: tuple[int, Any]) -> int:
    return item[0]


def _one_shared_wild(tally: _Tally) -> _Best:
    """The programme's outcome when exactly one shared wild exists, without the programme.

    The wild serves one colour as one more gap filler there: a number wild fills its own
    number (so it is the colour's plain best with that number held), the full wild any gap
    (the plain best with one more colour wild). It goes to the earliest colour where it adds
    the most (points, then squared points), as the programme would place it."""
    held, allowance, wild_mask, _ = tally
    chosen: list[tuple[int, int, int, int, int]] = []
    total = 0
    best_gain = 0
    best_index = -1
    best_choice = (0, 0, 0, 0, 0)
    for index in range(len(held)):
        h = held[index]
        colour_wilds = allowance[index]
        points, start, end = plain_best(h, colour_wilds)
        chosen.append((0, 0, points, start, end))
        total += points
        if wild_mask:
            if h & wild_mask:
                continue  # the colour holds that number: the wild adds nothing here
            better = plain_best(h | wild_mask, colour_wilds)
            choice = (wild_mask, 0, *better)
        else:
            better = plain_best(h, colour_wilds + 1)
            choice = (0, 1, *better)
        if better[0] > points:
            gain = better[0] * (_SQUARES_BASE + better[0]) - points * (_SQUARES_BASE + points)
            if gain > best_gain:
                best_gain, best_index, best_choice = gain, index, choice
    if best_index >= 0:
        total += best_choice[2] - chosen[best_index][2]
        chosen[best_index] = best_choice
    return total, tuple(chosen), tally


_Piece = tuple[ColourRun, tuple[tuple[str, str], ...], tuple[str, ...], int]


@lru_cache(maxsize=16384)
def _colour_piece(
    index: int, held: int, allowance: int, choice: tuple[int, int, int, int, int]
) -> _Piece:
    """One colour's run, wild assignment and unused colour wilds, and its full wilds used."""
    colour = data.COLOURS[index]
    mask, full, points, start, end = choice
    colour_wilds_left = allowance
    full_left = full
    cards: list[str] = []
    assignment: list[tuple[str, str]] = []
    if points:
        for n in range(start, end + 1):
            if has(held, n):
                cards.append(f"{colour}{n}")
            elif has(mask, n):
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
    run = ColourRun(colour, start, end, points, tuple(cards))
    return run, tuple(assignment), (f"{colour}#",) * colour_wilds_left, full


def _explain(total: int, chosen: _Chosen, tally: _Tally) -> Score:
    held, allowance, wild_mask, fulls = tally
    runs: list[ColourRun] = []
    assignment: list[tuple[str, str]] = []
    used_numbers_wilds = 0
    fulls_used = 0
    unused: list[str] = []
    for index, choice in enumerate(chosen):
        run, assigned, left, full = _colour_piece(index, held[index], allowance[index], choice)
        runs.append(run)
        assignment.extend(assigned)
        unused.extend(left)
        used_numbers_wilds |= choice[0]
        fulls_used += full
    if wild_mask:
        unused.extend(
            f"W{n}" for n in data.NUMBERS if has(wild_mask, n) and not has(used_numbers_wilds, n)
        )
    unused.extend(["W#"] * (fulls - fulls_used))
    return Score(total, tuple(runs), tuple(assignment), tuple(unused))
