"""`kangle game play`: a whole game at one prompt — each shot typed in shot notation,
the calls and the table shown after every entry, with undo, confirm, discard and the
shot clock as words. Line editing, history and completion of piece and hole names come
from the terminal's readline where there is one."""

from __future__ import annotations

import sys
from collections.abc import Iterable

from kangle.present import ruling_lines, table_line
from rules.errors import KangleError
from rules.game import confirmation, replay
from rules.gamelog import GameLog
from rules.notation import parse_shot
from rules.pieces import ALL_PIECES
from rules.position import parse_position

HELP = """type a shot in notation (docs/notation.md), e.g.  xB05 B05>NW   x| xR04 !body
  undo               cancel the last entry
  confirm [N]        the [CONFIRM] calls of entry N (default the newest) stand
  reject [N]         they are wrong: undo that shot, to enter it as it happened
  discard R03 R07    the player holding the shot gives up pieces (8)
  timeout            no shot within the shot clock (4.2)
  table red 12 black 9 stack B05 turn black    set the table (docs/notation.md)
  show               every entry with its calls
  help, quit"""

WORDS = ["undo", "confirm", "reject", "discard", "timeout", "table", "show", "help", "quit"]
HOLES = [f"{p}>{h}" for p in ("S", "R", "B") for h in ("SW", "SE", "NW", "NE")]


def play(log: GameLog, lines: Iterable[str], by: str, out=print) -> None:
    """Read ``lines`` (the prompt's, or any) until they end or say quit; each is stored
    as an entry in one write, or refused with the reason and nothing stored."""
    view = replay(log.entries())
    out(table_line(view.state))
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word in ("quit", "exit"):
            break
        if word == "help":
            out(HELP)
            continue
        if word == "show":
            from kangle.present import history_lines

            out("\n".join(history_lines(replay(log.entries(), tolerant=True))))
            continue
        try:
            written = log.write(lambda v, w=word, r=rest, t=line: [_entry(v, w, r, t)], by=by)
        except KangleError as exc:
            out(f"  refused: {exc}")
            continue
        entry = written.entries[0]
        if entry.kind == "undo":
            out(f"  undone: entry #{entry.data['undoes']}")
        elif entry.kind == "confirm":
            out(f"  confirmed: the calls of entry #{entry.data['entry']} stand")
        else:
            ruling = written.after.history[-1][1]
            out("\n".join(ruling_lines(ruling, f"#{entry.seq} {entry.kind}" + (
                f" — {ruling.player}" if ruling.player else ""))))
        out(table_line(written.after.state))
        if written.after.state.phase == "over":
            break


def _entry(view, word: str, rest: str, line: str) -> tuple[str, dict]:
    """The entry one prompt line asks for, against the game as the log holds it."""
    if word == "undo":
        if not view.history:
            raise KangleError("nothing to undo")
        return "undo", {"undoes": view.history[-1][0].seq}
    if word in ("confirm", "reject"):
        seq = int(rest) if rest.strip().isdigit() else None
        return confirmation(view, seq, reject=word == "reject")
    if word == "discard":
        return "discard", {"player": view.state.turn or "", "pieces": rest.split()}
    if word == "timeout":
        return "timeout", {"player": view.state.turn or ""}
    if word == "table":
        return "table", parse_position(rest)
    return "shot", parse_shot(line, view.state, view.setup.board).to_json()


def prompt_lines(game: str) -> Iterable[str]:
    """Lines typed at a prompt, with readline's editing, history and completion where
    the terminal has it; ends at end of input."""
    try:
        import readline
    except ImportError:  # no readline (Windows): plain input still works
        readline = None
    if readline is not None and sys.stdin.isatty():
        names = WORDS + [f"x{p}" for p in ALL_PIECES] + list(ALL_PIECES) + HOLES + [
            "x|", "x-", "!tip", "!cue", "!pivot", "!body", "!swept="]

        def complete(text: str, state: int) -> str | None:
            found = [n for n in names if n.startswith(text)]
            return found[state] if state < len(found) else None

        readline.set_completer(complete)
        readline.set_completer_delims(" ")
        readline.parse_and_bind("tab: complete")
    while True:
        try:
            yield input(f"{game}> ")
        except EOFError:
            print()
            return
