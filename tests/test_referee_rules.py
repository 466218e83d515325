"""One scenario per rule of specs/kangle-rules.md (sections 2-9).

Each expected ruling is written out by hand from the spec: which rule is cited,
who gets extra shots, where the pieces end, who shoots next.
"""

from dataclasses import replace

import pytest

from rules.errors import KangleError
from rules.rule_profile import RuleProfile
from rules.state import BIG, ON_TABLE, POCKETED, SMALL
from tests.kit import BOARD, alone, gone, put, run, shot, started


def fouls(ruling):
    return sorted(c.rule for c in ruling.calls if c.kind == "foul")


# -- 2.1 circles ---------------------------------------------------------------
def test_2_1_shooting_from_an_opponent_circle_is_retaken_without_penalty():
    state = started("red")
    new, ruling, calls = run(state, shot(circle="NE", contacts=[(0.1, "RS", "B05")]))
    assert calls == [("2.1", "retake")]
    assert new == state  # nothing changes, red shoots again
    assert ruling.next_turn == "red" and ruling.shot is None


# -- 3.1 the lag is in test_game.py --------------------------------------------
# -- 4.1 set-up ----------------------------------------------------------------
def test_4_1_sixteen_pieces_each_along_own_cushion_touching_it():
    state = started()
    red = [state.pos(p) for p in state.left("red")]
    black = [state.pos(p) for p in state.left("black")]
    assert len(red) == len(black) == 16
    r = BOARD.piece_radius
    assert all(y == pytest.approx(-BOARD.half + r) for _, y in red)  # red sits at y < 0
    assert all(y == pytest.approx(BOARD.half - r) for _, y in black)
    xs = sorted(x for x, _ in red)
    assert all(b - a >= BOARD.piece_diameter for a, b in zip(xs, xs[1:], strict=False))
    assert all(BOARD.region(x, y) == "surface" for x, y in red + black)


# -- 4.2 winning ---------------------------------------------------------------
def test_4_2_second_shooter_pocketing_the_last_opponent_piece_wins_at_once():
    state = gone(started("black"), *[f"B{i:02d}" for i in range(1, 16)])  # B16 left
    state = replace(state, turn="red")  # red shot second
    new, ruling, calls = run(state, shot(contacts=[(0.1, "RS", "B16")],
                                         pockets=[(0.5, "B16", "NW")]))
    assert ("4.2", "result") in calls
    assert new.phase == "over" and new.result.winner == "red"


def test_4_2_pieces_pocketed_by_their_owner_count_for_the_opponent():
    state = gone(started("red"), *[f"R{i:02d}" for i in range(1, 16)])  # red has R16 only
    state = put(state, "R16", (-300, -200))
    # red cuts its own last piece in off a cushion (no 廢子): black has all red pieces pocketed
    new, _, calls = run(state, shot(contacts=[(0.1, "RS", "cushion:W"), (0.3, "RS", "R16")],
                                    pockets=[(0.6, "R16", "SW")]))
    assert new.result.winner == "black" and ("4.2", "result") in calls


# -- 4.3 cue tip ---------------------------------------------------------------
def test_4_3_not_struck_with_the_tip_voids_the_shot_and_gives_one_extra_shot():
    state = started("red")
    record = shot(contacts=[(0.1, "RS", "B05"), (0.2, "B05", "B06")],
                  pockets=[(0.4, "B05", "NE")], final={"B06": (10.0, 300.0)}, cue_tip_foul=True)
    new, ruling, calls = run(state, record)
    assert calls[0] == ("4.3", "foul")
    # every piece it moved is put back, including the pocketed one
    assert {a.piece for a in ruling.actions if a.do == "put_back"} == {"B05", "B06"}
    assert new.pieces == state.pieces
    assert new.owed == {"red": 0, "black": 1} and new.turn == "black"  # not re-taken


