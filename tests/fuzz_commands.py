"""The command-line fuzzer behind `make fuzz`: every command fed mutated inputs.

    python -m tests.fuzz_commands [--minutes 20] [--seed N] [--out fuzz-report.txt]

Each case takes one of kangle's own example inputs (shot records, table states, score
sheets, event entries, board and physics profiles, calibrations, photos), mutates it —
a key deleted, a value swapped for one of another JSON type or a hostile one (huge,
non-finite-looking, empty, deeply nested, control characters), a list item repeated,
the bytes truncated or flipped — and runs the command on it in this process through
``kangle.cli.main``, as a user's shell would. Or it takes a command line that works and
types one of its number options (found in kangle's own parser) as no number, a
non-finite or huge one, or an odd one (0, -1, 1e-300). Each run is classed:

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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from kangle.cli import _parser, main  # noqa: E402

HANG_S = 20
HOSTILE = [None, True, False, "", " ", "x" * 5000, "\x1b[2J", "R99", -1, 0, 1e308, -1e308,
           10 ** 40, 0.5, [], {}, [[[[[[[[[[[]]]]]]]]]]], "NaN", "Infinity", "1e400"]


@dataclass
class Case:
    command: str
    argv: list[str]  # the command line; or, for the web station, the route and form
    mutation: str
    surely_bad: bool
    call: Callable[[], int] | None = None  # runs a web case: 0 accepted, 2 refused


# score-file keys under which a value may be of either kind (a total or the cards making
# it; an UNO card by its number)
LOOSE = {"monopolydeal": {"bank": frozenset({"number", "list"}),
                          "properties": frozenset({"number", "list"})},
         "uno": {"held": frozenset({"str", "number"})}}
# event addresses a user may mistype or paste: none of them is a usable event store
HOSTILE_URLS = ["postgres://kangle@localhost/cup", "postgresql://u@h:notaport/db",
                "sqlite:///#x", "sqlite:///", "mysql://u@h/db", "sqlite:////no/such/dir/x.db",
                "http://example.org/cup", "sqlite:///x\x00.db", "sqlite://"]
# what a phone's form fields may hold: non-numbers, non-finite or huge numbers, markup
HOSTILE_FIELDS = ["", "x", "1e308", "-1e308", "nan", "inf", "-inf", "9" * 400, "0x10",
                  "30\x00", "\x1b[2J", "<script>", "½", "٣٠", "1_000", " 30 ", "R7? " * 80,
                  "J J J J J", "R14", "K0", "B13 B13 B13", "R1 R2 R3 R4 R5 R6 R7 R8 R9"]


# what a person may type for a number on the command line: surely no value of any option
# (not a number, not finite, past any table), and merely odd ones
NOT_NUMBERS = ["nan", "inf", "-inf", "1e308", "-1e308", "9" * 400, "x", "", "0x10"]
ODD_NUMBERS = ["-1", "0", "0.5", "-0", "1e-300", "1_0"]
# options never fuzzed: one serves the room (it would not return), one opens a webcam
UNFUZZED = {("serve",), ("referee",)}


def numeric_options(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(command path, option, how many values) of every option the command line reads
    as a number, found in kangle's own parser (so a new option is fuzzed unasked)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if subs:
        for name, sub in subs[0].choices.items():
            yield from numeric_options(sub, (*path, name))
        return
    for action in parser._actions:
        if action.type in (int, float) and action.option_strings and path not in UNFUZZED:
            yield path, action.option_strings[0], action.nargs if isinstance(
                action.nargs, int) else 1


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


def mutate_json(data, rng: random.Random, loose: dict[str, frozenset[str]] | None = None
                ) -> tuple[object, str, bool]:
    """A mutated copy of a JSON tree, what was done, and whether the result is surely
    not a valid input (a value swapped for another JSON type, a number past any table).
    Under a key of ``loose`` a value may be of any of the kinds it names (a total or the
    cards that make it; a card named by its number)."""
    loose = loose or {}
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
    either = next((loose[k] for k in path if isinstance(k, str) and k in loose), frozenset())
    swapped = _kind(new) != _kind(old) and old is not None and new is not None and not (
        {_kind(old), _kind(new)} <= either)
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
        self.venue = str(work / "venue.json")
        _quiet(["calibrate", "board", str(ROOT / "examples" / "setup-frame.jpg"),
                "--out", self.venue])
        self.calibration = json.loads(Path(self.venue).read_text())
        self.options = list(numeric_options(_parser()))

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

    def _json_or_bytes(self, name: str, data, loose: dict[str, frozenset[str]] | None = None
                       ) -> tuple[str, str, bool]:
        """A file holding a mutation of ``data``: mostly of its tree, sometimes its bytes."""
        if self.rng.random() < 0.2:
            raw, what = mutate_bytes(json.dumps(data).encode(), self.rng)
            return self._file(name, raw), what, False
        bad, what, sure = mutate_json(data, self.rng, loose)
        return self._file(name, bad), what, sure

    def case(self) -> Case:
        kind = self.rng.choice(["judge-shot", "judge-state", "game-shot", "score", "event",
                                "board", "physics", "photo", "detect", "event-url", "web",
                                "option"])
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
            path, what, sure = self._json_or_bytes("score.json", json.loads(file.read_text()),
                                                   LOOSE.get(file.stem))
            return Case(f"score {file.stem}", ["score", file.stem, path], what, sure)
        if kind == "event":  # a Rummikub table's result, or a league table's game
            cup = str(self.work / f"{self.n}-cup.db")
            self.n += 1
            game, entry_kind, entry = rng.choice([
                ("rummikub", "result",
                 {"round": 1, "table": 1, "scores": {"A": 30, "B": -10, "C": -10, "D": -10}}),
                ("tickettoride", "game",
                 {"stage": "league", "round": 1, "table": 1, "result": {
                     "game": "tickettoride", "players": [
                         {"name": "A", "routes": [["Seattle", "Portland"]]},
                         {"name": "B"}, {"name": "C"}, {"name": "D"}]}})])
            _quiet(["event", "new", cup, "--game", game, "--player", "A", "--player", "B",
                    "--player", "C", "--player", "D"])
            bad, what, sure = mutate_json(entry, rng)
            return Case(f"event record {entry_kind}", ["event", "record", cup, entry_kind,
                                                       "--data", json.dumps(bad)], what, sure)
        if kind == "detect":
            path, what, sure = self._json_or_bytes("venue.json", self.calibration)
            return Case("detect", ["detect", str(ROOT / "examples" / "game-frame.jpg"),
                                   "--calibration", path], what, sure)
        if kind == "event-url":
            url = rng.choice(HOSTILE_URLS)
            return Case("event new (url)", ["event", "new", url, "--game", "rummikub",
                                            "--player", "A", "--player", "B", "--player",
                                            "C", "--player", "D"],
                        f"event address {url!r}", True)
        if kind == "web":
            return self._web_case()
        if kind == "option":
            return self._option_case()
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


    def _option_case(self) -> Case:
        """A command that works, given one number option typed as no number, or odd."""
        path, option, count = self.rng.choice(self.options)
        typed = self.rng.choice(NOT_NUMBERS + ODD_NUMBERS)
        values = ["0"] * count
        values[self.rng.randrange(count)] = typed
        argv = [*self._working(path), option, *values]
        return Case(" ".join(path), argv, f"{option} {' '.join(values)}",
                    typed in NOT_NUMBERS)

    def _working(self, path: tuple[str, ...]) -> list[str]:
        """A command line of ``path`` that kangle runs (its number options then added)."""
        work = str(self.work)
        if path[0] == "game":
            game = self._file("option-game.db", b"")
            Path(game).unlink()
            _quiet(["game", "new", game, "--red", "A", "--black", "B"])
            return [*path, game] + (["1"] if path[1] == "void" else [])
        if path[0] == "event":
            cup = self._file("option-cup.db", b"")
            Path(cup).unlink()
            _quiet(["event", "new", cup, "--game", "rummikub", "--player", "A", "--player",
                    "B", "--player", "C", "--player", "D"])
            return [*path, cup] + {"record": ["result", "--from-tiles", "A=" + str(
                                       ROOT / "examples" / "tiles" / "rows.jpg"),
                                       "--went-out", "B"],
                                   "sheets": ["--out", f"{work}/sheets.html"],
                                   "correct": ["1"]}.get(path[1], [])
        return {
            ("sim",): ["sim", "--circle", "SW", "--angle", "80", "--speed", "3", "--out",
                       f"{work}/sim.json"],
            ("suggest",): ["suggest", "--top", "1"],
            ("replay",): ["replay", str(self.shots[0]), "--export", f"{work}/shot.png"],
            ("calibrate", "camera"): ["calibrate", "camera",
                                      *map(str, sorted((ROOT / "examples" / "chessboard")
                                                       .glob("*.jpg"))),
                                      "--out", f"{work}/camera.json"],
            ("calibrate", "board"): ["calibrate", "board",
                                     str(ROOT / "examples" / "setup-frame.jpg"),
                                     "--out", f"{work}/venue2.json"],
        }[path]

    def _web_case(self) -> Case:
        """A phone's form posted to a fresh Rummikub event's first table: scores typed,
        or tiles typed and photos sent, each field possibly hostile. Surely bad: a score
        that is no finite number of sensible size, accepted and recorded."""
        from starlette.testclient import TestClient

        from rules.events.competition import Competition
        from web.app import create_app
        from web.links import table_code

        rng = self.rng
        where = str(self.work / f"{self.n}-web.db")
        self.n += 1
        Competition.create(where, "rummikub", None, {},
                           [{"name": p} for p in ("Ann", "Bo", "Cy", "Di")], "fuzz").close()
        comp = Competition.open(where)
        round_no, table, seats = comp.open_tables()[0]
        code = table_code(comp.store.secret(comp.event), round_no, table)
        comp.close()
        fields = {f"score-{i}": str(v) for i, v in enumerate((30, -10, -10, -10))}
        bad = rng.choice(sorted(fields))
        fields[bad] = rng.choice(HOSTILE_FIELDS)
        route, files = f"/t/{code}", None
        if rng.random() < 0.3:  # the organiser's desk: any action, any entry typed
            return self._desk_case(where, rng)
        if rng.random() < 0.2:  # a 找朋友 table's or a 三国杀 match's own form
            return self._table_form_case(rng)
        if rng.random() < 0.5:  # the tiles form: typed hands, a photo, an action
            route = f"/t/{code}/hands"
            fields = {f"tiles-{i}": rng.choice(HOSTILE_FIELDS) for i in range(4)}
            fields["action"] = rng.choice(["read", "score", "", "x" * 100])
            fields.update({f"melded-{i}": "on" for i in range(4) if rng.random() < 0.7})
            raw, what = mutate_bytes((ROOT / "examples/tiles/rows.jpg").read_bytes(), rng)
            if rng.random() < 0.5:
                files = {f"photo-{rng.randrange(4)}": ("hand.jpg", raw, "image/jpeg")}
            bad = f"tiles {fields}, photo {what if files else 'none'}"
        else:
            bad = f"{bad} = {fields[bad]!r}"
        surely = route.endswith(code) and any(
            not _sensible_score(v) for v in fields.values())

        def post() -> int:
            with TestClient(create_app(where, "fuzz-organiser")) as client:  # errors raise here
                answer = client.post(route, data=fields, files=files)
            recorded = answer.status_code == 200 and "is recorded" in answer.text
            return 0 if recorded or (answer.status_code == 200 and not surely) else 2

        return Case("web form", [route, json.dumps(fields)[:200]], bad, surely, post)


    def _table_form_case(self, rng) -> Case:
        """A 找朋友 table's or a 三国杀 match's own link posted with hostile fields (the
        format's entry form, web.entryforms): whatever is typed, the table is answered
        with a page, recorded or refused with why, never a server error."""
        from starlette.testclient import TestClient

        from rules.events.competition import Competition
        from web.app import create_app
        from web.links import table_code

        where = str(self.work / f"{self.n}-table.db")
        self.n += 1
        if rng.random() < 0.5:
            names = [f"P{i}" for i in range(10)]
            comp = Competition.create(where, "zhaopengyou", None, {},
                                      [{"name": p} for p in names], "fuzz")
            comp.draw(1)
            keys = ["f-result.seats", "f-result.games", "f-result.misplays"]
        else:
            names = [f"T{i:02d}" for i in range(16)]
            comp = Competition.create(where, "sanguosha", None, {},
                                      [{"name": p} for p in names], "fuzz")
            comp.draw(None)
            keys = ["f-winner", "f-result.ended_by", "f-result.camps",
                    "f-result.overtime_winner"]
        round_no, table, seats = comp.open_tables()[0]
        code = table_code(comp.store.secret(comp.event), round_no, table)
        comp.close()
        fields = {k: rng.choice([*HOSTILE_FIELDS, "\n".join(seats), seats[0],
                                 f"dealer {seats[0]}, friend none, taken 100"])
                  for k in keys if rng.random() < 0.8}

        def post() -> int:
            with TestClient(create_app(where, "fuzz-organiser")) as client:
                answer = client.post(f"/t/{code}", data=fields)
            if answer.status_code not in (200, 422):  # counted as a traceback
                raise RuntimeError(f"the table was answered {answer.status_code}")
            return 0 if "is recorded" in answer.text else 2

        return Case("web table form", [f"/t/{code}", json.dumps(fields)[:200]],
                    f"{sorted(fields)}", False, post)

    @staticmethod
    def _desk_case(where: str, rng) -> Case:
        """An organiser's form posted at the desk with hostile fields: whatever is typed,
        the desk answers with a page (a refusal says why), never a server error."""
        from starlette.testclient import TestClient

        from web.app import create_app

        entry = {"round": 1, "table": 1, "scores": {"Ann": 30, "Bo": -10, "Cy": -10,
                                                      "Di": -10}}
        fields = {"action": rng.choice(["record", "correct", "void", "draw", "", "x" * 99]),
                  "kind": rng.choice(["result", "register", "void", "draw", "report", "",
                                      "<b>", "x" * 300]),
                  "data": rng.choice([json.dumps(entry), "{", "[]", "null", "1e999",
                                      '{"name": "' + "\u202e" * 50 + '"}', "[" * 50_000,
                                      '{"round": 1e308, "table": -1, "scores": {}}',
                                      *HOSTILE_FIELDS]),
                  "seq": rng.choice(["1", "4", "99999999999999999999999", *HOSTILE_FIELDS]),
                  "reason": rng.choice(HOSTILE_FIELDS),
                  "round": rng.choice(["1", "2", "0", *HOSTILE_FIELDS])}

        def post() -> int:
            with TestClient(create_app(where, "fuzz-organiser")) as client:  # errors raise
                desk = client.post("/o/login", data={"password": "fuzz-organiser"}).text
                token = desk.split('name="form_token" value="')[1].split('"')[0]
                answer = client.post("/o/act", data={**fields, "form_token": token})
            return 0 if answer.status_code in (200, 422) else 2

        return Case("web desk", ["/o/act", json.dumps(fields)[:200]],
                    f"desk form {json.dumps(fields)[:120]}", False, post)


def _sensible_score(text: str) -> bool:
    """Whether a typed score is a plain finite number of a size a game could give."""
    try:
        value = float(text)
    except ValueError:
        return False
    return value == value and abs(value) < 1e6


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
            code = case.call() if case.call else main(case.argv)
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
        os.chdir(tmp)  # whatever a mangled path names is made here, not in the checkout
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
