"""The command-line fuzzer behind `make fuzz`: every command fed mutated inputs.

    python -m tests.fuzz_commands [--minutes 20] [--seed N] [--out fuzz-report.txt]

Each case takes one of kangle's own example inputs (shot records, table states, score
sheets, event entries, board and physics profiles, calibrations, photos), mutates it —
a key deleted, a value swapped for one of another JSON type or a hostile one (huge,
non-finite-looking, empty, deeply nested, control characters), a list item repeated,
the bytes truncated or flipped — and runs the command on it in this process through
``kangle.cli.main``, as a user's shell would. Each run is classed:

- **traceback**: an exception escaped the command (never acceptable);
- **hang**: it ran past ``HANG_S`` seconds (never acceptable);
- **refused**: exit 2 or 3 with a message (the right answer to bad input);
- **accepted**: exit 0. Where the mutation surely broke the input (a value of the wrong
  JSON type, a number past any table, a control character in a name), acceptance is
  **silent** — counted and listed; elsewhere it may be fine (an optional key removed).

The report counts each class per command and lists every traceback and silent
acceptance once per place, with the case that found it, so each becomes a test in
``make test``. Not part of ``make test``: the cases are random, seeded by ``--seed``.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from kangle.cli import main  # noqa: E402

HANG_S = 20
HOSTILE = [None, True, False, "", " ", "x" * 5000, "\x1b[2J", "R99", -1, 0, 1e308, -1e308,
           10 ** 40, 0.5, [], {}, [[[[[[[[[[[]]]]]]]]]]], "NaN", "Infinity", "1e400"]


@dataclass
class Case:
    command: str
    argv: list[str]
    mutation: str
    surely_bad: bool


def _paths(data, prefix=()):
    """Every place (a tuple of keys and indices) in a JSON tree."""
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data[:6]):
            yield from _paths(v, prefix + (i,))


def _get(data, path):
    for p in path:
        data = data[p]
    return data


def _kind(value) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def mutate_json(data, rng: random.Random) -> tuple[object, str, bool]:
    """A mutated copy of a JSON tree, what was done, and whether the result is surely
    not a valid input (a value swapped for another JSON type, a number past any table)."""
    data = copy.deepcopy(data)
    places = [p for p in _paths(data) if p]
    if not places:
        return HOSTILE[rng.randrange(len(HOSTILE))], "replaced whole", True
    path = rng.choice(places)
    parent = _get(data, path[:-1])
    key = path[-1]
    old = parent[key]
    op = rng.choice(["delete", "hostile", "hostile", "repeat"])
    where = "/".join(map(str, path))
    if op == "delete":
        del parent[key]
        return data, f"deleted {where}", False
    if op == "repeat" and isinstance(old, list) and old:
        old.append(copy.deepcopy(old[0]))
        return data, f"repeated the first item of {where}", False
    new = HOSTILE[rng.randrange(len(HOSTILE))]
    parent[key] = new
    swapped = _kind(new) != _kind(old) and old is not None and new is not None
    huge = isinstance(new, (int, float)) and not isinstance(new, bool) and abs(new) > 1e30 \
        and isinstance(old, (int, float)) and not isinstance(old, bool)
    control = new == "\x1b[2J" and isinstance(old, str)
    return data, f"{where}: {json.dumps(old)[:40]} -> {json.dumps(new)[:40]}", bool(
        swapped or huge or control)


def mutate_bytes(raw: bytes, rng: random.Random) -> tuple[bytes, str]:
    op = rng.choice(["truncate", "flip", "empty", "nul"])
    if op == "truncate":
        n = rng.randrange(len(raw) or 1)
        return raw[:n], f"truncated to {n} bytes"
    if op == "flip":
        out = bytearray(raw)
        for _ in range(rng.randint(1, 8)):
            if out:
                out[rng.randrange(len(out))] = rng.randrange(256)
        return bytes(out), "bytes flipped"
    if op == "nul":
        return raw[: len(raw) // 2] + b"\x00" + raw[len(raw) // 2:], "a NUL byte inserted"
    return b"", "emptied"


class Fuzzer:
    def __init__(self, work: Path, rng: random.Random):
        self.work, self.rng = work, rng
        self.n = 0
        self.state = self._capture(["state", "--first", "red"])
        self.shots = sorted((ROOT / "examples" / "demo-game").glob("0*.json"))
        self.scores = sorted((ROOT / "examples" / "scores").glob("*.json"))

    @staticmethod
    def _capture(argv) -> dict:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(argv)
        return json.loads(out.getvalue())

    def _file(self, name: str, content) -> str:
        self.n += 1
        path = self.work / f"{self.n}-{name}"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(json.dumps(content, ensure_ascii=False) if not isinstance(
                content, str) else content, encoding="utf-8")
        return str(path)

    def _json_or_bytes(self, name: str, data) -> tuple[str, str, bool]:
        """A file holding a mutation of ``data``: mostly of its tree, sometimes its bytes."""
        if self.rng.random() < 0.2:
            raw, what = mutate_bytes(json.dumps(data).encode(), self.rng)
            return self._file(name, raw), what, False
        bad, what, sure = mutate_json(data, self.rng)
        return self._file(name, bad), what, sure

    def case(self) -> Case:
        kind = self.rng.choice(["judge-shot", "judge-state", "game-shot", "score", "event",
                                "board", "physics", "photo"])
        rng = self.rng
        if kind == "judge-shot":
            shot = json.loads(rng.choice(self.shots).read_text())
            path, what, sure = self._json_or_bytes("shot.json", shot)
            return Case("judge", ["judge", self._file("state.json", self.state), path],
                        what, sure)
        if kind == "judge-state":
            path, what, sure = self._json_or_bytes("state.json", self.state)
            return Case("judge", ["judge", path, str(self.shots[0])], what, sure)
        if kind == "game-shot":
            game = str(self.work / f"{self.n}-g.db")
            self.n += 1
            _quiet(["game", "new", game, "--red", "A", "--black", "B"])
            _quiet(["game", "lag", game, "--first", "red"])
            shot = json.loads(self.shots[0].read_text())
            path, what, sure = self._json_or_bytes("shot.json", shot)
            return Case("game shot", ["game", "shot", game, path], what, sure)
        if kind == "score":
            file = rng.choice(self.scores)
            path, what, sure = self._json_or_bytes("score.json", json.loads(file.read_text()))
            return Case(f"score {file.stem}", ["score", file.stem, path], what, sure)
        if kind == "event":
            cup = str(self.work / f"{self.n}-cup.db")
            self.n += 1
            _quiet(["event", "new", cup, "--game", "rummikub", "--player", "A", "--player", "B",
                    "--player", "C", "--player", "D"])
            entry = {"round": 1, "table": 1, "scores": {"A": 30, "B": -10, "C": -10, "D": -10}}
            bad, what, sure = mutate_json(entry, rng)
            return Case("event record", ["event", "record", cup, "result", "--data",
                                         json.dumps(bad)], what, sure)
        if kind in ("board", "physics"):
            source = (ROOT / "rules" / "profiles" / "goma.toml" if kind == "board" else
                      ROOT / "physics" / "profiles" / "standard.toml").read_text()
            lines = source.splitlines()
            i = rng.randrange(len(lines))
            if "=" in lines[i] and not lines[i].lstrip().startswith("#"):
                key, old = lines[i].split("=", 1)
                value = rng.choice(["-5", "0", "nan", "inf", "1e308", '"x"', "[]", "true",
                                    "-1e-9", "{}"])
                lines[i] = f"{key}= {value}"
                # surely wrong: a number made no number, or one no table has
                numeric = old.split("#")[0].strip()[:1] in tuple("0123456789-.")
                what = f"line {i + 1}: {lines[i]}"
                sure = numeric and value in ("nan", "inf", "1e308", '"x"', "[]", "true", "{}")
            else:
                del lines[i]
                what, sure = f"line {i + 1} deleted", False
            path = self._file(f"{kind}.toml", "\n".join(lines))
            return Case(f"sim --{kind}", ["sim", f"--{kind}", path, "--circle", "SW",
                                          "--angle", "80", "--speed", "3", "--out",
                                          str(self.work / "sim.json")], what, sure)
        photo = ROOT / "examples" / rng.choice(["setup-frame.jpg", "tiles/rows.jpg"])
        raw, what = mutate_bytes(photo.read_bytes(), rng)
        path = self._file("photo" + photo.suffix, raw)
        if "tiles" in str(photo):
            return Case("tiles", ["tiles", path, str(ROOT / "examples/tiles/rows.jpg")],
                        what, False)
        return Case("calibrate board", ["calibrate", "board", path, "--out",
                                         str(self.work / "v.json")], what, False)


def _quiet(argv: list[str]) -> None:
    """Set-up for a case (a fresh game or event), its output not shown."""
    with contextlib.redirect_stdout(io.StringIO()):
        main(argv)


def run(case: Case) -> tuple[str, str]:
    """(class, detail) of one run: traceback, hang, refused or accepted."""

    def timeout(signum, frame):
        raise TimeoutError

    signal.signal(signal.SIGALRM, timeout)
    signal.alarm(HANG_S)
    err = io.StringIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(case.argv)
    except TimeoutError:
        return "hang", ""
    except SystemExit as exc:
        code = exc.code
    except BaseException as exc:  # noqa: BLE001 - the point is to catch everything
        tb = traceback.extract_tb(exc.__traceback__)
        frame = next((f for f in reversed(tb) if str(ROOT) in f.filename), tb[-1])
        name = frame.filename
        where = f"{Path(name).relative_to(ROOT) if str(ROOT) in name else name}:{frame.lineno}"
        return "traceback", f"{type(exc).__name__} at {where}: {str(exc)[:120]}"
    finally:
        signal.alarm(0)
    if code == 0:
        return "accepted", ""
    return "refused", err.getvalue().strip()[:160]


def main_fuzz() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--out", type=Path, help="also write the report here")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts: dict[str, Counter] = defaultdict(Counter)
    found: dict[str, tuple[Case, str]] = {}
    silent: dict[str, Case] = {}
    deadline = time.monotonic() + args.minutes * 60
    with tempfile.TemporaryDirectory() as tmp:
        fuzzer = Fuzzer(Path(tmp), rng)
        while time.monotonic() < deadline:
            case = fuzzer.case()
            verdict, detail = run(case)
            counts[case.command][verdict] += 1
            if verdict == "accepted" and case.surely_bad:
                counts[case.command]["silent"] += 1
                silent.setdefault(f"{case.command}: {case.mutation.split(':')[0]}", case)
            if verdict in ("traceback", "hang"):
                found.setdefault(f"{case.command}: {detail.split(': ')[0] or verdict}",
                                 (case, detail))
    total = Counter()
    for c in counts.values():
        total.update(c)
    lines = [f"kangle fuzz: {sum(total[k] for k in ('traceback', 'hang', 'refused', 'accepted'))}"
             f" cases in {args.minutes:g} min, seed {args.seed}",
             f"  tracebacks {total['traceback']}, hangs {total['hang']}, refused "
             f"{total['refused']}, accepted {total['accepted']} (of those surely bad: "
             f"{total['silent']})", "", "  per command: traceback / hang / refused / accepted "
             "(silent)"]
    for command, c in sorted(counts.items()):
        lines.append(f"    {command:<22} {c['traceback']:>4} {c['hang']:>4} {c['refused']:>6} "
                     f"{c['accepted']:>6} ({c['silent']})")
    for title, items in (("tracebacks and hangs", {k: v[0] for k, v in found.items()}),
                         ("silent acceptances", silent)):
        if items:
            lines += ["", f"  {title}, one case each:"]
            for key, case in sorted(items.items()):
                detail = found[key][1] if key in found else ""
                lines.append(f"    {key} {detail}\n      {case.mutation}  (kangle "
                             f"{' '.join(case.argv[:2])} …)")
    report = "\n".join(lines)
    print(report)
    if args.out:
        args.out.write_text(report + "\n", encoding="utf-8")
    return 1 if total["traceback"] or total["hang"] else 0


if __name__ == "__main__":
    sys.exit(main_fuzz())
