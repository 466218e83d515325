"""The web station (web/, `kangle serve`): pages and table entry through the app itself
(Starlette's test client: no network, no server process)."""

import json
import re
import threading
from datetime import date
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from rules.errors import KangleError
from rules.events.competition import Competition
from tests.event_kit import rummikub_day
from web.app import create_app
from web.hands import DOUBT, SeatHand, read_photo
from web.links import find_table, table_code
from web.queue import ReadingQueue

PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
PASSWORD = "tea-at-the-top-table"  # the organiser's, set when the station starts


@pytest.fixture
def cup(tmp_path):
    return rummikub_day(tmp_path, PLAYERS)


def links(where):
    """Round 1's table links as the organiser's printed sheets give them."""
    comp = Competition.open(where)
    key = comp.store.secret(comp.event)
    tables = comp.open_tables()
    comp.close()
    return key, {t: (table_code(key, r, t), seats) for r, t, seats in tables if r == 1}


def test_a_table_enters_its_result_from_a_phone_and_the_standings_show_it(cup):
    client = TestClient(create_app(cup, PASSWORD))
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
    # the link is spent: the table's result cannot be entered twice, and the phone is told
    # so (not counted as a wrong code: a whole room re-sending cannot lock anyone out)
    spent = client.get(f"/t/{code}")
    assert spent.status_code == 409 and "already in" in spent.text
    for _ in range(25):
        client.get(f"/t/{code}")
    assert client.get(f"/t/{tables[2][0]}").status_code == 200
    part = client.get("/standings/part").text
    assert seats[0] in part
    data = client.get("/standings.json").json()
    winner = next(r for r in data["rows"] if r["name"] == seats[0])
    assert winner["rank"] == 1
    # the player's page lists the entry behind the figure
    assert "web: table 1" in client.get(f"/players/{seats[0]}").text
    # the round's page: who sits where, which results are in
    rounds = client.get("/rounds").text
    assert "Round 1 — table 1" in rounds and all(s in rounds for s in seats)
    assert re.search(r"table 1</td>.*?<td>in</td>", rounds, re.S)
    assert re.search(r"table 2</td>.*?<td>awaited</td>", rounds, re.S)


def test_table_links_open_only_their_own_table_and_cannot_be_guessed(cup):
    client = TestClient(create_app(cup, PASSWORD))
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


def signed_in(client: TestClient) -> str:
    """Sign the client in as the organiser; the desk's form token."""
    desk = client.post("/o/login", data={"password": PASSWORD}, follow_redirects=True)
    assert desk.status_code == 200 and "Organiser's desk" in desk.text
    return re.search(r'name="form_token" value="([0-9a-f]+)"', desk.text).group(1)


def test_the_printed_sheets_carry_each_tables_link_and_are_the_organisers_only(cup):
    client = TestClient(create_app(cup, PASSWORD))
    key, tables = links(cup)
    for path in ("/o", "/o/sheets?round=1", "/o/export/log.json"):
        shut = client.get(path, follow_redirects=False)
        assert shut.status_code == 303 and shut.headers["location"] == "/o/login"
    wrong = client.post("/o/login", data={"password": PASSWORD[:-1]})
    assert wrong.status_code == 401 and "That is not the" in wrong.text
    signed_in(client)
    before = date.today()
    sheets = client.get("/o/sheets", params={"round": 1})
    days = {before, date.today()}  # the page printed at midnight may carry either
    assert sheets.status_code == 200
    for code, seats in tables.values():
        assert f"{code[:5]}-{code[5:]}" in sheets.text and "<svg" in sheets.text
        assert all(s in sheets.text for s in seats)
    assert "Round 1 — table 2" in sheets.text
    assert any(f"{d.day} {d:%B %Y}" in sheets.text for d in days)  # the date it was printed
    # signed out, the sheets are shut again
    client.post("/o/logout")
    assert client.get("/o/sheets?round=1", follow_redirects=False).status_code == 303


