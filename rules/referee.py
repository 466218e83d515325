"""The 康樂棋 referee engine: (table state, shot record, rules) → (next state, ruling).

A pure function: it reads the state before the shot and the record of the shot and
returns a new state and the calls, each citing its rule in specs/kangle-rules.md.
Order of judgement:

1. the shot counts at all (2.1 wrong circle, 4.4 not shot → shoot again; 4.3 void);
2. the striker's contacts: 7.1 廢子 (first contact an own piece, before any cushion),
   5.5/6.4 direct hits on rebound-protected pieces, 7.2–7.5 what the 廢子 did;
3. the referee-only fouls 5.2, 5.6, 6.6;
4. where every piece ended: holes (5.1, 5.3/6.2), off the table or on the rim
   (5.4/6.1, 6.3/9.1, 6.5), put-backs;
5. rebound protection after the shot (9.2–9.4, 大回);
6. extra shots (a foul cancels 5.1), next shooter, end of game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.board import Board
from rules.errors import KangleError
from rules.pieces import colour_of, is_striker, opponent, pieces_of
from rules.rule_profile import RuleProfile
from rules.ruling import (
    BONUS,
    CHECK,
    FORFEIT,
    FOUL,
    INFO,
    PROTECT,
    RESTORE,
    RETAKE,
    Action,
    Call,
    Ruling,
)
from rules.shot import Contact, Exit, Pocketed, ShotRecord, is_cushion
from rules.state import BIG, ON_TABLE, POCKETED, SMALL, Piece, TableState
from rules.turns import pass_shot

CENTRE = (0.0, 0.0)
_GUARD_NAME = {SMALL: "小回", BIG: "大回"}
# Calls that turn on which piece the shot piece touched first, or before a cushion.
_CONTACT_ORDER_RULES = ("7.1", "5.5", "6.4")
SURE = 0.9  # an event its source is less sure of than this: calls on it ask to confirm
# mm: how far outside touching a piece the shot piece's path, as its source saw it, may
# pass and still have touched it unseen (a camera's path and a piece's place are each
# within about 2 mm; a touch along a tangent moves a piece too little to see)
GRAZE_MM = 4.0


def doubtful(*events: Contact | Pocketed | Exit) -> bool:
    """Is any of these events one the record's source was not sure of (a camera's
    contact, pocket or exit below SURE confidence, or a contact it could not order)?"""
    return any(getattr(e, "ambiguous", False) or e.confidence < SURE for e in events)


def _distance_to_path(point: tuple[float, float], path: list[tuple[float, float]]) -> float:
    """The least distance (mm) from a point to a polyline of two or more points."""
    px, py = point
    best = float("inf")
    for (ax, ay), (bx, by) in zip(path, path[1:], strict=False):
        dx, dy = bx - ax, by - ay
        run = dx * dx + dy * dy
        u = 0.0 if run == 0 else min(1.0, max(0.0, ((px - ax) * dx + (py - ay) * dy) / run))
        best = min(best, ((ax + u * dx - px) ** 2 + (ay + u * dy - py) ** 2) ** 0.5)
    return best


def judge(
    state: TableState, shot: ShotRecord, board: Board, rules: RuleProfile
) -> tuple[TableState, Ruling]:
    """Apply one shot to the table. Raises KangleError if the shot cannot have happened
    from this state (wrong player, a piece that is not on the table, …)."""
    check_shot_fits(state, shot, board)
    return _Judgement(state, shot, board, rules).run()


def check_shot_fits(state: TableState, shot: ShotRecord, board: Board) -> None:
    """Refuse a shot record that contradicts the table state, naming the problem."""
    if state.phase == "lag":
        raise KangleError("the lag (rule 3.1) has not been entered yet: enter who shoots first")
    if state.phase == "over":
        raise KangleError(f"the game is over ({state.result.text}); start a new game")
    if shot.shooter != state.turn:
        raise KangleError(f"it is {state.turn}'s shot, not {shot.shooter}'s")
    sp = shot.shot_piece
    if not is_striker(sp):
        if not state.on_table(sp):
            raise KangleError(f"shot: {sp} is not on the table and cannot be shot")
        circle = board.circle_at(*state.pos(sp))
        if circle is None or board.circle_owner(circle) != shot.shooter:
            raise KangleError(
                f"shot: {sp} is not a 自由子 — only an own piece whose centre lies inside "
                f"one of {shot.shooter}'s circles ({', '.join(board.circles_of(shot.shooter))}) "
                "may be shot with the cue"
            )
        if circle != shot.circle:
            raise KangleError(f"shot: the 自由子 {sp} stands in circle {circle}, "
                              f"not {shot.circle}")
    for piece in sorted(shot.moved() | set(shot.referee.cue_swept) | set(shot.unseen)):
        if piece != sp and not (not is_striker(piece) and state.on_table(piece)):
            raise KangleError(
                f"shot: the record has {piece} taking part, but {piece} is not on the table"
            )


@dataclass
class _Foul:
    rule: str
    shots: int


class _Judgement:
    def __init__(self, state: TableState, shot: ShotRecord, board: Board, rules: RuleProfile):
        self.state, self.shot, self.board, self.rules = state, shot, board, rules
        self.me = shot.shooter
        self.them = opponent(self.me)
        self.sp = shot.shot_piece
        self.calls: list[Call] = []
        self.actions: list[Action] = []
        self.fouls: dict[str, _Foul] = {}
        self.put_back: dict[str, str] = {}  # piece -> rule that puts it back
        self.dead: list[str] = []
        self.dead_doubt: set[str] = set()  # 廢子 made by a contact the source was unsure of
        self.taken_doubt = False  # an opponent piece's pocketing the source was unsure of
        self.unsure = doubtful(*self._until_cushion())
        self.striker_name = "striker" if is_striker(self.sp) else f"自由子 {self.sp}"

    # -- helpers -----------------------------------------------------------------------
    def call(self, rule: str, kind: str, text: str, pieces=(), confirm=False) -> None:
        """Add a call; the same call twice (a 廢子 touching the same piece twice) is said
        once, asking to confirm only if every time it was seen asks."""
        new = Call(rule, kind, text, tuple(pieces), confirm)
        for i, old in enumerate(self.calls):
            if replace(old, confirm=confirm) == new:
                self.calls[i] = replace(old, confirm=old.confirm and confirm)
                return
        self.calls.append(new)

    def foul(self, rule: str, text: str, pieces=(), shots: int = 1, confirm=False) -> None:
        """One foul per rule number: the same event stated twice is one penalty."""
        if rule not in self.fouls:
            self.fouls[rule] = _Foul(rule, shots)
            owed = f"{shots} extra shots" if shots != 1 else "1 extra shot"
            self.call(rule, FOUL, f"{text}: {self.them} gets {owed}", pieces, confirm)

    def final_pos(self, piece: str) -> tuple[float, float]:
        return self.shot.final.get(piece) or self.state.pos(piece)

    # -- the judgement -----------------------------------------------------------------
    def run(self) -> tuple[TableState, Ruling]:
        owner = self.board.circle_owner(self.shot.circle)
        if owner != self.me:
            return self._retake(
                "2.1", f"{self.me} shot from circle {self.shot.circle}, which is {owner}'s: "
                f"a player shoots only from their own circles "
                f"({', '.join(self.board.circles_of(self.me))}). Put every piece back and shoot "
                "again")
        if self._not_shot():
            what = ("re-place the striker and shoot again" if is_striker(self.sp)
                    else f"put the 自由子 {self.sp} back where it was and shoot again")
            return self._retake(
                "4.4", f"the {self.striker_name} did not leave its circle and touched no piece: "
                f"it has not been shot; {what}")
        if self.shot.referee.cue_tip_foul:
            return self._void()
        self._dead_pieces()
        self._protected_hits()
        self._dead_piece_consequences()
        self._referee_fouls()
        pieces, stack, taken = self._movement()
        pieces, stack = self._protection(pieces, stack)
        return self._finish(pieces, stack, taken)

    def _not_shot(self) -> bool:
        s = self.shot
        touched_piece = any(not is_cushion(c.other(self.sp)) for c in s.contacts_of(self.sp))
        gone = any(x.piece == self.sp for x in (*s.pockets, *s.exits))
        return not s.left_circle and not touched_piece and not gone

    def _retake(self, rule: str, text: str) -> tuple[TableState, Ruling]:
        self.call(rule, RETAKE, text)
        return self.state, self._ruling(self.state, shot_no=None)

    def _void(self) -> tuple[TableState, Ruling]:
        """4.3: not struck with the cue tip — void, not re-taken, everything put back."""
        moved = sorted(p for p in self.shot.moved() if not is_striker(p))
        for piece in moved:
            self.actions.append(Action("put_back", piece, "4.3", self.state.pos(piece)))
        where = f"; put back {', '.join(moved)} where they were" if moved else ""
        self.foul("4.3", f"{self.me} did not strike with the cue tip: the shot is void and "
                         f"is not re-taken{where}")
        state = replace(self.state, owed=self._owed_after_fouls(), shots=self.state.shots + 1)
        state, calls = pass_shot(state, self.me, bonus=False, rules=self.rules)
        self.calls.extend(calls)
        return state, self._ruling(state, shot_no=state.shots)

    def _until_cushion(self) -> list[Contact]:
        """The shot piece's contacts up to and including its first cushion: the ones the
        contact-order rules (7.1, 5.5, 6.4) rest on; later ones cannot change them."""
        out = []
        for c in self.shot.contacts_of(self.sp):
            out.append(c)
            if is_cushion(c.other(self.sp)):
                break
        return out

    def _by_the_path(self) -> list[str]:
        """The pieces whose touch before the first cushion would change a call (the
        shooter's own: 7.1; a protected one: 5.5/6.4) that the shot piece's path up to
        its first cushion, as the record has it, passes within GRAZE_MM of touching: the
        ones it may have touched unseen. Without the path (a record with no trajectory of
        the shot piece) only a straight run from the start to the first piece it met can
        be known; with a cushion first and no path, every such piece."""
        until = self._until_cushion()
        end = until[-1].t if until else float("inf")
        samples = (self.shot.trajectory or {}).get(self.sp)
        path = [self.shot.start]
        if samples:
            later = [s for s in samples if s[0] > end][:1]
            path += [(x, y) for t, x, y in samples if t <= end] + [(x, y) for _, x, y in later]
        elif until and not is_cushion(until[0].other(self.sp)):
            path.append(self.state.pos(until[0].other(self.sp)))
        pieces = [p for p, on in sorted(self.state.pieces.items())
                  if on.status == ON_TABLE and p != self.sp and (
                      colour_of(p) == self.me or on.guard)]
        if len(path) == 1:
            return pieces
        reach = self.board.radius_of(self.sp) + GRAZE_MM
        return [p for p in pieces if _distance_to_path(self.state.pos(p), path) <= (
            reach + self.board.radius_of(p))]

    def _direct_hits(self) -> list[tuple[Contact, str]]:
        """Pieces the shot piece touched before its first cushion, in time order."""
        return [(c, c.other(self.sp)) for c in self._until_cushion()
                if not is_cushion(c.other(self.sp))]

    def _dead_pieces(self) -> None:
        """7.1: the shot piece's direct hit on an own piece makes it a 廢子."""
        hits = self._direct_hits()
        if self.rules.dead_piece_scope == "first_contact":
            hits = hits[:1]
            contacts = self.shot.contacts_of(self.sp)
            if not contacts or is_cushion(contacts[0].other(self.sp)):
                hits = []
        for contact, piece in hits:
            if colour_of(piece) == self.me and piece not in self.dead:
                self.dead.append(piece)
                unsure = doubtful(contact) or self._lost_among_like(piece, contact.t)
                if unsure:
                    self.dead_doubt.add(piece)
                self.call(
                    "7.1", FORFEIT,
                    f"{self.me}'s {self.striker_name} hit its own piece {piece} directly, "
                    f"before any cushion: {piece} is a 廢子 given to {self.them}; remove it at "
                    f"the end of the shot (it counts as pocketed)",
                    [piece], confirm=unsure)
                self.actions.append(Action("remove", piece, "7.1"))

    def _lost_among_like(self, piece: str, since: float) -> bool:
        """Whether the source lost sure sight of which piece is ``piece`` after it touched
        a piece of its own colour (after time ``since``, s): an event of either from that
        touch on that the source was unsure of. A camera's tracker lowers the events of
        two like pieces that met (they may have swapped places); which one is the 廢子,
        where it went and what it hit are then the referee's to confirm."""
        for touch in self.shot.contacts_of(piece):
            like = touch.other(piece)
            if touch.t < since or is_cushion(like) or like == self.sp or (
                    colour_of(like) != colour_of(piece)):
                continue
            pair = {piece, like}
            later = [c for c in self.shot.contacts if c.t >= touch.t and {c.a, c.b} & pair]
            later += [x for x in (*self.shot.pockets, *self.shot.exits)
                      if x.piece in pair and x.t >= touch.t]
            if doubtful(*later):
                return True
        return False

    def _protected_hits(self) -> None:
        """5.5 / 6.4: a protected piece may be hit only by a rebound."""
        for contact, piece in self._direct_hits():
            guard = self.state.guard(piece)
            if not guard:
                continue
            unsure = doubtful(contact)
            name = _GUARD_NAME[guard]
            if colour_of(piece) == self.them:
                self.foul("5.5", f"{self.me}'s {self.striker_name} hit {self.them}'s {name} "
                          f"{piece} directly, not by a rebound (5.5; also 6.4)",
                          [piece], confirm=unsure)
                self._restore_with_affected(piece, contact.t, "5.5", unsure)
            elif self.rules.own_protected_hit_is_foul:
                self.foul("6.4", f"{self.me}'s {self.striker_name} hit the protected piece "
                          f"{piece} in the penalty ring directly (either player)",
                          [piece], confirm=unsure)
        for piece in self.shot.referee.cue_swept:
            if self.state.guard(piece) and colour_of(piece) == self.them:
                self.foul("5.5", f"{self.me}'s cue swept {self.them}'s "
                          f"{_GUARD_NAME[self.state.guard(piece)]} {piece}", [piece])
                self._restore_with_affected(piece, 0.0, "5.5")

    def _restore_with_affected(self, piece: str, since: float, rule: str,
                               unsure: bool = False) -> None:
        """Put back a hit protected piece and every piece it moved on (5.5) — except a
        大回 that is still inside the penalty ring, which stays where it is. ``unsure``:
        the hit itself rests on a contact the source was not sure of."""
        if self._big_still_in_ring(piece):
            self.call(rule, INFO, f"the 大回 {piece} is still inside the penalty ring: "
                                  "it stays where it is", confirm=unsure)
            return
        affected = {piece: unsure}
        moved_by: dict[str, str] = {}
        for c in self.shot.contacts:
            if c.t < since:
                continue
            for a, b in ((c.a, c.b), (c.b, c.a)):
                if a in affected and not is_cushion(b) and b != self.sp and b not in affected:
                    affected[b] = affected[a] or doubtful(c)
                    moved_by[b] = a
        for p, doubt in affected.items():
            self._mark_put_back(p, rule, doubt, moved_by.get(p))

    def _big_still_in_ring(self, piece: str) -> bool:
        if self.state.guard(piece) != BIG:
            return False
        gone = any(x.piece == piece for x in (*self.shot.pockets, *self.shot.exits))
        return not gone and self.board.in_penalty_ring(*self.final_pos(piece))

    def _mark_put_back(self, piece: str, rule: str, unsure: bool = False,
                       moved_by: str | None = None) -> None:
        """Call ``piece`` back to where it stood before the shot; ``moved_by``: the piece
        that knocked it there (said, so the referee knows which piece is meant)."""
        if piece in self.put_back or piece in self.dead:
            return
        self.put_back[piece] = rule
        self.actions.append(Action("put_back", piece, rule, self.state.pos(piece)))
        how = f" ({moved_by} knocked it on)" if moved_by else ""
        self.call(rule, RESTORE, f"put {colour_of(piece)}'s {piece}{how} back where it stood "
                  "before the shot", [piece], confirm=unsure)

    def _dead_piece_consequences(self) -> None:
        """7.2–7.5: what the 廢子 hit after the striker."""
        for dead in self.dead:
            for c in self.shot.contacts_of(dead):
                other = c.other(dead)
                if is_cushion(other) or other == self.sp:
                    continue
                unsure = dead in self.dead_doubt or doubtful(c)
                guard = self.state.guard(other)
                if colour_of(other) == self.them and guard:
                    if self._big_still_in_ring(other):
                        self.call("7.3", INFO, f"the 廢子 {dead} hit the 大回 {other}, which is "
                                               "still a 大回: it stays where it is", [other],
                                  confirm=unsure)
                    else:
                        self._mark_put_back(other, "7.3", unsure, f"the 廢子 {dead}")
                elif colour_of(other) == self.them:
                    self.call("7.2", INFO, f"the 廢子 {dead} hit {self.them}'s {other}: play "
                                           "goes on, no penalty (the 廢子 is still given away)",
                              [dead, other], confirm=unsure)
                elif guard:
                    self.call("7.4", INFO, f"the 廢子 {dead} knocked {self.me}'s protected "
                                           f"{other}: play goes on", [dead, other],
                              confirm=unsure)
                elif other not in self.dead:
                    self.call("7.5", INFO, f"{other}, hit by the 廢子 {dead}, stays where it "
                                           "lands", [other], confirm=unsure)

    def _referee_fouls(self) -> None:
        facts = self.shot.referee
        if facts.own_cue_hit:
            self.foul("5.2", f"{self.me}'s striker rebounded into {self.me}'s own cue")
        if facts.pivot_foul:
            self.foul("5.6", f"{self.me}'s cue pivot crossed beyond {self.me}'s side of the table",
                      shots=self.rules.pivot_foul_extra_shots)
        if facts.body_touch:
            self.foul("6.6", f"{self.me} touched a piece with the body while shooting "
                             f"({self.me} misses a turn)")

    def _movement(self) -> tuple[dict[str, Piece], list[str], list[str]]:
        """Where every piece is after the shot; returns the pieces, the 小回 stack and the
        opponent pieces pocketed (for 5.1)."""
        pieces = dict(self.state.pieces)
        stack = list(self.state.stack)
        taken: list[str] = []
        for piece, pos in self.shot.final.items():
            if piece not in self.put_back and not is_striker(piece):
                pieces[piece] = replace(pieces[piece], pos=pos)

        def remove(piece: str) -> None:
            pieces[piece] = Piece(piece, POCKETED)
            if piece in stack:
                stack.remove(piece)

        for p in self.shot.pockets:
            if p.piece in self.put_back:
                continue
            unsure = doubtful(p)
            if p.piece == self.sp and is_striker(p.piece):
                self.foul("5.3", f"{self.me}'s striker went into hole {p.hole} (5.3 = 6.2: "
                                 f"{self.me} misses a turn)", confirm=unsure)
            elif p.piece in self.dead:
                remove(p.piece)
            elif colour_of(p.piece) == self.them:
                remove(p.piece)
                taken.append(p.piece)
                self.taken_doubt |= unsure
            else:
                remove(p.piece)
                why = (f"the 自由子 {p.piece} is not a striker, so this is no 5.3 foul; it "
                       f"counts as pocketed for {self.them}" if p.piece == self.sp else
                       f"it counts as pocketed for {self.them} (4.2: a piece in any hole "
                       "counts, whoever sent it)")
                self.call("4.2", FORFEIT, f"{self.me}'s own {p.piece} went into hole {p.hole}: "
                                          f"{why}", [p.piece], confirm=unsure)
        for e in self.shot.exits:
            where = "off the table" if e.where == "off" else "onto the rim"
            if e.piece in self.put_back:
                continue
            unsure = doubtful(e)
            if e.piece == self.sp and is_striker(e.piece):
                self.foul("5.4", f"{self.me}'s striker went {where} (5.4 = 6.1: {self.me} "
                                 "misses a turn)", confirm=unsure)
            elif e.piece in self.dead:
                remove(e.piece)
            elif colour_of(e.piece) == self.them:
                if e.piece in stack:
                    stack.remove(e.piece)
                stack.append(e.piece)
                pieces[e.piece] = Piece(e.piece, ON_TABLE, CENTRE, SMALL)
                self.actions.append(Action("place", e.piece, "9.1", CENTRE))
                self.call("6.3/9.1", PROTECT,
                          f"{self.them}'s {e.piece} went {where}: place it at the centre of the "
                          f"inner ring as a 小回, on top of the stack ({len(stack)} 小回 now)"
                          if len(stack) > 1 else
                          f"{self.them}'s {e.piece} went {where}: place it at the centre of the "
                          "inner ring as a 小回; it may be hit only by a rebound", [e.piece],
                          confirm=unsure)
            else:
                remove(e.piece)
                self.actions.append(Action("remove", e.piece, "6.5"))
                self.call("6.5", FORFEIT, f"{self.me}'s own {e.piece} went {where}: it counts "
                                          "as pocketed; take it off", [e.piece], confirm=unsure)
        for piece in self.dead:
            remove(piece)
        return pieces, stack, taken

    def _protection(
        self, pieces: dict[str, Piece], stack: list[str]
    ) -> tuple[dict[str, Piece], list[str]]:
        """9.3 and 大回: protection after the shot, judged on each piece's centre."""
        new_small = {e.piece for e in self.shot.exits}
        for pid in list(pieces):
            p = pieces[pid]
            if p.status != ON_TABLE or not p.guard or pid in new_small or pid in self.put_back:
                continue
            x, y = p.pos
            if p.guard == SMALL and self.board.in_inner_ring(x, y):
                if (x, y) != CENTRE:
                    pieces[pid] = replace(p, pos=CENTRE)
                    self.actions.append(Action("place", pid, "9.3", CENTRE))
                    self.call("9.3", PROTECT, f"the 小回 {pid} did not leave the inner ring: put "
                                              "it back at the centre in its place in the stack",
                              [pid])
            elif self.board.in_penalty_ring(x, y):
                if p.guard == SMALL:
                    pieces[pid] = replace(p, guard=BIG)
                    stack.remove(pid)
                    self.call("9.3", PROTECT, f"{pid} left the inner ring but not the penalty "
                                              "ring: it is now a 大回, still protected", [pid])
            else:
                pieces[pid] = replace(p, guard=None)
                if pid in stack:
                    stack.remove(pid)
                self.call("9.3", PROTECT, f"{pid} left the penalty ring: it is no longer "
                                          "protected and may be hit directly", [pid])
        if stack:
            self._clear_centre(pieces)
        return pieces, stack

    def _clear_centre(self, pieces: dict[str, Piece]) -> None:
        """9.4: a non-小回 piece on the centre goes just in front of the stack, on the side
        of the player who would play it (the opponent of its colour)."""
        for pid, p in pieces.items():
            if p.status != ON_TABLE or p.guard == SMALL:
                continue
            if abs(p.pos[0]) ** 2 + abs(p.pos[1]) ** 2 < self.board.piece_radius ** 2:
                side = 1.0 if colour_of(pid) == "red" else -1.0  # black sits at y > 0
                spot = (0.0, side * self.board.piece_diameter)
                pieces[pid] = replace(p, pos=spot)
                player = opponent(colour_of(pid))
                self.actions.append(Action("place", pid, "9.4", spot))
                self.call("9.4", PROTECT, f"{pid} stopped on the centre: stack the 小回 at the "
                                          f"centre and put {pid} just in front of them, on "
                                          f"{player}'s side", [pid])

    def _owed_after_fouls(self) -> dict[str, int]:
        owed = dict(self.state.owed)
        shots = [f.shots for f in self.fouls.values()]
        if shots:
            owed[self.them] += sum(shots) if self.rules.fouls_in_one_shot == "each" else max(shots)
        return owed

    def _finish(
        self, pieces: dict[str, Piece], stack: list[str], taken: list[str]
    ) -> tuple[TableState, Ruling]:
        # 參: a shot that clears the opponent's last piece earns no extra shot (there is
        # nothing left to shoot at): the game ends or the catch-up turn begins
        cleared = not any(pieces[p].status == ON_TABLE for p in pieces_of(self.them))
        bonus = bool(taken) and not self.fouls and not cleared
        if taken and self.fouls:
            self.call("5.1", INFO, f"{', '.join(taken)} pocketed, but the foul cancels "
                                   f"{self.me}'s extra shot", taken, confirm=self.taken_doubt)
        elif bonus:
            self.call("5.1", BONUS, f"{self.me} pocketed {', '.join(taken)}: {self.me} shoots "
                                    "again (one extra shot, however many went in)", taken,
                      confirm=self.taken_doubt)
        state = replace(self.state, pieces=pieces, stack=tuple(stack),
                        owed=self._owed_after_fouls(), shots=self.state.shots + 1)
        state, calls = pass_shot(state, self.me, bonus, self.rules)
        self.calls.extend(calls)
        return state, self._ruling(state, shot_no=state.shots)

    def _ruling(self, state: TableState, shot_no: int | None) -> Ruling:
        if self.unsure:
            self.calls = [replace(c, confirm=True) if c.rule in _CONTACT_ORDER_RULES else c
                          for c in self.calls]
            near = self._by_the_path()
            if near and not any(c.rule in _CONTACT_ORDER_RULES for c in self.calls):
                # no call turns on it as seen, but as it really was one might (an own
                # or a protected piece by the path touched first): the referee is asked
                seen = [c.other(self.sp) for c in self._until_cushion()][:1]
                said = "nothing" if not seen else (
                    f"the {seen[0].split(':')[1]} cushion" if is_cushion(seen[0]) else seen[0])
                self.calls.append(Call(
                    "7.1", CHECK, f"the {self.striker_name}'s first contact was not seen "
                    f"surely ({said}, as seen): check it did not touch {' or '.join(near)} "
                    "first", tuple(p for p in seen if not is_cushion(p)) + tuple(near),
                    confirm=True))
        for piece in self.shot.unseen:
            # what the record cannot say: a piece that may have been pocketed or moved
            self.calls.append(Call(
                "4.2", CHECK, f"{piece} was out of sight from before the shot to its end (under "
                "a hand or the cue), and the shot may have reached it: check it still stands "
                "where it stood — if it went into a hole or off the table, enter the shot by "
                "hand", (piece,), confirm=True))
        return Ruling(entry="shot", player=self.me, shot=shot_no, calls=tuple(self.calls),
                      actions=tuple(self.actions), next_turn=state.turn, owed=dict(state.owed),
                      result=state.result)

