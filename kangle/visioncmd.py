"""`kangle calibrate camera|board` and `kangle detect`."""

from __future__ import annotations

import argparse
import json

import cv2
import numpy as np

from calibration.colour import FEW_SAMPLES
from calibration.intrinsics import calibrate_camera, default_intrinsics, load_intrinsics
from calibration.profile import Calibration
from calibration.venue import SIDES, calibrate_board
from rules.board import load_board
from rules.errors import KangleError
from vision.detect import Detector
from vision.photo import read_image


def cmd_calibrate(args: argparse.Namespace) -> int:
    if args.what == "camera":
        photos: list[tuple[str, np.ndarray | str]] = []
        for p in args.photos:  # each through the one checked way in; a bad one is said
            try:
                photos.append((p, read_image(p)[0]))
            except KangleError as exc:
                photos.append((p, str(exc)))
        cols, _, rows = args.pattern.partition("x")
        if not (cols.isdigit() and rows.isdigit() and 2 <= int(cols) <= 60 and
                2 <= int(rows) <= 60):
            raise KangleError("--pattern is the chessboard's inner corners, columns x rows, "
                              "each 2 to 60, like 9x6")
        if not 1 <= args.square_mm <= 500:
            raise KangleError(f"--square-mm {args.square_mm}: the side of one printed square "
                              "in millimetres, measured with a ruler (1 to 500)")
        report = calibrate_camera(photos, (int(cols), int(rows)), args.square_mm)
        report.save(args.out)
        c = report.camera
        print(f"camera: fx {c.matrix[0, 0]:.1f} fy {c.matrix[1, 1]:.1f} px, centre "
              f"({c.matrix[0, 2]:.1f}, {c.matrix[1, 2]:.1f}), distortion "
              f"{', '.join(f'{d:.4f}' for d in c.dist)}")
        print(f"reprojection error {report.rms_px:.3f} px over {len(report.used)} photos; "
              f"coverage of the view {report.coverage:.0%}")
        for s in report.skipped:
            print(f"skipped {s}")
        for w in report.warnings:
            print(f"WARNING: {w}")
        print(f"wrote {args.out}")
        return 0
    if args.side_mm is not None and not 200 <= args.side_mm <= 3000:
        raise KangleError(f"--side-mm {args.side_mm}: the playing surface's side in millimetres, "
                          "measured with a tape (740 on a tournament board)")
    frame, _ = read_image(args.frame)
    h, w = frame.shape[:2]
    if args.camera:
        camera = load_intrinsics(args.camera)
    else:
        camera = default_intrinsics((w, h))
        print("WARNING: no camera calibration given (--camera): assuming no lens distortion")
    corners = None
    if args.manual:
        from kangle.clicker import click_corners

        corners = click_corners(frame)
    earlier = Calibration.load(args.venue) if args.venue else None
    cal = calibrate_board(frame, camera, load_board(args.board), measure=not args.no_measure,
                          side_mm=args.side_mm, corners_px=corners, red_side=args.red_side,
                          earlier=earlier)
    cal.save(args.out)
    b = cal.board
    print(f"board found: residual {cal.residual_mm:.2f} mm")
    print(f"board: side {b.side:g} mm, holes {b.hole_diameter:g} mm at {b.hole_inset:g} mm, "
          f"circles {b.circle_diameter:g} mm at {b.circle_inset:g} mm, rings "
          f"{b.penalty_diameter:g}/{b.inner_diameter:g} mm")
    m, seen = cal.colours, cal.learnt_from
    learnt = ", ".join(f"{c} (brightness {r[0]:.2f} of the board's"
                       + (f", from {seen[c]} piece{'s' * (seen[c] > 1)})" if c in seen else
                          ", as --venue had it)" if seen and earlier else ")")
                       for c, (r, _) in m.classes.items())
    missing = [c for c in b.set_colours if c not in m.classes]
    print(f"colours learnt: {learnt}" + (
        f"; not seen, so not looked for: {', '.join(missing)} (give this venue's "
        "calibration from a frame that shows them with --venue)" if missing else ""))
    few = [c for c, n in seen.items() if n < FEW_SAMPLES and b.count_of(c) >= FEW_SAMPLES]
    if few:
        print(f"WARNING: {' and '.join(few)} learnt from fewer than {FEW_SAMPLES} pieces "
              "apart from the others: if such pieces are missed or miscounted, calibrate "
              "again from a frame that shows more of them apart (or the set-up), or give "
              "this venue's earlier calibration with --venue")
    print(f"wrote {args.out}")
    return 0


# what each colour is marked in: a colour that stands out against the piece itself
MARK_BGR = {"red": (255, 255, 0), "black": (0, 255, 255), "white": (255, 0, 255)}