def test_the_desk_corrects_and_voids_through_the_log_and_deletes_nothing(cup):
    client = TestClient(create_app(cup, PASSWORD))
    _, tables = links(cup)
    code, seats = tables[1]
    typed = {seats[0]: 30, seats[1]: -10, seats[2]: -10, seats[3]: -10}
    client.post(f"/t/{code}", data={f"score-{i}": str(typed[s]) for i, s in enumerate(seats)})
    token = signed_in(client)
    comp = Competition.open(cup)
    entered = next(e for e in comp.entries() if e.kind == "result")
    comp.close()
    # the table swapped two scores: the organiser corrects the entry
    fixed = {**entered.data, "scores": {**typed, seats[0]: -10, seats[1]: 30}}
    act = {"form_token": token, "action": "correct", "seq": str(entered.seq)}
    done = client.post("/o/act", data={**act, "data": json.dumps(fixed)})
    assert done.status_code == 200 and f"replacing entry #{entered.seq}" in done.text
    rows = {r["name"]: r for r in client.get("/standings.json").json()["rows"]}
    assert rows[seats[1]]["rank"] == 1
    # the same entry corrected again (a second organiser's stale page) is refused, said why
    again = client.post("/o/act", data={**act, "data": json.dumps(entered.data)})
    assert again.status_code == 422 and "already replaced" in again.text
    # a correction that breaks the format's rules is refused with its reason
    broken = {**entered.data, "scores": {**typed, seats[0]: 31}}
    later = entered.seq + 1
    refused = client.post("/o/act", data={**act, "seq": str(later), "data": json.dumps(broken)})
    assert refused.status_code == 422 and "Nothing was recorded" in refused.text
    voided = client.post("/o/act", data={**act, "action": "void", "seq": str(later),
                                         "reason": "wrong table"})
    assert voided.status_code == 200 and "void" in voided.text
    log = client.get("/o/export/log.json")
    assert log.headers["content-disposition"] == 'attachment; filename="log.json"'
    kept = {e["seq"]: e for e in log.json()}
    assert kept[entered.seq]["data"] == entered.data  # the original is still there
    assert [kept[n]["by"] for n in (later, later + 1)] == ["web: organiser"] * 2
    assert kept[later + 1]["data"] == {"reason": "wrong table"}
    comp = Competition.open(cup)
    assert not [e for e in comp.entries() if e.kind == "result"]
    comp.close()
    assert client.get(f"/t/{code}").status_code == 200  # the table is open again


def test_forms_from_another_sites_page_or_without_the_desks_token_are_refused(cup):
    client = TestClient(create_app(cup, PASSWORD))
    _, tables = links(cup)
    code, seats = tables[1]
    scores = {f"score-{i}": v for i, v in enumerate(("30", "-10", "-10", "-10"))}
    evil = client.post(f"/t/{code}", data=scores,
                       headers={"Origin": "http://evil.example"})
    assert evil.status_code == 403 and "another site" in evil.text
    token = signed_in(client)
    void = {"action": "void", "seq": "1", "reason": "x"}
    assert client.post("/o/act", data=void).status_code == 403  # no token
    assert client.post("/o/act", data={**void, "form_token": "0" * 64}).status_code == 403
    forged = client.post("/o/act", data={**void, "form_token": token},
                         headers={"Referer": "http://evil.example/page"})
    assert forged.status_code == 403
    comp = Competition.open(cup)
    assert len(comp.store.entries(comp.event)) == len(PLAYERS)  # nothing was recorded
    comp.close()
    # sent from the station's own page, the same forms go through
    own = client.post(f"/t/{code}", data=scores, headers={"Origin": "http://testserver"})
    assert own.status_code == 200 and "recorded" in own.text


