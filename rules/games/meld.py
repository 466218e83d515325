"""The Rummikub initial-meld solver: can these tiles make sets and runs worth ≥ 30?

Exact, never a heuristic guess. A set is 3-4 tiles of one number in different
colours; a run is 3 or more consecutive numbers of one colour, no wrap-around
(13-1 is not a run). A joker stands for any tile and counts that tile's value.

How: first a greedy pass (take the most valuable group, repeat) — any meld it finds
is a witness, so "yes" is certain. Only when it falls short does an exhaustive
search run: the smallest real tile left must be unused, in a set of its number, or
the lowest real tile of a run of its colour (a joker may stand below it). The search
is memoised on the tiles left, so it finds the exact maximum value; "no" is
answered only after it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from rules.games.rummitiles import COLOURS, JOKER, LETTER_OF, Tile

N_COLOURS = len(COLOURS)


@dataclass(frozen=True)
class Group:
    """One set or run: each cell is (number, colour, joker?) — for a joker, the tile
    it stands for."""

    kind: str
    cells: tuple[tuple[int, str, bool], ...]

    @property
    def value(self) -> int:
        return sum(n for n, _, _ in self.cells)

    def __str__(self) -> str:
        return " ".join(f"J({LETTER_OF[c]}{n})" if joker else f"{LETTER_OF[c]}{n}"
                        for n, c, joker in self.cells)


@dataclass(frozen=True)
class MeldAnswer:
    """``can``: a meld worth at least the threshold exists. ``groups``: the best meld
    found (the greedy witness when the answer came from it, else the exact maximum);
    ``exact`` says whether ``value`` is proven to be the maximum."""

    can: bool
    value: int
    groups: tuple[Group, ...]
    exact: bool


def initial_meld(hand: list[Tile], threshold: int = 30, max_jokers: int = 2) -> MeldAnswer:
    counts, jokers = _encode(hand, max_jokers)
    value, groups = _greedy(list(counts), threshold)
    if value >= threshold:
        return MeldAnswer(True, value, tuple(groups), exact=False)
    value, groups = best_meld(hand, max_jokers)
    return MeldAnswer(value >= threshold, value, groups, exact=True)


def best_meld(hand: list[Tile], max_jokers: int = 2) -> tuple[int, tuple[Group, ...]]:
    """The exact maximum total value of disjoint sets and runs, and one such meld."""
    counts, jokers = _encode(hand, max_jokers)
    memo: dict[tuple, tuple[int, tuple | None, tuple | None]] = {}
    value = _search(tuple(counts), jokers, memo)
    groups = []
    state = (tuple(counts), jokers)
    while True:
        _, group, nxt = memo[state]
        if nxt is None:
            break
        if group is not None:
            groups.append(group)
        state = nxt
    return value, tuple(groups)


def _encode(hand: list[Tile], max_jokers: int) -> tuple[list[int], int]:
    counts = [0] * (13 * N_COLOURS)
    tally = Counter(hand)
    for tile, n in tally.items():
        if not tile.joker:
            counts[_index(tile.number, COLOURS.index(tile.colour))] += n
    return counts, min(tally.get(JOKER, 0), max_jokers)


def _index(number: int, colour: int) -> int:
    return (number - 1) * N_COLOURS + colour


def _options(counts: list[int] | tuple, jokers: int, i: int):
    """Every group the tile at index ``i`` can take part in as the lowest real tile:
    (group, tile indices used, jokers used)."""
    n, k = i // N_COLOURS + 1, i % N_COLOURS
    others = [c for c in range(N_COLOURS) if c != k and counts[_index(n, c)] > 0]
    for size in (3, 4):
        for real in range(max(0, size - 1 - jokers), min(len(others), size - 1) + 1):
            for chosen in combinations(others, real):
                used_j = size - 1 - real
                colours = [k, *chosen]
                spare = [c for c in range(N_COLOURS) if c not in colours][:used_j]
                cells = tuple(sorted([(n, COLOURS[c], False) for c in colours] +
                                     [(n, COLOURS[c], True) for c in spare],
                                     key=lambda x: COLOURS.index(x[1])))
                yield Group("set", cells), [_index(n, c) for c in colours], used_j
    for below in range(0, min(jokers, n - 1) + 1):
        yield from _runs(counts, jokers - below, n, k, below)


def _runs(counts, jokers: int, n: int, k: int, below: int):
    colour = COLOURS[k]
    head = [(n - below + b, colour, True) for b in range(below)]
    stack = [(n, [n], [], 0)]  # (top number, real numbers, joker numbers, jokers used)
    while stack:
        top, real, fake, used = stack.pop()
        length = below + len(real) + len(fake)
        if length >= 3:
            cells = tuple(sorted(head + [(m, colour, False) for m in real] +
                                 [(m, colour, True) for m in fake]))
            yield Group("run", cells), [_index(m, k) for m in real], used + below
        m = top + 1
        if m > 13:
            continue
        if counts[_index(m, k)] > 0:
            stack.append((m, real + [m], fake, used))
        if used < jokers:
            stack.append((m, real, fake + [m], used + 1))


def _search(counts: tuple, jokers: int, memo: dict) -> int:
    key = (counts, jokers)
    if key in memo:
        return memo[key][0]
    i = next((j for j, c in enumerate(counts) if c), None)
    if i is None:
        memo[key] = (0, None, None)
        return 0
    skip = list(counts)
    skip[i] -= 1
    best = _search(tuple(skip), jokers, memo)
    choice = (None, (tuple(skip), jokers))
    for group, used, used_j in _options(counts, jokers, i):
        rest = list(counts)
        for j in used:
            rest[j] -= 1
        value = group.value + _search(tuple(rest), jokers - used_j, memo)
        if value > best:
            best, choice = value, (group, (tuple(rest), jokers - used_j))
    memo[key] = (best, *choice)
    return best


def _greedy(counts: list[int], enough: int) -> tuple[int, list[Group]]:
    """Take the most valuable group of real tiles still possible — the full set of a
    number, the longest run of a colour — until the meld is worth ``enough``. Quick,
    and any meld it finds is real; jokers are left to the exact search."""
    total, groups = 0, []
    while total < enough:
        best: tuple[int, Group, list[int]] | None = None
        for n in range(1, 14):
            present = [k for k in range(N_COLOURS) if counts[_index(n, k)]]
            if len(present) >= 3 and (best is None or n * len(present) > best[0]):
                cells = tuple((n, COLOURS[k], False) for k in present)
                best = (n * len(present), Group("set", cells), [_index(n, k) for k in present])
        for k in range(N_COLOURS):
            n = 1
            while n <= 13:
                m = n
                while m <= 13 and counts[_index(m, k)]:
                    m += 1
                if m - n >= 3:
                    value = sum(range(n, m))
                    if best is None or value > best[0]:
                        cells = tuple((x, COLOURS[k], False) for x in range(n, m))
                        best = (value, Group("run", cells), [_index(x, k) for x in range(n, m)])
                n = m + 1
        if best is None:
            break
        value, group, used = best
        for j in used:
            counts[j] -= 1
        total += value
        groups.append(group)
    return total, groups
