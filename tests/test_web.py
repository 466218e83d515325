"""The web station (web/, `kangle serve`): pages and table entry through the app itself
(Starlette's test client: no network, no server process)."""

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from rules.errors import KangleError
from rules.events.competition import Competition
from web.app import create_app, organiser_code
from web.links import find_table, table_code

PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


@pytest.fixture
def cup(tmp_path):
    where = str(tmp_path / "cup.db")
    Competition.create(where, "rummikub", None, {}, [{"name": p} for p in PLAYERS],
                       "test").close()
    return where


def links(where):
    """Round 1's table links as the organiser's printed sheets give them."""
    comp = Competition.open(where)
    key = comp.store.secret(comp.event)
    tables = comp.open_tables()
    comp.close()
    return key, {t: (table_code(key, r, t), seats) for r, t, seats in tables if r == 1}


def test_a_table_enters_its_result_from_a_phone_and_the_standings_show_it(cup):
    client = TestClient(create_app(cup))
    key, tables = links(cup)
    code, seats = tables[1]
    page = client.get(f"/t/{code}")
    assert page.status_code == 200 and all(s in page.text for s in seats)
    # mistakes are said beside the form, and nothing is stored
    bad = client.post(f"/t/{code}", data={"score-0": "30", "score-1": "-10",
                                          "score-2": "-10", "score-3": "x"})
    assert bad.status_code == 422 and "must be a number" in bad.text
    bad = client.post(f"/t/{code}", data={f"score-{i}": "5" for i in range(4)})
    assert bad.status_code == 422 and "sum to" in bad.text  # the event's own check
    scores = {seats[0]: "30", seats[1]: "-10", seats[2]: "-10", seats[3]: "-10"}
    ok = client.post(f"/t/{code}", data={f"score-{i}": scores[s] for i, s in enumerate(seats)})
    assert ok.status_code == 200 and "recorded" in ok.text
    # the link is spent: the table's result cannot be entered twice
    assert client.get(f"/t/{code}").status_code == 404
    part = client.get("/standings/part").text
    assert seats[0] in part
    data = client.get("/standings.json").json()
    winner = next(r for r in data["rows"] if r["name"] == seats[0])
    assert winner["rank"] == 1
    # the player's page lists the entry behind the figure
    assert "web: table 1" in client.get(f"/players/{seats[0]}").text


def test_table_links_open_only_their_own_table_and_cannot_be_guessed(cup):
    client = TestClient(create_app(cup))
    key, tables = links(cup)
    assert tables[1][0] != tables[2][0]
    assert find_table(key, tables[2][0].upper()[:5] + "-" + tables[2][0][5:],
                      [(1, 2, tables[2][1])]) is not None  # typed with a dash, in capitals
    other_key = bytes(32)
    assert table_code(other_key, 1, 1) != tables[1][0]
    assert client.get("/t/aaaaaaaaaa").status_code == 404
    typed = client.get("/enter", params={"code": tables[2][0][:5] + "-" + tables[2][0][5:]},
                       follow_redirects=True)
    assert typed.status_code == 200 and "table 2" in typed.text


def test_the_printed_sheets_carry_each_tables_link_and_are_the_organisers_only(cup):
    client = TestClient(create_app(cup))
    key, tables = links(cup)
    assert client.get("/o/wrongcode/sheets/1").status_code == 404
    sheets = client.get(f"/o/{organiser_code(key)}/sheets/1")
    assert sheets.status_code == 200
    for code, seats in tables.values():
        assert f"{code[:5]}-{code[5:]}" in sheets.text and "<svg" in sheets.text
        assert all(s in sheets.text for s in seats)
    assert "Round 1 — table 2" in sheets.text


def test_names_are_shown_as_text_never_as_markup(tmp_path):
    where = str(tmp_path / "x.db")
    sly = '<script>alert("x")</script>'
    Competition.create(where, "rummikub", None, {},
                       [{"name": n} for n in (sly, "Bo", "Cy", "Di")], "t").close()
    page = TestClient(create_app(where)).get("/").text
    assert sly not in page and "&lt;script&gt;" in page
    assert not re.search(r"<script>alert", page)