# -- 4.4 not yet shot ----------------------------------------------------------
def test_4_4_striker_still_in_circle_touching_nothing_is_replaced_and_reshot():
    state = started("red")
    new, ruling, calls = run(state, shot(left_circle=False))
    assert calls == [("4.4", "retake")] and new == state and ruling.next_turn == "red"


def test_4_4_striker_in_circle_that_touched_a_piece_has_been_shot():
    state = put(started("red"), "B05", (-240, -240))  # a black piece next to red's circle
    _, _, calls = run(state, shot(left_circle=False, contacts=[(0.05, "RS", "B05")]))
    assert ("4.4", "retake") not in calls


def test_4_4_free_piece_that_did_not_leave_its_circle_is_put_back_and_reshot():
    state = put(started("red"), "R03", BOARD.circle_centre("SE"))
    new, _, calls = run(state, shot(circle="SE", piece="R03", left_circle=False))
    assert calls == [("4.4", "retake")] and new.pos("R03") == BOARD.circle_centre("SE")


# -- 5.1 bonus -----------------------------------------------------------------
def test_5_1_two_opponent_pieces_pocketed_earn_exactly_one_extra_shot():
    state = started("red")
    new, ruling, calls = run(state, shot(contacts=[(0.1, "RS", "B05"), (0.2, "B05", "B06")],
                                         pockets=[(0.5, "B05", "NE"), (0.6, "B06", "NW")]))
    assert calls == [("5.1", "bonus")]
    assert new.turn == "red" and new.owed == {"red": 0, "black": 0}
    assert new.pieces["B05"].status == POCKETED and len(new.left("black")) == 14


def test_5_1_pocketing_only_own_pieces_earns_nothing():
    state = started("red")
    new, _, calls = run(state, shot(contacts=[(0.1, "RS", "cushion:S"), (0.2, "RS", "R01")],
                                    pockets=[(0.4, "R01", "SW")]))
    assert ("5.1", "bonus") not in calls and new.turn == "black"
    assert new.pieces["R01"].status == POCKETED


# -- 5.2 own cue ---------------------------------------------------------------
def test_5_2_striker_rebounding_into_own_cue_gives_opponent_one_shot():
    new, _, calls = run(started("red"), shot(contacts=[(0.1, "RS", "cushion:N")],
                                             own_cue_hit=True))
    assert ("5.2", "foul") in calls and new.owed["black"] == 1 and new.turn == "black"


# -- 5.3 = 6.2 striker in a hole -----------------------------------------------
def test_5_3_striker_into_a_hole_is_one_penalty_not_two():
    new, ruling, calls = run(started("red"), shot(contacts=[(0.1, "RS", "cushion:N")],
                                                  pockets=[(0.7, "RS", "NE")]))
    assert fouls(ruling) == ["5.3"] and new.owed == {"red": 0, "black": 1}
    assert new.pieces["RS"].status == "hand"  # the striker comes back to its owner


def test_5_3_free_piece_in_a_hole_is_no_foul_just_an_own_piece_pocketed():
    state = put(started("red"), "R03", BOARD.circle_centre("SE"))
    new, ruling, calls = run(state, shot(circle="SE", piece="R03",
                                         contacts=[(0.1, "R03", "cushion:E")],
                                         pockets=[(0.5, "R03", "NE")]))
    assert fouls(ruling) == [] and new.pieces["R03"].status == POCKETED
    assert new.turn == "black" and new.owed == {"red": 0, "black": 0}


# -- 5.4 = 6.1 striker off the table or on the rim -----------------------------
@pytest.mark.parametrize("where", ["off", "rim"])
def test_5_4_striker_off_the_table_or_on_the_rim(where):
    new, ruling, _ = run(started("red"), shot(contacts=[(0.1, "RS", "cushion:N")],
                                              exits=[(0.3, "RS", where)]))
    assert fouls(ruling) == ["5.4"] and new.owed["black"] == 1


