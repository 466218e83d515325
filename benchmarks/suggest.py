"""Shot suggestions: how fast `kangle suggest` is, and how much stronger than a greedy
planner its noise-sampled choice plays.

    python benchmarks/suggest.py [--tables 10] [--games 20] [--player club]

Speed: the top 5 on full mid-game tables (12 red and 12 black pieces at random places
clear of the circles, seeded), one process, 50 tries a candidate; against one noiseless
simulation of the same table's best stroke, timed in the same run (the unit every try
costs), and the ratio between them.

Strength: games from mid-game tables (8 pieces a side at random places) between the
suggester (the top shot after 50 tries under the player's noise, ``physics.planner.
suggest``) and the greedy planner (the candidate worth most played once without noise,
``physics.planner.greedy``: CueCard's baseline without the noise sampling). Both
strike with the same player's noise, drawn from one seeded stream per game; each table
is played twice, each planner holding red once (red shoots first). Where a planner has
no candidate it plays safe: the striker softly (1.5 m/s) from its first free circle
towards the board's centre. A game stops at its result or after 120 shots (a draw).
Per planner: opponent pieces pocketed per turn, fouls per game, own pieces lost per
game, games won.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from physics.planner import PLAYERS, greedy, noisy, suggest  # noqa: E402
from physics.profile import PhysicsProfile  # noqa: E402
from physics.simulate import Stroke, simulate  # noqa: E402
from rules.board import load_board  # noqa: E402
from rules.errors import KangleError  # noqa: E402
from rules.pieces import colour_of, opponent, pieces_of  # noqa: E402
from rules.referee import judge  # noqa: E402
from rules.rule_profile import RuleProfile  # noqa: E402
from rules.ruling import FORFEIT, FOUL  # noqa: E402
from tests.kit import gone, put, started  # noqa: E402

BOARD = load_board()
PHYSICS = PhysicsProfile()
RULES = RuleProfile()
MAX_SHOTS = 120


def mid_game(rng: random.Random, per_side: int, first: str = "red"):
    """A table with ``per_side`` red and black pieces at random places, ``first`` to
    shoot: clear of each other and of the shooting circles."""
    state = gone(started(first), *pieces_of("red"), *pieces_of("black"))
    placed: list[tuple[float, float]] = []
    circles = [BOARD.circle_centre(c) for c in ("SW", "SE", "NW", "NE")]
    for piece in (rng.sample(pieces_of("red"), per_side) + rng.sample(pieces_of("black"),
                                                                     per_side)):
        while True:
            x, y = rng.uniform(-330, 330), rng.uniform(-330, 330)
            if all(math.hypot(x - a, y - b) > 34 for a, b in placed) and all(
                    math.hypot(x - cx, y - cy) > 60 for cx, cy in circles):
                break
        placed.append((x, y))
        state = put(state, piece, (x, y))
    return state


def safety(state):
    """The soft stroke towards the centre from the first circle the striker can stand in."""
    for circle in BOARD.circles_of(state.turn):
        cx, cy = BOARD.circle_centre(circle)
        for offset in ((0.0, 0.0), (20.0, 0.0), (-20.0, 0.0), (0.0, 20.0), (0.0, -20.0)):
            stroke = Stroke(state.turn, circle, math.degrees(math.atan2(-cy, -cx)), 1.5, offset)
            try:
                return simulate(state, stroke, BOARD, PHYSICS, trajectory=False)
            except KangleError:
                continue
    raise KangleError("both circles covered")


def speed(args) -> None:
    player = PLAYERS[args.player]
    times, units = [], []
    for k in range(args.tables):
        state = mid_game(random.Random(7_000 + k), 12)
        start = time.perf_counter()
        found = suggest(state, BOARD, PHYSICS, RULES, player, top=5, tries=50)
        times.append(time.perf_counter() - start)
        start = time.perf_counter()
        simulate(state, found[0].stroke if found else Stroke("red", "SW", 90.0, 3.0), BOARD,
                 PHYSICS, trajectory=False)
        units.append(time.perf_counter() - start)
    print(f"speed: top 5 on {args.tables} mid-game tables (24 pieces), one process, "
          f"{args.player} player, 50 tries")
    print(f"  suggest: median {statistics.median(times):.2f} s, highest {max(times):.2f} s "
          "(target <= 2 s)")
    unit = statistics.median(units)
    print(f"  one noiseless simulation (baseline): median {unit * 1000:.1f} ms; "
          f"suggest costs {statistics.median(times) / unit:.0f} of them")


def play(state, planners: dict[str, str], player, rng: random.Random, tally) -> str | None:
    """One game from ``state``; returns the winner's planner name (None: a draw)."""
    for _ in range(MAX_SHOTS):
        if state.result is not None or state.turn is None:
            break
        me = state.turn
        name = planners[me]
        if name == "suggest":
            found = suggest(state, BOARD, PHYSICS, RULES, player, top=1, tries=50)
            stroke = found[0].stroke if found else None
        else:
            stroke = greedy(state, BOARD, PHYSICS, RULES)
        record = None
        if stroke is not None:
            try:
                record = simulate(state, noisy(stroke, player, rng), BOARD, PHYSICS,
                                  trajectory=False)
            except KangleError:
                record = None
        if record is None:
            record = safety(state)
        after, ruling = judge(state, record, BOARD, RULES)
        tally[name]["turns"] += 1
        tally[name]["pocketed"] += sum(colour_of(p.piece) == opponent(me) for p in record.pockets)
        tally[name]["fouls"] += sum(c.kind == FOUL for c in ruling.calls)
        tally[name]["lost"] += sum(len(c.pieces) for c in ruling.calls if c.kind == FORFEIT)
        state = after
    winner = state.result.winner if state.result is not None else None
    return planners[winner] if winner else None


def strength(args) -> None:
    player = PLAYERS[args.player]
    tally = {name: Counter() for name in ("suggest", "greedy")}
    wins: Counter = Counter()
    games = 0
    for k in range(args.games // 2):
        table = random.Random(8_000 + k)
        state = mid_game(table, 8)
        for red in ("suggest", "greedy"):
            planners = {"red": red, "black": "greedy" if red == "suggest" else "suggest"}
            winner = play(replace(state), planners, player, random.Random(9_000 + k), tally)
            wins[winner or "draw"] += 1
            games += 1
            print(f"  table {k}, {red} red: {winner or 'draw'}", flush=True)
    print(f"strength: {games} games from mid-game tables (8 a side), {args.player} player's "
          "noise for both")
    print("  planner   pocketed/turn  fouls/game  own lost/game  games won")
    for name in ("suggest", "greedy"):
        t = tally[name]
        print(f"  {name:8} {t['pocketed'] / max(t['turns'], 1):14.3f} "
              f"{t['fouls'] / games:11.2f} {t['lost'] / games:14.2f} {wins[name]:10d}")
    print(f"  draws (no result in {MAX_SHOTS} shots): {wins['draw']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--games", type=int, default=20, help="an even number")
    parser.add_argument("--player", choices=sorted(PLAYERS), default="club")
    args = parser.parse_args()
    if args.tables:
        speed(args)
    if args.games:
        strength(args)


if __name__ == "__main__":
    main()
