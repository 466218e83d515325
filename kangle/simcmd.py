"""`kangle sim`: play one stroke in the simulator and print the referee's calls."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

from kangle.present import need_display, ruling_lines, table_line
from physics.profile import load_physics
from physics.simulate import Stroke, placement, simulate
from physics.viewer import Aim, Shown, check_export, export
from physics.window import run_window
from rules.board import load_board
from rules.errors import KangleError
from rules.game import lag
from rules.jsonfile import read_json, write_json
from rules.pieces import STRIKERS
from rules.referee import judge
from rules.rule_profile import load_rules
from rules.state import TableState, initial_state
from rules.timeline import Timeline


def load_state(path: str | None, board, shooter: str | None) -> TableState:
    """The table state from a file, or the set-up position with ``shooter`` to play."""
    if path:
        state = TableState.from_json(read_json(path, "table state"))
    else:
        state, _ = lag(initial_state(board), {"first": shooter or "red"})
    if shooter and state.turn != shooter:
        state = replace(state, turn=shooter, phase="play" if state.phase == "lag" else
                        state.phase)
    if state.turn is None:
        raise KangleError("nobody holds the shot in this state: give --shooter red|black")
    return state


def cmd_sim(args: argparse.Namespace) -> int:
    board = load_board(args.board, playable=True)
    physics = load_physics(args.physics)
    if args.fly_off:
        physics = physics.with_fly_off(True)
    state = load_state(args.state, board, args.shooter)
    stroke = Stroke(state.turn, args.circle, args.angle, args.speed, tuple(args.offset),
                    args.piece)
    record = simulate(state, stroke, board, physics)
    if args.out:
        write_json(args.out, record.to_json())
    new_state, ruling = judge(state, record, board, load_rules(args.profile))
    title = (f"simulated: {stroke.shooter} from {stroke.circle}, {stroke.angle:g}°, "
             f"{stroke.speed:g} m/s — {len(record.contacts)} contacts, "
             f"{record.duration:.2f} s to rest")
    print("\n".join(ruling_lines(ruling, title)))
    print(table_line(new_state))
    if args.out:
        print(f"shot record written to {args.out}")
    if args.state_out:
        write_json(args.state_out, new_state.to_json())
    return 0


def add_parser(sub, formatter) -> None:
    s = sub.add_parser(
        "sim", formatter_class=formatter, help="simulate one stroke and rule on it",
        description="Play one stroke in the Pymunk simulator from a table state, print the "
                    "referee's calls, and optionally save the shot record (with its "
                    "trajectory) for `kangle replay`, `kangle judge` or `kangle game shot`.",
        epilog="examples:\n  kangle sim --circle SW --angle 80 --speed 6 --out break.json\n"
               "  kangle sim --state state.json --circle NE --angle 250 --speed 3.5")
    _table_options(s)
    s.add_argument("--circle", required=True, choices=("SW", "SE", "NW", "NE"),
                   help="shooting circle (red: SW, SE; black: NW, NE)")
    s.add_argument("--angle", required=True, type=float,
                   help="direction in degrees: 0 = towards +x (east), 90 = towards black")
    s.add_argument("--speed", required=True, type=float, help="speed of the shot piece, m/s")
    s.add_argument("--offset", nargs=2, type=float, default=(0.0, 0.0), metavar=("DX", "DY"),
                   help="striker position in the circle, mm from its centre")
    s.add_argument("--piece", help="shoot this 自由子 instead of the striker")
    s.add_argument("--fly-off", action="store_true",
                   help="enable the fly-off model (pieces may jump the cushion)")
    s.add_argument("--out", help="write the shot record here")
    s.add_argument("--state-out", help="write the table state after the ruling here")
    _profile_options(s)
    s.set_defaults(run=cmd_sim)
    g = sub.add_parser(
        "suggest", formatter_class=formatter, help="suggest the best shots from a table",
        description="Rank shots at the opponent's pieces (each piece, each hole, from each of "
                    "the shooter's circles and with each 自由子, straight and off one cushion, "
                    "three speeds): the easiest played once in the simulator, the most "
                    "promising up to 50 times under a player's execution noise, judged by the "
                    "rules; worth = pieces pocketed + half an extra shot - fouls - own pieces "
                    "lost.",
        epilog="examples:\n  kangle suggest --state mid.json --shooter red\n"
               "  kangle suggest --state mid.json --player expert --top 5 --workers 4 --json\n"
               "  kangle suggest --state mid.json --top 2 --export top.png")
    _table_options(g)
    g.add_argument("--player", choices=("beginner", "club", "expert"), default="club",
                   help="how precisely the player strikes (default: %(default)s)")
    g.add_argument("--top", type=int, default=3, help="how many shots to list")
    g.add_argument("--workers", type=int, default=1,
                   help="processes trying candidates side by side (default: 1; the answer "
                        "is the same with any number)")
    g.add_argument("--json", action="store_true", help="the suggestions as JSON")
    g.add_argument("--show", action="store_true",
                   help="open the suggestions in the replay viewer (keys 1-9 pick one: its "
                        "aim and what the simulator does with it)")
    g.add_argument("--export", metavar="FILE",
                   help="draw the suggestions side by side, aim and outcome, to a .png (the "
                        "end) or .gif (the shots at 1x)")
    _profile_options(g)
    g.set_defaults(run=cmd_suggest)


def _table_options(parser) -> None:
    """The table to shoot from and who shoots."""
    parser.add_argument("--state", help="table state JSON (default: the set-up position)")
    parser.add_argument("--shooter", choices=("red", "black"),
                        help="who shoots (default: whoever holds the shot in the state)")


def _profile_options(parser) -> None:
    """The board, physics and rule profiles, by name or .toml path."""
    for flag, default, what in (("--board", "goma", "board"),
                                ("--physics", "standard", "physics"),
                                ("--profile", "standard", "rule")):
        parser.add_argument(flag, default=default,
                            help=f"{what} profile (default: {default})")


def cmd_suggest(args: argparse.Namespace) -> int:
    from physics.planner import PLAYERS, suggest

    if not 1 <= args.top <= 20:
        raise KangleError("--top is 1 to 20")
    if not 1 <= args.workers <= 64:
        raise KangleError("--workers is 1 to 64 (processes; one per core at most helps)")
    if args.show:
        need_display("draw the suggestions to a file with --export top.png (or .gif)")
    if args.export:
        check_export(args.export)
    board = load_board(args.board, playable=True)
    physics = load_physics(args.physics)
    state = load_state(args.state, board, args.shooter)
    found = suggest(state, board, physics, load_rules(args.profile), PLAYERS[args.player],
                    top=args.top, workers=args.workers)
    if args.json:
        print(json.dumps({"shooter": state.turn, "player": args.player, "suggestions": [
            {"circle": s.stroke.circle, "piece": s.stroke.piece or STRIKERS[state.turn],
             "angle": round(s.stroke.angle, 2),
             "speed": s.stroke.speed, "target": s.target, "hole": s.hole,
             "cushion": s.cushion, "pocketed": round(s.pocketed, 3),
             "fouled": round(s.fouled, 3), "worth": round(s.worth, 3)} for s in found]},
            indent=2))
        return 0
    if not found:
        print(f"no shot, straight or off one cushion, sends one of {state.turn}'s opponent's "
              "pieces to a hole from here: play safe")
        return 0
    print(f"{state.turn} to shoot, as a {args.player} player (angle ±"
          f"{PLAYERS[args.player].angle_sd:g}°, speed ±"
          f"{PLAYERS[args.player].speed_sd:.0%}); best first:")
    given = f" --state {args.state}" if args.state else ""
    for k, s in enumerate(found, 1):
        st = s.stroke
        print(f"{k}. {suggestion_line(s)}\n   try it: kangle sim{given} --shooter "
              f"{state.turn} --circle {st.circle}{f' --piece {st.piece}' if st.piece else ''} "
              f"--angle {st.angle:.1f} --speed {st.speed:g}")
    if args.export or args.show:
        choices = suggestion_boards(state, found, board, physics)
        if args.export:
            export([b for b, _ in choices[:3]], [line for _, lines in choices[:1]
                                                 for line in lines], args.export, board)
            print(f"wrote {args.export}")
        if args.show:
            run_window(None, [], board, choices=choices)
    return 0


def suggestion_line(s) -> str:
    """One suggestion (physics.planner.Suggestion) in words."""
    st = s.stroke
    bank = f" off the {s.cushion} cushion" if s.cushion else ""
    free = f"the 自由子 {st.piece} in" if st.piece else "from"
    return (f"{free} {st.circle} at {st.angle:.1f}° and {st.speed:g} m/s{bank}: {s.target} "
            f"into {s.hole} — pockets it {s.pocketed:.0%} of tries, fouls {s.fouled:.0%}, "
            f"worth {s.worth:+.2f}")


def suggestion_boards(state: TableState, found: list, board, physics) -> list:
    """Each suggestion as the viewer shows it: (Shown, lines): the stroke played once
    without noise, its aim from where the shot piece stands, and the list of all the
    suggestions with this one marked."""
    out = []
    for k, s in enumerate(found):
        st = s.stroke
        record = simulate(state, st, board, physics)
        aim = Aim(placement(state, st, board)[1], st.angle, st.speed)
        lines = [f"{state.turn} to shoot; suggestion {k + 1} of {len(found)}, played once "
                 "without a player's noise:", ""] + [
            f"{'>' if j == k else ' '} {j + 1}. {suggestion_line(x)}" for j, x in enumerate(found)]
        out.append((Shown(Timeline.of(record, board=board), f"{k + 1}. {s.target} into "
                          f"{s.hole}", aim), lines))
    return out