# -- 5.5 direct hit on the shooter's 小回 / 大回 -----------------------------------
def test_5_5_direct_hit_on_opponent_small_puts_it_and_what_it_moved_back():
    state = put(put(started("red"), "B05", (0, 0), SMALL), "B06", (0, 60))
    record = shot(contacts=[(0.1, "RS", "B05"), (0.2, "B05", "B06")],
                  final={"B05": (0, 120), "B06": (5, 200)})
    new, ruling, calls = run(state, record)
    assert fouls(ruling) == ["5.5"] and new.owed["black"] == 1
    assert new.pos("B05") == (0, 0) and new.guard("B05") == SMALL and new.stack == ("B05",)
    assert new.pos("B06") == (0, 60)  # affected piece goes back too
    assert {a.piece for a in ruling.actions if a.do == "put_back"} == {"B05", "B06"}


def test_5_5_rebound_hit_on_a_small_is_legal_and_protection_ends_outside_the_rings():
    state = put(started("red"), "B05", (0, 0), SMALL)
    record = shot(contacts=[(0.1, "RS", "cushion:W"), (0.3, "RS", "B05")],
                  final={"B05": (150, 100)})
    new, ruling, calls = run(state, record)
    assert fouls(ruling) == [] and ("9.3", "protect") in calls
    assert new.guard("B05") is None and new.stack == () and new.pos("B05") == (150, 100)


def test_5_5_cue_sweeping_an_opponent_small_is_a_foul_and_put_back():
    state = put(started("red"), "B05", (0, 0), SMALL)
    new, ruling, _ = run(state, shot(contacts=[(0.1, "RS", "cushion:N")],
                                     final={"B05": (30, 30)}, cue_swept=("B05",)))
    assert fouls(ruling) == ["5.5"] and new.pos("B05") == (0, 0)


def test_5_5_big_hit_directly_but_still_in_the_penalty_ring_stays_put():
    state = put(started("red"), "B05", (50, 0), BIG)
    new, ruling, _ = run(state, shot(contacts=[(0.1, "RS", "B05")], final={"B05": (60, 20)}))
    assert fouls(ruling) == ["5.5"]  # still a foul ...
    assert new.pos("B05") == (60, 20) and new.guard("B05") == BIG  # ... but not put back


# -- 5.6 pivot -----------------------------------------------------------------
def test_5_6_pivot_foul_gives_18_shots_by_default_and_the_profile_can_change_it():
    record = shot(contacts=[(0.1, "RS", "cushion:N")], pivot_foul=True)
    new, _, _ = run(started("red"), record)
    assert new.owed["black"] == 18
    new, _, _ = run(started("red"), record, RuleProfile(pivot_foul_extra_shots=1))
    assert new.owed["black"] == 1


# -- 6.3 / 9.1 / 9.2 off the table ---------------------------------------------
def test_6_3_opponent_piece_off_the_table_becomes_a_small_at_the_centre_stacked():
    state = started("red")
    new, ruling, calls = run(state, shot(contacts=[(0.1, "RS", "B05"), (0.2, "B05", "B06")],
                                         exits=[(0.3, "B05", "off"), (0.35, "B06", "rim")]))
    assert calls.count(("6.3/9.1", "protect")) == 2
    assert new.guard("B05") == new.guard("B06") == SMALL
    assert new.stack == ("B05", "B06")  # 9.2: the later one on top
    assert new.pos("B06") == (0, 0)
    assert fouls(ruling) == [] and new.turn == "black"  # off the table is not a pocket: no 5.1


# -- 6.4 either player ---------------------------------------------------------
def test_6_4_hitting_ones_own_protected_piece_directly_is_a_foul_for_its_owner_too():
    # red's R05 is a 小回 (black sent it off). Red hits it directly: 7.1 廢子 and 6.4 skip.
    state = put(started("red"), "R05", (0, 0), SMALL)
    new, ruling, calls = run(state, shot(contacts=[(0.1, "RS", "R05")],
                                         final={"R05": (0, 100)}))
    assert fouls(ruling) == ["6.4"] and ("7.1", "forfeit") in calls
    assert new.owed["black"] == 1 and new.pieces["R05"].status == POCKETED
    off = RuleProfile(own_protected_hit_is_foul=False)
    new, ruling, _ = run(state, shot(contacts=[(0.1, "RS", "R05")], final={"R05": (0, 100)}),
                         off)
    assert fouls(ruling) == [] and new.owed["black"] == 0


