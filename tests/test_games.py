"""Scoring of every supported game: the worked examples of specs/game-scoring.md, cases
written by hand from the rules, and results that must be refused."""

import json

import pytest

from rules.errors import KangleError
from rules.games import (
    blokus,
    kangle_match,
    monopolydeal,
    pictionary,
    rummikub,
    sanguosha,
    tickettoride,
    uno,
    zhaopengyou,
)
from rules.games.registry import GAMES, score_file
from rules.games.rummitiles import parse_hand
from rules.games.sheet import placement_points


def scores(module, data, profile=None):
    profile = profile or module.load_profile()
    sheet = module.score(module.read(data, profile), profile)
    return {line.name: line.score for line in sheet.lines}, sheet


def points(module, data, profile=None):
    return {line.name: line.points for line in scores(module, data, profile)[1].lines}


# -- Rummikub ---------------------------------------------------------------------------
def rk(*penalties, **extra):
    players = [{"name": n, "penalty": p} for n, p in zip("ABCD", penalties, strict=False)]
    return {"game": "rummikub", "players": players, **extra}


def test_rummikub_spec_vector_pool_exhausted():
    assert scores(rummikub, rk(5, 10, 15, 20))[0] == {"A": 30, "B": -5, "C": -10, "D": -15}


def test_rummikub_spec_vector_two_winners_split():
    assert scores(rummikub, rk(1, 1, 10, 6))[0] == {"A": 7, "B": 7, "C": -9, "D": -5}


def test_rummikub_sheet_lines_are_arithmetic_a_person_checks():
    # pool exhausted: each loser pays what the penalty is over the winner's
    _, sheet = scores(rummikub, rk(5, 10, 15, 20))
    how = {line.name: line.parts[-1] for line in sheet.lines}
    assert how["B"] == "score: -(10 - 5, the winner's penalty) = -5"
    assert how["A"] == "winner: +30 = the others' 30"
    # somebody went out: no "- 0" to puzzle over
    _, sheet = scores(rummikub, {"game": "rummikub", "players": [
        {"name": "A", "hand": []}, {"name": "B", "hand": ["R7", "J"]}]})
    assert [line.parts for line in sheet.lines if line.name == "B"] == [
        ("hand R7 J = 37", "score: minus the penalty = -37")]


def test_rummikub_went_out_jokers_and_the_no_meld_rules():
    data = {"game": "rummikub", "players": [
        {"name": "A", "hand": []},
        {"name": "B", "hand": ["R7", "J"]},  # 7 + 30
        {"name": "C", "hand": ["K13", "B13", "O13", "R1"], "melded": False},  # can: 39 -> 200
        {"name": "D", "hand": ["K1", "B2", "O3"], "melded": False},  # cannot -> 100
    ]}
    s, _ = scores(rummikub, data)
    assert s == {"A": 337, "B": -37, "C": -200, "D": -100}


def test_rummikub_knocked_over_rack_scores_minus_200():
    data = rk(0, 10, 10)
    data["players"][2]["knocked_over"] = True
    assert scores(rummikub, data)[0] == {"A": 210, "B": -10, "C": -200}


@pytest.mark.parametrize("players, message", [
    ([{"name": "A", "hand": ["R7", "R7", "R7"]}, {"name": "B", "hand": []}], "3 red 7s"),
    ([{"name": "A", "hand": ["R7", "R7"]}, {"name": "B", "hand": ["R7"]}], "3 red 7s"),
    ([{"name": "A", "hand": ["J", "J", "J"]}, {"name": "B", "hand": []}], "3 jokers"),
    ([{"name": "A", "hand": ["R14"]}, {"name": "B", "hand": []}], "not a tile"),
    ([{"name": "A", "penalty": 4, "melded": False}, {"name": "B", "hand": []}], "give the tiles"),
    ([{"name": "A", "hand": []}, {"name": "B", "hand": []}], "cannot both have gone out"),
    ([{"name": n, "penalty": 1} for n in "ABCDE"], "2-4 players"),
])
def test_rummikub_nonsense_is_refused(players, message):
    with pytest.raises(KangleError, match=message):
        scores(rummikub, {"game": "rummikub", "players": players})


