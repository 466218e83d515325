"""The desk's forms per entry kind (web/entryforms.py): what an organiser types becomes
the entry `kangle event record` takes, and an entry shows again as typed."""

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from rules.errors import KangleError
from rules.events.competition import Competition
from rules.events.formats import FORMATS
from rules.games.registry import game as game_module
from tests.event_kit import rummikub_day
from web import entryforms
from web.app import create_app
from web.entryforms import DRAW, FORMS, WHOLE_ENTRY, entry_data, fields_of, typed_values

PASSWORD = "tea-at-the-top-table"
EXAMPLE_SCORES = Path(__file__).resolve().parent.parent / "examples" / "scores"
PLAYERS = ["Ann Lee", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]

# examples/scores/sanguosha.json's match, its teams renamed, one penalised and one
# surrendered
SANGUOSHA = {"ended_by": "surrender", "camps": [
    {"name": "Wei", "penalties": 0, "generals": [
        {"name": "曹操", "role": "commander", "max_hp": 5, "hp": 2},
        {"name": "张辽", "role": "vanguard", "max_hp": 4, "hp": 0},
        {"name": "许褚", "role": "vanguard", "max_hp": 4, "hp": 3}]},
    {"name": "Shu", "side": "cool", "penalties": 1, "surrendered": True, "generals": [
        {"name": "刘备", "role": "commander", "max_hp": 5, "hp": 4},
        {"name": "关羽", "role": "vanguard", "max_hp": 4, "hp": 1},
        {"name": "张飞", "role": "vanguard", "max_hp": 4, "hp": 0}]}]}

# one entry of every kind with a form, as docs/formats.md writes them (a second of a
# kind keyed with what it shows)
EXAMPLES = {
    ("rotating", "register"): {"name": "Ann Lee", "from_round": 2, "rating": 1510.5},
    ("rotating", "withdraw"): {"name": "Bo", "from_round": 3},
    ("rotating", "result"): {"round": 1, "table": 2,
                             "scores": {"Ann Lee": 30, "Bo": -10.5, "Cy": -9.5, "Di": -10}},
    ("rotating", "report"): {"round": 1, "table": 2, "scores": {"Ann Lee": 0, "Bo": 0}},
    ("rotating", "draw"): {"round": 2, "table": 1, "cards": {"Ann Lee": 7, "Bo": 12}},
    ("knockout", "register"): {"name": "Wei", "rating": 3},
    ("knockout", "groups"): {"groups": {"A": ["Wei", "Shu"], "B": ["Wu", "Jin"]}},
    ("knockout", "match"): {"stage": "qf1", "teams": ["Wei", "Shu"], "winner": None},
    ("knockout", "match", "result"): {"stage": "group", "group": "A", "teams": ["Wei", "Shu"],
                                      "result": SANGUOSHA},
    ("knockout", "decision"): {"group": "A", "order": ["Shu", "Wei"]},
    ("league", "game"): {"stage": "final", "result": {"teams": [{"squares": 3}]}},
    ("kinghill", "match"): {"holder": "Ann Lee", "challenger": "Bo", "winner": "Bo"},
    ("rankrounds", "seating"): {"round": 1, "tables": [["a", "b", "c", "d", "e"],
                                                       ["f", "g", "h", "i", "j"]]},
    ("rankrounds", "table_round"): {"round": 1, "table": 1, "result": {
        "seats": ["Ann Lee", "Bo", "Cy", "Di", "Ed"], "misplays": {"Bo": 1}, "games": [
            {"dealer": "Ann Lee", "friend": "Cy", "defender_points": 85, "bottom_points": 15,
             "last_trick": {"won_by": "defenders", "size": 2}},
            {"dealer": "Cy", "friend": None, "defender_points": 40},
            {"dealer": "Cy", "friend": "Di", "defender_points": 150, "bottom_points": 20,
             "failed_throws": ["dealer_side", "defenders"], "wrong_bottom_count": True}]}},
    ("rankrounds", "penalty"): {"name": "a", "round": 2, "points": -5, "reason": "late"},
    ("elimination", "register"): {"name": "A1", "day": "Day 1", "group": "A"},
    ("elimination", "hand"): {"round": 1, "group": "B", "out": "B1",
                              "held": {"B2": ["7", "skip"]}},
    ("elimination", "supporters"): {"day": "Day 1", "count": 12},
}


