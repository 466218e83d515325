"""`kangle event …`: run a competition on an append-only event store."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kangle.tilescmd import hand_lines, read_hand_photo
from rules.errors import KangleError
from rules.events import kinghill, report
from rules.events.competition import EXPORTS, KINDS, Competition
from rules.events.formats import FORMATS
from rules.events.store import in_force
from rules.game import replay
from rules.gamelog import GameLog
from rules.games import rummikub
from rules.games.registry import GAMES
from rules.jsonfile import parse_json, read_json, read_text


def _data(args) -> dict:
    if getattr(args, "file", None):
        return read_json(args.file, "entry")
    if getattr(args, "data", None):
        return parse_json(args.data, "--data")
    raise KangleError("give the entry with --data '{…}' or --file ENTRY.json")


def _settings(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise KangleError(f"--set takes KEY=VALUE, not {pair!r}")
        try:
            out[key] = parse_json(value, f"--set {key}")
        except KangleError:
            out[key] = value  # a plain word
    return out


def _players(args) -> list[dict]:
    players = [{"name": n} for n in args.player or []]
    if args.players:
        for line in read_text(args.players, "player list").splitlines():
            if line.strip() and not line.startswith("#"):
                name, *rest = [c.strip() for c in line.split(",")]
                entry = {"name": name}
                for extra in rest:
                    key, _, value = extra.partition("=")
                    entry[key] = value
                players.append(entry)
    return players


def cmd_event(args: argparse.Namespace) -> int:
    if args.action == "new":
        comp = Competition.create(args.event, args.game, args.format, _settings(args.set),
                                  _players(args), args.by)
        print(f"event {comp.event.name!r}: {comp.event.format} format for {args.game}, "
              f"{len(comp.entries())} registered; settings {json.dumps(comp.settings)}")
        comp.close()
        return 0
    comp = Competition.open(args.event)
    try:
        return _ACTIONS[args.action](comp, args)
    finally:
        comp.close()


def _record(comp: Competition, args) -> int:
    alone = [o for o, v in (("--went-out", args.went_out), ("--sure", args.sure),
                            ("--round", args.round), ("--table", args.table)) if v]
    if alone and not args.from_tiles:
        raise KangleError(f"{', '.join(alone)}: only with --from-tiles NAME=PHOTO; a result "
                          "typed as --data says its round and table inside")
    if args.from_tiles:
        data = _from_tiles(comp, args)
        if data is None:
            return 2
    else:
        data = _from_game(comp, args) if args.from_game else _data(args)
    for e in comp.record(args.kind, data, args.by):
        print(f"recorded entry {e.seq}: {e.kind} by {e.by}")
    return 0


def _from_game(comp: Competition, args) -> dict:
    """A match entry from a finished game log (`kangle game`), for a king of the hill."""
    if comp.event.format != "kinghill" or args.kind != "match":
        raise KangleError("--from-game enters a 康樂棋 game as a match of a king-of-the-hill "
                          "event: kangle event record EVENT match --from-game GAME.db")
    log = GameLog(args.from_game)
    try:
        view = replay(log.entries())
    finally:
        log.close()
    if view.state.phase != "over":
        raise KangleError(f"the game in {args.from_game} is not over yet: finish it first")
    setup, result = view.setup, view.state.result
    data = kinghill.match_from_game(in_force(comp.store.entries(comp.event)), setup.red,
                                    setup.black,
                                    setup.name(result.winner) if result.winner else None,
                                    str(args.from_game))
    print(f"{args.from_game}: {setup.red} (red) v {setup.black} (black), {result.text}")
    return data


def _from_tiles(comp: Competition, args) -> dict | None:
    """A Rummikub table's result from the photos of the tiles left in each hand (a
    player who went out has none: ``--went-out``), scored as game-scoring.md §1 has it.
    Tiles read with little confidence are listed and nothing is recorded (None) until
    the organiser has checked them and says so with ``--sure``."""
    if comp.event.format != "rotating" or args.kind != "result":
        raise KangleError("--from-tiles enters a Rummikub table's result: kangle event "
                          "record EVENT result --round R --table T --from-tiles NAME=PHOTO …")
    if args.round is None or args.table is None:
        raise KangleError("say which table the photos are of: --round R --table T")
    photos = {}
    for pair in args.from_tiles:
        name, sep, path = pair.partition("=")
        if not sep or not name or not path:
            raise KangleError(f"--from-tiles {pair!r}: write NAME=PHOTO (a player, their photo)")
        photos[name] = path
    hands, unsure, shown = [], 0, []
    for name, path in photos.items():
        _, _, readings = read_hand_photo(path)
        counted = [r for r in readings if not r.cut]
        unsure += sum(1 for r in counted if not r.sure)
        shown += [f"{name}:"] + hand_lines(path, readings)
        hands.append(rummikub.Hand(name, tuple(r.tile for r in counted), None, True, False))
    hands += [rummikub.Hand(name, (), None, True, False) for name in args.went_out or ()]
    print("\n".join(shown))
    if unsure and not args.sure:
        print(f"kangle: nothing recorded: {unsure} tile(s) read with little confidence — "
              "check them against the photos (`kangle tiles PHOTO --annotate DIR` shows "
              "which), then run this again with --sure, or type the scores with --data",
              file=sys.stderr)
        return None
    sheet = rummikub.score(hands, rummikub.Profile())
    scores = {line.name: int(line.score) if float(line.score).is_integer() else line.score
              for line in sheet.lines}
    print("scores: " + ", ".join(f"{n} {v:+g}" for n, v in scores.items()))
    return {"round": args.round, "table": args.table, "scores": scores}


def _correct(comp: Competition, args) -> int:
    data = None if args.void else _data(args)
    for e in comp.correct(args.seq, data, args.by, args.reason or ""):
        print(f"recorded entry {e.seq}: {e.kind} by {e.by}"
              + (f", replacing entry {args.seq}" if e.supersedes else ""))
    return 0


def _draw(comp: Competition, args) -> int:
    e = comp.draw(args.round)
    print(f"recorded entry {e.seq}: {e.kind} — {json.dumps(e.data, ensure_ascii=False)}")
    return 0


def _standings(comp: Competition, args) -> int:
    s = comp.standings()
    if args.trace:
        for e in comp.trace(args.trace):
            data = json.dumps(e.data, ensure_ascii=False)
            print(f"#{e.seq} {e.kind} by {e.by} at {e.at}: {data}")
        return 0
    if args.html:
        page = report.to_html(s, comp.event.name, comp.bracket())
        Path(args.html).write_text(page, encoding="utf-8")
        print(f"wrote {args.html}")
    elif args.csv:
        print(report.to_csv(s), end="")
    elif args.json:
        print(report.to_json(s), end="")
    else:
        print(report.text(s), end="")
    return 0


def _sheets(comp: Competition, args) -> int:
    sheets = comp.sheets(args.round)
    Path(args.out).write_text(report.sheets_html(sheets, comp.event.name), encoding="utf-8")
    print(f"wrote {len(sheets)} score sheet(s) for round {args.round} to {args.out}")
    return 0


def _log(comp: Competition, args) -> int:
    everything = comp.store.entries(comp.event)
    live = {e.seq for e in in_force(everything)}
    for e in everything:
        mark = "" if e.seq in live else "  (superseded)"
        fix = f" replaces #{e.supersedes}" if e.supersedes else ""
        print(f"#{e.seq:<4} {e.at}  {e.by:<22} {e.kind:<11}{fix} "
              f"{json.dumps(e.data, ensure_ascii=False)}{mark}")
    return 0


def _export(comp: Competition, args) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in EXPORTS:
        (out / name).write_text(comp.export(name), encoding="utf-8")
    print(f"wrote standings (txt, csv, json, html) and the full log to {out}/")
    return 0


_ACTIONS = {"record": _record, "correct": _correct, "draw": _draw, "standings": _standings,
            "sheets": _sheets, "log": _log, "export": _export}


def add_parser(sub, formatter) -> None:
    e = sub.add_parser(
        "event", formatter_class=formatter, help="run a competition (standings, sheets, log)",
        description="Run a competition on an append-only event store. EVENT is a SQLite file "
                    "(cup.db) or a database URL with the event name after '#' "
                    "(postgresql+psycopg://user:pw@host/db#cup).",
        epilog="example (a 64-player Rummikub event):\n"
               "  kangle event new cup.db --game rummikub --players players.txt\n"
               "  kangle event sheets cup.db --round 1 --out round1.html\n"
               "  kangle event record cup.db result --data '{\"round\": 1, \"table\": 1, "
               "\"scores\": {\"P1\": 30, \"P2\": -5, \"P3\": -10, \"P4\": -15}}'\n"
               "  kangle event correct cup.db 70 --data '{…}'\n"
               "  kangle event standings cup.db --html standings.html\n"
               "  kangle event log cup.db")
    acts = e.add_subparsers(dest="action", required=True, metavar="ACTION")

    def action(name: str, text: str, example: str) -> argparse.ArgumentParser:
        a = acts.add_parser(name, help=text, description=text, formatter_class=formatter,
                            epilog=f"example:\n  {example}")
        a.add_argument("event", help="cup.db, or URL#event-name")
        a.add_argument("--by", default="organiser", help="who makes the entry (kept in the log)")
        a.set_defaults(run=cmd_event)
        return a

    n = action("new", "create an event and register its players",
               "kangle event new cup.db --game rummikub --players players.txt --set rounds=4")
    n.add_argument("--game", required=True, choices=sorted(GAMES))
    n.add_argument("--format", choices=sorted(FORMATS), help="default: the game's own format")
    n.add_argument("--set", action="append", metavar="KEY=VALUE", help="a format setting")
    n.add_argument("--players", help="a file, one player a line: name[, key=value…]")
    n.add_argument("--player", action="append", help="a player's name (repeatable)")
    r = action("record", "check and record one entry",
               "kangle event record cup.db result --file r1t1.json")
    r.add_argument("kind", choices=KINDS)
    r.add_argument("--data", help="the entry as JSON")
    r.add_argument("--file", help="the entry in a JSON file")
    r.add_argument("--from-game", metavar="GAME.db",
                   help="king of the hill: the match is this finished game log's")
    r.add_argument("--from-tiles", action="append", metavar="NAME=PHOTO",
                   help="Rummikub: a player and the photo of the tiles left in their hand "
                        "(one per player still holding tiles; with --round and --table)")
    r.add_argument("--went-out", action="append", metavar="NAME",
                   help="with --from-tiles: a player who went out (no tiles left)")
    r.add_argument("--round", type=int)
    r.add_argument("--table", type=int)
    r.add_argument("--sure", action="store_true",
                   help="with --from-tiles: the tiles flagged to check were checked: record")
    c = action("correct", "record a correction that replaces an earlier entry",
               "kangle event correct cup.db 17 --file fixed.json")
    c.add_argument("seq", type=int, help="the entry to replace (see `kangle event log`)")
    c.add_argument("--data")
    c.add_argument("--file")
    c.add_argument("--void", action="store_true", help="cancel the entry instead")
    c.add_argument("--reason")
    d = action("draw", "make and log the next draw (groups, seating)",
               "kangle event draw sgs.db")
    d.add_argument("--round", type=int)
    s = action("standings", "standings, always recomputed from the log",
               "kangle event standings cup.db --csv > standings.csv")
    s.add_argument("--csv", action="store_true")
    s.add_argument("--json", action="store_true")
    s.add_argument("--html", metavar="OUT.html")
    s.add_argument("--trace", metavar="NAME", help="the entries behind a name's figures")
    h = action("sheets", "printable score sheets of a round (HTML, one page a table)",
               "kangle event sheets cup.db --round 2 --out round2.html")
    h.add_argument("--round", type=int, required=True)
    h.add_argument("--out", required=True)
    action("log", "every entry, corrections and superseded ones included",
           "kangle event log cup.db")
    x = action("export", "standings in every form and the whole log, to a folder",
               "kangle event export cup.db --out results/")
    x.add_argument("--out", required=True)
