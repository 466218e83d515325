"""A whole 康樂棋 game as a log of entries, and the state computed from it.

The log is the truth: the lag, every shot, every time-out, discard and undo, and
every referee's confirmation of a call that asked for one, is an entry, and the
table state, the calls and the result are recomputed from the log each time (event
sourcing). Nothing an entry says is ever changed; an undo is a new entry that
cancels the last entry still in force.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rules.board import Board, board_from_table
from rules.errors import KangleError
from rules.fields import Fields
from rules.pieces import check_colour, check_id, colour_of, opponent
from rules.position import position_state, position_text
from rules.referee import judge
from rules.rule_profile import RuleProfile, rules_from_table
from rules.ruling import FORFEIT, INFO, TURN, Call, Ruling
from rules.shot import ShotRecord
from rules.state import POCKETED, Piece, TableState, initial_state
from rules.turns import pass_shot, settle

ENTRY_KINDS = ("new", "lag", "table", "shot", "discard", "timeout", "undo", "confirm",
               "void")


@dataclass(frozen=True)
class Entry:
    """One line of the game log: ``seq`` orders entries; ``data`` is the kind's JSON."""

    seq: int
    kind: str
    data: dict[str, Any]
    by: str = "referee"
    at: str = ""


@dataclass(frozen=True)
class Setup:
    """What the ``new`` entry fixes for the whole game: players, board, rules.

    The profiles are stored whole in the log, so a game resumes with the exact rules
    it started with even if a profile file changes later."""

    red: str
    black: str
    board: Board
    rules: RuleProfile

    @classmethod
    def from_entry(cls, data: dict[str, Any]) -> Setup:
        f = Fields(data, "new")
        setup = cls(
            red=player_name(f.text("red"), "red"),
            black=player_name(f.text("black"), "black"),
            board=board_from_table(f.raw("board"), f.text("board_source")),
            rules=rules_from_table(f.raw("rules"), f.text("rules_source")),
        )
        f.done()
        setup.board.check_playable()
        return setup

    def name(self, colour: str) -> str:
        return self.red if colour == "red" else self.black


def player_name(name: str, colour: str) -> str:
    """A player's name as typed: refused when empty, all spaces, longer than 80 characters
    or holding control characters (a name is printed on every call)."""
    if not name.strip():
        raise KangleError(f"the {colour} player's name is empty: give a name (--{colour} NAME)")
    if len(name) > 80 or any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise KangleError(f"the {colour} player's name must be at most 80 printable characters")
    return name


@dataclass
class GameView:
    """The game as the log says now: the setup, the entries in force with the ruling on
    each, the current state, ``confirmed`` (the entries whose doubtful calls a referee
    confirmed, and by which entry), and ``last``, the sequence number of the log's
    newest entry (undos included)."""

    setup: Setup
    state: TableState
    history: list[tuple[Entry, Ruling]] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)
    last: int = 0
    confirmed: dict[int, int] = field(default_factory=dict)
    # the first entry in force that cannot be applied (a log broken before writes were
    # checked in one transaction), and why: the game stops before it until it is voided
    fault: tuple[int, str] | None = None

    def unconfirmed(self) -> list[int]:
        """Entries in force with a call that asks the referee to confirm it, not yet
        confirmed, oldest first."""
        return [e.seq for e, r in self.history
                if r.needs_confirmation and e.seq not in self.confirmed]