def test_the_desk_makes_the_draw_records_entries_and_exports_safe_sheets(tmp_path):
    where = str(tmp_path / "sgs.db")
    teams = [f"T{i:02d}" for i in range(1, 16)] + ["=HYPERLINK(\"http://x\")"]
    Competition.create(where, "sanguosha", None, {}, [{"name": t} for t in teams], "t").close()
    client = TestClient(create_app(where, PASSWORD))
    token = signed_in(client)
    drawn = client.post("/o/act", data={"form_token": token, "action": "draw"})
    assert drawn.status_code == 200 and "groups" in drawn.text
    again = client.post("/o/act", data={"form_token": token, "action": "draw"})
    assert again.status_code == 422  # the groups are drawn once
    comp = Competition.open(where)
    groups = next(e for e in comp.entries() if e.kind == "groups").data["groups"]
    comp.close()
    a, b = groups["A"][:2]
    match = {"stage": "group", "group": "A", "teams": [a, b], "winner": a}
    typed = client.post("/o/act", data={"form_token": token, "action": "record",
                                        "kind": "match", "data": json.dumps(match)})
    assert typed.status_code == 200 and "Recorded entry" in typed.text
    junk = client.post("/o/act", data={"form_token": token, "action": "record",
                                       "kind": "match", "data": "{not json"})
    assert junk.status_code == 422 and "{not json" in junk.text  # kept to fix, not lost
    csv_text = client.get("/o/export/standings.csv").text
    assert "'=HYPERLINK" in csv_text and "\n=HYPERLINK" not in csv_text


def test_an_organiser_session_lapses_after_an_event_day(cup):
    now = [0.0]
    client = TestClient(create_app(cup, PASSWORD, clock=lambda: now[0]))
    signed_in(client)
    now[0] = 11 * 3600.0
    assert client.get("/o", follow_redirects=False).status_code == 200
    now[0] = 12 * 3600.0 + 1
    assert client.get("/o", follow_redirects=False).status_code == 303


def test_a_password_too_short_to_keep_a_room_out_is_refused(cup):
    with pytest.raises(KangleError, match="at least 8 characters"):
        create_app(cup, "1234")


def test_names_are_shown_as_text_never_as_markup(tmp_path):
    where = str(tmp_path / "x.db")
    sly = '<script>alert("x")</script>'
    Competition.create(where, "rummikub", None, {},
                       [{"name": n} for n in (sly, "Bo", "Cy", "Di")], "t").close()
    page = TestClient(create_app(where, PASSWORD)).get("/").text
    assert sly not in page and "&lt;script&gt;" in page
    assert not re.search(r"<script>alert", page)


