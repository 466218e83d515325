"""Text a referee reads: rulings, the table summary, a game's history."""

from __future__ import annotations

import os
import sys

from rules.errors import KangleError
from rules.game import GameView
from rules.ruling import Ruling
from rules.state import TableState

_LABEL = {"foul": "FOUL", "bonus": "BONUS", "forfeit": "GIVEN", "protect": "RING",
          "restore": "BACK", "retake": "AGAIN", "info": "PLAY", "turn": "TURN",
          "result": "RESULT", "check": "CHECK"}


def ruling_lines(ruling: Ruling, title: str, confirmed_by: int | None = None) -> list[str]:
    """The calls of one ruling, one line each; a call resting on something the camera
    was not sure of is marked [CONFIRM] until a referee confirms it (entry
    ``confirmed_by``)."""
    lines = [title]
    flag = f"  [confirmed in #{confirmed_by}]" if confirmed_by else "  [CONFIRM]"
    for call in ruling.calls:
        lines.append(f"  {_LABEL.get(call.kind, call.kind.upper()):<6} {call.rule:<7} "
                     f"{call.text}{flag if call.confirm else ''}")
    if not ruling.calls:
        lines.append("  —      no call: play goes on")
    if ruling.needs_confirmation and not confirmed_by:
        lines.append("  ! a call above rests on an uncertain observation: referee, confirm "
                     "it (`kangle game confirm`) or reject it (--reject)")
    return lines


def table_line(state: TableState) -> str:
    """Whose shot, what is owed to each side, pieces left per side, the 小回 stack."""
    left = f"left on table: red {len(state.left('red'))}, black {len(state.left('black'))}"
    if state.phase == "over":
        return f"  GAME OVER — {state.result.text}; {left}"
    if state.phase == "lag":
        return f"  waiting for the lag; {left}"
    owed = state.owed[state.turn]
    extra = f" (+{owed} extra shot{'s' if owed != 1 else ''} owed)" if owed else ""
    waiting = "".join(f"; {colour} is owed {n} extra shot{'s' if n != 1 else ''} on their next "
                      "turn" for colour, n in sorted(state.owed.items())
                      if n and colour != state.turn)
    catch = " — catch-up turn" if state.phase == "catch_up" else ""
    stack = f"; 小回 stack (bottom first): {', '.join(state.stack)}" if state.stack else ""
    return f"  next: {state.turn}{extra}{catch}{waiting}; {left}{stack}"


def history_lines(view: GameView) -> list[str]:
    lines = [f"red: {view.setup.red}   black: {view.setup.black}   "
             f"board: {view.setup.board.name}   rules: {view.setup.rules.name}"]
    for entry, ruling in view.history:
        if entry.kind == "confirm":
            lines.append(f"#{entry.seq} confirm — the referee confirmed the calls of "
                         f"#{entry.data['entry']}")
            continue
        if entry.kind == "void":
            lines.append(f"#{entry.seq} void — entry #{entry.data['entry']} does not count"
                         + (f" ({entry.data['reason']})" if entry.data.get("reason") else ""))
            continue
        lines.extend(ruling_lines(ruling, entry_title(entry.seq, entry.kind, ruling),
                                  view.confirmed.get(entry.seq)))
    if view.undone:
        lines.append(f"(undone entries: {', '.join(map(str, view.undone))})")
    if view.fault:
        seq, why = view.fault
        lines.append(f"  ! entry #{seq} cannot be applied: {why}. The game stops before it: "
                     f"void it (`kangle game void GAME {seq}`) and enter what happened")
    waiting = view.unconfirmed()
    if waiting:
        lines.append(f"  waiting for the referee to confirm: {', '.join(f'#{n}' for n in waiting)}")
    lines.append(table_line(view.state))
    return lines


def entry_title(seq: int, kind: str, ruling: Ruling) -> str:
    who = f" — {ruling.player}" if ruling.player else ""
    shot = f" (shot {ruling.shot})" if ruling.shot else ""
    return f"#{seq} {kind}{who}{shot}"


def need_display(instead: str) -> None:
    """Refuse to open a window where there is no screen to show it on (no X11 or Wayland
    display, and SDL not told to draw elsewhere), saying what to use ``instead``."""
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get(
            "SDL_VIDEODRIVER") or sys.platform in ("win32", "darwin"):
        return
    raise KangleError(f"no display to open a window on (DISPLAY is not set): {instead}")
