"""A whole Rummikub round entered from 64 phones at once, and 16 tile photos sent at once.

    python benchmarks/web_station.py [--phones 64] [--photos 16] [--database URL]

A real `kangle serve` process (uvicorn) on loopback over a fresh event of 4 x PHONES
players (SQLite, or the PostgreSQL database URL given); PHONES threads, each a table's
phone holding its sheet's code, open their table's page and post its scores at the same
moment (a barrier). Then:

- nothing lost: every table's result is in the log; nothing twice: one result each, and
  every phone posting its table's scores a second time is refused;
- each entry's time from post to answer (median, 95th percentile; target <= 200 ms);
- standings current: from the last answer until /standings.json counts every table
  (an open standings page polls every 2 s, so a phone shows it within that much more);
- PHOTOS tables each send one photo of tiles at once: each phone is told its place in
  the queue while it waits, and every photo is read (time until the last is).

Baseline in the same run: one phone alone entering one table's result (the same post,
no load), so the ratio says what the crowd costs.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx2 as httpx

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from rules.events.competition import Competition  # noqa: E402
from web.links import table_code  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "examples/tiles/rows.jpg"
PASSWORD = "benchmark-organiser"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(where: str, port: int) -> subprocess.Popen:
    """`kangle serve` in its own process; returns once it answers."""
    env = {**os.environ, "KANGLE_ORGANISER_PASSWORD": PASSWORD}
    proc = subprocess.Popen([sys.executable, "-m", "kangle", "serve", where, "--port",
                             str(port)], env=env, stdout=subprocess.DEVNULL, cwd=ROOT)
    with httpx.Client() as client:
        for _ in range(600):  # a server starting: ask until it answers (at most a minute)
            try:
                client.get(f"http://127.0.0.1:{port}/standings.json", timeout=1)
                return proc
            except httpx.TransportError:
                time.sleep(0.1)
    proc.kill()
    raise SystemExit("kangle serve did not start")


def scores_for(table: int) -> dict[str, str]:
    """A table's four scores as typed (summing to 0, different at every table)."""
    winner = 10 + table
    values = [winner, -(winner - 2 * (winner // 3)), -(winner // 3), -(winner // 3)]
    return {f"score-{i}": str(v) for i, v in enumerate(values)}


def at_once(n: int, work) -> list:
    """Run ``work(i)`` in ``n`` threads released together; their results in order."""
    barrier, out = threading.Barrier(n), [None] * n

    def run(i: int) -> None:
        barrier.wait()
        out[i] = work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=64)
    parser.add_argument("--photos", type=int, default=16)
    parser.add_argument("--database", help="a PostgreSQL URL (the event is made there)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        name = f"bench{os.getpid()}"
        where = f"{args.database}#{name}" if args.database else str(Path(tmp) / f"{name}.db")
        players = [{"name": f"P{i:03d}"} for i in range(1, 4 * args.phones + 1)]
        comp = Competition.create(where, "rummikub", None, {}, players, "benchmark")
        key = comp.store.secret(comp.event)
        tables = [(t, seats) for r, t, seats in comp.open_tables() if r == 1]
        comp.close()
        port = free_port()
        proc = serve(where, port)
        base = f"http://127.0.0.1:{port}"
        try:
            run(args, base, key, tables, where)
        finally:
            proc.terminate()
            proc.wait()


def run(args, base: str, key: bytes, tables, where: str) -> None:
    store = "PostgreSQL" if args.database else "SQLite"
    print(f"kangle serve on loopback, {store}; {len(tables)} tables of 4")
    clients = [httpx.Client(base_url=base, timeout=120) for _ in tables]

    def enter(i: int, record: bool = True) -> tuple[float, int]:
        number = tables[i][0]
        path = f"/t/{table_code(key, 1, number)}"
        if record:
            clients[i].get(path)  # the phone opens its table's page first
        start = time.perf_counter()
        answer = clients[i].post(path, data=scores_for(number))
        return time.perf_counter() - start, answer.status_code

    # baseline: one phone alone (the first table), the same post with no load
    alone, status = enter(0)
    assert status == 200, status
    crowd = at_once(len(tables) - 1, lambda i: enter(i + 1))
    last_answer = time.perf_counter()
    with httpx.Client(base_url=base) as client:
        while True:
            counted = client.get("/standings.json").json()
            played = sum(r["played"] for r in counted["rows"])
            if played == 4 * len(tables):
                break
    current = time.perf_counter() - last_answer
    times = sorted(t for t, _ in crowd)
    p95 = times[int(0.95 * (len(times) - 1))]
    refused = at_once(len(tables), lambda i: enter(i, record=False))
    comp = Competition.open(where)
    results = [e for e in comp.entries() if e.kind == "result"]
    comp.close()
    keys = {(e.data["round"], e.data["table"]) for e in results}
    print(f"{len(tables)} phones entering round 1 at once (one phone alone first: "
          f"{alone * 1000:.0f} ms):")
    print(f"  answered 'recorded'                {sum(s == 200 for _, s in crowd) + 1}"
          f" of {len(tables)}")
    print(f"  results in the log                 {len(results)} ({len(keys)} tables, "
          f"{len(results) - len(keys)} twice)")
    print(f"  the same results sent again        {sum(s != 200 for _, s in refused)} "
          f"of {len(tables)} refused")
    print(f"  entry time: median {statistics.median(times) * 1000:.0f} ms, 95th percentile "
          f"{p95 * 1000:.0f} ms  (target <= 200 ms); {p95 / alone:.1f}x one phone alone")
    print(f"  standings current {current * 1000:.0f} ms after the last answer "
          "(+ up to 2 s until an open page polls; target <= 2 s)")
    for c in clients:
        c.close()
    if args.photos:
        photos(args.photos, base, key, tables)


def photos(n: int, base: str, key: bytes, tables) -> None:
    """``n`` tables each send one player's photo at once; each is told its place."""
    photo = PHOTO.read_bytes()
    seen: list[set[str]] = [set() for _ in range(n)]

    def send(i: int) -> tuple[float, bool]:
        with httpx.Client(base_url=base, timeout=120, follow_redirects=True) as client:
            start = time.perf_counter()
            sent = client.post(f"/t/{codes[i]}/hands", data={"action": "read"},
                               files={"photo-0": ("hand.jpg", photo, "image/jpeg")})
            page = sent.text
            while 'name="tiles-0"' not in page:
                seen[i].add(re.sub(r"<[^>]+>", "", re.search(r'role="status">(.*?)</p>',
                                                              page).group(1)))
                time.sleep(0.5)  # a phone's page asks again every 2 s; this asks sooner
                page = client.get(str(sent.url)).text
            read = re.search(r'name="tiles-0" value="([^"]+)"', page) is not None
            return time.perf_counter() - start, read

    codes = [table_code(key, 1, number) for number, _ in tables[:n]]
    _void_round_one(base, n)
    done = at_once(n, send)
    ahead = [int(m) for s in seen for text in s for m in re.findall(r"queue: (\d+)", text)]
    print(f"{n} tile photos sent at once ({os.cpu_count()} cores read them):")
    print(f"  read                               {sum(ok for _, ok in done)} of {n}")
    print(f"  phones told their place            {sum(bool(s) for s in seen)} of {n} "
          f"(at most {max(ahead, default=0)} photos ahead of one)")
    print(f"  last photo read after              {max(t for t, _ in done):.1f} s")


def _void_round_one(base: str, n: int) -> None:
    """The organiser voids the first ``n`` tables' results at the desk, opening those
    tables again for the photos (the same forms a person would use)."""
    with httpx.Client(base_url=base, follow_redirects=True) as client:
        desk = client.post("/o/login", data={"password": PASSWORD}).text
        token = re.search(r'name="form_token" value="([0-9a-f]+)"', desk).group(1)
        log = client.get("/o/export/log.json").json()
        results = sorted((e for e in log if e["kind"] == "result"),
                         key=lambda e: e["data"]["table"])[:n]
        for e in results:
            client.post("/o/act", data={"form_token": token, "action": "void",
                                        "seq": str(e["seq"]), "reason": "benchmark"})


if __name__ == "__main__":
    main()
