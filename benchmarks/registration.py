"""Registering an event's players: a whole list at once against one at a time.

    python benchmarks/registration.py [--players 10000] [--baseline 1000]

``kangle event new … --players FILE`` checks the list in one pass and stores the event
with its players in one transaction (rules.events.competition.Competition.create). The
baseline, measured in the same run, registers ``--baseline`` players one entry at a
time (``kangle event record … register``): each entry is checked against every entry
before it inside its own write transaction, as any single entry must be.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from rules.events.competition import Competition  # noqa: E402


def names(n: int) -> list[dict]:
    return [{"name": f"Player {i:05d}"} for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--baseline", type=int, default=1_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        Competition.create(str(Path(tmp) / "list.db"), "rummikub", None, {},
                           names(args.players), "bench").close()
        whole = time.perf_counter() - start
        start = time.perf_counter()
        comp = Competition.create(str(Path(tmp) / "one.db"), "rummikub", None, {}, [], "bench")
        for p in names(args.baseline):
            comp.record("register", p, "bench")
        comp.close()
        single = time.perf_counter() - start
    print(f"registering {args.players} players as one list: {whole:.2f} s "
          f"({whole / args.players * 1e6:.0f} µs a player; goal <= 5 s)")
    print(f"baseline, {args.baseline} players one entry at a time: {single:.2f} s "
          f"({single / args.baseline * 1e6:.0f} µs a player, "
          f"{single / args.baseline / (whole / args.players):.0f}x the list's per player)")


if __name__ == "__main__":
    main()