def test_every_format_and_kind_has_a_form_and_every_example_is_typed_back_the_same():
    for fmt, module in FORMATS.items():
        for kind in module.ENTRIES:
            assert fields_of(fmt, kind) is not WHOLE_ENTRY, (fmt, kind)
    assert {e[:2] for e in EXAMPLES} <= {(f, k) for f, kinds in FORMS.items() for k in kinds}
    for (fmt, kind, *_), data in EXAMPLES.items():
        fields = fields_of(fmt, kind)
        assert entry_data(fields, typed_values(fields, data)) == data, (fmt, kind)


def test_what_an_organiser_types_is_read_as_they_mean_it():
    result = fields_of("rotating", "result")
    typed = {"f-round": " 2 ", "f-table": "1",
             "f-scores": "Ann Lee 12\nBo: -4\n\nCy=−8\nDi 0"}
    assert entry_data(result, typed) == {
        "round": 2, "table": 1, "scores": {"Ann Lee": 12, "Bo": -4, "Cy": -8, "Di": 0}}
    match = fields_of("knockout", "match")
    assert entry_data(match, {"f-stage": "group", "f-group": "A", "f-teams": "Wei\nShu",
                              "f-winner": DRAW}) == {
        "stage": "group", "group": "A", "teams": ["Wei", "Shu"], "winner": None}
    # an optional field left empty is left out; a needed one is asked for by its label
    assert entry_data(fields_of("rotating", "register"), {"f-name": "Eve"}) == {"name": "Eve"}
    for typed, said in (({"f-round": "two", "f-table": "1", "f-scores": "Ann 1"},
                         "round must be a number, not .two."),
                        ({"f-round": "1.5", "f-table": "1", "f-scores": "Ann 1"},
                         "round: a whole number"),
                        ({"f-round": "1", "f-table": "1"}, "scores: nothing was typed"),
                        ({"f-round": "1", "f-table": "1", "f-scores": "Ann"},
                         "not a name then a number"),
                        ({"f-round": "1", "f-table": "1", "f-scores": "Ann 1\nAnn 2"},
                         "Ann is on two lines"),
                        ({"f-round": "1", "f-table": "1", "f-scores": "Ann inf"},
                         "scores, Ann must be a number, not .inf.")):
        with pytest.raises(KangleError, match=said):
            entry_data(result, typed)
    with pytest.raises(KangleError, match="stage: one of group"):
        entry_data(match, {"f-stage": "semi", "f-teams": "Wei\nShu"})


def test_an_entry_reads_in_its_forms_words():
    result = {"round": 1, "table": 2, "scores": {"Ann Lee": 30, "Bo": -10.5},
              "tiles": {"Bo": {"hand": "R7 J"}}}
    assert entryforms.in_words("rotating", "result", result) == (
        'round: 1 · table: 2 · scores: Ann Lee 30, Bo -10.5 · tiles: {"Bo": {"hand": "R7 J"}}')
    assert entryforms.in_words("rankrounds", "seating", EXAMPLES[("rankrounds", "seating")]) == (
        "round: 1 · tables: a, b, c, d, e | f, g, h, i, j")
    assert entryforms.in_words("knockout", "match", EXAMPLES[("knockout", "match")]) == (
        f"stage: qf1 · teams: Wei, Shu · winner: {DRAW}")
    void = {"reason": "wrong table"}
    assert entryforms.in_words("rotating", "void", void) == "reason: wrong table"


@pytest.fixture
def cup(tmp_path):
    return rummikub_day(tmp_path, PLAYERS)


def signed_in(client: TestClient) -> str:
    desk = client.post("/o/login", data={"password": PASSWORD}, follow_redirects=True)
    return re.search(r'name="form_token" value="([0-9a-f]+)"', desk.text).group(1)


