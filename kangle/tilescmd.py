"""`kangle tiles`: read the Rummikub tiles left in a hand from photos, and score them."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from rules.errors import KangleError
from rules.games.rummikub import Hand, Profile, penalty
from vision.photo import BIG_PHOTO, read_image
from vision.tiles.draw import annotate
from vision.tiles.read import CONFIDENT, TileReading, read_tiles


def add_parser(sub, formatter) -> None:
    t = sub.add_parser(
        "tiles", formatter_class=formatter, help="read Rummikub tiles in photos and score them",
        description="Find every Rummikub tile in each photo (flat or on a rack, any "
                    "rotation), read its number, colour or joker, and give the hand's "
                    "penalty. Tiles read with little confidence are flagged for a person "
                    "to check; tiles cut by the photo's edge are reported, not counted.",
        epilog="examples:\n  kangle tiles examples/tiles/rows.jpg\n"
               "  kangle tiles photos/*.jpg --json --annotate checked/\n"
               "  kangle tiles hand.jpg --no-initial-meld")
    t.add_argument("photos", nargs="+", help="photos (JPEG, PNG…)")
    t.add_argument("--json", action="store_true", help="print one JSON object")
    t.add_argument("--annotate", metavar="OUT_DIR",
                   help="write each photo with its tiles outlined and labelled here")
    t.add_argument("--no-initial-meld", action="store_true",
                   help="the player never made the initial meld: -100 if the hand cannot "
                        "make one, -200 if it could have")
    t.set_defaults(run=cmd_tiles)


def cmd_tiles(args: argparse.Namespace) -> int:
    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    results, failed = [], 0
    for i, path in enumerate(args.photos):
        _progress(i, len(args.photos), path)
        try:
            image, scale, readings = read_hand_photo(path)
        except KangleError as e:
            failed += 1
            results.append({"path": path, "error": str(e)})
            continue
        result = _result(path, readings, scale, args.no_initial_meld)
        results.append(result)
        if out_dir is not None:
            target = out_dir / (Path(path).stem + "-tiles.jpg")
            cv2.imwrite(str(target), annotate(image, readings))
            result["annotated"] = str(target)
    _progress(len(args.photos), len(args.photos), "")
    if args.json:
        print(json.dumps({"photos": [{k: v for k, v in r.items() if not k.startswith("_")}
                                     for r in results]}, ensure_ascii=False))
    else:
        for r in results:
            print(_table(r))
    if failed:
        print(f"{failed} of {len(args.photos)} photos could not be read", file=sys.stderr)
    return 2 if failed else 0


def read_hand_photo(path: str) -> tuple:
    """The photo (at most BIG_PHOTO, and the factor it was scaled by) and its tiles read;
    a photo with no tile in it is refused with what to do."""
    image, scale = read_image(path, halve_above=BIG_PHOTO)
    readings = read_tiles(image)
    if not [r for r in readings if not r.cut]:
        raise KangleError(f"{path}: no tiles found — photograph the tiles from above, "
                          "lying flat or on the rack, filling most of the picture")
    return image, scale, readings


def hand_lines(path: str, readings: list[TileReading]) -> list[str]:
    """A photo's tiles one a line, each read with little confidence marked to check."""
    lines = [path, f"  {'#':>3}  {'tile':<10} {'confidence':>10}"]
    for i, t in enumerate((r for r in readings if not r.cut), 1):
        flag = "  <- check this tile" if not t.sure else ""
        lines.append(f"  {i:>3}  {_name(t):<10} {t.confidence:>10.2f}{flag}")
    return lines


def _result(path: str, readings: list[TileReading], scale: float, no_meld: bool) -> dict:
    counted = [r for r in readings if not r.cut]
    value, why = penalty(Hand(path, tuple(r.tile for r in counted), None, not no_meld, False),
                         Profile())
    return {
        "path": path,
        "tiles": [{"number": r.tile.number, "colour": r.tile.colour, "joker": r.tile.joker,
                   "confidence": round(r.confidence, 3),
                   "corners": [[round(float(x) * scale, 1), round(float(y) * scale, 1)]
                               for x, y in r.corners]}
                  for r in counted],
        "value": value,
        "uncertain": sum(1 for r in counted if not r.sure),
        "cut": [{"number": r.tile.number, "colour": r.tile.colour, "joker": r.tile.joker,
                 "confidence": round(r.confidence, 3)} for r in readings if r.cut],
        "_why": why,
        "_readings": counted,
    }


def _table(r: dict) -> str:
    if "error" in r:
        return f"{r['path']}: {r['error']}\n"
    lines = hand_lines(r["path"], r["_readings"])
    for t in r["cut"]:
        looks = "joker" if t["joker"] else f"{t['colour']} {t['number']}"
        lines.append(f"    -  cut by the photo's edge, not counted (looks like {looks})")
    lines.append(f"  penalty {r['value']}  ({r['_why']})")
    if r["uncertain"]:
        lines.append(f"  {r['uncertain']} tile(s) below {CONFIDENT:.0%} confidence: "
                     "check them against the photo (--annotate shows which)")
    return "\n".join(lines) + "\n"


def _name(t: TileReading) -> str:
    return "joker" if t.tile.joker else f"{t.tile.colour} {t.tile.number}"


def _progress(done: int, total: int, path: str) -> None:
    """A progress bar on the terminal's error stream for batches of photos."""
    if total < 2 or not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                     f"{Path(path).name[:40]:<40}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
