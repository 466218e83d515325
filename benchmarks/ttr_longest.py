"""Ticket to Ride longest-path speed on the worst case: one player's 45 trains spent on
the densest network the USA map allows, against a baseline in the same run that
starts the same search from every city (no odd-degree start rule).

"Densest" is searched for, not guessed: starting from the shortest routes, a seeded
hill climb swaps routes in and out (45 trains at most, one route of a double) to
maximise the number of trails the search must walk.

    python benchmarks/ttr_longest.py
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from rules.games.tickettoride import load_map, longest_path  # noqa: E402


def trails(routes) -> int:
    """How many trails the search walks (its work)."""
    adjacency = {}
    for k, r in enumerate(routes):
        adjacency.setdefault(r.a, []).append((r.b, k))
        adjacency.setdefault(r.b, []).append((r.a, k))
    count = 0

    def walk(city, used):
        nonlocal count
        count += 1
        for nxt, k in adjacency[city]:
            if not used >> k & 1:
                walk(nxt, used | 1 << k)

    for city in adjacency:
        walk(city, 0)
    return count


def densest(trains: int = 45, steps: int = 3000):
    usa = load_map("usa")
    single = {}
    for r in usa.routes:
        single.setdefault(frozenset((r.a, r.b)), r)
    pool = sorted(single.values(), key=lambda r: (r.length, r.a, r.b))
    rng = random.Random(45)
    chosen, used = [], 0
    for r in pool:
        if used + r.length <= trains:
            chosen.append(r)
            used += r.length
    work = trails(chosen)
    for _ in range(steps):
        trial = list(chosen)
        trial.remove(rng.choice(trial))
        room = trains - sum(r.length for r in trial)
        for r in rng.sample(pool, len(pool)):
            if r not in trial and r.length <= room:
                trial.append(r)
                room -= r.length
        w = trails(trial)
        if w > work:
            chosen, work = trial, w
    return tuple(chosen), sum(r.length for r in chosen)


def every_start(routes) -> int:
    """Baseline: the same search started from every city."""
    adjacency = {}
    for k, r in enumerate(routes):
        adjacency.setdefault(r.a, []).append((r.b, k, r.length))
        adjacency.setdefault(r.b, []).append((r.a, k, r.length))
    best = 0

    def walk(city, used, length):
        nonlocal best
        best = max(best, length)
        for nxt, k, n in adjacency[city]:
            if not used >> k & 1:
                walk(nxt, used | 1 << k, length + n)

    for city in adjacency:
        walk(city, 0, 0)
    return best


def main() -> None:
    routes, used = densest()
    t = time.perf_counter()
    ours = longest_path(routes)
    ours_s = time.perf_counter() - t
    t = time.perf_counter()
    base = every_start(routes)
    base_s = time.perf_counter() - t
    assert ours == base
    print(f"densest 45-train network: {len(routes)} routes, {used} trains, "
          f"{len({c for r in routes for c in (r.a, r.b)})} cities")
    print(f"  longest path {ours} trains: {ours_s * 1000:.1f} ms "
          f"(every-city baseline {base_s * 1000:.1f} ms, {base_s / ours_s:.1f}x)")


if __name__ == "__main__":
    main()