def test_rummikub_redeal_needs_three_identical_pairs():
    three = parse_hand(["R1", "R1", "B2", "B2", "K3", "K3", "O4", "O5", "O6", "O7", "O8",
                        "O9", "O10", "J"])
    two = parse_hand(["R1", "R1", "B2", "B2", "K3", "K4", "O4", "O5", "O6", "O7", "O8",
                      "O9", "O10", "J"])
    assert rummikub.redeal_allowed(three) and not rummikub.redeal_allowed(two)


# -- UNO ----------------------------------------------------------------------------------
def uno_event(hands, supporters=None):
    players = [{"name": "A1", "day": "Day 1"}, {"name": "A2", "day": "Day 1"},
               {"name": "B1", "day": "Day 2"}, {"name": "C1", "day": "Day 3"}]
    return {"game": "uno", "players": players, "hands": hands, "supporters": supporters or {}}


def test_uno_card_values_and_day_totals():
    s, sheet = scores(uno, uno_event([
        {"out": "A1", "held": {"A2": ["9", "0"], "B1": ["skip", "reverse", "draw2"],
                               "C1": ["wild", "wild4", "7"]}}]))
    assert s == {"Day 1": -9, "Day 2": -60, "Day 3": -107}
    assert [line.rank for line in sheet.lines] == [1, 2, 3]


def test_uno_elimination_cap_tie_break_and_league_points():
    # C1 passes -200 in hand 2, B1 in hand 3: both capped at -200; Day 2 (eliminated
    # later) ranks above Day 3
    wilds = ["wild"] * 4 + ["wild4"]  # 250
    hands = [{"out": "A1", "held": {"A2": ["1"], "B1": ["wild"] * 3, "C1": ["9"]}},
             {"out": "A1", "held": {"A2": ["1"], "B1": ["1"], "C1": wilds}},
             {"out": "A1", "held": {"A2": ["1"], "B1": wilds}}]
    s, sheet = scores(uno, uno_event(hands, {"Day 3": 2}))
    assert s == {"Day 1": -3, "Day 2": -200, "Day 3": -200}
    assert [line.name for line in sheet.lines] == ["Day 1", "Day 2", "Day 3"]
    assert {line.name: line.points for line in sheet.lines} == {"Day 1": 60, "Day 2": 50,
                                                                "Day 3": 50}


def test_uno_eliminated_player_cannot_play_on():
    wilds = ["wild"] * 5
    with pytest.raises(KangleError, match="eliminated in hand 1"):
        scores(uno, uno_event([{"out": "A1", "held": {"C1": wilds}},
                               {"out": "C1", "held": {"A1": ["1"]}}]))


def test_uno_refuses_unknown_cards_and_a_player_who_went_out_holding_cards():
    with pytest.raises(KangleError, match="not an UNO card"):
        scores(uno, uno_event([{"out": "A1", "held": {"A2": ["13"]}}]))
    with pytest.raises(KangleError, match="holds no cards"):
        scores(uno, uno_event([{"out": "A1", "held": {"A1": ["1"]}}]))


# -- 三国杀 --------------------------------------------------------------------------------
def camp(name, hps, max_hps=(5, 4, 4), surrendered=False, penalties=0):
    roles = ("commander", "vanguard", "vanguard")
    return {"name": name, "surrendered": surrendered, "penalties": penalties,
            "generals": [{"name": f"{name}{i}", "role": r, "max_hp": m, "hp": h}
                         for i, (r, m, h) in enumerate(zip(roles, max_hps, hps, strict=True))]}


def sgs(ended, a, b, **extra):
    return {"game": "sanguosha", "ended_by": ended, "camps": [a, b], **extra}


@pytest.mark.parametrize("a, b, winner, why", [
    (camp("W", (3, 0, 2)), camp("S", (1, 1, 1)), "S", "surviving generals"),  # 2 v 3
    (camp("W", (5, 4, 0)), camp("S", (4, 4, 0)), "W", "lost HP"),  # 0 lost v 1 lost
    (camp("W", (4, 4, 0), penalties=2), camp("S", (4, 4, 0), penalties=1), "S", "penalty"),
])
def test_sanguosha_time_up_tiebreak_chain(a, b, winner, why):
    s, sheet = scores(sanguosha, sgs("time_up", a, b))
    assert s[winner] == 3 and sorted(s.values()) == [0, 3]
    assert why in sheet.notes[-1]


