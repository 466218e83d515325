"""The initial-meld solver against an independent integer program (scipy's milp)."""

import random
from itertools import combinations

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

from rules.games.meld import best_meld, initial_meld
from rules.games.rummitiles import COLOURS, JOKER, Tile, parse_hand

POOL = [Tile(n, c) for n in range(1, 14) for c in COLOURS for _ in range(2)] + [JOKER, JOKER]


def _all_groups():
    """Every set and run of the game, as (value, real tiles, jokers): built once."""
    groups = []
    for n in range(1, 14):
        for size in (3, 4):
            for colours in combinations(COLOURS, size):
                for fake in range(0, min(2, size - 1) + 1):
                    for fakes in combinations(colours, fake):
                        groups.append((n * size, [Tile(n, c) for c in colours if c not in fakes],
                                       fake))
    for c in COLOURS:
        for start in range(1, 12):
            for end in range(start + 2, 14):
                span = list(range(start, end + 1))
                for fake in range(0, 3):
                    for fakes in combinations(span, fake):
                        real = [Tile(m, c) for m in span if m not in fakes]
                        if real:
                            groups.append((sum(span), real, fake))
    return groups


TILES = sorted({t for t in POOL if not t.joker})
GROUPS = _all_groups()
USES = np.zeros((len(GROUPS), len(TILES) + 1))  # tile columns, then the joker column
for _j, (_value, _real, _fake) in enumerate(GROUPS):
    for _t in _real:
        USES[_j, TILES.index(_t)] = 1
    USES[_j, -1] = _fake
VALUES = np.array([g[0] for g in GROUPS], dtype=float)


def ilp_max_meld(hand) -> int:
    """Maximum meld value as an integer program over every set and run of the game:
    x_g ∈ {0, 1, 2} copies of group g, no tile (nor joker) used more often than held."""
    held = np.zeros(len(TILES) + 1)
    for t in hand:
        held[-1 if t.joker else TILES.index(t)] += 1
    held[-1] = min(held[-1], 2)
    possible = np.all(held >= USES, axis=1)
    if not possible.any():
        return 0
    a = USES[possible].T
    result = milp(-VALUES[possible], constraints=LinearConstraint(a, 0, held),
                  integrality=np.ones(int(possible.sum())), bounds=Bounds(0, 2))
    return round(-result.fun)


def test_solver_agrees_with_the_integer_program_on_2000_random_hands():
    rng = random.Random(106)
    disagreements = []
    for i in range(2000):
        size = rng.choice([14, 14, 15, 16, 18, 20, 25, 30, 40, 50])
        hand = rng.sample(POOL, size)
        answer = initial_meld(hand)
        truth = ilp_max_meld(hand)
        if answer.can != (truth >= 30) or (answer.exact and answer.value != truth):
            disagreements.append((i, [str(t) for t in hand], answer.value, truth))
        assert answer.value <= truth  # a meld it reports is always a real one
    assert not disagreements


@pytest.mark.parametrize(
    "tiles, can, best",
    [
        (["R10", "B10", "K10"], True, 30),  # a set worth exactly 30
        (["R9", "B9", "K9", "R1", "R2"], False, 27),
        (["R12", "R13", "J"], True, 36),  # the joker stands for 11 (no 14)
        (["R13", "R1", "R2"], False, 0),  # no wrap-around
        (["R5", "J", "J"], False, 18),  # at best 5-6-7 with two jokers
        (["R11", "J", "J"], True, 36),  # 11-12-13, the jokers standing for 12 and 13
        (["R1", "R2", "R3", "B1", "B2", "B3", "K1", "K2", "K3"], False, 18),
        (["O10", "Y10", "R10"], False, 0),  # yellow is orange: two orange 10s
        (["R7", "R8", "R9", "B8", "K8", "R8"], True, 48),  # run and set share no tile
    ],
)
def test_hand_written_hands(tiles, can, best):
    hand = parse_hand(tiles)
    assert initial_meld(hand).can is can
    assert best_meld(hand)[0] == best


def test_the_reported_meld_uses_only_tiles_in_the_hand():
    hand = parse_hand(["R7", "R8", "R9", "B8", "K8", "R8", "J", "O2"])
    value, groups = best_meld(hand)
    used = [(n, c) for g in groups for n, c, joker in g.cells if not joker]
    jokers = sum(joker for g in groups for _, _, joker in g.cells)
    assert value == sum(g.value for g in groups)
    for n, c in set(used):
        assert used.count((n, c)) <= sum(1 for t in hand if t == Tile(n, c))
    assert jokers <= 1
