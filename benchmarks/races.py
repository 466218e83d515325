"""Two stations racing on one game log: can a race break the log or judge a stale table?

    python benchmarks/races.py [--races 200] [--seed 1]

Each race starts a fresh game log (red to shoot after the lag) and runs two real
``kangle game shot`` processes on it, each entering a record of one of red's shots (as
a camera station does: the record names red's striker) — one that gives the turn to
black (touches B05, pockets nothing) or one that keeps it (pockets B05), drawn by the
seed.
Half the races start both together; in the other half the first station is paused
(SIGSTOP) a seeded 0-300 ms after it starts — mid-import, mid-read or mid-write — and
resumed only once the second has finished, the case a slow laptop or a suspended
process makes. Afterwards the log is read as every command reads it, and:

- unusable: the log does not replay (two red shots in a row, say: every later command
  on the file would refuse it);
- stale: a station told "recorded" whose entry is not in the log as its own, or whose
  entry was judged against a table the log does not have before it (the ruling it
  printed differs from the log's);
- phantom: a station told "nothing was recorded" whose entry is in the log anyway.

Baseline in the same run: the same races on a plain JSON file read, judged and
rewritten with no transaction (what any tool without one does), counting how often the
file ends up holding a sequence that does not replay or loses an entry.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kangle.gamecmd import new_entry  # noqa: E402
from rules.board import load_board  # noqa: E402
from rules.errors import KangleError  # noqa: E402
from rules.game import lag, replay  # noqa: E402
from rules.gamelog import GameLog  # noqa: E402
from rules.notation import parse_shot  # noqa: E402
from rules.state import initial_state  # noqa: E402

SHOTS = {"xB05": "black", "xB05 B05>NE": "red"}  # red's shot → who shoots next


def records(folder: Path) -> dict[str, Path]:
    """Each of SHOTS as a shot record file (red's striker named), by its notation."""
    board = load_board()
    state = lag(initial_state(board), {"first": "red"})[0]
    out = {}
    for k, line in enumerate(SHOTS):
        path = folder / f"shot{k}.json"
        path.write_text(json.dumps(parse_shot(line, state, board).to_json()))
        out[line] = path
    return out


def station(log: Path, name: str, shot: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "kangle", "game", "shot", str(log), str(shot), "--by", name],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def race(folder: Path, k: int, rng: random.Random, paused: bool, files: dict[str, Path]
         ) -> dict[str, int]:
    """One race on a fresh log, with the shot records ``files``; the counts it adds to
    the tally."""
    path = folder / f"race{k}.db"
    log = GameLog.create(path, new_entry("Ann", "Bo", "goma", "standard"))
    log.append("lag", {"first": "red"})
    log.close()
    shots = {name: files[rng.choice(list(SHOTS))] for name in ("s1", "s2")}
    first = station(path, "s1", shots["s1"])
    if paused:
        time.sleep(rng.uniform(0, 0.3))
        first.send_signal(signal.SIGSTOP)
    second = station(path, "s2", shots["s2"])
    outcome = {"s2": second.communicate()}
    if paused:
        first.send_signal(signal.SIGCONT)
    outcome["s1"] = first.communicate()
    codes = {"s1": first.returncode, "s2": second.returncode}
    tally = {"unusable": 0, "stale": 0, "phantom": 0, "recorded": 0, "refused": 0}
    try:
        entries = GameLog(path).entries()
        view = replay(entries)
    except KangleError:
        tally["unusable"] = 1
        return tally
    by = {entry.by: (entry, ruling) for entry, ruling in view.history}
    for name, (out, _) in outcome.items():
        if codes[name] == 0:
            tally["recorded"] += 1
            entry, ruling = by.get(name, (None, None))
            tally["stale"] += entry is None or f"#{entry.seq} shot" not in out or (
                f"next: {ruling.next_turn}" not in out)
        else:
            tally["refused"] += 1
            tally["phantom"] += name in by
    return tally


def naive_race(folder: Path, k: int, rng: random.Random) -> int:
    """The baseline: two threads of read-judge-rewrite on a JSON list of shots, no lock;
    1 when the file ends wrong: unreadable, a shot a thread was told is recorded lost,
    or a shot stored after one that gave the turn away."""
    path = folder / f"naive{k}.json"
    path.write_text("[]")
    shots = [rng.choice(list(SHOTS)) for _ in range(2)]
    start = threading.Barrier(2)
    told = []

    def write(shot: str) -> None:
        start.wait()
        try:
            held = json.loads(path.read_text())
        except ValueError:
            return
        turn = SHOTS[held[-1]] if held else "red"
        time.sleep(rng.uniform(0, 0.002))  # the judging
        if turn == "red":
            path.write_text(json.dumps(held + [shot]))
            told.append(shot)

    threads = [threading.Thread(target=write, args=(s,)) for s in shots]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        held = json.loads(path.read_text())
    except ValueError:
        return 1
    turns = ["red"] + [SHOTS[s] for s in held]
    return len(held) != len(told) or any(t != "red" for t in turns[:len(held)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--races", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    total = {"unusable": 0, "stale": 0, "phantom": 0, "recorded": 0, "refused": 0}
    naive = 0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = records(folder)
        for k in range(args.races):
            for key, n in race(folder, k, rng, k % 2 == 1, files).items():
                total[key] += n
            naive += naive_race(folder, k, rng)
    print(f"{args.races} races of two `kangle game shot` processes on one log "
          f"(half with the first paused mid-run), {time.perf_counter() - t0:.0f} s")
    print(f"  logs unusable                    {total['unusable']}  (target 0)")
    print(f"  shots judged against a stale table or lost  {total['stale']}  (target 0)")
    print(f"  refused shots found in the log   {total['phantom']}  (target 0)")
    print(f"  stations told 'recorded' {total['recorded']}, told 'nothing was recorded' "
          f"{total['refused']}")
    print(f"  baseline (read-judge-rewrite of a JSON file, no transaction): "
          f"{naive} of {args.races} files wrong")


if __name__ == "__main__":
    if os.name != "posix":
        sys.exit("races.py pauses processes with SIGSTOP: run it on Linux or macOS")
    main()