# -- 6.5 own piece off the table -----------------------------------------------
def test_6_5_own_piece_off_the_table_counts_as_pocketed():
    new, ruling, calls = run(started("red"), shot(
        contacts=[(0.1, "RS", "cushion:W"), (0.2, "RS", "R01")], exits=[(0.4, "R01", "off")]))
    assert ("6.5", "forfeit") in calls and new.pieces["R01"].status == POCKETED
    assert fouls(ruling) == []


# -- 6.6 body touch ------------------------------------------------------------
def test_6_6_body_touch_is_one_extra_shot_and_cancels_the_bonus():
    new, ruling, calls = run(started("red"), shot(contacts=[(0.1, "RS", "B05")],
                                                  pockets=[(0.4, "B05", "NE")], body_touch=True))
    assert fouls(ruling) == ["6.6"] and ("5.1", "info") in calls  # bonus cancelled
    assert new.turn == "black" and new.owed["black"] == 1
    assert new.pieces["B05"].status == POCKETED  # legally pocketed pieces stay pocketed


# -- several fouls -------------------------------------------------------------
def test_several_fouls_each_add_one_or_count_once_by_setting():
    record = shot(contacts=[(0.1, "RS", "cushion:N")], pockets=[(0.5, "RS", "NE")],
                  body_touch=True, own_cue_hit=True)
    new, ruling, _ = run(started("red"), record)
    assert fouls(ruling) == ["5.2", "5.3", "6.6"] and new.owed["black"] == 3
    new, _, _ = run(started("red"), record, RuleProfile(fouls_in_one_shot="once"))
    assert new.owed["black"] == 1


# -- 7 廢子 ----------------------------------------------------------------------
def test_7_1_first_contact_with_own_piece_makes_it_dead_and_given_away():
    state = started("red")
    new, ruling, calls = run(state, shot(contacts=[(0.1, "RS", "R04"), (0.2, "R04", "R05")],
                                         final={"R04": (-150, -300), "R05": (-100, -320)}))
    assert ("7.1", "forfeit") in calls and ("7.5", "info") in calls
    assert new.pieces["R04"].status == POCKETED  # removed, counts for black
    assert new.pos("R05") == (-100, -320)  # 7.5: stays where it lands
    assert fouls(ruling) == [] and new.owed == {"red": 0, "black": 0}  # a forfeit, not a foul
    assert [a.do for a in ruling.actions] == ["remove"]


def test_7_1_cushion_first_means_no_dead_piece():
    _, _, calls = run(started("red"), shot(contacts=[(0.1, "RS", "cushion:S"),
                                                     (0.2, "RS", "R04")]))
    assert ("7.1", "forfeit") not in calls


def test_7_1_only_first_contact_by_default_all_before_cushion_by_setting():
    record = shot(contacts=[(0.1, "RS", "B05"), (0.2, "RS", "R04"), (0.3, "RS", "cushion:N")])
    _, _, calls = run(started("red"), record)
    assert ("7.1", "forfeit") not in calls  # first contact was black's piece
    scope = RuleProfile(dead_piece_scope="before_first_cushion")
    new, _, calls = run(started("red"), record, scope)
    assert ("7.1", "forfeit") in calls and new.pieces["R04"].status == POCKETED


def test_7_2_dead_piece_pocketing_an_enemy_keeps_play_normal_and_the_bonus():
    state = put(started("red"), "B05", (0, 100))
    new, ruling, calls = run(state, shot(contacts=[(0.1, "RS", "R04"), (0.3, "R04", "B05")],
                                         pockets=[(0.6, "B05", "NW")],
                                         final={"R04": (0, 80)}))
    assert ("7.1", "forfeit") in calls and ("7.2", "info") in calls
    assert ("5.1", "bonus") in calls and new.turn == "red"  # 7.2: play goes on normally
    assert fouls(ruling) == []


