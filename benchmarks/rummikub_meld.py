"""Initial-meld solver speed: time per hand for random hands of 14-50 tiles, beside the
integer-programming formulation (scipy's milp) timed in the same run.

    python benchmarks/rummikub_meld.py [--hands 1000]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from rules.games.meld import initial_meld  # noqa: E402
from rules.games.rummitiles import COLOURS, JOKER, Tile  # noqa: E402
from tests.test_meld import ilp_max_meld  # noqa: E402

POOL = [Tile(n, c) for n in range(1, 14) for c in COLOURS for _ in range(2)] + [JOKER, JOKER]


def timed(fn, hands):
    out = []
    for hand in hands:
        t = time.perf_counter()
        fn(hand)
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per size")
    parser.add_argument("--ilp-hands", type=int, default=100, help="hands per size for the ILP")
    args = parser.parse_args()
    rng = random.Random(2026)
    print(f"{'tiles':>5} {'median ms':>10} {'worst ms':>9} {'ILP median':>11} {'ILP worst':>10} "
          f"{'ratio':>6}  can meld")
    for size in (14, 20, 30, 40, 50):
        hands = [rng.sample(POOL, size) for _ in range(args.hands)]
        ours = timed(initial_meld, hands)
        ilp = timed(ilp_max_meld, hands[:args.ilp_hands])
        can = sum(initial_meld(h).can for h in hands) / len(hands)
        print(f"{size:>5} {statistics.median(ours) * 1000:>10.3f} {max(ours) * 1000:>9.2f} "
              f"{statistics.median(ilp) * 1000:>11.2f} {max(ilp) * 1000:>10.2f} "
              f"{statistics.median(ilp) / statistics.median(ours):>5.0f}x  {can:.0%}")


if __name__ == "__main__":
    main()