def test_a_rummikub_table_scores_from_photos_of_the_tiles_checked_by_a_person(cup):
    client = TestClient(create_app(cup, PASSWORD))
    _, tables = links(cup)
    code, seats = tables[1]
    photo = Path("examples/tiles/rows.jpg").read_bytes()
    # the second player's tiles photographed: queued, read, drawn over the photo, typed out
    sent = client.post(f"/t/{code}/hands", data={"action": "read", "melded-0": "on",
                                                   "melded-1": "on", "melded-2": "on",
                                                   "melded-3": "on"},
                       files={"photo-1": ("hand.jpg", photo, "image/jpeg")},
                       follow_redirects=False)
    assert sent.status_code == 303  # on to the photos' place in the reading queue
    client.app.state.queue.join()
    read = client.get(sent.headers["location"])
    assert read.status_code == 200 and "data:image/jpeg;base64," in read.text
    field = re.search(r'name="tiles-1" value="([^"]*)"', read.text).group(1)
    shown = "K6 K7 K8 K9 O7 R7 B8 R8 O8 O2 O3 J R1 O1 B1"  # as `kangle tiles` reads it
    assert sorted(field.split()) == sorted(shown.split(" "))
    sha = re.search(r'name="photo-sha-1" value="([0-9a-f]{64})"', read.text).group(1)
    # another table's code does not open this table's photos
    other = links(cup)[1][2][0]
    assert client.get(sent.headers["location"].replace(code, other)).status_code == 404
    # a broken photo is said beside its player, the others are kept
    bad = client.post(f"/t/{code}/hands", data={"action": "read", "tiles-1": field},
                      files={"photo-2": ("x.jpg", photo[:5000], "image/jpeg")})
    client.app.state.queue.join()
    bad = client.get(str(bad.url))
    assert "truncated" in bad.text and field in bad.text
    # a doubtful tile still marked ? is not scored
    doubt = client.post(f"/t/{code}/hands", data={"action": "score", "tiles-1": "R7?",
                                                  "melded-1": "on"})
    assert doubt.status_code == 422 and "not checked yet" in doubt.text
    # checked: the first player went out, the hands scored by the Rummikub rules
    hands = {"action": "score", "tiles-0": "", "tiles-1": field, "tiles-2": "R5",
             "tiles-3": "B2 B3", **{f"melded-{i}": "on" for i in range(4)},
             "photo-sha-1": sha, "photo-sha-2": "f" * 64}  # a photo never sent is no photo
    done = client.post(f"/t/{code}/hands", data=hands)
    assert done.status_code == 200 and "recorded" in done.text
    assert f"{seats[0]}: 116" in done.text  # the others' 106 + 5 + 5
    scores = {r["name"]: r for r in client.get("/standings.json").json()["rows"]}
    assert scores[seats[0]]["rank"] == 1
    # the hands as checked and the photo behind them are kept with the result
    comp = Competition.open(cup)
    result = next(e for e in comp.entries() if e.kind == "result")
    kept = result.data["tiles"]
    assert kept[seats[1]] == {"hand": field, "melded": True, "photo": sha}
    assert kept[seats[2]]["photo"] is None and kept[seats[0]]["hand"] == ""
    assert comp.store.photo(comp.event, sha)[:2] == b"\xff\xd8"  # a JPEG
    comp.close()


def test_the_tiles_read_from_a_photo_list_the_doubtful_ones_first():
    """A plain set's 6s and 9s lying alone are read unsurely (nothing tells them apart):
    the form lists those first, marked ?, then the sure ones in reading order."""
    import cv2
    import numpy as np

    from tests.tile_kit import PLAIN_HAND, PLAIN_SET
    from vision.tiles.read import read_tiles
    from vision.tiles.render import render_photo

    for seed in range(8):
        _, image = render_photo(np.random.default_rng(seed), tiles=PLAIN_HAND, rows=False,
                                span=220, edition=PLAIN_SET)
        readings = [r for r in read_tiles(image) if not r.cut]
        if any(r.sure for r in readings) and any(not r.sure for r in readings):
            break
    photo = cv2.imencode(".png", image)[1].tobytes()
    hand = read_photo(photo, "plain.png", SeatHand())
    listed = hand.tiles.split()
    doubtful = [str(r.tile) + DOUBT for r in readings if not r.sure]
    assert listed == doubtful + [str(r.tile) for r in readings if r.sure]
    assert f"{len(doubtful)} tile(s) marked ?" in hand.notes[0]


def test_photos_wait_their_turn_and_each_phone_is_told_its_place():
    queue = ReadingQueue(workers=1)
    started, release = threading.Event(), threading.Event()

    def held_up():
        started.set()
        release.wait(60)
        return "first"

    first = queue.send("t1", None, {"Ann": held_up})
    assert started.wait(60)  # the one reader is busy with the first table's photo
    second = queue.send("t2", None, {"Bo": lambda: "b", "Cy": lambda: "c"})
    third = queue.send("t3", None, {"Di": lambda: "d"})
    batch = {t: queue.batch(t, code) for t, code in ((first, "t1"), (second, "t2"),
                                                     (third, "t3"))}
    assert [queue.place(batch[t]) for t in (first, second, third)] == [0, 1, 3]
    assert queue.batch(first, "t2") is None  # another table's token opens nothing
    release.set()
    queue.join()
    assert [queue.place(b) for b in batch.values()] == [0, 0, 0]
    assert batch[second].readings["Cy"].result() == "c"


