"""What the referee says about one entry (a shot, a discard, a time-out, the lag).

Every call cites a rule number of specs/kangle-rules.md and says in plain words what
happened and what the referee must do. JSON schema ``kangle.ruling/1``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.jsonfile import mm
from rules.state import Result

SCHEMA = "kangle.ruling/1"

# Kinds of call, from the referee's point of view.
FOUL = "foul"  # the opponent gets extra shots
BONUS = "bonus"  # the shooter shoots again (5.1)
FORFEIT = "forfeit"  # a piece is given away (7.1 廢子, 8 棄子, 6.5)
PROTECT = "protect"  # rebound protection starts, ends or is restored (6.3, 9.x)
RESTORE = "restore"  # pieces go back where they were
RETAKE = "retake"  # the shot does not count; shoot again
INFO = "info"  # play goes on; said so the players know why
CHECK = "check"  # the referee is asked to look at something unsure that no call rests on
TURN = "turn"  # who shoots next
RESULT = "result"  # the game is won or drawn


@dataclass(frozen=True)
class Call:
    """One call: ``rule`` (e.g. "7.1"), ``kind`` (above), the words, and the pieces named.

    ``confirm`` is set when the call rests on an observation the source was not sure
    of (ambiguous contact order, low confidence): the referee must confirm it."""

    rule: str
    kind: str
    text: str
    pieces: tuple[str, ...] = ()
    confirm: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "kind": self.kind, "text": self.text,
                "pieces": list(self.pieces), "confirm": self.confirm}


@dataclass(frozen=True)
class Action:
    """A physical thing the referee does to the table after the shot.

    ``do`` is ``remove`` (take the piece off: it counts as pocketed), ``put_back``
    (return it to ``to``, where it stood before the shot), or ``place`` (set it at
    ``to``, e.g. a 小回 at the centre). ``to`` is in board millimetres."""

    do: str
    piece: str
    rule: str
    to: tuple[float, float] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"do": self.do, "piece": self.piece, "rule": self.rule,
                "to": None if self.to is None else [mm(self.to[0]), mm(self.to[1])]}


@dataclass(frozen=True)
class Ruling:
    """The calls on one entry, the actions they need, and what follows from them."""

    entry: str
    player: str | None
    shot: int | None
    calls: tuple[Call, ...]
    actions: tuple[Action, ...]
    next_turn: str | None
    owed: dict[str, int]
    result: Result | None = None

    @property
    def needs_confirmation(self) -> bool:
        return any(c.confirm for c in self.calls)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "entry": self.entry,
            "player": self.player,
            "shot": self.shot,
            "calls": [c.to_json() for c in self.calls],
            "actions": [a.to_json() for a in self.actions],
            "next_turn": self.next_turn,
            "owed": dict(self.owed),
            "result": self.result.to_json() if self.result else None,
        }