def test_the_desk_records_a_tables_result_typed_as_names_and_scores(cup):
    client = TestClient(create_app(cup, PASSWORD))
    token = signed_in(client)
    comp = Competition.open(cup)
    (r, t, seats), *_ = comp.open_tables()
    comp.close()
    desk = client.get("/o").text
    assert '<option value="Ann Lee">' in desk  # the names offered as typed
    lines = "\n".join(f"{s}: {v}" for s, v in zip(seats, (30, -10, -10, -10), strict=True))
    form = {"form_token": token, "action": "record", "kind": "result",
            "f-round": str(r), "f-table": str(t)}
    # the scores do not cancel out: refused with the format's reason, the typing kept
    wrong = client.post("/o/act", data={**form, "f-scores": lines.replace("30", "31")})
    assert wrong.status_code == 422 and "sum to 1" in wrong.text
    assert f"{seats[0]}: 31" in wrong.text
    done = client.post("/o/act", data={**form, "f-scores": lines})
    assert done.status_code == 200 and "Recorded entry" in done.text
    comp = Competition.open(cup)
    entry = next(e for e in comp.entries() if e.kind == "result")
    comp.close()
    assert entry.data == {"round": r, "table": t,
                          "scores": dict(zip(seats, (30, -10, -10, -10), strict=True))}
    assert entry.by == "web: organiser"
    # its correction form starts from the entry as it stands
    again = client.get("/o").text
    shown = re.findall(r'name="f-scores"[^>]*>([^<]+)</textarea>', again)
    assert [sorted(t.splitlines()) for t in shown] == [
        sorted(f"{s} {v}" for s, v in zip(seats, (30, -10, -10, -10), strict=True))]
    swapped = "\n".join(f"{s} {v}" for s, v in zip(seats, (-10, 30, -10, -10), strict=True))
    fixed = client.post("/o/act", data={"form_token": token, "action": "correct",
                                        "seq": str(entry.seq), "f-round": str(r),
                                        "f-table": str(t), "f-scores": swapped})
    assert fixed.status_code == 200 and f"replacing entry #{entry.seq}" in fixed.text
    rows = {row["name"]: row for row in client.get("/standings.json").json()["rows"]}
    assert rows[seats[1]]["rank"] == 1
    # a player's page says what was entered in the same words, not as JSON
    behind = client.get(f"/players/{seats[1]}").text
    assert f"round: {r} · table: {t} · scores: " in behind and f"{seats[1]} 30" in behind


def test_the_cards_a_uno_hand_left_are_typed_one_line_per_player():
    hand = fields_of("elimination", "hand")
    typed = {"f-round": "2", "f-out": "A6",
             "f-held": "Ann Lee: 7 skip wild\nBo: +2, 3\n\nCy:"}
    assert entry_data(hand, typed) == {
        "round": 2, "out": "A6",
        "held": {"Ann Lee": ["7", "skip", "wild"], "Bo": ["+2", "3"], "Cy": []}}
    for held, said in (("Ann Lee 7 skip", "not a name, a colon, then the cards"),
                       (": 7", "not a name, a colon"),
                       ("Bo: 7\nBo: 8", "Bo is on two lines")):
        with pytest.raises(KangleError, match=said):
            entry_data(hand, {**typed, "f-held": held})
    assert entryforms.in_words("elimination", "hand", EXAMPLES[("elimination", "hand")]) == (
        "round: 1 · group: B · went out: B1 · cards held: B2: 7 skip")


def test_a_sanguosha_matchs_camps_are_typed_one_line_per_team():
    match = fields_of("knockout", "match")
    typed = {"f-stage": "group", "f-group": "A", "f-teams": "Wei\nShu",
             "f-result.ended_by": "time_up",
             "f-result.camps": "Wei: 曹操 commander 2/5, Zhang Liao vanguard 0 / 4,"
                               " 许褚 vanguard 3/4\n\n"
                               "Shu: 刘备 commander 4/5, 关羽 vanguard 1/4, 张飞 vanguard 0/4;"
                               " penalties 1",
             "f-result.overtime_winner": "Shu"}
    assert entry_data(match, typed)["result"] == {
        "ended_by": "time_up", "overtime_winner": "Shu", "camps": [
            {"name": "Wei", "generals": [
                {"name": "曹操", "role": "commander", "hp": 2, "max_hp": 5},
                {"name": "Zhang Liao", "role": "vanguard", "hp": 0, "max_hp": 4},
                {"name": "许褚", "role": "vanguard", "hp": 3, "max_hp": 4}]},
            {"name": "Shu", "penalties": 1, "generals": [
                {"name": "刘备", "role": "commander", "hp": 4, "max_hp": 5},
                {"name": "关羽", "role": "vanguard", "hp": 1, "max_hp": 4},
                {"name": "张飞", "role": "vanguard", "hp": 0, "max_hp": 4}]}]}
    for camps, said in (("Wei 曹操 commander 2/5", "is not a team, a colon"),
                        ("Wei: 曹操 general 2/5", "'曹操 general 2/5' is not a general's name"),
                        ("Wei: 曹操 commander 2", "is not a general's name, role"),
                        ("Wei: 曹操 commander two/5", "曹操's hp must be a number"),
                        ("Wei: 曹操 commander 2/5; penalties one", "Wei's penalties must be"),
                        ("Wei: 曹操 commander 2/5; gave up", "not 'gave up'")):
        with pytest.raises(KangleError, match=said):
            entry_data(match, {**typed, "f-result.camps": camps})
    assert entryforms.in_words("knockout", "match", EXAMPLES[("knockout", "match", "result")]) == (
        "stage: group · group: A · teams: Wei, Shu · how the match ended: surrender · "
        "the camps at the end: Wei: 曹操 commander 2/5, 张辽 vanguard 0/4, 许褚 vanguard 3/4; "
        "penalties 0 | Shu: 刘备 commander 4/5, 关羽 vanguard 1/4, 张飞 vanguard 0/4; "
        "penalties 1; surrendered; side cool")