def test_pages_are_made_one_at_a_time_in_the_order_they_came(cup, monkeypatch):
    """A crowd of phones is answered first come first served, not all at once (each
    page is Python work under one lock: at once, every phone waits as long as the
    whole crowd takes). Eight phones ask for the standings together; the pages' work
    never overlaps."""
    inside, most = [0], [0]
    count = threading.Lock()
    standings = Competition.standings

    def watched(self):
        with count:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        try:
            for _ in range(5):  # long enough for the interpreter to switch threads
                answer = standings(self)
            return answer
        finally:
            with count:
                inside[0] -= 1

    monkeypatch.setattr(Competition, "standings", watched)
    with TestClient(create_app(cup, PASSWORD)) as client:  # `with`: as `kangle serve` starts it
        barrier = threading.Barrier(8)
        codes = []

        def phone():
            barrier.wait()
            codes.append(client.get("/standings.json").status_code)

        phones = [threading.Thread(target=phone) for _ in range(8)]
        for t in phones:
            t.start()
        for t in phones:
            t.join()
    assert codes == [200] * 8 and most[0] == 1


def test_a_knockout_event_shows_its_tree(tmp_path):
    where = str(tmp_path / "sgs.db")
    comp = Competition.create(where, "sanguosha", None, {},
                              [{"name": f"T{i:02d}"} for i in range(1, 17)], "t")
    comp.draw(None)
    comp.close()
    page = TestClient(create_app(where, PASSWORD)).get("/bracket")
    assert page.status_code == 200
    for title in ("Quarter-finals", "Semi-finals", "Final", "Third place"):
        assert title in page.text
    assert "A1 v B2" in page.text and "winner of qf1 v winner of qf2" in page.text


def test_double_entry_records_a_result_only_when_two_people_agree(tmp_path):
    where = str(tmp_path / "cup.db")
    Competition.create(where, "rummikub", None, {"double_entry": True},
                       [{"name": p} for p in PLAYERS], "t").close()
    client = TestClient(create_app(where, PASSWORD))
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
    assert client.get(f"/t/{code}").status_code == 409  # spent: the result is in


def test_a_report_without_double_entry_is_refused(cup):
    comp = Competition.open(cup)
    with pytest.raises(KangleError, match="reports are for double entry"):
        comp.record("report", {"round": 1, "table": 1, "scores": {}}, "t")
    comp.close()


def test_wrong_codes_are_rate_limited_and_a_table_is_let_in_again_a_minute_later(cup):
    now = [0.0]
    client = TestClient(create_app(cup, PASSWORD, clock=lambda: now[0]))
    _, tables = links(cup)
    code = tables[1][0]
    for k in range(19):  # mistyped table codes and organiser passwords count alike
        if k % 2:
            assert client.get(f"/t/{'b' * 9}{k % 10}").status_code == 404
        else:
            assert client.post("/o/login", data={"password": f"guess{k}"}).status_code == 401
        now[0] += 1.0
    assert client.get(f"/t/{'ü' * 10}").status_code == 404  # the 20th
    refused = client.get(f"/t/{code}")  # even the right code, until the minute is up
    assert refused.status_code == 429 and "wait a minute" in refused.text
    now[0] = 60.0  # the first wrong try is a minute old
    assert client.get(f"/t/{code}").status_code == 200


