"""`kangle replay`: open a shot record in the viewer, or export it as PNG/GIF."""

from __future__ import annotations

import argparse
import math
from dataclasses import replace
from pathlib import Path

from kangle.present import need_display, ruling_lines
from kangle.simcmd import load_state, suggestion_boards
from physics.planner import PLAYERS, suggest
from physics.profile import load_physics
from physics.simulate import Stroke, simulate
from physics.viewer import Aim, Shown, export
from physics.window import run_window
from rules.board import load_board
from rules.errors import KangleError
from rules.game import lag, replay
from rules.gamelog import GameLog
from rules.jsonfile import read_json, write_json
from rules.pieces import is_striker
from rules.referee import judge
from rules.rule_profile import load_rules
from rules.shot import ShotRecord
from rules.state import ON_TABLE, POCKETED, Piece, TableState, initial_state
from rules.timeline import Timeline
from vision.strike import fit_strike


def cmd_replay(args: argparse.Namespace) -> int:
    if args.entry is not None:
        record, state, board, rules = _from_log(args)
    else:
        board, rules = load_board(args.board, playable=True), load_rules(args.profile)
        record = ShotRecord.from_json(read_json(args.shot, "shot record"))
        state = load_state(args.state, board, record.shooter) if args.state else None
    before = {p: state.pos(p) for p in state.left("red") + state.left("black")} if state else None
    timeline = Timeline.of(record, before, board)  # pieces leaving: seen leaping the rim
    if state is None:
        state = _state_from_table(record, board)

    def calls_for(rec: ShotRecord) -> list[str]:
        _, ruling = judge(state, rec, board, rules)
        return ruling_lines(ruling, f"{rec.shooter} from {rec.circle} ({rec.source})")

    lines = calls_for(record)
    physics = load_physics(args.physics)
    shown = timeline
    if record.source == "camera":  # beside it, what the physics says that stroke does
        rerun = rerun_stroke(record, state, board, physics)
        if rerun is not None:
            shown = [timeline, Timeline.of(rerun, board=board)]
            lines = [*lines, "", *calls_for(rerun)]
    if args.export:
        export(shown, lines, args.export, board)
        print(f"wrote {args.export}")
        return 0
    need_display("write the replay to a file with --export shot.gif (or .png)")

    def restrike(angle: float, speed: float):
        new = simulate(state, stroke_from(record, board, angle, speed), board, physics)
        aim = Aim(record.start, angle, speed)
        return Shown(Timeline.of(new, board=board), "new stroke", aim), calls_for(new)

    def suggest_at(t: float):
        at = state_at(state, record, timeline, t, board, rules)
        found = suggest(at, board, physics, rules, PLAYERS[args.player])
        return suggestion_boards(at, found, board, physics)

    run_window(shown, lines, board, restrike, suggest_at, save_stroke)
    return 0


def stroke_from(record: ShotRecord, board, angle: float, speed: float) -> Stroke:
    """A stroke of ``angle`` (degrees) and ``speed`` (m/s) played as the record's shot
    was: the same shot piece from where it stood (a striker off its circle's centre)."""
    cx, cy = board.circle_centre(record.circle)
    piece = None if is_striker(record.shot_piece) else record.shot_piece
    return Stroke(record.shooter, record.circle, angle, min(max(speed, 0.05), 15.0),
                  (record.start[0] - cx, record.start[1] - cy), piece)


def rerun_stroke(record: ShotRecord, state, board, physics) -> ShotRecord | None:
    """The simulator's run of the stroke a tracked shot began with: the striker's start,
    and the direction and speed fitted to its first tracked samples (vision/strike.py)."""
    samples = (record.trajectory or {}).get(record.shot_piece, ())
    strike = fit_strike([(-1.0, *record.start), *samples]) if samples else None
    if strike is None or len(samples) < 2:
        return None
    stroke = stroke_from(record, board, math.degrees(strike.angle), strike.speed / 1000)
    try:
        return simulate(state, stroke, board, physics)
    except KangleError:
        return None


def state_at(state: TableState, record: ShotRecord, timeline: Timeline, t: float, board,
             rules) -> TableState:
    """The table at time ``t`` (s) of a shot, for suggestions: at its end, the table the
    referee leaves (pieces taken off or put back, the next shooter); before, every piece
    where it is at that moment as if stopped there, the same player to shoot again (one
    out of sight or off the playing surface by then is out of play)."""
    if t >= timeline.duration:
        return judge(state, record, board, rules)[0]
    seen = {p: pos for p, pos in timeline.positions(t).items()
            if board.region(*pos) == "surface"}
    pieces = {pid: (replace(p, pos=seen[pid]) if pid in seen else Piece(pid, POCKETED))
              for pid, p in state.pieces.items() if p.status == ON_TABLE}
    return replace(state.with_pieces(**pieces), turn=record.shooter)


