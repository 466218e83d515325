"""`kangle fit-physics`: a venue's friction and restitution, fitted to its tracked shots."""

from __future__ import annotations

import argparse
import statistics
from dataclasses import replace
from pathlib import Path

from physics.fit import LEAST_RUNS, Fit, fit_physics
from physics.profile import load_physics, profile_toml
from rules.board import load_board
from rules.errors import KangleError
from rules.jsonfile import read_json, write_text
from rules.shot import ShotRecord


def cmd_fit_physics(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.suffix != ".toml":
        raise KangleError(f"--out {out}: a physics profile is a .toml file")
    if not out.parent.is_dir():
        raise KangleError(f"--out {out}: there is no folder {out.parent} to write it in")
    board = load_board(args.board, playable=True)
    start = load_physics(args.physics)
    records = []
    for path in args.shots:
        record = ShotRecord.from_json(read_json(path, "shot record"))
        if not record.trajectory or not record.table:
            raise KangleError(f"{path} holds no paths to fit to (no trajectory or no table): "
                              "give records written by `kangle referee --records DIR` or "
                              "`kangle sim --out`")
        records.append(record)
    fit = fit_physics(records, board, start)
    for k, why in fit.left_out:
        print(f"left out {args.shots[k]}: {why}")
    said = report(fit, start.name)
    print("\n".join(said))
    for k, mm in fit.parted():
        print(f"  {args.shots[k]} is replayed {mm:.0f} mm from what was seen, far more than the "
              f"others: the camera may have lost or mistaken a piece in it; its samples that "
              "far off counted for little (look at it, or fit without it)")
    name = args.name or out.stem
    header = [f"Physics profile {name!r}, written by `kangle fit-physics` from "
              f"{len(records)} shot records, starting from {start.name}; the values not "
              "fitted are its.", *said]
    write_text(out, profile_toml(replace(fit.profile, name=name), "\n".join(header),
                                 _notes(fit)))
    load_physics(out)  # what was written reads back
    print(f"wrote {out}: play and replay with it by --physics {out}")
    return 0


_FLOOR_HINT = "a thinner cut, or a piece running flatter into a cushion, pins it down"


def report(fit: Fit, start: str) -> list[str]:
    lines = [f"fitted to {fit.shots} shot{'s' if fit.shots != 1 else ''} "
             f"({fit.samples} samples): the replays are {fit.before_mm:.1f} mm RMS from what "
             f"was seen with {start}, {fit.after_mm:.1f} mm with the fitted values"]
    runs = fit.free_runs
    if len(runs) >= LEAST_RUNS:
        lines.append(f"  sliding friction on the pieces' {len(runs)} free runs (each slows at "
                     f"μ·g): {statistics.median(runs):.3f} ({min(runs):.3f}–{max(runs):.3f}); "
                     "the fit starts from there")
    else:
        lines.append(f"  {len(runs)} free run{'s' if len(runs) != 1 else ''} (a piece sliding "
                     f"between contacts), fewer than {LEAST_RUNS}: sliding friction is fitted "
                     "with the rest")
    if fit.shots < 3:
        lines.append(f"  (the ± come from how the shots disagree with each other: from "
                     f"{fit.shots} they say little — fit to three or more)")
    for v in fit.values:
        if v.at_least is not None:
            lines.append(f"  {v.name:<20} {v.start:.3f} → {v.value:.3f}  AT LEAST "
                         f"{v.at_least:.3f}: every contact here that shows it stops slipping, "
                         f"and any more replays the same ({_FLOOR_HINT})")
        elif v.sd is None:
            lines.append(f"  {v.name:<20} {v.value:.3f}  kept: no shot here depends on it "
                         f"(needs {v.needs})")
        elif not v.determined:
            lines.append(f"  {v.name:<20} {v.start:.3f} → {v.value:.3f} ± {v.sd:.3f}  NOT SURE: "
                         f"these shots hardly show it (add {v.needs})")
        else:
            lines.append(f"  {v.name:<20} {v.start:.3f} → {v.value:.3f} ± {v.sd:.3f}")
    return lines


def _notes(fit: Fit) -> dict[str, str]:
    """The comment above each fitted value in the written profile."""
    notes = {}
    for v in fit.values:
        if v.at_least is not None:
            notes[v.name] = (f"at least {v.at_least:.4f}: the fitted shots stop slipping at "
                             "any friction above that; the starting value or that floor")
        elif v.sd is None:
            notes[v.name] = "kept from the starting profile: no fitted shot depends on it"
        else:
            sure = "" if v.determined else " (not sure: the shots hardly show it)"
            notes[v.name] = f"fitted: {v.value:.4f} ± {v.sd:.4f} (one standard deviation){sure}"
    return notes


def add_parser(sub, formatter) -> None:
    f = sub.add_parser(
        "fit-physics", formatter_class=formatter,
        help="fit friction and restitution to a venue's tracked shots",
        description="Fit the simulator's sliding friction, piece and cushion restitution and "
                    "friction to shots the camera tracked (or the simulator recorded), so that "
                    "it replays them; print each value with its uncertainty and how far the "
                    "replays are from what was seen before and after, and write the fitted "
                    "physics profile. Each shot's stroke (direction, speed, instant, start) is "
                    "fitted with it. Five to ten shots with full hits, cuts and cushions do.",
        epilog="examples:\n  kangle referee --video match.avi --calibration venue.json "
               "--game final.db --headless --records shots\n"
               "  kangle fit-physics shots/*.json --out venue-physics.toml\n"
               "  kangle sim --physics venue-physics.toml --circle SW --angle 80 --speed 6")
    f.add_argument("shots", nargs="+", metavar="SHOT",
                   help="shot records with paths (kangle referee --records, kangle sim --out)")
    f.add_argument("--out", required=True, help="write the fitted physics profile here (.toml)")
    f.add_argument("--name", help="the profile's name (default: the file's name)")
    f.add_argument("--board", default="goma", help="board profile (default: goma)")
    f.add_argument("--physics", default="standard",
                   help="the profile to start from; its other values are kept (default: standard)")
    f.set_defaults(run=cmd_fit_physics)