def test_a_zhaopengyou_table_enters_its_round_through_its_own_link(tmp_path):
    """找朋友 rounds are seated at tables of five: each table's sheet carries its link,
    which opens the round's form (the games one line each) for that table only, its
    players filled in as seated; checked as `kangle event record` checks it."""
    where = str(tmp_path / "zpy.db")
    players = [f"P{i}" for i in range(10)]
    Competition.create(where, "zhaopengyou", None, {}, [{"name": p} for p in players],
                       "t").close()
    client = TestClient(create_app(where, PASSWORD))
    token = signed_in(client)
    assert client.post("/o/act", data={"form_token": token, "action": "draw",
                                       "round": "1"}).status_code == 200
    key, tables = links(where)
    assert sorted(tables) == [1, 2]
    code, seats = tables[2]
    sheets = client.get("/o/sheets", params={"round": 1}).text
    assert f"{code[:5]}-{code[5:]}" in sheets
    form = client.get(f"/t/{code}")
    assert form.status_code == 200 and "\n".join(seats) in form.text
    games = f"dealer {seats[0]}, friend none, taken 100"
    typed = {"f-result.seats": "\n".join(seats), "f-result.games": games}
    wrong = client.post(f"/t/{code}", data={**typed, "f-result.seats": "\n".join(
        [*seats[:4], tables[1][1][0]])})
    assert wrong.status_code == 422 and "round 1 table 2 seats" in wrong.text
    assert seats[4] in wrong.text  # what was typed stays, to be put right
    unread = client.post(f"/t/{code}", data={**typed, "f-result.games": f"dealer {seats[0]}, "
                                                                      "taken lots"})
    assert unread.status_code == 422 and "taken must be a number" in unread.text
    ok = client.post(f"/t/{code}", data=typed)
    assert ok.status_code == 200 and "recorded" in ok.text
    comp = Competition.open(where)
    entry = next(e for e in comp.entries() if e.kind == "table_round")
    assert (entry.data["round"], entry.data["table"], entry.by) == (1, 2, "web: table 2")
    assert entry.data["result"]["seats"] == seats
    comp.close()
    assert client.get(f"/t/{code}").status_code == 409  # entered once
    assert client.get(f"/t/{tables[1][0]}").status_code == 200  # the other table still open
    rounds = client.get("/rounds").text
    assert re.search(r"table 2</td>.*?<td>in</td>", rounds, re.S)


def test_a_sanguosha_match_is_entered_through_its_own_link(tmp_path):
    """A 三国杀 cup's rounds are its group matches, then the knockout's: each match's
    sheet carries its link, which enters that match only — its stage and teams fixed by
    the link, the winner or how it ended typed — and is spent once the match is decided.
    The rounds page lists the rounds that can be played, not the groups' sheets over and
    over (it showed the group matches as rounds 1 to 100)."""
    where = str(tmp_path / "sgs.db")
    comp = Competition.create(where, "sanguosha", None, {},
                              [{"name": f"T{i:02d}"} for i in range(1, 17)], "t")
    comp.draw(None)
    groups = next(e for e in comp.entries() if e.kind == "groups").data["groups"]
    comp.close()
    client = TestClient(create_app(where, PASSWORD))
    signed_in(client)
    key, matches = links(where)
    assert len(matches) == 24  # six matches in each of four groups
    a, b = groups["A"][:2]
    code, teams = matches[1]
    assert teams == [a, b]
    sheets = client.get("/o/sheets", params={"round": 1}).text
    assert f"{code[:5]}-{code[5:]}" in sheets and f"Group A: {a} v {b}" in sheets
    later = client.get("/o/sheets", params={"round": 2})
    assert later.status_code == 404 and "not known yet" in later.text
    form = client.get(f"/t/{code}")
    assert form.status_code == 200 and 'name="f-winner"' in form.text
    assert f"<h2>Group A: {a} v {b}</h2>" in form.text  # the match, as its sheet says
    assert 'name="f-stage"' not in form.text and 'name="f-teams"' not in form.text
    stranger = client.post(f"/t/{code}", data={"f-winner": groups["B"][0]})
    assert stranger.status_code == 422 and "the winner must be one of" in stranger.text
    ok = client.post(f"/t/{code}", data={"f-winner": b})
    assert ok.status_code == 200 and "recorded" in ok.text
    comp = Competition.open(where)
    entry = next(e for e in comp.entries() if e.kind == "match")
    assert entry.data == {"stage": "group", "group": "A", "teams": [a, b], "winner": b}
    assert entry.by == "web: table 1"
    comp.close()
    assert client.get(f"/t/{code}").status_code == 409
    assert client.get(f"/t/{matches[2][0]}").status_code == 200
    rounds = client.get("/rounds").text
    assert rounds.count("<h2>Round") == 1 and rounds.count(f"Group A: {a} v {b}") == 1


