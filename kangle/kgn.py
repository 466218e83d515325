"""KGN, the 康樂棋 game record: a text file in the spirit of chess's PGN.

Tag pairs, then one numbered line for each entry in force, shots in shot notation
(docs/notation.md), each followed by its calls as a comment::

    [Red "Chan Tai Man"]
    [Black "Lee Siu Ming"]
    [Date "2026-11-23"]
    [Board "goma"]
    [Rules "standard"]
    [Lag "red"]

    1. red xB05 B05>NW {5.1 bonus}
    2. red x| xR04
    3. red discard R16 {8.1 forfeit; 8.3 info}
    4. black timeout {4.2 turn}

A game taken up mid-way has no [Lag] tag: its first line sets the table as the referee
typed it (``rules.position``), ``1. table red 12 black 9 stack B05 turn black owed black 1
first red``; a table set right during play is such a line too.

`kangle game export GAME --format kgn` writes it; `kangle game import FILE.kgn GAME.db`
reads it into a new game log with the same table. Comments are for the reader: the
calls are always judged again on import.
"""

from __future__ import annotations

import re
from pathlib import Path

from kangle.gamecmd import new_entry
from rules.errors import KangleError
from rules.game import GameView, apply
from rules.gamelog import GameLog
from rules.jsonfile import read_text
from rules.notation import parse_shot, write_shot
from rules.position import parse_position, position_text
from rules.shot import ShotRecord
from rules.state import initial_state

_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')
_MOVE = re.compile(r"^(\d+)\.\s+(red|black|table)\s+(.*?)\s*(\{[^}]*\})?$")


def export(view: GameView, date: str) -> str:
    """The game as KGN text: its players, date, profiles, lag and every entry in force."""
    setup = view.setup
    tags = [("Red", setup.red), ("Black", setup.black), ("Date", date),
            ("Board", setup.board.name), ("Rules", setup.rules.name)]
    lines = [f'[{k} "{_quote(v)}"]' for k, v in tags]
    state, moves = initial_state(setup.board), []
    for entry, ruling in view.history:
        before = state  # a shot is written against the table it was played on
        if entry.kind not in ("confirm", "void"):
            state = apply(state, entry, setup)[0]
        if entry.kind == "lag":
            lag = entry.data
            lines.append(f'[Lag "{lag["first"]}"]' if "first" in lag else
                         f'[Lag "{lag["red_mm"]:g} {lag["black_mm"]:g}"]')
        elif entry.kind == "table":
            moves.append(f"{len(moves) + 1}. table {position_text(state)}")
        elif entry.kind in ("shot", "discard", "timeout"):
            who = ruling.player
            if entry.kind == "shot":
                record = ShotRecord.from_json(entry.data)
                what = record.notation or write_shot(record, before, setup.board)
            elif entry.kind == "discard":
                what = "discard " + " ".join(entry.data["pieces"])
            else:
                what = "timeout"
            calls = "; ".join(f"{c.rule} {c.kind}" for c in ruling.calls)
            moves.append(f"{len(moves) + 1}. {who} {what}" + (f" {{{calls}}}" if calls else ""))
    return "\n".join(lines + [""] + moves) + "\n"


def import_game(path: str, game: str, by: str) -> GameLog:
    """A new game log at ``game`` holding the KGN file's game, every line judged again;
    a line the rules refuse stops the import naming its number (the log is not made)."""
    tags, moves = _read(path)
    for key in ("Red", "Black"):
        if key not in tags:
            raise KangleError(f"{path}: the [{key} \"…\"] tag is missing")
    entry = new_entry(tags["Red"], tags["Black"], tags.get("Board", "goma"),
                      tags.get("Rules", "standard"))
    lag = tags.get("Lag")
    mid_game = bool(moves) and moves[0][1] == "table"
    if lag is None and not mid_game:
        raise KangleError(f"{path}: the [Lag \"red\"] tag is missing (who shot first), and "
                          "the first line does not set the table (\"1. table red 12 …\")")
    lag_data = None if lag is None else (
        {"first": lag} if lag in ("red", "black") else
        dict(zip(("red_mm", "black_mm"), _numbers(lag, path), strict=True)))
    if Path(game).exists():
        raise KangleError(f"{game} already exists: import into a new file")
    log = GameLog.create(game, entry)
    try:
        if lag_data is not None:
            log.append("lag", lag_data, by)
        for number, who, what in moves:
            def propose(view, who=who, what=what, number=number):
                if who == "table":
                    return [("table", parse_position(what))]
                if view.state.turn != who:
                    raise KangleError(f"line {number}: it is {view.state.turn}'s shot, "
                                      f"not {who}'s")
                if what == "timeout":
                    return [("timeout", {"player": who})]
                if what.startswith("discard "):
                    return [("discard", {"player": who, "pieces": what.split()[1:]})]
                return [("shot", parse_shot(what, view.state, view.setup.board).to_json())]
            try:
                log.write(propose, by)
            except KangleError as exc:
                raise KangleError(f"{path} line {number}: {exc}") from None
    except KangleError:
        log.close()
        Path(game).unlink(missing_ok=True)
        raise
    return log


def _read(path: str) -> tuple[dict[str, str], list[tuple[int, str, str]]]:
    tags: dict[str, str] = {}
    moves: list[tuple[int, str, str]] = []
    for n, raw in enumerate(read_text(path, "game record").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if m := _TAG.match(line):
            tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
        elif m := _MOVE.match(line):
            moves.append((int(m.group(1)), m.group(2), m.group(3)))
        else:
            raise KangleError(f"{path} line {n}: neither a tag [Key \"value\"] nor a "
                              f"numbered move (\"12. red xB05 B05>NW\"): {line[:60]!r}")
    return tags, moves


def _numbers(text: str, path: str) -> list[float]:
    try:
        values = [float(v) for v in text.split()]
    except ValueError:
        values = []
    if len(values) != 2:
        raise KangleError(f"{path}: [Lag] is \"red\", \"black\" or the strikers' distances "
                          f"from the centre in mm, \"12 40\"; not {text!r}")
    return values


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')