def test_7_3_dead_piece_hitting_shooters_small_puts_it_back_but_not_a_big_still_in_ring():
    state = put(put(started("red"), "B05", (0, 0), SMALL), "B06", (60, 0), BIG)
    record = shot(contacts=[(0.1, "RS", "R04"), (0.3, "R04", "B05"), (0.4, "R04", "B06")],
                  final={"R04": (20, 20), "B05": (0, 150), "B06": (70, 10)})
    new, ruling, calls = run(state, record)
    assert ("7.3", "restore") in calls and ("7.3", "info") in calls
    assert new.pos("B05") == (0, 0) and new.guard("B05") == SMALL
    assert new.pos("B06") == (70, 10) and new.guard("B06") == BIG
    assert fouls(ruling) == []


def test_7_4_dead_piece_knocking_out_opponents_protected_piece_plays_on():
    state = put(started("red"), "R06", (0, 0), SMALL)  # red's own piece under protection
    record = shot(contacts=[(0.1, "RS", "R04"), (0.3, "R04", "R06")],
                  final={"R04": (10, 10), "R06": (0, 200)})
    new, ruling, calls = run(state, record)
    assert ("7.4", "info") in calls and fouls(ruling) == []
    assert new.guard("R06") is None and new.pos("R06") == (0, 200)


# -- 8 棄子 ----------------------------------------------------------------------
# discards are game entries: see test_game.py


# -- 9.3 / 大回 ------------------------------------------------------------------
@pytest.mark.parametrize(
    "final, guard, pos",
    [
        ((0, 25), SMALL, (0, 0)),  # centre exactly on the inner ring line: still a 小回, back
        ((0, 10), SMALL, (0, 0)),
        ((0, 25.5), BIG, (0, 25.5)),  # centre just outside the inner ring: a 大回
        ((0, 85), BIG, (0, 85)),  # on the penalty ring line: still inside
        ((0, 85.5), None, (0, 85.5)),  # out of the penalty ring: unprotected
    ],
)
def test_9_3_protection_follows_the_centre_with_the_line_counting_inside(final, guard, pos):
    state = put(started("red"), "B05", (0, 0), SMALL)
    new, ruling, _ = run(state, shot(contacts=[(0.1, "RS", "cushion:W"), (0.3, "RS", "B05")],
                                     final={"B05": final}))
    assert new.guard("B05") == guard and new.pos("B05") == pos
    assert (new.stack == ("B05",)) == (guard == SMALL)


def test_9_3_stack_order_is_kept_when_smalls_go_back():
    state = put(put(started("red"), "B05", (0, 0), SMALL), "B06", (0, 0), SMALL)
    new, _, _ = run(state, shot(contacts=[(0.1, "RS", "cushion:W"), (0.3, "RS", "B05")],
                                final={"B05": (3, 4)}))
    assert new.stack == ("B05", "B06")


def test_9_4_piece_stopping_on_the_centre_goes_in_front_of_the_stack():
    state = put(started("red"), "B05", (0, 0), SMALL)
    new, ruling, calls = run(state, shot(contacts=[(0.1, "RS", "cushion:W"), (0.3, "RS", "R07")],
                                         final={"R07": (2, -3)}))
    assert ("9.4", "protect") in calls
    # red's R07 would be played by black, who sits at y > 0: in front is towards black
    assert new.pos("R07") == (0.0, BOARD.piece_diameter)


def test_big_leaving_the_penalty_ring_loses_protection():
    state = put(started("red"), "B05", (50, 0), BIG)
    new, _, calls = run(state, shot(contacts=[(0.1, "RS", "cushion:W"), (0.2, "RS", "B05")],
                                    final={"B05": (200, 0)}))
    assert new.guard("B05") is None and ("9.3", "protect") in calls