def test_a_league_game_is_entered_through_its_tables_own_link(tmp_path):
    """A league's rounds are its games: each table of each round has a sheet with its
    link, which enters that table's game only — the stage, round and table fixed by the
    link, its players the table's — and is spent once entered; the final's table opens
    once every league game is in, seating the finalists. The rounds page lists the
    league's rounds, not a hundred copies of its first (it printed rounds 1 to 100)."""
    where = str(tmp_path / "draw.db")
    teams = ["Sketchers", "Doodlers", "Scribblers", "Inkers"]
    Competition.create(where, "pictionary", None, {"games_each": 2, "finalists": 2},
                       [{"name": n} for n in teams], "t").close()
    client = TestClient(create_app(where, PASSWORD))
    signed_in(client)
    key, tables = links(where)
    assert sorted(tables) == [1, 2] and tables[2][1] == ["Scribblers", "Inkers"]
    code = tables[2][0]
    sheets = client.get("/o/sheets", params={"round": 1}).text
    assert f"{code[:5]}-{code[5:]}" in sheets
    form = client.get(f"/t/{code}")
    assert form.status_code == 200 and 'name="f-result.teams"' in form.text
    assert not re.search(r'name="f-(stage|round|table)"', form.text)
    stranger = client.post(f"/t/{code}", data={"f-result.teams": "Scribblers: 31 finished\n"
                                                                 "Doodlers: 20"})
    assert stranger.status_code == 422 and "round 1 table 2 seats Scribblers, Inkers" in \
        stranger.text
    ok = client.post(f"/t/{code}", data={"f-result.teams": "Scribblers: 31 finished\n"
                                                           "Inkers: 20"})
    assert ok.status_code == 200 and "recorded" in ok.text
    assert client.get(f"/t/{code}").status_code == 409  # entered once
    comp = Competition.open(where)
    entry = next(e for e in comp.entries() if e.kind == "game")
    assert {k: entry.data[k] for k in ("stage", "round", "table")} == {
        "stage": "league", "round": 1, "table": 2} and entry.by == "web: table 2"
    assert client.get("/rounds").text.count("<h2>Round") == 2  # the final not yet seated
    for r, t, seats in comp.open_tables():  # the other three league games
        comp.record("game", {"stage": "league", "round": r, "table": t, "result": {
            "teams": [{"name": seats[0], "squares": 31, "finished": True},
                      {"name": seats[1], "squares": 10}]}}, by="t")
    final = comp.open_tables()
    top = [row.name for row in comp.standings().rows[:2]]
    comp.close()
    assert [(r, t) for r, t, _ in final] == [(3, 1)]
    assert final[0][2] == top and "Sketchers" in top  # two wins, the finalists the top two
    ok = client.post(f"/t/{table_code(key, 3, 1)}", data={
        "f-result.teams": f"{top[0]}: 31 finished\n{top[1]}: 25"})
    assert ok.status_code == 200 and "recorded" in ok.text
    standings = client.get("/").text
    assert "final standings" in standings and client.get("/rounds").text.count("<h2>Round") == 3


