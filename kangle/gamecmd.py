"""`kangle game …`, `kangle judge` and `kangle demo`: the referee engine on files."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path

from kangle.demo import video_demo
from kangle.present import entry_title, history_lines, ruling_lines, table_line
from rules.board import SHIPPED as BOARD_DIR
from rules.board import load_board
from rules.errors import KangleError
from rules.game import GameView, Setup, apply, confirmation, lag, replay
from rules.gamelog import GameLog
from rules.jsonfile import dumps, read_json
from rules.notation import parse_shot, write_shot
from rules.position import parse_position
from rules.profile_files import read_profile
from rules.referee import judge
from rules.rule_profile import SHIPPED as RULES_DIR
from rules.rule_profile import load_rules
from rules.shot import ShotRecord
from rules.state import TableState, initial_state


def cmd_judge(args: argparse.Namespace) -> int:
    state = TableState.from_json(read_json(args.state, "table state"))
    shot = ShotRecord.from_json(read_json(args.shot, "shot record"))
    board = load_board(args.board, playable=True)
    new_state, ruling = judge(state, shot, board, load_rules(args.profile))
    if args.json:
        print(dumps({"ruling": ruling.to_json(), "state": new_state.to_json()}), end="")
    else:
        print("\n".join(ruling_lines(ruling, f"shot — {shot.shooter} from {shot.circle}")))
        print(table_line(new_state))
    if args.out:
        Path(args.out).write_text(dumps(new_state.to_json()), encoding="utf-8")
    return 0


def cmd_state(args: argparse.Namespace) -> int:
    """Write the set-up position (4.1) as a table state, optionally after the lag."""
    state = initial_state(load_board(args.board, playable=True))
    if args.first:
        state, _ = lag(state, {"first": args.first})
    print(dumps(state.to_json()), end="")
    return 0


def new_entry(red: str, black: str, board: str, rules: str) -> dict:
    board_table, board_source = read_profile(board, "board", BOARD_DIR)
    rules_table, rules_source = read_profile(rules, "rules", RULES_DIR)
    entry = {"red": red, "black": black, "board": board_table, "board_source": board_source,
             "rules": rules_table, "rules_source": rules_source}
    Setup.from_entry(entry)  # refuse a bad profile before anything is written
    return entry


def cmd_game(args: argparse.Namespace) -> int:
    if args.action == "import":
        from kangle import kgn

        log = kgn.import_game(args.record, args.game, args.by)
        view = replay(log.entries())
        log.close()
        lines = sum(entry.kind != "lag" for entry, _ in view.history)  # the [Lag] is a tag
        print(f"imported {args.record} into {args.game}: {lines} entries, "
              "every shot judged again")
        print(table_line(view.state))
        return 0
    if args.action == "new":
        log = GameLog.create(args.game, new_entry(args.red, args.black, args.board, args.profile))
        print(f"new game {args.game}: red {args.red} v black {args.black}; "
              "enter the lag next (`kangle game lag`)")
        log.close()
        return 0
    log = GameLog(args.game)
    try:
        if args.action == "play":
            from kangle.playcmd import play, prompt_lines

            play(log, prompt_lines(args.game), args.by)
            return 0
        if args.action in ("show", "state", "export"):
            view = replay(log.entries(), tolerant=True)
            if args.action == "state":
                print(dumps(view.state.to_json()), end="")
            elif args.action == "export":
                from kangle import kgn

                text = kgn.export(view, log.entries()[0].at[:10])
                if args.out:
                    Path(args.out).write_text(text, encoding="utf-8")
                    print(f"wrote {args.out}")
                else:
                    print(text, end="")
            elif args.notation:
                print("\n".join(notation_lines(view)))
            elif args.json:
                print(dumps({"state": view.state.to_json(),
                             "rulings": [r.to_json() for _, r in view.history]}), end="")
            else:
                print("\n".join(history_lines(view)))
            return 0
        # Read, judge and store in one write transaction; show only what was stored.
        seen = replay(log.entries(), tolerant=True)  # the game as this station found it
        request = _request(args, seen)
        written = log.write(lambda view: [request(view)], by=args.by, seen=seen.last)
        entry = written.entries[0]
        if entry.kind == "undo" and entry.data.get("rejected"):
            print(f"rejected: entry #{entry.data['undoes']} is undone — enter the shot as it "
                  "happened (`kangle game shot`)")
        elif entry.kind == "undo":
            undone = written.before.history[-1][0]
            print(f"undone: entry #{undone.seq} ({undone.kind})")
        elif entry.kind == "void":
            print(f"voided: entry #{entry.data['entry']} no longer counts; the game is "
                  "recomputed without it")
        elif entry.kind == "confirm":
            waiting = written.after.unconfirmed()
            print(f"confirmed: the calls of entry #{entry.data['entry']} stand"
                  + (f"; still to confirm: {', '.join(f'#{n}' for n in waiting)}"
                     if waiting else ""))
        else:
            ruling = written.after.history[-1][1]
            print("\n".join(ruling_lines(ruling, entry_title(entry.seq, entry.kind, ruling))))
        print(table_line(written.after.state))
        return 0
    finally:
        log.close()


def _request(args: argparse.Namespace, seen: GameView
             ) -> Callable[[GameView], tuple[str, dict]]:
    """The entry the command asks for, as a function of the game as the log holds it when
    the write begins. Files are read here, before the write transaction starts. What
    names no player (a shot in notation, a discard, a timeout) is the turn's holder's as
    this station ``seen`` the game: entered while another station changed the turn, it
    is refused, never recorded as the other player's."""
    if args.action == "lag":
        if args.first:
            return lambda view: ("lag", {"first": args.first})
        if args.red_mm is None or args.black_mm is None:
            raise KangleError("give --first COLOUR, or both --red-mm and --black-mm")
        return lambda view: ("lag", {"red_mm": args.red_mm, "black_mm": args.black_mm})
    if args.action == "shot":
        if args.shot != "-" and not Path(args.shot).exists() and not (
                args.shot.endswith(".json") or "/" in args.shot or "\\" in args.shot):
            # a line of shot notation, judged against the table as it is
            line = " ".join([args.shot, *_foul_tokens(args)])
            return _as_seen(seen, lambda view: ("shot", parse_shot(line, view.state,
                                                                   view.setup.board).to_json()))
        data = read_json(args.shot, "shot record")
        ShotRecord.from_json(data)
        return lambda view: ("shot", _with_flags(args, data))
    if args.action == "table":
        data = parse_position(args.line)
        return lambda view: ("table", data)
    if args.action == "discard":
        return _as_seen(seen, lambda view: ("discard", {"player": view.state.turn or "",
                                                        "pieces": args.pieces}))
    if args.action == "timeout":
        return _as_seen(seen, lambda view: ("timeout", {"player": view.state.turn or ""}))
    if args.action == "confirm":
        return lambda view: confirmation(view, args.entry, args.reject)
    if args.action == "void":
        return lambda view: ("void", {"entry": args.entry, "reason": args.reason})
    return _undo