def test_the_desk_records_a_sanguosha_match_typed_as_camps(tmp_path):
    """A group match's result typed at the desk is the format's to judge (camps that are
    not the match's teams are refused, the typing kept) and counts in the group as
    `kangle event record` would: at time up, the camp with more HP left wins."""
    where = str(tmp_path / "sgs.db")
    comp = Competition.create(where, "sanguosha", None, {},
                              [{"name": f"T{i:02d}"} for i in range(1, 17)], "t")
    comp.draw(None)
    group = comp.entries()[-1].data["groups"]["A"]
    comp.close()
    a, b = group[:2]
    client = TestClient(create_app(where, PASSWORD))
    camps = (f"{a}: 曹操 commander 2/5, 张辽 vanguard 0/4, 许褚 vanguard 3/4\n"
             f"{b}: 刘备 commander 1/5, 关羽 vanguard 1/4, 张飞 vanguard 0/4")
    form = {"form_token": signed_in(client), "action": "record", "kind": "match",
            "f-stage": "group", "f-group": "A", "f-teams": f"{a}\n{b}",
            "f-result.ended_by": "time_up"}
    wrong = client.post("/o/act", data={**form, "f-result.camps": camps.replace(b, "Nobody")})
    assert wrong.status_code == 422 and "are not the" in wrong.text
    # the typing is kept, in a box a line per team
    assert re.search(r'<textarea name="f-result.camps"[^>]*>[^<]*\nNobody: 刘备 commander 1/5',
                     wrong.text)
    done = client.post("/o/act", data={**form, "f-result.camps": camps})
    assert done.status_code == 200 and "Recorded entry" in done.text
    comp = Competition.open(where)
    match = [e for e in comp.entries() if e.kind == "match"][-1]
    group_a = comp.standings().sections[0]
    comp.close()
    assert [c["name"] for c in match.data["result"]["camps"]] == [a, b]
    # time up, both commanders alive: the camp with more HP left (5 to 2) won
    won = {r.name: (r.values["W"], r.values["L"]) for r in group_a.rows}
    assert group_a.title == "Group A" and won[a] == (1, 0) and won[b] == (0, 1)


def test_a_zhaopengyou_rounds_games_are_typed_one_line_per_game():
    table_round = fields_of("rankrounds", "table_round")
    typed = {"f-round": "1", "f-table": "2", "f-result.seats": "Ann Lee\nBo\nCy\nDi\nEd",
             "f-result.games": "dealer Ann Lee, friend Cy, taken 85, bottom 15, last trick "
                               "defenders 2\n\ndealer Cy,friend none,taken 40,"
                               "failed throw dealer side",
             "f-result.misplays": "Bo 1"}
    assert entry_data(table_round, typed)["result"] == {
        "seats": ["Ann Lee", "Bo", "Cy", "Di", "Ed"], "misplays": {"Bo": 1}, "games": [
            {"dealer": "Ann Lee", "friend": "Cy", "defender_points": 85, "bottom_points": 15,
             "last_trick": {"won_by": "defenders", "size": 2}},
            {"dealer": "Cy", "friend": None, "defender_points": 40,
             "failed_throws": ["dealer_side"]}]}
    for games, said in (("dealer Ann, taken lots", "line 1, taken must be a number"),
                        ("dealer Ann\ndealer Bo, partner Cy", "line 2: 'partner Cy' is none of"),
                        ("dealer Ann, last trick them 2", "'last trick them 2' is none of"),
                        ("dealer Ann, last trick defenders two", "last trick's size must be")):
        with pytest.raises(KangleError, match=said):
            entry_data(table_round, {**typed, "f-result.games": games})
    assert entryforms.in_words("rankrounds", "table_round",
                               EXAMPLES[("rankrounds", "table_round")]) == (
        "round: 1 · table: 1 · seats: Ann Lee, Bo, Cy, Di, Ed · games: dealer Ann Lee, friend "
        "Cy, taken 85, bottom 15, last trick defenders 2 | dealer Cy, friend none, taken 40 | "
        "dealer Cy, friend Di, taken 150, bottom 20, failed throw dealer side, failed throw "
        "defenders, wrong bottom count · misplays: Bo 1")