def test_sanguosha_lost_hp_counts_surviving_generals_only():
    # W has a dead vanguard (4 lost) but counts only survivors: 1 + 0 = 1 lost; S: 2 lost
    a, b = camp("W", (4, 0, 4)), camp("S", (3, 3, 0))
    assert scores(sanguosha, sgs("time_up", a, b))[0] == {"W": 3, "S": 0}


def test_sanguosha_commander_killed_and_surrender():
    assert scores(sanguosha, sgs("commander_killed", camp("W", (0, 4, 4)),
                                 camp("S", (1, 0, 0))))[0] == {"W": 0, "S": 3}
    assert scores(sanguosha, sgs("surrender", camp("W", (5, 4, 4), surrendered=True),
                                 camp("S", (1, 0, 0))))[0] == {"W": 0, "S": 3}


def test_sanguosha_full_tie_needs_overtime_or_is_a_draw_by_setting():
    a, b = camp("W", (4, 4, 0)), camp("S", (4, 4, 0))
    with pytest.raises(KangleError, match="overtime"):
        scores(sanguosha, sgs("time_up", a, b))
    assert scores(sanguosha, sgs("time_up", a, b, overtime_winner="S"))[0] == {"W": 0, "S": 3}
    draw = sanguosha.Profile(after_tiebreaks="draw")
    assert scores(sanguosha, sgs("time_up", a, b), draw)[0] == {"W": 1, "S": 1}


def test_sanguosha_draft_order_and_refusals():
    pool = [f"g{i}" for i in range(16)]
    d = sanguosha.Draft(list(pool), first="cool")
    assert d.to_pick == ("cool", 1)
    with pytest.raises(KangleError, match="cool camp's pick"):
        d.pick("warm", ["g0"])
    d.pick("cool", ["g0"])
    with pytest.raises(KangleError, match="takes 2"):
        d.pick("warm", ["g1"])
    with pytest.raises(KangleError, match="not in the pool"):
        d.pick("warm", ["g0", "g1"])
    d.pick("warm", ["g1", "g2"])
    while d.to_pick:
        d.time_out()
    # the first picker ends with 1 + 2 + 2 + 2 = 7, the second with 8; one is left
    assert len(d.picks["cool"]) == 7 and len(d.picks["warm"]) == 8 and len(d.pool) == 1
    with pytest.raises(KangleError, match="of its own picks"):
        d.field("warm", ["g0", "g1", "g2"])  # g0 is cool's
    d.field("warm", d.picks["warm"][:3])


# -- Pictionary ----------------------------------------------------------------------------
@pytest.mark.parametrize("a, b, expected", [
    ({"squares": 20, "finished": True}, {"squares": 35}, {"X": 5, "Y": 3}),
    ({"squares": 30}, {"squares": 35}, {"X": 3, "Y": 5}),
    ({"squares": 30}, {"squares": 30}, {"X": 4, "Y": 4}),
])
def test_pictionary(a, b, expected):
    data = {"game": "pictionary", "teams": [{"name": "X", **a}, {"name": "Y", **b}]}
    assert points(pictionary, data) == expected


# -- Ticket to Ride -------------------------------------------------------------------------
def test_ticket_to_ride_usa_map_is_complete():
    usa = tickettoride.load_map("usa")
    assert len(usa.cities) == 36 and len(usa.routes) == 100 and len(usa.tickets) == 30
    assert sum(r.length for r in usa.routes) == 309