# -- extra shots owed ----------------------------------------------------------
def test_owed_shots_are_taken_one_after_another_then_the_turn_passes():
    state = replace(started("red"), turn="black", owed={"red": 0, "black": 2})
    quiet = dict(contacts=[(0.1, "BS", "cushion:S")])
    s1, _, _ = run(state, shot("black", **quiet))
    assert s1.turn == "black" and s1.owed["black"] == 1
    s2, _, _ = run(s1, shot("black", **quiet))
    assert s2.turn == "black" and s2.owed["black"] == 0
    s3, _, _ = run(s2, shot("black", **quiet))
    assert s3.turn == "red"


def test_a_bonus_earned_during_an_owed_shot_does_not_use_up_the_owed_shots():
    state = replace(started("red"), turn="black", owed={"red": 0, "black": 1})
    s1, _, calls = run(state, shot("black", contacts=[(0.1, "BS", "R05")],
                                   pockets=[(0.3, "R05", "SW")]))
    assert ("5.1", "bonus") in calls and s1.turn == "black" and s1.owed["black"] == 1


# -- catch-up turn (參) ---------------------------------------------------------
def _last_black_piece_state():
    state = gone(started("red"), *[f"B{i:02d}" for i in range(1, 16)])
    return put(state, "B16", (0, 300))


def test_catch_up_first_shooter_clearing_gives_the_second_one_final_turn():
    record = shot(contacts=[(0.1, "RS", "B16")], pockets=[(0.4, "B16", "NW")])
    new, _, calls = run(_last_black_piece_state(), record)
    assert ("參", "info") in calls and new.phase == "catch_up" and new.turn == "black"
    # the clearing shot's own 5.1 bonus lapses and is not called (spec, 參)
    assert not any(rule == "5.1" for rule, _ in calls) and new.owed["red"] == 0
    # black misses: red wins
    done, _, calls = run(new, shot("black", contacts=[(0.1, "BS", "cushion:S")]))
    assert done.result.winner == "red" and ("參", "result") in calls


def test_catch_up_clearing_back_draws_and_a_bonus_keeps_the_turn():
    state = gone(_last_black_piece_state(), *[f"R{i:02d}" for i in range(1, 15)])
    state = put(put(state, "R15", (0, -200)), "R16", (100, -200))
    new, _, _ = run(state, shot(contacts=[(0.1, "RS", "B16")], pockets=[(0.4, "B16", "NW")]))
    s1, _, _ = run(new, shot("black", contacts=[(0.1, "BS", "R15")],
                             pockets=[(0.3, "R15", "SW")]))
    assert s1.phase == "catch_up" and s1.turn == "black"  # 5.1 bonus within the catch-up turn
    s2, _, calls = run(s1, shot("black", contacts=[(0.1, "BS", "R16")],
                                pockets=[(0.3, "R16", "SE")]))
    assert s2.phase == "over" and s2.result.winner is None
    assert "new lag" in s2.result.text


def test_catch_up_setting_off_means_the_first_shooter_wins_at_once():
    record = shot(contacts=[(0.1, "RS", "B16")], pockets=[(0.4, "B16", "NW")])
    new, _, _ = run(_last_black_piece_state(), record, RuleProfile(catch_up_turn=False))
    assert new.result.winner == "red"


def test_both_colours_cleared_in_one_shot_is_a_draw_or_the_shooters_by_setting():
    state = put(gone(_last_black_piece_state(), *[f"R{i:02d}" for i in range(1, 16)]),
                "R16", (0, -200))
    record = shot(contacts=[(0.1, "RS", "cushion:S"), (0.2, "RS", "B16"), (0.3, "B16", "R16")],
                  pockets=[(0.4, "B16", "NW"), (0.5, "R16", "SW")])
    assert run(state, record)[0].result.winner is None
    assert run(state, record, RuleProfile(both_cleared="shooter_wins"))[0].result.winner == "red"