def save_stroke(record: ShotRecord) -> str:
    """Write a stroke tried in the viewer to the first free stroke-N.json here."""
    n = 1
    while Path(f"stroke-{n}.json").exists():
        n += 1
    write_json(f"stroke-{n}.json", record.to_json())
    return f"saved as stroke-{n}.json (kangle replay stroke-{n}.json --state STATE)"


def _state_from_table(record: ShotRecord, board):
    """The table state before the shot when the record shows it was the set-up position
    (4.1: every piece in its row, as the simulator starts by default). Any other table
    carries more than positions — the 小回 stack, protections, extra shots owed — that a
    record does not hold, so the state must be given: never a fresh table in silence."""
    state, _ = lag(initial_state(board), {"first": record.shooter})
    table = record.table or {}
    setup = {p: state.pos(p) for p in state.left("red") + state.left("black")}
    if set(table) - {"RS", "BS"} != set(setup) or any(
            math.dist(table[p], setup[p]) > 1.0 for p in setup):
        raise KangleError("this shot was not played from the set-up position, and the record "
                          "holds where pieces stood but not the rest of the table (小回 stack, "
                          "protections, shots owed): give the table state it was played from "
                          "with --state STATE.json (the one given to `kangle sim --state`, or "
                          "`kangle game state`)")
    pieces = {}
    for pid, p in state.pieces.items():
        if p.status == "hand":
            pieces[pid] = p
        elif pid in table:
            pieces[pid] = replace(p, pos=table[pid])
        else:
            pieces[pid] = Piece(pid, POCKETED)
    return replace(state, pieces=pieces)


def _from_log(args: argparse.Namespace):
    """A game log's shot entry (``--entry N``): its record as stored, the table as the
    log had it just before, and the game's own board and rules."""
    if args.state:
        raise KangleError("--entry takes the table from the game log: leave out --state")
    log = GameLog(args.shot)
    try:
        entries = log.entries()
    finally:
        log.close()
    entry = next((e for e in entries if e.seq == args.entry), None)
    if entry is None or entry.kind != "shot":
        kinds = ", ".join(f"#{e.seq}" for e in entries if e.kind == "shot") or "none"
        what = f"a {entry.kind} entry" if entry else "not in the log"
        raise KangleError(f"entry #{args.entry} of {args.shot} is {what}, not a shot "
                          f"(its shots: {kinds})")
    before = replay([e for e in entries if e.seq < entry.seq], tolerant=True)
    record = ShotRecord.from_json(entry.data)
    return record, before.state, before.setup.board, before.setup.rules


def add_parser(sub, formatter) -> None:
    r = sub.add_parser(
        "replay", formatter_class=formatter, help="replay a shot in the viewer or export it",
        description="Open a shot record (simulated or tracked) in the replay viewer: the "
                    "board to scale, trails, the referee's calls; pause, step, scrub, "
                    "speed 0.1x-2x, and drag from the striker to try another stroke. "
                    "--export writes a PNG (final frame) or GIF with no display needed.",
        epilog="examples:\n  kangle replay break.json\n  kangle replay break.json "
               "--export docs/break.gif\n  kangle replay final.db --entry 3 --export shot3.gif")
    r.add_argument("shot", help="shot record JSON (from `kangle sim --out` or the camera), "
                                "or a game log with --entry")
    r.add_argument("--entry", type=int, metavar="N",
                   help="the game log's shot entry N (`kangle game show` numbers them), "
                        "from the table as it stood before it")
    r.add_argument("--state", help="table state before the shot (needed unless the shot was "
                                   "played from the set-up position)")
    r.add_argument("--export", help="write OUT.png or OUT.gif instead of opening a window")
    r.add_argument("--board", default="goma", help="board profile (default: %(default)s)")
    r.add_argument("--physics", default="standard", help="physics profile for new strokes")
    r.add_argument("--player", choices=tuple(PLAYERS), default="club",
                   help="whose execution the viewer's suggestions (key g) allow for "
                        "(default: %(default)s)")
    r.add_argument("--profile", default="standard", help="rule profile (default: %(default)s)")
    r.set_defaults(run=cmd_replay)