def test_longest_path_is_a_trail_that_may_revisit_cities():
    usa = tickettoride.load_map("usa")

    def r(a, b):
        return next(x for x in usa.routes if {x.a, x.b} == {a, b})

    # a figure eight through Kansas City: Omaha-Denver-KC-Omaha and KC-OKC-Dallas... plus a tail
    loop = (r("Omaha", "Denver"), r("Denver", "Kansas City"), r("Kansas City", "Omaha"),
            r("Kansas City", "Oklahoma City"), r("Oklahoma City", "Little Rock"),
            r("Little Rock", "Saint Louis"), r("Saint Louis", "Kansas City"),
            r("Saint Louis", "Chicago"))
    # every route once: 4 + 4 + 1 + 2 + 2 + 2 + 2 + 2 = 19
    assert tickettoride.longest_path(loop) == 19
    # a star has no trail longer than its two longest arms
    star = (r("Denver", "Helena"), r("Denver", "Omaha"), r("Denver", "Santa Fe"))
    assert tickettoride.longest_path(star) == 8


def test_ticket_to_ride_scores_routes_tickets_and_shared_longest_bonus():
    data = {"game": "tickettoride", "players": [
        {"name": "A", "routes": [["Seattle", "Portland"], ["Portland", "Salt Lake City"]],
         "tickets": [["Calgary", "Salt Lake City"]]},
        {"name": "B", "routes": [["Duluth", "Toronto"], ["Toronto", "Montreal"]],
         "tickets": [["Montreal", "Atlanta"]]},
    ]}
    s, sheet = scores(tickettoride, data)
    # A: 1 + 15 = 16 routes, ticket -7, longest 7; B: 15 + 4 = 19, -9, longest 9 (+10)
    assert s == {"A": 16 - 7, "B": 19 - 9 + 10}
    assert {line.name: line.points for line in sheet.lines} == {"B": 10, "A": 7}


def test_ticket_to_ride_ties_share_longest_bonus_and_placement_points():
    data = {"game": "tickettoride", "players": [
        {"name": "A", "routes": [["Dallas", "Houston"]]},
        {"name": "B", "routes": [["Omaha", "Kansas City"]]},
        {"name": "C", "routes": [["Nashville", "Atlanta"]]},
        {"name": "D", "routes": [["Vancouver", "Seattle"]]},
    ]}
    s, sheet = scores(tickettoride, data)
    assert s == {"A": 11, "B": 11, "C": 11, "D": 11}  # 1 + 10 each
    assert {line.points for line in sheet.lines} == {25 / 4}


@pytest.mark.parametrize("players, message", [
    ([{"name": str(i)} for i in range(7)], "2-5 players"),
    ([{"name": "A", "routes": [["Seattle", "Miami"]]}, {"name": "B"}], "no route"),
    ([{"name": "A", "routes": [["Seattle", "Helena"]]},
      {"name": "B", "routes": [["Seattle", "Helena"]]}], "already claimed"),
    ([{"name": "A", "routes": [["Dallas", "Houston"], ["Dallas", "Houston"]]},
      {"name": "B"}, {"name": "C"}, {"name": "D"}], "both routes of a double"),
    ([{"name": "A", "routes": [["Dallas", "Houston"]]},
      {"name": "B", "routes": [["Dallas", "Houston"]]}], "only one route of a double"),
    ([{"name": "A", "tickets": [["Dallas", "Houston"]]}, {"name": "B"}], "not a ticket"),
    ([{"name": "A", "routes": [["Atlantis", "Houston"]]}, {"name": "B"}], "not a city"),
])
def test_ticket_to_ride_refusals(players, message):
    with pytest.raises(KangleError, match=message):
        scores(tickettoride, {"game": "tickettoride", "players": players})


def test_ticket_to_ride_refuses_more_than_45_trains():
    usa = tickettoride.load_map("usa")
    sixes = [[r.a, r.b, r.colour] for r in usa.routes if r.length == 6][:8]
    with pytest.raises(KangleError, match="48 trains"):
        scores(tickettoride, {"game": "tickettoride", "players": [
            {"name": "A", "routes": sixes}, {"name": "B"}]})


# -- Monopoly Deal ----------------------------------------------------------------------------
def test_monopoly_deal_values_and_averaged_ties():
    data = {"game": "monopolydeal", "players": [
        {"name": "A", "bank": [5], "properties": [10], "complete_sets": 3},
        {"name": "B", "bank": [3], "properties": [4]},
        {"name": "C", "bank": 7, "properties": 0},
        {"name": "D", "bank": 1}]}
    assert points(monopolydeal, data) == {"A": 10, "B": 6, "C": 6, "D": 3}
    top = monopolydeal.Profile(ties="top")
    assert points(monopolydeal, data, top) == {"A": 10, "B": 7, "C": 7, "D": 3}