def test_the_stages_matches_are_entered_through_each_matchs_own_link(tmp_path):
    """擂台: each match is a round of one table, its sheet carrying its own link. The
    first match's link enters holder, challenger and winner; each later one has the
    holder fixed (who holds the stage: the last winner), the challenger and winner
    typed and checked as at the desk; a match entered spends its link."""
    where = str(tmp_path / "stage.db")
    Competition.create(where, "kangle", None, {}, [{"name": n} for n in PLAYERS[:4]],
                       "t").close()
    client = TestClient(create_app(where, PASSWORD))
    signed_in(client)
    key, tables = links(where)
    assert list(tables) == [1] and tables[1][1] == []  # nobody holds the stage yet
    first = client.get(f"/t/{tables[1][0]}")
    assert first.status_code == 200 and "<h2>擂台 match 1</h2>" in first.text
    assert re.findall(r'name="f-(\w+)"', first.text) == ["holder", "challenger", "winner"]
    ok = client.post(f"/t/{tables[1][0]}", data={"f-holder": "Ann", "f-challenger": "Bo",
                                                 "f-winner": "Bo"})
    assert ok.status_code == 200 and "recorded" in ok.text
    assert client.get(f"/t/{tables[1][0]}").status_code == 409
    second = table_code(key, 2, 1)
    sheets = client.get("/o/sheets", params={"round": 2}).text
    assert f"{second[:5]}-{second[5:]}" in sheets
    form = client.get(f"/t/{second}")
    assert re.findall(r'name="f-(\w+)"', form.text) == ["challenger", "winner"]
    itself = client.post(f"/t/{second}", data={"f-challenger": "Bo", "f-winner": "Bo"})
    assert itself.status_code == 422 and "cannot challenge themself" in itself.text
    ok = client.post(f"/t/{second}", data={"f-challenger": "Cy", "f-winner": "Bo"})
    assert ok.status_code == 200 and "recorded" in ok.text
    comp = Competition.open(where)
    matches = [(e.data, e.by) for e in comp.entries() if e.kind == "match"]
    comp.close()
    assert matches == [({"holder": "Ann", "challenger": "Bo", "winner": "Bo"}, "web: table 1"),
                       ({"holder": "Bo", "challenger": "Cy", "winner": "Bo"}, "web: table 1")]


def test_an_uno_group_enters_each_hand_through_its_own_link_until_it_is_out(tmp_path):
    """UNO 拉超聯: round 1's groups are its tables (A, then B), each with its link; a
    group enters hand after hand through it (its round and group fixed, the players
    still in started a line each), and the link is spent once the round's players are
    out there. Round 2's merged table opens when both groups are through."""
    players = [{"name": f"{g}{d}", "day": f"Day {d}", "group": g} for d in range(1, 4)
               for g in "AB"]
    where = str(tmp_path / "uno.db")
    Competition.create(where, "uno", None, {"per_round": 1}, players, "t").close()
    client = TestClient(create_app(where, PASSWORD))
    signed_in(client)
    key, tables = links(where)
    assert {t: seats for t, (_, seats) in tables.items()} == {1: ["A1", "A2", "A3"],
                                                              2: ["B1", "B2", "B3"]}
    code = tables[1][0]
    form = client.get(f"/t/{code}")
    assert "<h2>Round 1 — group A</h2>" in form.text
    assert re.findall(r'name="f-(\w+)"', form.text) == ["out", "held"]
    assert re.search(r'<textarea name="f-held"[^>]*>A1: \nA2: \nA3: </textarea>', form.text)
    hand = client.post(f"/t/{code}", data={"f-out": "A1", "f-held": "A2: 9\nA3: skip"})
    assert hand.status_code == 200 and f'href="/t/{code}"' in hand.text  # the next hand
    stranger = client.post(f"/t/{code}", data={"f-out": "A1", "f-held": "B2: 9"})
    assert stranger.status_code == 422 and "is not playing in this round" in stranger.text
    last = client.post(f"/t/{code}", data={"f-out": "A1", "f-held": "A2: wild wild wild "
                                                                    "wild\nA3: 1"})
    assert last.status_code == 200 and f'href="/t/{code}"' not in last.text
    assert client.get(f"/t/{code}").status_code == 409  # A2 is out: the group is through
    comp = Competition.open(where)
    hands = [(e.data, e.by) for e in comp.entries() if e.kind == "hand"]
    comp.record("hand", {"round": 1, "group": "B", "out": "B1", "held": {"B2": ["wild"] * 4}},
                by="t")
    merged = comp.open_tables()
    comp.close()
    assert hands[0] == ({"round": 1, "group": "A", "out": "A1", "held": {"A2": ["9"],
                                                                          "A3": ["skip"]}},
                        "web: table 1")
    assert merged == [(2, 1, ["A1", "A3", "B1", "B3"])]