def replay(entries: list[Entry], tolerant: bool = False) -> GameView:
    """Recompute the game from its log. Raises KangleError if the log is not a game, or
    (unless ``tolerant``) if an entry in force cannot be applied; a tolerant replay
    stops before that entry and names it in ``fault``. A ``void`` entry takes the entry
    it names out of the game (the way to mend such a log)."""
    if not entries or entries[0].kind != "new":
        raise KangleError("this log does not start with a 'new' entry: it is not a kangle game")
    setup = Setup.from_entry(entries[0].data)
    live: list[Entry] = []
    undone: list[int] = []
    for entry in entries[1:]:
        if entry.kind == "undo":
            if not live:
                raise KangleError(f"log entry {entry.seq}: undo with nothing left to undo")
            undone.append(live.pop().seq)
        else:
            live.append(entry)
    state = initial_state(setup.board)
    history: list[tuple[Entry, Ruling]] = []
    confirmed: dict[int, int] = {}
    voided = {e.data.get("entry") for e in live if e.kind == "void"}
    for entry in live:
        if entry.seq in voided:
            continue
        try:
            if entry.kind == "void":
                _voidable(entry.data, entries)
                ruling = Ruling("void", None, None, (), (), state.turn, dict(state.owed),
                                state.result)
            elif entry.kind == "confirm":
                target = _confirmable(entry.data, history, confirmed)
                confirmed[target] = entry.seq
                ruling = Ruling("confirm", None, None, (), (), state.turn, dict(state.owed),
                                state.result)
            else:
                state, ruling = apply(state, entry, setup)
        except KangleError as exc:
            if not tolerant:
                raise KangleError(f"log entry {entry.seq} ({entry.kind}): {exc}") from None
            return GameView(setup, state, history, undone, entries[-1].seq, confirmed,
                            (entry.seq, str(exc)))
        history.append((entry, ruling))
    return GameView(setup, state, history, undone, entries[-1].seq, confirmed)


def _voidable(data: Any, entries: list[Entry]) -> int:
    """The entry a ``void`` entry takes out: any entry but the set-up."""
    f = Fields(data, "void")
    target = f.count("entry")
    f.text("reason", None)
    f.done()
    kinds = {e.seq: e.kind for e in entries}
    if kinds.get(target) in (None, "new"):
        raise KangleError(f"there is no entry #{target} to void (the set-up cannot be)")
    return target


def _confirmable(data: Any, history: list[tuple[Entry, Ruling]],
                 confirmed: dict[int, int]) -> int:
    """The entry a ``confirm`` entry confirms: one in force whose calls ask for it."""
    f = Fields(data, "confirm")
    target = f.count("entry")
    f.done()
    asking = {e.seq: r for e, r in history}
    if target not in asking:
        raise KangleError(f"there is no entry #{target} in force to confirm")
    if not asking[target].needs_confirmation:
        raise KangleError(f"entry #{target} has no call that asks to be confirmed")
    if target in confirmed:
        raise KangleError(f"entry #{target} was already confirmed (entry #{confirmed[target]})")
    return target


def confirmation(view: GameView, seq: int | None = None,
                 reject: bool = False) -> tuple[str, dict]:
    """The entry (kind, data) that confirms the calls of entry ``seq`` (the newest
    waiting when None), or rejects them: the entry is undone, so that the shot can be
    entered as it happened — only the last entry in force, as later shots were judged
    from the table it left."""
    waiting = view.unconfirmed()
    if seq is None:
        if not waiting:
            raise KangleError("no call is waiting to be confirmed")
        seq = waiting[-1]
    if seq not in waiting:
        raise KangleError(f"entry #{seq} has no call waiting to be confirmed"
                          + (f" (waiting: {', '.join(f'#{n}' for n in waiting)})"
                             if waiting else ""))
    if not reject:
        return "confirm", {"entry": seq}
    if view.history[-1][0].seq != seq:
        raise KangleError(f"entry #{seq} is not the last entry in force, and later shots were "
                          f"judged from the table it left: undo back to it (`kangle game "
                          f"undo`), then enter what happened")
    return "undo", {"undoes": seq, "rejected": True}


def apply(state: TableState, entry: Entry, setup: Setup) -> tuple[TableState, Ruling]:
    """Apply one entry (not ``new`` or ``undo``) to the state."""
    board, rules = setup.board, setup.rules
    if entry.kind == "lag":
        return lag(state, entry.data)
    if entry.kind == "shot":
        return judge(state, ShotRecord.from_json(entry.data), board, rules)
    if entry.kind == "discard":
        f = Fields(entry.data, "discard")
        result = discard(state, check_colour(f.text("player")), f.items("pieces"), rules)
        f.done()
        return result
    if entry.kind == "timeout":
        f = Fields(entry.data, "timeout")
        result = timeout(state, check_colour(f.text("player")), rules)
        f.done()
        return result
    if entry.kind == "table":
        return set_table(state, entry.data, board)
    raise KangleError(f"unknown log entry kind {entry.kind!r}")