def annotate(frame: np.ndarray, detections, cal: Calibration) -> np.ndarray:
    """The frame with the playing surface outlined and each piece ringed at its true size
    in a colour that stands out against it, with its colour and kind written beside it;
    lines and letters scale with the image."""
    out = frame.copy()
    board = cal.board
    unit = max(1, int(round(max(frame.shape[:2]) / 900)))
    h = board.half
    edge = cal.camera.project(np.array([(x, y, 0.0) for x, y in np.vstack([
        np.column_stack([np.linspace(-h, h, 20), np.full(20, -h)]),
        np.column_stack([np.full(20, h), np.linspace(-h, h, 20)]),
        np.column_stack([np.linspace(h, -h, 20), np.full(20, h)]),
        np.column_stack([np.full(20, -h), np.linspace(h, -h, 20)])])]))
    cv2.polylines(out, [np.round(edge).astype(np.int32)], True, (0, 200, 0), unit, cv2.LINE_AA)
    for d in detections:
        striker = d.kind == "striker"
        z = board.striker_thickness if striker else board.piece_thickness
        radius = board.striker_radius if striker else board.piece_radius
        centre, rim = cal.camera.project(np.array([[d.x, d.y, z], [d.x + radius, d.y, z]]))
        r = max(4, int(round(np.linalg.norm(rim - centre))))
        colour = MARK_BGR.get(d.colour, (255, 255, 255))
        at = (int(round(centre[0])), int(round(centre[1])))
        cv2.circle(out, at, r + unit, colour, 2 * unit, cv2.LINE_AA)
        cv2.putText(out, f"{d.colour} {d.kind}", (at[0] + r + 2 * unit, at[1] + 4 * unit),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.4 * unit, (0, 0, 0), 3 * unit, cv2.LINE_AA)
        cv2.putText(out, f"{d.colour} {d.kind}", (at[0] + r + 2 * unit, at[1] + 4 * unit),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.4 * unit, colour, unit, cv2.LINE_AA)
    return out


def cmd_detect(args: argparse.Namespace) -> int:
    cal = Calibration.load(args.calibration)
    frame, _ = read_image(args.frame)
    detections = Detector(cal).detect(frame)
    if args.json:
        print(json.dumps({"frame": args.frame, "pieces": [d.to_json() for d in detections]},
                         indent=2))
    else:
        for d in sorted(detections, key=lambda d: (d.weak, d.colour, d.kind, -d.y)):
            print(f"{d.colour:<6} {d.kind:<8} ({d.x:7.1f}, {d.y:7.1f}) mm  {d.where:<8} "
                  f"{d.confidence:.2f}" + ("  maybe: a dark disc on the rim" if d.weak else ""))
        sure = [d for d in detections if not d.weak]
        counts = ", ".join(f"{c} {sum(d.colour == c for d in sure)}"
                           for c in cal.board.set_colours)
        maybe = len(detections) - len(sure)
        print(f"{len(sure)} found: {counts}" + (f"; {maybe} maybe on the rim" if maybe else ""))
    if args.annotate:
        cv2.imwrite(args.annotate, annotate(frame, detections, cal))
        print(f"wrote {args.annotate}")
    return 0


def add_parsers(sub, formatter) -> None:
    c = sub.add_parser("calibrate", formatter_class=formatter,
                       help="calibrate the camera (chessboard) or the board (any frame)",
                       description="Camera intrinsics from chessboard photos, or the board's "
                                   "pose, geometry and colours from one frame: the set-up "
                                   "position (all pieces in their rows, strikers in SW and NE), "
                                   "or any moment of a game with --red-side or --venue.",
                       epilog="examples:\n  kangle calibrate camera shots/*.png --pattern 9x6 "
                              "--square-mm 25 --out camera.json\n"
                              "  kangle calibrate board setup.png --camera camera.json "
                              "--out venue.json")
    whats = c.add_subparsers(dest="what", required=True, metavar="WHAT")
    cam = whats.add_parser("camera", formatter_class=formatter, help="intrinsics and distortion",
                           description="Camera intrinsics and distortion from chessboard photos.",
                           epilog="example:\n  kangle calibrate camera shots/*.png --pattern 9x6 "
                                  "--square-mm 25 --out camera.json")
    cam.add_argument("photos", nargs="+")
    cam.add_argument("--pattern", default="9x6", help="inner corners, columns x rows")
    cam.add_argument("--square-mm", type=float, default=25.0)
    cam.add_argument("--out", default="camera.json")
    cam.set_defaults(run=cmd_calibrate)
    board = whats.add_parser("board", formatter_class=formatter, help="pose, geometry, colours",
                             description="Find the board in a frame and write the calibration "
                                         "profile every later command takes. Red's side comes "
                                         "from the set-up rows when the pieces stand in them, "
                                         "else from --red-side or --venue; a view that does "
                                         "not show the whole board is refused.",
                             epilog="examples:\n  kangle calibrate board setup.png --camera "
                                    "camera.json --side-mm 742 --out venue.json\n"
                                    "  kangle calibrate board midgame.png --red-side bottom "
                                    "--out venue.json")
    board.add_argument("frame")
    board.add_argument("--camera", help="camera calibration (default: a distortion-free guess)")
    board.add_argument("--board", default="goma",
                       help="board profile to start from: goma (康樂棋, the default), carrom "
                            "(standard carrom: white, black and a red queen) or a .toml file")
    board.add_argument("--side-mm", type=float, help="the playing surface's side, if measured")
    board.add_argument("--no-measure", action="store_true",
                       help="keep the profile's geometry instead of measuring the board")
    board.add_argument("--manual", action="store_true",
                       help="click the four corners in a window instead of finding them")
    board.add_argument("--red-side", choices=sorted(SIDES),
                       help="where red's cushion is in the image, for a frame that does not "
                            "show the set-up rows (mid-game)")
    board.add_argument("--venue", help="this venue's earlier calibration: red's side from it "
                                       "when the frame does not show the set-up rows")
    board.add_argument("--out", default="venue.json")
    board.set_defaults(run=cmd_calibrate)
    d = sub.add_parser("detect", formatter_class=formatter, help="find every piece in a frame",
                       description="Every piece and striker in a frame, in board millimetres.",
                       epilog="example:\n  kangle detect frame.png --calibration venue.json "
                              "--annotate found.png")
    d.add_argument("frame")
    d.add_argument("--calibration", required=True)
    d.add_argument("--json", action="store_true")
    d.add_argument("--annotate", help="write the frame with every piece marked")
    d.set_defaults(run=cmd_detect)