# -- uncertain observations ----------------------------------------------------
def test_a_call_resting_on_an_ambiguous_first_contact_asks_the_referee_to_confirm():
    record = shot(contacts=[(0.1, "RS", "R04", True), (0.1, "RS", "cushion:S", True)])
    _, ruling, _ = run(started("red"), record)
    dead = [c for c in ruling.calls if c.rule == "7.1"]
    assert dead and dead[0].confirm and ruling.needs_confirmation


def test_doubt_about_contacts_after_the_first_cushion_does_not_question_a_direct_hit():
    # 7.1 rests on what the striker touched before its first cushion; an unsure contact
    # later in the shot cannot change that, an unsure cushion could
    later = shot(contacts=[(0.1, "RS", "R04"), (0.2, "RS", "cushion:S"),
                           (0.3, "RS", "B05", True)])
    dead = [c for c in run(started("red"), later)[1].calls if c.rule == "7.1"]
    assert dead and not dead[0].confirm
    unsure_cushion = shot(contacts=[(0.1, "RS", "R04"), (0.2, "RS", "cushion:S", True)])
    dead = [c for c in run(started("red"), unsure_cushion)[1].calls if c.rule == "7.1"]
    assert dead and dead[0].confirm


def test_an_unsure_first_contact_is_put_to_the_referee_only_with_an_own_piece_by_the_path():
    # red's striker runs straight from the SW circle to B05 (seen, at 0.8): a touch first
    # would change a call only for a red or a protected piece it passed within GRAZE_MM
    # (4 mm) of touching. R04 far off the line: nothing to ask; R04 3 mm clear: asked
    sx, sy = BOARD.circle_centre("SW")
    target = (sx, sy + 400.0)
    touch = BOARD.striker_radius + BOARD.piece_radius
    record = shot(contacts=[(0.1, "RS", "B05", False, 0.8)])

    def asked(r04_x):
        state = alone(("B05", target), ("R04", (sx + r04_x, sy + 200.0)))
        return [c for c in run(state, record)[1].calls if c.kind == "check"]
    assert asked(touch + 60.0) == []
    near = asked(touch + 3.0)
    assert len(near) == 1 and near[0].confirm and "R04" in near[0].pieces
    assert asked(-(touch + 3.0))  # either side of the line
    # a black piece as close is no one's 廢子: nothing to ask; a protected one is asked
    state = alone(("B05", target), ("B06", (sx + touch + 3.0, sy + 200.0)))
    assert not [c for c in run(state, record)[1].calls if c.kind == "check"]
    guarded = state.with_pieces(B06=replace(state.pieces["B06"], guard=SMALL))
    assert [c for c in run(guarded, record)[1].calls if c.kind == "check"]
    # the path as recorded counts, not a straight line: a striker seen swerving past R04
    bent = replace(record, trajectory={"RS": ((0.0, sx, sy), (0.05, sx + 120.0, sy + 200.0),
                                              (0.1, target[0], target[1] - touch))})
    state = alone(("B05", target), ("R04", (sx + 120.0 + touch + 2.0, sy + 200.0)))
    assert [c for c in run(state, bent)[1].calls if c.kind == "check"]
    assert not [c for c in run(state, record)[1].calls if c.kind == "check"]


def test_calls_resting_on_an_unsure_pocket_or_exit_ask_the_referee_to_confirm():
    # the camera lost B05 near the NW hole (0.7): red's extra shot rests on it; B06 seen
    # going off the table is sure, and its 小回 placing asks nothing
    def calls(confidence):
        record = shot(contacts=[(0.1, "RS", "B05"), (0.2, "B05", "B06")],
                      pockets=[(0.5, "B05", "NW", confidence)], exits=[(0.6, "B06", "off")])
        return {c.rule: c.confirm for c in run(started("red"), record)[1].calls}
    assert calls(0.7)["5.1"] and not calls(0.7)["6.3/9.1"]
    assert not any(calls(1.0).values())
    # an own piece and the striker lost near a hole: the forfeit and the foul ask too
    record = shot(contacts=[(0.1, "RS", "cushion:W"), (0.3, "RS", "R04")],
                  pockets=[(0.5, "R04", "SW", 0.8), (0.6, "RS", "NW", 0.8)])
    unsure = {c.rule for c in run(started("red"), record)[1].calls if c.confirm}
    assert {"4.2", "5.3"} <= unsure


