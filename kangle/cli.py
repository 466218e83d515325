"""Argument parsing and exit codes of the ``kangle`` command.

Exit codes: 0 done; 2 bad input (the message says what to fix); 3 the game log could
not be written (nothing was recorded); 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys

from kangle import (
    eventcmd,
    fitcmd,
    gamecmd,
    refereecmd,
    replaycmd,
    scorecmd,
    servecmd,
    simcmd,
    tilescmd,
    visioncmd,
)
from rules.errors import KangleError

_F = argparse.RawDescriptionHelpFormatter


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kangle", formatter_class=_F,
        description="康樂棋 referee, simulator and tracker; scorer for board and card games.",
        epilog="examples:\n  kangle demo\n  kangle game new final.db --red Ann --black Bo\n"
               "  kangle judge state.json shot.json\n\n"
               "Every subcommand explains itself: kangle SUBCOMMAND --help")
    sub = p.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")

    j = sub.add_parser("judge", formatter_class=_F, help="rule on one shot without a game file",
                       description="Print the referee's calls on one shot and the next state.",
                       epilog="example:\n  kangle state --first red > start.json\n"
                              "  kangle judge start.json examples/demo-game/01-break.json --json")
    j.add_argument("state", help="table state before the shot (JSON, kangle.table-state/1)")
    j.add_argument("shot", help="shot record (JSON, kangle.shot/1; - reads standard input)")
    _profiles(j)
    j.add_argument("--json", action="store_true", help="print the ruling and next state as JSON")
    j.add_argument("--out", help="also write the next table state to this file")
    j.set_defaults(run=gamecmd.cmd_judge)

    s = sub.add_parser("state", formatter_class=_F, help="write the set-up table state",
                       description="Print the starting position of rule 4.1 as a table state.",
                       epilog="example:\n  kangle state --first red > state.json")
    s.add_argument("--board", default="goma", help="board profile name or .toml path")
    s.add_argument("--first", choices=("red", "black"), help="also apply a lag won by this side")
    s.set_defaults(run=gamecmd.cmd_state)

    _game_parser(sub)
    simcmd.add_parser(sub, _F)
    fitcmd.add_parser(sub, _F)
    replaycmd.add_parser(sub, _F)
    scorecmd.add_parser(sub, _F)
    eventcmd.add_parser(sub, _F)
    servecmd.add_parser(sub, _F)
    visioncmd.add_parsers(sub, _F)
    refereecmd.add_parser(sub, _F)
    tilescmd.add_parser(sub, _F)

    d = sub.add_parser("demo", formatter_class=_F, help="play the bundled sample game",
                       description="Play a scripted game through the referee engine and print "
                                   "every call, as a referee would see it; then film a "
                                   "simulated game and referee it from the video alone.",
                       epilog="example:\n  kangle demo examples/demo-game")
    d.add_argument("folder", nargs="?", default="examples/demo-game",
                   help="folder with script.json and shot records (default: %(default)s)")
    d.add_argument("--no-video", action="store_true",
                   help="skip part 2 (a simulated game filmed and refereed from video)")
    d.add_argument("--keep", metavar="FOLDER",
                   help="keep part 2's film there: game.avi and setup.jpg (the set-up frame "
                        "to calibrate from), to referee yourself with `kangle referee --video`")
    d.set_defaults(run=gamecmd.cmd_demo)
    return p


def _profiles(p: argparse.ArgumentParser) -> None:
    p.add_argument("--board", default="goma", help="board profile name or .toml path "
                                                   "(default: %(default)s)")
    p.add_argument("--profile", default="standard", help="rule profile name or .toml path "
                                                         "(default: %(default)s)")


def _game_parser(sub) -> None:
    g = sub.add_parser("game", formatter_class=_F, help="keep a game in an append-only log",
                       description="A game log (SQLite) stores every entry before its ruling "
                                   "is shown; the state is always recomputed from the log.",
                       epilog="example session:\n"
                              "  kangle game new final.db --red Ann --black Bo\n"
                              "  kangle game lag final.db --red-mm 12 --black-mm 40\n"
                              "  kangle game shot final.db shot1.json\n"
                              "  kangle game discard final.db R03 R07\n"
                              "  kangle game timeout final.db\n"
                              "  kangle game undo final.db\n"
                              "  kangle game confirm final.db 7\n"
                              "  kangle game show final.db")
    gs = g.add_subparsers(dest="action", required=True, metavar="ACTION")

    def action(name: str, help_text: str, example: str) -> argparse.ArgumentParser:
        a = gs.add_parser(name, help=help_text, description=help_text, formatter_class=_F,
                          epilog=f"example:\n  {example}")
        a.add_argument("game", help="the game log file (.db)")
        a.add_argument("--by", default="referee", help="who makes the entry (kept in the log)")
        a.set_defaults(run=gamecmd.cmd_game)
        return a

    n = action("new", "start a game log", "kangle game new final.db --red Ann --black Bo")
    n.add_argument("--red", required=True, help="red player's name")
    n.add_argument("--black", required=True, help="black player's name")
    _profiles(n)
    lag = action("lag", "enter the lag (3.1): who shoots first",
                 "kangle game lag final.db --red-mm 12 --black-mm 40")
    lag.add_argument("--red-mm", type=float, help="red striker's distance from the centre, mm")
    lag.add_argument("--black-mm", type=float, help="black striker's distance, mm")
    lag.add_argument("--first", choices=("red", "black"), help="or: the referee's decision")
    shot = action("shot", "judge and record one shot",
                  "kangle game shot final.db \"xB05 B05>NW\"\n"
                  "  kangle game shot final.db shot.json --body-touch")
    shot.add_argument("shot", help="the shot in notation, quoted (\"xB05 B05>NW\": see "
                                   "docs/notation.md), or a shot record (JSON file) from the "
                                   "simulator or camera; - reads JSON from standard input")
    shot.add_argument("--cue-tip-foul", action="store_true", help="4.3 not struck with the tip")
    shot.add_argument("--own-cue", action="store_true", help="5.2 striker hit the shooter's cue")
    shot.add_argument("--pivot", action="store_true", help="5.6 cue pivot crossed the side")
    shot.add_argument("--body-touch", action="store_true", help="6.6 body touched a piece")
    shot.add_argument("--cue-swept", nargs="+", metavar="PIECE", help="5.5 pieces the cue swept")
    tab = action("table", "set the table: a game taken up mid-way (instead of the lag), or "
                          "set right", "kangle game table final.db \"red 12 black 9 stack B05 "
                          "turn black owed black 1 first red\"")
    tab.add_argument("line", help="pieces left per colour, the 小回 stack (bottom first), the "
                                  "大回, who shoots, what is owed, who won the lag: see "
                                  "docs/notation.md")
    dis = action("discard", "the player holding the shot gives up pieces (8)",
                 "kangle game discard final.db R03 R07")
    dis.add_argument("pieces", nargs="+", help="own piece ids to discard")
    action("timeout", "no shot within the shot clock (4.2)", "kangle game timeout final.db")
    action("play", "a whole game at one prompt: shots in notation, undo, confirm, discard, "
                   "timeout; the calls and the table after every entry",
           "kangle game play final.db")
    action("undo", "cancel the last entry in force (stored as a new entry)",
           "kangle game undo final.db")
    void = action("void", "take a wrong entry out of the game (stored as a new entry): the "
                          "way to mend a log whose entry cannot be applied",
                  "kangle game void final.db 12 --reason \"entered twice\"")
    void.add_argument("entry", type=int, help="the entry number (#N in `game show`)")
    void.add_argument("--reason", help="why (kept in the log)")
    conf = action("confirm", "confirm the calls marked [CONFIRM] (they rest on something the "
                             "camera was not sure of), or reject them",
                  "kangle game confirm final.db 7")
    conf.add_argument("entry", type=int, nargs="?",
                      help="the entry number (#N in `game show`); default the newest waiting")
    conf.add_argument("--reject", action="store_true",
                      help="the calls are wrong: undo the entry, to enter the shot as it was")
    show = action("show", "every entry with its calls, and the table now",
                  "kangle game show final.db --json")
    show.add_argument("--json", action="store_true", help="state and rulings as JSON")
    show.add_argument("--notation", action="store_true",
                      help="every shot as one line of shot notation (docs/notation.md)")
    action("state", "print the current table state as JSON", "kangle game state final.db")
    exp = action("export", "write the game as a KGN record (players, lag, every shot in "
                           "notation with its calls)",
                 "kangle game export final.db --out final.kgn")
    exp.add_argument("--format", choices=("kgn",), default="kgn")
    exp.add_argument("--out", help="write here instead of printing")
    imp = action("import", "make a new game log from a KGN record, judging every shot again",
                 "kangle game import replayed.db final.kgn")
    imp.add_argument("record", help="the KGN file")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except KangleError as exc:
        print(f"kangle: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("kangle: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader stopped early (`kangle tiles … | head`): not an error
        # of ours; point stdout at nothing so the interpreter's final flush stays quiet
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a shell reports a command killed by SIGPIPE