def _as_seen(seen: GameView, request: Callable[[GameView], tuple[str, dict]]
             ) -> Callable[[GameView], tuple[str, dict]]:
    """``request``, refused when the turn is no longer the one this station saw."""
    def checked(view: GameView) -> tuple[str, dict]:
        if view.state.turn != seen.state.turn:
            raise KangleError(f"nothing was recorded: this was entered as "
                              f"{seen.state.turn or 'nobody'}'s, but it is "
                              f"{view.state.turn or 'nobody'}'s turn now")
        return request(view)
    return checked


def notation_lines(view: GameView) -> list[str]:
    """Every shot of the game in shot notation (the line typed, or the record written
    as one), numbered by log entry: what a game record file or a commentator shows."""
    board = view.setup.board
    state, lines = initial_state(board), []
    for entry, _ in view.history:
        if entry.kind == "shot":
            record = ShotRecord.from_json(entry.data)
            line = record.notation or write_shot(record, state, board)
            lines.append(f"#{entry.seq} {record.shooter}: {line}")
        if entry.kind != "confirm":
            state = apply(state, entry, view.setup)[0]
    return lines


def _foul_tokens(args: argparse.Namespace) -> list[str]:
    """The referee-only fouls given as options, as notation tokens."""
    tokens = [token for flag, token in (("cue_tip_foul", "!tip"), ("own_cue", "!cue"),
                                        ("pivot", "!pivot"), ("body_touch", "!body"))
              if getattr(args, flag)]
    return tokens + ([f"!swept={','.join(args.cue_swept)}"] if args.cue_swept else [])


def _with_flags(args: argparse.Namespace, data: dict) -> dict:
    """A shot record's JSON with the referee-only fouls given as options added."""
    referee = dict(data.get("referee") or {})
    for flag, key in (("cue_tip_foul", "cue_tip_foul"), ("own_cue", "own_cue_hit"),
                      ("pivot", "pivot_foul"), ("body_touch", "body_touch")):
        if getattr(args, flag):
            referee[key] = True
    if args.cue_swept:
        referee["cue_swept"] = sorted(set(referee.get("cue_swept", [])) | set(args.cue_swept))
    data = dict(data, referee=referee)
    data.pop("trajectory", None)  # the log keeps what the rules need
    return data


def _undo(view: GameView) -> tuple[str, dict]:
    if not view.history:
        raise KangleError("nothing to undo: the game has only its set-up")
    return "undo", {"undoes": view.history[-1][0].seq}


def cmd_demo(args: argparse.Namespace) -> int:
    """Play the scripted sample game through the engine, printing what a referee sees."""
    folder = Path(args.folder)
    script = read_json(folder / "script.json", "demo script")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "demo.db"
        log = GameLog.create(path, new_entry(script["red"], script["black"], "goma", "standard"))
        print(f"kangle demo — a scripted game of 康樂棋: red {script['red']} v black "
              f"{script['black']} (shot records in {folder})\n")
        for step in script["entries"]:
            data = read_json(folder / step["file"], "shot record") if "file" in step else step[
                "data"]
            written = log.write(lambda view, step=step, data=data: [(step["kind"], data)])
            entry, ruling = written.after.history[-1]
            if step.get("say"):
                print(f"[{step['say']}]")
            print("\n".join(ruling_lines(ruling, entry_title(entry.seq, step["kind"], ruling))))
            print(table_line(written.after.state))  # the state shown is always the log's
            print()
        log.close()
    print(f"The game log held {len(script['entries']) + 1} entries; every state above was "
          "recomputed from it.\n")
    if not args.no_video:
        video_demo(new_entry, Path(args.keep) if args.keep else None)
    return 0