def test_a_rummikub_table_scores_from_photos_of_the_tiles_checked_by_a_person(cup):
    client = TestClient(create_app(cup))
    _, tables = links(cup)
    code, seats = tables[1]
    photo = Path("examples/tiles/rows.jpg").read_bytes()
    # the second player's tiles photographed: read, drawn over the photo, typed out
    read = client.post(f"/t/{code}/hands", data={"action": "read", "melded-0": "on",
                                                   "melded-1": "on", "melded-2": "on",
                                                   "melded-3": "on"},
                       files={"photo-1": ("hand.jpg", photo, "image/jpeg")})
    assert read.status_code == 200 and "data:image/jpeg;base64," in read.text
    field = re.search(r'name="tiles-1" value="([^"]*)"', read.text).group(1)
    shown = "K6 K7 K8 K9 O7 R7 B8 R8 O8 O2 O3 J R1 O1 B1"  # as `kangle tiles` reads it
    assert sorted(field.split()) == sorted(shown.split(" "))
    # a broken photo is said beside its player, the others are kept
    bad = client.post(f"/t/{code}/hands", data={"action": "read", "tiles-1": field},
                      files={"photo-2": ("x.jpg", photo[:5000], "image/jpeg")})
    assert "truncated" in bad.text and field in bad.text
    # a doubtful tile still marked ? is not scored
    doubt = client.post(f"/t/{code}/hands", data={"action": "score", "tiles-1": "R7?",
                                                  "melded-1": "on"})
    assert doubt.status_code == 422 and "not checked yet" in doubt.text
    # checked: the first player went out, the hands scored by the Rummikub rules
    hands = {"action": "score", "tiles-0": "", "tiles-1": field, "tiles-2": "R5",
             "tiles-3": "B2 B3", **{f"melded-{i}": "on" for i in range(4)}}
    done = client.post(f"/t/{code}/hands", data=hands)
    assert done.status_code == 200 and "recorded" in done.text
    assert f"{seats[0]}: 116" in done.text  # the others' 106 + 5 + 5
    scores = {r["name"]: r for r in client.get("/standings.json").json()["rows"]}
    assert scores[seats[0]]["rank"] == 1


def test_a_knockout_event_shows_its_tree(tmp_path):
    where = str(tmp_path / "sgs.db")
    comp = Competition.create(where, "sanguosha", None, {},
                              [{"name": f"T{i:02d}"} for i in range(1, 17)], "t")
    comp.draw(None)
    comp.close()
    page = TestClient(create_app(where)).get("/bracket")
    assert page.status_code == 200
    for title in ("Quarter-finals", "Semi-finals", "Final", "Third place"):
        assert title in page.text
    assert "A1 v B2" in page.text and "winner of qf1 v winner of qf2" in page.text


def test_double_entry_records_a_result_only_when_two_people_agree(tmp_path):
    where = str(tmp_path / "cup.db")
    Competition.create(where, "rummikub", None, {"double_entry": True},
                       [{"name": p} for p in PLAYERS], "t").close()
    client = TestClient(create_app(where))
    _, tables = links(where)
    code, seats = tables[1]

    def enter(*scores):
        return client.post(f"/t/{code}", data={f"score-{i}": str(v)
                                                for i, v in enumerate(scores)})

    assert "a second person" in enter(30, -10, -10, -10).text
    assert "do not agree" in enter(30, -20, -5, -5).text
    comp = Competition.open(where)
    assert not [e for e in comp.entries() if e.kind == "result"]  # nothing counts yet
    comp.close()
    assert "the result is recorded" in enter(30, -10, -10, -10).text
    comp = Competition.open(where)
    result = [e for e in comp.entries() if e.kind == "result"]
    assert len(result) == 1 and result[0].data["scores"][seats[0]] == 30
    assert result[0].by == "double entry: two reports agreed"
    comp.close()
    assert client.get(f"/t/{code}").status_code == 404  # spent


def test_a_report_without_double_entry_is_refused(cup):
    comp = Competition.open(cup)
    with pytest.raises(KangleError, match="reports are for double entry"):
        comp.record("report", {"round": 1, "table": 1, "scores": {}}, "t")
    comp.close()


def test_wrong_codes_are_rate_limited_and_a_table_is_let_in_again_a_minute_later(cup):
    now = [0.0]
    client = TestClient(create_app(cup, clock=lambda: now[0]))
    _, tables = links(cup)
    code = tables[1][0]
    for k in range(19):  # mistyped table codes and organiser links count alike
        path = f"/t/{'b' * 9}{k % 10}" if k % 2 else f"/o/wrong{k}/sheets/1"
        assert client.get(path).status_code == 404
        now[0] += 1.0
    assert client.get(f"/o/{'ü' * 10}/sheets/1").status_code == 404  # the 20th
    refused = client.get(f"/t/{code}")  # even the right code, until the minute is up
    assert refused.status_code == 429 and "wait a minute" in refused.text
    now[0] = 60.0  # the first wrong try is a minute old
    assert client.get(f"/t/{code}").status_code == 200