def test_monopoly_deal_needs_a_finished_game():
    with pytest.raises(KangleError, match="3 complete"):
        scores(monopolydeal, {"game": "monopolydeal", "players": [
            {"name": "A", "bank": 3}, {"name": "B", "bank": 1}]})


# -- Blokus -----------------------------------------------------------------------------------
def test_blokus_has_21_pieces_of_89_squares_all_different_free_polyominoes():
    shapes = blokus.pieces()
    assert len(shapes) == 21 and sum(map(len, shapes.values())) == 89
    assert sorted(len(s) for s in shapes.values()) == [1, 2, 3, 3] + [4] * 5 + [5] * 12

    def canonical(cells):
        forms = []
        for flip in (False, True):
            pts = [(r, -c) if flip else (r, c) for r, c in cells]
            for _ in range(4):
                pts = [(c, -r) for r, c in pts]
                mr, mc = min(r for r, _ in pts), min(c for _, c in pts)
                forms.append(tuple(sorted((r - mr, c - mc) for r, c in pts)))
        return min(forms)

    def connected(cells):
        todo, seen = [next(iter(cells))], set()
        while todo:
            r, c = todo.pop()
            if (r, c) in seen:
                continue
            seen.add((r, c))
            todo += [p for p in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if p in cells]
        return seen == set(cells)

    assert all(connected(s) for s in shapes.values())
    assert len({canonical(s) for s in shapes.values()}) == 21


def test_blokus_scores():
    data = {"game": "blokus", "colours": [
        {"colour": "blue", "player": "A", "left": ["X5", "I1"]},
        {"colour": "red", "player": "B", "left": [], "last": "I1"},
        {"colour": "green", "player": "C", "left": [], "last": "X5"},
        {"colour": "yellow", "player": "A", "left": ["I5"]}]}
    assert scores(blokus, data)[0] == {"A": -11, "B": 20, "C": 15}


def test_blokus_refuses_22_pieces_or_unknown_ones():
    names = list(blokus.pieces())
    with pytest.raises(KangleError, match="22 pieces"):
        scores(blokus, {"game": "blokus", "colours": [
            {"colour": "blue", "left": names + ["I1"]}]})
    with pytest.raises(KangleError, match="not a Blokus piece"):
        scores(blokus, {"game": "blokus", "colours": [{"colour": "blue", "left": ["Q9"]}]})


# -- 找朋友 --------------------------------------------------------------------------------------
SEATS = ["A", "B", "C", "D", "E"]


def zpy(*games, misplays=None):
    return {"game": "zhaopengyou", "seats": SEATS, "games": list(games),
            "misplays": misplays or {}}


@pytest.mark.parametrize("game, gains", [
    # 2 v 3 (A dealer, C friend): P < 120, < 60, = 0
    ({"dealer": "A", "friend": "C", "defender_points": 100}, {"A": 1, "C": 1}),
    ({"dealer": "A", "friend": "C", "defender_points": 55}, {"A": 2, "C": 2}),
    ({"dealer": "A", "friend": "C", "defender_points": 0}, {"A": 3, "C": 3}),
    # 1 v 4
    ({"dealer": "A", "friend": None, "defender_points": 100}, {"A": 2}),
    ({"dealer": "A", "friend": "A", "defender_points": 0}, {"A": 6}),
    # defenders on stage: 120 -> +0, 180 -> +1, 245 -> +2
    ({"dealer": "A", "friend": "C", "defender_points": 180}, {"B": 1, "D": 1, "E": 1}),
    ({"dealer": "A", "friend": "C", "defender_points": 215, "bottom_points": 15,
      "last_trick": {"won_by": "defenders", "size": 1}}, {"B": 2, "D": 2, "E": 2}),  # 245
    # pair on the last trick: bottom x 4; 60 + 15 * 4 = 120 -> stage, +0
    ({"dealer": "A", "friend": "C", "defender_points": 60, "bottom_points": 15,
      "last_trick": {"won_by": "defenders", "size": 2}}, {}),
    # failed throws: dealer side's +30 (90 -> 120), defenders' -30 (floor 0)
    ({"dealer": "A", "friend": "C", "defender_points": 90, "failed_throws": ["dealer_side"]},
     {}),
    ({"dealer": "A", "friend": "C", "defender_points": 20, "failed_throws": ["defenders"]},
     {"A": 3, "C": 3}),
    ({"dealer": "A", "friend": "C", "defender_points": 20, "wrong_bottom_count": True},
     {"B": 1, "D": 1, "E": 1}),
])
def test_zhaopengyou_level_changes(game, gains):
    profile = zhaopengyou.load_profile()
    rnd = zhaopengyou.read(zpy(game), profile)
    got, _, _, _ = zhaopengyou.play(rnd.games[0], rnd.seats, profile)
    assert {k: v for k, v in got.items() if v} == gains