def set_table(state: TableState, data: Any, board: Board) -> tuple[TableState, Ruling]:
    """The referee sets the table (``rules.position``): a game taken up mid-way (in
    place of the lag) or a table set right during play; not once the game is over."""
    if state.phase == "over":
        raise KangleError("the game is over: its table can no longer be set")
    state = position_state(data, board, state.first)
    calls = (Call("—", INFO, f"the referee sets the table: {position_text(state)}"),)
    return state, Ruling("table", None, None, calls, (), state.turn, dict(state.owed))


def lag(state: TableState, data: dict[str, Any]) -> tuple[TableState, Ruling]:
    """3.1: the player whose striker ends nearer the centre of the penalty ring shoots first.

    ``data`` gives either both distances (``red_mm``, ``black_mm``, from the centre) or
    the referee's decision ``first``."""
    if state.phase != "lag":
        raise KangleError("the lag has already been taken in this game")
    f = Fields(data, "lag")
    if f.has("first"):
        first = check_colour(f.text("first"))
        text = f"the referee gives the first shot to {first}"
    else:
        red, black = f.nonneg("red_mm"), f.nonneg("black_mm")
        if red == black:
            raise KangleError(f"both strikers ended {red} mm from the centre: lag again")
        first = "red" if red < black else "black"
        text = (f"red's striker ended {red:g} mm from the centre, black's {black:g} mm: "
                f"{first} shoots first")
    f.done()
    state = replace(state, phase="play", turn=first, first=first)
    calls = (Call("3.1", TURN, text),)
    return state, Ruling("lag", None, None, calls, (), first, dict(state.owed))


def discard(
    state: TableState, player: str, pieces: list[Any], rules: RuleProfile
) -> tuple[TableState, Ruling]:
    """8.1–8.4: the player holding the shot gives up own pieces; no shot is gained or lost;
    a player left with no pieces on the table loses."""
    if state.phase not in ("play", "catch_up") or state.turn != player:
        raise KangleError(f"only the player holding the shot may discard (8.2); it is "
                          f"{state.turn or 'nobody'}'s shot")
    if not pieces:
        raise KangleError("name at least one piece to discard")
    ids = [check_id(p) if isinstance(p, str) else check_id(repr(p)) for p in pieces]
    if len(set(ids)) != len(ids):
        raise KangleError("a piece is named twice in the discard")
    for pid in ids:
        if colour_of(pid) != player or pid in ("RS", "BS"):
            raise KangleError(f"{pid} is not one of {player}'s pieces: only own pieces may be "
                              "discarded")
        if not state.on_table(pid):
            raise KangleError(f"{pid} is not on the table")
    changed = {pid: Piece(pid, POCKETED) for pid in ids}
    state = replace(state.with_pieces(**changed),
                    stack=tuple(p for p in state.stack if p not in changed))
    calls = [Call("8.1", FORFEIT, f"{player} discards {', '.join(ids)} (棄子): take them off; "
                                  f"they count as pocketed by {opponent(player)}", tuple(ids)),
             Call("8.3", INFO, f"{player} still holds the shot")]
    state, end = settle(state, player, rules, rule="8.4")
    calls.extend(end)
    return state, Ruling("discard", player, None, tuple(calls), (), state.turn,
                         dict(state.owed), state.result)


def timeout(state: TableState, player: str, rules: RuleProfile) -> tuple[TableState, Ruling]:
    """4.2: no shot within the shot clock — the shot is lost (or the turn, by setting)."""
    if state.phase not in ("play", "catch_up") or state.turn != player:
        raise KangleError(f"it is {state.turn or 'nobody'}'s shot, not {player}'s")
    lose_turn = rules.timeout_forfeits == "turn"
    lost = "turn" if lose_turn else "shot"
    calls = [Call("4.2", TURN, f"shot clock (4.2, turns): {player} did not shoot within "
                               f"{rules.shot_clock_s:g} s: the {lost} is lost")]
    state, more = pass_shot(state, player, bonus=False, rules=rules, lose_turn=lose_turn)
    calls.extend(more)
    return state, Ruling("timeout", player, None, tuple(calls), (), state.turn,
                         dict(state.owed), state.result)
