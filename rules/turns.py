"""Turn order, extra shots owed and the end of the game (rules 3.1, 4.2, 8.4, catch-up).

These run after every entry that can change whose shot it is or remove pieces: a
judged shot, a time-out, a discard.
"""

from __future__ import annotations

from dataclasses import replace

from rules.pieces import opponent
from rules.rule_profile import RuleProfile
from rules.ruling import INFO, RESULT, TURN, Call
from rules.state import Result, TableState


def pass_shot(
    state: TableState, player: str, bonus: bool, rules: RuleProfile, lose_turn: bool = False
) -> tuple[TableState, list[Call]]:
    """After ``player`` has used a shot: who shoots next, then whether the game is over.

    A 5.1 bonus keeps the shot; otherwise an extra shot still owed to the player is
    taken next (one after another), otherwise the turn passes. ``lose_turn`` (a
    time-out under ``timeout_forfeits = "turn"``) passes the turn even when shots are
    owed; they wait for the player's next turn.
    """
    owed = dict(state.owed)
    calls = []
    if bonus:
        nxt = player
    elif owed[player] > 0 and not lose_turn:
        owed[player] -= 1
        nxt = player
        calls.append(Call("5/6", TURN, f"{player} shoots again: one of the extra shots owed "
                                       f"({owed[player]} more after it)"))
    else:
        nxt = opponent(player)
        if owed[nxt]:
            calls.append(Call("5/6", TURN, f"{nxt}'s turn, then {owed[nxt]} extra shot(s) owed"))
    state = replace(state, owed=owed, turn=nxt)
    end_state, end_calls = settle(state, player, rules)
    return end_state, calls + end_calls


def settle(
    state: TableState, actor: str, rules: RuleProfile, rule: str = "4.2"
) -> tuple[TableState, list[Call]]:
    """Decide win, draw or catch-up after ``actor``'s entry removed pieces.

    4.2: the first player to have all the opponent's pieces pocketed wins.
    Catch-up (參, setting ``catch_up_turn``): if the first shooter clears the last
    opponent piece, the second shooter gets one final turn; clearing the first
    shooter's last piece in it draws the game. ``rule`` is cited when the actor loses
    by clearing their own last piece (8.4 for a discard).
    """
    first = state.first
    if state.phase == "catch_up":
        second = opponent(first)
        if not state.left(first):
            return _draw(state, rules, "catch-up", f"{second}'s catch-up turn cleared {first}'s "
                                                  "last piece too")
        if state.turn == second:
            return state, []
        return _win(state, first, "參", f"{second}'s catch-up turn is over without clearing "
                                         f"{first}'s pieces: {first} wins")
    other = opponent(actor)
    own_clear, other_clear = not state.left(actor), not state.left(other)
    if own_clear and other_clear:
        if rules.both_cleared == "shooter_wins":
            return _win(state, actor, "4.2", f"winning (4.2): the last pieces of both colours "
                                              f"went in one shot: {actor} wins (house rule)")
        return _draw(state, rules, "4.2", "winning (4.2): the last pieces of both colours went "
                                          "in one shot")
    if other_clear:
        if rules.catch_up_turn and actor == first:
            state = replace(state, phase="catch_up", turn=other)
            return state, [Call("參", INFO, f"{actor} has pocketed all {other}'s pieces; "
                                            f"{other} shot second and gets one final turn "
                                            "(後打者可追回壹次)")]
        return _win(state, actor, "4.2", f"winning (4.2): all {other}'s pieces are pocketed: "
                                          f"{actor} wins")
    if own_clear:
        return _win(state, other, rule, f"{actor} has no pieces left on the table: {other} wins")
    return state, []


def _win(state: TableState, winner: str, rule: str, text: str) -> tuple[TableState, list[Call]]:
    result = Result(winner, rule, text)
    return replace(state, phase="over", turn=None, result=result), [Call(rule, RESULT, text)]


def _draw(
    state: TableState, rules: RuleProfile, rule: str, why: str
) -> tuple[TableState, list[Call]]:
    tail = (": the game is drawn and decided by a new lag game" if rules.draw_decided_by == "lag"
            else ": the game is drawn")
    result = Result(None, rule, why + tail)
    return replace(state, phase="over", turn=None, result=result), [Call(rule, RESULT,
                                                                          why + tail)]