def test_the_desk_records_a_zhaopengyou_round_typed_as_games(tmp_path):
    """A 找朋友 round typed at the desk: a dealer not at the table is the format's to
    refuse (the typing kept); typed right, it scores as the same round recorded by
    `kangle event record` (the dealer alone, the defenders held to 100: the dealer up
    two levels, first at the table, 5 rank points)."""
    where = str(tmp_path / "z.db")
    comp = Competition.create(where, "zhaopengyou", None, {},
                              [{"name": f"p{i}"} for i in range(10)], "t")
    comp.draw(1)
    seats = next(e.data["tables"] for e in comp.entries() if e.kind == "seating")[0]
    comp.close()
    client = TestClient(create_app(where, PASSWORD))
    form = {"form_token": signed_in(client), "action": "record", "kind": "table_round",
            "f-round": "1", "f-table": "1", "f-result.seats": "\n".join(seats)}
    wrong = client.post("/o/act", data={**form, "f-result.games": "dealer Zed, taken 100"})
    assert wrong.status_code == 422 and "dealer Zed, taken 100" in wrong.text
    done = client.post("/o/act", data={**form,
                                       "f-result.games": f"dealer {seats[0]}, friend none, "
                                                         "taken 100"})
    assert done.status_code == 200 and "Recorded entry" in done.text
    comp = Competition.open(where)
    entry = next(e for e in comp.entries() if e.kind == "table_round")
    points = {r.name: r.values["rank points"] for r in comp.standings().rows}
    comp.close()
    assert entry.data["result"] == {"seats": seats, "games": [
        {"dealer": seats[0], "friend": None, "defender_points": 100}]}
    assert points[seats[0]] == 5


@pytest.mark.parametrize("game", sorted(entryforms.LEAGUE_GAMES))
def test_a_league_games_result_is_typed_in_its_own_words(game):
    """Each league game's example result (examples/scores) shows in its form one line per
    team, player or colour, and is read back the same: the game scores it alike."""
    example = json.loads((EXAMPLE_SCORES / f"{game}.json").read_text(encoding="utf-8"))
    del example["game"]  # (the event's game)
    fields = fields_of("league", "game", game)
    data = {"stage": "league", "result": example}
    typed = typed_values(fields, data)
    assert "{" not in typed[f"f-{fields[1].key}"]  # a line each, none left as JSON
    assert entry_data(fields, typed) == data
    module = game_module(game)
    profile = module.load_profile(None)
    assert module.score(module.read(entry_data(fields, typed)["result"], profile), profile
                        ) == module.score(module.read(example, profile), profile)


