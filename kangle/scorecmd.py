"""`kangle score GAME RESULT`: the scores of one game and how each was made up."""

from __future__ import annotations

import argparse

from rules.games.registry import GAMES, score_file
from rules.games.sheet import Sheet
from rules.jsonfile import dumps


def sheet_lines(sheet: Sheet) -> list[str]:
    has_points = any(line.points is not None for line in sheet.lines)
    head = f"{'rank':>4}  {'name':<20} {'score':>8}" + (f" {'points':>7}" if has_points else "")
    out = [f"{sheet.game}", head]
    for line in sheet.lines:
        pts = f" {line.points:>7g}" if line.points is not None else ""
        out.append(f"{line.rank or '':>4}  {line.name:<20} {line.score:>8g}{pts}")
        out.extend(f"{'':>6}- {part}" for part in line.parts)
    out.extend(f"note: {note}" for note in sheet.notes)
    return out


def cmd_score(args: argparse.Namespace) -> int:
    sheet = score_file(args.game, args.result, args.profile)
    print(dumps(sheet.to_json()), end="") if args.json else print("\n".join(sheet_lines(sheet)))
    return 0


def add_parser(sub, formatter) -> None:
    s = sub.add_parser(
        "score", formatter_class=formatter, help="score one game from its result file",
        description="Score one game of any supported game and show how every score was "
                    "made up. Result formats: docs/formats.md; examples: examples/scores/.",
        epilog="examples:\n  kangle score rummikub examples/scores/rummikub.json\n"
               "  kangle score tickettoride examples/scores/tickettoride.json --json\n"
               "  kangle score kangle final.db")
    s.add_argument("game", choices=sorted(GAMES), metavar="GAME",
                   help="one of: " + ", ".join(sorted(GAMES)))
    s.add_argument("result", help="the game's result (JSON; for kangle also a game log .db)")
    s.add_argument("--profile", help="scoring profile name or .toml path (default: the "
                                     "game's shipped profile)")
    s.add_argument("--json", action="store_true", help="print the score sheet as JSON")
    s.set_defaults(run=cmd_score)