def test_what_a_廢子_did_asks_to_confirm_where_that_contact_was_unsure():
    state = put(put(put(started("red"), "R04", (0, -300)), "B05", (0, 0)), "R06", (200, 0))
    record = shot(contacts=[(0.1, "RS", "R04"), (0.3, "R04", "B05", False, 0.8),
                            (0.4, "R04", "R06")])
    confirm = {c.rule: c.confirm for c in run(state, record)[1].calls}
    assert confirm["7.1"] is False and confirm["7.2"] is True and confirm["7.5"] is False
    # the 廢子 itself unsure: everything it did is asked about
    record = shot(contacts=[(0.1, "RS", "R04", False, 0.7), (0.4, "R04", "R06")])
    confirm = {c.rule: c.confirm for c in run(state, record)[1].calls}
    assert confirm["7.1"] and confirm["7.5"]


def test_a_廢子_that_met_a_piece_like_it_asks_which_one_it_is_when_the_source_lost_them():
    """Two red pieces that touch look alike afterwards: a camera is unsure of their later
    events (one may have taken the other's path). That the 廢子 is R04, and not the piece
    it passed its motion to, is then the referee's to confirm — here the one of them that
    went on to hit B05 decides 7.2."""
    state = put(put(put(started("red"), "R04", (0, -300)), "B05", (0, 0)), "R06", (200, 0))
    record = shot(contacts=[(0.1, "RS", "R04"), (0.3, "R04", "R06"),
                            (0.5, "R06", "B05", False, 0.8)])
    confirm = {c.rule: c.confirm for c in run(state, record)[1].calls}
    assert "7.2" not in confirm and confirm["7.1"] is True and confirm["7.5"] is True
    # the same shot seen surely throughout: nothing to confirm
    record = shot(contacts=[(0.1, "RS", "R04"), (0.3, "R04", "R06"), (0.5, "R06", "B05")])
    assert not any(c.confirm for c in run(state, record)[1].calls)


def test_a_廢子_touching_the_same_piece_twice_makes_one_call():
    state = put(put(started("red"), "R04", (0, -300)), "R06", (200, 0))
    record = shot(contacts=[(0.1, "RS", "R04"), (0.3, "R04", "R06"), (0.5, "R04", "R06")])
    calls = run(state, record)[2]
    assert calls.count(("7.5", "info")) == 1


# -- records that contradict the table -----------------------------------------
@pytest.mark.parametrize(
    "record, message",
    [
        (dict(shooter="black"), "red's shot"),
        (dict(contacts=[(0.1, "RS", "B05")], pockets=[(0.2, "B05", "NE")]), None),
        (dict(piece="R05"), "not a 自由子"),
    ],
)
def test_shots_that_cannot_have_happened_are_refused(record, message):
    state = started("red")
    if message is None:  # a contact with a piece that is already pocketed
        state = gone(state, "B05")
        message = "B05 is not on the table"
    with pytest.raises(KangleError, match=message):
        run(state, shot(**record))


def test_a_finished_game_takes_no_more_shots():
    record = shot(contacts=[(0.1, "RS", "B16")], pockets=[(0.4, "B16", "NW")])
    over, _, _ = run(_last_black_piece_state(), record, RuleProfile(catch_up_turn=False))
    with pytest.raises(KangleError, match="game is over"):
        run(over, shot())


def test_pieces_status_is_kept_for_untouched_pieces():
    new, _, _ = run(started("red"), shot(contacts=[(0.1, "RS", "cushion:N")]))
    assert all(new.pieces[p].status == ON_TABLE for p in new.left("black"))