def test_zhaopengyou_next_dealer_is_first_counter_clockwise_on_the_winning_side():
    profile = zhaopengyou.load_profile()
    rnd = zhaopengyou.read(zpy({"dealer": "B", "friend": "E", "defender_points": 30},
                               {"dealer": "B", "friend": "E", "defender_points": 150},
                               {"dealer": "B", "friend": None, "defender_points": 30}), profile)
    nxt = [zhaopengyou.play(g, rnd.seats, profile)[1] for g in rnd.games]
    assert nxt == ["E", "C", "B"]


def test_zhaopengyou_round_rank_points_shared_ranks_and_misplays():
    # the sheet's example: one 1st (5), three 2nd (4 each), then the next is 5th (1)
    s, sheet = scores(zhaopengyou, zpy(
        {"dealer": "A", "friend": None, "defender_points": 100},  # 1 v 4, P < 120: A +2
        {"dealer": "A", "friend": "C", "defender_points": 180},  # B, D, E +1
        misplays={"D": 1}))
    assert s == {"A": 5, "B": 4, "D": 3.5, "E": 4, "C": 1}
    assert [sheet.line(n).rank for n in "ABDEC"] == [1, 2, 2, 2, 5]
    # the rank is by levels (shared); within it, the misplay's 3.5 lists below the 4s
    assert [line.name for line in sheet.lines] == ["A", "B", "E", "D", "C"]


def test_zhaopengyou_refuses_more_than_300_points():
    with pytest.raises(KangleError, match="more than the 300"):
        scores(zhaopengyou, zpy({"dealer": "A", "defender_points": 290, "bottom_points": 20}))


# -- 康樂棋 --------------------------------------------------------------------------------------
def test_kangle_match_from_a_game_log(tmp_path):
    from kangle.gamecmd import new_entry
    from rules.gamelog import GameLog

    log = GameLog.create(tmp_path / "g.db", new_entry("Ann", "Bo", "goma", "standard"))
    log.append("lag", {"first": "red"})
    log.append("discard", {"player": "red", "pieces": [f"R{i:02d}" for i in range(1, 17)]})
    log.close()
    sheet = score_file("kangle", tmp_path / "g.db")
    assert {line.name: line.points for line in sheet.lines} == {"Bo": 1, "Ann": 0}


def test_kangle_draw_needs_the_lag_game_winner():
    data = {"game": "kangle", "red": "A", "black": "B", "winner": None}
    with pytest.raises(KangleError, match="decided_by"):
        scores(kangle_match, data)
    assert points(kangle_match, {**data, "decided_by": "black"}) == {"B": 1, "A": 0}


# -- shared --------------------------------------------------------------------------------------
def test_placement_points_ties():
    assert placement_points({"a": 9, "b": 5, "c": 5, "d": 1}, [10, 7, 5, 3]) == {
        "a": 10, "b": 6, "c": 6, "d": 3}
    assert placement_points({"a": 9, "b": 9}, [10, 7, 5, 3], ties="top") == {"a": 10, "b": 10}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_an_example_that_scores(name, tmp_path):
    path = f"examples/scores/{name}.json"
    sheet = score_file(name, path)
    assert sheet.lines and json.loads(json.dumps(sheet.to_json()))["game"] == name