def test_what_is_typed_for_a_league_game_is_read_as_meant():
    def result(game, text):
        fields = fields_of("league", "game", game)
        return entry_data(fields, {"f-stage": "final", f"f-{fields[-1].key}": text})["result"]

    assert result("pictionary", "Sketchers: 31 finished\nDoodlers: 28") == {"teams": [
        {"name": "Sketchers", "squares": 31, "finished": True},
        {"name": "Doodlers", "squares": 28}]}
    assert result("monopolydeal", "Ann Lee: bank total 9; properties 4 2; sets 3\nBo: sets 0") \
        == {"players": [{"name": "Ann Lee", "bank": 9, "properties": [4, 2], "complete_sets": 3},
                        {"name": "Bo", "complete_sets": 0}]}
    assert result("blokus", "blue Ann: X5, I2; last I2\nred:") == {"colours": [
        {"colour": "blue", "player": "Ann", "left": ["X5", "I2"], "last": "I2"},
        {"colour": "red", "left": []}]}
    assert result("tickettoride", "Ann: San Francisco-Los Angeles yellow, Seattle-Portland; "
                                  "tickets Denver-El Paso, Boston-Miami 13") == {"players": [
        {"name": "Ann", "routes": [["San Francisco", "Los Angeles", "yellow"],
                                   ["Seattle", "Portland"]],
         "tickets": [["Denver", "El Paso"], ["Boston", "Miami", 13]]}]}
    for game, text, said in (
            ("pictionary", "Sketchers 31", "is not a team, a colon, then the squares"),
            ("pictionary", "Sketchers: 31 won", "then “finished” where the team finished"),
            ("monopolydeal", "Ann: cash 5", "'cash 5' is none of “bank"),
            ("monopolydeal", "Ann: sets 1 2", "sets: one number"),
            ("monopolydeal", "Ann: bank 5 x", "Ann's bank must be a number, not 'x'"),
            ("blokus", "blue Ann: X5; first I1", "“last PIECE”"),
            ("tickettoride", "Ann: Seattle Portland", "is not two cities joined by “-”"),
            ("tickettoride", "Ann: Seattle-Portland; trains 3", "“tickets City-City, …”")):
        with pytest.raises(KangleError, match=said):
            result(game, text)


def test_the_desk_records_a_pictionary_game_typed_a_team_per_line(tmp_path):
    """A league game typed at the desk: a result naming someone not registered is the
    league's to refuse; typed right, the game's league points follow in the table."""
    where = str(tmp_path / "draw.db")
    Competition.create(where, "pictionary", None, {},
                       [{"name": n} for n in ("Sketchers", "Doodlers")], "t").close()
    client = TestClient(create_app(where, PASSWORD))
    form = {"form_token": signed_in(client), "action": "record", "kind": "game",
            "f-stage": "league"}
    wrong = client.post("/o/act", data={**form, "f-result.teams": "Sketchers: 31 finished\n"
                                                                  "Scribblers: 28"})
    assert wrong.status_code == 422 and "Scribblers" in wrong.text
    assert re.search(r'<textarea name="f-result.teams"', wrong.text)
    done = client.post("/o/act", data={**form, "f-result.teams": "Sketchers: 31 finished\n"
                                                                 "Doodlers: 28"})
    assert done.status_code == 200 and "Recorded entry" in done.text
    comp = Competition.open(where)
    rows = comp.standings().rows
    comp.close()
    assert [r.name for r in rows] == ["Sketchers", "Doodlers"]
    assert "Sketchers: 31 finished | Doodlers: 28" in client.get("/o").text  # the log's words


def test_the_desk_records_a_uno_hand_typed_as_cards(tmp_path):
    """The cards typed at the desk are the format's to judge (an unknown card is refused
    with the game's reason, the typing kept) and score as `kangle event record` would:
    four wilds and a wild draw four, 250 points, are capped at 200."""
    players = [{"name": f"{g}{d}", "day": f"Day {d}", "group": g} for d in range(1, 4)
               for g in "AB"]
    where = str(tmp_path / "uno.db")
    Competition.create(where, "uno", None, {}, players, "test").close()
    client = TestClient(create_app(where, PASSWORD))
    form = {"form_token": signed_in(client), "action": "record", "kind": "hand",
            "f-round": "1", "f-group": "A", "f-out": "A3"}
    wrong = client.post("/o/act", data={**form, "f-held": "A1: 7 joker\nA2: 9"})
    assert wrong.status_code == 422 and "is not an UNO card" in wrong.text
    assert re.search(r'<textarea name="f-held"[^>]*>A1: 7 joker\nA2: 9</textarea>', wrong.text)
    done = client.post("/o/act", data={**form, "f-held": "A1: wild wild, wild wild +4\nA2: 9"})
    assert done.status_code == 200 and "Recorded entry" in done.text
    comp = Competition.open(where)
    entry = next(e for e in comp.entries() if e.kind == "hand")
    rows = {r.name: r for r in comp.standings().rows}
    comp.close()
    assert entry.data["held"] == {"A1": ["wild", "wild", "wild", "wild", "+4"], "A2": ["9"]}
    # 250 in cards is capped at 200 (out at once); a 9 costs 9
    assert [(r.name, r.values["total"]) for r in rows.values()] == [
        ("Day 3", 0), ("Day 2", -9), ("Day 1", -200)]
